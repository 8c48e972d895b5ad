"""``rulespec prove``: Z3 obligations over the same IR the Python backend runs.

Four kinds (docs/verification.md):

* **step proofs** — for every action and every parameter value, from every state within
  the declared bounds where every invariant holds, the action keeps each invariant, each
  conservation law and the bounds; with the base case (every goal holds after setup)
  they are an **induction**: each goal holds in every reachable state;
* **laws** — statements declared with ``game.law``: true in every state within bounds;
* **bounded model checking** (:mod:`.bmc`) — for what induction did not prove: is a
  violation reachable within ``k`` steps of a setup?
* **dead rules** (:mod:`.dead`) — every action, effect branch and scoring clause can
  apply in some state.

Every obligation ends PROVED, VIOLATED (a concrete counterexample replayed on the Python
backend), UNKNOWN (a budget ran out, or a step is not inductive and no reachable
violation was found) or SKIPPED (an operation without a Z3 encoding). Budgets are
counted in Z3 resource units (:mod:`.solvers`), so the verdicts are the same on any
machine; the work runs as jobs (:mod:`.jobs`), each on a Z3 context of its own.
"""

from __future__ import annotations

import concurrent.futures as cf
from pathlib import Path
from typing import Any, Callable, Sequence

import attrs

from ..compile.smt_backend import Unsupported, compile_smt
from ..compile.smt_terms import own_context
from ..runtime.model import Model
from ..spec.elements import Invariant
from .bmc import goal_checks
from .infer import infer as search, marked, open_goals, strengthened
from .jobs import Jobs, SafetyLimit
from .job_store import JobStore
# the jobs and their grouping; the laws' and the base case's proofs (imported by name
# from here by the report and the tests)
from .proof_jobs import (ACTIONS_PER_JOB, DEAD_RULE_GAMES, DEAD_RULE_ROUND,  # noqa: F401
                         _base_and_laws_job, _bmc_job, _dead_groups, _dead_job, _explain_job,
                         _played_job, _reading_job, _score_job, _step_groups, _steps_job,
                         _teachers, base_case, law_proofs)
from .progress import QUIET, Progress
from .results import PROVED, SKIPPED, UNKNOWN, VIOLATED, Result
from .seats import seat_lemmas
from .solvers import DEFAULT_RLIMIT, Budget
from .steps import BOUNDS, RULE_ERRORS, Case, Lessons, goals_of, remember_totals, step_cases

#: a run with a retry budget (the report's quick one) tries again at most this many step
#: cases a goal was undecided in: a small game's few hard cases get the budget they need,
#: a large game's many stay its smaller budget's (the cost stays bounded, and counted)
RETRY_CASES = 16


@attrs.frozen
class ProofRun:
    """What ``prove`` found: the results, and what it took."""

    results: list[Result]
    #: Z3 resource units the jobs spent (the same on any machine)
    rlimit: int
    jobs: int
    #: why the run stopped early (the wall-clock safety limit), or None
    stopped: str | None = None
    #: the resource units of each job, by its label (to see where the work goes)
    units: dict[str, int] = attrs.field(factory=dict)
    #: the step proofs' queries by kind: [queries, resource units, unsat, sat, unknown]
    step_stats: dict[str, list[int]] = attrs.field(factory=dict)
    #: (jobs answered from the verdict store, jobs), or None when no store was open
    stored: tuple[int, int] | None = None
    #: what the search for auxiliary invariants did (:mod:`.infer`), or None when it
    #: did not run (every goal proved without it)
    inference: dict[str, Any] | None = None
    #: the inferred lemmas among the results, as invariants (their expressions: what
    #: they read), or () when no lemma was kept
    lemmas: tuple[Invariant, ...] = ()
    #: each step case and its goals' verdicts (what a second run with lemmas inherits)
    step_verdicts: tuple = attrs.field(default=(), eq=False, repr=False)
    #: (case, goal, state values): the step proofs' counterexamples to induction, states
    #: the invariants allow that a step leaves breaking the goal (what a lemma must exclude)
    ctis: tuple = attrs.field(default=(), eq=False, repr=False)
    #: of ``rlimit``, the units of jobs answered from the verdict store (not spent here)
    stored_units: int = 0
    #: what the retry at a larger budget did ({"rlimit", "cases", "tried"}: the step cases
    #: a goal was undecided in, and whether they were tried again), or None: no retry asked
    #: or nothing undecided
    retry: dict[str, Any] | None = None


def prove_game(model: Model, *, property_names: Sequence[str] | None = None,
               rlimit: int = DEFAULT_RLIMIT, depth: int | None = None,
               trace_dir: str | Path = "traces", workers: int = 1,
               timeout: float | None = None, progress: Progress = QUIET,
               infer: bool = True) -> list[Result]:
    """Every kind of obligation for the game (or just the named properties): see
    :func:`prove`, which also says what it took."""
    return prove(model, property_names=property_names, rlimit=rlimit, depth=depth,
                 trace_dir=trace_dir, workers=workers, timeout=timeout,
                 progress=progress, infer=infer).results


