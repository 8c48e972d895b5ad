"""The parts of ``Game`` that say how a game runs and what must hold: whose turn, chance,
the end, scoring and tie-breaks, invariants and laws, and the checking budgets (a mixin of
:class:`~rulespec.spec.Game`)."""

from __future__ import annotations

from typing import Any, Callable, Sequence

from ..ir.errors import SpecError
from ..ir.location import Location, caller_location
from ..ir.nodes import (BOOL, INT, Expr, Reading, Type, all_of, any_of, bound_name, bound_var,
                        const, if_, lift, not_)
from ..ir.walk import with_params
from .elements import Action, Conservation, Invariant, Rule, Scoring, TieBreak
from .rules import _in_element


class Flow:
    """Turn flow, the end, scoring and the properties of a game."""

    def current_player(self, expr: Any, *, source: str) -> None:
        """Whose turn it is (an int expression), when the state is not a chance node."""
        self._current_player = self._flow_rule("current_player", expr, INT, source)

    def chance_node(self, expr: Any, *, source: str) -> None:
        """When the next step is a random event rather than a player's choice."""
        self._chance_node = self._flow_rule("chance_node", expr, BOOL, source)

    def terminal(self, expr: Any, *, source: str) -> None:
        """When the game is over."""
        self._terminal = self._flow_rule("terminal", expr, BOOL, source)

    def _flow_rule(self, what: str, expr: Any, want: Type, source: str) -> Rule:
        where = caller_location()
        self._need_source("rule", what, source, where)
        e = lift(expr)
        if e.type != want:
            raise SpecError(f"must be {want}, got {e.type}", element=f"rule {what}", where=where)
        return Rule(e, source, where)

    def score(self, fn: Callable[[Expr], Any], *, source: str) -> None:
        """Each player's score: ``fn(p)`` for the player variable ``p``."""
        where = caller_location()
        self._need_source("rule", "score", source, where)
        var = Expr("var", ("p", self.players()), INT, None, None, bound_name(fn) or "p")
        with _in_element("rule score"):
            e = lift(fn(var))
        if e.type != INT:
            raise SpecError(f"a score must be an int, got {e.type}", element="rule score",
                            where=where)
        self._scoring = Scoring(var, e, source, where)

    def tie_break(self, fn: Callable[[Expr], Any], *, source: str,
                  lower_wins: bool = False, when: Any = None) -> None:
        """Among players tied on score, compare ``fn(p)``; applied in declaration order.
        ``when`` (a condition, a reading say): the tie-break applies only where it holds
        (elsewhere it ties everyone and the next one decides), so "the lower King number
        wins; without Kings, the last in turn order" is two tie-breaks, each with its
        ``when``, rather than a key written ``0 - p`` under one reading."""
        where = caller_location()
        self._need_source("rule", "tie_break", source, where)
        if not isinstance(lower_wins, bool):
            raise SpecError(f"lower_wins is True or False, got {lower_wins!r} (a tie-break "
                            "that depends on a reading takes when=)", element="rule tie_break",
                            where=where)
        var = Expr("var", ("p", self.players()), INT, None, None, bound_name(fn) or "p")
        e = lift(fn(var))
        if e.type != INT:
            raise SpecError(f"a tie-break key must be an int, got {e.type}",
                            element="rule tie_break", where=where)
        if when is not None:
            c = lift(when)
            if c.type != BOOL:
                raise SpecError(f"a tie-break's when= is a condition, got {c.type}",
                                element="rule tie_break", where=where)
            e = if_(c, e, 0)
        self.tie_breaks.append(TieBreak(var, e, lower_wins, source, where))

    def no_legal_move(self, *, besides: Sequence[str] = ()) -> Expr:
        """The player to move has no legal move: no action declared so far (chance outcomes
        and the actions named in ``besides`` apart, a pass say) has a parameter value whose
        preconditions hold. For "a player who cannot move passes" (a pass action's
        precondition) or "the game ends when the player to move cannot move" (the terminal
        rule); declare it after the actions it speaks of."""
        where = caller_location()
        names = {a.name for a in self.actions}
        unknown = [b for b in besides if b not in names]
        if isinstance(besides, str) or unknown:
            raise SpecError(f"besides= names actions declared before it, got {besides!r}"
                            f" ({', '.join(sorted(names)) or 'none declared yet'})",
                            element="no_legal_move", where=where)
        moves = [a for a in self.actions if not a.chance and a.name not in besides]
        if not moves:
            raise SpecError("no_legal_move() speaks of the player actions declared before it: "
                            "declare them first", element="no_legal_move", where=where)
        some = any_of(*(_some_legal(a) for a in moves))
        said = "the player to move has no legal move" + (
            f" (besides {', '.join(besides)})" if besides else "")
        e = not_(some)
        return Expr(e.op, e.args, e.type, where, None, Reading(said, ()))

    def shared_ties(self, *, source: str) -> None:
        """Players still tied after every tie-break share the victory."""
        where = caller_location()
        self._need_source("rule", "shared_ties", source, where)
        self._shared_ties = Rule(const(True), source, where)

    def invariant(self, name: str, cond: Any, *, source: str, doc: str = "",
                  proof_aid: bool = False) -> None:
        """Something true in every reachable state. ``proof_aid=True``: a fact stated only
        so that the step proofs become inductive, not a rule a reader needs (``rulespec
        info`` and the report list it apart); it is checked and proved like any other."""
        self._condition("invariant", "an invariant", name, cond, source, doc, False, proof_aid)

    def law(self, name: str, cond: Any, *, source: str, doc: str = "",
            proof_aid: bool = False) -> None:
        """Something true in every state within the declared bounds, reachable or not.

        Use it for pure rules over all inputs: a prize table against every possible set of
        totals, a tie-break against every possible score line. ``proof_aid`` as for
        :meth:`invariant`.
        """
        self._condition("law", "a law", name, cond, source, doc, True, proof_aid)

    def _condition(self, kind: str, what: str, name: str, cond: Any, source: str, doc: str,
                   law: bool, proof_aid: bool = False) -> None:
        where = caller_location()
        self._claim(kind, name, where)
        self._need_source(kind, name, source, where)
        c = lift(cond)
        if c.type != BOOL:
            raise SpecError(f"{what} must be a bool, got {c.type}", element=f"{kind} {name}",
                            where=where)
        _not_constant(c, what, f"{kind} {name}", where)
        self.invariants.append(Invariant(name, c, source, where, doc, law=law,
                                         proof_aid=_flag("proof_aid", proof_aid,
                                                         f"{kind} {name}", where)))

    def conservation(self, name: str, total: Any, *, source: str, doc: str = "") -> None:
        """A total (e.g. supply + board + players) that stays at its initial value."""
        where = caller_location()
        self._claim("conservation", name, where)
        self._need_source("conservation", name, source, where)
        t = lift(total)
        if t.type != INT:
            raise SpecError(f"a conserved total must be an int, got {t.type}",
                            element=f"conservation {name}", where=where)
        self.conservations.append(Conservation(name, t, source, where, doc))

    def max_steps(self, n: int, *, source: str, bmc_depth: int | None = None) -> None:
        """Every game ends within ``n`` steps (chance steps included).

        ``bmc_depth`` is how many steps bounded model checking explores by default
        (default: ``n``, at most 9).
        """
        where = caller_location()
        self._need_source("rule", "max_steps", source, where)
        if not isinstance(n, int) or n <= 0:
            raise SpecError("max_steps must be a positive int", element="rule max_steps",
                            where=where)
        self._max_steps = (n, source)
        self._bmc_depth = bmc_depth if bmc_depth is not None else min(n, 9)

    def horizon(self, n: int, *, reason: str, bmc_depth: int | None = None) -> None:
        """For a game whose rules do not bound its length: play and check stop a game at
        ``n`` steps and report it *truncated* (no winner, not a termination failure); the
        termination property is SKIPPED with ``reason``. Use instead of :meth:`max_steps`.
        """
        where = caller_location()
        if not isinstance(n, int) or isinstance(n, bool) or n <= 0 or not reason.strip():
            raise SpecError("horizon needs a positive int and a reason (why the rules do not "
                            "bound the game)", element="rule horizon", where=where)
        self._horizon = (n, reason)
        self._bmc_depth = bmc_depth if bmc_depth is not None else min(n, 9)

    def waive(self, property_name: str, *, reason: str) -> None:
        """Opt out of a generic property: it is reported SKIPPED, with ``reason``."""
        where = caller_location()
        if not property_name.isidentifier() or not reason.strip():
            raise SpecError("waive needs a property name and a reason",
                            element=f"waiver {property_name}", where=where)
        self._waivers[property_name] = reason

    def left_to_play(self, property_name: str, *, reason: str) -> None:
        """Leave an invariant or a conservation law to play: ``rulespec prove`` does not
        try it (it is reported SKIPPED, with ``reason``) and no proof assumes it; ``rulespec
        check`` and the scenarios still test it. For a property whose step proofs are
        beyond the solver (large geometry), so that the rest of the proof finishes."""
        where = caller_location()
        if not property_name.isidentifier() or not reason.strip():
            raise SpecError("left_to_play needs a property name and a reason",
                            element=f"left to play {property_name}", where=where)
        self._left_to_play[property_name] = reason

    def check_examples(self, n: int, *, reason: str) -> None:
        """The default number of Hypothesis examples for ``rulespec check`` (100 if unset):
        long games afford fewer per minute. Say why."""
        where = caller_location()
        if not isinstance(n, int) or n <= 0 or not reason.strip():
            raise SpecError("check_examples needs a positive int and a reason",
                            element="rule check_examples", where=where)
        self._check_examples = n



def _flag(name: str, value: Any, element: str, where: Location | None) -> bool:
    """A yes/no marker of an element (``proof_aid=True``): a bool, or a one-line error."""
    if not isinstance(value, bool):
        raise SpecError(f"{name} is True or False, got {value!r}", element=element, where=where)
    return value


def _not_constant(cond: Expr, what: str, element: str, where: Location | None) -> None:
    """An invariant or law written as a constant (``True``) states nothing about the game
    (and ``False`` can never hold): almost surely a slip, e.g. a Python comparison that was
    evaluated at load instead of built as an expression."""
    if cond.op == "const":
        raise SpecError(f"{what} must be a condition on the state, not the constant "
                        f"{cond.args[0]!r}", element=element, where=where)


def _some_legal(action: Action) -> Expr:
    """Some value of ``action``'s parameters satisfies its preconditions."""
    cond = all_of(*(p.cond for p in action.preconditions))
    if not action.params:
        return cond
    names = {p.name: bound_var(p.domain, p.name) for p in action.params}
    body = with_params(cond, names)
    for p in reversed(action.params):
        body = Expr("exists", (names[p.name], p.domain, body), BOOL)
    return body
