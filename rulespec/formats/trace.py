"""The trace file (``rulespec-trace/1``, JSON): a game's actions from setup, and the spec
that played them. Schema: ``docs/formats/trace.schema.json``.

A trace names its spec by a bundled game's name, or by the absolute path of a spec file
together with that file's SHA-256: a trace is data, and a path alone would make replaying
it run whatever code now lies there (``docs/security.md``).
"""

import os
import re
from typing import Any

import attrs

from .errors import FormatError
from .files import dump_json, parse_json, read_text
from .locate import json_line
from .schema import SchemaProblem, field, show, structure

FORMAT = "rulespec-trace/1"
#: a trace is a few kilobytes; a file far larger than any game's trace is refused unread
MAX_TRACE_BYTES = 16 * 1024 * 1024
_SHA256 = re.compile(r"[0-9a-f]{64}")


class TraceError(FormatError):
    """A trace file is missing or malformed (one clear line: file and problem)."""


@attrs.frozen
class Violates:
    WHERE = "'violates'"
    property: str = field(missing="'violates' needs a \"property\" name and a \"message\" text",
                          expect="a property's name")
    message: str | None = field(default=None, expect="a text")


@attrs.frozen
class TraceDoc:
    """A trace file as written: every key, checked for its type."""

    WHERE = "a trace"
    game: str = field(expect="a game's name", missing="'game' must be a game's name")
    players: int = field(expect="a positive integer",
                         missing="'players' must be a positive integer")
    actions: list[str] = field(expect="a list of action texts",
                               missing="'actions' must be a list of action texts")
    format: str = field(default=FORMAT, expect=f"{FORMAT!r}")
    interpretation: dict[str, str] | None = field(
        default=None, expect="an object of point: \"option\"")
    violates: Violates | None = field(default=None,
                                      expect="an object {\"property\", \"message\"}")
    spec_path: str | None = field(default=None, expect="the path of a spec file")
    spec_sha256: str | None = field(default=None, expect="64 hex digits")
    #: the --components file the run used (its bytes are in spec_sha256)
    components_path: str | None = field(default=None, expect="the path of a components file")


def _check(doc: TraceDoc) -> None:
    """What the types alone do not say."""
    if doc.format != FORMAT:
        raise SchemaProblem(f"'format' must be {FORMAT!r}, not {show(doc.format)}", "format")
    if not doc.game.strip():
        raise SchemaProblem("'game' must be a game's name, not \"\"", "game")
    if doc.players < 1:
        raise SchemaProblem(f"'players' must be a positive integer, not {doc.players}",
                            "players")
    if doc.spec_path is not None and not doc.spec_path.strip():
        raise SchemaProblem("'spec_path' must be the path of a spec file, not \"\"",
                            "spec_path")
    if doc.spec_sha256 is not None and not _SHA256.fullmatch(doc.spec_sha256):
        raise SchemaProblem(f"'spec_sha256' must be 64 hex digits, not {show(doc.spec_sha256)}",
                            "spec_sha256")
    if doc.components_path is not None and doc.spec_path is None:
        raise SchemaProblem("'components_path' needs the spec it replaces catalogues of "
                            "('spec_path' and 'spec_sha256')", "components_path")
    if doc.spec_path is not None and doc.spec_sha256 is None:
        raise SchemaProblem(
            f"names its spec by path ({show(doc.spec_path, 80)}) without its SHA-256 "
            "('spec_sha256'): a trace does not run code it cannot vouch for; traces written "
            "by rulespec carry it (run `rulespec check` again)", "spec_path")


def trace_doc(data: Any, where: str = "trace", text: str | None = None) -> TraceDoc:
    """Validate a trace's JSON value; :class:`TraceError` names the first problem (and its
    line when the file's ``text`` is given)."""
    if not isinstance(data, dict):
        raise TraceError(where, f"a trace must be a JSON object, not {_kind(data)}")
    try:
        doc = structure(data, TraceDoc)
        _check(doc)
    except SchemaProblem as p:
        line = json_line(text, p.keys) if text is not None and p.keys else None
        raise TraceError(where, p.problem, line=line) from None
    return doc


def read_trace_doc(path: str | os.PathLike) -> TraceDoc:
    """Read and validate a trace file (nothing of the spec it names is touched)."""
    shown = os.fspath(path)
    text = read_text(path, what="trace", max_bytes=MAX_TRACE_BYTES, error=_trace_error)
    data = parse_json(text, shown, what="trace", error=TraceError)
    return trace_doc(data, shown, text)


def _trace_error(path: str, problem: str, **kw: Any) -> TraceError:
    if problem == "no such file":
        problem = "no such trace file"
    return TraceError(path, problem, **kw)


def dump_trace(doc: TraceDoc) -> str:
    """A trace document as the JSON text of its file."""
    return dump_json(trace_json(doc))


def trace_json(doc: TraceDoc) -> dict[str, Any]:
    """A trace document as its file's JSON value (keys that say nothing left out)."""
    d: dict[str, Any] = {"format": doc.format, "game": doc.game, "players": doc.players,
                         "interpretation": dict(doc.interpretation or {}),
                         "actions": list(doc.actions)}
    if doc.violates is not None:
        d["violates"] = {"property": doc.violates.property, "message": doc.violates.message}
    if doc.spec_path is not None:
        d["spec_path"] = doc.spec_path
    if doc.spec_sha256 is not None:
        d["spec_sha256"] = doc.spec_sha256
    if doc.components_path is not None:
        d["components_path"] = doc.components_path
    return d


def _kind(value: Any) -> str:
    return {dict: "an object", list: "a list", str: "a string", bool: "true/false",
            int: "a number", float: "a number", type(None): "null"}.get(type(value), "a value")
