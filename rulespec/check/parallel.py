"""Run ``check_game`` in this process, or spread the properties over worker processes;
either way with progress on stderr."""

from __future__ import annotations

import queue
from concurrent.futures import FIRST_EXCEPTION, wait
from typing import Any, Sequence

from .policy import Policy
from .progress import Progress
from .results import Result
from .runner import SHRINK_BUDGET, check_game
from .workers import _context, worker_pool

#: in a worker: where its progress goes (set by the pool's initializer)
_TICKS: Any = None


class _Relay(Progress):
    """A worker's progress, sent to the parent's :class:`Progress` through a queue."""

    def __init__(self, ticks: Any) -> None:
        super().__init__("worker", quiet=True)
        self._ticks = ticks

    def advance(self, n: int = 1) -> None:
        self._ticks.put(("advance", n))

    def set_total(self, total: int | None) -> None:
        self.total = total
        self._ticks.put(("total", total))

    def note(self, status: str) -> None:
        self._ticks.put(("note", status))


def _init(ticks: Any) -> None:
    global _TICKS
    _TICKS = ticks


def _run(game: str, interpretation: Sequence[str], names: Sequence[str], examples: int,
         seed: int, players: int | None, mode: str, trace_dir: str | None,
         shrink_budget: int, policy: Policy | None, backend: str | None) -> list[Result]:
    from ..runtime.registry import load
    model = load(game, interpretation=",".join(interpretation) or None)
    return check_game(model, property_names=names, examples=examples, seed=seed,
                      players=players, mode=mode, trace_dir=trace_dir,
                      progress=_Relay(_TICKS), shrink_budget=shrink_budget, policy=policy,
                      backend=backend)


def check_in_workers(game: str, interpretation: Sequence[str], names: Sequence[str],
                     examples: int, seed: int, players: int | None, mode: str,
                     trace_dir: str | None, workers: int, progress: Progress,
                     shrink_budget: int = SHRINK_BUDGET, policy: Policy | None = None,
                     backend: str | None = None) -> list[Result]:
    """Results in the order of ``names``. With ``workers > 1`` the properties are dealt
    round-robin to processes; each group is searched on its own (same seed)."""
    from ..runtime.registry import load
    if workers <= 1 or len(names) <= 1:
        model = load(game, interpretation=",".join(interpretation) or None)
        return check_game(model, property_names=names, examples=examples, seed=seed,
                          players=players, mode=mode, trace_dir=trace_dir, progress=progress,
                          shrink_budget=shrink_budget, policy=policy, backend=backend)
    groups = [list(names[i::workers]) for i in range(min(workers, len(names)))]
    ticks = _context().SimpleQueue()
    with worker_pool(len(groups), initializer=_init, initargs=(ticks,)) as pool:
        futures = [pool.submit(_run, game, list(interpretation), g, examples, seed, players,
                               mode, trace_dir, shrink_budget, policy, backend)
                   for g in groups]
        pending = set(futures)
        progress.set_total(examples * len(groups))
        while pending:
            _, pending = wait(pending, timeout=0.2, return_when=FIRST_EXCEPTION)
            _drain(ticks, progress, examples)
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