def provable(model: Model) -> list[str]:
    """The names ``prove`` takes, read from the spec alone (nothing compiled): the goals of
    :func:`.steps.goals_of` (the bounds as one), then the laws; a property the spec leaves
    to play is taken too (and skipped, saying so)."""
    spec = model.spec
    skip = spec.left_to_play
    return ([BOUNDS, RULE_ERRORS]
            + [i.name for i in spec.invariants if not i.law and i.name not in skip]
            + [c.name for c in spec.conservation if c.name not in skip]
            + [i.name for i in spec.invariants if i.law])


def check_provable(model: Model, names: Sequence[str] | None) -> None:
    """ValueError naming each of ``names`` that ``prove`` cannot check: a bad
    ``--property`` is refused before any work."""
    known = provable(model)
    unknown = set(names or ()) - set(known) - set(model.spec.left_to_play)
    if unknown:
        raise ValueError(f"{model.name} has no provable property "
                         f"{', '.join(sorted(map(repr, unknown)))} (provable: "
                         f"{', '.join(known)})")


def prove(model: Model, *, property_names: Sequence[str] | None = None,
          rlimit: int = DEFAULT_RLIMIT, depth: int | None = None,
          trace_dir: str | Path = "traces", workers: int = 1,
          timeout: float | None = None, progress: Progress = QUIET,
          processes: bool | None = None, cluster: Any = None,
          infer: bool = True, retry_rlimit: int | None = None) -> ProofRun:
    """:func:`prove_once`; where a goal's step proof is undecided within ``rlimit`` in a
    few step cases (at most :data:`RETRY_CASES`) and ``retry_rlimit`` is larger, those
    cases are tried again with ``retry_rlimit`` units a query (the rest stands); where a
    goal's step proof is still UNKNOWN (and ``infer``),
    the prover looks for auxiliary invariants (:mod:`.infer`) and, when it finds some,
    proves again with them as goals of their own: when that proves some goal more, the
    answer is that second run's, with the inferred lemmas among its results
    (``evidence["provenance"]`` "inferred"); the units are those of both runs and the
    search."""
    kw = dict(rlimit=rlimit, depth=depth, trace_dir=trace_dir, workers=workers,
              timeout=timeout, progress=progress, processes=processes, cluster=cluster)
    plain = model
    model, first = _with_seat_lemmas(model, property_names, retry_rlimit, kw, infer)
    goals = open_goals(first.results)
    violated = any(r.status == VIOLATED for r in first.results)
    if not infer or first.stopped or violated or not goals:
        return first  # a broken rule first: a lemma cannot mend it
    # the step goals left open, each field's bounds apart: the candidates about them
    open_steps = sorted({n for _, verdicts, _ in first.step_verdicts
                         for n, v in verdicts.items() if v[0] != PROVED})
    # the actions whose steps the rules' errors goal is open in: their fields stand for it
    failing = sorted({case[0] for case, verdicts, _ in first.step_verdicts
                      if verdicts.get(RULE_ERRORS, (PROVED,))[0] != PROVED})
    found = search(model, Budget(rlimit).query, sorted(goals), open_steps=open_steps,
                   error_actions=failing, ctis=[(goal, values) for _, goal, values in first.ctis])
    if not found.lemmas:
        return attrs.evolve(first, rlimit=first.rlimit + found.units,
                            inference=found.summary())
    stronger = strengthened(model, found.lemmas)
    lemmas = tuple(stronger.spec.invariants[len(plain.spec.invariants):])
    # the goals again, with the lemmas among them; not the dead rules: the first run
    # answered those, and a lemma only strengthens what a proof may assume
    names = [*(property_names or provable(model)), *(lemma.name for lemma in lemmas)]
    again = prove_once(stronger, property_names=names, proved_steps=first.step_verdicts,
                       **kw)
    spent = {**_both(first, again), "rlimit": first.rlimit + found.units + again.rlimit,
             "inference": found.summary()}
    if open_goals(again.results) - {g.name for g in lemmas} >= goals:
        return attrs.evolve(first, **spent)  # the lemmas proved no goal more: not shown
    return attrs.evolve(again, results=_merged(first.results, again.results), lemmas=lemmas,
                        **spent)


