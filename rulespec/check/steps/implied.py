"""What follows from the premises alone, asked once per player count: the bounds and the
conserved totals a step then needs no proof of."""

from __future__ import annotations

from typing import Callable

import attrs
import z3

from ...compile.smt_backend import SmtGame
from ..solvers import Budget
from .goals import Origin
from .premises import Premises, Refuter, initial_totals


@attrs.frozen
class Implied:
    """The cells of a field (by their place in the field) whose bounds the other premises
    imply, and the premises (by origin) the implication used."""

    cells: frozenset[int]
    origins: frozenset[Origin]


#: an implication query that finds cells not implied drops them and asks again, at most
#: this many times (a field none of whose cells is implied is given up on soon)
IMPLIED_ROUNDS = 2


class _Implications:
    """What follows from the premises alone in every state with ``players`` players: the
    premises and their solver, made on the first question and kept for the next."""

    def __init__(self, smt: SmtGame, players: int, budget: Budget,
                 share: "_Implications | Callable[[], Premises] | None" = None) -> None:
        self.smt, self.players, self.budget = smt, players, budget
        self._premises: Premises | None = None
        self._refuter: Refuter | None = None
        #: another question-asker's premises and solver (the same ones: one set of terms
        #: per job), or where to get the premises (a job's cache), or None: made here
        self._share = share
        #: implication queries asked, and the resource units they spent (to measure)
        self.stats = [0, 0]

    def _solver(self) -> tuple[Premises, Refuter]:
        if isinstance(self._share, _Implications):
            return self._share._solver()
        if self._premises is None or self._refuter is None:
            self._premises = (Premises(self.smt, {0: self.players}) if self._share is None
                              else self._share())
            self._refuter = Refuter(self._premises, z3.BoolVal(True))
        return self._premises, self._refuter

    def _count(self, refuter: Refuter) -> None:
        self.stats[0] += 1
        self.stats[1] += refuter.solver.rulespec_spent


class ImpliedBounds(_Implications):
    """Cells whose bounds the other premises imply, in every state with ``players``
    players (whatever its flow values): for those, a step needs no proof of its own.

    If the invariants, the conservation laws and the other fields' bounds hold after a
    step -- their own step proofs show that -- then so does an implied bound: Hawaii's
    round totals are sums of the tokens taken, which the token counts cap; asked once per
    case, not once per purchase. Cell by cell: the cells of a seat nobody sits at (the
    fifth player's round total in a four-player game) are capped only by their own
    bounds, yet the cells of the players are implied. What an implication used is
    recorded (its unsat core), like a step proof's premises. To keep the reasoning free
    of cycles, an implication never uses the bounds of its own field, of a field with a
    cell found implied before it, nor a law (a law is proved within every field's bounds).
    """

    def __init__(self, smt: SmtGame, players: int, budget: Budget,
                 share: "_Implications | Callable[[], Premises] | None" = None) -> None:
        super().__init__(smt, players, budget, share)
        self._known: dict[str, Implied | None] = {}
        self._implied: list[str] = []  # in the order found (their bounds are not premises)

    def known(self, field: str) -> Implied | None:
        """What :meth:`of` found for ``field`` already (None: no cell implied, or not
        asked)."""
        return self._known.get(field)

    def of(self, field: str) -> Implied | None:
        """The cells of ``field`` whose bounds the other premises imply, with those
        premises (None: no cell). A model of the premises where some cells leave their
        bounds shows those cells are not implied: the others are asked again."""
        if field in self._known:
            return self._known[field]
        p, refuter = self._solver()
        laws = {("invariant", k) for k, inv in enumerate(self.smt.spec.invariants) if inv.law}
        barred = {("bounds", f) for f in [field, *self._implied]} | laws
        picked = [k for k, key in enumerate(p.keys) if key[0] not in barred]
        cells = self.smt.cell_bounds(field, p.state)
        slot = self.smt.layout.slots[field]
        # a cell that no other premise mentions is capped by its own bounds alone
        open_ = [k for k, c in enumerate(cells) if not z3.is_true(c)
                 and p.mentioned_beyond(p.state[slot.offset + k], ("bounds", field))]
        got = None
        for _ in range(IMPLIED_ROUNDS):
            if not open_:
                break
            goal = z3.Or(*[z3.Not(cells[k]) for k in open_])
            verdict, core, held = refuter.refute(picked, [goal], self.budget.implied,
                                                 show=[cells[k] for k in open_])
            self._count(refuter)
            if verdict == z3.unsat:
                got = Implied(frozenset(open_), frozenset(p.keys[k][0] for k in core or []))
                self._implied.append(field)
                break
            if verdict != z3.sat:
                break
            open_ = [k for k, ok in zip(open_, held) if ok]  # those out of bounds: not implied
        self._known[field] = got
        return got


class ImpliedTotals(_Implications):
    """Conserved totals that the invariants imply, in every state with ``players`` players:
    for those, a step needs no proof of its own.

    A deck's law that every copy of every card is somewhere is an invariant per card and
    a conserved total over all of them (:meth:`~rulespec.spec.kit.cards.Deck.conserve`);
    the total is the sum of the per-card equations. Asked step-wise, the total is a sum
    over every card of every place, which Z3 cannot split cheaply (Aquatica's location
    draw spent 8 x 50M units undecided); summed from the invariants it is one linear
    query per case. Sound because the invariants' own step proofs show they hold after
    every step, and only invariants (not laws, bounds nor other totals, which may be
    implied in turn) are used: no cycle. What the implication used is recorded.
    """

    def __init__(self, smt: SmtGame, players: int, budget: Budget,
                 share: "_Implications | Callable[[], Premises] | None" = None) -> None:
        super().__init__(smt, players, budget, share)
        self._known: dict[int, set[Origin] | None] = {}

    def known(self, k: int) -> set[Origin] | None:
        """What :meth:`of` found for total ``k`` already (None: not implied, or not asked)."""
        return self._known.get(k)

    def of(self, k: int) -> set[Origin] | None:
        """The invariants (by origin) that imply conserved total ``k``, or None."""
        if k in self._known:
            return self._known[k]
        p, refuter = self._solver()
        invariants = {("invariant", j) for j, inv in enumerate(self.smt.spec.invariants)
                      if not inv.law}
        picked = [j for j, key in enumerate(p.keys) if key[0] in invariants]
        total = self.smt.conserved_checked(k, p.state)
        goal = z3.And(z3.Not(total.error),
                      total.value == initial_totals(self.smt, k)[self.players])
        verdict, core = refuter.refute(picked, [z3.Not(goal)], self.budget.implied)
        self._count(refuter)
        got = {p.keys[j][0] for j in core or []} if verdict == z3.unsat else None
        self._known[k] = got
        return got


