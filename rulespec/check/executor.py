"""One executor for every campaign: the local worker processes, or a Dask cluster.

``mutate``, ``prove``, ``check --workers``, ``report`` and ``diff --games`` submit their
tasks to the ``concurrent.futures.Executor`` :func:`campaign_executor` gives: by default
the worker processes of :mod:`.workers` (no server; they die with the command and are
killed on Ctrl-C), or, when the user names a scheduler (``--cluster``,
``RULESPEC_CLUSTER``), Dask's executor over that cluster (:mod:`.cluster`).

A task is a module-level function of plain, picklable values: the game as a frozen
:class:`~rulespec.runtime.gameref.GameRef`, its counted budgets and a seed fixed per task
by the campaign, never by the worker that runs it. So a campaign's answer is the same on
one worker or many, local or on the cluster. What a task loads once (a game, a mutant's
judges) is kept per process by the campaign's own cache; a local pool's ``initializer``
only fills that cache early, and a Dask worker fills it on its first task.
"""

from __future__ import annotations

import contextlib
import os
import threading
from concurrent.futures import Executor, Future
from typing import Any, Callable, Iterator

from .cluster import Cluster

__all__ = ["Cluster", "campaign_executor", "stop"]


@contextlib.contextmanager
def campaign_executor(workers: int, cluster: Cluster | None = None,
                      initializer: Callable[..., Any] | None = None,
                      initargs: tuple = ()) -> Iterator[Executor]:
    """``workers`` local processes (:func:`.workers.worker_pool`), or ``cluster``'s Dask
    executor (``workers`` is then the cluster's business). Leaving with an exception
    (Ctrl-C included) kills the local workers, or cancels the cluster's unfinished tasks.

    >>> with campaign_executor(1) as ex:
    ...     ex.submit(abs, -3).result()
    3
    """
    if cluster is None:
        from .workers import worker_pool
        with worker_pool(workers, initializer, initargs) as pool:
            yield _Campaign(pool, local=True)
        return
    executor = _Campaign(cluster.executor(), local=False)
    try:
        yield executor
    except BaseException:
        executor.shutdown(wait=False)   # cancels what has not finished; nothing waits
        raise
    else:
        executor.shutdown(wait=True)


def stop(executor: Executor) -> None:
    """Stop ``executor`` now: local workers are killed, a cluster's unfinished tasks
    cancelled (a running Dask task ends by itself: its budget is counted)."""
    inner = executor.inner if isinstance(executor, _Campaign) else executor
    from concurrent.futures import ProcessPoolExecutor
    if isinstance(inner, ProcessPoolExecutor):
        from .workers import kill_workers
        kill_workers(inner)
    else:
        inner.shutdown(wait=False)


class _Campaign(Executor):
    """The executor a campaign sees: each task runs in the command's working folder, so
    the paths it writes into its answer (a spec line, ``models/x/spec.py:44``; a trace
    saved under ``traces/``) read as the command's own would, wherever the task runs."""

    def __init__(self, inner: Executor, local: bool) -> None:
        self.inner = inner
        self.local = local
        self.cwd = os.getcwd()

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future:
        if self.local:   # forked from this process: already in its folder
            return self.inner.submit(fn, *args, **kwargs)
        return self.inner.submit(in_folder, self.cwd, fn, args, kwargs)

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        if isinstance(self.inner, _process_pool()):
            self.inner.shutdown(wait=wait, cancel_futures=cancel_futures)
        else:
            self.inner.shutdown(wait=wait)


def _process_pool() -> type:
    from concurrent.futures import ProcessPoolExecutor
    return ProcessPoolExecutor


#: one task at a time changes a worker process's folder (a Dask worker may run several
#: threads; rulespec's tasks are CPU-bound Python, so threads gain nothing anyway)
_FOLDER = threading.Lock()


#: the folder the last task ran in, and the caches that hold what it loaded
_LAST_FOLDER: list[str] = []
_CACHES: list[dict] = []


def cache(store: dict) -> dict:
    """Register a campaign's per-process cache (what its tasks load once): emptied when a
    task comes from another folder, whose spec lines read differently."""
    _CACHES.append(store)
    return store


def _forget_loaded() -> None:
    from ..runtime import registry
    for store in [*_CACHES, *(getattr(registry, name, None) for name in (
            "_SPEC_CACHE", "_MODEL_CACHE", "_ORIGINS"))]:
        if isinstance(store, dict):
            store.clear()


_TASK = threading.local()


def on_cluster_worker() -> bool:
    """Whether this code runs in a cluster's task: a campaign it starts (a report's
    proofs and mutants) then runs in this process, not in worker processes of its own
    (a Dask worker's processes may have none; the answers do not depend on it)."""
    return getattr(_TASK, "on", False)


def in_folder(cwd: str, fn: Callable[..., Any], args: tuple, kwargs: dict) -> Any:
    """A cluster's task: ``fn(*args, **kwargs)`` in the folder ``cwd`` when this machine
    has it (else where the worker runs: the answers then show the worker's paths). A spec
    loaded for a task from another folder is loaded again: its lines read relative to it."""
    _TASK.on = True
    try:
        return _in(cwd, fn, args, kwargs)
    finally:
        _TASK.on = False


def _in(cwd: str, fn: Callable[..., Any], args: tuple, kwargs: dict) -> Any:
    with _FOLDER:
        if _LAST_FOLDER[-1:] != [cwd]:
            if _LAST_FOLDER:
                _forget_loaded()
            _LAST_FOLDER[:] = [cwd]
        before = os.getcwd()
        if before == cwd:
            return fn(*args, **kwargs)
        try:
            os.chdir(cwd)
        except OSError:
            return fn(*args, **kwargs)
        try:
            return fn(*args, **kwargs)
        finally:
            os.chdir(before)