def _first(model: Model, property_names: Sequence[str] | None, retry_rlimit: int | None,
           kw: dict[str, Any]) -> ProofRun:
    """:func:`prove_once`, then :func:`_retried`."""
    # where the retry runs, it checks again what its run leaves open: the first run's
    # bounded model checking (dear in CPU: the unrolling is built in Python) would be
    # replaced unread
    first = prove_once(model, property_names=property_names, **kw,
                       bmc_unless=lambda runs: _retry_tried(runs, kw["rlimit"], retry_rlimit))
    return _retried(model, first, property_names, retry_rlimit, kw)


def _with_seat_lemmas(model: Model, property_names: Sequence[str] | None,
                      retry_rlimit: int | None, kw: dict[str, Any], infer: bool
                      ) -> tuple[Model, ProofRun]:
    """The first run: with the seat lemmas among the goals (:mod:`.seats`), when there
    are some and ``infer``; if one of them is not proved, the run again without them
    (the units of both). Returns the model proved (strengthened or not) and its run."""
    lemmas = seat_lemmas(model) if infer else []
    if not lemmas:
        return model, _first(model, property_names, retry_rlimit, kw)
    stronger = strengthened(model, lemmas)
    added = tuple(stronger.spec.invariants[len(model.spec.invariants):])
    names = None if property_names is None else [*property_names,
                                                 *(lemma.name for lemma in added)]
    run = _first(stronger, names, retry_rlimit, kw)
    proved = {r.property for r in run.results
              if r.checker == "z3-induction" and r.status == PROVED}
    if all(lemma.name in proved for lemma in added):
        results = [marked(r) for r in run.results]
        return stronger, attrs.evolve(run, results=results, lemmas=added)
    plain = _first(model, property_names, retry_rlimit, kw)
    return model, attrs.evolve(plain, **_both(run, plain))


def _retried(model: Model, first: ProofRun, property_names: Sequence[str] | None,
             retry_rlimit: int | None, kw: dict[str, Any]) -> ProofRun:
    """``first``, or where its step proofs were undecided in a few cases, the run again
    with ``retry_rlimit`` units a query in those cases only (a goal proved in a case
    stands, with what it used): which cases are retried is read off ``first``'s counted
    verdicts, so it is the same on any machine and at any worker count."""
    if retry_rlimit is None or retry_rlimit <= kw["rlimit"] or first.stopped:
        return first
    undecided = _undecided(first.step_verdicts)
    if not undecided:
        return first
    retry = {"rlimit": retry_rlimit, "cases": len(undecided),
             "tried": _retry_tried(first.step_verdicts, kw["rlimit"], retry_rlimit)}
    if not retry["tried"]:
        return attrs.evolve(first, retry=retry)
    # the goals again, not the dead rules (answered, and no budget of theirs was short)
    names = list(property_names or provable(model))
    again = prove_once(model, property_names=names, proved_steps=first.step_verdicts,
                       **{**kw, "rlimit": retry_rlimit})
    return attrs.evolve(again, results=_merged(first.results, again.results), retry=retry,
                        **_both(first, again))


def _undecided(step_verdicts: Sequence[Sequence[Any]]) -> list[Case]:
    """The step cases some goal was undecided in (rows: case, verdicts, ...)."""
    return [row[0] for row in step_verdicts if any(v[0] == UNKNOWN for v in row[1].values())]


def _retry_tried(step_verdicts: Sequence[Sequence[Any]], rlimit: int,
                 retry_rlimit: int | None) -> bool:
    """Whether :func:`_retried` runs again, read off the counted step verdicts alone."""
    return (retry_rlimit is not None and retry_rlimit > rlimit
            and 0 < len(_undecided(step_verdicts)) <= RETRY_CASES)


def _both(first: ProofRun, again: ProofRun) -> dict[str, Any]:
    """What ``first`` and a second run on what it left (``again``) took together: each
    count once, the second run's jobs by their label and "(again)"."""
    return dict(rlimit=first.rlimit + again.rlimit, jobs=first.jobs + again.jobs,
                units={**first.units, **{f"{k} (again)": u for k, u in again.units.items()}},
                step_stats=_summed(first.step_stats, again.step_stats),
                stored=_added(first.stored, again.stored),
                stored_units=first.stored_units + again.stored_units,
                ctis=first.ctis + again.ctis)


def _summed(a: dict[str, list[int]], b: dict[str, list[int]]) -> dict[str, list[int]]:
    return {k: [x + y for x, y in zip(a.get(k, [0] * len(row)), row)] if k in b else a[k]
            for k, row in {**a, **b}.items()}


def _added(a: tuple[int, int] | None, b: tuple[int, int] | None) -> tuple[int, int] | None:
    return b if a is None else a if b is None else (a[0] + b[0], a[1] + b[1])


