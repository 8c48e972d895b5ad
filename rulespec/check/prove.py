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
from ..runtime.model import Model
from ..runtime.trace import Trace, save_trace
from .property import all_properties
from .results import PROVED, SKIPPED, UNKNOWN, VIOLATED, Result
from .steps import (BOUNDS, RULE_ERRORS, ActionProver, Case, Goal, Lessons, Premises,
                    goals_of, step_cases)
from .walk import recheck

#: an action case's queries stop after this many query timeouts' worth of time
ACTION_BUDGET = 8
#: random games played for dead-rule witnesses before any solver query
DEAD_RULE_GAMES = 8
#: solver queries for the rules no random game ran (a count: the same on any machine)
DEAD_RULE_QUERIES = 30


@attrs.frozen
class Check:
    """A step goal as bounded model checking and the base case check it: its name and
    ``holds(before, after_cells)``."""

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


def _goals(smt: SmtGame) -> list[Check]:
    """The step goals of :func:`.steps.goals_of`, the bounds of every field as one."""
    out = [Check(BOUNDS, None, lambda s, t: smt.bounds(t))]
    for g in goals_of(smt):
        if g.kind == "bounds":
            out[0] = Check(BOUNDS, g.source, out[0].holds)
        else:
            out.append(Check(g.name, g.source, lambda s, t, g=g: _holds(smt, g, s, t)))
    return out


def _holds(smt: SmtGame, g: Goal, s: list, t: list) -> Any:
    if g.kind == "errors":
        return z3.BoolVal(True)  # the error flag is checked on its own
    if g.kind == "invariant":
        return smt.invariant_checked(g.index, t).holds()
    before, after = smt.conserved_checked(g.index, s), smt.conserved_checked(g.index, t)
    return z3.And(z3.Not(before.error), z3.Not(after.error), before.value == after.value)


# --- step proofs: every action, split into cases, each case on its own -------------------
def _run_cases(model: Model, smt: SmtGame, cases: Sequence[Case], timeout_ms: int
               ) -> list[tuple[Case, dict[str, tuple[str, str]], int]]:
    goals = goals_of(smt)
    premises: dict[tuple, Premises] = {}
    lessons = Lessons()
    out = []
    for case in cases:
        a_idx, fixed = case
        if fixed not in premises:
            premises[fixed] = Premises(smt, dict(fixed))
        prover = ActionProver(model, smt, premises[fixed], a_idx, goals, timeout_ms,
                              ACTION_BUDGET * timeout_ms / 1000, lessons)
        verdicts = prover.run()
        out.append((case, {n: (v.status, v.detail) for n, v in verdicts.items()},
                    prover.queries))
    return out


def _load_compiled(spec_file: str, interpretation: dict[str, str]) -> tuple[Model, SmtGame]:
    """The game again, in a worker process (a compiled game does not cross processes)."""
    from ..runtime.registry import load
    model = load(spec_file, interpretation)
    return model, compile_smt(model.spec, model.interpretation)


def _run_cases_in_worker(spec_file: str, interpretation: dict[str, str],
                         cases: Sequence[Case], timeout_ms: int) -> list:
    return _run_cases(*_load_compiled(spec_file, interpretation), cases, timeout_ms)


def _in_workers(model: Model, smt: SmtGame, cases: list[Case], timeout_ms: int,
                workers: int) -> list:
    """Run the cases, in ``workers`` processes when there is more than one."""
    if workers <= 1 or model.spec.file is None or len(cases) < 2 * workers:
        return _run_cases(model, smt, cases, timeout_ms)
    from .workers import worker_pool
    # an action's cases stay together (they share split lessons), actions dealt in turn
    actions = sorted({a for a, _ in cases})
    groups = [[c for c in cases if actions.index(c[0]) % workers == w] for w in range(workers)]
    groups = [g for g in groups if g]
    with worker_pool(workers) as pool:
        futures = [pool.submit(_run_cases_in_worker, model.spec.file,
                               dict(model.interpretation), g, timeout_ms) for g in groups]
        return [r for f in futures for r in f.result()]


