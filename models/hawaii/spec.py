"""Hawaii (Gregory Daigle, Hans im Glück 2011), written in the rulespec language.

Source: the Japanese rules summary of the Board Game Arena version, seed file
``000_3b00b4fc026f56e4.txt`` (its second copy, from line 271, is the current text; cited as
``§<section heading>``). Component facts the summary does not print (tile counts, token
values, which tiles lie on which place, island contents, round tiles, tile effects) are
``game.assume(...)`` with their origin, mostly ``research/components.md``. Both texts are
described in ``docs/sources.md`` (they are not part of the repository).
See ``README.md`` in this folder for the full list and the scope of the model.

This file holds the rules in the order of the seed's §ルール: the numbers it prints, then
§ゲーム進行 (setup: resources and the start cottage; laying the board; at each round start
the price tokens of §細かいルール and the islands; whose turn it is), the four turn actions
in the text's order (§タイルの購入と配置 buying a tile, §釣り fishing, §島の訪問 visiting an
island, §パス passing), §ラウンド目標 and §ラウンド終了と新たなラウンドの開始 (the end of a
round), and §ゲーム終了 (the end and scoring). The folder's parts, in the order this file
imports them: ``catalogue.py`` (the component data and the assumptions), ``vocabulary.py``
(the enums the rules are written in), ``readings.py`` (the interpretation points and
rulesets), ``state.py`` (the fields), ``villages.py`` (§タイルの配置 and the tile effects as
expressions), ``boats.py`` (§ボートの使用: boats and paying a trip), then ``view.py`` (how a
state looks) and ``invariants.py`` (what must always hold; the facts there that exist only
for the prover are marked ``proof_aid=True``, listed in docs/games/hawaii.md) at the end.

Modelling choices that keep the state small (see the brief's measured Z3 encodings):
a village is one Boolean per (player, village, tile name) plus a level-II Boolean, a width
and its first tile (the only tile whose order matters); tikis and kahunas are counts
(they are placed in a fixed order); boats are counts per level plus "used this round"
counts; price tokens are counts per token type and location (type = value + spear mark).
"""

from rulespec.spec import (Game, abs_, all_of, any_of, called, const, count, exists, forall, if_,
                           implies, lookup, max_, min_, not_, rank, to_int)

SEED = "000_3b00b4fc026f56e4.txt"
RESEARCH = "research/components.md"


game = Game("hawaii", title="Hawaii", players=(2, 5), source=f"{SEED} §ゲームの流れ",
            summary="Buy tiles with shells and feet to grow up to five villages, fish and "
                    "visit islands by boat, and meet five round goals; valid villages score "
                    "their tiles and kahunas at the end.")
book = game.text(SEED, cite="§{}")                 # the seed, cited by section heading
notes = game.text(RESEARCH, cite="", quote="{}")   # the research notes, by what they say

# =====================================================================================
# Numbers printed in the rules (constants, each with its source)
# =====================================================================================


def printed_table(name: str, values: list[int], source: str) -> list[int]:
    """Register each entry of a printed table as a named constant; return the entries (each
    the number, carrying its name into the rules that use it)."""
    return [game.constant(f"{name}_{i}", v, source=source) for i, v in enumerate(values, start=1)]


ROUNDS = game.constant("rounds", 5, source=book.at("ゲーム進行", "ゲームは全５ラウンド行われ"))
START_SHELLS = game.constant("start_shells", 13, source=book.at("ゲーム進行", "貝を１３個、足を７個"))
START_FEET = game.constant("start_feet", 7, source=book.at("ゲーム進行", "貝を１３個、足を７個"))
START_FRUIT = printed_table("start_fruit_by_seat", [0, 2, 3, 4, 5], source=book.at(
    "ゲーム進行", "１番手プレイヤーには追加のフルーツの支給なし。２番手プレイヤー：フルーツ２個、"
    "３番手プレイヤー：フルーツ３個、４番手プレイヤー：フルーツ４個、５番手プレイヤー：フルーツ５個"))
VILLAGES = game.constant("villages_per_player", 5,
                         source=book.at("タイルの配置", "１人のプレイヤーは５つまで村を作ることができます"))
COLUMNS = game.constant("board_columns", 7, source=book.at("タイルの配置", "個人ボードは下の画像のように７列に分かれており"))
START_HUT_WIDTH = game.constant("start_cottage_width", 2,
                                source=book.at("タイルの配置", "スタートコテージは１枚で２マス分のタイル"))
# The text prints the rewards of the first three spots of each track; the 4th and 5th
# spots are an assumption (track_spots_4_and_5_pay_nothing, in catalogue.py).
TIKI_FEET = printed_table("tiki_spot_feet", [1, 2, 3], source=book.at(
    "タイルの配置", "右から、１個、２個、３個の「足」を獲得します"))
KAHUNA_SHELLS = printed_table("kahuna_spot_shells", [1, 2, 3], source=book.at(
    "タイルの配置", "上から、１個、２個、３個の「貝」を獲得します"))
KAHUNA_VP = printed_table("kahuna_vp_by_row", [5, 5, 10, 10, 15], source=book.at(
    "タイルの配置", "上から順番に、５点、５点、１０点、１０点、１５点の勝利点を獲得します"))
ISLAND_FEET = printed_table("island_feet", [3, 4, 5, 6], source=book.at(
    "島の訪問", "左の島から順番に３個、４個、５個、６個"))
ISLAND_VP = printed_table("island_vp", [2, 3, 4, 9], source=book.at(
    "島の訪問", "左の島から順番に、２点、３点、４点、９点の勝利点を獲得します"))
