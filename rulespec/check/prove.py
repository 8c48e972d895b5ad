"""``rulespec prove``: Z3 obligations over the same IR the Python backend runs.

Three kinds (docs/verification.md):

* **step proofs** — for every action and every parameter value, from every state within
  the declared bounds where every invariant holds, the action keeps each invariant, each
  conservation law and the bounds (one query per action instance, as BRIEF.md measured);
* **laws** — statements declared with ``game.law``: true in every state within bounds;
* **bounded model checking** — no violation reachable within ``k`` steps of any setup,
  chance outcomes included.

Every obligation ends PROVED, VIOLATED (a concrete counterexample replayed on the Python
backend), UNKNOWN (timeout, or a step that is not inductive and no reachable violation was
found) or SKIPPED (an operation without a Z3 encoding).
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any, Callable, Sequence

import attrs
import z3

from ..compile.smt_backend import SmtGame, Unsupported, compile_smt
from ..runtime.model import Model, State
from ..runtime.trace import Trace, save_trace
from .property import all_properties
from .results import PROVED, SKIPPED, UNKNOWN, VIOLATED, Result
from .walk import recheck

BOUNDS = "fields_within_bounds"
RULE_ERRORS = "rules_evaluate_without_error"
#: at most this many sub-cases per action when the solver cannot decide a whole action
MAX_SPLITS = 8
#: an action's queries stop after this many query timeouts' worth of time
ACTION_BUDGET = 8


@attrs.frozen
class Goal:
    """One thing a step must preserve: its name and ``holds(before, after_cells)``."""

    name: str
    source: str | None
    holds: Callable[[list, list], Any]


def _solve(constraints: Sequence[Any], timeout_ms: int) -> tuple[str, z3.ModelRef | None]:
    solver = z3.Solver()
    solver.set("timeout", timeout_ms)
    solver.add(*constraints)
    r = solver.check()
    if r == z3.unsat:
        return "unsat", None
    if r == z3.sat:
        return "sat", solver.model()
    return "unknown", None


def _goals(smt: SmtGame) -> list[Goal]:
    spec = smt.spec
    generic = "rulespec generic property (BRIEF.md: Properties)"
    goals = [Goal(BOUNDS, generic, lambda s, t: smt.bounds(t)),
             Goal(RULE_ERRORS, generic, lambda s, t: z3.BoolVal(True))]
    for k, inv in enumerate(spec.invariants):
        if not inv.law:
            goals.append(Goal(inv.name, inv.source,
                              lambda s, t, k=k: smt.invariant_checked(k, t).holds()))
    for k, law in enumerate(spec.conservation):
        goals.append(Goal(law.name, law.source,
                          lambda s, t, k=k: _same(smt, k, s, t)))
    return goals


def _same(smt: SmtGame, k: int, s: list, t: list) -> Any:
    before, after = smt.conserved_checked(k, s), smt.conserved_checked(k, t)
    return z3.And(z3.Not(before.error), z3.Not(after.error), before.value == after.value)


def _premises(smt: SmtGame, s: list) -> list[Any]:
    """A state within bounds where every invariant and law holds and every conserved
    total has its value after setup (for the state's number of players).

    Conservation laws are premises too: they are proved together with the invariants
    (a mutual induction whose base case is the setup), so assuming them is sound exactly
    when the induction succeeds -- which is when ``prove_game`` reports z3-induction.
    """
    out = [smt.bounds(s)]
    for k in range(len(smt.spec.invariants)):
        out.append(smt.invariant_checked(k, s).holds())
    for k in range(len(smt.spec.conservation)):
        cases = []
        for n, total in _initial_totals(smt, k).items():
            cases.append(z3.Implies(s[0] == n, smt.conserved_checked(k, s).value == total))
        out.extend(cases)
    return out


_TOTALS: dict[int, list[dict[int, int]]] = {}


def _initial_totals(smt: SmtGame, k: int) -> dict[int, int]:
    """Conserved total ``k`` after setup, for each number of players (Python backend)."""
    if id(smt) not in _TOTALS:
        from ..runtime.model import Model
        model = Model(smt.spec, smt.interpretation)
        states = {n: model.initial_state(n).values
                  for n in range(smt.spec.min_players, smt.spec.max_players + 1)}
        _TOTALS[id(smt)] = [{n: fn(v) for n, v in states.items()}
                            for fn in model.compiled.conserved]
    return _TOTALS[id(smt)][k]


def step_proofs(model: Model, smt: SmtGame, timeout_ms: int, wanted: set[str] | None,
                bmc: Callable[[set[str]], dict[str, Result]] | None = None) -> list[Result]:
    """Every action instance preserves every goal, from every state satisfying the premises."""
    goals = [g for g in _goals(smt) if wanted is None or g.name in wanted]
    if not goals:
        return []
    status = {g.name: PROVED for g in goals}
    detail: dict[str, str] = {}
    queries = 0
    started = time.perf_counter()
    try:
        for a_idx, action in enumerate(smt.spec.actions):
            s = smt.fresh_state("s")
            premises = _premises(smt, s)
            symbolic = smt.params(a_idx, f"p.{a_idx}")
            # Ask with every parameter symbolic first; split on the next parameter only
            # when the solver cannot decide (BRIEF.md: per-instance queries are cheap).
            cases: list[tuple[int, ...]] = [()]
            splits = 0
            action_started = time.perf_counter()
            while cases:
                prefix = cases.pop()
                params = [z3.IntVal(v) for v in prefix] + symbolic[len(prefix):]
                legal = smt.legal(a_idx, s, params)
                after = smt.apply_checked(a_idx, s, params)
                open_goals = [g for g in goals if status[g.name] == PROVED]
                while open_goals:
                    ok = {g.name: (z3.Not(after.error) if g.name == RULE_ERRORS else
                                   z3.Implies(z3.Not(after.error), g.holds(s, after.value)))
                          for g in open_goals}
                    queries += 1
                    verdict, m = _solve([*premises, legal,
                                         z3.Or(*[z3.Not(v) for v in ok.values()])], timeout_ms)
                    if verdict == "unsat":
                        break
                    if verdict == "unknown" and len(prefix) < len(symbolic):
                        p = action.params[len(prefix)].domain
                        if splits + (p.max_hi - p.lo) <= MAX_SPLITS:
                            splits += p.max_hi - p.lo
                            cases.extend((*prefix, v) for v in range(p.lo, p.max_hi))
                            break
                    if verdict == "unknown":
                        # one hard goal must not sink the easy ones: ask goal by goal,
                        # within the action's time budget
                        for g in open_goals:
                            if time.perf_counter() - action_started > ACTION_BUDGET * timeout_ms / 1000:
                                status[g.name] = UNKNOWN
                                detail[g.name] = (f"undecided on {_case(model, a_idx, prefix)} "
                                                  "within the action's time budget")
                                continue
                            queries += 1
                            v1, m1 = _solve([*premises, legal, z3.Not(ok[g.name])],
                                            timeout_ms)
                            if v1 == "unknown":
                                status[g.name] = UNKNOWN
                                detail[g.name] = (f"timeout on {_case(model, a_idx, prefix)} "
                                                  f"({timeout_ms} ms)")
                            elif v1 == "sat":
                                assert m1 is not None
                                status[g.name] = VIOLATED
                                detail[g.name] = _cti(model, smt.state_from_model(m1, s),
                                                      _key(m1, a_idx, params), g.name)
                        break
                    assert m is not None
                    failed = [g for g in open_goals
                              if z3.is_false(m.eval(ok[g.name], model_completion=True))]
                    values = smt.state_from_model(m, s)
                    for g in failed:
                        status[g.name] = VIOLATED
                        detail[g.name] = _cti(model, values, _key(m, a_idx, params), g.name)
                    open_goals = [g for g in open_goals if g not in failed]
    except Unsupported as err:
        return [Result(g.name, SKIPPED, "z3-step", f"no Z3 encoding: {err}", g.source)
                for g in goals]
    elapsed = time.perf_counter() - started
    # A step that fails from *some* state satisfying the invariants is not yet a bug: the
    # state may be unreachable. Bounded model checking decides whether it is reachable.
    not_inductive = {name for name, st in status.items() if st == VIOLATED}
    reachable = bmc(not_inductive) if (bmc and not_inductive) else {}
    out = []
    for g in goals:
        st = status[g.name]
        if st == PROVED:
            out.append(Result(g.name, PROVED, "z3-step",
                              f"every action preserves it ({queries} queries, "
                              f"{elapsed:.1f} s)", g.source))
        elif st == VIOLATED and g.name in reachable and reachable[g.name].status == VIOLATED:
            r = reachable[g.name]
            out.append(attrs.evolve(r, checker="z3-step+bmc",
                                    detail=f"{r.detail}; step: {detail[g.name]}"))
        elif st == VIOLATED:
            out.append(Result(g.name, UNKNOWN, "z3-step",
                              f"not inductive: {detail[g.name]}; no reachable violation "
                              "found by bounded model checking (strengthen the invariants)",
                              g.source))
        else:
            out.append(Result(g.name, UNKNOWN, "z3-step", detail[g.name], g.source))
    return out


def _case(model: Model, a_idx: int, prefix: tuple) -> str:
    """An action instance, or an action with only its first parameters fixed."""
    action = model.spec.actions[a_idx]
    if len(prefix) == len(action.params):
        return model._text((a_idx, *prefix))
    fixed = ", ".join(f"{p.name}={v}" for p, v in zip(action.params, prefix))
    return f"{action.name}({fixed}{', ' if fixed else ''}...)"


def _key(m: z3.ModelRef, a_idx: int, params: Sequence[Any]) -> tuple:
    """The concrete action instance a solver model chose."""
    return (a_idx, *(m.eval(p, model_completion=True).as_long() for p in params))


def _cti(model: Model, values: tuple, key: tuple, goal: str) -> str:
    """Describe a counterexample to induction: the state (a few fields) and the action."""
    state = State(values, model)
    return f"from a state satisfying the invariants, {model._text(key)} breaks {goal} " \
           f"(state: {_brief(state)})"


def _brief(state: State, limit: int = 6) -> str:
    d = state.to_dict()["fields"]
    items = [f"{k}={v}" for k, v in d.items() if not isinstance(v, list)][:limit]
    return ", ".join(items)


def law_proofs(smt: SmtGame, timeout_ms: int, wanted: set[str] | None) -> list[Result]:
    """Each declared law holds in every state within the declared bounds."""
    out = []
    for k, inv in enumerate(smt.spec.invariants):
        if not inv.law or (wanted is not None and inv.name not in wanted):
            continue
        try:
            s = smt.fresh_state("s")
            verdict, m = _solve([smt.bounds(s), z3.Not(smt.invariant_checked(k, s).holds())],
                                timeout_ms)
        except Unsupported as err:
            out.append(Result(inv.name, SKIPPED, "z3-law", f"no Z3 encoding: {err}", inv.source))
            continue
        if verdict == "unsat":
            out.append(Result(inv.name, PROVED, "z3-law", "holds in every state within bounds",
                              inv.source))
        elif verdict == "sat":
            assert m is not None
            values = smt.state_from_model(m, s)
            out.append(Result(inv.name, VIOLATED, "z3-law",
                              f"false in a state within bounds: {_law_witness(smt, values, inv)}",
                              inv.source))
        else:
            out.append(Result(inv.name, UNKNOWN, "z3-law", f"timeout ({timeout_ms} ms)",
                              inv.source))
    return out


def _law_witness(smt: SmtGame, values: tuple, inv: Any) -> str:
    from ..ir.walk import walk
    fields = {n.args[0].name for n in walk(inv.cond) if n.op == "field"}
    names = smt.cell_names()
    shown = [f"{n}={v}" for n, v in zip(names, values)
             if n.split("[")[0] in fields or n == "num_players"]
    return ", ".join(shown[:24])


def bounded_model_check(model: Model, smt: SmtGame, depth: int, timeout_ms: int,
                        wanted: set[str] | None, trace_dir: str | Path,
                        lemmas: Sequence[int] = ()) -> dict[str, Result]:
    """No violation of the goals reachable within ``depth`` steps from any setup.

    Iterative deepening, so a counterexample found is a shortest one; it is replayed and
    confirmed on the Python backend and saved as a trace. ``lemmas`` are indices of
    invariants already proved by induction: assuming them at every step is sound and
    spares the solver from rediscovering them.
    """
    goals = [g for g in _goals(smt) if wanted is None or g.name in wanted]
    laws = [(k, inv) for k, inv in enumerate(smt.spec.invariants)
            if inv.law and (wanted is None or inv.name in wanted)]
    found: dict[str, Result] = {}
    props = all_properties(model)
    for n in range(model.min_players, model.max_players + 1):
        pending = [g for g in goals if g.name not in found]
        if not pending:
            break
        path = _Unrolling(smt, n)
        solver = z3.Solver()
        solver.set("timeout", timeout_ms)
        solver.add(*path.constraints)
        for i in range(depth + 1):
            if i > 0:
                solver.add(*path.extend())
            s = path.states[i]
            solver.add(*[smt.invariant_checked(j, s).holds() for j in lemmas])
            checks = {g.name: g.holds(path.states[0], s) for g in pending}
            for k, inv in laws:
                checks[inv.name] = smt.invariant_checked(k, s).holds()
            if RULE_ERRORS not in found:
                checks[RULE_ERRORS] = z3.Not(path.error)
            solver.push()
            solver.add(z3.Or(*[z3.Not(c) for c in checks.values()]))
            r = solver.check()
            if r == z3.sat:
                m = solver.model()
                keys = path.actions(m, i)
                texts = [model._text(k) for k in keys]
                failed = [name for name, c in checks.items()
                          if z3.is_false(m.eval(c, model_completion=True))]
                v = recheck(model, n, texts, props)
                for name in failed:
                    confirmed = v is not None
                    saved = save_trace(Trace(model.name, n, tuple(texts),
                                             dict(model.interpretation), name,
                                             v.message if v else "found by Z3"),
                                       Path(trace_dir) / f"{model.name}-{name}-z3.json")
                    status = VIOLATED if confirmed else UNKNOWN
                    why = (v.message if v else
                           "Z3 found a violation the Python backend does not reproduce "
                           "(backend mismatch)")
                    found[name] = Result(name, status, "z3-bmc",
                                         f"reachable in {i} step(s) with {n} players: {why}",
                                         None, None, None, texts, str(saved))
                solver.pop()
                pending = [g for g in pending if g.name not in found]
                laws = [(k, inv) for k, inv in laws if inv.name not in found]
                if not pending and not laws:
                    break
                continue
            solver.pop()
            if r == z3.unknown:
                # ask goal by goal: only the goals that time out on their own are UNKNOWN
                for name, c in checks.items():
                    solver.push()
                    solver.add(z3.Not(c))
                    if solver.check() != z3.unsat:  # sat is found at its own depth later
                        found.setdefault(name, Result(name, UNKNOWN, "z3-bmc",
                                                      f"timeout at depth {i}, {n} players"))
                    solver.pop()
                pending = [g for g in pending if g.name not in found]
                laws = [(k, inv) for k, inv in laws if inv.name not in found]
                if not pending and not laws:
                    break
    return found


class _Unrolling:
    """A path of symbolic steps from the setup for ``n`` players: at each step one action
    instance (chosen symbolically) is legal and applied, or the game is over and stays."""

    def __init__(self, smt: SmtGame, n: int) -> None:
        self.smt = smt
        init = smt.initial_checked(z3.IntVal(n))
        self.states: list[list] = [init.value]
        self.error = init.error
        self.constraints: list[Any] = []
        self.choices: list[Any] = []
        self.instances = [(a, inst) for a in range(len(smt.spec.actions))
                          for inst in smt.instances(a)]

    def extend(self) -> list[Any]:
        """Add one step: fresh cells constrained to the chosen action instance's successor.

        Each action instance (concrete parameter values) is one choice, so indices fold and
        a cell's next value only lists the instances that can change it; fresh variables
        per step keep terms small however deep the path goes.
        """
        smt = self.smt
        i = len(self.states) - 1
        s = self.states[-1]
        choice = z3.Int(f"choice{i}")
        over = smt.current_player_checked(s).value == -4
        legal, changes, errors = [], [[] for _ in s], []
        for k, (a, inst) in enumerate(self.instances):
            params = [z3.IntVal(v) for v in inst]
            ok = smt.legal(a, s, params)
            if z3.is_false(z3.simplify(ok)):
                continue
            after = smt.apply_checked(a, s, params)
            legal.append(z3.And(choice == k, ok))
            errors.append(z3.And(choice == k, after.error))
            for c, (old, new) in enumerate(zip(s, after.value)):
                if not new.eq(old):
                    changes[c].append((k, new))
        nxt = smt.fresh_state(f"s{i + 1}")
        out = [z3.Or(over, *legal)]
        for c, old in enumerate(s):
            v = old
            for k, new in reversed(changes[c]):
                v = z3.If(choice == k, new, v)
            out.append(nxt[c] == z3.If(over, old, v))
        self.error = z3.Or(self.error, z3.And(z3.Not(over), z3.Or(*errors)))
        self.states.append(nxt)
        self.choices.append(choice)
        return out

    def actions(self, m: z3.ModelRef, upto: int) -> list[tuple]:
        """The action keys a solver model chose along the path, up to the end of the game."""
        keys = []
        for i in range(upto):
            over = m.eval(self.smt.current_player_checked(self.states[i]).value == -4,
                          model_completion=True)
            if z3.is_true(over):
                break
            k = m.eval(self.choices[i], model_completion=True).as_long()
            a, inst = self.instances[k]
            keys.append((a, *inst))
        return keys


def base_case(model: Model, smt: SmtGame, timeout_ms: int) -> dict[str, str]:
    """Goals false in some setup state (for any player count): name -> problem."""
    bad: dict[str, str] = {}
    for n in range(model.min_players, model.max_players + 1):
        init = smt.initial_checked(z3.IntVal(n))
        for g in _goals(smt):
            if g.name in bad:
                continue
            verdict, _ = _solve([z3.Not(z3.And(z3.Not(init.error),
                                               g.holds(init.value, init.value)))], timeout_ms)
            if verdict != "unsat":
                bad[g.name] = f"{'false' if verdict == 'sat' else 'undecided'} after setup " \
                              f"for {n} players"
    return bad


def prove_game(model: Model, *, property_names: Sequence[str] | None = None,
               timeout: float = 10.0, depth: int | None = None,
               trace_dir: str | Path = "traces") -> list[Result]:
    """All three kinds of obligation for the game (or just the named properties).

    Step proofs plus the base case (every goal holds after setup) are an induction: when
    every invariant and the bounds are preserved step-wise, each preserved goal holds in
    every reachable state, however long the game (reported by the ``z3-induction`` checker).
    Bounded model checking then explores ``depth`` steps from every setup.
    """
    smt = compile_smt(model.spec, model.interpretation)
    wanted = set(property_names) if property_names else None
    all_goals = [g.name for g in _goals(smt)]
    laws = [i.name for i in model.spec.invariants if i.law]
    if wanted is not None:
        unknown = wanted - set(all_goals) - set(laws)
        if unknown:
            raise ValueError(f"{model.name} has no provable property "
                             f"{', '.join(sorted(map(repr, unknown)))} (provable: "
                             f"{', '.join(all_goals + laws)})")
    timeout_ms = max(1, int(timeout * 1000))
    k = depth if depth is not None else model.spec.bmc_depth

    def bmc(names: set[str]) -> dict[str, Result]:
        return bounded_model_check(model, smt, k, timeout_ms, names, trace_dir)

    # The induction needs every premise preserved, so the steps are proved for all goals.
    steps = {r.property: r for r in step_proofs(model, smt, timeout_ms, None, bmc)}
    results: list[Result] = []
    try:
        base = base_case(model, smt, timeout_ms)
    except Unsupported as err:
        base = {g: f"no Z3 encoding: {err}" for g in all_goals}
    premises = ([BOUNDS] + [i.name for i in model.spec.invariants if not i.law]
                + [c.name for c in model.spec.conservation])
    inductive = all(steps[p].status == PROVED and p not in base for p in premises)
    for name in all_goals:
        if wanted is not None and name not in wanted:
            continue
        step = steps[name]
        results.append(step)
        if step.status == PROVED and inductive and name not in base:
            results.append(Result(name, PROVED, "z3-induction",
                                  "holds after every setup and every step preserves it: true "
                                  "in every reachable state", step.source))
        elif name in base:
            results.append(Result(name, VIOLATED if base[name].startswith("false") else UNKNOWN,
                                  "z3-induction", base[name], step.source))
    results += law_proofs(smt, timeout_ms, wanted)
    lemmas = [j for j, inv in enumerate(model.spec.invariants) if not inv.law] if inductive else []
    found = bounded_model_check(model, smt, k, timeout_ms, wanted, trace_dir, lemmas)
    for name in all_goals + laws:
        if wanted is not None and name not in wanted:
            continue
        r = found.get(name)
        if r is None:
            results.append(Result(name, PROVED, "z3-bmc",
                                  f"no violation within {k} steps of any setup "
                                  f"({model.min_players}-{model.max_players} players)"))
        elif not any(x.property == name and x.status == VIOLATED for x in results):
            results.append(r)
    if RULE_ERRORS in found:
        results.append(found[RULE_ERRORS])
    if wanted is None:
        from .dead import dead_rules
        results += dead_rules(smt, timeout_ms)
    return results