def step_proofs(model: Model, smt: SmtGame, timeout_ms: int, wanted: set[str] | None,
                bmc: Callable[[set[str]], dict[str, Result]] | None = None,
                workers: int = 1) -> list[Result]:
    """Every action instance preserves every goal, from every state satisfying the
    premises (see :mod:`.steps`)."""
    started = time.perf_counter()
    try:
        runs = _in_workers(model, smt, step_cases(smt), timeout_ms, workers)
    except Unsupported as err:
        return [Result(g.name, SKIPPED, "z3-step", f"no Z3 encoding: {err}", g.source)
                for g in _goals(smt) if wanted is None or g.name in wanted]
    elapsed = time.perf_counter() - started
    sources = {g.reported_as: g.source for g in goals_of(smt)}
    status = {name: PROVED for name in sources}
    detail: dict[str, str] = {}
    rank = {PROVED: 0, UNKNOWN: 1, VIOLATED: 2}
    queries = 0
    for _, verdicts, n in runs:
        queries += n
        for name, (st, why) in verdicts.items():
            g = BOUNDS if name.startswith(BOUNDS + "[") else name
            if rank[st] > rank[status[g]]:
                status[g] = st
                detail[g] = why
    # A step that fails from *some* state satisfying the invariants is not yet a bug: the
    # state may be unreachable. Bounded model checking decides whether it is reachable.
    not_inductive = {name for name, st in status.items() if st == VIOLATED}
    reachable = bmc(not_inductive) if (bmc and not_inductive) else {}
    out = []
    for name, st in status.items():
        if wanted is not None and name not in wanted:
            continue
        if st == PROVED:
            out.append(Result(name, PROVED, "z3-step",
                              f"every action preserves it ({len(runs)} cases, {queries} "
                              f"queries, {elapsed:.1f} s)", sources[name]))
        elif st == VIOLATED and name in reachable and reachable[name].status == VIOLATED:
            r = reachable[name]
            out.append(attrs.evolve(r, checker="z3-step+bmc",
                                    detail=f"{r.detail}; step: {detail[name]}"))
        elif st == VIOLATED:
            out.append(Result(name, UNKNOWN, "z3-step",
                              f"not inductive: {detail[name]}; no reachable violation "
                              "found by bounded model checking (strengthen the invariants)",
                              sources[name]))
        else:
            out.append(Result(name, UNKNOWN, "z3-step", detail[name], sources[name]))
    return out


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
        per step keep terms small however deep the path goes. A cell no instance writes, or
        whose next value is the same whatever the choice, keeps a plain term, so known
        values (the phase during the layout, say) stay known and rule out whole actions.
        """
        smt = self.smt
        i = len(self.states) - 1
        s = self.states[-1]
        choice = z3.Int(f"choice{i}")
        over = smt.current_player_checked(s).value == -4
        legal, changes, errors = [], [[] for _ in s], []
        possible = {a: not z3.is_false(z3.simplify(smt.legal(a, s, smt.params(a, f"any{a}"))))
                    for a in range(len(smt.spec.actions))}
        for k, (a, inst) in enumerate(self.instances):
            if not possible[a]:  # e.g. the phase is known and the action needs another
                continue
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
        fresh = smt.fresh_state(f"s{i + 1}")
        nxt = list(s)
        out = [z3.Or(over, *legal)]
        for c, old in enumerate(s):
            if not changes[c]:
                continue  # no instance writes it: it keeps its term (a known value stays known)
            v = old
            for k, new in reversed(changes[c]):
                v = z3.If(choice == k, new, v)
            v = z3.simplify(z3.If(over, old, v))
            if z3.is_int_value(v) or z3.is_true(v) or z3.is_false(v):
                nxt[c] = v  # decided whatever the choice: later steps fold on it
            else:
                nxt[c] = fresh[c]
                out.append(fresh[c] == v)
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
               trace_dir: str | Path = "traces", workers: int = 1) -> list[Result]:
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

    # Dead rules and bounded model checking need nothing the step proofs find: with worker
    # processes they run in one of their own, alongside the step proofs. Bounded model
    # checking there assumes the invariants (its shortcut); _prove keeps that result only
    # if the induction then proves them, and checks again without them otherwise.
    if wanted is None and workers > 1 and model.spec.file is not None:
        from .workers import worker_pool
        with worker_pool(1) as pool:
            side_job = pool.submit(_alongside_in_worker, model.spec.file,
                                   dict(model.interpretation), timeout_ms, k, str(trace_dir))
            return _prove(model, smt, wanted, all_goals, laws, timeout_ms, k, trace_dir, bmc,
                          workers, side_job)
    return _prove(model, smt, wanted, all_goals, laws, timeout_ms, k, trace_dir, bmc,
                  workers, None)


def _lemmas(model: Model) -> list[int]:
    """The invariants bounded model checking may assume once induction proves them."""
    return [j for j, inv in enumerate(model.spec.invariants) if not inv.law]


def _alongside_in_worker(spec_file: str, interpretation: dict[str, str], timeout_ms: int,
                         depth: int, trace_dir: str) -> tuple[dict[str, Result], list[Result]]:
    """Bounded model checking of every goal, assuming every invariant (valid only once
    the induction proves them), then dead rules (in a process of their own)."""
    model, smt = _load_compiled(spec_file, interpretation)
    found = bounded_model_check(model, smt, depth, timeout_ms, None, trace_dir,
                                _lemmas(model))
    return found, _dead_rules(model, smt, timeout_ms)


def _dead_rules(model: Model, smt: SmtGame, timeout_ms: int) -> list[Result]:
    from .dead import dead_rules
    return dead_rules(smt, timeout_ms, model, games=DEAD_RULE_GAMES,
                      max_queries=DEAD_RULE_QUERIES)


def _prove(model: Model, smt: SmtGame, wanted: set[str] | None, all_goals: list[str],
           laws: list[str], timeout_ms: int, k: int, trace_dir: str | Path,
           bmc: Callable[[set[str]], dict[str, Result]], workers: int,
           side_job: Any) -> list[Result]:
    # The induction needs every premise preserved, so the steps are proved for all goals.
    steps = {r.property: r for r in step_proofs(model, smt, timeout_ms, None, bmc, workers)}
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
    dead = None
    if side_job is not None:
        found, dead = side_job.result()  # assumed every invariant: valid if inductive
    if side_job is None or not inductive:
        found = bounded_model_check(model, smt, k, timeout_ms, wanted, trace_dir,
                                    _lemmas(model) if inductive else [])
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
    if dead is not None:
        results += dead
    elif wanted is None:
        results += _dead_rules(model, smt, timeout_ms)
    return results