DOCKS = game.constant("island_docks", 4, source=book.at("島の訪問", "島は下の画像のように、ラウンド開始時に４つ準備されます"))
CANOE_CAP = game.constant("canoe_capacity", 2, source=book.at("ボートの使用", "「足」を最大で２個まで支払えるボート"))
BOAT_I_CAP = game.constant("boat_I_capacity", 3, source=book.at("ボートの使用", "「レベルⅠのボート」１個で「足」を３個まで支払えます"))
BOAT_II_CAP = game.constant("boat_II_capacity", 4, source=book.at("ボートの使用", "「レベルⅡのボート」１個で、「足」を４個まで支払えます"))
game.constant("boat_II_free_feet", 1, source=book.at("ボートの使用", "足を３個支払えば、足４個分支払ったことになります"))
LAST_ROUND_PASS_VP = game.constant("last_round_first_pass_vp", 2, source=book.at(
    "パス", "第５ラウンド（最終ラウンド）で一番左のマスにコマを置いたプレイヤーのみ、即座に勝利点２点を獲得します"))
SURFER_II_GOAL = game.constant("surfer_II_goal_reduction", 4, source=book.at(
    "タイル効果の詳細", "レベルⅡサーファー（ラウンド目標の達成値を４引き下げる）"))

from .catalogue import (  # noqa: E402 - catalogue.py: the component data, the assumptions
    BEACH, BOARD_DRAWS, CAPS, CODES, COTTAGES, DEAL_ORDER, DIST, EXCHANGE_BOUND,
    EXCHANGE_COUNTS_FRUIT, EXCHANGE_TWO, FEET_INCOME, FISH, FISH_BOUND, FISH_CHOICE, FRUITS,
    FRUIT_INCOME, GIFT_KINDS, HULA_VP, INCOME_FEET, INCOME_SHELLS, IRRIGATION_VP, ISLANDS,
    KANALOA_VP, KANE_VP, KINDS, KU_VP, LAKA_VP, LONG_VP, LONO_VP, PASS_AREA, PELE_FEET,
    PLACE_NAMES, PLACE_OF, PRIZE, SHELL_INCOME, SINGLE_SIDED, SPEAR, SPEAR_VP, TARGET,
    TOKEN_COUNT, TRIP_BOATS, VALUE, VILLAGE_KINDS, NO_REWARD)
TIKI_FEET = TIKI_FEET + NO_REWARD          # the 4th and 5th spots: the assumption
KAHUNA_SHELLS = KAHUNA_SHELLS + NO_REWARD

from .vocabulary import (  # noqa: E402 - vocabulary.py: the enums the rules are written in
    BoatUse, DOCK_LIST, Dest, Dock, FootPay, Founder, Gift, Isl, Kind, Level, Mark,
    Name, PayWith, Phase, Place, TokenCode)
from .readings import (  # noqa: E402 - readings.py: the interpretation points, the rulesets
    RULESET_ENGLISH, beach_return, exchange_direction, exchange_uses, final_tie,
    fish_bonus_foot, fruit_payment, goal_ranking, income_after_last_round, kanaloa_surfers,
    laka_fruit, pele_floor, price_cap)
from .state import (  # noqa: E402 - state.py: the fields, the mover, the number of players
    N, _sum, area_tok, bag, boats, boats_used, canoe_used, caught, deal_step, docks, feet,
    fish_pool, founder, fruit, has, in_pile, islands_gone, kahunas, laid, layout_step, me,
    order, pass_by, pass_tok, passed, pawn, pending_fish, pending_gift, phase, pos_of, round_,
    round_total, shells, spears, supply, tikis, took, turn_pos, vp, width)
from .villages import (  # noqa: E402 - villages.py: §タイルの配置 and tile effects
    by_level, count_names, exchange_capacity, owned, place_in_village, place_kahuna, place_tiki,
    placement_ok, surfer_reduction, tiles_in, valid)
from .boats import (  # noqa: E402 - boats.py: §ボートの使用 and paying a trip
    boat_capacity, boats_available, boats_combine, boats_needed, pay_trip,
    trip_exchange_direction_ok, trip_exchange_ok, trip_payment_ok, use_boats)


# =====================================================================================
# §ゲーム進行, game start: resources and the printed start cottage
# =====================================================================================
@game.setup(source=book.at("ゲーム進行", "第１ラウンド開始時（ゲーム開始時）には貝を１３個、足を７個"))
def setup(rule):
    with rule.for_each(game.players()) as p:
        rule.set(shells[p], START_SHELLS)
        rule.set(feet[p], START_FEET)
        rule.set(fruit[p], lookup(START_FRUIT, p, name="start_fruit"),
                 source=book.at("ゲーム進行", "手番順によって次のように追加のフルーツが配られます"))
        rule.set(founder[p, 0], Founder.start_hut,
                 source=book.at("タイルの配置", "個人ボードにはゲーム開始時にスタートコテージが１つ配置されています"))
        rule.set(has[p, 0, Name.start_hut], True)
        rule.set(width[p, 0], START_HUT_WIDTH)


# =====================================================================================
# §ゲーム進行 and §細かいルール, chance: laying the board; at each round start, dealing
# price tokens and drawing islands
# =====================================================================================
@game.chance(params={"place": Place}, text="lay {place} at the next board position",
             phase=Phase.layout,
             source=book.at("ゲーム進行", "ゲーム開始時、メインボードにランダムにタイルが配置されます"))
def lay_place(rule, place):
    """Game start: the ten places are shuffled onto the ten board positions, one at a time."""
    rule.require(not_(laid[place]), "the place is not laid yet", source=book.at("ゲーム進行"))
    rule.set(pos_of[place], layout_step)
    rule.set(laid[place], True)
    rule.add(layout_step, 1)
    with rule.when(layout_step == 10):
        rule.set(phase, Phase.deal)


def islands_needed():
    return all_of(exists(Dock, lambda d: docks[d] == Isl.none),
                  exists(Isl, lambda i: in_pile[i]))


@game.chance(params={"price": range(2, 7), "mark": Mark}, text="draw price token {price}/{mark}",
             phase=Phase.deal,
             source=book.at("細かいルール", "価格トークンの数字の合計値が各エリアごとに設定されている上限値を超えないように"))
