"""What must always hold in Hawaii: the invariants, the round-prize law and the conservation
laws (a part of spec.py, read last)."""

from rulespec.spec import (
    all_of, count, count_most, forall, highest, if_, implies, let_, lookup, max_, not_,
    sum_of, to_int)

from .spec import (
    DOCKS, START_HUT_WIDTH, VILLAGES, book, game, goal_met, islands_needed, ranking_total,
    round_prizes)
from .catalogue import (
    BOARD_DRAWS, CAPS, CODES, COTTAGES, DEAL_ORDER, FISH, GIFT_KINDS, GODS, ISLAND_NAMES, KINDS,
    NAMES, PASS_AREA, PLACE_NAMES, PRIZE, SPEAR, SPOTS, TARGET, TILE_COUNTS, TOKEN_COUNT, VALUE,
    VILLAGE_KINDS, WIDTH)
from .vocabulary import DOCK_LIST, Dock, Founder, Gift, Isl, Kind, Level, Name, Phase, Place
from .state import (
    N, _sum, area_tok, bag, boats, boats_used, caught, deal_step, discard, docks, fish_pool,
    founder, has, in_pile, islands_gone, kahunas, laid, layout_step, lvl2, me, order, pass_by,
    pass_tok, passed, pawn, pending_fish, pending_gift, phase, pos_of, round_, round_total,
    spears, supply, tikis, took, turn_pos, width)
from .villages import count_names, village_exists

# =====================================================================================
# What must always hold
# =====================================================================================
def every_village(body):
    return forall(game.players(), lambda p: forall(range(VILLAGES), lambda v: body(p, v)))


game.invariant(
    "villages_fill_rows_from_the_top",
    every_village(lambda p, v: implies(all_of(v >= 1, village_exists(p, v)),
                                       founder[p, max_(0, v - 1)] != Founder.none)),
    source=book.at("タイルの配置", "新たな村をつくる（各行に初めてタイルを置く）時には上詰めで置かなくてはならない"))
game.invariant(
    "every_village_starts_with_a_cottage",
    every_village(lambda p, v: all_of(
        *(implies(founder[p, v] == Founder[c], has[p, v, Name[c]])
          for c in ["start_hut"] + COTTAGES))),
    source=book.at("タイルの配置", "各村（縦５行のそれぞれの行）の１枚目のタイルは必ずコテージ系のタイルでなくてはならない"),
    doc="the founding tile (always a cottage type, by its enum) is in the village")
game.invariant(
    "tiles_only_in_founded_villages",
    every_village(lambda p, v: implies(founder[p, v] == Founder.none,
                                       all_of(width[p, v] == 0,
                                              forall(Name, lambda n: not_(has[p, v, n]))))),
    source=book.at("タイルの配置", "タイルは左詰めで置かなくてはならない"))
game.invariant(
    "at_most_one_god_per_village",
    every_village(lambda p, v: count_names(p, v, GODS) <= 1),
    source=book.at("タイルの配置", "「神様」タイルは名前が異なっていても、１つの村に１つしか置けない"))
game.invariant(
    "each_god_at_most_once_per_board",
    forall(game.players(), lambda p: all_of(*(
        _sum([to_int(has[p, v, Name[g]]) for v in range(VILLAGES)]) <= 1 for g in GODS))),
    source=book.at("タイルの配置", "同じ名前の「神様」タイルは、村が異なっていても２枚以上置くことはできない"))
game.invariant(
    "village_width_matches_its_tiles",
    every_village(lambda p, v: width[p, v] == _sum(
        [to_int(has[p, v, Name[n]]) * (START_HUT_WIDTH if n == "start_hut" else WIDTH.get(n, 1))
         for n in NAMES])),
    source=book.at("タイルの配置", "１列は１マス分のタイルで埋めることができます"))
game.invariant(
    "level_two_only_on_placed_tiles",
    every_village(lambda p, v: forall(Name, lambda n: implies(lvl2[p, v, n], has[p, v, n]))),
    source=book.at("タイルの配置", "補足２"))
game.invariant(
    "boats_used_at_most_once_per_round",
    forall(game.players(), lambda p: all_of(boats_used[p, Level.I] <= boats[p, Level.I],
                                            boats_used[p, Level.II] <= boats[p, Level.II])),
    source=book.at("ボートの使用", "１つのボートは１ラウンド中に一度しか使えません"))
