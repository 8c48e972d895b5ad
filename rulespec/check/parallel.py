"""Run ``check_game`` in this process, or spread the properties over worker processes or a
Dask cluster (:mod:`.executor`); either way with progress on stderr.

The properties are dealt to ``workers`` groups, each searched on its own with the same
seed; where a group runs (a local process, a cluster's worker) changes nothing in its
answer. (How many groups there are can: a search restarts after each violation, so the
examples and games counted depend on which properties share a search.)"""

from __future__ import annotations

import queue
from concurrent.futures import FIRST_EXCEPTION, wait
from typing import Any, Sequence

from .policy import Policy
from .progress import Progress
from .results import Result
from .runner import SHRINK_BUDGET, check_game
from ..runtime.gameref import GameRef
from .workers import _context

#: in a worker: where its progress goes (set by the pool's initializer)
_TICKS: Any = None


class _Relay(Progress):
    """A worker's progress, sent to the parent's :class:`Progress` through a queue."""

    def __init__(self, ticks: Any) -> None:
        super().__init__("worker", quiet=True)
        self._ticks = ticks

    def advance(self, n: int = 1) -> None:
        self._send(("advance", n))

    def set_total(self, total: int | None) -> None:
        self.total = total
        self._send(("total", total))

    def note(self, status: str) -> None:
        self._send(("note", status))

    def _send(self, message: tuple) -> None:
        if self._ticks is not None:   # None on a cluster's worker: its progress is not seen
            self._ticks.put(message)


def _init(ticks: Any) -> None:
    global _TICKS
    _TICKS = ticks


def _run(game: GameRef, names: Sequence[str], examples: int,
         seed: int, players: int | None, mode: str, trace_dir: str | None,
         shrink_budget: int, policy: Policy | None, backend: str | None) -> list[Result]:
    """A task: one group's search."""
    return check_game(game.load(), property_names=names, examples=examples, seed=seed,
                      players=players, mode=mode, trace_dir=trace_dir,
                      progress=_Relay(_TICKS), shrink_budget=shrink_budget, policy=policy,
                      backend=backend)


def check_in_workers(game: GameRef, names: Sequence[str],
                     examples: int, seed: int, players: int | None, mode: str,
                     trace_dir: str | None, workers: int, progress: Progress,
                     shrink_budget: int = SHRINK_BUDGET, policy: Policy | None = None,
                     backend: str | None = None, cluster: Any = None) -> list[Result]:
    """Results in the order of ``names``. With ``workers > 1`` the properties are dealt
    round-robin to ``workers`` groups, each searched on its own (same seed) in a local
    process or on ``cluster``."""
    if cluster is None and (workers <= 1 or len(names) <= 1):
        return check_game(game.load(), property_names=names, examples=examples, seed=seed,
                          players=players, mode=mode, trace_dir=trace_dir, progress=progress,
                          shrink_budget=shrink_budget, policy=policy, backend=backend)
    groups = [list(names[i::workers]) for i in range(min(workers, len(names)))]
    from .executor import campaign_executor
    ticks = _context().SimpleQueue() if cluster is None else None
    with campaign_executor(len(groups), cluster, _init, (ticks,)) as pool:
        futures = [pool.submit(_run, game, g, examples, seed, players,
                               mode, trace_dir, shrink_budget, policy, backend)
                   for g in groups]
        pending = set(futures)
        progress.set_total(examples * len(groups))
        while pending:
            done, pending = wait(pending, timeout=0.2, return_when=FIRST_EXCEPTION)
            if ticks is not None:
                _drain(ticks, progress, examples)
            else:   # a cluster's group counts when it is done
                progress.advance(examples * len(done))
        found = [r for f in futures for r in f.result()]
    order = {n: i for i, n in enumerate(names)}
    return sorted(found, key=lambda r: order.get(r.property, len(order)))


def _drain(ticks: Any, progress: Progress, examples: int) -> None:
    """Apply the workers' progress messages to the parent's display."""
    while not ticks.empty():
        try:
            kind, value = ticks.get()
        except (EOFError, OSError, queue.Empty):
            return
        if kind == "advance":
            progress.advance(value)
        elif kind == "note":
            progress.note(value)
        elif kind == "total" and value is not None and value > examples:
            # a worker restarted its search after a violation: more examples to come
            progress.set_total((progress.total or 0) + examples)