def draw_token(rule, price, mark):
    """Round start: each draw goes to the next spot; a token over the cap becomes a fish."""
    code = TokenCode.of(price, mark)
    rule.require(bag[code] >= 1, "the token is still in the bag", source=book.at("細かいルール"))
    rule.set_weight(bag[code])
    with rule.when(deal_step < BOARD_DRAWS, source=book.at("細かいルール")):
        where = rule.let(lookup(DEAL_ORDER, deal_step, name="deal_order"), name="place")
        area_sum = rule.let(_sum([area_tok[where, c] * VALUE[c] for c in CODES]), name="sum")
        # price_cap=below: a token that would make the sum equal to the cap is flipped too
        cap = lookup(CAPS, where, name="cap") - to_int(price_cap.is_("below"))
        with rule.when(area_sum + price <= cap,
                       source=book.at("足の支払い", "この数字以下になるように各場所に価格トークンが配置されます")):
            rule.add(area_tok[where, code], 1)
        with rule.otherwise():
            rule.add(fish_pool[code], 1,
                     source=book.at("細かいルール", "価格トークンが置かれないエリアが発生する場合があります"))
    with rule.otherwise():
        # pass spaces 2..n get tokens sorted left to right (same number: spear to the right)
        m = rule.let(deal_step - BOARD_DRAWS, name="dealt")        # spaces 1..m hold tokens
        at = rule.let(1 + count(range(1, 5), lambda k: all_of(k <= m, pass_tok[k] <= code)),
                      name="at")
        for k in (3, 2, 1):
            with rule.when(all_of(k >= at, k <= m),
                           source=book.at("細かいルール", "槍付きの価格トークンが右側に置かれます")):
                rule.set(pass_tok[k + 1], pass_tok[k])
        rule.set(pass_tok[at], code, source=book.at("パス", "右のマスにいくにつれて大きい数字の価格トークン"))
    rule.add(bag[code], -1)
    rule.add(deal_step, 1)
    with rule.when(deal_step == BOARD_DRAWS + N - 1,
                   source=book.at("細かいルール", "余った価格トークンが裏返されることで魚トークンとして準備されています")):
        for c in CODES:
            rule.add(fish_pool[c], bag[c])
            rule.set(bag[c], 0)
        rule.set(phase, if_(islands_needed(), Phase.islands, Phase.play))


@game.chance(params={"island": Isl}, text="island {island} comes up", phase=Phase.islands,
             source=book.at("島の訪問", "右側に新たにできた空きスペースに新しい島タイルが補充されます"))
def draw_island(rule, island):
    """Round start: the leftmost empty dock gets a random island from the pile."""
    rule.require(in_pile[island], "the island is still in the pile", source=book.at("島の訪問"))
    docks_ = [Dock[f"dock_{d + 1}"] for d in range(DOCKS)]

    def fill(d):
        with rule.when(docks[docks_[d]] == Isl.none):
            rule.set(docks[docks_[d]], island)
        if d + 1 < DOCKS:
            with rule.otherwise():
                fill(d + 1)
    fill(0)
    rule.set(in_pile[island], False)
    with rule.when(not_(islands_needed())):
        rule.set(phase, Phase.play)


# =====================================================================================
# §ゲーム進行: whose turn it is (one action per turn, in turn order)
# =====================================================================================
def advance_turn(rule):
    """The next player in turn order who has not passed moves (the mover itself if alone)."""
    nxt = turn_pos
    for d in reversed(range(1, 6)):
        k = (turn_pos + d) % N
        nxt = if_(all_of(d <= N, not_(passed[order[k]])), k, nxt)
    rule.set(turn_pos, nxt, source=book.at("ゲーム進行", "各プレイヤーのターンごとに行動していきます"))


game.chance_node(phase.is_one_of(Phase.layout, Phase.deal, Phase.islands),
                 source=book.at("ゲーム進行", "新たなラウンドが開始されると価格トークンや魚トークンがランダムに配置され、島タイルが補充されます"))
game.current_player(me, source=book.at("ゲーム進行", "各プレイヤーのターンごとに行動していきます"))


# =====================================================================================
# §タイルの購入と配置 (turn action 1): buy a tile, pay feet and shells, place it at once
# =====================================================================================
def take_token(rule, who, code):
    """A price token (price side) goes to ``who`` and counts toward the round goal."""
    rule.add(took[who, code], 1)
    rule.add(round_total[who], lookup(VALUE, code, name="value"),
             source=book.at("ラウンド目標", "受け取る価格トークンの値は２倍にはなりません"))
    rule.add(spears[who], lookup(SPEAR, code, name="spears_on"))


def move_cost(place):
    """§足の支払い: feet to reach ``place`` (1 to stay; the beach is free to return to)."""
    tgt = pos_of[place]
    here = pawn[me]
    walk = if_(here == tgt, 1, lookup(DIST, here, tgt, name="distance"))
    via_beach = lookup(DIST[BEACH], tgt, name="distance_from_the_beach")
    steps = if_(beach_return.is_("free"), min_(walk, via_beach), walk)
    least = if_(pele_floor.is_("one_foot"), 1, 0)  # Pele: not below 0, or below 1 foot
    return called(max_(least, steps - owned(me, "pele", PELE_FEET)), "feet_to_move")


