"""The jobs of ``rulespec prove`` (module level: they run in worker processes, each on a Z3
context of its own, :mod:`.jobs`), how the step cases and dead rules are grouped into
jobs (a count: jobs never depend on the number of workers), and the laws' and the base
case's proofs."""

from __future__ import annotations

import copy
from typing import Any, Sequence

import z3

from ..compile.smt_backend import SmtGame, Unsupported
from ..runtime.model import Model
from .bmc import bounded_model_check, goal_checks
from .reading_errors import prove_reading
from .results import PROVED, SKIPPED, UNKNOWN, VIOLATED, Result
from .solvers import Budget, check, limited, simple_solver
from .steps import (ActionProver, Case, ImpliedBounds, ImpliedTotals, Lessons, Premises,
                    goals_of)

#: random games played for dead-rule witnesses before any solver query, at most: in rounds
#: of DEAD_RULE_ROUND, until a round finds no new rule (dead.play). A Hawaii game costs a
#: twentieth of a witness query: 32 games leave 44 of its 353 rules to Z3, 8 left 88
DEAD_RULE_GAMES = 32
DEAD_RULE_ROUND = 8
#: actions (sharing one set of pinned flow values) proved together in one job: they share
#: premises and what they learn (:class:`.steps.Lessons`); a count, so jobs never depend
#: on the number of workers
ACTIONS_PER_JOB = 3
# --- the jobs (module level: they run in worker processes) -----------------------------
def _steps_job(model: Model, smt: SmtGame, cases: Sequence[Case], budget: Budget,
               taught: Lessons | None = None, only: dict[Case, frozenset] | None = None
               ) -> tuple[list[tuple[Case, dict[str, tuple[str, str]], int, dict]],
                          Lessons] | str:
    """Step proofs of some action cases (sharing premises and lessons, starting from a
    copy of what another job ``taught``): their verdicts and what they learned, or why
    not. ``only``: per case, the goals to prove there (the rest were proved before)."""
    goals = goals_of(smt)
    premises: dict[tuple, Premises] = {}
    implied: dict[int, ImpliedBounds] = {}
    totals: dict[int, ImpliedTotals] = {}
    # a copy: in this process another job may be taught the same lessons
    lessons = Lessons() if taught is None else copy.deepcopy(taught)
    out = []

    def premises_of(fixed: tuple) -> Premises:
        if fixed not in premises:
            premises[fixed] = Premises(smt, dict(fixed))
        return premises[fixed]
    try:
        for a_idx, fixed in cases:
            case_premises = premises_of(fixed)
            n = dict(fixed)[0]
            if n not in implied:  # one set of premises per player count (with the cases')
                implied[n] = ImpliedBounds(smt, n, budget, lambda n=n: premises_of(((0, n),)))
                totals[n] = ImpliedTotals(smt, n, budget, implied[n])
            asked = list(implied[n].stats)
            summed = list(totals[n].stats)
            mine = goals if only is None else [g for g in goals
                                               if g.name in only[(a_idx, fixed)]]
            prover = ActionProver(model, smt, case_premises, a_idx, mine, budget, lessons,
                                  implied[n], totals[n])
            verdicts = prover.run()
            stats = dict(prover.stats)
            if implied[n].stats != asked:
                stats["implied"] = [implied[n].stats[0] - asked[0],
                                    implied[n].stats[1] - asked[1], 0, 0, 0]
            if totals[n].stats != summed:
                stats["totals"] = [totals[n].stats[0] - summed[0],
                                   totals[n].stats[1] - summed[1], 0, 0, 0]
            out.append(((a_idx, fixed), {n: (v.status, v.detail, v.used)
                                         for n, v in verdicts.items()},
                        prover.queries, stats, prover.ctis))
    except Unsupported as err:
        return f"no Z3 encoding: {err}"
    return out, lessons


def _base_and_laws_job(model: Model, smt: SmtGame, budget: Budget, wanted: set[str] | None
                       ) -> tuple[dict[str, str], list[Result]]:
    """The base case (goals false or undecided after setup) and the laws."""
    try:
        base = base_case(model, smt, budget.query)
    except Unsupported as err:
        base = {c.name: f"no Z3 encoding: {err}" for c in goal_checks(smt)}
    return base, law_proofs(smt, budget.query, wanted)


