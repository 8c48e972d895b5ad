"""Where the Python backend raises while it reads a state, not while it steps: the player to
move and the end (``current_player``, ``terminal``, the chance-node rule), the preconditions
``legal_actions`` tests, a chance outcome's weight, and the scores and tie-break keys of a
finished game.

A step's effects have their error flag in :meth:`SmtGame.apply_checked`; these are read in
every reachable state, so the goal ``rules_evaluate_without_error`` asks that none of them
raises there either. A precondition raises only where the ones tested before it held.
Backends test them in different orders (``legal``'s enumerators by the loop that binds
their parameters, a step and ``why_illegal`` in declared order:
:mod:`rulespec.compile.plan`), so the condition here counts as tested before precondition
``j`` only the ones every order tests first -- declared before it and needing no more
parameters bound: what it gives is a superset of where any backend raises, never less.

Most games read nothing that can fail. :func:`can_raise` screens each reading once per game:
interval analysis (:mod:`rulespec.ir.raising`) clears most without building a term, and one
small query within the declared bounds (``SCREEN_RLIMIT`` units) clears the rest; what it
clears, a proof asks nothing more about.
"""

from __future__ import annotations

from typing import Any, Sequence

import z3

from ..compile.plan import CHANCE, TERMINAL, level_of
from ..compile.smt_backend import SmtGame
from ..ir.raising import may_raise
from ..runtime.model import State
from .results import PROVED, UNKNOWN, VIOLATED
from .solvers import check, limited, simple_solver
from .steps.premises import Premises

#: the scores' and tie-break keys' player, fresh in every query (it ranges over the seats)
_PLAYER = "errors.player"
#: resource units to ask whether a flag can be set within the declared bounds at all
SCREEN_RLIMIT = 2_000_000


def can_raise(smt: SmtGame) -> tuple[bool, tuple[int, ...], bool]:
    """Whether the flow rules, which actions' legality (by index) and the scoring can raise
    in some state within the declared bounds: each one's error flag on a fresh state, asked
    of Z3 with a small counted budget (undecided counts as can). Computed once per game."""
    known = getattr(smt, "_can_raise", None)
    if known is None:
        s = smt.fresh_state("errors.any")
        within = smt.bounds(s)

        def can(error: z3.BoolRef) -> bool:
            if z3.is_false(z3.simplify(error)):
                return False
            solver = limited(simple_solver(), SCREEN_RLIMIT)
            solver.add(within, error)
            return check(solver) != z3.unsat
        spec, n = smt.spec, smt.spec.max_players
        rules = [spec.terminal.expr, spec.current_player.expr] + (
            [spec.chance_node.expr] if spec.chance_node is not None else [])
        flow = any(may_raise(e, n) for e in rules) and can(smt.current_player_checked(s).error)
        actions = tuple(a for a in range(len(smt.spec.actions))
                        if can(_legality_error(smt, a, s, "any")))
        scoring = can(_scoring_error(smt, s))
        known = smt._can_raise = (flow, actions, scoring)  # type: ignore[attr-defined]
    return known


def reading_error(smt: SmtGame, state: Sequence[Any], tag: str) -> z3.BoolRef:
    """Reading ``state`` raises: its flow rules, testing the legality of an action (with
    parameters fresh constants named by ``tag``) or, when the game is over, a score or a
    tie-break key. False (no term) when nothing in the game can raise."""
    flow, actions, scoring = can_raise(smt)
    parts = []
    if flow:
        parts.append(smt.current_player_checked(state).error)
    parts += [_legality_error(smt, a, state, tag) for a in actions]
    if scoring:
        parts.append(_scoring_error(smt, state))
    return z3.Or(*parts) if parts else z3.BoolVal(False)