def define_buy(kind: str) -> None:
    place = PLACE_OF[kind]
    p_idx = PLACE_NAMES.index(place)
    two_sided = kind not in SINGLE_SIDED
    in_village = kind in VILLAGE_KINDS
    params = {"swap": range(-4, 5), "pay": PayWith, "price": range(2, 7), "mark": Mark}
    if two_sided:
        params["level"] = Level
    if in_village:
        params["dest"] = Dest
    text = (f"buy {kind}" + (" {level}" if two_sided else "")
            + f" at {place} with token {{price}}/{{mark}}, pay {{pay}}, exchange {{swap:+d}}"
            + (" -> {dest}" if in_village else ""))

    def buy(rule, swap, price, mark, level=None, pay=None, dest=None):
        rule.rests_on(SINGLE_SIDED, EXCHANGE_BOUND, EXCHANGE_COUNTS_FRUIT, EXCHANGE_TWO)
        code = TokenCode.of(price, mark)
        double = level == Level.II if two_sided else const(False)  # kahunas, tikis: one side
        cost_feet = move_cost(Place[place])
        cost_shells = if_(double, 2 * price, price)  # §貝の支払い: twice for level II
        mix = pay == PayWith.mix_fruit
        both = pay == PayWith.mix_fruit_both
        # §タイル効果の詳細, exchange cottage: ``swap`` units change hands between the two
        # payments. own (and the fruit_for_* options): +k shell units paid with feet,
        # -k foot units paid with shells; mix_fruit: +k shell units or -k foot units paid
        # with fruit; mix_fruit_both: k units of each payment paid with fruit.
        price_as_feet = called(if_(any_of(mix, both), 0, max_(swap, 0)), "shells_paid_as_feet")
        move_as_shells = called(if_(any_of(mix, both), 0, max_(-swap, 0)), "feet_paid_as_shells")
        fruit_in_price = called(if_(mix, max_(swap, 0), if_(both, swap, 0)), "fruit_in_price")
        fruit_in_move = called(if_(mix, max_(-swap, 0), if_(both, swap, 0)), "fruit_in_move")
        feet_due = called(cost_feet + price_as_feet - move_as_shells - fruit_in_move, "feet_due")
        shell_due = called(cost_shells - price_as_feet + move_as_shells - fruit_in_price,
                           "shell_due")
        fruit_mixed = called(fruit_in_price + fruit_in_move, "fruit_mixed")
        fruit_feet = pay.is_one_of(PayWith.fruit_for_feet, PayWith.fruit_for_both)
        fruit_shells = pay.is_one_of(PayWith.fruit_for_shells, PayWith.fruit_for_both)
        # --- who, when, what is left ----------------------------------------------------
        rule.require(supply[Kind[kind]] >= 1, f"a {kind} tile is left in the supply",
                     source=book.at("タイルの購入と配置", "用意されているタイルの数には上限があります"))
        rule.require(_sum([area_tok[p_idx, c] for c in CODES]) >= 1,
                     f"{place} still has a price token",
                     source=book.at("足の支払い", "価格トークンが無くなった場所には止まれません"))
        rule.require(any_of(swap == 0, abs_(swap) <= exchange_capacity(me),
                            all_of(pay.is_one_of(PayWith.mix_fruit, PayWith.mix_fruit_both),
                                   fruit_payment.is_("per_unit"))),
                     "mixing payments needs enough exchange cottages",
                     source=book.at("タイル効果の詳細", "交換コテージ"))
        rule.require(implies(exchange_direction.is_("price_only"),
                             all_of(move_as_shells == 0,
                                    implies(fruit_in_move >= 1, fruit_payment.is_("per_unit")))),
                     "an exchange cottage mixes only a shell price",
                     source=book.at("タイル効果の詳細", "貝２個の支払いを足２個で支払ったり、貝１個と足１個で"
                                "支払うことができます") + " (interpretation exchange_direction)")
        rule.require(implies(both, any_of(exchange_uses.is_("per_payment"),
                                          fruit_payment.is_("per_unit"))),
                     "an exchange cottage serves one payment a turn",
                     source=f"{RULESET_ENGLISH}: 'each exchange hut may be used only once per "
                            "turn' (interpretation exchange_uses)")
        rule.require(any_of(pay == PayWith.own, fruit[me] >= 1), "paying with fruit needs fruit",
                     source=book.at("画面説明", "フルーツ、貝にも足の代わりにも使える"))
        rule.require(area_tok[p_idx, TokenCode.of(price, Mark.plain)]
                     + area_tok[p_idx, TokenCode.of(price, Mark.spear)] >= 1,
                     "a price token of this value lies on the place",
                     source=book.at("貝の支払い", "どれか１つの価格トークンを選んで"))
        rule.require(area_tok[p_idx, code] >= 1, "the chosen price token lies on the place",
                     source=book.at("貝の支払い", "どれか１つの価格トークンを選んで"))
        rule.require(any_of(swap == 0, all_of(feet_due >= 0, shell_due >= 0)),
                     "no more is exchanged than the payment",
                     source=book.at("タイル効果の詳細", "交換コテージ"))
        # a real mix: fruit for none or all of a payment is 'own' or a fruit_for_* option
        rule.require(all_of(implies(mix, all_of(swap != 0, if_(swap > 0, shell_due >= 1,
                                                                feet_due >= 1))),
                            implies(both, all_of(swap >= 1, shell_due >= 1, feet_due >= 1))),
                     "fruit mixed into a payment pays part of it, not none or all of it",
                     source=book.at("タイル効果の詳細", "貝、足、フルーツを混ぜて支払うことができます"))
        rule.require(all_of(
            implies(fruit_feet, all_of(feet_due >= 1,
                                       fruit[me] >= feet_due + if_(fruit_shells, shell_due, 0))),
            implies(fruit_shells, all_of(shell_due >= 1,
                                         fruit[me] >= shell_due + if_(fruit_feet, feet_due, 0))),
            implies(not_(fruit_feet), feet[me] >= feet_due),
            implies(not_(fruit_shells), shells[me] >= shell_due),
            fruit[me] >= fruit_mixed),
            "the player can pay the feet of the move and the shells of the price",
            source=book.at("タイルの購入と配置", "タイルの場所まで移動するのに必要な足と、タイルの価格分の貝を支払う必要があります"))
        if in_village:
            rule.require(placement_ok(me, kind, dest),
                         "the tile goes into a row the placement rules allow (or, if none "
                         "does, is discarded)",
                         source=book.at("タイルの配置", "これらのルールに従って、タイルを購入したら即時配置しなければいけません"))
        # --- pay ----------------------------------------------------------------------------
        f_due = rule.let(feet_due, name="feet_due")
        s_due = rule.let(shell_due, name="shell_due")
        with rule.when(fruit_feet, source=book.at("画面説明", "フルーツ、貝にも足の代わりにも使える")):
            rule.add(fruit[me], -f_due)
        with rule.otherwise():
            rule.add(feet[me], -f_due, source=book.at("足の支払い"))
        with rule.when(fruit_shells, source=book.at("画面説明", "フルーツ、貝にも足の代わりにも使える")):
            rule.add(fruit[me], -s_due)
        with rule.otherwise():
            rule.add(shells[me], -s_due, source=book.at("貝の支払い"))
        with rule.when(pay.is_one_of(PayWith.mix_fruit, PayWith.mix_fruit_both),
                       source=book.at("タイル効果の詳細", "貝、足、フルーツを混ぜて支払うことができます")):
            rule.add(fruit[me], -fruit_mixed,
                     source=book.at("タイル効果の詳細", "貝、足、フルーツを混ぜて支払うことができます"))
        rule.add(area_tok[p_idx, code], -1, source=book.at("貝の支払い", "価格トークンを取り"))
        take_token(rule, me, code)
        rule.set(pawn[me], pos_of[Place[place]],
                 source=book.at("足の支払い") + "; assumption pawn_on_board_after_purchase")
        # --- take the tile and place it -----------------------------------------------------
        rule.add(supply[Kind[kind]], -1)
        if in_village:
            place_in_village(rule, kind, dest, double)
        elif kind == "boat":
            with rule.when(double, source=book.at("ボートの使用", "「レベルⅡのボート」")):
                rule.add(boats[me, Level.II], 1)
            with rule.otherwise():
                rule.add(boats[me, Level.I], 1, source=book.at("ボートの使用", "「レベルⅠのボート」"))
        elif kind == "kahuna":
            place_kahuna(rule)
        else:
            place_tiki(rule)
        advance_turn(rule)

    buy.__name__ = f"buy_{kind}"
    buy.__doc__ = f"Buy a {kind} tile at {place} and place it at once."
    game.action(f"buy_{kind}", params=params, text=text, phase=Phase.play,
                source=book.at("タイルの購入と配置", "タイルの場所まで移動するのに必要な足と、タイルの価格分の貝を支払う"))(buy)


