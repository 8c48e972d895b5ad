"""How ``prove`` runs its work: as jobs, each in a Z3 context of its own.

A job is a module-level function ``fn(model, smt, *args)`` whose arguments and answer
are plain data. It gets a freshly compiled game on a new Z3 context
(:func:`~rulespec.compile.smt_terms.own_context`), so what it spends and what it answers
do not depend on which jobs ran before it, in which process, in which order: the
verdicts are the same with one worker or four, on a loaded machine or an idle one.

In worker processes (:func:`.workers.worker_pool`: they die with the parent and are
killed on Ctrl-C), or on a Dask cluster (:mod:`.executor`: each job sent with the game's
frozen :class:`~rulespec.runtime.gameref.GameRef`), the main process only waits, where
Ctrl-C reaches it at once; in this process, one job after another,
:func:`.solvers.check` turns the interrupt Z3 catches back into KeyboardInterrupt.

``timeout`` is only an outer safety limit in seconds: when it is reached the running
jobs are stopped and :class:`SafetyLimit` says so; no verdict is ever decided by it.

>>> import rulespec
>>> with Jobs(rulespec.load("tic_tac_toe"), workers=1) as jobs:
...     done = jobs.submit("cells", cell_count)
...     jobs.wait([done])
...     jobs.answer(done)  # 9 on the board, the turn, moves, winner, players
13
"""

from __future__ import annotations

import concurrent.futures as cf
import contextlib
import gc
import time
from typing import Any, Callable, Sequence

import z3

from ..compile.smt_backend import SmtGame, compile_smt
from ..compile.smt_terms import own_context
from ..runtime.gameref import GameRef
from ..runtime.model import Model
from .executor import on_cluster_worker
from .progress import QUIET, Progress
from .solvers import interruptible, raise_if_interrupted, spent

#: the model a local worker process runs jobs on (inherited when forked, else loaded
#: once); a cluster's worker loads the job's GameRef instead (the registry caches it)
_MODEL: Model | None = None


class SafetyLimit(Exception):
    """The wall-clock safety limit (``--timeout``) was reached before the jobs ended."""


def cell_count(model: Model, smt: SmtGame) -> int:
    """A job for examples and tests: the number of cells in the game's state."""
    return smt.size


def run_job(model: Model, fn: Callable[..., Any], args: tuple) -> tuple[Any, int]:
    """Run a job on a new Z3 context: its answer and the resource units it spent.

    Python's cyclic garbage collector is off while the job runs. Z3 gives the id of a
    freed term to the next new one, and its search follows term ids; when the collector
    frees terms depends on what the process allocated before (another job, a test, the
    parent of a forked worker), so with it on, the same job spent a few more or fewer
    units in another process. Reference counting alone frees terms at the same points
    every time.

    What was alive before the job is frozen (:func:`gc.freeze`) while it runs, so that the
    collection after it looks only at what the job made: a full collection of a report's
    heap (every reading's compiled model) cost a tenth of a CPU second, twice per job. A
    worker process froze its inherited heap once (:func:`_init_worker`) and keeps it so."""
    enabled = gc.isenabled()
    gc.collect()
    frozen_here = gc.get_freeze_count() == 0
    if frozen_here:
        gc.freeze()
    gc.disable()
    try:
        with own_context():
            smt = compile_smt(model.spec, model.interpretation)
            out = fn(model, smt, *args)
            return out, spent(z3.Solver())
    finally:
        if enabled:
            gc.enable()
        gc.collect()
        if frozen_here:
            gc.unfreeze()


def _init_worker(spec_file: str | None, interpretation: dict[str, str]) -> None:
    global _MODEL
    z3.set_param("ctrl_c", False)  # Ctrl-C is the parent's to handle; workers are killed
    if _MODEL is None:  # not forked: load the game again
        from ..runtime.registry import load
        assert spec_file is not None
        _MODEL = load(spec_file, interpretation)
    # the heap this worker starts with (a forked report's, with every model it compiled)
    # stays alive to the end: the collections before and after each job skip it
    gc.collect()
    gc.freeze()


def _run_in_worker(game: GameRef | None, fn: Callable[..., Any], args: tuple
                   ) -> tuple[Any, int]:
    """A task: one job on the game (the forked worker's model when it has one)."""
    if _MODEL is not None:
        return run_job(_MODEL, fn, args)
    assert game is not None
    z3.set_param("ctrl_c", False)   # the command handles Ctrl-C; a job ends by its budget
    return run_job(game.load(), fn, args)


