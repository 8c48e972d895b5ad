"""Dead rules: an action, an effect branch or a scoring clause that no state can enable.

"No state" means no state within the declared bounds where every invariant and law holds
(the same premises as the step proofs). A dead rule is a spec bug or a rule that never
applies; either way the rules editor wants to know. Each rule gets one result under the
property name ``rule_can_apply:<what>``: PROVED when Z3 finds a state that enables it (a
witness), VIOLATED when none exists, UNKNOWN on a timeout.
"""

from __future__ import annotations

from typing import Any

import z3

from ..compile.smt_backend import SmtGame, Unsupported
from ..ir.nodes import Expr
from ..ir.walk import walk
from .results import PROVED, SKIPPED, UNKNOWN, VIOLATED, Result

CHECKER = "z3-dead-rules"


def _verdict(constraints: list[Any], timeout_ms: int) -> str:
    solver = z3.Solver()
    solver.set("timeout", timeout_ms)
    solver.add(*constraints)
    r = solver.check()
    return "sat" if r == z3.sat else "unsat" if r == z3.unsat else "unknown"


def _result(name: str, verdict: str, source: str | None, alive: str, dead: str) -> Result:
    if verdict == "sat":
        return Result(name, PROVED, CHECKER, alive, source)
    if verdict == "unsat":
        return Result(name, VIOLATED, CHECKER, dead, source)
    return Result(name, UNKNOWN, CHECKER, "solver timeout", source)


def dead_rules(smt: SmtGame, timeout_ms: int) -> list[Result]:
    """One result per action, per effect branch (``when``/``otherwise``) and per scoring
    clause (each side of a conditional in the score)."""
    spec = smt.spec
    out: list[Result] = []
    s = smt.fresh_state("s")
    premises = [smt.bounds(s)] + [smt.invariant_checked(k, s).holds()
                                  for k in range(len(spec.invariants))]
    for a_idx, action in enumerate(spec.actions):
        name = f"rule_can_apply:{action.name}"
        try:
            params = smt.params(a_idx, f"p.{a_idx}")
            legal = smt.legal(a_idx, s, params)
            verdict = _verdict([*premises, legal], timeout_ms)
            out.append(_result(name, verdict, action.source,
                               "enabled in some state within the invariants",
                               "no state within the invariants enables it"))
            if verdict != "sat":
                continue
            for label, reached in _branches(smt, a_idx, s, params):
                v = _verdict([*premises, legal, reached], timeout_ms)
                out.append(_result(f"{name}:{label}", v, action.source,
                                   "this branch runs in some state",
                                   "this branch never runs when the action is legal"))
        except Unsupported as err:
            out.append(Result(name, SKIPPED, CHECKER, f"no Z3 encoding: {err}", action.source))
    out += _score_clauses(smt, s, premises, timeout_ms)
    return out


def _branches(smt: SmtGame, a_idx: int, s: list, params: list) -> list[tuple[str, Any]]:
    """For each ``when`` of the action's effects: (label, condition under which its body
    runs), and likewise for each ``otherwise``. A ``when`` inside a loop runs if it runs
    in some iteration."""
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
    for st, thens, elses in seen.values():
        line = st.where.line if st.where else "?"
        out.append((f"when@{line}", z3.Or(*thens)))
        if st.otherwise:
            out.append((f"otherwise@{line}", z3.Or(*elses)))
    return out


def _score_clauses(smt: SmtGame, s: list, premises: list, timeout_ms: int) -> list[Result]:
    """Each conditional in the scoring rule can go both ways in some terminal state."""
    spec = smt.spec
    out: list[Result] = []
    conds = [e for e in walk(spec.scoring.score) if e.op == "ite"
             and not _under_binder(spec.scoring.score, e)]
    if not conds:
        return out
    terminal = smt.terminal_checked(s).holds()
    p = z3.Int("p")
    player = z3.And(0 <= p, p < s[0])
    for e in conds:
        line = e.where.line if e.where else "?"
        try:
            c = smt.evaluate(e.args[0], s, {spec.scoring.var.args[0]: p})
        except Unsupported as err:
            out.append(Result(f"rule_can_apply:score@{line}", SKIPPED, CHECKER,
                              f"no Z3 encoding: {err}", spec.scoring.source))
            continue
        for side, cond in (("then", c.holds()), ("else", z3.And(z3.Not(c.error), z3.Not(c.value)))):
            v = _verdict([*premises, terminal, player, cond], timeout_ms)
            out.append(_result(f"rule_can_apply:score@{line}:{side}", v, spec.scoring.source,
                               "this scoring clause applies in some final state",
                               "this scoring clause never applies at the end of a game"))
    return out


def _under_binder(root: Expr, target: Expr) -> bool:
    """True if ``target`` sits inside a quantifier of ``root`` (its variable is unbound)."""
    for node in walk(root):
        if node.op in ("exists", "forall", "sum", "count"):
            if any(n is target for n in walk(node.args[2])):
                return True
    return False
