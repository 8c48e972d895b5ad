"""Rankings: "the most X, ties included", how many share it, a player's rank.

Rulebooks say "the player with the most coconuts (ties included) scores 5", "the highest
total among those who met the goal gets the first prize": these builders say it in one
call instead of a quantifier each spec writes its own way. ``values`` is what players are
compared by: a function of a player (``lambda q: beach[q]``), a field indexed by player
(``beach``), or a list with one expression per seat (then ``of`` is a seat number). The
players compared are ``over`` (default: the domain of ``of``, which is known when ``of``
is a score's, quantifier's or action's player variable); ``among`` (a function of a player,
or a list) leaves out the players it is false for.

>>> from rulespec.spec import Game, PLAYERS
>>> g = Game("demo", title="demo", players=(2, 4), source="t")
>>> beach = g.field("beach", range(0, 10), shape=(PLAYERS,), source="t")
>>> from rulespec.ir.english import to_english
>>> from rulespec.spec import exists
>>> to_english(exists(g.players(), lambda p: most(beach, of=p)))
"for some player p: beach[p] is the most of any player's, ties included"
"""

from __future__ import annotations

from typing import Any, Callable

from ..ir.errors import SpecError
from ..ir.location import caller_location
from ..ir.nodes import (INT, Domain, Expr, Field, Reading, all_of, any_of, const, count,
                        domain_of, forall, if_, implies, lift, max_, min_)

__all__ = ["count_most", "fewest", "highest", "lowest", "most", "rank"]


def most(values: Any, *, of: Any, among: Any = None, over: Any = None,
         ties: bool = True) -> Expr:
    """``of`` has the most: no compared player has more (``ties=False``: every other has
    less, "the most, alone"). With ``among``, ``of`` must be one of those compared."""
    return _extreme(values, of, among, over, ties, "most", lambda a, b: a >= b,
                    lambda a, b: a > b)


def fewest(values: Any, *, of: Any, among: Any = None, over: Any = None,
           ties: bool = True) -> Expr:
    """``of`` has the fewest: no compared player has fewer (``ties=False``: alone)."""
    return _extreme(values, of, among, over, ties, "fewest", lambda a, b: a <= b,
                    lambda a, b: a < b)


def count_most(values: Any, *, over: Any, among: Any = None) -> Expr:
    """How many compared players share the most (1 when one player leads alone; 0 only
    when ``among`` leaves nobody)."""
    seats = _seats(values, over, among, caller_location())
    if isinstance(seats, list):
        total: Any = 0
        for k, (mine, ok) in enumerate(seats):
            total = total + if_(all_of(ok, *(implies(o, mine >= v) for j, (v, o)
                                             in enumerate(seats) if j != k)), 1, 0)
        return _read(lift(total), "the number of players with the most {0}", seats[0][0])
    dom, fn, ok = seats
    e = count(dom, lambda q: all_of(ok(q), forall(dom, lambda r: implies(ok(r),
                                                                       fn(r) <= fn(q)))))
    return _read(e, "the number of players with the most {0}", fn(_first(dom)))


def rank(values: Any, *, of: Any, among: Any = None, over: Any = None) -> Expr:
    """``of``'s place, 1 for the most: one more than the number of compared players with
    more (players tied share a place and the next place is skipped: 1, 1, 3)."""
    where = caller_location()
    seats = _seats(values, over if over is not None else _domain_of_player(of, values, where),
                   among, where)
    if isinstance(seats, list):
        k = _seat_index(of, seats, where)
        mine = seats[k][0]
        higher: Any = 0
        for j, (v, ok) in enumerate(seats):
            if j != k:
                higher = higher + if_(all_of(ok, v > mine), 1, 0)
        return _read(lift(higher) + 1, "the place of {0} (1: the most)", mine)
    dom, fn, ok = seats
    p = lift(of)
    e = count(dom, lambda q: all_of(ok(q), fn(q) > fn(p))) + 1
    return _read(e, "the place of {0} (1: the most)", fn(p))


def highest(values: Any, *, over: Any, among: Any = None, none: int = 0) -> Expr:
    """The most any compared player has (``none`` when ``among`` leaves nobody)."""
    return _bound(values, over, among, none, max_, "the most {0} of any player")


def lowest(values: Any, *, over: Any, among: Any = None, none: int = 0) -> Expr:
    """The fewest any compared player has (``none`` when ``among`` leaves nobody)."""
    return _bound(values, over, among, none, min_, "the fewest {0} of any player")


