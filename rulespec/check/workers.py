"""Worker processes that never outlive the command that started them.

Every pool the checkers use comes from :func:`worker_pool`. Its workers

* die when their parent dies, however it dies (Linux ``PR_SET_PDEATHSIG``; elsewhere they
  notice at their next task), so a killed ``rulespec`` leaves no solver running;
* ignore Ctrl-C: the terminal sends SIGINT to the whole process group, and only the parent
  should decide what an interrupt means;
* are killed at once when the parent leaves the pool with an exception (Ctrl-C included),
  instead of being waited for — the interrupt is honoured within a moment, not after the
  slowest solver query.
"""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import multiprocessing
import os
import signal
import sys
from concurrent.futures import ProcessPoolExecutor
from typing import Any, Callable, Iterator

_PR_SET_PDEATHSIG = 1


def _die_with_parent() -> None:
    """In a worker: ask the kernel to kill this process when its parent exits."""
    if sys.platform.startswith("linux"):
        try:
            libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
            libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        except OSError:  # no libc to call: the parent's exit handler still kills us
            pass
    # the parent may have died between fork and prctl
    if os.getppid() == 1:
        os._exit(1)


def _init_worker(parent_init: Callable[..., Any] | None, args: tuple) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _die_with_parent()
    if parent_init is not None:
        parent_init(*args)


def _context() -> multiprocessing.context.BaseContext:
    # fork shares the loaded specs and compiled games copy-on-write where it is safe (Linux);
    # forkserver elsewhere avoids forking a threaded parent
    method = "fork" if sys.platform.startswith("linux") else "spawn"
    return multiprocessing.get_context(method)


@contextlib.contextmanager
def worker_pool(workers: int, initializer: Callable[..., Any] | None = None,
                initargs: tuple = ()) -> Iterator[ProcessPoolExecutor]:
    """A process pool whose workers die with the parent and are killed on any exception.

    >>> with worker_pool(1) as pool:
    ...     pool.submit(abs, -3).result()
    3
    """
    pool = ProcessPoolExecutor(max_workers=workers, mp_context=_context(),
                               initializer=_init_worker, initargs=(initializer, initargs))
    try:
        yield pool
    except BaseException:
        kill_workers(pool)
        raise
    else:
        pool.shutdown(wait=True)


def kill_workers(pool: ProcessPoolExecutor) -> None:
    """Kill every worker of ``pool`` now and drop its pending tasks."""
    processes = list((getattr(pool, "_processes", None) or {}).values())
    for p in processes:
        with contextlib.suppress(Exception):
            p.kill()
    pool.shutdown(wait=False, cancel_futures=True)
    for p in processes:
        with contextlib.suppress(Exception):
            p.join(timeout=1)
