"""The step proofs of one action case over every parameter value: its goals' residuals, the
queries, the splits and the verdicts."""

from __future__ import annotations

from typing import Any, Sequence

import attrs
import z3

from ...compile.smt_backend import SmtGame
from ...runtime.model import Model, State
from ..frame import (conjuncts, const_name, equation_deltas, free_constants, holds_by_intervals,
                     unchanged)
from ..results import PROVED, UNKNOWN, VIOLATED
from ..solvers import Budget, check, limited, spent
from . import splits, tactics
from .cases import mover_cell
from .goals import ACTION_BUDGET, RULE_ERRORS, Goal, Origin, Verdict, own_origin
from .implied import Implied, ImpliedBounds, ImpliedTotals
from .lessons import UNTRACKED, Lessons
from .premises import Premises
from .splits import Splits


@attrs.frozen
class _Terms:
    """An action case's terms: its legality, its error flag, each goal's residual."""

    legal: Any
    error: Any
    left: dict[str, Any]

    def fixing(self, values: list[tuple[Any, Any]], names: list[str]) -> "_Terms":
        """The same terms with some parameters given values (Z3 substitutes and folds)."""
        if not values:
            return _Terms(self.legal, self.error, {n: self.left[n] for n in names})

        def fix(t: Any) -> Any:
            return z3.simplify(z3.substitute(t, *values))
        return _Terms(fix(self.legal), fix(self.error), {n: fix(self.left[n]) for n in names})



