"""The verdict store: each verdict kept under a key made of everything it reads, so a later
run reuses what is unchanged and an interrupted one goes on where it stopped.

A key holds the hash of the IR the verdict reads (:mod:`.fingerprint`: the rest of the
spec and the actions it reaches, or the whole spec where no slice is sound), the options
and interpretation, the budget, the seed, and rulespec's, Z3's and Python's versions with
the hash of rulespec's own code. A verdict checked at one budget is never found under
another. An entry is one JSON file (data, never code: :func:`encode` writes only plain
values and the few record types listed in ``_RECORDS``), written under a temporary name
and renamed, so a crash or Ctrl-C never leaves half of one; one that cannot be read is
ignored with one line on stderr and computed again.

The folder is ``$RULESPEC_CACHE/verdicts``, else ``$XDG_CACHE_HOME/rulespec/verdicts``,
else ``~/.cache/rulespec/verdicts``. The commands open the store (``--fresh``: computed
anew, and stored); library calls use it only inside :func:`opened`. ``RULESPEC_STORE=off``
turns it off (the test suite does, but for the store's own tests).

>>> import tempfile
>>> with tempfile.TemporaryDirectory() as d, opened(folder=d) as s:
...     s.get("example", {"n": 1}) is MISSING, s.put("example", {"n": 1}, (1, {"a"}))
...     s.get("example", {"n": 1}), s.counts()
(True, None)
((1, {'a'}), (1, 2))
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import sys
from pathlib import Path
from typing import Any, Iterator

import attrs

from ..formats.files import write_atomically
from .fingerprint import versions

#: what ``get`` answers for a verdict not in the store
MISSING = object()


class Unstorable(TypeError):
    """A value the store does not keep (not plain data)."""


def _records() -> dict[str, type]:
    from ..check.dead import Played
    from ..check.mutate.judge import MutantResult
    from ..check.results import Result
    from ..check.scenario import ScenarioResult
    from ..check.steps import Lessons
    return {c.__name__: c for c in (Result, Lessons, Played, MutantResult, ScenarioResult)}


_RECORDS: dict[str, type] | None = None


def records() -> dict[str, type]:
    """The record types an entry may hold, by name (nothing else is ever built from one)."""
    global _RECORDS
    if _RECORDS is None:
        _RECORDS = _records()
    return _RECORDS


def encode(x: Any) -> Any:
    """``x`` as JSON data that :func:`decode` turns back into an equal value: tuples, sets
    and dicts with other keys than strings tagged, records by their fields."""
    if x is None or isinstance(x, (bool, str)):
        return x
    if isinstance(x, int):
        return int(x)
    if isinstance(x, float):
        return {"float": repr(x)}
    if isinstance(x, list):
        return [encode(a) for a in x]
    if isinstance(x, tuple):
        return {"tuple": [encode(a) for a in x]}
    if isinstance(x, (set, frozenset)):
        items = sorted((encode(a) for a in x), key=lambda e: json.dumps(e, sort_keys=True))
        return {"frozenset" if isinstance(x, frozenset) else "set": items}
    if isinstance(x, dict):
        if all(isinstance(k, str) for k in x):
            return {"dict": {k: encode(v) for k, v in x.items()}}
        return {"pairs": [[encode(k), encode(v)] for k, v in x.items()]}
    name = type(x).__name__
    if records().get(name) is type(x):
        if attrs.has(type(x)):
            state = {a.name: getattr(x, a.name) for a in attrs.fields(type(x))}
        else:  # a plain class: what it pickles (its caches left out), as data
            state = x.__getstate__()
        return {"record": name, "fields": {f: encode(v) for f, v in sorted(state.items())}}
    raise Unstorable(f"not plain data: {type(x).__qualname__}")


def decode(x: Any) -> Any:
    """The value :func:`encode` wrote (ValueError for anything else)."""
    if x is None or isinstance(x, (bool, str, int)):
        return x
    if isinstance(x, list):
        return [decode(a) for a in x]
    if not isinstance(x, dict) or len(x) not in (1, 2):
        raise ValueError(f"not a stored value: {str(x)[:60]}")
    if "float" in x:
        return float(x["float"])
    if "tuple" in x:
        return tuple(decode(a) for a in x["tuple"])
    if "set" in x:
        return {decode(a) for a in x["set"]}
    if "frozenset" in x:
        return frozenset(decode(a) for a in x["frozenset"])
    if "dict" in x:
        return {str(k): decode(v) for k, v in x["dict"].items()}
    if "pairs" in x:
        return {decode(k): decode(v) for k, v in x["pairs"]}
    if "record" in x:
        cls = records().get(x["record"])
        if cls is None:
            raise ValueError(f"not a stored record: {x['record']!r}")
        fields = {k: decode(v) for k, v in x["fields"].items()}
        if attrs.has(cls):
            return cls(**fields)
        obj = cls()
        unknown = set(fields) - set(vars(obj))
        if unknown:
            raise ValueError(f"{cls.__name__} has no field {sorted(unknown)[0]!r}")
        obj.__setstate__(fields) if hasattr(cls, "__setstate__") else vars(obj).update(fields)
        return obj
    raise ValueError(f"not a stored value: {str(x)[:60]}")


def folder_default() -> Path:
    base = os.environ.get("RULESPEC_CACHE")
    if base:
        return Path(base) / "verdicts"
    xdg = os.environ.get("XDG_CACHE_HOME")
    return (Path(xdg) if xdg else Path.home() / ".cache") / "rulespec" / "verdicts"


class Store:
    """One folder of stored verdicts, and how many this run found there."""

    def __init__(self, folder: str | os.PathLike | None = None, fresh: bool = False) -> None:
        self.folder = Path(folder) if folder is not None else folder_default()
        #: compute everything anew (``--fresh``), storing what is computed
        self.fresh = fresh
        self.hits = 0
        self.asked = 0
        self._warned_write = False

    def path(self, kind: str, key: dict[str, Any]) -> Path:
        digest = hashlib.sha256(json.dumps({"kind": kind, **key, "versions": versions()},
                                           sort_keys=True, default=str).encode()).hexdigest()
        return self.folder / kind / digest[:2] / f"{digest}.json"

    def get(self, kind: str, key: dict[str, Any]) -> Any:
        """The verdict stored under ``key``, or :data:`MISSING` (also with ``--fresh``, and
        for an entry that cannot be read: one line says so)."""
        self.asked += 1
        if self.fresh:
            return MISSING
        p = self.path(kind, key)
        try:
            text = p.read_text(encoding="utf-8")
        except FileNotFoundError:
            return MISSING
        except OSError as err:
            self._say(f"could not read the stored verdict {p} ({err.strerror}): computing it")
            return MISSING
        try:
            doc = json.loads(text)
            if doc.get("kind") != kind:
                raise ValueError("another kind of verdict")
            value = decode(doc["value"])
        except (ValueError, KeyError, TypeError, AttributeError) as err:
            self._say(f"ignored a corrupt stored verdict {p} ({type(err).__name__}): "
                      "computing it again")
            return MISSING
        self.hits += 1
        return value

    def put(self, kind: str, key: dict[str, Any], value: Any) -> None:
        """Keep ``value`` under ``key`` (atomically); a value that is not plain data, or a
        folder that cannot be written (one line, once), leaves it unstored."""
        try:
            text = json.dumps({"kind": kind, "value": encode(value)})
        except Unstorable:
            return
        try:
            write_atomically(self.path(kind, key), text + "\n")
        except OSError as err:
            if not self._warned_write:
                self._warned_write = True
                self._say(f"could not write to the verdict store {self.folder} "
                          f"({err.strerror}): verdicts are computed but not kept")

    def counts(self) -> tuple[int, int]:
        """(verdicts found in the store, verdicts asked for) so far."""
        return self.hits, self.asked

    @staticmethod
    def _say(line: str) -> None:
        print(f"rulespec: {line}", file=sys.stderr)


#: the store the running command opened (None: verdicts are computed and not kept)
_CURRENT: Store | None = None


def current() -> Store | None:
    return _CURRENT


@contextlib.contextmanager
def opened(fresh: bool = False, folder: str | os.PathLike | None = None
           ) -> Iterator[Store | None]:
    """The store for the verdicts computed inside (None when ``RULESPEC_STORE=off``)."""
    global _CURRENT
    if os.environ.get("RULESPEC_STORE", "").lower() in ("off", "0", "no") and folder is None:
        yield None
        return
    before = _CURRENT
    _CURRENT = Store(folder, fresh)
    try:
        yield _CURRENT
    finally:
        _CURRENT = before


def summary(hits: int, asked: int, what: str = "verdicts") -> str | None:
    """The line a command prints: how many verdicts came from the store."""
    if not asked:
        return None
    return f"{hits} of {asked} {what} from the store"
