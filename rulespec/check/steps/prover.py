"""The step proofs of one action case over every parameter value: its goals' residuals, the
queries, the splits and the verdicts."""

from __future__ import annotations

from typing import Any, Callable, Sequence

import attrs
import z3

from ...compile.smt_backend import SmtGame
from ...runtime.model import Model, State
from ..frame import (conjuncts, const_name, equation_deltas, fixed_to, free_constants,
                     holds_by_intervals, index_cell, unchanged)
from ..results import PROVED, UNKNOWN, VIOLATED
from ..solvers import Budget, check, limited, spent
from .cases import mover_cell
from .goals import RULE_ERRORS, Goal, Origin, Verdict, own_origin
from .implied import Implied, ImpliedBounds, ImpliedTotals
from .lessons import Lessons
from .premises import Premises, Refuter

#: an action case's queries stop after this many full query budgets (resource units)
ACTION_BUDGET = 8


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



class ActionProver:
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
        self._mover = mover_cell(smt, premises.state)
        self._splits = [*self.symbolic] + ([self._mover[1]] if self._mover else [])
        self._param_names = [const_name(v) for v in self._splits]
        self._movers: dict[int, set[Origin] | None] = {}  # see _no_such_mover
        self.verdicts = {g.name: Verdict(used=own_origin(g)) for g in self.goals}
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
        # First each goal with the premises that showed it in an earlier case, if any;
        # then with only the premises that share a cell with it: most goals need no more,
        # and a small query is fast. Fewer premises, same conclusion: still sound. A goal
        # the slice timed out on is split at once (a hard step is hard with every premise
        # too); one the slice could not show goes on to every premise.
        pending: dict[str, Any] = {}
        undecided: list[str] = []
        small = Refuter(self.p, terms.legal)
        lessons = self.lessons

        if self._meter is None:
            self._meter = small.solver
            self._started = spent(small.solver)

        def ask(name: str, r: Any, picked: Sequence[int], rlimit: int, kind: str) -> Any:
            """The premises ``picked`` refute the goal's failure (learning those it used)?"""
            if self._over_budget():
                return z3.unknown  # the goal goes to _split, which reports it UNKNOWN
            self.queries += 1
            extra = [z3.Not(r)] if name == RULE_ERRORS else [z3.Not(r), z3.Not(terms.error)]
            verdict, core = small.refute(picked, extra, rlimit)
            self._count(kind, small.solver.rulespec_spent, verdict)
            if verdict == z3.unsat:
                lessons.learn(self.p, name, core or [])
                self._uses(name, {self.p.keys[k][0] for k in core or []})
            return verdict
        for name, r in list(terms.left.items()):
            if z3.is_true(r):
                continue
            if (self.a_idx, name) in lessons.untracked:
                pending[name] = r  # straight to every premise, untracked (below)
                continue
            # (the split is looked at only where a lesson may apply: a residual asked about
            # is kept alive, and Z3's term ids, and so its search, depend on that)
            if fixed and (name in lessons.to_the_mover.get(self.a_idx, ())
                          or (self.a_idx, name) in lessons.by_conjunct):
                leaf = self._split_on(fixed, r, terms.legal) is None
                if not leaf and name in lessons.to_the_mover.get(self.a_idx, ()):
                    undecided.append(name)  # another case split it down to the player to move
                    continue
                if leaf and (self.a_idx, name) in lessons.by_conjunct:
                    if self._by_conjunct(name, r, ask):
                        continue  # another case showed it conjunct by conjunct: so here
            if (self.a_idx, name, frozenset(fixed)) in lessons.split_levels:
                undecided.append(name)  # another case at this level had to split it
                continue
            core = lessons.core(self.p, name)
            if not fixed and core is None and self._split_like_before(by_name[name], r,
                                                                      terms.legal):
                undecided.append(name)
                continue
            if core is not None:
                shown = ask(name, r, core, self.budget.slice, "core") == z3.unsat
                tally = lessons.hits if shown else lessons.misses
                tally[name] = tally.get(name, 0) + 1
                if shown:
                    continue
            if (self.a_idx, name) in lessons.needs_all:
                verdict = z3.sat  # a slice could not show it before
            else:
                verdict = ask(name, r, self.p.about(r, self._constants(r)), self.budget.slice, "slice")
                if verdict == z3.unsat:
                    continue
            if by_name[name].kind == "conserved" and self.totals is not None:
                origins = self.totals.of(by_name[name].index)  # not an easy step: implied?
                if origins is not None:
                    self._uses(name, origins)
                    continue

            g = by_name[name]
            if g.kind == "bounds" and self.implied is not None:  # not an easy step: implied?
                implied = self.implied.of(g.field)
                if implied is not None:
                    rest = self._drop_implied(g, implied, fixed, terms, top)
                    if rest is None:
                        continue  # every cell it writes is implied
                    if rest is not r:  # fewer cells: the slice again, on what is left
                        r = rest
                        verdict = ask(name, r, self.p.about(r, self._constants(r)), self.budget.slice, "slice")
                        if verdict == z3.unsat:
                            continue
            if verdict == z3.sat and not (name in lessons.by_conjunct_goals and
                                          self._split_on(fixed, r, terms.legal) is None):
                lessons.needs_all.add((self.a_idx, name))
                pending[name] = r
            elif self._split_on(fixed, r, terms.legal) is None:
                # a leaf: nothing left to split
                tried = (self.a_idx, name)
                if tried not in lessons.by_conjunct and tried not in lessons.not_by_conjunct:
                    if self._by_conjunct(name, r, ask):
                        lessons.by_conjunct.add(tried)
                        lessons.by_conjunct_goals.add(name)
                        continue
                    lessons.not_by_conjunct.add(tried)
                if index_cell(r, self.p.intervals, set(self._param_names)) is not None:
                    undecided.append(name)  # an index cell to split on: straight to the split
                    continue
                pending[name] = r
            else:
                undecided.append(name)
        every = range(len(self.p.terms))
        for name in list(pending):  # every premise, tracked: its core serves later actions
            if (self.a_idx, name) in lessons.untracked:
                continue
            if ask(name, pending[name], every, self.budget.quick, "tracked") == z3.unsat:
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
                lessons.untracked.add((self.a_idx, name))
        self._split(fixed, [by_name[n] for n in undecided], solver, params, terms, top)

    def _by_conjunct(self, name: str, r: Any, ask: Callable[..., Any]) -> bool:
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
        end = self._spent() + self.budget.slice  # all of them within one slice's budget

        def shown(c: Any, picked: Sequence[int]) -> bool:
            left = end - self._spent()
            return left > 0 and ask(name, c, picked, min(left, self.budget.slice),
                                    "conjunct") == z3.unsat
        for c in parts:
            core = self.lessons.core(self.p, name)
            if core is not None and shown(c, core):
                continue
            if not shown(c, self.p.about(c, self._constants(c))):
                return False
        return True

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
            key = (self.a_idx, *(m.eval(p, model_completion=True).as_long() for p in params))
            return self._cti(values, key, name)
        finally:
            solver.pop()

    def _split(self, fixed: dict[int, int], goals: list[Goal],
               solver: Callable[[], z3.Solver], params: list[Any], terms: "_Terms",
               top: "_Terms") -> None:
        """Undecided goals: split on a parameter their residual mentions, or ask once more
        with the full budget when nothing is left to split."""
        groups: dict[int, list[Goal]] = {}
        for g in goals:
            if self._over_budget():
                self._unknown(g.name, fixed, f"the action's budget ({ACTION_BUDGET} x "
                              f"{self.budget.query:,} resource units) ran out")
                continue
            r = terms.left[g.name]
            i = self._split_on(fixed, r, terms.legal)
            # a parameter the residual does not mention (only tied to it by the legality:
            # a placement's row and column) splits into cases each as hard as the whole:
            # an index cell first
            names = self._constants(r)
            direct = i is not None and self._param_names[i] in names
            if not direct and self._split_cell(fixed, g, r, solver, params, terms):
                self._learn_split(fixed, g)
                continue
            if i is None:
                verdict = self._ask(solver(), r, self.budget.query, params, g.name,
                                    terms.error, "last")
                if verdict == "unknown":
                    self._unknown(g.name, fixed, f"undecided within {self.budget.query:,} "
                                  "resource units")
                elif verdict != "unsat":
                    self._fail(g.name, verdict, fixed)
            else:
                groups.setdefault(i, []).append(g)
                self._learn_split(fixed, g)
                if not fixed:
                    self.lessons.split_kinds.add((g.kind, self._split_label(i)))
                if i == len(self.symbolic):
                    assert self._mover is not None
                    # the values cover the cell's declared bounds: the proof assumes them
                    self._uses(g.name, {("bounds", self._mover[0])})
                    self.lessons.to_the_mover.setdefault(self.a_idx, set()).add(g.name)
        for i, gs in groups.items():
            lo, hi = self._domain(i)
            for v in range(lo, hi):
                if i == len(self.symbolic):
                    excluded = self._no_such_mover(v)
                    if excluded is not None:  # no state of the premises has this player
                        for g in gs:         # to move (a seat beyond the player count)
                            self._uses(g.name, excluded)
                        continue
                    self._restart_budget()  # each player's case is an action case of its
                self._case({**fixed, i: v}, gs, top)  # own (as each player count is)

    def _learn_split(self, fixed: dict[int, int], g: Goal) -> None:
        """The goal is split further in this case: its other cases at this level (the
        action's other player counts at the top, the sibling cases below) skip the
        queries that fell short here and split it at once."""
        self.lessons.split_levels.add((self.a_idx, g.name, frozenset(fixed)))

    def _no_such_mover(self, v: int) -> set[Origin] | None:
        """The premises (by origin) that no state has player ``v`` to move in, or None if
        some may (asked once per value, with the premises about that cell)."""
        if v not in self._movers:
            assert self._mover is not None
            cell = self._mover[1]
            refuter = Refuter(self.p, cell == v)
            verdict, core = refuter.refute(self.p.about(cell), [], self.budget.slice)
            self._count("mover", refuter.solver.rulespec_spent, verdict)
            self._movers[v] = ({self.p.keys[k][0] for k in core or []}
                               if verdict == z3.unsat else None)
        return self._movers[v]

    def _split_label(self, i: int) -> str:
        """The name of what split ``i`` fixes: a parameter, or the player to move's field."""
        if i < len(self.symbolic):
            return self.action.params[i].name
        assert self._mover is not None
        return self._mover[0]

    def _domain(self, i: int) -> tuple[int, int]:
        """The values split ``i`` takes, as ``range`` bounds."""
        if i < len(self.symbolic):
            d = self.action.params[i].domain
            return d.lo, d.max_hi
        assert self._mover is not None
        return self._mover[2], self._mover[3] + 1

    def _restart_budget(self) -> None:
        if self._meter is not None:
            self._started = spent(self._meter)

    def _split_cell(self, fixed: dict[int, int], g: Goal, r: Any,
                    solver: Callable[[], z3.Solver], params: list[Any], terms: "_Terms"
                    ) -> bool:
        """No parameter to split on: a cell the residual uses as an index (the card in
        hand, the chosen slot), fixed to each value of its declared bounds, folds the
        residual to a few summands (:func:`.frame.index_cell`). Each value is one query
        ``cell == v -> residual[cell := v]``; together they cover the cell's bounds (a
        premise). False (nothing asked) when no cell helps."""
        got = index_cell(r, self.p.intervals, set(self._param_names))
        if got is None:
            return False
        cell, lo, hi = got
        self._uses(g.name, self.p.bounds_of([cell]))
        small = Refuter(self.p, terms.legal)
        for v in range(lo, hi + 1):
            rv = fixed_to(r, cell, v)
            if z3.is_true(rv):
                continue
            if self._over_budget():
                self._unknown(g.name, fixed, f"the action's budget ({ACTION_BUDGET} x "
                              f"{self.budget.query:,} resource units) ran out")
                return True
            # first the premises that share a cell with the folded residual (a few)
            # then every premise, tracked (its core names what the induction needs); the
            # untracked solver only to describe a counterexample
            extra = [cell == v, z3.Not(rv)] + ([] if g.name == RULE_ERRORS
                                               else [z3.Not(terms.error)])
            shown = z3.unknown
            for picked, rlimit in ((self.p.about(rv), self.budget.slice),
                                   (range(len(self.p.terms)), self.budget.query)):
                self.queries += 1
                shown, core = small.refute(picked, extra, rlimit)
                self._count("cell", small.solver.rulespec_spent, shown)
                if shown == z3.unsat:
                    self._uses(g.name, {self.p.keys[k][0] for k in core or []})
                    break
            if shown == z3.unsat:
                continue
            if shown != z3.sat:
                self._unknown(g.name, fixed, f"undecided within {self.budget.query:,} resource "
                              f"units with {const_name(cell)} = {v}")
                return True
            verdict = self._ask(solver(), z3.Implies(cell == v, rv), self.budget.query, params,
                                g.name, terms.error, "cell")
            if verdict == "unknown":
                self._unknown(g.name, fixed, f"undecided within {self.budget.query:,} resource "
                              f"units with {const_name(cell)} = {v}")
                return True
            if verdict != "unsat":
                self._fail(g.name, verdict, fixed)
                return True
        return True

    def _split_like_before(self, g: Goal, r: Any, legal: Any) -> bool:
        """A goal nothing was learned about, of a kind that an earlier action had to split
        on the parameter this one would split on (each purchase's own tile count, say):
        split at once, without the slice that would spend its budget first."""
        kinds = self.lessons.split_kinds
        if not any((g.kind, self._split_label(i)) in kinds for i in range(len(self._splits))):
            return False  # nothing this action could split on was split for such a goal
        i = self._split_on({}, r, legal)
        return i is not None and (g.kind, self._split_label(i)) in kinds

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

    def _split_on(self, fixed: dict[int, int], residual: Any, legal: Any) -> int | None:
        """The open parameter the residual mentions with the fewest values; if it mentions
        none, the one with the fewest values that a conjunct of the legality ``legal``
        ties to a cell the residual reads (a precondition on the destination's cells, for
        a goal about them). None when no parameter matters to the residual: a split would
        ask the same question once per value, so the goal is asked once, with the full
        budget, instead (MOTU's placements split on the row and column for goals about
        the card counts: 64 cases, each as hard as the whole)."""
        open_ = [i for i in range(len(self.symbolic)) if i not in fixed]
        m = len(self.symbolic)
        if not open_ and (self._mover is None or m in fixed):
            return None
        names = self._constants(residual)
        mentioned = [i for i in open_ if self._param_names[i] in names]
        if open_ and not mentioned:
            tied = self._tied(legal)
            mentioned = [i for i in open_ if tied.get(self._param_names[i], set()) & names]
        if not mentioned:
            # last, the player to move, if the residual reads its cell: an action on "my"
            # board writes each player's cells under a test of it (Aquatica's purchases:
            # 20 cells of 4 players), and each player's case folds those to the 5 cells
            # of one player -- none of the 15 location cards' counts was decided in 60M
            # units with it open, each in 0.2M with it set
            if self._mover is not None and m not in fixed and self._param_names[m] in names:
                return m
            return None

        def size(i: int) -> int:
            lo, hi = self._domain(i)
            return hi - lo
        return min(mentioned, key=size)

    def _constants(self, t: Any) -> set[str]:
        """``free_constants(t)``, remembered for the last terms asked (a residual's are
        asked for its slice, its split and its lessons)."""
        got = self._names.get(t.get_id())
        if got is None:
            if len(self._names) > 64:
                self._names.clear()
            got = self._names[t.get_id()] = (t, free_constants(t))  # the term keeps its id
        return got[1]

    def _tied(self, legal: Any) -> dict[str, set[str]]:
        """For each parameter (by name), the other constants that the conjuncts of the
        legality mentioning it mention (per legality term: each case has its own)."""
        got = self._ties.get(legal.get_id())
        if got is None:
            params = set(self._param_names[:len(self.symbolic)])
            tied: dict[str, set[str]] = {}
            for c in conjuncts(legal):
                names = free_constants(c)
                for n in names & params:
                    tied.setdefault(n, set()).update(names - params)
            got = self._ties[legal.get_id()] = (legal, tied)  # the term keeps its id
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
