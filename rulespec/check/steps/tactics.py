"""How one goal of one action case is tried: named steps in one declared order.

Each step takes the goal (an :class:`Attempt`: the goal, what is left of it after the
frame, what its slice answered) and answers :data:`PROVED` (done), :data:`SPLIT` (the case
must be split for it), :data:`OPEN` (the next step tries) or :data:`EVERY_PREMISE` (the
shortcuts are no use here: straight to the queries with every premise). The order is
cheap first, and what an earlier case taught before what it would otherwise spend:

1. ``already_true``: nothing is left to show.
2. ``untracked_before``: the action's other cases could show it only on the solver with
   Z3's preprocessing: there at once.
3. ``as_another_case_did``: in a case below the top, what another case of the action did
   (split it down to the player to move; shown it conjunct by conjunct at a leaf).
4. ``split_at_this_level``: another case at this level had to split it: split at once.
5. ``split_like_before``: at the top, a goal nothing was learned about, of a kind an
   earlier action split on the parameter this one would split on: split at once.
6. ``learned_premises``: the premises that showed it in an earlier case.
7. ``slice``: the premises that share a cell with it (skipped, as if it failed, where a
   slice fell short for this action before).
8. ``implied_total``: a conserved total the invariants imply needs no step of its own.
9. ``implied_bounds``: the cells whose bounds the other premises imply are dropped, and
   the slice asks again about the rest.
10. ``at_a_leaf``: what the slice's answer leaves: a counterexample to the slice goes to
    every premise; at a leaf (nothing left to split), conjunct by conjunct (once per
    action and goal), then an index cell's split, then every premise; elsewhere, a split.

After the shortcuts, for the whole case at once (:mod:`.prover`): every premise on the
solver that names the premises it used, then every premise on the solver with Z3's
preprocessing, then the split (:mod:`.splits`). Which steps run, and in what order,
matters to more than the cost: Z3's search depends on the terms alive in its context, so
a step looks at a split only where a lesson may apply.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Sequence

import attrs
import z3

from ..frame import conjuncts, index_cell
from . import splits
from .goals import RULE_ERRORS, Goal
from .lessons import (ANY, BY_CONJUNCT, NEEDS_ALL, NOT_BY_CONJUNCT, SPLIT_FURTHER, TO_THE_MOVER,
                      UNTRACKED)
from .premises import Refuter

if TYPE_CHECKING:
    from .prover import ActionProver, _Terms

PROVED = "proved"
SPLIT = "split"
OPEN = "open"
EVERY_PREMISE = "every premise"


@attrs.define
class Attempt:
    """One goal being tried in one case."""

    goal: Goal
    residual: Any  # what is left of it after the frame (fewer cells once some are implied)
    verdict: Any = None  # the slice's answer, once asked (z3.sat: a counterexample to it)
    _core: Any = None  # the premises an earlier case showed it with (see ``core``)

    @property
    def name(self) -> str:
        return self.goal.name


class CaseRun:
    """One action case being proved: its terms, the solver of its small queries, and what
    the steps share."""

    def __init__(self, prover: "ActionProver", fixed: dict[int, int], terms: "_Terms",
                 top: "_Terms") -> None:
        self.prover, self.fixed, self.terms, self.top = prover, fixed, terms, top
        self.lessons = prover.lessons
        self.small = Refuter(prover.p, terms.legal)

    def ask(self, name: str, r: Any, picked: Sequence[int], rlimit: int, kind: str) -> Any:
        """The premises ``picked`` refute the goal's failure (learning those it used)?"""
        pr = self.prover
        if pr._over_budget():
            return z3.unknown  # the goal goes to the split, which reports it UNKNOWN
        pr.queries += 1
        extra = [z3.Not(r)] if name == RULE_ERRORS else [z3.Not(r), z3.Not(self.terms.error)]
        verdict, core = self.small.refute(picked, extra, rlimit)
        pr._count(kind, self.small.solver.rulespec_spent, verdict)
        if verdict == z3.unsat:
            self.lessons.learn(pr.p, name, core or [])
            pr._uses(name, {pr.p.keys[k][0] for k in core or []})
        return verdict

    def ask_slice(self, t: Attempt) -> Any:
        """The goal with the premises that share a cell with it."""
        p = self.prover
        return self.ask(t.name, t.residual, p.p.about(t.residual, p._constants(t.residual)),
                        p.budget.slice, "slice")

    def leaf(self, r: Any) -> bool:
        """Nothing is left to split the case on for this residual."""
        return self.prover._split_on(self.fixed, r, self.terms.legal) is None

    def core(self, t: Attempt) -> list[int] | None:
        """The premises that showed the goal in an earlier case (asked once per attempt)."""
        if t._core is None:
            t._core = (self.lessons.core(self.prover.p, t.name),)
        return t._core[0]


