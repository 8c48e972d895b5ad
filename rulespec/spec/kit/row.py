"""A row of face-up slots (a market): take the card in slot k, the cards after it slide
down, and the row is refilled at its end; things riding on a slot (coconuts, coins) move
with the card under them.

The row is an enum field with one cell per slot and an ``empty`` member for a free slot;
each rider is an int field with one cell per slot. The kit keeps the row packed (filled
slots first, an invariant says so), so "the first free slot" is the number of filled ones.

>>> from rulespec.spec import Game
>>> g = Game("demo", title="demo", players=2, source="t")
>>> Card = g.enum("Card", ["none", "fish", "boat"], source="t")
>>> row = Row(g, "market", 3, Card, empty=Card.none, riders={"coins": 4}, source="t")
>>> [f.name for f in g.fields], [i.name for i in g.invariants]
(['market', 'market_coins'], ['market_is_packed'])
"""

from __future__ import annotations

from typing import Any

from ...ir.errors import SpecError
from ...ir.nodes import Enum, Expr, all_of, count, forall, implies, lift
from ..builder import Game, RuleBuilder


class Row:
    """``slots`` face-up slots holding members of ``cards`` (``empty`` marks a free slot),
    with optional ``riders``: ``{name: largest amount}`` riding on each slot."""

    def __init__(self, game: Game, name: str, slots: int, cards: Enum, *, empty: Any,
                 source: str, riders: dict[str, int] | None = None, visible: Any = "all",
                 initial: list[Any] | None = None, doc: str = "") -> None:
        if not isinstance(slots, int) or slots < 1:
            raise SpecError("a row needs at least one slot", element=f"row {name}")
        e = lift(empty)
        if e.type != cards.type or e.op != "const":
            raise SpecError(f"empty must be a member of {cards.name}", element=f"row {name}")
        self.game, self.name, self.slots, self.cards, self.empty = game, name, slots, cards, e
        self.cells = game.field(name, cards, shape=(slots,), source=source, visible=visible,
                                initial=initial if initial is not None else e,
                                doc=doc or f"the {name}'s slots, first to last")
        self.riders = {}
        for rider, top in (riders or {}).items():
            self.riders[rider] = game.field(
                f"{name}_{rider}", range(0, top + 1), shape=(slots,), initial=0, source=source,
                visible=visible, doc=f"{rider} on each slot of the {name}, moving with its card")
        game.invariant(f"{name}_is_packed", forall(range(slots - 1), lambda k: implies(
            self.cells[k] == e, self.cells[k + 1] == e)), source=source,
            doc=f"the {name}'s filled slots come first: a free slot has only free slots after it")

    # --- reading ------------------------------------------------------------------------
    def __getitem__(self, k: Any) -> Expr:
        """The card in slot ``k`` (the ``empty`` member when the slot is free)."""
        return self.cells[k]

    def rider(self, name: str, k: Any) -> Expr:
        """How much of ``name`` rides on slot ``k``."""
        return self.riders[name][k]

    def filled(self) -> Expr:
        """How many slots hold a card (they are the first ones)."""
        return count(range(self.slots), lambda k: self.cells[k] != self.empty)

    def full(self) -> Expr:
        return self.cells[self.slots - 1] != self.empty

    def amount(self, card: Any) -> Expr:
        """Copies of ``card`` in the row (for a deck's conservation law)."""
        return count(range(self.slots), lambda k: all_of(self.cells[k] == card,
                                                         self.cells[k] != self.empty))

    # --- changing -----------------------------------------------------------------------
    def take(self, rule: RuleBuilder, k: Any, *, source: str | None = None) -> dict[str, Expr]:
        """Remove the card in slot ``k``: the cards after it (and what rides on them)
        slide one slot towards the front, the last slot becomes free. Returns the card and
        its riders as they were (``{"card": ..., rider: ...}``), named for the rest of the
        rule."""
        taken = {"card": rule.let(self.cells[k], name="taken")}
        for name, f in self.riders.items():
            taken[name] = rule.let(f[k], name=name)
        with rule.for_each(range(self.slots - 1), source=source) as j:
            with rule.when(j >= k):
                rule.set(self.cells[j], self.cells[j + 1], source=source)
                for f in self.riders.values():
                    rule.set(f[j], f[j + 1], source=source)
        rule.set(self.cells[self.slots - 1], self.empty, source=source)
        for f in self.riders.values():
            rule.set(f[self.slots - 1], 0, source=source)
        return taken

    def refill(self, rule: RuleBuilder, card: Any, *, source: str | None = None) -> None:
        """Put ``card`` in the first free slot (the rule must know the row is not full)."""
        rule.set(self.cells[self.filled()], card, source=source)

    def add_rider(self, rule: RuleBuilder, name: str, k: Any, amount: Any = 1, *,
                  source: str | None = None) -> None:
        """Put ``amount`` more of ``name`` on slot ``k``."""
        rule.add(self.riders[name][k], amount, source=source)

    def spread_riders(self, rule: RuleBuilder, name: str, n: Any, *, from_right: bool = False,
                      source: str | None = None) -> None:
        """Put ``n`` of ``name`` on the row one per slot, starting at the first slot (or the
        last, ``from_right``) and going round again when every slot has one: "place them
        on the row's cards from right to left, one per card". Slot ``k``, the ``j``-th
        from where it starts, gets ``(n + slots - 1 - j) // slots`` (``n >= 0``)."""
        amount = lift(n)
        for k in range(self.slots):
            j = self.slots - 1 - k if from_right else k
            rule.add(self.riders[name][k], (amount + (self.slots - 1 - j)) // self.slots,
                     source=source)

    def requires_card(self, rule: RuleBuilder, k: Any, *, source: str | None = None) -> None:
        """A precondition: slot ``k`` holds a card."""
        rule.require(all_of(self.cells[k] != self.empty), f"the slot of the {self.name} holds "
                     "a card", source=source)