game.invariant(
    "turn_order_is_a_permutation",
    forall(game.players(), lambda p: count(game.players(), lambda k: order[k] == p) == 1),
    source=book.at("パス", "次ラウンドの手番は１番手"))
game.invariant(
    "pass_spaces_hold_exactly_the_passed_players",
    all_of(forall(game.players(), lambda p: count(range(5), lambda k: pass_by[k] == p)
                  == to_int(passed[p])),
           forall(range(5), lambda k: implies(k >= N, pass_by[k] == -1))),
    source=book.at("パス", "パスエリアはプレイ人数と同じ数だけありますが"),
    doc="next round's turn order is read from these spaces at the round's end")
game.invariant(
    "passed_players_are_off_the_board",
    forall(game.players(), lambda p: implies(passed[p], pawn[p] == PASS_AREA)),
    source=book.at("パス", "パスエリアに自分のコマを置きます"))
game.invariant(
    "the_player_to_move_has_not_passed",
    implies(phase.is_one_of(Phase.play, Phase.fishing, Phase.gift), not_(passed[me])),
    source=book.at("パス", "パスをしたプレイヤーは、そのラウンドではもう二度と手番がこない"))
game.invariant(
    "round_total_is_the_tokens_taken",
    forall(game.players(), lambda p: round_total[p] == _sum(
        [took[p, c] * VALUE[c] + caught[p, c] * FISH[c] for c in CODES])),
    source=book.at("ラウンド目標", "貝を２倍支払ったとしても、受け取る価格トークンの値は２倍にはなりません"))
game.invariant(
    "spear_count_is_the_spear_tokens_taken",
    forall(game.players(), lambda p: spears[p] == _sum([took[p, c] * SPEAR[c] for c in CODES])),
    source=book.at("貝の支払い"))
game.invariant(
    "places_stay_within_their_cap",
    all_of(*(_sum([area_tok[a, c] * VALUE[c] for c in CODES]) <= CAPS[a] for a in range(10))),
    source=book.at("細かいルール", "価格トークンの数字の合計値が各エリアごとに設定されている上限値を超えないように"))
game.invariant(
    "places_hold_at_most_their_spots",
    all_of(*(_sum([area_tok[a, c] for c in CODES]) <= SPOTS[a] for a in range(10))),
    source=book.at("貝の支払い"))
game.invariant(
    "pass_tokens_sorted_and_first_space_empty",
    all_of(pass_tok[0] == 0,
           *(implies(all_of(pass_tok[i] != 0, pass_tok[j] != 0), pass_tok[i] <= pass_tok[j])
             for i in range(1, 5) for j in range(i + 1, 5))),
    source=book.at("パス", "パスエリアの一番左のマスには価格トークンが置かれませんが、２番目以降のマスには右のマスに"
                       "いくにつれて大きい数字の価格トークンが置かれます"))
game.invariant(
    "dealing_stops_when_the_pass_spaces_are_filled",
    implies(phase == Phase.deal, deal_step < BOARD_DRAWS + N - 1),
    source=book.at("パス", "パスエリアはプレイ人数と同じ数だけありますが"),
    doc="the last draw of a round fills the last pass space and ends the deal", proof_aid=True)
game.invariant(
    "pass_spaces_fill_in_order_while_dealing",
    implies(phase == Phase.deal,
            all_of(*(implies(k > deal_step - BOARD_DRAWS, pass_tok[k] == 0) for k in range(1, 5)))),
    source=book.at("パス", "２番目以降のマスには右のマスにいくにつれて大きい数字の価格トークンが置かれます"),
    doc="while tokens are dealt, only the pass spaces already dealt hold a token", proof_aid=True)
game.invariant(
    "places_are_dealt_one_spot_per_draw",
    implies(phase == Phase.deal,
            all_of(*(_sum([area_tok[a, c] for c in CODES])
                     <= lookup([sum(1 for x in DEAL_ORDER[:d] if x == a)
                                for d in range(BOARD_DRAWS + 5)], deal_step,
                               name=f"draws_for_{PLACE_NAMES[a]}_before")
                     for a in range(10)))),
    source=book.at("細かいルール", "価格トークンの数字の合計値が各エリアごとに設定されている上限値を超えないように、価格トークンは置かれます"),
    doc="while dealing, a place holds at most as many tokens as draws it has had this round",
    proof_aid=True)