def _reading_job(model: Model, smt: SmtGame, budget: Budget) -> tuple[str, str, int]:
    """Whether reading a state (whose move, whether over, which moves are legal, the
    scores) can raise where the invariants hold (:mod:`.reading_errors`)."""
    try:
        return prove_reading(model, smt, budget.query)
    except Unsupported as err:
        return UNKNOWN, f"no Z3 encoding: {err}", 0


def _bmc_job(model: Model, smt: SmtGame, depth: int, rlimit: int, names: set[str],
             trace_dir: str, lemmas: Sequence[int]) -> dict[str, Result] | str:
    try:
        return bounded_model_check(model, smt, depth, rlimit, names, trace_dir, lemmas)
    except Unsupported as err:
        return f"no Z3 encoding: {err}"


def _played_job(model: Model, smt: SmtGame, games: int) -> Any:
    from .dead import play
    return play(model, smt, games, DEAD_RULE_ROUND)


def _dead_job(model: Model, smt: SmtGame, actions: Sequence[int], played: Any,
              budget: Budget, cases: Sequence[Case]) -> list[Result]:
    from .dead import action_rules
    return action_rules(smt, actions, played, budget.query, cases)


def _explain_job(model: Model, smt: SmtGame, played: Any, budget: Budget,
                 names: Sequence[str]) -> dict[str, list[str]]:
    from .dead import explain_dead
    return explain_dead(smt, played, budget.query, names)


def _score_job(model: Model, smt: SmtGame, played: Any, budget: Budget) -> list[Result]:
    from .dead import score_rules
    return score_rules(smt, played, budget.query)


def _step_groups(model: Model, cases: list[Case]) -> list[list[Case]]:
    """The step cases as jobs: per player count and pinned flow values, every action of
    that case. They share the premises (built once per job) and what their proofs learn
    (:class:`.steps.Lessons`: premises of one case serve the next action exactly). The
    smaller cases of one player count share a job too, as long as it stays smaller than
    that count's largest case (Hawaii: the set-up steps, fishing and the three island
    gifts, next to the purchases): they share the implied bounds and the lessons, and a
    job's fixed costs are paid once. The jobs with the most work first (most action
    instances, most players), so that the workers end together. Fixed by the spec
    alone, never by the number of workers: the verdicts do not depend on it."""
    groups: dict[tuple, list[Case]] = {}
    for a, fixed in cases:
        groups.setdefault(fixed, []).append((a, fixed))

    def size(group: list[Case]) -> tuple[int, int]:
        return (sum(_instances(model, a) for a, _ in group), dict(group[0][1])[0])
    by_players: dict[int, list[list[Case]]] = {}
    for group in sorted(groups.values(), key=size, reverse=True):
        by_players.setdefault(dict(group[0][1])[0], []).append(group)
    out: list[list[Case]] = []
    for largest, *rest in by_players.values():
        out.append(largest)
        bucket: list[Case] = []
        for group in rest:
            if bucket and size(bucket + group)[0] > size(largest)[0]:
                out.append(bucket)
                bucket = []
            bucket = bucket + group
        if bucket:
            out.append(bucket)
    return sorted(out, key=size, reverse=True)


def _teachers(groups: list[list[Case]]) -> list[int | None]:
    """For each step job, the job whose lessons it starts from (None: it starts afresh).

    The jobs that prove the same actions with the same pinned flow values for another
    number of players learn the same things: which premises show a goal, which goals a
    slice cannot show, which must be split. The one with the most players (the most
    premises, so what it learns serves the others) runs first and teaches the others,
    which start once it has answered: at the quick budget (``--rlimit 10000000``) prove
    spent 17% fewer resource units so on Aquatica, 15% on Hawaii and 14% on MOTU. Fixed
    by the spec alone: the verdicts do not depend on the number of workers."""
    def family(group: list[Case]) -> frozenset:
        return frozenset((a, tuple(c for c in fixed if c[0] != 0)) for a, fixed in group)

    def players(group: list[Case]) -> int:
        return dict(group[0][1])[0]
    first: dict[frozenset, int] = {}
    for i, group in enumerate(groups):
        j = first.setdefault(family(group), i)
        if players(group) > players(groups[j]):
            first[family(group)] = i
    return [None if first[family(g)] == i else first[family(g)]
            for i, g in enumerate(groups)]