for _kind in KINDS:
    define_buy(_kind)


# =====================================================================================
# §釣り (turn action 2): fish
# =====================================================================================
@game.action(params={"use": BoatUse, "k": range(1, 8), "pay": FootPay, "swap": range(0, 5)},
             phase=Phase.play,
             text="fish {k} tokens with {use}, pay {pay}, exchange {swap}",
             source=book.at("釣り", "ボートを使って、支払った「足」の数と同じ数だけ魚トークンを獲得できます"))
def fish(rule, use, k, pay, swap):
    """Use a boat: pay the feet of k fish tokens (a level-II boat's bonus foot may count as
    one of them: fish_bonus_foot), then take k fish tokens."""
    bonus = boats_needed(use, 2)
    counts = fish_bonus_foot.is_("counts")
    due = k - if_(counts, bonus, 0)
    rule.require(boats_available(use), "the boat(s) have not been used this round",
                 source=book.at("ボートの使用", "１つのボートは１ラウンド中に一度しか使えません"))
    rule.require(boats_combine(use), "that many boats may be used together",
                 source=book.at("ボートの使用", "選んだボードによって支払える「足」の上限値が決まります")
                 + " (interpretation combine_boats)")
    rule.require(k <= boat_capacity(use) - if_(counts, 0, bonus),
                 "the boat(s) carry that many feet",
                 source=book.at("ボートの使用", "選んだボードによって支払える「足」の上限値が決まります"))
    rule.require(due >= 1, "at least one foot is paid",
                 source=book.at("釣り", "最低でも１個の足を支払わなければオマケの足を使うことはできない"))
    rule.require(_sum([fish_pool[c] for c in CODES]) >= k, "the cove holds k fish tokens",
                 source=book.at("釣り") + "; assumption fish_needs_tokens")
    rule.rests_on(FISH_BOUND, EXCHANGE_BOUND, EXCHANGE_COUNTS_FRUIT, EXCHANGE_TWO, TRIP_BOATS)
    rule.require(trip_exchange_ok(pay, swap), "mixing payments needs enough exchange cottages",
                 source=book.at("タイル効果の詳細", "交換コテージ"))
    rule.require(trip_exchange_direction_ok(pay, swap), "an exchange cottage mixes only a shell price",
                 source=book.at("タイル効果の詳細", "貝２個の支払いを足２個で支払ったり、貝１個と足１個で"
                            "支払うことができます") + " (interpretation exchange_direction)")
    rule.require(trip_payment_ok(due, pay, swap), "the player can pay the feet",
                 source=book.at("釣り"))
    pay_trip(rule, due, pay, swap)
    use_boats(rule, use)
    rule.set(pawn[me], BEACH, source=book.at("ボートの使用", "自分のコマはメインボードのどの場所にあったとしても最初の砂浜に移動します")
             + "; assumption pawn_on_board_after_purchase")
    rule.set(pending_fish, k)
    rule.set(phase, Phase.fishing)


@game.action(params={"n": range(1, 4)}, text="take a fish token with {n} fish",
             phase=Phase.fishing,
             source=book.at("釣り", "魚トークンに描かれている魚の数と同じ価値の価格トークンを獲得します"))
