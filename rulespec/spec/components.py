"""Component data: a game's cards, tiles and tables in a data file beside its spec.

``game.components("cards", Card)`` reads the catalogue ``[cards]`` of the game folder's
``components.toml`` (docs/formats/components.md): one table per entry, read strictly through
the attrs class the spec declares (``Card``), each entry with its provenance -- printed (with
its source), research (with its source) or constructed (with the reason) -- given on the
entry or, for every entry at once, on the catalogue. It returns ``{entry: record}`` in the
file's order, each value tagged like a ``game.assume`` entry (:mod:`rulespec.ir.assumed`),
and registers the catalogue among the spec's assumptions as a :class:`Components`, so that
``info``, the report and ``mutate`` say which entries are constructed.

Data never runs code: the file is TOML, parsed by ``tomllib``; every problem is one
``SpecError`` naming the file, the line and the entry, raised while the spec loads, before
any work. The registry (``rulespec.runtime.registry``) gives a spec being loaded the bytes of
its game folder (what its identity hashed) and the ``--components`` file that replaces its
catalogues, through :func:`reading`; a spec built outside the registry reads the file beside
the spec file.
"""

from __future__ import annotations

import contextlib
import contextvars
import os
import re
from pathlib import Path
from typing import Any, Iterator, Mapping, Sequence

import attrs
import cattrs
from cattrs.errors import BaseValidationError

from ..formats.errors import FormatError, one_line
from ..formats.files import parse_toml
from ..formats.locate import TomlLines
from ..formats.schema import CONVERTER, SchemaProblem, _first_problem, _leaves, show
from ..ir.assumed import Assumed, _deep
from ..ir.errors import SpecError
from ..ir.location import Location, caller_location
from .elements import Assumption

#: the provenance keys, in the order a reader is told them
PROVENANCE = ("printed", "research", "constructed")
#: what a catalogue table may hold besides its entries
CATALOGUE_KEYS = (*PROVENANCE, "about")
#: the data file a catalogue is read from when the spec names none
DEFAULT_FILE = "components.toml"
#: a data file's size limit (read before parsing)
MAX_BYTES = 4 * 1024 * 1024
#: an entry's name: it becomes enum members, scenario values and report anchors
_ENTRY_NAME = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_-]{0,59}$")
#: a data file's name: one file of the game folder, never a path out of it
_FILE_NAME = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_.-]{0,99}\.(toml|csv)$")


@attrs.frozen
class Provenance:
    """Where one entry comes from: ``kind`` is printed, research or constructed; ``text``
    the source (printed, research) or the reason (constructed)."""

    kind: str
    text: str


@attrs.frozen(eq=False)
class Components(Assumption):
    """A catalogue of component data (``game.components``): an assumption whose entries
    each say where they come from. ``value`` is the entries as the file gives them."""

    #: the data file it was read from, as shown in errors (a ``--components`` file too)
    file: str = ""
    #: entry name -> its provenance, in the file's order
    provenance: Mapping[str, Provenance] = attrs.field(factory=dict)
    #: the catalogue's ``about`` text, if it has one
    about: str | None = None
    #: True when a ``--components`` file gave it instead of the game folder's own
    replaced: bool = False

    def entries_of(self, kind: str) -> list[str]:
        """The entries whose provenance is ``kind`` (printed, research or constructed)."""
        return [e for e, p in self.provenance.items() if p.kind == kind]

    def counts(self) -> dict[str, int]:
        """How many entries of each provenance kind (kinds with none left out)."""
        out = {k: len(self.entries_of(k)) for k in PROVENANCE}
        return {k: n for k, n in out.items() if n}