def _legality_error(smt: SmtGame, action: int, state: Sequence[Any], tag: str) -> z3.BoolRef:
    """Testing whether the action's instance is legal raises, where the flow rules do not
    (they are counted apart): a precondition raises where the ones every backend tests
    before it hold, or a chance outcome's weight raises where every precondition holds."""
    a = smt.spec.actions[action]
    n = smt.spec.max_players
    risky = [j for j, pre in enumerate(a.preconditions) if may_raise(pre.cond, n)]
    weighed = a.chance and a.weight is not None and may_raise(a.weight, n)
    if not risky and not weighed:
        return z3.BoolVal(False)   # no term built: most actions of most games
    params = smt.params(action, f"{tag}.{action}")
    cp = smt.current_player_checked(state).value
    turn = cp == CHANCE if a.chance else z3.And(cp != CHANCE, cp != TERMINAL)
    levels = level_of(a)

    def checked(j: int) -> Any:
        return smt.precondition_checked(action, j, state, params)
    fails = []
    for j in risky:
        c = checked(j)
        if z3.is_false(z3.simplify(c.error)):
            continue
        before = [checked(i).holds() for i in range(j) if levels[i] <= levels[j]]
        fails.append(z3.And(*before, c.error))
    if weighed:
        w = smt.weight_checked(action, state, params)
        if not z3.is_false(z3.simplify(w.error)):
            fails.append(z3.And(*[checked(j).holds() for j in range(len(a.preconditions))],
                                w.error))
    if not fails:
        return z3.BoolVal(False)
    return z3.And(turn, smt.param_domain(action, state, params), z3.Or(*fails))


def _scoring_error(smt: SmtGame, state: Sequence[Any]) -> z3.BoolRef:
    """The game is over and a seated player's score or tie-break key raises."""
    n = smt.spec.max_players
    if not (may_raise(smt.spec.scoring.score, n)
            or any(may_raise(tb.key, n) for tb in smt.spec.tie_breaks)):
        return z3.BoolVal(False)
    p = z3.Int(_PLAYER)
    errors = [smt.score_checked(state, p).error]
    errors += [smt.tie_key_checked(k, state, p).error for k in range(len(smt.spec.tie_breaks))]
    live = [e for e in errors if not z3.is_false(z3.simplify(e))]
    if not live:
        return z3.BoolVal(False)
    over = smt.current_player_checked(state).value == TERMINAL
    return z3.And(over, 0 <= p, p < state[0], z3.Or(*live))


def prove_reading(model: Any, smt: SmtGame, rlimit: int) -> tuple[str, str, int]:
    """Whether some state satisfying the invariants raises when it is read (the premises
    of the step proofs: every reachable state is one once they are proved): the verdict
    (PROVED, VIOLATED for a counterexample to induction, UNKNOWN), why, and the queries
    asked. A piece that cannot raise within the bounds asks nothing."""
    flow, actions, scoring = can_raise(smt)
    if not (flow or actions or scoring):
        return PROVED, "no rule can raise when a state within the bounds is read", 0
    p = Premises(smt)
    s = p.state
    pieces = ([("the player to move or the end", smt.current_player_checked(s).error)]
              if flow else [])
    pieces += [(f"testing whether {smt.spec.actions[a].name} is legal",
                _legality_error(smt, a, s, "read")) for a in actions]
    if scoring:
        pieces.append(("the scores of the finished game", _scoring_error(smt, s)))
    queries, undecided = 0, []
    for what, error in pieces:
        solver = limited(simple_solver(), rlimit)
        solver.add(*p.terms, error)
        queries += 1
        r = check(solver)
        if r == z3.sat:
            values = smt.state_from_model(solver.model(), s)
            fields = State(values, model).to_dict()["fields"]
            brief = ", ".join(f"{k}={v}" for k, v in fields.items() if not isinstance(v, list))
            return (VIOLATED, f"from a state satisfying the invariants, {what} raises "
                              f"(state: {brief[:300]})", queries)
        if r != z3.unsat:
            undecided.append(what)
    if undecided:
        return (UNKNOWN, f"undecided within {rlimit:,} resource units: whether "
                         f"{undecided[0]} can raise" + (f" (and {len(undecided) - 1} more)"
                                                        if len(undecided) > 1 else ""), queries)
    return PROVED, f"no state satisfying the invariants raises when read ({queries} queries)", \
        queries