def take_fish(rule, n):
    """Take one of the fish tokens paid for; it counts its fish toward the round goal."""
    rule.rests_on(FISH_CHOICE)
    rule.require(any_of(*(all_of(n == FISH[c], fish_pool[c] >= 1) for c in CODES)),
                 "a fish token with that many fish is in the cove", source=book.at("釣り"))
    for fish_n in (1, 2, 3):
        with rule.when(n == fish_n):
            chain = [c for c in CODES if FISH[c] == fish_n]

            def take(i):
                c = chain[i]
                with rule.when(fish_pool[c] >= 1):
                    rule.add(fish_pool[c], -1)
                    rule.add(caught[me, c], 1)
                if i + 1 < len(chain):
                    with rule.otherwise():
                        take(i + 1)
            take(0)
    rule.add(round_total[me], n, source=book.at("釣り", "魚が１匹描かれていれば、「１」の価格トークンを獲得する"))
    rule.add(pending_fish, -1)
    with rule.when(pending_fish == 0):
        rule.set(phase, Phase.play)
        advance_turn(rule)


# =====================================================================================
# §島の訪問 (turn action 3): visit an island
# =====================================================================================
def dock_table(dock, values):
    return _sum([to_int(dock == DOCK_LIST[d]) * values[d] for d in range(DOCKS)])


@game.action(params={"dock": Dock, "use": BoatUse, "pay": FootPay, "swap": range(0, 5)},
             phase=Phase.play,
             text="visit the island at {dock} with {use}, pay {pay}, exchange {swap}",
             source=book.at("島の訪問", "ボートを使って、支払った「足」の数と対応する島を訪問し"))
def visit_island(rule, dock, use, pay, swap):
    """Pay the island's feet by boat, score its points, take what it shows."""
    rule.rests_on(EXCHANGE_BOUND, EXCHANGE_COUNTS_FRUIT, EXCHANGE_TWO, TRIP_BOATS)
    due = dock_table(dock, ISLAND_FEET) - boats_needed(use, 2)
    rule.require(docks[dock] != Isl.none, "an island lies at the dock",
                 source=book.at("島の訪問", "空いた場所はラウンド終了時まで空きのままです"))
    rule.require(boats_available(use), "the boat(s) have not been used this round",
                 source=book.at("ボートの使用", "１つのボートは１ラウンド中に一度しか使えません"))
    rule.require(boats_combine(use), "that many boats may be used together",
                 source=book.at("ボートの使用", "選んだボードによって支払える「足」の上限値が決まります")
                 + " (interpretation combine_boats)")
    rule.require(dock_table(dock, ISLAND_FEET) <= boat_capacity(use),
                 "the boat(s) carry the island's feet",
                 source=book.at("島の訪問", "最低でも３個の足を支払わなければいけないため"))
    rule.require(trip_exchange_ok(pay, swap), "mixing payments needs enough exchange cottages",
                 source=book.at("タイル効果の詳細", "交換コテージ"))
    rule.require(trip_exchange_direction_ok(pay, swap), "an exchange cottage mixes only a shell price",
                 source=book.at("タイル効果の詳細", "貝２個の支払いを足２個で支払ったり、貝１個と足１個で"
                            "支払うことができます") + " (interpretation exchange_direction)")
    rule.require(trip_payment_ok(due, pay, swap), "the player can pay the feet",
                 source=book.at("島の訪問"))
    pay_trip(rule, due, pay, swap)
    use_boats(rule, use)
    rule.add(vp[me], dock_table(dock, ISLAND_VP),
             source=book.at("島の訪問", "左の島から順番に、２点、３点、４点、９点の勝利点を獲得します"))
    shown = rule.let(docks[dock], name="island")
    for isl, (what, value) in ISLANDS.items():
        with rule.when(shown == Isl[isl], source=book.at("島の訪問", "訪れた島タイルに描かれたものを受け取ります")):
            if what == "fruit":
                rule.add(fruit[me], value)
            elif what == "vp":
                rule.add(vp[me], value)
            else:
                with rule.when(supply[Kind[value]] >= 1,
                               source=book.at("島の訪問", "該当するタイルが残っていない場合は、タイルを獲得することすらできません")):
                    if value in GIFT_KINDS:
                        rule.set(pending_gift, Gift[value])
                        rule.set(phase, Phase.gift)
                    else:
                        rule.add(supply[Kind[value]], -1)
                        if value == "boat":
                            rule.add(boats[me, Level.II], 1)
                        elif value == "kahuna":
                            place_kahuna(rule)
                        else:
                            place_tiki(rule)
    rule.set(docks[dock], Isl.none, source=book.at("島の訪問", "訪問した島タイルは無くなります"))
    rule.add(islands_gone, 1)
    rule.set(pawn[me], BEACH, source=book.at("ボートの使用", "自分のコマはメインボードのどの場所にあったとしても最初の砂浜に移動します")
             + "; assumption pawn_on_board_after_purchase")
    with rule.when(phase == Phase.play):
        advance_turn(rule)


def define_gift(kind: str) -> None:
    def place_gift(rule, dest):
        rule.require(pending_gift == Gift[kind], f"the waiting tile is a {kind}",
                     source=book.at("島の訪問"))
        rule.require(placement_ok(me, kind, dest),
                     "the tile goes into a row the placement rules allow (or, if none does, is "
                     "discarded)",
                     source=book.at("島の訪問", "もし配置できる条件を満たしていない場合は、獲得したタイルを配置することはできずに捨てられます"))
        rule.add(supply[Kind[kind]], -1)
        place_in_village(rule, kind, dest, True)
        rule.set(pending_gift, Gift.none)
        rule.set(phase, Phase.play)
        advance_turn(rule)

    place_gift.__doc__ = f"Place the level-II {kind} an island gave (placement rules apply)."
    game.action(f"place_gift_{kind}", params={"dest": Dest}, phase=Phase.gift,
                text=f"place the island's {kind} II -> {{dest}}",
                source=book.at("島の訪問", "描かれているタイルを即座に受け取り、それを即座に自分の村に配置しなければいけません"))(place_gift)


