"""Dead rules: an action, an effect branch or a scoring clause that no state can enable.

"No state" means no state within the declared bounds where every invariant and law holds
(the same premises as the step proofs). A dead rule is a spec bug or a rule that never
applies; either way the rules editor wants to know. Each rule gets one result under the
property name ``rule_can_apply:<what>``: PROVED when Z3 finds a state that enables it (a
witness), VIOLATED when none exists, UNKNOWN on a timeout.
"""

from __future__ import annotations

from typing import Any, Callable

import z3

from ..compile.python_backend import CHANCE
from ..compile.smt_backend import SmtGame, Unsupported
from ..ir.nodes import Expr
from ..ir.walk import walk
from .results import PROVED, SKIPPED, UNKNOWN, VIOLATED, Result
from .solvers import simple_solver
from .steps import Premises, step_cases

CHECKER = "z3-dead-rules"


def _verdict(constraints: list[Any], timeout_ms: int) -> str:
    solver = simple_solver()
    solver.set("timeout", timeout_ms)
    solver.add(*constraints)
    r = solver.check()
    return "sat" if r == z3.sat else "unsat" if r == z3.unsat else "unknown"


def _result(name: str, verdict: str, source: str | None, alive: str, dead: str,
            played: str = "") -> Result:
    if verdict == "played":
        return Result(name, PROVED, CHECKER, played, source)
    if verdict == "sat":
        return Result(name, PROVED, CHECKER, alive, source)
    if verdict == "unsat":
        return Result(name, VIOLATED, CHECKER, dead, source)
    if verdict == "skipped":
        return Result(name, SKIPPED, CHECKER, "not searched: the dead-rule query budget ran "
                      "out (and no random game ran it)", source)
    return Result(name, UNKNOWN, CHECKER, "solver timeout", source)


def dead_rules(smt: SmtGame, timeout_ms: int, model: Any = None, games: int = 0,
               max_queries: int | None = None) -> list[Result]:
    """One result per action, per effect branch (``when``/``otherwise``) and per scoring
    clause (each side of a conditional in the score).

    With a ``model``, ``games`` seeded random games are played first: an action taken or a
    branch run in a played game is alive (a reachable witness, stronger than a state
    within the invariants) and needs no solver query. ``max_queries`` bounds the solver
    queries (a count, not a time, so the result does not depend on the machine's load);
    rules not reached within it are SKIPPED, saying so.
    """
    spec = smt.spec
    out: list[Result] = []
    taken, ran, finals = (_played(model, smt, games) if model is not None and games
                          else (set(), set(), []))
    budget = _Budget(max_queries)
    played = f"runs in a random game ({games} played)"
    cases: dict[int, list[tuple]] = {}
    for a, fixed in step_cases(smt):
        cases.setdefault(a, []).append(fixed)
    premises: dict[tuple, Premises] = {}
    built: dict[tuple, tuple[Any, dict]] = {}  # (action, case) -> legal, branch conditions

    def terms(a_idx: int, fixed: tuple) -> tuple[Premises, Any, dict]:
        """A case's premises, the action's legality and its branch conditions, built once."""
        if fixed not in premises:
            premises[fixed] = Premises(smt, dict(fixed))
        p = premises[fixed]
        if (a_idx, fixed) not in built:
            params = smt.params(a_idx, f"p.{a_idx}")
            built[a_idx, fixed] = (smt.legal(a_idx, p.state, params), {
                (id(st), side): c for st, side, _, c in _branches(smt, a_idx, p.state, params)})
        return (p, *built[a_idx, fixed])

    def verdict(a_idx: int, branch: tuple[Any, bool] | None) -> str:
        """sat if some case's state within the invariants enables the action (and runs
        the branch), unsat if none does; most players first (the likeliest witness)."""
        answers = []
        for fixed in cases[a_idx]:  # step_cases: most players first
            if not budget.take():
                return "skipped"
            p, legal, conds = terms(a_idx, fixed)
            extra = [legal] if branch is None else [legal, conds.get(branch, z3.BoolVal(False))]
            v = _verdict([*p.terms, *extra], timeout_ms)
            if v == "sat":
                return v
            answers.append(v)
        return "unsat" if all(v == "unsat" for v in answers) else "unknown"

    s = smt.fresh_state("s")
    for a_idx, action in enumerate(spec.actions):
        name = f"rule_can_apply:{action.name}"
        try:
            params = smt.params(a_idx, f"p.{a_idx}")
            v = "played" if a_idx in taken else verdict(a_idx, None)
            out.append(_result(name, v, action.source,
                               "enabled in some state within the invariants",
                               "no state within the invariants enables it", played))
            if v not in ("sat", "played"):
                continue
            for st, side, label, _ in _branches(smt, a_idx, s, params):
                key = (id(st), side)
                v = "played" if key in ran else verdict(a_idx, key)
                out.append(_result(f"{name}:{label}", v, action.source,
                                   "this branch runs in some state",
                                   "this branch never runs when the action is legal", played))
        except Unsupported as err:
            out.append(Result(name, SKIPPED, CHECKER, f"no Z3 encoding: {err}", action.source))
    def within_invariants() -> list[Any]:  # built only if a score clause needs a query
        return [smt.bounds(s)] + [smt.invariant_checked(k, s).holds()
                                  for k in range(len(spec.invariants))]
    out += _score_clauses(smt, s, within_invariants, timeout_ms, finals, budget)
    return out


