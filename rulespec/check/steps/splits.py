"""How an action case is split when a goal is undecided in it: on a parameter its residual
mentions, on the player to move, or on a cell it uses as an index; and, with nothing left
to split, one last query with the full budget. A part of :class:`.prover.ActionProver`.

The splits are named (:data:`SPLITS`, in the order they are tried). The split on the
player to move is what lets a spec write an effect as the rulebook says it, indexed by the
player on turn (``hand[me, c]``, "return your discard pile to your hand"): each player's
case has every cell a known one, as if the effect were spelled out player by player.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

import z3

from ..frame import conjuncts, const_name, fixed_to, free_constants, index_cell
from .goals import ACTION_BUDGET, RULE_ERRORS, Goal, Origin
from .lessons import SPLIT_FURTHER, TO_THE_MOVER
from .premises import Refuter

if TYPE_CHECKING:
    from .prover import _Terms


#: a parameter the residual mentions (or that the legality ties to a cell it reads)
ON_A_PARAMETER = "a parameter"
#: the cell the current-player rule reads (``to_move``), one case per value of its field
ON_THE_PLAYER_TO_MOVE = "the player to move"
#: a cell the residual compares with numbers by ``==`` (the card in hand, the chosen slot)
ON_AN_INDEX_CELL = "an index cell"
#: the splits an undecided case may make, in the order they are tried (read when used: a
#: test may leave one out, and sees what the others can do without it)
SPLITS: tuple[str, ...] = (ON_A_PARAMETER, ON_THE_PLAYER_TO_MOVE, ON_AN_INDEX_CELL)


class Splits:
    """The splits of :class:`.prover.ActionProver` (which holds the state they use)."""

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
                    self.lessons.split_on(self.a_idx, g.name, g.kind, self._split_label(i))
                if i == len(self.symbolic):
                    assert self._mover is not None
                    # the values cover the cell's declared bounds: the proof assumes them
                    self._uses(g.name, {("bounds", self._mover[0])})
                    self.lessons.note(TO_THE_MOVER, self.a_idx, g.name)
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
        self.lessons.note(SPLIT_FURTHER, self.a_idx, g.name, frozenset(fixed))

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

    def _split_cell(self, fixed: dict[int, int], g: Goal, r: Any,
                    solver: Callable[[], z3.Solver], params: list[Any], terms: "_Terms"
                    ) -> bool:
        """No parameter to split on: a cell the residual uses as an index (the card in
        hand, the chosen slot), fixed to each value of its declared bounds, folds the
        residual to a few summands (:func:`.frame.index_cell`). Each value is one query
        ``cell == v -> residual[cell := v]``; together they cover the cell's bounds (a
        premise). False (nothing asked) when no cell helps."""
        if ON_AN_INDEX_CELL not in SPLITS:
            return False
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

    def _split_on(self, fixed: dict[int, int], residual: Any, legal: Any) -> int | None:
        """The open parameter the residual mentions with the fewest values; if it mentions
        none, the one with the fewest values that a conjunct of the legality ``legal``
        ties to a cell the residual reads (a precondition on the destination's cells, for
        a goal about them). None when no parameter matters to the residual: a split would
        ask the same question once per value, so the goal is asked once, with the full
        budget, instead (MOTU's placements split on the row and column for goals about
        the card counts: 64 cases, each as hard as the whole)."""
        open_ = [i for i in range(len(self.symbolic))
                 if i not in fixed and ON_A_PARAMETER in SPLITS]
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
