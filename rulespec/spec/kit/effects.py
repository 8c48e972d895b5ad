"""A queue of pending effects: "do all of this card's effects you can".

Playing a card queues its effects (one flag per effect kind); while any is pending, the
player resolves them one at a time with a ``resolve`` action, and may skip the rest only
when none of them can be carried out. Whether they must be resolved in printed order
(the order of the effect enum) or in any order is an interpretation point the spec
declares and hands to the kit; in printed order, an effect that cannot be carried out is
passed over (and dropped) when a later one is resolved.

>>> from rulespec.spec import Game
>>> g = Game("demo", title="demo", players=2, source="t")
>>> E = g.enum("E", ["gain", "pay"], source="t")
>>> order = g.interpretation("order", question="?", options={"printed": "t", "any": "t"},
...                          default="printed", source="t")
>>> fx = Effects(g, "pending", E, order=order, source="t")
>>> fx.active().op
'or'
"""

from __future__ import annotations

from typing import Any, Callable

from ...ir.errors import SpecError
from ...ir.nodes import (Enum, Expr, all_of, any_of, exists, forall, implies, lift, not_,
                         ordinal)
from ..builder import Game, RuleBuilder
from ..elements import Interpretation


class Effects:
    """Pending effects of kind ``effects`` (one bool per kind), resolved by actions the kit
    declares with :meth:`declare`; ``order`` is an interpretation point with the options
    ``printed`` and ``any``."""

    def __init__(self, game: Game, name: str, effects: Enum, *, order: Interpretation,
                 source: str) -> None:
        if not {"printed", "any"} <= set(order.options):
            raise SpecError("the order point needs the options 'printed' and 'any'",
                            element=f"effects {name}")
        self.game, self.name, self.effects, self.order = game, name, effects, order
        self.pending = game.field(name, bool, shape=(effects,), source=source,
                                  doc=f"the {name} still to resolve")

    def active(self) -> Expr:
        """Some effect is pending (other actions should wait: require ``not_(active())``)."""
        return any_of(*(self.pending[m] for m in self.effects))

    def queue(self, rule: RuleBuilder, *members: Any, when: Any = True,
              source: str | None = None) -> None:
        """Add effects to the queue (each where ``when`` holds, e.g. a card table)."""
        for m in members:
            c = lift(when)
            rule.set(self.pending[m], c if c.op != "const" else True, source=source)

    def declare(self, *, possible: dict[str, Any], resolve: dict[str, Callable[[RuleBuilder],
                None]], source: str, text: str = "resolve {effect}") -> None:
        """Declare ``resolve_<name>(effect)`` and ``skip_<name>``.

        ``possible[member]`` says when that effect can be carried out; ``resolve[member]``
        writes its statements (``def f(rule): ...``).
        """
        missing = set(self.effects.members) - set(possible) | (
            set(self.effects.members) - set(resolve))
        if missing:
            raise SpecError(f"no possible/resolve for {sorted(missing)}",
                            element=f"effects {self.name}")
        pending, effects, printed = self.pending, self.effects, self.order.is_("printed")

        def can(e: Expr) -> Expr:
            return any_of(*(all_of(e == effects[m], lift(possible[m])) for m in effects.members))

        def earlier_blocked(e: Expr) -> Expr:
            return forall(effects, lambda x: implies(ordinal(x) < ordinal(e),
                                                     any_of(not_(pending[x]), not_(can(x)))))

        @self.game.action(f"resolve_{self.name}", params={"effect": effects}, text=text,
                          source=source)
        def resolve_one(rule: RuleBuilder, effect: Expr) -> None:
            rule.require(pending[effect], "the effect is pending", source=source)
            rule.require(can(effect), "the effect can be carried out", source=source)
            rule.require(implies(printed, earlier_blocked(effect)),
                         "in printed order: every earlier pending effect is impossible",
                         source=self.order.source)
            rule.set(pending[effect], False, source=source)
            with rule.when(printed):
                with rule.for_each(effects) as x:
                    with rule.when(ordinal(x) < ordinal(effect)):
                        rule.set(pending[x], False, source=source)
            for m in effects.members:
                with rule.when(effect == effects[m]):
                    resolve[m](rule)

        @self.game.action(f"skip_{self.name}", text=f"skip the {self.name}", source=source)
        def skip(rule: RuleBuilder) -> None:
            rule.require(exists(effects, lambda x: pending[x]), "an effect is pending",
                         source=source)
            rule.require(forall(effects, lambda x: implies(pending[x], not_(can(x)))),
                         "no pending effect can be carried out (skip only when impossible)",
                         source=source)
            with rule.for_each(effects) as x:
                rule.set(pending[x], False, source=source)
