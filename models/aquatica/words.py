"""The words Aquatica's rules use: expressions the actions, the scoring and the laws build from
the state (the player on turn, what can be carried out now, where a location stands). A part
of spec.py, imported where the rules begin; nothing here changes the state.
"""

from rulespec.spec import (all_of, any_of, count, exists, if_, min_, not_, sum_of)

from .spec import (BADGE_POWER, CHAR_ROW, Card, Goal, Loc, LocRow, MAX_LOCATIONS, MainStep,
                   MantaSide, RECRUIT_COST, ROW_LOCATIONS, SPOTS, TRAINED, UPPER_DISCOUNT,
                   UPPER_SLOTS, WildKind, badge, board, book, buy_cost, can_be_done, char_row,
                   coins, conquer_cost, depth, depth_icon, depth_reuse, depths, discard, exploited,
                   goal_spot, hand, icon_badge, icon_badge_type, icon_coins, icon_power, loc_type,
                   lower, main, power, scored, source_slot, to_move, trained, upper,
                   wild_icon, wild_ready, wild_tired)

# =====================================================================================
# Words the rules use (helpers that build expressions)
# =====================================================================================
me = to_move
SLOTS = range(MAX_LOCATIONS)


def goal_taken_by(g, p):
    return exists(range(SPOTS), lambda k: goal_spot[g, k] == p)


def claims_of(p):
    return count(Goal, lambda g: goal_taken_by(g, p))


def filled_spots(g):
    return count(range(SPOTS), lambda k: goal_spot[g, k] != -1)


def locations_on_board(p):
    return count(SLOTS, lambda s: board[p, s] != Loc.none)


def wild_count(p):
    return sum_of(WildKind, lambda w: wild_ready[p, w] + wild_tired[p, w])


def first_free_slot(p):
    """The first empty slot of the player board (only read when there is one)."""
    out = MAX_LOCATIONS - 1
    for s in reversed(range(MAX_LOCATIONS - 1)):
        out = if_(board[p, s] == Loc.none, s, out)
    return out


def fully_raised(p, s):
    return all_of(board[p, s] != Loc.none, depth[p, s] == depths[board[p, s]])


def raisable(p, s):
    """A location that can be raised: on the board, not at its bottom, and not the
    location whose depth gave the raise (L42: 'another location')."""
    return all_of(board[p, s] != Loc.none, depth[p, s] < depths[board[p, s]], s != source_slot)


def top_icon(p, s):
    return depth_icon(board[p, s], depth[p, s])


GOAL_CONDITIONS = [lambda p: hand.size(of=p) >= 8,
                   lambda p: locations_on_board(p) == MAX_LOCATIONS,
                   lambda p: scored.size(of=p) >= 3,
                   lambda p: wild_count(p) >= 2]


def condition(g, p):
    """Goal ``g`` (an expression) is met by player ``p``."""
    return any_of(*(all_of(g == Goal[name], cond(p))
                    for name, cond in zip(Goal.members, GOAL_CONDITIONS)))


def row_card(row, k):
    return if_(row == LocRow.lower, lower[k], upper[min_(k, UPPER_SLOTS - 1)])


def conquer_price(loc, row):
    return conquer_cost[loc] - if_(row == LocRow.upper, UPPER_DISCOUNT, 0)


def can_pay_power(loc, row):
    return power + badge[loc_type[loc]] >= conquer_price(loc, row)


TRAINED_COINS = [{"coin1": 1, "coin2": 2}.get(n, 0) for n in TRAINED]
TRAINED_POWER = [{"power1": 1, "power2": 2}.get(n, 0) for n in TRAINED]


def top_depth_usable(s):
    """The top depth of the location in slot ``s`` of the player on turn may be used now."""
    return all_of(board[me, s] != Loc.none, depth[me, s] < depths[board[me, s]],
                  any_of(depth_reuse.is_("repeat"), not_(exploited[s])))


def within_reach(of_trained, of_icon, of_wild):
    """What the extra actions could still add during the main action (can_be_carried_out=
    with_extras; 0 under at_hand): ready mantas, and the top depth of each location."""
    mantas = sum(if_(trained[me, m] == MantaSide.ready, n, 0)
                 for m, n in enumerate(of_trained) if n)
    wild = sum_of(WildKind, lambda w: wild_ready[me, w] * of_wild(w))
    tops = sum_of(SLOTS, lambda s: if_(top_depth_usable(s), of_icon(top_icon(me, s)), 0))
    return if_(all_of(can_be_done.is_("with_extras"), main == MainStep.during),
               mantas + wild + tops, 0)


def coins_in_reach():
    return coins + within_reach(TRAINED_COINS, lambda i: icon_coins[i],
                                lambda w: icon_coins[wild_icon[w]])


def power_in_reach(t):
    """Power toward conquering a location of type ``t``: power, ``t``'s badge, and (under
    with_extras) what mantas and depths could add."""
    badges = lambda i: if_(all_of(icon_badge[i], icon_badge_type[i] == t), BADGE_POWER, 0)
    return power + badge[t] + within_reach(TRAINED_POWER, lambda i: icon_power[i] + badges(i),
                                           lambda w: icon_power[wild_icon[w]])


def in_rows(cond):
    """Some location of the two rows satisfies ``cond(loc, row)``."""
    return any_of(*(all_of(lower[k] != Loc.none, cond(lower[k], LocRow.lower))
                    for k in range(ROW_LOCATIONS)),
                  *(all_of(upper[k] != Loc.none, cond(upper[k], LocRow.upper))
                    for k in range(UPPER_SLOTS)))


def can_raise():
    return exists(SLOTS, lambda s: raisable(me, s))


def can_score():
    return exists(SLOTS, lambda s: fully_raised(me, s))


POSSIBLE = {
    "scout": lambda: True,
    "recruit": lambda: any_of(*(all_of(char_row[k] != Card.none,
                                       coins_in_reach() >= RECRUIT_COST[k])
                                for k in range(CHAR_ROW))),
    "recruit_free": lambda: char_row[0] != Card.none,
    "buy": lambda: all_of(locations_on_board(me) < MAX_LOCATIONS,
                          in_rows(lambda loc, row: coins_in_reach() >= buy_cost[loc])),
    "conquer": lambda: all_of(locations_on_board(me) < MAX_LOCATIONS, in_rows(
        lambda loc, row: power_in_reach(loc_type[loc]) >= conquer_price(loc, row))),
    "take_back": lambda: discard.size(of=me) > 0,
    "wave": lambda: any_of(can_raise(), can_score()),
    "raise2": can_raise, "raise1": can_raise, "full_raise": can_raise,
    "score": can_score,
    "none": lambda: False,
}


def buy_affordable(money):
    """Some location of the rows could be bought with ``money`` coins (and the board has
    room for it)."""
    return all_of(locations_on_board(me) < MAX_LOCATIONS,
                  in_rows(lambda loc, row: money >= buy_cost[loc]))


def recruit_affordable(money):
    return any_of(*(all_of(char_row[k] != Card.none, money >= RECRUIT_COST[k])
                    for k in range(CHAR_ROW)))


def affords_both():
    """A recruit and a buy could both be paid from the coins at hand (some choice pays for
    both: what partial=most_effects asks to keep possible while both wait)."""
    return any_of(*(all_of(char_row[k] != Card.none, buy_affordable(coins - RECRUIT_COST[k]))
                    for k in range(CHAR_ROW)))


MOST_EFFECTS = book.at("8", "カードの効果をすべて実行できる場合は、すべて実行しなければなりません")