for _kind in GIFT_KINDS:
    define_gift(_kind)


# =====================================================================================
# §パス (turn action 4), §ラウンド目標, §ラウンド終了と新たなラウンドの開始: pass; the end of
# a round (written before the pass action, which calls it when the last player passes)
# =====================================================================================
def goal_met(i, target):
    """Seat ``i`` is in the game and its price-token total, with its surfers, meets the goal."""
    return all_of(i < N, round_total[i] + surfer_reduction(i) >= target)


def ranking_total(i):
    """What the round-goal prizes rank seat ``i`` by (goal_ranking: the price-token total,
    or the total with the surfers' reductions added)."""
    return round_total[i] + if_(goal_ranking.is_("lowered"), surfer_reduction(i), 0)


def round_prizes(ach, tot, r0):
    """§ラウンド目標: among the players who met the goal, place 1 (the most, ties included)
    takes the first prize, place 2 the second, everyone else the third. Tied players share
    a place and the next one is skipped (1, 1, 3): after a tie for first nobody is second,
    and all tied behind a lone first are (both worked examples)."""
    prizes = []
    for i in range(5):
        place = rank(tot, of=i, among=ach)
        prizes.append(if_(not_(ach[i]), 0,
                          if_(place == 1, lookup(PRIZE[0], r0, name="first_prize"),
                              if_(place == 2, lookup(PRIZE[1], r0, name="second_prize"),
                                  lookup(PRIZE[2], r0, name="third_prize")))))
    return prizes


def tile_income(rule, p):
    """Shells, feet and fruit from the player's income tiles (effects add up)."""
    rule.add(shells[p], owned(p, "shell_hut", SHELL_INCOME["shell_hut"]),
             source=book.at("ラウンド終了と新たなラウンドの開始", "自分の村に貝や足やフルーツが追加で支給されるタイル"))
    rule.add(feet[p], owned(p, "foot_hut", FEET_INCOME["foot_hut"]),
             source=book.at("ラウンド終了と新たなラウンドの開始", "自分の村に貝や足やフルーツが追加で支給されるタイル"))
    rule.add(fruit[p], _sum([owned(p, k, a) for k, a in FRUIT_INCOME.items()]),
             source=book.at("ラウンド終了と新たなラウンドの開始", "自分の村に貝や足やフルーツが追加で支給されるタイル"))


def end_round(rule):
    """§ラウンド目標 and §ラウンド終了と新たなラウンドの開始, for every player at once."""
    r0 = rule.let(round_ - 1, name="r0")
    target = rule.let(lookup(TARGET, r0, name="goal_target"), name="target")
    tot = [ranking_total(i) for i in range(5)]
    ach = [rule.let(goal_met(i, target), name=f"met_goal[{i}]") for i in range(5)]
    prizes = round_prizes(ach, tot, r0)
    for i in range(5):
        prize = prizes[i]
        rule.add(vp[i], prize, source=book.at(
            "ラウンド目標", "最も多くの価格トークンを集めたプレイヤーが複数人いる場合は、２番目に多くの価格トークンを"
            "集めたプレイヤーは「それ以外のプレイヤー」が受け取る勝利点を受け取ることになります"))
        with rule.when(ach[i], source=book.at("タイル効果の詳細", "ロノ: ラウンド目標を達成しなければ追加の勝利点を獲得できません")):
            rule.add(vp[i], owned(i, "lono", LONO_VP))
        rule.add(vp[i], spears[i] * owned(i, "spear_hut", SPEAR_VP),
                 source=book.at("貝の支払い", "特定のタイルとの組み合わせで得点を生み出す可能性がある"))
    with rule.when(round_ < ROUNDS, source=book.at("ゲーム進行", "ゲームは全５ラウンド行われ")):
        with rule.for_each(game.players()) as p:
            rule.add(shells[p], lookup(INCOME_SHELLS, r0, name="income_shells"),
                     source=book.at("ラウンド終了と新たなラウンドの開始", "各プレイヤーに貝と足が支給される"))
            rule.add(feet[p], lookup(INCOME_FEET, r0, name="income_feet"),
                     source=book.at("ラウンド終了と新たなラウンドの開始", "前のラウンドでの目標タイルに記されています"))
            tile_income(rule, p)
            rule.set(canoe_used[p], False, source=book.at("ラウンド終了と新たなラウンドの開始", "ボートが再び使用できるようになる"))
            rule.set(boats_used[p, Level.I], 0)
            rule.set(boats_used[p, Level.II], 0)
            rule.set(passed[p], False)
            rule.set(pawn[p], BEACH, source=book.at("足の支払い", "ラウンド開始時には、必ず砂浜に自分のコマが置かれます"))
            rule.set(round_total[p], 0)
            rule.set(spears[p], 0)
            with rule.for_each(range(1, 11)) as c:
                rule.set(took[p, c], 0)
                rule.set(caught[p, c], 0)
        for k in range(5):
            with rule.when(k < N, source=book.at("ラウンド終了と新たなラウンドの開始", "手番順が、前ラウンドでのパスエリアに従って変化する")):
                rule.set(order[k], max_(0, pass_by[k]))
            rule.set(pass_by[k], -1)
            rule.set(pass_tok[k], 0)
        with rule.for_each(range(1, 11)) as c:
            rule.set(bag[c], lookup(TOKEN_COUNT, c, name="token_count"),
                     source=book.at("ラウンド終了と新たなラウンドの開始", "メインボードやパスエリアに新たに価格トークンが置かれる"))
            rule.set(fish_pool[c], 0, source=book.at("ラウンド終了と新たなラウンドの開始", "魚トークン、島タイルが補充される"))
            with rule.for_each(range(10)) as a:
                rule.set(area_tok[a, c], 0)
        # islands slide left over the gaps; the pile refills the right (chance, next phase)
        for _ in range(DOCKS - 1):
            for d in range(DOCKS - 1):
                with rule.when(docks[DOCK_LIST[d]] == Isl.none,
                               source=book.at("島の訪問", "空いているスペースを埋めるように島タイルが左に詰められ")):
                    rule.set(docks[DOCK_LIST[d]], docks[DOCK_LIST[d + 1]])
                    rule.set(docks[DOCK_LIST[d + 1]], Isl.none)
        rule.add(round_, 1)
        rule.set(turn_pos, 0)
        rule.set(deal_step, 0)
        rule.set(phase, Phase.deal)
    with rule.otherwise():
        with rule.when(income_after_last_round.is_("tiles"),
                       source=book.at("タイル効果の詳細", "ラウンド終了時に任意の資源を得る効果")
                       + " (interpretation income_after_last_round)"):
            with rule.for_each(game.players()) as p:
                tile_income(rule, p)
        rule.set(phase, Phase.over, source=book.at("ゲーム終了", "第５ラウンドが終了するとゲーム終了です"))