def _played(model: Any, smt: SmtGame, games: int
            ) -> tuple[set[int], set[tuple[int, bool]], list[tuple]]:
    """The actions taken, the branches run (statement id, side) and the final states of
    seeded random games (the Z3 backend evaluates each step on its concrete state: every
    branch is decided)."""
    import random

    from ..runtime.play import seeded_chooser
    taken: set[int] = set()
    ran: set[tuple[int, bool]] = set()
    finals: list[tuple] = []

    def seen(st: Any, side: bool) -> None:
        ran.add((id(st), side))
    smt.branch_seen = seen
    try:
        for g in range(games):
            rng = random.Random(g)
            chance = seeded_chooser(model, rng)
            n = model.min_players + g % (model.max_players - model.min_players + 1)
            state = model.initial_state(n)
            for _ in range(model.spec.max_steps + 1):
                legal = model.legal_actions(state)
                if not legal:
                    break
                action = _pick(model, state, legal, rng, chance)
                key = action.key
                taken.add(key[0])
                smt.apply_checked(key[0], smt.concrete_state(state.values), list(key[1:]))
                state = model.apply(state, action)
            if model.is_terminal(state):
                finals.append(state.values)
    finally:
        smt.branch_seen = None
    return taken, ran, finals


def _branches(smt: SmtGame, a_idx: int, s: list, params: list
              ) -> list[tuple[Any, bool, str, Any]]:
    """For each ``when`` of the action's effects: (statement, True, label, condition under
    which its body runs), and likewise (statement, False, ...) for each ``otherwise``. A
    ``when`` inside a loop runs if it runs in some iteration."""
    seen: dict[int, tuple[Any, list, list]] = {}

    def probe(st: Any, guard: Any, cond: Any) -> None:
        entry = seen.setdefault(id(st), (st, [], []))
        entry[1].append(z3.And(guard, cond))
        entry[2].append(z3.And(guard, z3.Not(cond)))

    smt.branch_probe = probe
    try:
        smt.apply_checked(a_idx, s, params)
    finally:
        smt.branch_probe = None
    out = []
    lines: dict[Any, int] = {}
    for st, thens, elses in seen.values():
        line = st.where.line if st.where else "?"
        lines[line] = lines.get(line, 0) + 1  # a helper's when, once per loop value
        at = f"{line}" if lines[line] == 1 else f"{line}#{lines[line]}"
        out.append((st, True, f"when@{at}", z3.Or(*thens)))
        if st.otherwise:
            out.append((st, False, f"otherwise@{at}", z3.Or(*elses)))
    return out


class _Budget:
    """At most ``left`` solver queries (None: no bound)."""

    def __init__(self, left: int | None) -> None:
        self.left = left

    def take(self) -> bool:
        if self.left is None:
            return True
        if self.left <= 0:
            return False
        self.left -= 1
        return True


def _pick(model: Any, state: Any, legal: list, rng: Any, chance: Callable) -> Any:
    """Chance by its odds (``seeded_chooser``); a player's move by rule first, then
    uniformly within the rule, so that rare rules (an island gift, a fishing trip) are
    played as often as purchases."""
    if model.current_player(state) == CHANCE:
        return legal[chance(state, legal)]
    rules = sorted({a.key[0] for a in legal})
    rule = rng.choice(rules)
    return rng.choice([a for a in legal if a.key[0] == rule])


def _score_clauses(smt: SmtGame, s: list, premises: Callable[[], list], timeout_ms: int,
                   finals: list[tuple] = (), budget: "_Budget | None" = None) -> list[Result]:
    """Each conditional in the scoring rule (one per source line: a rule written once for
    every village is one clause) can go both ways in some terminal state: in the final
    state of a played game, else in a terminal state within the invariants (Z3)."""
    spec = smt.spec
    out: list[Result] = []
    by_line: dict[Any, list[Expr]] = {}
    for e in walk(spec.scoring.score):
        if e.op == "ite" and not _under_binder(spec.scoring.score, e):
            by_line.setdefault(e.where.line if e.where else "?", []).append(e)
    if not by_line:
        return out
    var = spec.scoring.var.args[0]
    known: list[Any] = []  # the premises, once a query needs them
    terminal = smt.terminal_checked(s).holds()
    p = z3.Int("p")
    player = z3.And(0 <= p, p < s[0])
    for line, conds in by_line.items():
        name = f"rule_can_apply:score@{line}"
        try:
            seen: set[bool] = set()  # the sides taken at the end of a played game
            for values in finals:
                final = smt.concrete_state(values)
                for k in range(values[0]):
                    for e in conds:
                        c = smt.evaluate(e.args[0], final, {var: k})
                        if z3.is_false(c.error) and (z3.is_true(c.value) or z3.is_false(c.value)):
                            seen.add(z3.is_true(c.value))
            checked = [smt.evaluate(e.args[0], s, {var: p}) for e in conds]
        except Unsupported as err:
            out.append(Result(name, SKIPPED, CHECKER, f"no Z3 encoding: {err}",
                              spec.scoring.source))
            continue
        for side, taken in (("then", True), ("else", False)):
            if taken in seen:
                v = "played"
            elif budget is not None and not budget.take():
                v = "skipped"
            else:
                ways = [c.holds() if taken else z3.And(z3.Not(c.error), z3.Not(c.value))
                        for c in checked]
                if not known:
                    known.extend(premises())
                v = _verdict([*known, terminal, player, z3.Or(*ways)], timeout_ms)
            out.append(_result(f"{name}:{side}", v, spec.scoring.source,
                               "this scoring clause applies in some final state",
                               "this scoring clause never applies at the end of a game",
                               "applies at the end of a random game"))
    return out


def _under_binder(root: Expr, target: Expr) -> bool:
    """True if ``target`` sits inside a quantifier of ``root`` (its variable is unbound)."""
    for node in walk(root):
        if node.op in ("exists", "forall", "sum", "count"):
            if any(n is target for n in walk(node.args[2])):
                return True
    return False