Step = Callable[[CaseRun, Attempt], str]


def already_true(run: CaseRun, t: Attempt) -> str:
    return PROVED if z3.is_true(t.residual) else OPEN


def untracked_before(run: CaseRun, t: Attempt) -> str:
    return EVERY_PREMISE if run.lessons.has(UNTRACKED, run.prover.a_idx, t.name) else OPEN


def as_another_case_did(run: CaseRun, t: Attempt) -> str:
    # (the split is looked at only where a lesson may apply: a residual asked about is
    # kept alive, and Z3's term ids, and so its search, depend on that)
    a, lessons = run.prover.a_idx, run.lessons
    to_mover = lessons.has(TO_THE_MOVER, a, t.name)
    conjunctwise = lessons.has(BY_CONJUNCT, a, t.name)
    if not run.fixed or not (to_mover or conjunctwise):
        return OPEN
    leaf = run.leaf(t.residual)
    if not leaf and to_mover:
        return SPLIT  # another case split it down to the player to move
    if leaf and conjunctwise and by_conjunct(run, t.name, t.residual):
        return PROVED  # another case showed it conjunct by conjunct: so here
    return OPEN


def split_at_this_level(run: CaseRun, t: Attempt) -> str:
    split = run.lessons.has(SPLIT_FURTHER, run.prover.a_idx, t.name, frozenset(run.fixed))
    return SPLIT if split else OPEN


def split_like_before(run: CaseRun, t: Attempt) -> str:
    """A goal nothing was learned about, of a kind that an earlier action had to split
    on the parameter this one would split on (each purchase's own tile count, say):
    split at once, without the slice that would spend its budget first."""
    if run.fixed or run.core(t) is not None:
        return OPEN
    pr, lessons, kind = run.prover, run.lessons, t.goal.kind
    if not any(lessons.split_kind(kind, pr._split_label(i)) for i in range(len(pr._splits))):
        return OPEN  # nothing this action could split on was split for such a goal
    i = pr._split_on({}, t.residual, run.terms.legal)
    return SPLIT if i is not None and lessons.split_kind(kind, pr._split_label(i)) else OPEN


def learned_premises(run: CaseRun, t: Attempt) -> str:
    core = run.core(t)
    if core is None:
        return OPEN
    shown = run.ask(t.name, t.residual, core, run.prover.budget.slice, "core") == z3.unsat
    run.lessons.tally(t.name, shown)
    return PROVED if shown else OPEN


def slice_(run: CaseRun, t: Attempt) -> str:
    if run.lessons.has(NEEDS_ALL, run.prover.a_idx, t.name):
        t.verdict = z3.sat  # a slice could not show it before
        return OPEN
    t.verdict = run.ask_slice(t)
    return PROVED if t.verdict == z3.unsat else OPEN


def implied_total(run: CaseRun, t: Attempt) -> str:
    pr = run.prover
    if t.goal.kind != "conserved" or pr.totals is None:
        return OPEN
    origins = pr.totals.of(t.goal.index)  # not an easy step: implied?
    if origins is None:
        return OPEN
    pr._uses(t.name, origins)
    return PROVED