class ActionProver(Splits):
    """The step proofs of one action, over every parameter value.

    ``budget`` bounds each query in resource units (its ``query`` part is what
    ``--rlimit`` promises before a result is UNKNOWN); the action case spends at most
    :data:`ACTION_BUDGET` full query budgets in all, after which the goals still open
    are UNKNOWN. Both are counts: the verdicts do not depend on the machine.
    """

    def __init__(self, model: Model, smt: SmtGame, premises: Premises, a_idx: int,
                 goals: Sequence[Goal], budget: Budget,
                 lessons: Lessons | None = None,
                 implied: ImpliedBounds | None = None,
                 totals: ImpliedTotals | None = None) -> None:
        self.model, self.smt, self.p, self.a_idx = model, smt, premises, a_idx
        #: conserved totals the invariants imply (shared by the provers of a job)
        self.totals = totals
        #: fields whose bounds the other premises imply (shared by the provers of a job)
        self.implied = implied
        #: what earlier cases taught (shared by the provers of one run; shortcuts only)
        self.lessons = Lessons() if lessons is None else lessons
        self.action = smt.spec.actions[a_idx]
        self.goals = list(goals)
        self.budget = budget
        self._meter: z3.Solver | None = None  # any solver of the context: its count
        self._started = 0  # the context's resource count at the first query
        self.symbolic = smt.params(a_idx, f"p.{a_idx}")
        #: what a case may be split on: each parameter, then the cell of the player to move
        #: (when the case leaves it open): index len(symbolic) in ``fixed``
        self._mover = (mover_cell(smt, premises.state)
                       if splits.ON_THE_PLAYER_TO_MOVE in splits.SPLITS else None)
        self._splits = [*self.symbolic] + ([self._mover[1]] if self._mover else [])
        self._param_names = [const_name(v) for v in self._splits]
        self._movers: dict[int, set[Origin] | None] = {}  # see _no_such_mover
        self.verdicts = {g.name: Verdict(used=own_origin(g)) for g in self.goals}
        #: goal -> the state values of the first counterexample to its step (a state the
        #: invariants allow that the step leaves breaking it): what inference must exclude
        self.ctis: dict[str, tuple] = {}
        #: per bounds goal, its residual conjuncts by cell (see :meth:`_bounds_left`)
        self._cells: dict[str, dict[int, list[Any]]] = {}
        #: per legality term (by id): the term, and what its conjuncts tie each parameter to
        self._ties: dict[int, tuple[Any, dict[str, set[str]]]] = {}
        self._names: dict[int, tuple[Any, set[str]]] = {}  # see _constants
        self.queries = 0
        #: per kind of query: [queries, resource units, unsat, sat, unknown] (to measure)
        self.stats: dict[str, list[int]] = {}

    # --- the residual obligations ------------------------------------------------------
    def residual(self, g: Goal, after: Any) -> list[Any]:
        """What is left of goal ``g`` after the step (empty: it holds by the frame). The
        premises the frame relied on are recorded (see :meth:`_uses`)."""
        smt, s = self.smt, self.p.state
        t = after.value
        if g.kind == "errors":
            return self._left(g, z3.Not(after.error))
        if g.kind == "bounds":
            return self._bounds_left(g, smt.cell_bounds(g.field, t))
        if g.kind == "invariant":  # an equation less its twin before: summands cancel
            return self._left(g, z3.And(*equation_deltas(
                conjuncts(smt.invariant_checked(g.index, t).holds()),
                conjuncts(self.p.invariant(g.index)))))
        before, now = smt.conserved_checked(g.index, s), smt.conserved_checked(g.index, t)
        left = self._left(g, z3.And(z3.Not(before.error), z3.Not(now.error)))
        same = unchanged(before.value, now.value)
        return left if z3.is_true(same) else [*left, same]

    def _bounds_left(self, g: Goal, cells: list[Any]) -> list[Any]:
        """What is left of a field's bounds after the step, cell by cell (kept by cell for
        :meth:`_drop_implied`): a cell's new value may be within bounds whatever happens
        (intervals), or its bounds implied by the other goals (:class:`ImpliedBounds`)."""
        memo: dict = {}
        implied = None if self.implied is None else self.implied.known(g.field)
        by_implication = False
        settled: list[Any] = []  # cells the intervals keep within bounds
        per_cell: dict[int, list[Any]] = {}
        for k, c in enumerate(cells):
            left = self._left(g, c)
            kept = [c for c in left if not holds_by_intervals(c, self.p.intervals, memo)]
            if len(kept) < len(left):
                ids = {x.get_id() for x in kept}
                settled += [x for x in left if x.get_id() not in ids]
            if kept and implied is not None and k in implied.cells:
                by_implication = True
            elif kept:
                per_cell[k] = kept
        if settled:  # the intervals are the declared bounds before, of the cells they read
            self._uses(g.name, self.p.bounds_of(settled))
        if by_implication:
            assert implied is not None
            self._uses(g.name, set(implied.origins))
        self._cells[g.name] = per_cell
        return [c for kept in per_cell.values() for c in kept]

    def _drop_implied(self, g: Goal, implied: Implied, fixed: dict[int, int],
                      terms: "_Terms", top: "_Terms") -> Any:
        """Goal ``g``'s residual without the cells found implied (in this case's terms
        and, for the cases split from it, in ``top``'s): None if no cell is left."""
        per_cell = self._cells.get(g.name, {})
        if not implied.cells & per_cell.keys():
            return terms.left[g.name]
        self._uses(g.name, set(implied.origins))
        per_cell = self._cells[g.name] = {k: cs for k, cs in per_cell.items()
                                          if k not in implied.cells}
        if not per_cell:
            return None
        rest = z3.And(*[c for cs in per_cell.values() for c in cs])
        top.left[g.name] = rest
        if fixed:
            rest = z3.simplify(z3.substitute(
                rest, *[(self._splits[i], z3.IntVal(v)) for i, v in fixed.items()]))
        terms.left[g.name] = rest
        return rest

    def _left(self, g: Goal, goal: Any) -> list[Any]:
        """The conjuncts of ``goal`` not among the premises (those are recorded as used)."""
        out = []
        own = own_origin(g)
        for c in conjuncts(goal):
            origins = self.p.origins.get(c.get_id())
            if origins is None:
                out.append(c)
            elif not (origins & own) and not z3.is_true(z3.simplify(c)):
                # any one premise with this conjunct shows it (``not False`` is in many)
                self._uses(g.name, {min(origins)})
        return out

    def _uses(self, name: str, origins: set[Origin] | None) -> None:
        """Goal ``name``'s proof relied on these premises (None: on any of them)."""
        v = self.verdicts[name]
        if v.used is not None:
            v.used = None if origins is None else v.used | origins

    # --- the search ----------------------------------------------------------------------
    def run(self) -> dict[str, Verdict]:
        """Build the action's terms once, with every parameter symbolic; a split case
        substitutes its parameter values into them (no term is rebuilt)."""
        smt, s = self.smt, self.p.state
        after = smt.apply_checked(self.a_idx, s, self.symbolic)
        moved = [c for c, t in zip(s, after.value) if not t.eq(c)]
        # a goal reads the cells that are constants in its term; a cell this case fixed to
        # a value is folded away, so if the action writes one, every goal may change
        frame = not any(z3.is_int_value(c) for c in moved)
        changed = {const_name(c) for c in moved}
        left: dict[str, Any] = {}
        for g in self.goals:
            if g.kind == "conserved" and self.totals is not None:
                origins = self.totals.known(g.index)
                if origins is not None:  # the invariants imply it after the step
                    self._uses(g.name, origins)
                    continue

            if frame and g.kind != "errors" and not (self.p.reads(g) & changed):
                continue  # the goal reads no cell the action writes: it holds as it did
            r = self.residual(g, after)
            if r:
                left[g.name] = z3.And(*r)
        if left:  # the legality only when a goal needs a query: it may be large (a search
            # over every placement of a card) and the frame often leaves nothing to ask
            legal = smt.legal(self.a_idx, s, self.symbolic)
            self._case({}, [g for g in self.goals if g.name in left],
                       _Terms(legal, after.error, left))
        return self.verdicts

    def _params(self, fixed: dict[int, int]) -> list[Any]:
        return [z3.IntVal(fixed[i]) if i in fixed else v for i, v in enumerate(self.symbolic)]

    def _case(self, fixed: dict[int, int], goals: list[Goal], top: "_Terms") -> None:
        """One case: each goal through the shortcuts (:data:`.tactics.SHORTCUTS`), then
        those still open with every premise, tracked, then on one solver with Z3's
        preprocessing; what is still undecided is split (:meth:`_split`)."""
        # a goal a sibling case broke with every premise is not asked again: the action's
        # verdict is that counterexample whatever this case would find
        goals = [g for g in goals if self.verdicts[g.name].status != VIOLATED]
        if not goals:
            return
        terms = top.fixing([(self._splits[i], z3.IntVal(v)) for i, v in fixed.items()],
                           [g.name for g in goals])
        if z3.is_false(terms.legal):
            return  # no step in this case (the upper row's missing slots): nothing to keep
        m = len(self.symbolic)
        if m in fixed:  # the player to move is set: the premises, which still read its cell
            assert self._mover is not None  # (unsubstituted), learn its value with the legality
            terms = attrs.evolve(terms, legal=z3.And(terms.legal,
                                                     self._mover[1] == fixed[m]))
        params = self._params(fixed)
        by_name = {g.name: g for g in goals}
        run = tactics.CaseRun(self, fixed, terms, top)
        if self._meter is None:
            self._meter = run.small.solver
            self._started = spent(run.small.solver)
        pending: dict[str, Any] = {}  # goal -> residual, for every premise
        undecided: list[str] = []  # goals to split
        for g in goals:
            attempt = tactics.Attempt(g, terms.left[g.name])
            outcome = tactics.try_shortcuts(run, attempt)
            if outcome == tactics.EVERY_PREMISE:
                pending[g.name] = attempt.residual
            elif outcome == tactics.SPLIT:
                undecided.append(g.name)
        lessons = self.lessons
        every = range(len(self.p.terms))
        for name in list(pending):  # every premise, tracked: its core serves later actions
            if lessons.has(UNTRACKED, self.a_idx, name):
                continue
            if run.ask(name, pending[name], every, self.budget.quick, "tracked") == z3.unsat:
                del pending[name]
        full: list[z3.Solver] = []

        def solver() -> z3.Solver:
            """Every premise, on one incremental solver (built when first needed)."""
            if not full:
                full.append(z3.Solver())
                full[0].add(*self.p.terms, terms.legal)
            return full[0]
        for name, r in pending.items():
            verdict = self._ask(solver(), r, self.budget.quick, params, name, terms.error,
                                "full")
            if verdict == "unknown":
                undecided.append(name)
            elif verdict != "unsat":
                self._fail(name, verdict, fixed)
            else:  # the tracked query spent its budget, this one did not
                lessons.note(UNTRACKED, self.a_idx, name)
        self._split(fixed, [by_name[n] for n in undecided], solver, params, terms, top)

    def _ask(self, solver: z3.Solver, obligation: Any, rlimit: int,
             params: list[Any], name: str, error: Any, kind: str) -> str:
        """Can the obligation fail (where the rules raise no error, unless it is about
        errors)? "unsat" (no), "unknown", or a description of the counterexample."""
        if self._over_budget():
            return "unknown"
        self.queries += 1
        limited(solver, rlimit)
        solver.push()
        if name != RULE_ERRORS:
            solver.add(z3.Not(error))
        solver.add(z3.Not(obligation))
        try:
            r = check(solver)
            self._count(kind, solver.rulespec_spent, r)
            if r == z3.unsat:
                self._uses(name, None)  # every premise was there: any may have been used
                return "unsat"
            if r != z3.sat:
                return "unknown"
            m = solver.model()
            values = self.smt.state_from_model(m, self.p.state)
            self.ctis.setdefault(name, tuple(values))
            key = (self.a_idx, *(m.eval(p, model_completion=True).as_long() for p in params))
            return self._cti(values, key, name)
        finally:
            solver.pop()

    def _restart_budget(self) -> None:
        if self._meter is not None:
            self._started = spent(self._meter)

    def _count(self, kind: str, units: int, verdict: Any) -> None:
        row = self.stats.setdefault(kind, [0, 0, 0, 0, 0])
        row[0] += 1
        row[1] += units
        row[2 + (0 if verdict == z3.unsat else 1 if verdict == z3.sat else 2)] += 1

    def _spent(self) -> int:
        """Resource units this action case has spent so far."""
        return 0 if self._meter is None else spent(self._meter) - self._started

    def _over_budget(self) -> bool:
        """The action case spent its :data:`ACTION_BUDGET`: no query is asked any more (a
        split into many values would otherwise go on asking each one)."""
        return self._spent() > ACTION_BUDGET * self.budget.query

    def _constants(self, t: Any) -> set[str]:
        """``free_constants(t)``, remembered for the last terms asked (a residual's are
        asked for its slice, its split and its lessons)."""
        got = self._names.get(t.get_id())
        if got is None:
            if len(self._names) > 64:
                self._names.clear()
            got = self._names[t.get_id()] = (t, free_constants(t))  # the term keeps its id
        return got[1]

    # --- outcomes ------------------------------------------------------------------------
    def _fail(self, name: str, description: str, fixed: dict[int, int]) -> None:
        v = self.verdicts[name]
        if v.status != VIOLATED:
            self.verdicts[name] = Verdict(VIOLATED, description, None)

    def _unknown(self, name: str, fixed: dict[int, int], why: str) -> None:
        v = self.verdicts[name]
        if v.status == PROVED:
            self.verdicts[name] = Verdict(UNKNOWN, f"{why} on {self._case_text(fixed)}", None)

    def _case_text(self, fixed: dict[int, int]) -> str:
        a = self.action
        m = len(self.symbolic)
        mover = "" if m not in fixed else f" with {self._split_label(m)}={fixed[m]}"
        if all(i in fixed for i in range(len(a.params))):
            return self.model._text((self.a_idx, *(fixed[i] for i in range(len(a.params))))
                                    ) + mover
        shown = ", ".join(f"{a.params[i].name}={fixed[i]}" for i in sorted(fixed) if i < m)
        return f"{a.name}({shown}{', ' if shown else ''}...){mover}"

    def _cti(self, values: tuple, key: tuple, goal: str | None = None) -> str:
        """A counterexample to induction: the action and a few fields of the state."""
        d = State(values, self.model).to_dict()["fields"]
        brief = ", ".join(f"{k}={v}" for k, v in d.items() if not isinstance(v, list))
        what = f" breaks {goal}" if goal else ""
        return (f"from a state satisfying the invariants, {self.model._text(key)}{what} "
                f"(state: {brief[:300]})")
