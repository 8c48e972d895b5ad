"""Cards in places: piles (multisets of card types), hands (one pile per player) and decks
(a pile you draw from at random), plus the law that every copy of a card is somewhere.

Everything here expands to plain fields, statements and properties: a pile is an int
field with one cell per card type (a count; a bool flag per distinct card with
``flags=True``), a hand adds a ``PLAYERS`` dimension, and a counted pile keeps its size
in a field of its own (with an invariant tying the two), so rules read ``deck.size`` and
not a 52-term sum.

>>> from rulespec.spec import Game
>>> g = Game("demo", title="demo", players=2, source="t")
>>> Card = g.enum("Card", ["ace", "king"], source="t")
>>> deck = Deck(g, "deck", Card, source="t")
>>> hand = Hands(g, "hand", Card, source="t")
>>> [f.name for f in g.fields], deck.size().op
(['deck', 'deck_size', 'hand', 'hand_size'], 'field')
"""

from __future__ import annotations

from typing import Any, Sequence

from ...ir.assumed import derived
from ...ir.errors import SpecError
from ...ir.nodes import Enum, Expr, Table, forall, sum_of, to_int
from ..builder import PLAYERS, Game, RuleBuilder


class Pile:
    """A multiset of cards in one place (a discard pile, a display), or one per player.

    ``copies`` is how many of each card type the game has (an int for all, or a
    ``{member: n}`` mapping / :class:`Table`); each cell ranges over ``0 .. copies``.
    ``flags=True`` stores one bool per distinct card instead (one copy of each).
    """

    def __init__(self, game: Game, name: str, cards: Enum, *, source: str, copies: Any = 1,
                 flags: bool = False, per_player: bool = False, visible: Any = "all",
                 full: bool = False, counted: bool = False, doc: str = "") -> None:
        self.game, self.name, self.cards, self.per_player = game, name, cards, per_player
        self.source = source
        self.copies = _copies(cards, copies)
        self.flags = flags
        if flags and max(self.copies) != 1:
            raise SpecError("flags=True means one copy of each card", element=f"pile {name}")
        top = max(self.copies)
        shape = ((PLAYERS,) if per_player else ()) + (cards,)
        initial = ([bool(c) for c in self.copies] if flags else list(self.copies)) if full \
            else (False if flags else 0)
        if full and per_player:
            raise SpecError("a per-player pile starts empty", element=f"pile {name}")
        self.cells = game.field(name, bool if flags else range(0, top + 1), shape=shape,
                                initial=initial, visible=visible, source=source,
                                doc=doc or f"how many of each card are in the {name}")
        self.size_field: Any = None
        if counted:
            total = sum(self.copies)
            self.size_field = game.field(
                f"{name}_size", range(0, total + 1), shape=(PLAYERS,) if per_player else (),
                initial=total if full else 0, source=source,
                doc=f"how many cards are in the {name} (kept with it)")
            if per_player:
                law = forall(game.players(), lambda p: self.size_field[p] == self._sum(p))
            else:
                law = self.size_field == self._sum(None)
            game.invariant(f"{name}_size_counts_its_cards", law, source=source,
                           doc=f"the {name}'s size field equals the number of cards in it")

    # --- reading ------------------------------------------------------------------------
    def _cell(self, card: Any, of: Any) -> Expr:
        if self.per_player:
            if of is None:
                raise SpecError("one pile per player: say whose (of=...)",
                                element=f"pile {self.name}")
            return self.cells[of, card]
        if of is not None:
            raise SpecError("a single pile: no of=", element=f"pile {self.name}")
        return self.cells[card]

    def count(self, card: Any, of: Any = None) -> Expr:
        """How many copies of ``card`` are in the pile (of player ``of``)."""
        c = self._cell(card, of)
        return to_int(c) if self.flags else c

    def has(self, card: Any, of: Any = None) -> Expr:
        """At least one copy of ``card`` is here."""
        c = self._cell(card, of)
        return c if self.flags else c > 0

    def _sum(self, of: Any) -> Expr:
        return sum_of(self.cards, lambda c: self.count(c, of))

    def size(self, of: Any = None) -> Expr:
        """How many cards the pile holds (its size field when counted)."""
        if self.size_field is None:
            return self._sum(of)
        return self.size_field[of] if self.per_player else self.size_field

    def amount(self, card: Any) -> Expr:
        """Copies of ``card`` here, every player's pile included (for conservation)."""
        if self.per_player:
            return sum_of(self.game.players(), lambda p: self.count(card, p))
        return self.count(card)

    # --- changing -----------------------------------------------------------------------
    def put(self, rule: RuleBuilder, card: Any, of: Any = None, *, source: str | None = None
            ) -> None:
        """Add one copy of ``card``."""
        self._move(rule, card, of, +1, source)

    def take(self, rule: RuleBuilder, card: Any, of: Any = None, *, source: str | None = None
             ) -> None:
        """Remove one copy of ``card`` (the rule must know one is there)."""
        self._move(rule, card, of, -1, source)

    def _move(self, rule: RuleBuilder, card: Any, of: Any, delta: int, source: str | None
              ) -> None:
        cell = self._cell(card, of)
        if self.flags:
            rule.set(cell, delta > 0, source=source)
        else:
            rule.add(cell, delta, source=source)
        if self.size_field is not None:
            size = self.size_field[of] if self.per_player else self.size_field
            rule.add(size, delta, source=source)

    def empty_into(self, rule: RuleBuilder, other: "Pile", *, of: Any = None,
                   source: str | None = None) -> None:
        """Move every card of this pile (of player ``of``) into ``other``: the same
        player's own when ``other`` is per player too (a discard pile taken back into
        the hand), else the one pile. ``of`` may be the player on turn: the prover splits
        on it (docs/verification.md, "Write it as the rulebook says")."""
        to = of if other.per_player else None
        if other.per_player and of is None:
            raise SpecError("one pile per player: say whose (of=...)",
                            element=f"pile {other.name}")
        with rule.for_each(self.cards) as c:
            n = rule.let(self.count(c, of), name="n")
            if other.flags:
                with rule.when(n > 0):
                    rule.set(other._cell(c, to), True, source=source)
            else:
                rule.add(other._cell(c, to), n, source=source)
            if self.flags:
                rule.set(self._cell(c, of), False, source=source)
            else:
                rule.set(self._cell(c, of), 0, source=source)
            if other.size_field is not None and (self.size_field is None or other.flags):
                rule.add(other._size(to), n, source=source)
        if self.size_field is not None:
            if other.size_field is not None and not other.flags:  # this pile's size
                rule.add(other._size(to), self._size(of), source=source)
            rule.set(self._size(of), 0, source=source)

    def _size(self, of: Any) -> Expr:
        return self.size_field[of] if self.per_player else self.size_field


