"""Traces: a game's actions from setup, saved as JSON (atomically) and read back.

A trace names the spec that produced it, so that ``rulespec replay`` checks that same
spec: a bundled game by its name only; any spec loaded from a path (a copy of a bundled
game included) by its absolute path and the SHA-256 of the file, and replay refuses a spec
that changed since.
"""

from __future__ import annotations

import json
import os
import re
import tempfile
from pathlib import Path
from typing import Any, Sequence

import attrs

FORMAT = "rulespec-trace/1"
#: a trace is a few kilobytes; a file far larger than any game's trace is refused unread
MAX_TRACE_BYTES = 16 * 1024 * 1024
_KEYS = {"format", "game", "players", "interpretation", "actions", "violates", "spec_path",
         "spec_sha256"}


class TraceError(ValueError):
    """A trace file is malformed (one clear line: file and problem)."""


class TraceWriteError(OSError):
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
    #: SHA-256 of that file when the trace was written
    spec_sha256: str | None = None

    @classmethod
    def of(cls, model: Any, players: int, actions: Sequence[str], prop: str | None = None,
           message: str | None = None) -> "Trace":
        """A trace of ``model`` (its spec named as :func:`spec_identity` says)."""
        spec_path, sha = spec_identity(model)
        return cls(model.name, players, tuple(actions), dict(model.interpretation), prop,
                   message, spec_path, sha)

    def to_json(self) -> dict[str, Any]:
        d: dict[str, Any] = {"format": FORMAT, "game": self.game, "players": self.players,
                             "interpretation": dict(self.interpretation),
                             "actions": list(self.actions)}
        if self.property:
            d["violates"] = {"property": self.property, "message": self.message}
        if self.spec_path:
            d["spec_path"] = self.spec_path
        if self.spec_sha256:
            d["spec_sha256"] = self.spec_sha256
        return d


def spec_identity(model: Any) -> tuple[str | None, str | None]:
    """``(absolute spec path, sha256)`` for a trace of ``model``; ``(None, None)`` for a
    bundled game loaded as such."""
    from .registry import file_sha256, origin
    found = origin(model.spec)
    if found is not None:
        if found.bundled is not None:
            return None, None
        return str(found.path), found.sha256
    if model.spec.file:  # a spec built outside the registry: the file it was written in
        path = Path(model.spec.file).resolve()
        if path.is_file():
            return str(path), file_sha256(path)
    return None, None


def write_atomically(path: str | os.PathLike, text: str) -> Path:
    """Write ``text`` to ``path`` so that a reader sees the old file or the new, never half."""
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", dir=target.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, target)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
    return target


def save_trace(trace: Trace, path: str | os.PathLike) -> Path:
    """Save a trace as pretty JSON, atomically; :class:`TraceWriteError` if it cannot be."""
    try:
        return write_atomically(path, json.dumps(trace.to_json(), indent=2,
                                                 ensure_ascii=False) + "\n")
    except OSError as err:
        why = err.strerror or str(err)
        raise TraceWriteError(f"cannot write {path}: {why}") from None


def load_trace(path: str | os.PathLike) -> Trace:
    """Read a trace file; raises :class:`TraceError` naming the file and the problem."""
    p = Path(path)
    try:
        if p.is_dir():
            raise TraceError(f"{p}: is a folder, not a trace file")
        if p.exists() and not p.is_file():
            raise TraceError(f"{p}: not a regular file (a device or a pipe?)")
        with open(p, "rb") as fh:  # read at most one byte more than a trace may have
            raw = fh.read(MAX_TRACE_BYTES + 1)
        if len(raw) > MAX_TRACE_BYTES:
            raise TraceError(f"{p}: too large for a trace (more than {MAX_TRACE_BYTES} "
                             "bytes)")
        text = raw.decode("utf-8")
    except FileNotFoundError:
        raise TraceError(f"{p}: no such trace file") from None
    except UnicodeDecodeError:
        raise TraceError(f"{p}: not a trace: not UTF-8 text") from None
    except OSError as err:
        raise TraceError(f"{p}: cannot read the file: {err.strerror or err}") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as err:
        raise TraceError(f"{p}:{err.lineno}: not valid JSON ({err.msg})") from None
    except RecursionError:
        raise TraceError(f"{p}: not a trace: JSON nested too deeply") from None
    return trace_from_json(data, str(p))