class Jobs:
    """Jobs submitted one by one and waited for, with progress and a safety limit."""

    def __init__(self, model: Model, workers: int = 1, progress: Progress = QUIET,
                 timeout: float | None = None, processes: bool | None = None,
                 cluster: Any = None) -> None:
        self.model = model
        self.workers = workers
        #: where the jobs run when not here: a Dask cluster (:class:`.cluster.Cluster`)
        self.cluster = cluster
        #: worker processes (default: when more than one worker); the command line always
        #: uses them, so that its own process only waits, where Ctrl-C reaches it at once
        self.processes = cluster is not None or (
            (workers > 1 if processes is None else processes)
            and (model.spec.file is not None or _forks()) and not on_cluster_worker())
        #: the game as a cluster's workers load it (None: only forked workers run jobs)
        self.game = GameRef.of(model) if cluster is not None else None
        self.progress = progress
        self.deadline = None if timeout is None else time.monotonic() + timeout
        self.timeout = timeout
        #: resource units spent by the jobs done so far (a machine-independent measure)
        self.rlimit = 0
        #: the resource units of each job done, by its label
        self.units: dict[str, int] = {}
        self.submitted = 0
        self._pool: Any = None
        self._pool_cm: Any = None
        self._labels: dict[cf.Future, str] = {}
        self._interrupts = interruptible()

    def __enter__(self) -> "Jobs":
        global _MODEL
        self._interrupts.__enter__()
        if self.processes:
            from .executor import campaign_executor
            if self.cluster is None:
                _MODEL = self.model  # forked workers inherit it (set before they start)
            self._pool_cm = campaign_executor(
                self.workers, self.cluster, _init_worker,
                (self.model.spec.file, dict(self.model.interpretation)))
            self._pool = self._pool_cm.__enter__()
        return self

    def __exit__(self, *exc: Any) -> None:
        global _MODEL
        try:
            if self._pool_cm is not None:
                self._pool_cm.__exit__(*exc)  # on an exception: workers killed at once
        finally:
            _MODEL = None
            if exc[0] is None:
                self._interrupts.__exit__(None, None, None)  # raises if Ctrl-C came
            else:
                with contextlib.suppress(KeyboardInterrupt):
                    self._interrupts.__exit__(*exc)

    def submit(self, label: str, fn: Callable[..., Any], *args: Any) -> cf.Future:
        """Start ``fn(model, smt, *args)`` as a job (here at once, with one worker)."""
        self.submitted += 1
        self.progress.set_total(self.submitted)
        if self._pool is not None:
            f = self._pool.submit(_run_in_worker, self.game, fn, args)
        else:
            self._check_deadline()
            self.progress.note(label)
            f = cf.Future()
            try:
                f.set_result(run_job(self.model, fn, args))
            except Exception as err:  # noqa: BLE001 - re-raised by result(), as a pool would
                f.set_exception(err)
        self._labels[f] = label
        return f

    def wait(self, futures: Sequence[cf.Future]) -> None:
        """Until every one of ``futures`` is done (raises :class:`SafetyLimit` first if the
        wall-clock safety limit comes; a job's exception is raised by its ``result()``)."""
        left = [f for f in futures if f in self._labels]
        while left:
            done = self.next_done(left)
            left = [f for f in left if f is not done]

    def next_done(self, futures: Sequence[cf.Future]) -> cf.Future:
        """The first of ``futures`` to finish (each is reported once to progress)."""
        for f in futures:
            if f.done():
                return self._finished(f)
        while True:  # short waits: Ctrl-C (a flag, see solvers.interruptible) is seen at once
            raise_if_interrupted()
            self._check_deadline()
            done, _ = cf.wait(futures, timeout=0.2, return_when=cf.FIRST_COMPLETED)
            if done:
                return self._finished(next(f for f in futures if f in done))

    def answer(self, f: cf.Future) -> Any:
        """A finished job's answer (its resource units counted once)."""
        out, units = f.result()
        return out

    def _finished(self, f: cf.Future) -> cf.Future:
        label = self._labels.pop(f, None)
        if label is not None:
            if f.exception() is None:
                self.rlimit += f.result()[1]
                self.units[label] = f.result()[1]
            self.progress.advance()
            self.progress.note(f"done: {label}")
        return f

    def stop(self) -> None:
        """Kill the workers now: the jobs still running are not waited for (leaving the
        ``with`` block would otherwise wait for each of them to end). The units of the
        jobs that did finish still count."""
        for f in list(self._labels):
            if f.done() and not f.cancelled():
                self._finished(f)
        if self._pool is not None:
            from .executor import stop
            stop(self._pool)

    def _check_deadline(self) -> None:
        if self.deadline is not None and time.monotonic() > self.deadline:
            self.stop()
            raise SafetyLimit(f"stopped at the wall-clock safety limit ({self.timeout:g} s, "
                              "--timeout): on another machine it may end")


def _forks() -> bool:
    """Worker processes are forked here (:mod:`.workers`): they inherit the model."""
    import sys
    return sys.platform.startswith("linux")