game.invariant(
    "nobody_has_passed_before_the_turns_begin",
    implies(phase.is_one_of(Phase.layout, Phase.deal, Phase.islands),
            forall(game.players(), lambda p: not_(passed[p]))),
    source=book.at("パス", "パスをしたプレイヤーは、そのラウンドではもう二度と手番がこない"),
    doc="passing belongs to a round's turns: a new round starts with nobody passed",
    proof_aid=True)
game.invariant(
    "docked_islands_are_distinct",
    all_of(*(implies(docks[DOCK_LIST[i]] != Isl.none, docks[DOCK_LIST[i]] != docks[DOCK_LIST[j]])
             for i in range(DOCKS) for j in range(i + 1, DOCKS))),
    source=book.at("島の訪問"))
game.invariant(
    "an_island_is_in_the_pile_or_docked_not_both",
    all_of(not_(in_pile[Isl.none]),
           forall(Isl, lambda i: implies(in_pile[i], forall(Dock, lambda d: docks[d] != i)))),
    source=book.at("島の訪問", "右側に新たにできた空きスペースに新しい島タイルが補充されます"),
    doc="an island drawn from the pile leaves it; 'none' is not an island", proof_aid=True)
game.invariant(
    "islands_are_drawn_only_while_a_dock_is_empty",
    implies(phase == Phase.islands, islands_needed()),
    source=book.at("島の訪問", "右側に新たにできた空きスペースに新しい島タイルが補充されます"),
    doc="the island draws end when the docks are full or the pile is empty", proof_aid=True)
game.invariant(
    "a_fisher_has_a_token_to_take",
    implies(phase == Phase.fishing, pending_fish >= 1),
    source=book.at("釣り", "ボートを使って、支払った「足」の数と同じ数だけ魚トークンを獲得できます"),
    doc="fishing ends with the last token paid for (at least one is paid for)", proof_aid=True)
game.invariant(
    "a_waiting_island_tile_is_in_the_supply",
    implies(phase == Phase.gift,
            all_of(pending_gift != Gift.none,
                   *(implies(pending_gift == Gift[k], supply[Kind[k]] >= 1) for k in GIFT_KINDS))),
    source=book.at("島の訪問", "該当するタイルが残っていない場合は、タイルを獲得することすらできません"),
    doc="an island gives its tile only while one is left; it waits in the supply until placed",
    proof_aid=True)
game.invariant(
    "board_places_are_a_permutation",
    all_of(count(Place, lambda pl: laid[pl]) == layout_step,
           forall(Place, lambda pl: implies(laid[pl], pos_of[pl] < layout_step)),
           *(implies(pos < layout_step,
                     count(Place, lambda pl: all_of(laid[pl], pos_of[pl] == pos)) == 1)
             for pos in range(10)),
           implies(phase == Phase.layout, layout_step < 10),
           implies(phase != Phase.layout, layout_step == 10)),
    source=book.at("ゲーム進行", "メインボードにランダムにタイルが配置されます"),
    doc="the places laid so far sit on distinct positions 0 .. layout_step - 1; once the "
        "layout is over, all ten are laid, one per position")
game.invariant(
    "nothing_is_dealt_before_the_layout_ends",
    implies(phase == Phase.layout,
            all_of(round_ == 1, deal_step == 0,
                   *(pass_tok[k] == 0 for k in range(5)),
                   *(area_tok[a, c] == 0 for a in range(10) for c in CODES))),
    source=book.at("ゲーム進行", "ゲーム開始時、メインボードにランダムにタイルが配置されます"),
    doc="the board is laid before the first price token is drawn", proof_aid=True)
game.invariant(
    "dealt_pass_spaces_hold_a_token",
    implies(phase == Phase.deal,
            all_of(*(implies(k <= deal_step - BOARD_DRAWS, pass_tok[k] != 0)
                     for k in range(1, 5)))),
    source=book.at("パス", "２番目以降のマスには右のマスにいくにつれて大きい数字の価格トークンが置かれます"),
    doc="while dealing, each pass space dealt so far holds a token (none is skipped)",
    proof_aid=True)

