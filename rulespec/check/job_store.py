"""``prove``'s jobs through the verdict store (:mod:`.store`).

A job is a pure function of the game's IR and its arguments (:mod:`.jobs`), so its answer
and the resource units it spent are kept under a key of the IR it reads and the hash of
its arguments (a later job's arguments hold an earlier one's answer: the lessons a step
job starts from, the games the dead-rule jobs start from, by content). A step job reads
the rest of the spec (fields, setup, invariants, flow...) and its own actions, so editing
one action's rules recomputes only the step jobs of that action (and those it teaches);
the base case reads no action; the other jobs may read any. A stored job counts as a job
done: the units, the job count and the verdicts read as in the run that computed it.
"""

from __future__ import annotations

import concurrent.futures as cf
import hashlib
import json
import os
from typing import Any, Callable, Sequence

import attrs

from ..runtime.model import Model
from .fingerprint import SpecPrint, _Hasher
from .jobs import Jobs
from .results import Result
from .store import MISSING, Unstorable, current, encode

KIND = "proof-job"


class JobStore:
    """The store as one ``prove`` run sees it (does nothing when no store is open)."""

    def __init__(self, model: Model) -> None:
        self.model = model
        self.store = current()
        self._keys: dict[cf.Future, dict[str, Any]] = {}
        self.hits = 0
        self.asked = 0
        #: the resource units of the jobs answered from the store (spent by an earlier run)
        self.hit_units = 0

    def key(self, fn: Callable[..., Any], args: tuple, actions: Sequence[int] | None
            ) -> dict[str, Any]:
        p = SpecPrint.of(self.model.spec)
        ir = p.of_actions(range(len(p.actions)) if actions is None else actions,
                          self.model.interpretation)
        return {"game": self.model.spec.name, "ir": ir, "job": fn.__name__,
                "args": [_argument(a) for a in args]}

    def submit(self, jobs: Jobs, label: str, fn: Callable[..., Any], args: tuple,
               actions: Sequence[int] | None) -> cf.Future:
        if self.store is None:
            return jobs.submit(label, fn, *args)
        key = self.key(fn, args, actions)
        self.asked += 1
        got = self.store.get(KIND, key)
        if got is not MISSING and _whole(got):
            out, units = _rooted(got, _HERE, self._file())
            self.hits += 1
            f: cf.Future = cf.Future()
            f.set_result((out, units))
            jobs.submitted += 1  # counted as the run that computed it counted it
            jobs.progress.set_total(jobs.submitted)
            jobs.progress.note(f"from the store: {label}")
            jobs.progress.advance()
            jobs.rlimit += units
            jobs.units[label] = units
            self.hit_units += units
            return f
        f = jobs.submit(label, fn, *args)
        self._keys[f] = key
        return f

    def answer(self, jobs: Jobs, f: cf.Future) -> Any:
        out = jobs.answer(f)  # raises a job's exception: nothing is stored then
        key = self._keys.pop(f, None)
        if key is not None and self.store is not None:
            self.store.put(KIND, key, _rooted(f.result(), self._file(), _HERE))
        return out

    def _file(self) -> str | None:
        file = getattr(self.model.spec, "file", None)
        return str(file) if file else None

    def counts(self) -> tuple[int, int] | None:
        return None if self.store is None else (self.hits, self.asked)


#: the spec's file in a stored answer (a dead rule names the line it is written on): the
#: key leaves out where the file sits, so a copy elsewhere reads its own path back
_HERE = "<the spec file>"


def _rooted(x: Any, old: str | None, new: str | None) -> Any:
    """``x`` with the path ``old`` in its texts written as ``new``."""
    if not old or not new:
        return x
    if isinstance(x, str):
        return x.replace(old, new)
    if isinstance(x, (list, tuple, set, frozenset)):
        return type(x)(_rooted(a, old, new) for a in x)
    if isinstance(x, dict):
        return {_rooted(k, old, new): _rooted(v, old, new) for k, v in x.items()}
    if isinstance(x, Result):
        return attrs.evolve(x, **{a.name: _rooted(getattr(x, a.name), old, new)
                                  for a in attrs.fields(Result) if a.init})
    return x


def _argument(x: Any) -> str:
    """A job's argument by content: plain data (the cases, what a job learned, the games
    played) as the JSON the store would write, hashed once (a Merkle hash of each of its
    thousands of tuples took seconds per job); anything else by its Merkle hash."""
    try:
        text = json.dumps(encode(x), sort_keys=True)
    except Unstorable:
        return _Hasher().of(x)
    return hashlib.sha256(text.encode()).hexdigest()


def _whole(got: Any) -> bool:
    """A stored answer whose counterexample files are still there (a trace removed since
    is made again by computing the job again)."""
    if not (isinstance(got, tuple) and len(got) == 2 and isinstance(got[1], int)):
        return False
    todo = [got[0]]
    while todo:
        x = todo.pop()
        if isinstance(x, Result):
            if x.trace_path and not os.path.exists(x.trace_path):
                return False
        elif isinstance(x, (list, tuple, set, frozenset)):
            todo += list(x)
        elif isinstance(x, dict):
            todo += list(x.values())
    return True
