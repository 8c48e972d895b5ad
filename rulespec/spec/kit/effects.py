"""A queue of pending effects: "do all of this card's effects you can".

Playing a card queues its effects (one flag per effect kind, or a count with
``counted=n``); while any is pending, the player carries them out one at a time, and may
skip the rest only when none of them can be carried out ("as far as possible"), or, where a
reading allows it, as soon as one cannot. Whether they must be carried out in printed order
(the order of the effect enum) or in any order is an interpretation point the spec declares
and hands to the kit; in printed order, an effect that cannot be carried out is passed over
(and dropped) when a later one is carried out.

Two ways to use it: ``declare(possible=, resolve=)`` makes one generic ``resolve_<name>
(effect)`` action and ``skip_<name>``; or each effect keeps its own action (a buy chooses a
row slot, a raise a board slot) and starts it with ``fx.carry_out(rule, Effect.buy)``, with
``fx.possible_when({...})`` saying when each can be carried out and ``@fx.skip(...)`` the
skip.

Three more shapes a rulebook gives: an *extra* effect (a manta's, a depth's) taken between the
queued ones and carried out before the queue goes on (:meth:`Effects.extra`); a rule that,
under some reading, needs no waiting effect (``carry_out(..., unless=cond)``: scoring "at
will"); and two waiting effects that compete for one resource, where a reading asks that a
choice of one leave the other possible (:meth:`Effects.leave_possible`).

>>> from rulespec.spec import Game
>>> g = Game("demo", title="demo", players=2, source="t")
>>> E = g.enum("E", ["gain", "pay"], source="t")
>>> order = g.interpretation("order", question="?", options={"printed": "t", "any": "t"},
...                          default="printed", source="t")
>>> fx = Effects(g, "pending", E, order=order, source="t")
>>> fx.active().op, fx.none_waiting().op
('not', 'forall')
>>> _ = fx.extra("extra", none=E.pay, allowed=True, source="t")
>>> fx.active().op
'or'
"""

from __future__ import annotations

import contextlib
from typing import Any, Callable

import attrs

from ...ir.errors import SpecError
from ...ir.location import caller_location
from ...ir.nodes import (Enum, Expr, all_of, any_of, exists, forall, if_, implies, lift,
                         not_, ordinal)
from ..builder import Game, RuleBuilder
from ..elements import Interpretation