# --- the shared parts ----------------------------------------------------------------------
def _extreme(values: Any, of: Any, among: Any, over: Any, ties: bool, word: str,
             tied: Callable, alone: Callable) -> Expr:
    where = caller_location()
    if not isinstance(ties, bool):
        raise SpecError(f"ties= is True (ties included) or False (alone), got {ties!r}",
                        element=word, where=where)
    seats = _seats(values, over if over is not None else _domain_of_player(of, values, where),
                   among, where)
    if isinstance(seats, list):
        k = _seat_index(of, seats, where)
        e = all_of(seats[k][1], *(implies(ok, (tied if ties else alone)(seats[k][0], v))
                                  for j, (v, ok) in enumerate(seats) if j != k))
        mine = seats[k][0]
    else:
        dom, fn, ok = seats
        p = lift(of)
        if among is None:  # no filter: the quantifier alone (the reading stays on it)
            e = (forall(dom, lambda q: tied(fn(p), fn(q))) if ties else
                 forall(dom, lambda q: implies(q != p, alone(fn(p), fn(q)))))
        elif ties:
            e = all_of(ok(p), forall(dom, lambda q: implies(ok(q), tied(fn(p), fn(q)))))
        else:
            e = all_of(ok(p), forall(dom, lambda q: implies(all_of(q != p, ok(q)),
                                                         alone(fn(p), fn(q)))))
        mine = fn(p)
    if among is not None:
        return e
    said = ("{0} is the %s of any player's, ties included" if ties else
            "{0} is the %s of any player's, alone") % word
    return _read(e, said, mine)


def _bound(values: Any, over: Any, among: Any, none: int, pick: Callable, said: str) -> Expr:
    where = caller_location()
    seats = _seats(values, over, among, where)
    if not isinstance(none, int) or isinstance(none, bool):
        raise SpecError(f"none= is the int it is when nobody is compared, got {none!r}",
                        element="ranking", where=where)
    if isinstance(seats, list):
        cells = seats
    else:
        dom, fn, ok = seats
        cells = [(fn(const(k)), all_of(const(k) < dom.hi, ok(const(k))))
                 for k in range(dom.lo, dom.max_hi)]
    acc: Any = lift(none)
    seen: list = []  # the seats before: once one is compared, ``acc`` is a real value
    for v, ok in cells:
        acc = if_(ok, if_(any_of(*seen), pick(acc, v), v) if seen else v, acc)
        seen.append(ok)
    return _read(lift(acc), said, cells[0][0])


def _seats(values: Any, over: Any, among: Any, where: Any) -> Any:
    """``values`` and ``among`` as a list of (value, compared) seats, or as (domain, value
    function, compared function)."""
    if isinstance(values, (list, tuple)):
        vals = [lift(v) for v in values]
        if not vals or any(v.type != INT for v in vals):
            raise SpecError("a ranking's values are ints, one per seat", element="ranking",
                            where=where)
        oks = [lift(True)] * len(vals) if among is None else list(map(lift, among))
        if len(oks) != len(vals):
            raise SpecError(f"among= has {len(oks)} entries for {len(vals)} seats",
                            element="ranking", where=where)
        return list(zip(vals, oks))
    fn = _as_function(values, where)
    if over is None:
        raise SpecError("say which players are compared: over=game.players()",
                        element="ranking", where=where)
    dom = over if isinstance(over, Domain) else domain_of(over)
    if among is None:
        ok: Callable = lambda q: lift(True)  # noqa: E731
    elif callable(among):
        ok = lambda q: lift(among(q))  # noqa: E731
    else:
        raise SpecError("among= is a function of a player (or a list, one per seat)",
                        element="ranking", where=where)
    probe = lift(fn(_first(dom)))
    if probe.type != INT:
        raise SpecError(f"a ranking compares ints, got {probe.type}", element="ranking",
                        where=where)
    return dom, lambda q: lift(fn(q)), ok


def _as_function(values: Any, where: Any) -> Callable:
    if isinstance(values, Field):
        return lambda q: values[q]
    if callable(values):
        return values
    raise SpecError("a ranking compares values(player): a function, a field indexed by "
                    f"player or a list, got {values!r}", element="ranking", where=where)


def _domain_of_player(of: Any, values: Any, where: Any) -> Domain | None:
    if isinstance(values, (list, tuple)):
        return None
    p = lift(of)
    if p.op in ("var", "param") and isinstance(p.args[1], Domain):
        return p.args[1]
    raise SpecError("of= is not a player variable, so the players compared are unknown: "
                    "say over=game.players()", element="ranking", where=where)


def _seat_index(of: Any, seats: list, where: Any) -> int:
    if not isinstance(of, int) or isinstance(of, bool) or not 0 <= of < len(seats):
        raise SpecError(f"with a list of seats, of= is a seat number 0..{len(seats) - 1}, "
                        f"got {of!r}", element="ranking", where=where)
    return of


def _first(dom: Domain) -> Expr:
    return const(dom.lo)


def _read(e: Expr, text: str, part: Expr) -> Expr:
    """``e``, read by a person as ``text`` (no backend reads it)."""
    if e.op == "const":
        return e
    return Expr(e.op, e.args, e.type, e.where, e.label, Reading(text, (part,)), e.assumed)
