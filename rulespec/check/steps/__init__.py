"""Step proofs for one action: does it keep every goal, from every state the premises allow?

Before any query, :mod:`.frame` sets aside what the action cannot change: a goal left
with no residual is PROVED without a query. Each remaining goal is asked on one solver
per case that holds the action's legality (a push/pop per goal), with a subset of the
premises: first those that proved it in an earlier case (:class:`Lessons`), then those
that share a cell with it, then all of them. Premises are tracked, so each proof names
the ones it used for the next case.

When a query is undecided within the quick budget, the action is split on a parameter
the goal's residual mentions (a placement rule splits on the destination row, say): each
value is a smaller case, proved on its own; with no parameter left, on the player to
move, if the residual reads that cell (each player's case with its own action budget);
at a leaf, a goal of several conjuncts is asked conjunct by conjunct before it goes to
every premise. A goal is PROVED when every case is; a
counterexample in any case makes it VIOLATED for this step (not yet a reachable bug:
bounded model checking decides that); a case that no split can decide within the full
budget (resource units) makes it UNKNOWN.
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
