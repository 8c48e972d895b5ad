"""A bounded subset choice as one action parameter: "keep up to 4 of these 6", "discard any
two". The subsets become the members of an enum (named by their items: ``{fish,boat}``), so
the action text reads naturally and the parameter is one finite domain; whether a subset
includes an item and how big it is are enum-indexed tables.

>>> from rulespec.spec import Game
>>> g = Game("demo", title="demo", players=2, source="t")
>>> keep = Subsets(g, "Keep", ["fish", "boat", "hut"], max_size=2, source="t")
>>> keep.enum.members[:5], len(keep.enum)
(('{}', '{fish}', '{boat}', '{hut}', '{fish,boat}'), 7)
>>> keep.picked(keep.enum["{fish,hut}"], 2).args, keep.size(keep.enum["{boat}"]).args
((True,), (1,))
"""

from __future__ import annotations

import itertools
from typing import Any, Sequence

from ...ir.errors import SpecError
from ...ir.nodes import Enum, Expr, lift
from ..builder import Game


class Subsets:
    """Every subset of ``items`` with ``min_size`` to ``max_size`` elements, smallest first
    (then in the order of ``items``), as the enum :attr:`enum` -- use it as a parameter
    domain: ``params={"keep": keep.enum}``."""

    def __init__(self, game: Game, name: str, items: Sequence[str] | Enum, *, max_size: int,
                 source: str, min_size: int = 0) -> None:
        names = list(items.members) if isinstance(items, Enum) else [str(i) for i in items]
        if not names or len(set(names)) != len(names):
            raise SpecError("a subset choice needs distinct items", element=f"subsets {name}")
        if not 0 <= min_size <= max_size <= len(names):
            raise SpecError(f"sizes must satisfy 0 <= min_size <= max_size <= {len(names)}",
                            element=f"subsets {name}")
        self.items = names
        self.subsets = [combo for n in range(min_size, max_size + 1)
                        for combo in itertools.combinations(range(len(names)), n)]
        members = {"{" + ",".join(names[i] for i in combo) + "}":
                   f"choose {', '.join(names[i] for i in combo) or 'nothing'}"
                   for combo in self.subsets}
        self.enum = game.enum(name, members, source=source)
        self._size = game.table(f"{name}_size", {m: len(combo) for m, combo in
                                                 zip(self.enum, self.subsets)}, source=source)
        self._has = [game.table(f"{name}_has_{k}", {m: k in combo for m, combo in
                                                    zip(self.enum, self.subsets)}, source=source)
                     for k in range(len(names))]

    def picked(self, choice: Any, item: int | str) -> Expr:
        """The chosen subset includes ``item`` (its position or its name)."""
        k = self.items.index(item) if isinstance(item, str) else item
        if not 0 <= k < len(self.items):
            raise SpecError(f"no item {item!r} in {self.enum.name}")
        return self._has[k][lift(choice)]

    def size(self, choice: Any) -> Expr:
        """How many items the chosen subset has."""
        return self._size[lift(choice)]
