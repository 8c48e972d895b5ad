"""Step proofs for one action: does it keep every goal, from every state the premises allow?

Before any query, :mod:`rulespec.check.frame` sets aside what the action cannot change: a goal left
with no residual is PROVED without a query. Each remaining goal goes through the shortcuts
of :mod:`.tactics`, in their declared order (the lessons of earlier cases, the slice of the
premises that share a cell with it, what the premises imply, conjunct by conjunct at a
leaf), then every premise; what is still undecided splits the case (:mod:`.splits`: on a
parameter the residual mentions, on the player to move, on a cell used as an index). A goal
is PROVED when every case is; a counterexample in any case makes it VIOLATED for this step
(not yet a reachable bug: bounded model checking decides that); a case that no split can
decide within the full budget (resource units) makes it UNKNOWN.

The modules, each with one job: :mod:`.goals` (what must be preserved), :mod:`.premises`
(the state the step starts from, and the solver of the small queries), :mod:`.implied`
(bounds and totals the premises imply), :mod:`.lessons` (what earlier cases taught),
:mod:`.cases` (the independent cases), :mod:`.tactics` (the steps, in order),
:mod:`.splits` and :mod:`.prover` (one action case's proof).
"""

from .cases import Case, mover_cell, step_cases
from .goals import ACTION_BUDGET, BOUNDS, RULE_ERRORS, Goal, Origin, Verdict, goals_of, own_origin
from .implied import IMPLIED_ROUNDS, Implied, ImpliedBounds, ImpliedTotals
from .lessons import Lessons
from .premises import Premises, Refuter, initial_totals, remember_totals
from .prover import ActionProver, _Terms  # noqa: F401  (_Terms: for tests)

__all__ = ["ACTION_BUDGET", "BOUNDS", "IMPLIED_ROUNDS", "RULE_ERRORS", "ActionProver", "Case",
           "Goal", "Implied", "ImpliedBounds", "ImpliedTotals", "Lessons", "Origin",
           "Premises", "Refuter", "Verdict", "goals_of", "initial_totals", "mover_cell",
           "own_origin", "remember_totals", "step_cases"]
