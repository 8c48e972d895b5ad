"""Traces: a game's actions from setup, saved as JSON (atomically) and read back.

A trace names the spec that produced it, so that ``rulespec replay`` checks that same
spec: a bundled game by its name only; any spec loaded from a path (a copy of a bundled
game included) by its absolute path and the SHA-256 of the file, and replay refuses a spec
that changed since, or a path without its hash, before anything of it runs. The file format
is read and written by :mod:`rulespec.formats.trace`.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Sequence

import attrs

from ..formats.files import OutputError, why, write_atomically
from ..formats.trace import (FORMAT, MAX_TRACE_BYTES, TraceDoc, TraceError, Violates,
                             dump_trace, read_trace_doc, trace_doc, trace_json)

__all__ = ["FORMAT", "MAX_TRACE_BYTES", "Trace", "TraceError", "TraceWriteError", "load_trace",
           "save_trace", "spec_identity", "trace_from_json", "trace_model", "write_atomically"]


class TraceWriteError(OutputError):
    """A trace could not be written (one line: where, and why)."""


@attrs.frozen
class Trace:
    """Everything needed to replay a game: which game, how read, how many, which actions."""

    game: str
    players: int
    actions: tuple[str, ...]
    interpretation: dict[str, str] = attrs.field(factory=dict)
    property: str | None = None
    message: str | None = None
    #: absolute path of the spec file, for a spec not bundled with rulespec
    spec_path: str | None = None
    #: SHA-256 of that file (of its game folder's files) when the trace was written
    spec_sha256: str | None = None
    #: absolute path of the --components file the game was loaded with, if any
    components_path: str | None = None

    @classmethod
    def of(cls, model: Any, players: int, actions: Sequence[str], prop: str | None = None,
           message: str | None = None) -> "Trace":
        """A trace of ``model`` (its spec named as :func:`spec_identity` says)."""
        spec_path, sha = spec_identity(model)
        return cls(model.name, players, tuple(actions), dict(model.interpretation), prop,
                   message, spec_path, sha, components_identity(model))

    def doc(self) -> TraceDoc:
        """The trace as its file's document."""
        violates = None if not self.property else Violates(self.property, self.message)
        return TraceDoc(self.game, self.players, list(self.actions), FORMAT,
                        dict(self.interpretation), violates, self.spec_path, self.spec_sha256,
                        self.components_path)

    def to_json(self) -> dict[str, Any]:
        return trace_json(self.doc())


def spec_identity(model: Any) -> tuple[str | None, str | None]:
    """``(absolute spec path, sha256)`` for a trace of ``model``; ``(None, None)`` for a
    bundled game loaded as such."""
    from .registry import file_sha256, origin
    found = origin(model.spec)
    if found is not None:
        if found.bundled is not None and found.components is None:
            return None, None
        return str(found.path), found.sha256
    if model.spec.file:  # a spec built outside the registry: the file it was written in
        path = Path(model.spec.file).resolve()
        if path.is_file():
            return str(path), file_sha256(path)
    return None, None


def components_identity(model: Any) -> str | None:
    """The absolute path of the ``--components`` file ``model`` was loaded with, if any."""
    from .registry import origin
    found = origin(model.spec)
    return str(found.components) if found is not None and found.components else None


def save_trace(trace: Trace, path: str | os.PathLike) -> Path:
    """Save a trace as pretty JSON, atomically; :class:`TraceWriteError` if it cannot be."""
    try:
        return write_atomically(path, dump_trace(trace.doc()))
    except OSError as err:
        raise TraceWriteError(f"cannot write {path}: {why(err)}") from None


def load_trace(path: str | os.PathLike) -> Trace:
    """Read a trace file; raises :class:`TraceError` naming the file and the problem."""
    return _trace(read_trace_doc(path))


def trace_from_json(data: Any, where: str = "trace") -> Trace:
    """Validate a trace's JSON value; :class:`TraceError` names the first problem."""
    return _trace(trace_doc(data, where))


def _trace(doc: TraceDoc) -> Trace:
    v = doc.violates
    return Trace(doc.game, doc.players, tuple(doc.actions), dict(doc.interpretation or {}),
                 v.property if v else None, v.message if v else None, doc.spec_path,
                 doc.spec_sha256, doc.components_path)


def _short(value: Any) -> str:
    import json
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 60 else text[:57] + "..."


def trace_model(trace: Trace, where: str = "trace") -> Any:
    """The game a trace was made with, compiled under its interpretation.

    Raises :class:`TraceError` when that spec is gone or has changed since (a replay of
    another spec would check the wrong rules), and ``ValueError``/``SpecError`` as
    :func:`rulespec.load` does.
    """
    from .registry import SpecChanged, available_games, load
    if trace.spec_path is None:
        if trace.game not in available_games():
            raise TraceError(where, f"game {_short(trace.game)} is not bundled and the trace "
                             "names no spec file")
        ref = trace.game
    else:
        spec = Path(trace.spec_path)
        if not spec.is_absolute():  # traces before 0.1 stored a path relative to the check
            raise TraceError(where, f"'spec_path' {_short(trace.spec_path)} is relative; run "
                             "`rulespec check` again to write a trace with an absolute path")
        if trace.spec_sha256 is None:   # trace_from_json refuses this; a Trace built by hand
            raise TraceError(where, "names its spec by path without its SHA-256: refused")
        try:
            found = spec.is_file()
        except OSError:
            found = False
        if not found:
            raise TraceError(where, f"the spec this trace was made with, {spec}, is gone")
        ref = str(spec)
    interp = ",".join(f"{k}={v}" for k, v in trace.interpretation.items()) or None
    if trace.components_path is not None and not Path(trace.components_path).is_file():
        raise TraceError(where, f"the components file this trace was made with, "
                         f"{trace.components_path}, is gone")
    try:
        return load(ref, interpretation=interp, sha256=trace.spec_sha256,
                    components=trace.components_path)
    except SpecChanged:
        raise TraceError(where, f"{ref} has changed since this trace was written (its "
                         "SHA-256 differs); run `rulespec check` again") from None