class Hands(Pile):
    """One pile per player, seen by its owner only (by default) and counted: the size of
    each hand is a field every player sees."""

    def __init__(self, game: Game, name: str, cards: Enum, *, source: str, copies: Any = 1,
                 flags: bool = False, visible: Any = "owner", counted: bool = True,
                 doc: str = "") -> None:
        super().__init__(game, name, cards, source=source, copies=copies, flags=flags,
                         per_player=True, visible=visible, counted=counted,
                         doc=doc or f"each player's {name}: how many of each card")


class Deck(Pile):
    """The draw pile: every copy of every card at setup (``full=True``), face down
    (``visible="nobody"``), counted; :meth:`draw` is a weighted chance draw."""

    def __init__(self, game: Game, name: str, cards: Enum, *, source: str, copies: Any = 1,
                 flags: bool = False, visible: Any = "nobody", full: bool = True,
                 doc: str = "") -> None:
        super().__init__(game, name, cards, source=source, copies=copies, flags=flags,
                         visible=visible, full=full, counted=True,
                         doc=doc or f"the {name}: how many of each card are left in it")

    def draw(self, rule: RuleBuilder, card: Any, into: Pile | None = None, of: Any = None, *,
             source: str | None = None) -> None:
        """In a ``@game.chance(params={"card": Cards})`` rule: ``card`` comes off the deck
        with probability proportional to its copies left, into ``into`` (of player ``of``).
        """
        rule.require(self.has(card), f"the card is in the {self.name}",
                     source=source or self.source)
        rule.set_weight(self.count(card))
        self.take(rule, card, source=source)
        if into is not None:
            into.put(rule, card, of, source=source)

    def conserve(self, name: str, *places: Any, source: str) -> None:
        """Every copy of every card is in the deck or one of ``places`` (piles, hands, a
        row, or any object with ``amount(card)``): one invariant per card type, and the
        total as a conservation law."""
        def held(c: Any) -> Expr:
            total = self.amount(c)
            for place in places:
                total = total + place.amount(c)
            return total
        copies = Table.of(f"{name}_copies", {m: n for m, n in zip(self.cards, self.copies)})
        self.game.invariant(f"{name}_per_card", forall(self.cards, lambda c: held(c) == copies[c]),
                            source=source, doc="every copy of each card is in exactly one place")
        self.game.conservation(name, sum_of(self.cards, held), source=source,
                               doc=f"the {sum(self.copies)} cards are all somewhere")


def _copies(cards: Enum, copies: Any) -> list[int]:
    """One count per card; a count from an assumption keeps its tag (``ir.assumed``), so the
    fields, invariants and totals built from it carry where it comes from."""
    if isinstance(copies, int) and not isinstance(copies, bool):
        out = [copies] * len(cards)
    elif isinstance(copies, (Table, dict)):
        table = copies if isinstance(copies, Table) else Table.of("copies", copies)
        out = [derived(int(v), *([t] if t else [])) for v, t in
               zip(table.values, table.assumed or [None] * len(table.values))]
    elif isinstance(copies, Sequence):
        out = [v if isinstance(v, int) else int(v) for v in copies]
    else:
        raise SpecError(f"copies must be an int, a mapping or a table, got {copies!r}")
    if len(out) != len(cards) or min(out) < 0 or max(out) < 1:
        raise SpecError(f"copies: one count >= 0 per card of {cards.name}, some above 0")
    return out


__all__ = ["Deck", "Hands", "Pile"]