def _merged(first: Sequence[Result], again: Sequence[Result]) -> list[Result]:
    """The second run's verdicts (the lemmas marked as the prover's), but a goal the first
    run proved by induction keeps the first run's rows (each run's proofs stand on their
    own), and the dead rules and what the spec leaves to play (SKIPPED, not asked again)
    are the first run's."""
    proved = {r.property for r in first if r.checker == "z3-induction" and r.status == PROVED}
    again_proved = {r.property for r in again
                    if r.checker == "z3-induction" and r.status == PROVED}
    keep = proved - again_proved
    asked = {r.property for r in again}
    dead = [r for r in first if r.property.startswith("rule_can_apply:")
            or (r.status == SKIPPED and r.property not in asked)]
    goals = [marked(r) for r in again if r.property not in keep]
    return ([*goals, *(r for r in first if r.property in keep)] if keep else goals) + dead


def prove_once(model: Model, *, property_names: Sequence[str] | None = None,
               rlimit: int = DEFAULT_RLIMIT, depth: int | None = None,
               trace_dir: str | Path = "traces", workers: int = 1,
               timeout: float | None = None, progress: Progress = QUIET,
               processes: bool | None = None, cluster: Any = None,
               proved_steps: Sequence[Any] = (),
               bmc_unless: Callable[[Sequence[Any]], bool] | None = None) -> ProofRun:
    """Step proofs, the induction, laws, bounded model checking where induction did not
    prove a goal, and (for the whole game) dead rules.

    ``rlimit`` bounds each solver query in Z3 resource units; ``depth`` is the bounded
    model checking depth (default: the game's ``bmc_depth``); ``workers`` processes run
    the jobs (one: this process, unless ``processes``), or ``cluster``'s Dask workers
    (:mod:`.executor`). ``timeout`` (seconds) is only a
    safety limit: reaching it stops the run, and what it left undecided is UNKNOWN,
    saying so. The verdicts never depend on ``workers``, ``processes`` or ``timeout``
    (short of the limit).

    ``proved_steps`` are an earlier run's step verdicts on a spec with fewer invariants
    (the same ones first, in order): a goal proved in a case there is not proved again
    (its proof assumed less than this spec gives), only what was left open and the new
    invariants are. ``bmc_unless`` (of the step verdicts, rows of case and verdicts): when
    it says so, no bounded model checking (a later run checks what it leaves open).

    Raises ValueError when a named property is not one ``prove`` can check.
    """
    check_provable(model, property_names)  # before anything is compiled
    with own_context():  # the plan needs terms, not proofs: built apart, then dropped
        smt = compile_smt(model.spec, model.interpretation)
        goal_names = [c.name for c in goal_checks(smt)]
        cells = smt.cell_names()
        sources = {g.reported_as: g.source for g in goals_of(smt)}
        step_goal_names = [g.name for g in goals_of(smt)]
        try:
            cases: list[Case] | str = step_cases(smt)
        except Unsupported as err:
            cases = f"no Z3 encoding: {err}"
    laws = [i.name for i in model.spec.invariants if i.law]
    wanted = set(property_names) if property_names else None
    try:
        remember_totals(model)  # before the workers fork: they inherit it
    except Exception:  # noqa: BLE001 - a setup that raises: the jobs report it as before
        pass
    run = _Run(model, wanted, goal_names, laws, sources, Budget(rlimit),
               depth if depth is not None else model.spec.bmc_depth, trace_dir, cells,
               proved_steps, step_goal_names, bmc_unless)
    with Jobs(model, workers, progress, timeout, processes, cluster) as jobs:
        try:
            run.go(jobs, cases)
        except SafetyLimit as err:
            run.stopped = str(err)
    stats: dict[str, list[int]] = {}
    for *_, st in run.step_runs:
        for kind, row in st.items():
            stats[kind] = [a + b for a, b in zip(stats.get(kind, [0] * len(row)), row)]
    return ProofRun(run.results(), jobs.rlimit, jobs.submitted, run.stopped,
                    dict(jobs.units), stats, run.stored_counts(),
                    step_verdicts=tuple((c, v, q) for c, v, q, _ in run.step_runs),
                    ctis=tuple(sorted(run.ctis, key=lambda r: r[:2])),
                    stored_units=run._stored.hit_units)


