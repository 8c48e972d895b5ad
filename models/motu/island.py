"""Reading a MOTU island for scoring (§6 - 中間決算, L134-144, and the fate cards' counts,
L94-103): the fully visible symbols of a kind, with the revealed traveller's (L107), the
totem kinds, what each harmony source is worth now, and which cells are beach. Expressions
only: nothing here changes the state (a part of spec.py, imported after the state)."""

from rulespec.spec import Graph, all_of, count, exists, if_, lookup, ordinal, sum_of

from .cards import RULER_BY_CELL, TOTEM_POINTS, TRAVELLER_COCONUTS, TRAVELLER_SYMBOLS
from .spec import C, R, Source, Sym, Terrain, coconuts, revealed, symbol, traveller

CELLS = [(r, c) for r in range(R) for c in range(C)]
GRID = Graph.grid(R, C)


def visible_count(p, sym):
    """Fully visible symbols ``sym`` on player ``p``'s island (L134)."""
    return count(range(R * C), lambda i: symbol[p, i // C, i % C] == sym)


def with_traveller(p, name):
    """Visible symbols of a kind plus those on the revealed traveller (L107)."""
    extra = if_(revealed[p], TRAVELLER_SYMBOLS[name][traveller[p]], 0) \
        if name in TRAVELLER_SYMBOLS else 0
    return visible_count(p, Sym[name]) + extra


def traveller_coconut_count(p):
    return if_(revealed[p], TRAVELLER_COCONUTS[traveller[p]], 0)


def totem_kinds(p):
    return count(Sym, lambda s: all_of(ordinal(s) >= ordinal(Sym.lizard),
                                       ordinal(s) <= ordinal(Sym.shark),
                                       exists(range(R * C),
                                              lambda i: symbol[p, i // C, i % C] == s)))


def pair_points(p, who, what, per):
    """2/3/4 per fisher/hunter/canoe, 0 when they outnumber fish/birds/palms (L139-141)."""
    a, b = with_traveller(p, who), with_traveller(p, what)
    return if_(a > b, 0, per * a)


def source_points(p, s):
    """What source ``s`` is worth for player ``p`` now (the table L138-144)."""
    volcano = sum_of(range(R * C), lambda i: if_(symbol[p, i // C, i % C] == Sym.volcano,
                                                lookup(RULER_BY_CELL, i, name="ruler_points"), 0))
    totems = lookup_totems(totem_kinds(p))
    return if_(s == Source.fishers, pair_points(p, "fisher", "fish", 2),
               if_(s == Source.hunters, pair_points(p, "hunter", "bird", 3),
                   if_(s == Source.canoes, pair_points(p, "canoe", "palm", 4),
                       if_(s == Source.coconuts, coconuts[p] + traveller_coconut_count(p),
                           if_(s == Source.totems, totems, volcano)))))


def lookup_totems(kinds):
    return lookup(TOTEM_POINTS, kinds, name="totem_points")


def is_beach(t):
    return t.is_one_of(Terrain.beach_h, Terrain.beach_v)