@game.action(params={"spot": range(1, 6)}, text="pass to turn-order space {spot}",
             phase=Phase.play,
             source=book.at("パス", "パスをするには、メインボード左下にあるパスエリアに自分のコマを置きます"))
def pass_turn(rule, spot):
    """Leave the round: the space sets next round's turn order and gives its price token."""
    rule.require(spot <= N, "the pass area has one space per player",
                 source=book.at("パス", "パスエリアはプレイ人数と同じ数だけありますが"))
    rule.require(pass_by[spot - 1] == -1, "the space is free", source=book.at("パス"))
    tok = rule.let(pass_tok[spot - 1], name="tok")
    rule.set(passed[me], True, source=book.at("パス", "パスをしたプレイヤーは、そのラウンドではもう二度と手番がこない"))
    rule.set(pass_by[spot - 1], me, source=book.at("パス", "次のラウンドのターン順"))
    with rule.when(tok != 0, source=book.at("パス", "どこに自分のコマを置くかで、次のラウンドのターン順と得られる価格トークンが決まります")):
        take_token(rule, me, tok)
        rule.set(pass_tok[spot - 1], 0)
    with rule.when(all_of(spot == 1, round_ == ROUNDS),
                   source=book.at("パス", "第５ラウンド（最終ラウンド）で一番左のマスにコマを置いたプレイヤーのみ、即座に勝利点２点を獲得します")):
        rule.add(vp[me], LAST_ROUND_PASS_VP)
    rule.set(pawn[me], PASS_AREA)
    with rule.when(forall(game.players(), lambda p: passed[p]),
                   source=book.at("ゲーム進行", "全プレイヤーがパスをすると１ラウンドが終了します")):
        end_round(rule)
    with rule.otherwise():
        advance_turn(rule)


# =====================================================================================
# §ゲーム終了: the end and scoring
# =====================================================================================
game.terminal(phase == Phase.over, source=book.at("ゲーム終了", "第５ラウンドが終了するとゲーム終了です"))


def end_bonus(p):
    """§ゲーム終了: end-of-game tile effects and kahunas count only in valid villages."""
    laka_valid_only = laka_fruit.is_("valid_villages")
    fruit_tiles = _sum([if_(all_of(laka_valid_only, not_(valid(p, v))), 0,
                            count_names(p, v, FRUITS)) for v in range(VILLAGES)])
    valid_surfers = _sum([to_int(all_of(valid(p, v), has[p, v, Name.surfer]))
                          for v in range(VILLAGES)])
    total = 0
    for v in range(VILLAGES):
        bonus = (to_int(kahunas[p] > v) * KAHUNA_VP[v]
                 + by_level(p, v, "long_hut", LONG_VP)
                 + by_level(p, v, "irrigation", IRRIGATION_VP)
                 + by_level(p, v, "hula", HULA_VP) * tiles_in(p, v)
                 + by_level(p, v, "kane", KANE_VP) * count_names(p, v, ["start_hut"] + COTTAGES)
                 + by_level(p, v, "laka", LAKA_VP) * fruit_tiles
                 + by_level(p, v, "kanaloa", KANALOA_VP)
                 * if_(kanaloa_surfers.is_("own_village"), to_int(has[p, v, Name.surfer]),
                       valid_surfers)
                 + by_level(p, v, "ku", KU_VP) * tikis[p])
        total = total + if_(valid(p, v), bonus, 0)
    return total


game.score(lambda p: vp[p] + end_bonus(p),
           source=book.at("ゲーム終了", "ゲーム中に得た勝利点と、これらの効果で得た勝利点を合計して、最も多くの勝利点を獲得していたプレイヤーが勝者です"))
game.tie_break(lambda p: shells[p] + feet[p] + fruit[p], when=final_tie.is_("resources"),
               source="interpretation final_tie: " + notes.at()
               + " (yucata: tie-breaker 'sum of remaining resources')")
game.shared_ties(source=book.at("ゲーム終了", "the text names no tie-breaker: tied players share the win "
                                           "(interpretation final_tie=shared)"))
game.max_steps(
    380,
    source="derived: chance steps <= 10 (layout) + 5 x (19 board draws + 4 pass draws + 4 "
           "islands) = 145; per round, purchases + fish tokens taken <= 25 price tokens, boat "
           "trips <= 5 canoes + 8 boats, island gifts <= 4, passes <= 5, so <= 47 player "
           "steps, 235 in 5 rounds; 145 + 235 = 380",
    bmc_depth=3)  # 1,418 state cells per step: deeper unrollings outgrow a solver query
game.check_examples(20, reason="a game is about 250 steps with ~60 properties checked at "
                               "each: 20 Hypothesis games keep `rulespec check hawaii` under "
                               "a minute; use --examples for a longer search")


from . import view  # noqa: E402,F401 - How Hawaii's state looks (view.py)
from . import invariants  # noqa: E402,F401 - What must always hold in Hawaii (invariants.py)
SPEC = game.build()