# --- one run --------------------------------------------------------------------------
class _Run:
    """The jobs of one ``prove`` and what they answered so far."""

    def __init__(self, model: Model, wanted: set[str] | None, goal_names: list[str],
                 laws: list[str], sources: dict[str, str | None], budget: Budget,
                 depth: int, trace_dir: str | Path, cells: list[str],
                 proved_steps: Sequence[Any] = (), step_goal_names: Sequence[str] = (),
                 bmc_unless: Callable[[Sequence[Any]], bool] | None = None) -> None:
        self.model, self.wanted, self.goal_names, self.laws = model, wanted, goal_names, laws
        self.sources, self.budget, self.depth = sources, budget, depth
        self.trace_dir = str(trace_dir)
        self.cells = cells
        self.stopped: str | None = None
        self.step_runs: list = []
        #: (case, goal, state values): each step case's counterexamples to induction
        self.ctis: list = []
        self.step_jobs = 0
        self.step_jobs_done = 0
        self.step_skipped: str | None = None
        self.base: dict[str, str] | None = None
        self.law_results: list[Result] | None = None
        self.bmc_asked: set[str] = set()
        self.found: dict[str, Result] | None = None
        self.bmc_skipped: str | None = None
        self.dead: list[Result] = []
        self._dead_by_job: dict[int, list[Result]] = {}
        self.dead_pending: list[str] = []  # actions whose dead-rule job has not answered
        self.dead_why: dict[str, list[str]] = {}  # what rules out each dead rule
        self._stored = JobStore(model)  # what earlier runs answered (check/store.py)
        self.step_goal_names = list(step_goal_names)  # each field's bounds apart
        #: per step case, the goals an earlier run proved there (with what they used)
        self.proved_before: dict[Case, dict[str, tuple]] = {
            tuple(case): {n: v for n, v in verdicts.items() if v[0] == PROVED}
            for case, verdicts, _ in proved_steps}
        #: and the queries it spent there (counted with this run's, in the verdicts' text)
        self.queries_before = {tuple(case): q for case, _, q in proved_steps}
        self.bmc_unless = bmc_unless
        #: whether reading a state can raise (verdict, why, queries); None: not answered
        self.reading: tuple[str, str, int] | None = None
        self.reading_asked = False

    def submit(self, jobs: Jobs, label: str, fn: Any, *args: Any,
               actions: Sequence[int] | None = None) -> cf.Future:
        """A job, answered from the verdict store when an earlier run did the same job on
        the same IR (``actions``: the actions it reads besides the rest of the spec; None:
        it may read them all)."""
        return self._stored.submit(jobs, label, fn, args, actions)

    def stored_counts(self) -> tuple[int, int] | None:
        return self._stored.counts()

    def answer(self, jobs: Jobs, f: cf.Future) -> Any:
        """A finished job's answer, kept in the store when it was computed."""
        return self._stored.answer(jobs, f)

    def want(self, name: str) -> bool:
        return self.wanted is None or name in self.wanted

    def go(self, jobs: Jobs, cases: list[Case] | str) -> None:
        model = self.model
        steps: list[cf.Future] = []
        pupils: dict[cf.Future, list[list[Case]]] = {}  # a job -> those it teaches

        def submit_steps(group: list[Case], taught: Lessons | None = None) -> cf.Future:
            fixed = dict(group[0][1])
            pins = {f for _, f in group}
            what = ", ".join([f"{fixed[0]} players"] + (
                [f"{self.cells[c]}={v}" for c, v in fixed.items() if c] if len(pins) == 1
                else [f"{len(pins)} cases"]))
            names = [model.spec.actions[a].name for a, _ in group]
            only = None
            if self.proved_before:
                only = {c: frozenset(g for g in self.step_goal_names
                                     if g not in self.proved_before.get(c, {}))
                        for c in group}
            f = self.submit(jobs, f"steps ({what}): {names[0]}" + (
                f" and {len(names) - 1} more" if len(names) > 1 else ""), _steps_job, group,
                self.budget, taught, only, actions=[a for a, _ in group])
            steps.append(f)
            return f
        if isinstance(cases, str):
            self.step_skipped = cases
        else:
            groups = _step_groups(model, cases)
            teachers = _teachers(groups)
            for i, group in enumerate(groups):
                if teachers[i] is None:
                    pupils[submit_steps(group)] = [groups[j] for j, t in enumerate(teachers)
                                                   if t == i]
            self.step_jobs = len(groups)
        base = self.submit(jobs, "base case and laws", _base_and_laws_job, self.budget,
                           self.wanted, actions=[])
        # every action's preconditions: it reads them all
        self.reading_asked = not isinstance(cases, str) and self.want(RULE_ERRORS)
        reading = self.submit(jobs, "reading the states", _reading_job, self.budget) \
            if self.reading_asked else None
        dead_all = self.wanted is None
        played = self.submit(jobs, "random games for dead rules", _played_job,
                             DEAD_RULE_GAMES) if dead_all else None
        self.dead_pending = [a.name for a in model.spec.actions] if dead_all else []
        pending = [*steps, base] + [f for f in (played, reading) if f is not None]
        dead_jobs: dict[cf.Future, list[str]] = {}
        games: Any = None  # what the random games for dead rules played
        explain: cf.Future | None = None
        while pending:
            f = jobs.next_done(pending)
            pending.remove(f)
            out = self.answer(jobs, f)
            if f is base:
                self.base, self.law_results = out
            elif f is reading:
                self.reading = out
            elif f is explain:
                self.dead_why = out
            elif f is played:
                games = out
                encoded = not isinstance(cases, str)
                for group in _dead_groups(model, cases if encoded else []):
                    names = [model.spec.actions[a].name for a in group]
                    # given its cases, a job reads its actions and the rest (and the
                    # games' findings, by content): an edit elsewhere leaves it stored
                    job = self.submit(jobs, f"dead rules: {names[0]}" + (
                        f" and {len(names) - 1} more" if len(names) > 1 else ""),
                        _dead_job, group, out, self.budget,
                        [c for c in cases if c[0] in group] if encoded else None,
                        actions=group if encoded else None)
                    dead_jobs[job] = names
                    pending.append(job)
                score = self.submit(jobs, "dead scoring clauses", _score_job, out, self.budget,
                                    actions=[])  # the scoring is in the rest
                dead_jobs[score] = []
                pending.append(score)
            elif f in dead_jobs:
                # in the order the jobs were submitted, whichever ends first
                self._dead_by_job[list(dead_jobs).index(f)] = out
                self.dead = [r for k in sorted(self._dead_by_job) for r in self._dead_by_job[k]]
                self.dead_pending = [a for a in self.dead_pending if a not in dead_jobs[f]]
                if len(self._dead_by_job) == len(dead_jobs):
                    # every action answered: a rule dead in every action that has it is a
                    # finding; one more job says what rules each out
                    from .dead import shared_branches
                    dead = [r.property for r in shared_branches(self.dead)
                            if r.status == VIOLATED]
                    if dead:
                        explain = self.submit(jobs, "why the dead rules are dead",
                                              _explain_job, games, self.budget, dead)
                        pending.append(explain)
            elif isinstance(out, str):
                self.step_skipped = out
                self.step_jobs_done += 1
                pending += [submit_steps(g) for g in pupils.pop(f, [])]
            else:
                runs, learned = out
                self.step_runs += [(c, {**self.proved_before.get(c, {}), **v},
                                    q + self.queries_before.get(c, 0), st)
                                   for c, v, q, st, _ in runs]
                self.ctis += [(c, goal, values) for c, *_, ctis in runs
                              for goal, values in sorted(ctis.items())]
                self.step_jobs_done += 1
                pending += [submit_steps(g, learned) for g in pupils.pop(f, [])]
            if f in steps or f is base or f is reading:
                self._bounded_model_checking(jobs, steps, base, pending)

    def _bounded_model_checking(self, jobs: Jobs, steps: list[cf.Future], base: cf.Future,
                                pending: list[cf.Future]) -> None:
        """Once every step job and the base case answered: bounded model checking of what
        induction did not prove (nothing, for a correct game whose invariants are
        inductive)."""
        if (self.step_jobs_done < self.step_jobs or self.base is None or self.bmc_asked
                or (self.reading_asked and self.reading is None)):
            return  # not every answer is in yet (or it was asked already)
        if self.bmc_unless is not None and self.bmc_unless(self.step_runs):
            return  # a later run checks what this one leaves open
        status, _ = self.step_status()
        proved = self.induction_proved(status)
        laws_proved = {r.property for r in self.law_results or () if r.status == PROVED}
        ask = {n for n in self.goal_names if n not in proved and
               (self.want(n) or status.get(n) == VIOLATED)}
        ask |= {n for n in self.laws if self.want(n) and n not in laws_proved}
        if not ask:
            return
        self.bmc_asked = ask
        lemmas = [j for j, inv in enumerate(self.model.spec.invariants)
                  if not inv.law and inv.name in proved]
        f = self.submit(jobs, "bounded model checking", _bmc_job, self.depth,
                        self.budget.query, ask, self.trace_dir, lemmas)
        jobs.wait([f])
        out = self.answer(jobs, f)
        if isinstance(out, str):
            self.bmc_skipped = out
        else:
            self.found = out

    # --- verdicts ----------------------------------------------------------------------
    def step_status(self) -> tuple[dict[str, str], dict[str, str]]:
        """Each goal's step verdict (the worst over its cases) and why."""
        status = {name: PROVED for name in self.sources}
        detail: dict[str, str] = {}
        rank = {PROVED: 0, UNKNOWN: 1, VIOLATED: 2}
        for _, verdicts, _, _ in sorted(self.step_runs, key=lambda r: r[0]):
            for name, (st, why, _) in verdicts.items():
                g = BOUNDS if name.startswith(BOUNDS + "[") else name
                if rank[st] > rank[status[g]]:
                    status[g] = st
                    detail[g] = why
        if self.reading is not None and RULE_ERRORS in status:  # reading the states
            st, why, _ = self.reading
            if rank[st] > rank[status[RULE_ERRORS]]:
                status[RULE_ERRORS], detail[RULE_ERRORS] = st, why
        elif self.reading_asked and self.stopped and status.get(RULE_ERRORS) == PROVED:
            status[RULE_ERRORS], detail[RULE_ERRORS] = UNKNOWN, self.stopped
        if self.stopped and self.step_jobs_done < self.step_jobs:
            for g, st in status.items():
                if st == PROVED:  # some cases never answered
                    status[g], detail[g] = UNKNOWN, self.stopped
        return status, detail

    def field_goals(self) -> dict[str, str]:
        """Each field's bounds goal (``fields_within_bounds[f]``) and its step verdict: the
        induction keeps them apart, so that one field whose bounds are not inductive takes
        with it only the proofs that assumed that field's bounds."""
        out: dict[str, str] = {}
        rank = {PROVED: 0, UNKNOWN: 1, VIOLATED: 2}
        for _, verdicts, _, _ in self.step_runs:
            for name, (st, _, _) in verdicts.items():
                if name.startswith(BOUNDS + "[") and rank[st] >= rank[out.get(name, PROVED)]:
                    out[name] = st
        if self.stopped and self.step_jobs_done < self.step_jobs:
            out = {n: UNKNOWN for n in out}  # some cases never answered
        return out

    def needs(self) -> dict[str, set[str]]:
        """For each goal (each field's bounds apart), the goals whose premises its step
        proofs used, and laws (a law as a premise also needs every field's bounds: it is
        proved within them)."""
        spec = self.model.spec
        fields = set(self.field_goals())
        every = {("bounds", "")} | {("invariant", k) for k in range(len(spec.invariants))} | {
            ("conserved", k) for k in range(len(spec.conservation))}
        used: dict[str, set | None] = {}
        for _, verdicts, _, _ in self.step_runs:
            for name, (_, _, u) in verdicts.items():
                have = used.setdefault(name, set())
                used[name] = None if u is None or have is None else have | u
        if self.reading is not None and self.reading[2]:  # its queries had every premise
            used[RULE_ERRORS] = None
        out: dict[str, set[str]] = {}
        for g, origins in used.items():
            names = out[g] = set()
            for o in every if origins is None else origins:
                if o[0] == "bounds":
                    names |= {f"{BOUNDS}[{o[1]}]"} if o[1] else fields
                elif o[0] == "invariant":
                    names.add(spec.invariants[o[1]].name)
                    if spec.invariants[o[1]].law:
                        names |= fields
                else:
                    names.add(spec.conservation[o[1]].name)
        return out

    def induction_proved(self, status: dict[str, str]) -> set[str]:
        """The goals proved by induction: the largest set of goals that hold after every
        setup, whose step proofs all succeeded using only premises from the set (and laws
        proved within the bounds). One goal that fails takes with it only the goals whose
        proofs assumed it; each field's bounds count as a goal of their own, and
        ``fields_within_bounds`` is proved when every field's are."""
        if self.step_skipped is not None or self.base is None:
            return set()
        needs = self.needs()
        laws = {r.property for r in self.law_results or () if r.status == PROVED}
        fields = self.field_goals()
        proved = {n for n in self.goal_names
                  if n != BOUNDS and status.get(n) == PROVED and n not in self.base}
        if BOUNDS not in self.base:  # the setup within bounds: each field's steps decide
            proved |= {f for f, st in fields.items() if st == PROVED}
        while True:
            kept = {n for n in proved if needs.get(n, set()) <= proved | laws}
            if kept == proved:
                break
            proved = kept
        if BOUNDS in self.goal_names and set(fields) <= proved:
            proved.add(BOUNDS)
        return proved

    def evidence(self, method: str, **facts: Any) -> dict[str, Any]:
        """What a proof verdict rests on (``Result.evidence``): its method, the resource
        units each query may spend and the player counts it covers, and ``facts``."""
        m = self.model
        return {"method": method, "rlimit": self.budget.query,
                "players": list(range(m.min_players, m.max_players + 1)), **facts}

    def premises_of(self, name: str, needs: dict[str, set[str]]) -> list[str]:
        """The premises the step proofs of ``name`` used (its field goals' for the bounds),
        but the goal itself (that it held before the step is the induction's own)."""
        if name == BOUNDS:
            return sorted({p for g, ps in needs.items() if g.startswith(BOUNDS + "[")
                           for p in ps if not p.startswith(BOUNDS + "[")})
        return sorted(needs.get(name, set()) - {name})

    def results(self) -> list[Result]:
        """Every result, in a stable order: per goal its step, induction and bounded model
        checking verdicts, then the laws, then the dead rules."""
        model, out = self.model, []
        if self.step_skipped is not None:
            out += [Result(n, SKIPPED, "z3-step", self.step_skipped, self.sources.get(n),
                           evidence=self.evidence("step proof", why=self.step_skipped))
                    for n in self.goal_names if self.want(n)]
            status: dict[str, str] = {}
            detail: dict[str, str] = {}
        else:
            status, detail = self.step_status()
        proved = self.induction_proved(status) if self.step_skipped is None else set()
        found = self.found or {}
        needs = self.needs() if self.step_skipped is None else {}
        cases = len(self.step_runs)
        queries = sum(run[2] for run in self.step_runs)
        for name in self.goal_names if self.step_skipped is None else ():
            if not self.want(name):
                continue
            st, src = status[name], self.sources.get(name)
            step = self.evidence("step proof", cases=cases, queries=queries,
                                 premises=self.premises_of(name, needs))
            if st == PROVED:
                out.append(Result(name, PROVED, "z3-step",
                                  f"every action preserves it ({cases} cases, "
                                  f"{queries} queries)", src, evidence=step))
            elif st == VIOLATED and found.get(name) and found[name].status == VIOLATED:
                r = found[name]
                out.append(attrs.evolve(r, checker="z3-step+bmc", source=src,
                                        detail=f"{r.detail}; step: {detail[name]}",
                                        evidence={**step, **(r.evidence or {}),
                                                  "method": "step proof and bounded model "
                                                            "checking"}))
            elif st == VIOLATED:
                why = (f"not inductive: {detail[name]}; no reachable violation "
                       f"found by bounded model checking within {self.depth} "
                       "steps (strengthen the invariants)")
                out.append(Result(name, UNKNOWN, "z3-step", why, src,
                                  evidence={**step, "why": why}))
            else:
                out.append(Result(name, UNKNOWN, "z3-step", detail[name], src,
                                  evidence={**step, "why": detail[name]}))
            if name in proved:
                out.append(Result(name, PROVED, "z3-induction",
                                  "holds after every setup and every step preserves it: true "
                                  "in every reachable state", src,
                                  evidence=self.evidence("induction", premises=sorted(
                                      _closure(name, needs) - {name}))))
            elif self.base is not None and name in self.base:
                problem = self.base[name]
                out.append(Result(name, VIOLATED if problem.startswith("false") else UNKNOWN,
                                  "z3-induction", problem, src,
                                  evidence=self.evidence("induction", why=problem)))
        spec = model.spec
        for name, reason in spec.left_to_play.items():
            if self.want(name):
                src = next((x.source for x in [*spec.invariants, *spec.conservation]
                            if x.name == name), None)
                why = (f"left to play by the spec: {reason} (tested by rulespec check and the "
                       "scenarios)")
                out.append(Result(name, SKIPPED, "z3-step", why, src,
                                  evidence={"method": "step proof", "why": why}))
        if self.law_results is not None:
            out += self.law_results
        elif self.stopped:
            out += [Result(n, UNKNOWN, "z3-law", self.stopped,
                           evidence=self.evidence("law", why=self.stopped))
                    for n in self.laws if self.want(n)]
        out += self._bmc_results(out)
        from .dead import shared_branches, with_reasons
        out += with_reasons(shared_branches(self.dead), self.dead_why)
        out += [Result(f"rule_can_apply:{a}", UNKNOWN, "z3-dead-rules", self.stopped or "",
                       evidence=self.evidence("witness", why=self.stopped or ""))
                for a in self.dead_pending if self.stopped]
        return out

    def _bmc_results(self, so_far: list[Result]) -> list[Result]:
        out = []
        k, m = self.depth, self.model
        for name in [*self.goal_names, *self.laws]:
            if name not in self.bmc_asked or not self.want(name):
                continue
            bmc = self.evidence("bounded model checking", depth=k)
            if self.bmc_skipped is not None:
                out.append(Result(name, SKIPPED, "z3-bmc", self.bmc_skipped,
                                  evidence={**bmc, "why": self.bmc_skipped}))
                continue
            if self.found is None:
                out.append(Result(name, UNKNOWN, "z3-bmc", self.stopped or "not run",
                                  evidence={**bmc, "why": self.stopped or "not run"}))
                continue
            r = self.found.get(name)
            if r is None:
                out.append(Result(name, PROVED, "z3-bmc",
                                  f"no violation within {k} steps of any setup "
                                  f"({m.min_players}-{m.max_players} players)", evidence=bmc))
            elif not any(x.property == name and x.status == VIOLATED for x in so_far):
                out.append(attrs.evolve(r, evidence={**bmc, **(r.evidence or {})}))
        return out


def _closure(name: str, needs: dict[str, set[str]]) -> set[str]:
    """``name`` and every goal its proofs' premises need, to a fixpoint."""
    out, todo = set(), [name]
    while todo:
        g = todo.pop()
        if g not in out:
            out.add(g)
            todo += list(needs.get(g, ()))
    return out
