"""How the checks make Z3 solvers and bound their work, in one place.

Every budget is counted in Z3's *resource units* (the ``rlimit`` parameter): a count of
the solver's elementary steps, the same on any machine and under any load, so the same
spec and options give the same verdicts everywhere. Seconds never decide a verdict.

>>> s = limited(simple_solver(), 1)
>>> x = z3.Int("x")
>>> s.add(x * x == 1234321)
>>> s.check()  # one resource unit is not enough for anything
unknown
"""

from __future__ import annotations

import contextlib
import signal
import threading
import weakref
from typing import Any, Iterator

import z3

from .budget import DEFAULT_RLIMIT, RLIMIT_PER_SECOND, Budget
from .progress import _check_interrupted

__all__ = ["ARITH_SOLVER", "Budget", "DEFAULT_RLIMIT", "RLIMIT_PER_SECOND", "check",
           "interruptible", "limited", "raise_if_interrupted", "simple_solver", "spent"]

#: Z3's simplex-based arithmetic solver (``smt.arith.solver=2``) rather than its default
#: (6). The checks ask about linear arithmetic over small bounded ints with many Boolean
#: cases; measured with z3-solver 5.4 on Hawaii, the step proofs take a quarter less
#: time and the dead-rule queries a fifth less (docs/verification.md, "How long").
ARITH_SOLVER = 2


def limited(solver: z3.Solver, rlimit: int) -> z3.Solver:
    """``solver`` with each of its checks bounded by ``rlimit`` resource units.

    Z3 also stops catching Ctrl-C in its checks (it would give up on the query and keep
    the interrupt from Python, so the run went on): see :func:`interruptible`.
    """
    solver.set("rlimit", max(1, int(rlimit)))
    solver.set("ctrl_c", False)
    return solver


def simple_solver() -> z3.Solver:
    """A solver with no preprocessing: fastest on the many small queries of the checks."""
    solver = z3.SimpleSolver()
    solver.set("smt.arith.solver", ARITH_SOLVER)
    return solver


def spent(solver: z3.Solver) -> int:
    """The resource units spent so far in the solver's Z3 context (every solver of the
    context counts towards one total)."""
    stats = solver.statistics()
    return int(stats.get_key_value("rlimit count")) if "rlimit count" in stats.keys() else 0


#: per Z3 context, its resource count after the last :func:`check`
_LAST: "weakref.WeakKeyDictionary[z3.Context, int]" = weakref.WeakKeyDictionary()


def check(solver: z3.Solver, *assumptions: z3.ExprRef) -> z3.CheckSatResult:
    """``solver.check()``, leaving the resource units the query spent (counted since the
    previous query of the context: one count per query) in ``solver.rulespec_spent``;
    raises KeyboardInterrupt after the query if Ctrl-C came (:func:`interruptible`)."""
    ctx = solver.ctx
    before = _LAST.get(ctx)
    if before is None:
        before = spent(solver)
    if assumptions:  # through the C API: z3py re-checks every one of them, per query
        flags = (z3.Ast * len(assumptions))(*[a.as_ast() for a in assumptions])
        r = z3.CheckSatResult(z3.Z3_solver_check_assumptions(
            ctx.ref(), solver.solver, len(assumptions), flags))
    else:
        r = solver.check()
    after = _LAST[ctx] = spent(solver)
    solver.rulespec_spent = after - before
    raise_if_interrupted()
    return r


_INTERRUPTED = threading.Event()


@contextlib.contextmanager
def interruptible() -> Iterator[None]:
    """Within: Ctrl-C only sets a flag, raised as KeyboardInterrupt by the next
    :func:`check` or :func:`raise_if_interrupted` (and on leaving).

    Python raises KeyboardInterrupt in whatever code runs when the signal comes, and with
    Z3 that is often one of z3py's finalizers, where an exception is printed and dropped:
    the interrupt would be lost. (Only in the main thread, and only if Ctrl-C has
    Python's usual handler.)
    """
    if (threading.current_thread() is not threading.main_thread()
            or signal.getsignal(signal.SIGINT) is not signal.default_int_handler):
        yield
        return

    def note(signum: int, frame: Any) -> None:
        _INTERRUPTED.set()
    signal.signal(signal.SIGINT, note)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    raise_if_interrupted()


def raise_if_interrupted() -> None:
    """Raise KeyboardInterrupt if Ctrl-C came within :func:`interruptible` (or was
    remembered by the command line's handler, :func:`.progress.interrupt_on_sigint`)."""
    if _INTERRUPTED.is_set():
        _INTERRUPTED.clear()
        raise KeyboardInterrupt
    _check_interrupted()