# --- the round-goal prize law, for every possible set of totals ------------------------
def _prizes_as_worded(ach, tot, r0):
    """The prize rule as §ラウンド目標 words it: the highest total among those who met the
    goal gets the first prize; if that top is unique, the next total gets the second (all
    tied there); everyone else who met the goal gets the third."""
    best = highest(tot, over=range(5), among=ach, none=-1)
    n_best = count_most(tot, over=range(5), among=ach)
    second = highest(tot, over=range(5), among=[all_of(ach[i], tot[i] < best) for i in range(5)],
                     none=-1)
    return [if_(not_(ach[i]), 0,
                if_(tot[i] == best, lookup(PRIZE[0], r0, name="first_prize"),
                    if_(all_of(n_best == 1, tot[i] == second),
                        lookup(PRIZE[1], r0, name="second_prize"),
                        lookup(PRIZE[2], r0, name="third_prize"))))
            for i in range(5)]


def _named(values, names, body, named=()):
    """``body`` of the values, each computed once (let_): the totals are long expressions,
    and each prize rule reads every player's several times."""
    if not values:
        return body(list(named))
    return let_(values[0], lambda v: _named(values[1:], names[1:], body, (*named, v)),
                name=names[0])


_r0 = round_ - 1
_ach = [goal_met(i, lookup(TARGET, _r0, name="goal_target")) for i in range(5)]
_tot = [ranking_total(i) for i in range(5)]


def _prizes_agree(values):
    tot, ach = values[:5], values[5:]
    by_place, worded = round_prizes(ach, tot, _r0), _prizes_as_worded(ach, tot, _r0)
    return all_of(*(by_place[i] == worded[i] for i in range(5)))


game.law(
    "round_prizes_follow_the_ranking",
    _named(_tot + _ach, [f"seat_{i}_total" for i in range(5)]
           + [f"seat_{i}_met_the_goal" for i in range(5)], _prizes_agree),
    source=book.at("ラウンド目標", "最も多くの価格トークンを集めたプレイヤーは１人で、２番目に多くの価格トークンを集めた"
               "プレイヤーが複数の場合は、２番目に多くの価格トークンを集めたプレイヤー全員が「２位のプレイヤー」が"
               "受け取る勝利点を受け取ります"),
    doc="for 2-5 players, every round and every possible set of round totals and surfers, "
        "the prizes the round end pays by place (1, 1, 3 for ties) equal the rule as the "
        "seed words it: the highest total first, the next second only if the highest is "
        "one player's, the others third (both worked examples)")

# --- conservation: every token and tile is somewhere ---------------------------------
for c in CODES:
    game.conservation(
        f"price_tokens_{VALUE[c]}{'_spear' if SPEAR[c] else ''}_are_conserved",
        bag[c] + _sum([area_tok[a, c] for a in range(10)])
        + count(range(5), lambda k: pass_tok[k] == c) + fish_pool[c]
        + sum_of(game.players(), lambda p: took[p, c] + caught[p, c]),
        source=book.at("細かいルール", "実際のゲームでは価格トークンの裏面が魚トークンになっており"),
        doc=f"bag + places + pass area + cove + players = {TOKEN_COUNT[c]}")
for k in KINDS:
    if k in VILLAGE_KINDS:
        placed = sum_of(game.players(), lambda p, k=k: _sum(
            [to_int(has[p, v, Name[k]]) for v in range(VILLAGES)]))
    elif k == "boat":
        placed = sum_of(game.players(), lambda p: boats[p, Level.I] + boats[p, Level.II])
    elif k == "kahuna":
        placed = sum_of(game.players(), lambda p: kahunas[p])
    else:
        placed = sum_of(game.players(), lambda p: tikis[p])
    game.conservation(
        f"{k}_tiles_are_conserved", supply[Kind[k]] + placed + discard[Kind[k]],
        source=book.at("タイルの購入と配置", "用意されているタイルの数には上限があります"),
        doc=f"supply + placed + discarded = {TILE_COUNTS[k]}")
game.conservation(
    "islands_are_conserved",
    count(Isl, lambda i: in_pile[i]) + count(Dock, lambda d: docks[d] != Isl.none) + islands_gone,
    source=book.at("島の訪問", "訪問した島タイルは無くなります"),
    doc=f"pile + docks + visited = {len(ISLAND_NAMES)}")