def trace_from_json(data: Any, where: str = "trace") -> Trace:
    """Validate a trace's JSON value; :class:`TraceError` names the first problem."""
    def bad(problem: str) -> TraceError:
        return TraceError(f"{where}: {problem}")

    if not isinstance(data, dict):
        raise bad(f"a trace must be a JSON object, not {_kind(data)}")
    unknown = sorted(str(k) for k in data if k not in _KEYS)
    if unknown:
        raise bad(f"unknown key(s) {', '.join(map(repr, unknown))[:200]} "
                  f"(a trace has: {', '.join(sorted(_KEYS))})")
    if data.get("format", FORMAT) != FORMAT:
        raise bad(f"'format' must be {FORMAT!r}, not {_short(data.get('format'))}")
    game = data.get("game")
    if not isinstance(game, str) or not game.strip():
        raise bad(f"'game' must be a game's name, not {_short(game)}")
    players = data.get("players")
    if type(players) is not int or players < 1:
        raise bad(f"'players' must be a positive integer, not {_short(players)}")
    actions = data.get("actions")
    if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
        raise bad("'actions' must be a list of action texts")
    interp = data.get("interpretation")
    interp = {} if interp is None else interp
    if not isinstance(interp, dict) or not all(isinstance(v, str) for v in interp.values()):
        raise bad("'interpretation' must be an object of point: \"option\"")
    violates = data.get("violates")
    prop = message = None
    if violates is not None:
        if not isinstance(violates, dict):
            raise bad(f"'violates' must be an object {{\"property\", \"message\"}}, "
                      f"not {_kind(violates)}")
        prop, message = violates.get("property"), violates.get("message")
        if not isinstance(prop, str) or not (message is None or isinstance(message, str)):
            raise bad("'violates' needs a \"property\" name and a \"message\" text")
    spec_path, sha = data.get("spec_path"), data.get("spec_sha256")
    if spec_path is not None and (not isinstance(spec_path, str) or not spec_path.strip()):
        raise bad(f"'spec_path' must be the path of a spec file, not {_short(spec_path)}")
    if sha is not None and (not isinstance(sha, str) or not re.fullmatch(r"[0-9a-f]{64}", sha)):
        raise bad(f"'spec_sha256' must be 64 hex digits, not {_short(sha)}")
    return Trace(game, players, tuple(actions), dict(interp), prop, message, spec_path, sha)


def _kind(value: Any) -> str:
    return {dict: "an object", list: "a list", str: "a string", bool: "true/false",
            int: "a number", float: "a number", type(None): "null"}.get(type(value), "a value")


def _short(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False) if not isinstance(value, float) else repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def trace_model(trace: Trace, where: str = "trace") -> Any:
    """The game a trace was made with, compiled under its interpretation.

    Raises :class:`TraceError` when that spec is gone or has changed since (a replay of
    another spec would check the wrong rules), and ``ValueError``/``SpecError`` as
    :func:`rulespec.load` does.
    """
    from .registry import available_games, file_sha256, load
    if trace.spec_path is None:
        if trace.game not in available_games():
            raise TraceError(f"{where}: game {_short(trace.game)} is not bundled and the trace "
                             "names no spec file")
        ref = trace.game
    else:
        spec = Path(trace.spec_path)
        if not spec.is_absolute():  # traces before 0.1 stored a path relative to the check
            raise TraceError(f"{where}: 'spec_path' {_short(trace.spec_path)} is relative; run "
                             "`rulespec check` again to write a trace with an absolute path")
        try:
            found = spec.is_file()
        except OSError:
            found = False
        if not found:
            raise TraceError(f"{where}: the spec this trace was made with, {spec}, is gone")
        try:
            now = file_sha256(spec) if trace.spec_sha256 is not None else None
        except OSError as err:
            raise TraceError(f"{where}: cannot read {spec}: {err.strerror or err}") from None
        if now is not None and now != trace.spec_sha256:
            raise TraceError(f"{where}: {spec} has changed since this trace was written "
                             "(its SHA-256 differs); run `rulespec check` again")
        ref = str(spec)
    interp = ",".join(f"{k}={v}" for k, v in trace.interpretation.items()) or None
    return load(ref, interpretation=interp)
