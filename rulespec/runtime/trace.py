"""Traces: a game's actions from setup, saved as JSON (atomically) and read back."""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any

import attrs


class TraceError(ValueError):
    """A trace file is malformed (one clear line: file and problem)."""


@attrs.frozen
class Trace:
    """Everything needed to replay a game: which game, how read, how many, which actions."""

    game: str
    players: int
    actions: tuple[str, ...]
    interpretation: dict[str, str] = attrs.field(factory=dict)
    property: str | None = None
    message: str | None = None
    spec_path: str | None = None

    def to_json(self) -> dict[str, Any]:
        d = {"format": "rulespec-trace/1", "game": self.game, "players": self.players,
             "interpretation": dict(self.interpretation), "actions": list(self.actions)}
        if self.property:
            d["violates"] = {"property": self.property, "message": self.message}
        if self.spec_path:
            d["spec_path"] = self.spec_path
        return d


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
    """Save a trace as pretty JSON, atomically."""
    return write_atomically(path, json.dumps(trace.to_json(), indent=2, ensure_ascii=False) + "\n")


def load_trace(path: str | os.PathLike) -> Trace:
    """Read a trace file; raises :class:`TraceError` naming the file and the problem."""
    p = Path(path)
    try:
        data = json.loads(p.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise TraceError(f"{p}: no such trace file") from None
    except json.JSONDecodeError as err:
        raise TraceError(f"{p}:{err.lineno}: not valid JSON ({err.msg})") from None
    if not isinstance(data, dict):
        raise TraceError(f"{p}: a trace must be a JSON object")
    for key, typ in (("game", str), ("players", int), ("actions", list)):
        if not isinstance(data.get(key), typ):
            raise TraceError(f"{p}: '{key}' must be a {typ.__name__}")
    if not all(isinstance(a, str) for a in data["actions"]):
        raise TraceError(f"{p}: 'actions' must be a list of action texts")
    interp = data.get("interpretation") or {}
    if not isinstance(interp, dict):
        raise TraceError(f"{p}: 'interpretation' must be an object")
    v = data.get("violates") or {}
    return Trace(data["game"], data["players"], tuple(data["actions"]), dict(interp),
                 v.get("property"), v.get("message"), data.get("spec_path"))