def _instances(model: Model, a: int) -> int:
    n = 1
    for p in model.spec.actions[a].params:
        n *= max(1, p.domain.max_hi - p.domain.lo)
    return n


def _dead_groups(model: Model, cases: list[Case]) -> list[list[int]]:
    """The actions' dead-rule searches as jobs: the actions that pin the same flow values
    together (they share premises), larger groups split in two."""
    by_pins: dict[tuple, list[int]] = {}
    for a, fixed in cases:
        pins = tuple(c for c in fixed if c[0] != 0)
        if a not in by_pins.setdefault(pins, []):
            by_pins[pins].append(a)
    if not by_pins:  # no step cases (an operation without a Z3 encoding): one job says so
        return [list(range(len(model.spec.actions)))]
    out = []
    for actions in by_pins.values():
        half = (len(actions) + 1) // 2 if len(actions) > 8 else len(actions)
        out += [actions[i:i + half] for i in range(0, len(actions), half)]
    return out


# --- laws and the base case -------------------------------------------------------------
def _solve(constraints: Sequence[Any], rlimit: int) -> tuple[str, z3.ModelRef | None]:
    # no preprocessing: Z3's default solver preprocesses by tactics whose work varied
    # with the process's memory layout (Hawaii's law: 18.7M to 19.3M units in one process)
    solver = limited(simple_solver(), rlimit)
    solver.add(*constraints)
    r = check(solver)
    if r == z3.unsat:
        return "unsat", None
    if r == z3.sat:
        return "sat", solver.model()
    return "unknown", None


def law_proofs(smt: SmtGame, rlimit: int, wanted: set[str] | None) -> list[Result]:
    """Each declared law holds in every state within the declared bounds."""
    out = []
    for k, inv in enumerate(smt.spec.invariants):
        if not inv.law or (wanted is not None and inv.name not in wanted):
            continue
        law = {"method": "law", "rlimit": rlimit,
               "players": list(range(smt.spec.min_players, smt.spec.max_players + 1))}
        try:
            s = smt.fresh_state("s")
            verdict, m = _solve([smt.bounds(s), z3.Not(smt.invariant_checked(k, s).holds())],
                                rlimit)
        except Unsupported as err:
            out.append(Result(inv.name, SKIPPED, "z3-law", f"no Z3 encoding: {err}", inv.source,
                              evidence={**law, "why": f"no Z3 encoding: {err}"}))
            continue
        if verdict == "unsat":
            out.append(Result(inv.name, PROVED, "z3-law", "holds in every state within bounds",
                              inv.source, evidence=law))
        elif verdict == "sat":
            assert m is not None
            values = smt.state_from_model(m, s)
            out.append(Result(inv.name, VIOLATED, "z3-law",
                              f"false in a state within bounds: {_law_witness(smt, values, inv)}",
                              inv.source, evidence=law))
        else:
            why = f"undecided within {rlimit:,} resource units"
            out.append(Result(inv.name, UNKNOWN, "z3-law", why, inv.source,
                              evidence={**law, "why": why}))
    return out


def _law_witness(smt: SmtGame, values: tuple, inv: Any) -> str:
    from ..ir.walk import walk
    fields = {n.args[0].name for n in walk(inv.cond) if n.op == "field"}
    names = smt.cell_names()
    shown = [f"{n}={v}" for n, v in zip(names, values)
             if n.split("[")[0] in fields or n == "num_players"]
    return ", ".join(shown[:24])


def base_case(model: Model, smt: SmtGame, rlimit: int) -> dict[str, str]:
    """Goals false in some setup state (for any player count): name -> problem."""
    bad: dict[str, str] = {}
    for n in range(model.min_players, model.max_players + 1):
        init = smt.initial_checked(z3.IntVal(n))
        for g in goal_checks(smt):
            if g.name in bad:
                continue
            verdict, _ = _solve([z3.Not(z3.And(z3.Not(init.error),
                                               g.holds(init.value, init.value)))], rlimit)
            if verdict != "unsat":
                bad[g.name] = f"{'false' if verdict == 'sat' else 'undecided'} after setup " \
                              f"for {n} players"
    return bad
