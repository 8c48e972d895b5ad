"""§タイルの配置 (placing tiles) and §タイル効果の詳細 (tile effects) as expressions: which
row a tile may go into, how it is placed, the kahuna and tiki tracks, when a village is valid,
and what a tile gives at its level, summed over a player's villages (a part of spec.py; the
actions that place tiles are in spec.py)."""

from rulespec.spec import (all_of, any_of, called, count, derived, if_, lookup, max_, not_, sum_of,
                           to_int)

from .catalogue import COTTAGES, EXCHANGE, GODS, SURFER_GOAL, TIKI_COLUMNS, WIDTH
from .readings import village_without_tiki
from .spec import COLUMNS, KAHUNA_SHELLS, TIKI_FEET, VILLAGES, book
from .state import _sum, discard, feet, founder, has, kahunas, lvl2, me, shells, tikis, width
from .vocabulary import Dest, Founder, Kind, Name

def by_level(p, v, name: str, amounts: tuple[int, int]):
    """What the tile ``name`` in village ``v`` gives at its level (0 when absent)."""
    n = Name[name]
    return if_(has[p, v, n], if_(lvl2[p, v, n], amounts[1], amounts[0]), 0)


def owned(p, name: str, amounts: tuple[int, int]):
    """The effect of ``name`` summed over the player's villages (effects add up)."""
    return sum_of(range(VILLAGES), lambda v: by_level(p, v, name, amounts))


def exchange_capacity(p):
    return owned(p, "exchange_hut", EXCHANGE)


def surfer_reduction(p):
    return owned(p, "surfer", SURFER_GOAL)


def village_exists(p, v):
    return founder[p, v] != Founder.none


def valid(p, v):
    """§タイルの配置: the village's rightmost tile reaches the column of the leftmost tiki
    (without a tiki: never, or the board's last column — village_without_tiki)."""
    line = if_(village_without_tiki.is_("board_edge"), max_(tikis[p], 1), tikis[p])
    return all_of(village_exists(p, v), line >= 1,
                  width[p, v] + line >= derived(COLUMNS + 1, TIKI_COLUMNS))


def tiles_in(p, v):
    return count(Name, lambda n: has[p, v, n])


def count_names(p, v, names):
    """How many of the tile names ``names`` village ``v`` holds."""
    return _sum([to_int(has[p, v, Name[n]]) for n in names])



def can_place(p, kind: str, r: int):
    """§タイルの配置: may ``kind`` go into village row ``r`` of player ``p``?"""
    n = Name[kind]
    rules = [not_(has[p, r, n])]
    if kind in GODS:
        rules.append(all_of(*(not_(has[p, r, Name[g]]) for g in GODS)))
        rules.append(all_of(*(not_(has[p, v, n]) for v in range(VILLAGES))))
    in_existing = all_of(village_exists(p, r), *rules)
    if kind in COTTAGES and r > 0:
        new_row = all_of(not_(village_exists(p, r)), village_exists(p, r - 1))
        return called(any_of(in_existing, new_row), f"fits_village_{r + 1}")
    return called(in_existing, f"fits_village_{r + 1}")


def placement_ok(p, kind: str, dest):
    """The chosen destination is a legal row, or no row is legal and the tile is discarded."""
    anywhere = any_of(*(can_place(p, kind, r) for r in range(VILLAGES)))
    return any_of(*(all_of(dest == Dest[f"village_{r + 1}"], can_place(p, kind, r))
                    for r in range(VILLAGES)),
                  all_of(dest == Dest.discard, not_(anywhere)))


def place_in_village(rule, kind: str, dest, level_two):
    """Put the tile into the chosen row (founding it if new), or discard it."""
    n = Name[kind]
    for r in range(VILLAGES):
        with rule.when(dest == Dest[f"village_{r + 1}"],
                       source=book.at("タイルの配置", "購入したタイルはすぐに自分の村に配置します")):
            if kind in COTTAGES and r > 0:  # village 1 is founded by the start cottage
                with rule.when(founder[me, r] == Founder.none,
                               source=book.at("タイルの配置", "新たな村をつくる時には上詰めで置かなくてはならない")):
                    rule.set(founder[me, r], Founder[kind])
            rule.set(has[me, r, n], True)
            rule.set(lvl2[me, r, n], level_two)
            rule.add(width[me, r], WIDTH.get(kind, 1))
    with rule.when(dest == Dest.discard,
                   source=book.at("タイルの配置", "そのタイルは保持や配置ができず捨てられる")):
        rule.add(discard[Kind[kind]], 1)


def place_on_track(rule, count, reward, table, kind, where_source, reward_source):
    """Kahunas and tikis fill a printed track of five spots, one after the other; a spot
    may pay a reward at once. With the track full, the tile is discarded."""
    with rule.when(count[me] < len(table), source=where_source):
        rule.add(reward[me], lookup(table, count[me], name=f"{kind}_track_reward"),
                 source=reward_source)
        rule.add(count[me], 1)
    with rule.otherwise():
        rule.add(discard[Kind[kind]], 1)


def place_kahuna(rule):
    place_on_track(rule, kahunas, shells, KAHUNA_SHELLS, "kahuna",
                   book.at("タイルの配置", "カフナはそれぞれの村の左側に上から順番に置かれます")
                   + "; assumption kahuna_spots",
                   book.at("タイルの配置", "「貝」が描かれている場所にカフナを配置すると"))


def place_tiki(rule):
    place_on_track(rule, tikis, feet, TIKI_FEET, "tiki",
                   book.at("タイルの配置", "ティキは右詰めで配置されていきます") + "; assumption kahuna_spots",
                   book.at("タイルの配置", "「足」が描かれている場所にティキを配置すると"))