def implied_bounds(run: CaseRun, t: Attempt) -> str:
    pr, g = run.prover, t.goal
    if g.kind != "bounds" or pr.implied is None:
        return OPEN
    implied = pr.implied.of(g.field)  # not an easy step: implied?
    if implied is None:
        return OPEN
    rest = pr._drop_implied(g, implied, run.fixed, run.terms, run.top)
    if rest is None:
        return PROVED  # every cell it writes is implied
    if rest is not t.residual:  # fewer cells: the slice again, on what is left
        t.residual = rest
        t.verdict = run.ask_slice(t)
        if t.verdict == z3.unsat:
            return PROVED
    return OPEN


def at_a_leaf(run: CaseRun, t: Attempt) -> str:
    pr, lessons, r = run.prover, run.lessons, t.residual
    a, name = pr.a_idx, t.name
    if t.verdict == z3.sat and not (lessons.has(BY_CONJUNCT, ANY, name) and run.leaf(r)):
        lessons.note(NEEDS_ALL, a, name)
        return EVERY_PREMISE
    if not run.leaf(r):
        return SPLIT
    if not lessons.has(BY_CONJUNCT, a, name) and not lessons.has(NOT_BY_CONJUNCT, a, name):
        if by_conjunct(run, name, r):
            lessons.note(BY_CONJUNCT, a, name)
            lessons.note(BY_CONJUNCT, ANY, name)  # for any action's leaves
            return PROVED
        lessons.note(NOT_BY_CONJUNCT, a, name)
    if (splits.ON_AN_INDEX_CELL in splits.SPLITS
            and index_cell(r, pr.p.intervals, set(pr._param_names)) is not None):
        return SPLIT  # an index cell to split on: straight to the split
    return EVERY_PREMISE


#: the shortcuts, in the order they are tried (see the module's docstring)
SHORTCUTS: tuple[Step, ...] = (already_true, untracked_before, as_another_case_did,
                               split_at_this_level, split_like_before, learned_premises,
                               slice_, implied_total, implied_bounds, at_a_leaf)


def try_shortcuts(run: CaseRun, t: Attempt) -> str:
    """The first answer other than OPEN of the shortcuts, in order (read when called: a
    test may plant a step)."""
    for step in SHORTCUTS:
        outcome = step(run, t)
        if outcome != OPEN:
            return outcome
    return EVERY_PREMISE


def by_conjunct(run: CaseRun, name: str, r: Any) -> bool:
    """Whether every conjunct of the residual ``r`` is shown on its own, each with the
    premises that showed the goal before, else with its slice (both within the slice
    budget). A residual of many conjuncts (one per location card) can be too hard as
    one query, whose negation is a disjunction, yet easy piece by piece: Aquatica's
    purchase with every parameter and the player to move set, 15 cards' counts in
    0.2M units each, and undecided within 3M together.

    Tried before an index cell's split (whose every value is a query of its own) but
    within one slice's budget in all, and once per action and goal if it fails: on
    Aquatica the split cost 2.4G units where the conjuncts cost 0.1G; MOTU's 58-card
    counts after setting a card aside are the other way round, and give up early."""
    parts = conjuncts(r)
    if len(parts) < 2:
        return False
    pr = run.prover
    end = pr._spent() + pr.budget.slice  # all of them within one slice's budget

    def shown(c: Any, picked: Sequence[int]) -> bool:
        left = end - pr._spent()
        return left > 0 and run.ask(name, c, picked, min(left, pr.budget.slice),
                                    "conjunct") == z3.unsat
    for c in parts:
        core = run.lessons.core(pr.p, name)
        if core is not None and shown(c, core):
            continue
        if not shown(c, pr.p.about(c, pr._constants(c))):
            return False
    return True