class ComponentValueError(ValueError):
    """A value a schema's validator refuses (:func:`member_of`): its message is the line,
    ``field`` the key it is about."""

    def __init__(self, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.field = field


def member_of(choices: Any) -> Any:
    """An attrs validator: the value (a name, or each name of a list) must be a member of a
    rulespec enum or one of the names given.

    >>> @attrs.frozen
    ... class Cell:
    ...     terrain: str = attrs.field(validator=member_of(["land", "sea"]))
    >>> Cell("sea")
    Cell(terrain='sea')
    >>> Cell("lava")
    Traceback (most recent call last):
    ...
    rulespec.spec.components.ComponentValueError: 'terrain' must be one of land, sea, got "lava"
    """
    names = tuple(getattr(choices, "members", choices))

    def check(_instance: Any, attribute: Any, value: Any) -> None:
        for v in value if isinstance(value, (list, tuple)) else (value,):
            if v not in names:
                raise ComponentValueError(
                    f"'{attribute.name}' must be one of {', '.join(names)}, got {show(v)}",
                    attribute.name)
    return check


# --- what the registry gives a spec being loaded ----------------------------------------------
@attrs.define
class Reading:
    """The files a spec being loaded may read: its game folder's bytes (hashed into the
    spec's identity) and a ``--components`` file replacing catalogues."""

    folder: Path | None
    files: Mapping[str, bytes]
    #: (the path as shown, its bytes) of a ``--components`` file, or None
    override: tuple[str, bytes] | None = None
    #: the catalogues the spec declared (to refuse an override naming another)
    declared: list[str] = attrs.field(factory=list)
    _parsed: dict = attrs.field(factory=dict)


_READING: contextvars.ContextVar[Reading | None] = contextvars.ContextVar("rulespec_reading",
                                                                          default=None)


@contextlib.contextmanager
def reading(folder: Path | None, files: Mapping[str, bytes],
            override: tuple[str, bytes] | None = None) -> Iterator[Reading]:
    """While a spec loads: where ``game.components`` reads its data (see :class:`Reading`)."""
    r = Reading(folder, files, override)
    token = _READING.set(r)
    try:
        yield r
    finally:
        _READING.reset(token)


def check_override_used(r: Reading) -> None:
    """A ``--components`` file naming a catalogue the spec does not declare is an error
    (a typo would silently leave the spec's own list in force)."""
    if r.override is None:
        return
    shown, raw = r.override
    data, lines = _parsed(r, shown, raw)
    extra = [k for k in data if k not in r.declared]
    if extra:
        known = ", ".join(r.declared) or "none"
        raise SpecError(f"catalogue {extra[0]!r} is not one the spec declares (it declares: "
                        f"{known})", element="components",
                        where=Location(shown, _line(lines, (extra[0],)) if lines else 1))


# --- declaring a catalogue ---------------------------------------------------------------
def declare(game: Any, name: str, schema: type, *, file: str = DEFAULT_FILE,
            members: Any = None) -> dict[str, Any]:
    """``game.components``: see :meth:`rulespec.spec.Game.components`."""
    where = caller_location()
    element = f"components {name}"
    game._claim("components", name, where)
    if not (isinstance(schema, type) and attrs.has(schema)):
        raise SpecError(f"the schema of {name} must be an attrs class (@attrs.frozen class "
                        f"...), got {schema!r}", element=element, where=where)
    try:
        attrs.resolve_types(schema)
    except (NameError, TypeError) as err:
        raise SpecError(f"cannot read the schema's field types: {err}", element=element,
                        where=where) from None
    clash = [f.name for f in attrs.fields(schema) if f.name in CATALOGUE_KEYS]
    if clash:
        raise SpecError(f"the schema field {clash[0]!r} is a word of the file format (an "
                        f"entry's provenance: {', '.join(PROVENANCE)}): rename it",
                        element=element, where=where)
    if not isinstance(file, str) or not _FILE_NAME.match(file) or ".." in file:
        raise SpecError(f"file={file!r}: a data file of the game folder, by its name only "
                        "(letters, digits, '_', '-', '.', ending in .toml or .csv)",
                        element=element, where=where)
    shown, raw, replaced, r = _source(name, file, where, element)
    if shown.endswith(".csv"):
        data, at = _csv(shown, raw, name, schema, where, element)
    else:
        data, lines = _parsed(r, shown, raw) if r is not None else _parse(shown, raw)
        at = (lambda *keys: Location(shown, _line(lines, (name, *keys))))
    if name not in data:
        raise SpecError(f"{shown} has no catalogue [{name}]", element=element, where=where)
    table = data[name]
    if not isinstance(table, dict):
        raise SpecError(f"[{name}] must be a table of entries, got {show(table)}",
                        element=element, where=at())
    default = _provenance(table, name, at, f"catalogue {name}")
    about = table.get("about")
    if about is not None and not isinstance(about, str):
        raise SpecError(f"'about' must be a string, got {show(about)}", element=element,
                        where=at("about"))
    records: dict[str, Any] = {}
    provenance: dict[str, Provenance] = {}
    value: dict[str, Any] = {}
    for key, entry in table.items():
        if key in CATALOGUE_KEYS:
            continue
        in_entry = f"{name} entry {key!r}"
        if not isinstance(entry, dict):
            raise SpecError(f"{key!r} must be an entry, a table ([{name}.{key}]); the "
                            f"catalogue's own keys are {', '.join(CATALOGUE_KEYS)}",
                            element=element, where=at(key))
        if not _ENTRY_NAME.match(key):
            raise SpecError("an entry's name is letters, digits, '_' and '-' (at most 60), "
                            f"got {show(key)}", element=in_entry, where=at(key))
        own = _provenance(entry, key, lambda *k, key=key: at(key, *k), in_entry)
        prov = own or default
        if prov is None:
            raise SpecError("no provenance: give printed = \"SOURCE\", research = \"SOURCE\" "
                            f"or constructed = \"REASON\" (in the entry, or in [{name}] for "
                            "every entry)", element=in_entry, where=at(key))
        fields = {k: v for k, v in entry.items() if k not in PROVENANCE}
        record = _structure(fields, schema, lambda *k, key=key: at(key, *k), in_entry)
        records[key] = _tagged(record, frozenset({Assumed(name, key)}))
        provenance[key] = prov
        value[key] = {**fields, prov.kind: prov.text}
    if members is not None:
        _check_members(records, members, name, at, element)
    game.assumptions.append(Components(
        name, value, _reason(provenance), _origin(provenance), where, tuple(records),
        file=shown, provenance=provenance, about=about, replaced=replaced))
    if r is not None:
        r.declared.append(name)
    return records


def _source(name: str, file: str, where: Location | None, element: str
            ) -> tuple[str, bytes, bool, Reading | None]:
    """The file to read ``name`` from: (shown path, bytes, from --components?, reading)."""
    r = _READING.get()
    if r is not None and r.override is not None:
        shown, raw = r.override
        data, _ = _parsed(r, shown, raw)
        if name in data:
            return shown, raw, True, r
    if r is not None:
        if r.folder is None:
            raise SpecError(f"only a game folder's spec.py reads data files: put this spec "
                            f"in a folder as spec.py, beside {file}", element=element,
                            where=where)
        shown = _short(r.folder / file)
        if file not in r.files:
            raise SpecError(f"no data file {file} in the game folder ({_short(r.folder)})",
                            element=element, where=where)
        return shown, r.files[file], False, r
    # a spec built outside the registry (a test, a notebook): the file beside the spec
    base = Path(where.file).resolve().parent if where is not None else Path.cwd()
    path = base / file
    try:
        raw = path.read_bytes()
    except OSError as err:
        raise SpecError(f"cannot read {_short(path)}: {err.strerror or err}",
                        element=element, where=where) from None
    return _short(path), raw, False, None


def _parsed(r: Reading, shown: str, raw: bytes) -> tuple[dict, TomlLines | None]:
    if shown.endswith(".csv"):   # one catalogue, named by the file (read with its schema)
        return {Path(shown).stem: {}}, None
    got = r._parsed.get(shown)
    if got is None:
        got = r._parsed[shown] = _parse(shown, raw)
    return got


def _text(shown: str, raw: bytes) -> str:
    if len(raw) > MAX_BYTES:
        raise SpecError(f"too large for a components file (more than {MAX_BYTES} bytes)",
                        where=Location(shown, 1))
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        raise SpecError("not a components file: not UTF-8 text", where=Location(shown, 1)
                        ) from None


def _csv(shown: str, raw: bytes, name: str, schema: type, where: Location | None,
         element: str) -> tuple[dict, Any]:
    """A CSV catalogue (:mod:`.components_csv`) as the table a TOML one is, and where each
    of its keys is."""
    from .components_csv import CsvProblem, read_csv, unreadable_fields
    bad = unreadable_fields(schema)
    if bad:
        raise SpecError(f"a CSV cell cannot hold the field {bad[0]!r} (a table or a list of "
                        "tables): write this catalogue in TOML", element=element, where=where)
    try:
        data, lines = read_csv(_text(shown, raw), name, schema)
    except CsvProblem as p:
        about = f"{name} entry {p.keys[0]!r}" if p.keys else element
        raise SpecError(str(p), element=about, where=Location(shown, p.line)) from None

    def at(*keys: Any) -> Location:
        for depth in range(len(keys), -1, -1):
            line = lines.get((name, *keys[:depth]))
            if line:
                return Location(shown, line)
        return Location(shown, 1)
    return data, at


def _parse(shown: str, raw: bytes) -> tuple[dict, TomlLines]:
    text = _text(shown, raw)
    try:
        data = parse_toml(text, shown)
    except FormatError as err:
        raise SpecError(err.problem, where=Location(shown, err.line or 1)) from None
    return data, TomlLines(text, array="\0")


def _line(lines: TomlLines, keys: Sequence[Any]) -> int:
    """The 1-based line of a key path in a components file: the deepest table header
    (``[cards.C2]``) the path names, then the key's own line inside that table (best
    effort: the header's line, else 1)."""
    names = [str(k) for k in keys if isinstance(k, str)]
    for depth in range(len(names), 0, -1):
        dotted = ".".join(names[:depth])
        header = next((i for i, n, _ in lines.headers if n == dotted), None)
        if header is None:
            continue
        end = next((i for i, _, _ in lines.headers if i > header), len(lines.lines))
        for key in names[depth:depth + 1]:
            q = re.escape(key)
            pattern = re.compile(rf"""^\s*("{q}"|'{q}'|{q})\s*[=.]""")
            for i in range(header + 1, end):
                if pattern.match(lines.lines[i]):
                    return i + 1
        return header + 1
    return 1


def _provenance(table: dict, name: str, at: Any, element: str) -> Provenance | None:
    given = [k for k in PROVENANCE if k in table]
    if len(given) > 1:
        raise SpecError(f"give one provenance, not {' and '.join(given)}", element=element,
                        where=at(given[1]))
    if not given:
        return None
    text = table[given[0]]
    if not isinstance(text, str) or not text.strip():
        what = "the reason" if given[0] == "constructed" else "the source"
        raise SpecError(f"'{given[0]}' must be {what}, a non-empty string, got {show(text)}",
                        element=element, where=at(given[0]))
    return Provenance(given[0], one_line(text))


def _structure(fields: dict, schema: type, at: Any, element: str) -> Any:
    try:
        return CONVERTER.structure(fields, schema)
    except (BaseValidationError, KeyError, TypeError, AttributeError, ValueError) as err:
        for keys, leaf in _leaves(err, ()):
            if isinstance(leaf, ComponentValueError):
                keys = keys if keys or leaf.field is None else (leaf.field,)
                raise SpecError(str(leaf), element=element, where=at(*keys)) from None
        try:
            problem = _first_problem(err, fields, schema)
        except (cattrs.errors.StructureHandlerNotFoundError, Exception):  # noqa: BLE001
            problem = SchemaProblem(one_line(str(err)) or type(err).__name__)
        raise SpecError(problem.problem, element=element, where=at(*problem.keys)) from None


def _tagged(value: Any, tags: frozenset) -> Any:
    """``value`` with every int and string in it tagged (records rebuilt field by field)."""
    if attrs.has(type(value)):
        return attrs.evolve(value, **{f.alias or f.name: _tagged(getattr(value, f.name), tags)
                                      for f in attrs.fields(type(value)) if f.init})
    if isinstance(value, dict):
        return {k: _tagged(v, tags) for k, v in value.items()}
    if isinstance(value, list):
        return [_tagged(v, tags) for v in value]
    if isinstance(value, tuple):
        return tuple(_tagged(v, tags) for v in value)
    return _deep(value, tags)


def _check_members(records: dict, members: Any, name: str, at: Any, element: str) -> None:
    names: Sequence[str] = tuple(getattr(members, "members", members))
    label = getattr(members, "name", "the list")
    for key in records:
        if key not in names:
            raise SpecError(f"entry {key!r} is no member of {label} (one entry per member: "
                            f"{_few(names)})", element=element, where=at(key))
    missing = [n for n in names if n not in records]
    if missing:
        raise SpecError(f"no entry for {_few(missing)} (one entry per member of {label})",
                        element=element, where=at())


def _few(names: Sequence[str], n: int = 6) -> str:
    shown = ", ".join(names[:n])
    return shown + (f", ... ({len(names) - n} more)" if len(names) > n else "")


def _reason(provenance: Mapping[str, Provenance]) -> str:
    """One line for the catalogue's reason: its entries by provenance kind."""
    counts = {k: sum(1 for p in provenance.values() if p.kind == k) for k in PROVENANCE}
    parts = [f"{n} {k}" for k, n in counts.items() if n]
    return f"component data: {len(provenance)} entries ({', '.join(parts) or 'none'})"


def _origin(provenance: Mapping[str, Provenance]) -> str:
    """Each provenance text once, with its kind and how many entries it covers."""
    seen: dict[tuple[str, str], int] = {}
    for p in provenance.values():
        seen[(p.kind, p.text)] = seen.get((p.kind, p.text), 0) + 1
    return "; ".join(f"{kind.upper()} ({n}): {text}" for (kind, text), n in seen.items())


def _short(path: str | os.PathLike) -> str:
    text = os.fspath(path)
    try:
        rel = os.path.relpath(text)
    except ValueError:
        return text
    return text if rel.startswith("..") else rel


def catalogues(spec: Any) -> list[Components]:
    """The spec's catalogues of component data, in declaration order."""
    return [a for a in spec.assumptions if isinstance(a, Components)]


def describe(c: Components) -> dict[str, Any]:
    """A catalogue as JSON: its file, how many entries of each provenance, and every entry
    with its provenance and source or reason (``info --json``, the report)."""
    return {"name": c.name, "file": c.file, "about": c.about, "replaced": c.replaced,
            "counts": c.counts(), "constructed": c.entries_of("constructed"),
            "research": c.entries_of("research"),
            "entries": [{"name": e, "provenance": p.kind, "text": p.text}
                        for e, p in c.provenance.items()]}

