"""The collections kit: decks, hands and piles, rows with riders, subset choices and
queues of pending effects, each expanding to plain fields, statements and properties.

Nothing here is new to the backends: a kit object declares fields on the game and writes
the same ``rule.set`` / ``rule.when`` / ``rule.for_each`` a spec author would, so every
backend, the checker and the prover see ordinary IR. See docs/spec-language.md.
"""

from .cards import Deck, Hands, Pile
from .choice import Subsets
from .effects import Effects
from .row import Row

__all__ = ["Deck", "Effects", "Hands", "Pile", "Row", "Subsets"]
