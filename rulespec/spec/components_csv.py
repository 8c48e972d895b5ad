"""A catalogue of component data as CSV: one row per entry (a publisher's spreadsheet).

The first row names the columns: ``name`` (the entry), the schema's fields, and the entry's
provenance, one of ``printed``, ``research`` and ``constructed`` filled in per row. A cell
is read by its field's declared type: an integer, ``true``/``false``, a string, a list of
them separated by ``;``; an empty cell is a field's default (or None for an optional one).
The catalogue's name is the file's name without ``.csv``. The rows become the same table
a TOML catalogue is, so the schema, the provenance and the errors are those of
:mod:`rulespec.spec.components`.
"""

from __future__ import annotations

import csv
import io
import re
import typing
from typing import Any, Callable

import attrs

from ..formats.schema import show

_INT = re.compile(r"^[+-]?\d+$")
PROVENANCE = ("printed", "research", "constructed")


class CsvProblem(ValueError):
    """A problem of the file: its message and the 1-based line (``line``), and the key."""

    def __init__(self, problem: str, line: int, *keys: str) -> None:
        super().__init__(problem)
        self.line, self.keys = line, keys


def _scalar(tp: Any) -> Callable[[str], Any] | None:
    if tp is int:
        return lambda text: int(text) if _INT.match(text) else _bad("an integer", text)
    if tp is bool:
        return lambda text: {"true": True, "false": False}.get(text) if text in (
            "true", "false") else _bad("true or false", text)
    if tp is str:
        return lambda text: text
    return None


def _bad(want: str, text: str) -> Any:
    raise ValueError(f"must be {want}, got {show(text)}")


def reader_for(tp: Any) -> Callable[[str], Any] | None:
    """How a cell of a field of type ``tp`` is read; None for a type a cell cannot hold."""
    args = [a for a in typing.get_args(tp) if a is not type(None)]
    if type(None) in typing.get_args(tp) and len(args) == 1:
        inner = reader_for(args[0])
        return None if inner is None else (lambda text: None if text == "" else inner(text))
    if typing.get_origin(tp) in (list, tuple):
        item = _scalar(typing.get_args(tp)[0]) if typing.get_args(tp) else None
        if item is None:
            return None
        return lambda text: [item(t.strip()) for t in text.split(";")] if text.strip() else []
    return _scalar(tp)


def unreadable_fields(schema: type) -> list[str]:
    """The schema's fields a CSV cell cannot hold (a table, a list of tables)."""
    return [f.name for f in attrs.fields(schema) if reader_for(f.type) is None]


def read_csv(text: str, name: str, schema: type) -> tuple[dict[str, Any], dict[tuple, int]]:
    """The catalogue ``{name: {entry: {key: value}}}`` a CSV text holds, and the line of
    each ``(name, entry[, key])``. Raises :class:`CsvProblem`."""
    rows = csv.reader(io.StringIO(text))
    try:
        header = next(rows)
    except StopIteration:
        raise CsvProblem("an empty file: the first row names the columns (name, the "
                         "fields, and printed, research or constructed)", 1) from None
    except csv.Error as err:
        raise CsvProblem(f"not valid CSV: {err}", 1) from None
    header = [h.strip() for h in header]
    fields = {f.name: f for f in attrs.fields(schema)}
    if "name" not in header:
        raise CsvProblem("no 'name' column: the first row names the columns (name, the "
                         "fields, and printed, research or constructed)", 1)
    for h in header:
        if h != "name" and h not in fields and h not in PROVENANCE:
            raise CsvProblem(f"unknown column {h!r} (allowed: name, "
                             f"{', '.join([*fields, *PROVENANCE])})", 1, h)
    table: dict[str, Any] = {}
    lines: dict[tuple, int] = {(name,): 1}
    line = 1
    try:
        for row in rows:
            line = rows.line_num
            if not any(cell.strip() for cell in row):
                continue
            if len(row) != len(header):
                raise CsvProblem(f"{len(row)} cells, not {len(header)} (one per column)", line)
            cells = dict(zip(header, (c.strip() for c in row)))
            entry = cells.pop("name")
            if entry in table:
                raise CsvProblem(f"a second row for {entry!r}", line, entry)
            lines[(name, entry)] = line
            values: dict[str, Any] = {}
            for key, cell in cells.items():
                lines[(name, entry, key)] = line
                if key in PROVENANCE:
                    if cell:
                        values[key] = cell
                    continue
                if cell == "" and fields[key].default is not attrs.NOTHING:
                    continue
                try:
                    values[key] = reader_for(fields[key].type)(cell)  # type: ignore[misc]
                except ValueError as err:
                    raise CsvProblem(f"'{key}' {err}", line, entry, key) from None
            table[entry] = values
    except csv.Error as err:
        raise CsvProblem(f"not valid CSV: {err}", line) from None
    return {name: table}, lines