class Effects:
    """Pending effects of kind ``effects`` (one bool per kind; ``counted=n``: how many of
    each, up to ``n``), carried out by actions the kit declares with :meth:`declare` or by
    the spec's own actions through :meth:`carry_out`; ``order`` is an interpretation point
    with the options ``printed`` and ``any``, or one of those words for a game that fixes
    it."""

    def __init__(self, game: Game, name: str, effects: Enum, *, order: Any,
                 source: str, counted: int | None = None, flow: bool = False,
                 doc: str | None = None, order_source: str | None = None) -> None:
        where = caller_location()
        if isinstance(order, str) and order in ("printed", "any"):
            printed: Any = lift(order == "printed")
        elif isinstance(order, Interpretation) and {"printed", "any"} <= set(order.options):
            printed = order.is_("printed")
        else:
            raise SpecError("order is an interpretation point with the options 'printed' and "
                            "'any' (or one of those words)", element=f"effects {name}",
                            where=where)
        if counted is not None and not (isinstance(counted, int) and counted >= 1
                                        and not isinstance(counted, bool)):
            raise SpecError(f"counted= is how many of one effect may wait at once (an int "
                            f">= 1), got {counted!r}", element=f"effects {name}", where=where)
        self.game, self.name, self.effects, self.order = game, name, effects, order
        self._printed, self.counted, self._flow = printed, counted, flow
        #: where the queue, its conditions and its pause were declared: the sites (for
        #: `rulespec mutate`) of the guards the kit writes into every action
        self._where, self._possible_where, self._pause_where = where, None, None
        self._extra: _Extra | None = None
        kind: Any = bool if counted is None else range(0, counted + 1)
        self.pending = game.field(name, kind, shape=(effects,), source=source, flow=flow,
                                  doc=doc or f"the {name} still to resolve")
        self._possible: dict[int, Any] | None = None
        self._pause: tuple[Expr, str, str | None] | None = None
        #: what the printed-order guard and lapse cite (the point's source by default; a
        #: spec adds the assumption it rests on)
        self._order_source = order_source or (order.source if isinstance(order, Interpretation)
                                              else source)

    def active(self) -> Expr:
        """Some effect is pending (other actions should wait: require ``not_(active())``);
        with :meth:`extra`, the extra effect too."""
        queued = not_(self._queue_empty())
        return queued if self._extra is None else any_of(queued, self.extra_waiting())

    def _queue_empty(self) -> Expr:
        cell = self.pending
        return forall(self.effects, lambda x: cell[x] == 0 if self.counted is not None
                      else not_(cell[x]))

    def _queued(self, effect: Any) -> Expr:
        cell = self.pending[effect]
        return cell if self.counted is None else cell > 0

    # --- an extra effect between the queued ones ------------------------------------------
    def extra(self, name: str, *, none: Any, allowed: Any, source: str,
              doc: str | None = None, resets: dict | None = None,
              rules_source: str | None = None) -> Any:
        """Declare the field ``name`` (of the effect enum, ``none`` when empty) holding the
        effect of an extra action taken while the queue waits (a manta, a depth): where
        ``allowed`` holds (a reading) it is carried out first, before the next queued one
        and whatever their printed order, or skipped alone when it cannot be. ``resets``:
        fields that belong to it (``{source_slot: -1}``), reset once it is done or skipped.
        The spec puts it there with :meth:`put_first`; returns the field. ``source`` is the
        field's, ``rules_source`` what its rules cite (the reading's source; default
        ``source``)."""
        where = caller_location()
        n = lift(none)
        if not (n.op == "const" and n.type.enum is self.effects):
            raise SpecError(f"none= is the member of {self.effects.name} that means 'no "
                            f"effect', got {none!r}", element=f"effects {self.name}",
                            where=where)
        field = self.game.field(name, self.effects, initial=n, flow=self._flow, source=source,
                                doc=doc or f"an extra action's effect, carried out before "
                                           f"the {self.name} go on")
        self._extra = _Extra(field, n, lift(allowed), rules_source or source,
                             dict(resets or {}))
        return field

    def extra_waiting(self) -> Expr:
        """An extra effect waits (never without :meth:`extra`, or where it is not allowed)."""
        if self._extra is None:
            return lift(False)
        x = self._extra
        return all_of(x.allowed, x.field != x.none)

    def put_first(self, rule: RuleBuilder, effect: Any, *, source: str | None = None) -> None:
        """The extra effect ``effect`` waits: carried out before the queue goes on."""
        if self._extra is None:
            raise SpecError("put_first() needs fx.extra(...) first",
                            element=f"effects {self.name}", where=caller_location())
        rule.set(self._extra.field, effect, source=source)

    def _drop_extra(self, rule: RuleBuilder) -> None:
        assert self._extra is not None
        rule.set(self._extra.field, self._extra.none)
        for target, value in self._extra.resets.items():
            rule.set(target, value)

    def queue(self, rule: RuleBuilder, *members: Any, when: Any = True,
              source: str | None = None) -> None:
        """Add effects to the queue (each where ``when`` holds, e.g. a card table)."""
        for m in members:
            c = lift(when)
            rule.set(self.pending[m], c if c.op != "const" else True, source=source)

    # --- the spec's own actions carry the effects out ---------------------------------------
    def waiting(self, effect: Any = None) -> Expr:
        """``effect`` waits (without one: some effect waits); with :meth:`extra`, while an
        extra effect waits only it does."""
        if effect is None:
            return self.active()
        if self._extra is None:
            return self._queued(effect)
        return if_(self.extra_waiting(), lift(effect) == self._extra.field,
                   self._queued(effect))

    def none_waiting(self) -> Expr:
        """No effect waits: what "the turn may end only when every effect is done" reads."""
        empty = self._queue_empty()
        return empty if self._extra is None else all_of(empty, not_(self.extra_waiting()))

    def idle(self) -> Expr:
        """No effect waits and none is paused (:meth:`paused_while`): the player is free to
        take any other action."""
        parts = [self._queue_empty()]
        if self._pause is not None:
            parts.append(not_(self._pause[0]))
        if self._extra is not None:
            parts.append(not_(self.extra_waiting()))
        return all_of(*parts)

    def add(self, rule: RuleBuilder, effect: Any, n: Any = 1, *,
            source: str | None = None) -> None:
        """Queue ``n`` more of ``effect`` (a member or an expression: ``icon_effect[icon]``;
        ``n`` may be an expression, a card table's count). Without ``counted`` the effect
        just waits."""
        if self.counted is None:
            rule.set(self.pending[effect], True, source=source)
        else:
            rule.add(self.pending[effect], n, source=source)

    def require_done(self, rule: RuleBuilder, *, source: str,
                     text: str = "no effect is waiting") -> None:
        """The rule applies only once every queued effect is carried out or skipped."""
        rule.require(self.none_waiting(), text, source=source)

    def possible_when(self, conditions: dict[Any, Any]) -> None:
        """When each effect can be carried out now: ``{Effect.buy: cond, ...}`` (a member or
        its name; a condition, or a function of nothing returning one, read when first
        needed). Every member needs one; ``False`` for a member that is never an effect."""
        where = caller_location()
        got: dict[int, Any] = {}
        for key, cond in conditions.items():
            member = self.effects[key] if isinstance(key, str) else key
            if not (isinstance(member, Expr) and member.op == "const"
                    and member.type.enum is self.effects):
                raise SpecError(f"{key!r} is not a member of {self.effects.name}",
                                element=f"effects {self.name}", where=where)
            got[member.args[0]] = cond
        missing = [m for i, m in enumerate(self.effects.members) if i not in got]
        if missing:
            raise SpecError(f"possible_when() says nothing of {', '.join(missing)} (give "
                            "False for a member that is never an effect)",
                            element=f"effects {self.name}", where=where)
        self._possible, self._possible_where = got, where

    def paused_while(self, cond: Any, text: str, *, source: str) -> None:
        """No effect is carried out or skipped while ``cond`` holds (an effect being chosen
        in several steps, a scout keeping locations): ``text`` is the refusal."""
        self._pause = (lift(cond), text, source)
        self._pause_where = caller_location()

    def can(self, effect: Any) -> Expr:
        """``effect`` (a member or an expression) can be carried out now."""
        conds = self._conditions(caller_location())
        e = lift(effect)
        if e.op == "const":
            return conds[e.args[0]]
        return any_of(*(all_of(e == self.effects[m], conds[i])
                        for i, m in enumerate(self.effects.members)
                        if not _never(conds[i])))

    def carry_out(self, rule: RuleBuilder, effect: Any, *, source: str | None = None,
                  unless: Any = False) -> None:
        """Start the rule that carries out one waiting ``effect``: it is legal only while
        the effect waits (and, in printed order, once every effect printed before it is
        done or impossible); from here on it counts as done, and in printed order the
        impossible ones before it lapse. It does not test :meth:`possible_when`'s condition
        (some choice can be made): the action's own preconditions say whether *this* choice
        can. An extra effect (:meth:`extra`) is carried out first, out of printed order.
        Where ``unless`` holds (a reading: "may score whenever the turn is free") the rule
        needs no waiting effect and counts none done."""
        where = caller_location()
        conds = self._conditions(where)
        e = lift(effect)
        free = lift(unless)
        free = None if free.op == "const" and free.args[0] is False else free

        def unless_free(cond: Expr) -> Expr:
            return cond if free is None else any_of(free, cond)

        rule.require(unless_free(self.waiting(e)), "the effect is waiting", source=source)
        if self._pause is not None:
            _require_at(rule, self._pause_where, unless_free(not_(self._pause[0])),
                        self._pause[1], self._pause[2])
        known = e.args[0] if e.op == "const" else None  # a member: its place is known
        earlier = [i for i, _ in enumerate(self.effects.members)
                   if not _never(conds[i]) and (known is None or i < known)]
        fixed = self._printed.op == "const"
        ordered = earlier and not (fixed and not self._printed.args[0])
        if ordered:
            blocked = all_of(*(implies(ordinal(e) > i, any_of(
                not_(self._queued(self.effects[self.effects.members[i]])), not_(conds[i])))
                for i in earlier))
            if free is None and self._extra is None:
                guard = blocked if fixed else implies(self._printed, blocked)
            else:
                guard = any_of(*([free] if free is not None else []),
                               *([] if fixed else [not_(self._printed)]),
                               *([self.extra_waiting()] if self._extra is not None else []),
                               blocked)
            _require_at(rule, self._where, guard, "in printed order: the effects printed before "
                        "it are done or impossible", self._order_source)

        def queue_done() -> None:
            if self.counted is None:
                rule.set(self.pending[e], False, source=source)
            else:
                rule.add(self.pending[e], -1, source=source)
            if ordered:
                self._lapse_before(rule, e, known, earlier, fixed)

        def not_free() -> contextlib.AbstractContextManager:
            return contextlib.nullcontext() if free is None else rule.when(not_(free))

        if self._extra is not None:
            first = self.extra_waiting()
            with rule.when(first if free is None else all_of(not_(free), first),
                           source=self._extra.source):
                self._drop_extra(rule)
            with rule.otherwise():
                with not_free():
                    queue_done()
        else:
            with not_free():
                queue_done()

    def _lapse_before(self, rule: RuleBuilder, e: Expr, known: int | None, earlier: list,
                      fixed: bool) -> None:
        """In printed order, the effects printed before ``e`` lapse (they were impossible)."""
        with contextlib.ExitStack() as stack:
            if not fixed:
                stack.enter_context(rule.when(self._printed, source=self._order_source))
            for i in earlier:
                m = self.effects[self.effects.members[i]]
                lapse = False if self.counted is None else 0
                if known is not None:
                    rule.set(self.pending[m], lapse, source=self._order_source)
                else:
                    with rule.when(ordinal(e) > i):
                        rule.set(self.pending[m], lapse, source=self._order_source)

    def leave_possible(self, rule: RuleBuilder, effect: Any, other: Any, *, still: Any,
                       together: Any, when: Any = True, text: str, source: str) -> None:
        """Two waiting effects compete for one resource (a recruit and a buy, for coins):
        where ``when`` holds (a reading: "all of them when all can be"), while ``effect``
        and ``other`` both wait and some choice serves both (``together``), this choice of
        ``effect`` must leave ``other`` possible (``still``: ``other``'s condition once this
        choice is paid). ``text`` is the refusal."""
        rule.require(any_of(not_(lift(when)), not_(all_of(
            self._queued(effect), self._queued(other), lift(together))), lift(still)),
            text, source=source)

    def skip(self, name: str = "skip", *, source: str, text: str = "skip the remaining effects",
             as_far_as_possible: Any = True, may_stop: Any = None,
             because: str | None = None, refusal: str | None = None) -> Any:
        """Decorate ``def f(rule)``: the action that drops every waiting effect. It is
        legal while some effect waits and none of them can be carried out; where
        ``as_far_as_possible`` is false, or ``may_stop`` holds (a reading: "use just the
        effects that can be"), also as soon as one waiting effect cannot (``because`` cites
        that precondition, the reading's source say; default ``source``; ``refusal`` its
        text). An extra effect (:meth:`extra`) is skipped alone, when it cannot be carried
        out. ``f`` adds the rule's own guards and what follows (the waiting effects are
        already dropped when it runs)."""
        where = caller_location()
        conds = self._conditions(where)
        kinds = [(self.effects[m], conds[i]) for i, m in enumerate(self.effects.members)
                 if not _never(conds[i])]
        stop = lift(not_(lift(as_far_as_possible)) if may_stop is None else may_stop)
        always_far = stop.op == "not" and stop.args[0].op == "const" and stop.args[0].args[0]

        def deco(fn: Callable[[RuleBuilder], None]) -> Callable:
            @self.game.action(name, text=text, source=source)
            def skip_rule(rule: RuleBuilder) -> None:
                rule.require(self.active(), "an effect is waiting", source=source)
                if self._pause is not None:
                    _require_at(rule, self._pause_where, not_(self._pause[0]), self._pause[1],
                                self._pause[2])
                none_can = not_(any_of(*(all_of(self._queued(m), c) for m, c in kinds)))
                one_fails = any_of(*(all_of(self._queued(m), not_(c)) for m, c in kinds))
                cond = none_can if always_far else any_of(none_can, all_of(stop, one_fails))
                if self._extra is not None:
                    cond = if_(self.extra_waiting(), not_(self.can(self._extra.field)), cond)
                _require_at(rule, self._possible_where, cond, refusal or (
                    "no waiting effect can be carried out" + (
                        "" if always_far else
                        " (or, where the player may stop once one fails, one cannot)")),
                    because or source)
                if self._extra is not None:
                    with rule.when(self.extra_waiting(), source=self._extra.source):
                        self._drop_extra(rule)
                    with rule.otherwise():
                        self._drop_queue(rule)
                else:
                    self._drop_queue(rule)
                fn(rule)
            return fn
        return deco

    def _drop_queue(self, rule: RuleBuilder) -> None:
        for m in self.effects:
            rule.set(self.pending[m], False if self.counted is None else 0)

    def _conditions(self, where: Any) -> dict[int, Expr]:
        if self._possible is None:
            raise SpecError("say when each effect can be carried out first: "
                            "fx.possible_when({Effect.x: condition, ...})",
                            element=f"effects {self.name}", where=where)
        out = {}
        for i, cond in self._possible.items():
            c = lift(cond() if callable(cond) else cond)
            if c.type.kind != "bool":
                raise SpecError(f"possible_when: {self.effects.members[i]} needs a condition, "
                                f"got {c.type}", element=f"effects {self.name}", where=where)
            out[i] = c
        return out

    def declare(self, *, possible: dict[str, Any], resolve: dict[str, Callable[[RuleBuilder],
                None]], source: str, text: str = "resolve {effect}") -> None:
        """Declare ``resolve_<name>(effect)`` and ``skip_<name>``.

        ``possible[member]`` says when that effect can be carried out; ``resolve[member]``
        writes its statements (``def f(rule): ...``).
        """
        if self._extra is not None:
            raise SpecError("declare() has no place for an extra effect (fx.extra): carry the "
                            "effects out with the spec's own actions (fx.carry_out)",
                            element=f"effects {self.name}", where=caller_location())
        missing = set(self.effects.members) - set(possible) | (
            set(self.effects.members) - set(resolve))
        if missing:
            raise SpecError(f"no possible/resolve for {sorted(missing)}",
                            element=f"effects {self.name}")
        pending, effects, printed = self.pending, self.effects, self._printed

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
                         source=self._order_source)
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


def _require_at(rule: RuleBuilder, where: Any, cond: Expr, text: str,
                source: str | None) -> None:
    """A guard the kit writes into an action, sited where the spec declared what it rests
    on (the pause, the order, the conditions): each guard is its own site for `rulespec
    mutate`, not the one line that called the kit."""
    rule.require(cond, text, source=source)
    if where is not None:
        rule.preconditions[-1] = attrs.evolve(rule.preconditions[-1], where=where)


@attrs.frozen
class _Extra:
    """What :meth:`Effects.extra` declared."""
    field: Any
    none: Expr
    allowed: Expr
    source: str
    resets: dict


def _never(cond: Expr) -> bool:
    """A member that is never an effect (``possible_when`` gave it ``False``)."""
    return cond.op == "const" and cond.args[0] is False
