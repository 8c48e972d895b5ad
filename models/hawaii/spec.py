"""Hawaii (Gregory Daigle, Hans im Glück 2011), written in the rulespec language.

Source: the Japanese rules summary of the Board Game Arena version, seed file
``000_3b00b4fc026f56e4.txt`` (its second copy, from line 271, is the current text; cited as
``§<section heading>``). Component facts the summary does not print (tile counts, token
values, which tiles lie on which place, island contents, round tiles, tile effects) are
``game.assume(...)`` with their origin, mostly ``research/components.md``. Both texts are
described in ``docs/sources.md`` (they are not part of the repository).
See ``README.md`` in this folder for the full list and the scope of the model.

Reading guide: vocabulary and component data first, then the state, then the rules phase
by phase (laying the board, dealing price tokens, drawing islands, the four turn actions,
the end of a round), then scoring, the end, invariants and conservation laws.

Modelling choices that keep the state small (see the brief's measured Z3 encodings):
a village is one Boolean per (player, village, tile name) plus a level-II Boolean, a width
and its first tile (the only tile whose order matters); tikis and kahunas are counts
(they are placed in a fixed order); boats are counts per level plus "used this round"
counts; price tokens are counts per token type and location (type = value + spear mark).
"""

import attrs

from rulespec.spec import (PLAYERS, Game, abs_, all_of, any_of, called, count, derived, exists,
                           const, count_most, forall, highest, if_, implies, lookup, max_, min_, not_, option,
                           rank, sum_of, to_int, view)
from rulespec.spec.components import member_of

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
# spots are an assumption (see track_spots_4_and_5_pay_nothing below).
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

# =====================================================================================
# Component data the text does not give (assumptions, each with reason and origin)
# =====================================================================================

# --- the player board's tracks ---------------------------------------------------------
NO_REWARD = game.assume(
    "track_spots_4_and_5_pay_nothing", [0, 0],
    reason="§タイルの配置 prints the feet of the first three tiki spots (右から、１個、２個、３個) "
           "and the shells of the first three kahuna spots (上から、１個、２個、３個); which spots "
           "carry a reward is only drawn (個人ボード足.png, 個人ボードカフナ.png), so the 4th and "
           "5th spots of each track are taken to give nothing",
    origin="INFERENCE from the seed §タイルの配置 (its pictures are not part of the text)")
TIKI_FEET = TIKI_FEET + NO_REWARD
KAHUNA_SHELLS = KAHUNA_SHELLS + NO_REWARD

# --- tiles (components.toml [tiles]) -----------------------------------------------------
GROUPS = ["cottage", "village", "fruit", "god", "aside"]


@attrs.frozen
class TileData:
    """A tile kind as components.toml gives it: its group (補足１ cottages, 補足３ gods, the
    fruits, the other village tiles, and the tiles kept beside the board), how many the
    supply holds, its effect in words and the numbers the effect names (level I, level II)."""

    group: str = attrs.field(validator=member_of(GROUPS))
    count: int
    effect: str
    amounts: list[int] = attrs.field(factory=list)
    end_points: list[int] = attrs.field(factory=list)   # level-II irrigation's end points
    width: int = 1                                      # columns it fills in a village
    two_sided: bool = True                              # a level-II side, bought at double


TILES = game.components("tiles", TileData)
KINDS = list(TILES)
COTTAGES = [k for k in KINDS if TILES[k].group == "cottage"]
FRUITS = [k for k in KINDS if TILES[k].group == "fruit"]
GODS = [k for k in KINDS if TILES[k].group == "god"]
ASIDE_KINDS = [k for k in KINDS if TILES[k].group == "aside"]
VILLAGE_KINDS = [k for k in KINDS if k not in ASIDE_KINDS]
NAMES = ["start_hut"] + VILLAGE_KINDS
TILE_COUNTS = {k: tile.count for k, tile in TILES.items()}
SINGLE_SIDED = [k for k in KINDS if not TILES[k].two_sided]
WIDTH = {k: tile.width for k, tile in TILES.items()}


def amounts(kind: str) -> tuple:
    """The numbers of ``kind``'s effect, (level I, level II)."""
    return tuple(TILES[kind].amounts)


SHELL_INCOME = {"shell_hut": amounts("shell_hut")}
FEET_INCOME = {"foot_hut": amounts("foot_hut")}
FRUIT_INCOME = {"irrigation": amounts("irrigation"), **{f: amounts(f) for f in FRUITS}}
SPEAR_VP = amounts("spear_hut")
EXCHANGE = amounts("exchange_hut")
LONG_VP = amounts("long_hut")
IRRIGATION_VP = tuple(TILES["irrigation"].end_points)
HULA_VP = amounts("hula")
SURFER_GOAL = (TILES["surfer"].amounts[0], SURFER_II_GOAL)
KANE_VP = amounts("kane")
LAKA_VP = amounts("laka")
KANALOA_VP = amounts("kanaloa")
LONO_VP = amounts("lono")
PELE_FEET = amounts("pele")
KU_VP = amounts("ku")

# --- the ten places of the main board (components.toml [places]) -------------------------
@attrs.frozen
class PlaceData:
    """A place of the main board: the tile kinds it sells, its price-token spots, its cap."""

    tiles: list[str] = attrs.field(validator=member_of(KINDS))
    spots: int
    cap: int


PLACES = game.components("places", PlaceData)
PLACE_NAMES = list(PLACES)
PLACE_OF = {k: p for p, place in PLACES.items() for k in place.tiles}
assert sorted(PLACE_OF) == sorted(KINDS), "every tile kind lies on exactly one place"
SPOTS = [PLACES[p].spots for p in PLACE_NAMES]
PlaceNo = game.labels("PlaceNo", PLACE_NAMES,
                      source=book.at("タイルの購入と配置", "次の１０個のエリアに分かれています"))
CAPS = [PLACES[p].cap for p in PLACE_NAMES]
DEAL_ORDER = game.assume(
    "deal_order",
    [i for rnd in range(3) for i, n in enumerate(SPOTS) if n > rnd],
    reason="price tokens are drawn one per spot: first one for every place, then a second "
           "pass for places with two spots, then a third; a token that would push the place's "
           "sum over its cap becomes a fish token (that spot stays empty); places are dealt in "
           "place order since their positions are random anyway",
    origin=notes.at() + " §Hawaii additional facts (goblins.net two-pass dealing; "
           "throatpunchgames.com 'flipped ... placed in the fishing lagoon')")
BOARD_DRAWS = len(DEAL_ORDER)

# --- board geometry --------------------------------------------------------------------
BEACH = 10
PASS_AREA = 11
ADJACENT = game.assume(
    "board_adjacency",
    {0: [1, 2, 3, BEACH], 1: [0, 3, 4, BEACH], 2: [0, 3, 5, 6], 3: [0, 1, 2, 4, 5, 6, 7],
     4: [1, 3, 6, 7], 5: [2, 3, 6, 8], 6: [2, 3, 4, 5, 7, 8, 9], 7: [3, 4, 6, 9],
     8: [5, 6, 9], 9: [6, 7, 8], BEACH: [0, 1]},
    reason="positions 0-1 (lowest row), 2-4, 5-7, 8-9 (top row); neighbours are orthogonal "
           "or exactly diagonal (§足の支払い: 対角線上にあるマスに移動する場合は足を１個); the two "
           "places of the lowest row touch the beach (position 10)",
    origin=notes.at() + " (rows 2-3-3-2, opinionatedgamers.com; beach touches only the 2 "
           "lowest places, pl.doc.boardgamearena.com Gamehelphawaii)")


def _distances() -> list[list[int]]:
    out = []
    for a in range(11):
        dist = {a: 0}
        frontier = [a]
        while frontier:
            nxt = []
            for x in frontier:
                for y in ADJACENT[x]:
                    if y not in dist:
                        dist[y] = dist[x] + 1
                        nxt.append(y)
            frontier = nxt
        out.append([dist[b] for b in range(11)])
    return out


DIST = derived(_distances(), ADJACENT)  # each distance follows from the whole adjacency
DIST.append(DIST[BEACH])  # the pass area (row 11) is never a starting point; keep it total
# the distance from a to b is lookup(DIST, a, b): a table of rows, one index per level

# --- price tokens (components.toml [price_tokens]) ----------------------------------------
# Token codes 1..10 (0 = no token), in the file's order, which is by (value, spear) so that
# sorting codes sorts tokens the way §細かいルール lays them out (same number: the spear
# token to the right).
@attrs.frozen
class TokenData:
    """A kind of price token: its value and spear on the price side, the fish on its back,
    how many there are."""

    value: int
    fish: int
    count: int
    spear: bool = False


TOKEN_TYPES = list(game.components("price_tokens", TokenData).values())
CODES = range(1, 11)
VALUE = [0] + [t.value for t in TOKEN_TYPES]
SPEAR = [0] + [int(t.spear) for t in TOKEN_TYPES]
FISH = [0] + [t.fish for t in TOKEN_TYPES]
TOKEN_COUNT = [0] + [t.count for t in TOKEN_TYPES]
ALL_TOKENS = sum(TOKEN_COUNT)

# --- islands (components.toml [islands]) ---------------------------------------------------
@attrs.frozen
class IslandData:
    """An island tile: it gives fruit or victory points (``amount``), or a tile (``tile``)."""

    gives: str = attrs.field(validator=member_of(["fruit", "vp", "tile"]))
    amount: int = 0
    tile: str | None = attrs.field(default=None, validator=attrs.validators.optional(
        member_of(KINDS)))


ISLANDS = {name: (isl.gives, isl.tile if isl.gives == "tile" else isl.amount)
           for name, isl in game.components("islands", IslandData).items()}
ISLAND_NAMES = list(ISLANDS)
GIFT_KINDS = [v[1] for v in ISLANDS.values() if v[0] == "tile" and v[1] in VILLAGE_KINDS]

# --- round tiles (components.toml [round_tiles]) -------------------------------------------
@attrs.frozen
class RoundTile:
    """A round-goal tile: the target, the prizes (first, second, the others) and the shells
    and feet the next round starts with."""

    target: int
    prizes: list[int]
    income: list[int]


ROUND_TILES = list(game.components("round_tiles", RoundTile).values())
TARGET = [r.target for r in ROUND_TILES]
PRIZE = [[r.prizes[i] for r in ROUND_TILES] for i in range(3)]
INCOME_SHELLS = [r.income[0] if r.income else 0 for r in ROUND_TILES]
INCOME_FEET = [r.income[1] if r.income else 0 for r in ROUND_TILES]

TIKI_COLUMNS = game.assume("tiki_columns",
            "a tiki sits over column 8 - t for the t-th tiki (placed right-aligned); a "
            "village is valid when its width reaches the leftmost tiki's column: width + "
            "tikis >= 8; at most 5 tikis (columns 3-7). A board without a tiki: see the "
            "interpretation point village_without_tiki",
            reason="§タイルの配置 says the rightmost tile must reach the column where a tiki is "
                   "placed and that tikis are placed right-aligned; the start cottage already "
                   "covers columns 1-2",
            origin="INFERENCE from the seed §タイルの配置")
KAHUNA_SPOTS = game.assume("kahuna_spots", "5 kahuna spots, one per village row, filled from the top; a "
            "6th kahuna cannot be placed and is discarded; likewise a 6th tiki",
            reason="§タイルの配置: カフナはそれぞれの村の左側に上から順番に置かれます",
            origin="INFERENCE from the seed §タイルの配置")
game.assume("start_order", "the first round's turn order is player 0, 1, 2, ...",
            reason="the seed does not say how the first player is chosen",
            origin="NOT FOUND")
FISH_CHOICE = game.assume("fish_choice",
            "the fisher chooses each fish token by its fish count",
            reason="fish tokens lie face up in the cove (§釣り); the price side is hidden, so "
                   "tokens with the same fish count are interchangeable",
            origin="INFERENCE from the seed §釣り, §細かいルール")
EXCHANGE_COUNTS_FRUIT = game.assume("exchange_capacity_counts_fruit",
            "with exchange cottages, up to their summed capacity of units of a payment may "
            "be paid with fruit (part of a price, part of a move, or part of a trip's feet), "
            "and the units so paid count against that capacity like shells paid as feet. "
            "Without one, whether fruit may pay part of a payment is the interpretation point "
            "fruit_payment",
            reason="mixing is the exchange cottage's effect (§タイル効果の詳細: 貝、足、フルーツを混ぜて"
                   "支払うことができます); its example counts only shells and feet, so the capacity is "
                   "read as counting every exchanged unit",
            origin="INFERENCE from the seed §タイル効果の詳細")
EXCHANGE_TWO = game.assume("exchange_two_resources",
            "one payment mixes two resources only: shells and feet (exchange +k / -k), or "
            "fruit into the price, or fruit into the move (pay mix_fruit), or fruit into a "
            "trip's feet (pay feet_and_fruit); one purchase never combines a shell/foot swap "
            "with fruit mixed in; fruit mixed into both its price and its move (pay "
            "mix_fruit_both, where exchange_uses or fruit_payment allow it) is the same number "
            "of units in each",
            reason="keeps one exchange parameter per action (a second one would multiply the "
                   "action count); the seed's example only mixes two resources",
            origin="modelling bound; NOT FOUND in the source")
EXCHANGE_BOUND = game.assume("exchange_bound", "at most 4 units of one payment are exchanged",
            reason="a finite action parameter; 4 units need two level-II exchange cottages",
            origin="modelling bound")
FISH_NEEDS_TOKENS = game.assume("fish_needs_tokens",
            "a player may fish for k tokens only if the cove holds at least k",
            reason="the seed does not say what happens when the cove runs short",
            origin="NOT FOUND")
FISH_BOUND = game.assume("fish_bound", "one fishing trip takes at most 7 fish tokens",
            reason="a finite action parameter and fish counter: 7 is what a level-I and a "
                   "level-II boat carry together; two level-II boats (8 feet) or three boats "
                   "could carry more, which the model leaves out",
            origin="modelling bound")
TRIP_BOATS = game.assume("trip_boats_bound", "a trip uses at most three boats (combine_boats=any)",
            reason="a finite action parameter: three boats carry 8-12 feet, more than the "
                   "farthest island's 6 or fish_bound's 7 (a fourth level-II boat would only "
                   "lower the feet paid further)",
            origin="modelling bound")
PAWN_AFTER = game.assume("pawn_on_board_after_purchase",
            "after a purchase the pawn stands on the bought place; fishing and island visits "
            "put it on the beach; passing takes it off the board",
            reason="§足の支払い measures each move from where the pawn stands; §ボートの使用 "
                   "sends the pawn to the beach after a boat trip",
            origin="INFERENCE from the seed")

# =====================================================================================
# Vocabulary
# =====================================================================================
Phase = game.enum("Phase", {
    "layout": "game start: the ten places are laid at random (chance)",
    "deal": "round start: price tokens are drawn for places and pass spaces (chance)",
    "islands": "round start: empty island docks are refilled from the pile (chance)",
    "play": "players take turns",
    "fishing": "the current player takes the fish tokens paid for, one at a time",
    "gift": "the current player places the tile shown on the island just visited",
    "over": "the fifth round has ended",
}, source=book.at("ゲーム進行"))
Place = game.enum("Place", {p: f"the place selling {', '.join(PLACES[p].tiles)}"
                            for p in PLACE_NAMES},
                  source=book.at("タイルの購入と配置", "次の１０個のエリアに分かれています"))
Name = game.enum("Name", {n: f"the {n} village tile" for n in NAMES},
                 source=book.at("タイルの配置", "補足１・補足３"))
Kind = game.enum("Kind", {k: f"the supply stack of {k} tiles" for k in KINDS},
                 source=book.at("タイルの購入と配置", "用意されているタイルの数には上限があります"))
Founder = game.enum("Founder", {"none": "no village in this row yet",
                                **{n: f"the village was founded with a {n}"
                                   for n in ["start_hut"] + COTTAGES}},
                    source=book.at("タイルの配置", "各村の１枚目のタイルは必ずコテージ系のタイル"))
Level = game.enum("Level", {"I": "level I side", "II": "level II side (bought at double price)"},
                  source=book.at("貝の支払い", "価格トークンの数字の２倍の個数の貝を支払うことで"))
Mark = game.enum("Mark", {"plain": "a price token without a spear",
                          "spear": "a price token with a spear"},
                 source=book.at("貝の支払い", "槍（バツ印のような模様）が描かれているもの"))
# token codes by their parts (value, mark), named "6/spear" in states, scenarios and reports
TokenCode = game.codes("TokenCode", (range(2, 7), Mark), first=1, source=book.at(
    "貝の支払い", "価格トークンの中には槍（バツ印のような模様）が描かれているものがあります"))
assert TokenCode.names[1:] == tuple(f"{VALUE[c]}/{'spear' if SPEAR[c] else 'plain'}" for c in CODES)
Dest = game.enum("Dest", {**{f"village_{r + 1}": f"village row {r + 1} (from the top)"
                             for r in range(VILLAGES)},
                          "discard": "the tile cannot be placed anywhere and is discarded"},
                 source=book.at("タイルの配置", "もし購入したタイルが配置できない場合は"))
PayWith = game.enum("PayWith", {
    "own": "feet for the move, shells for the price",
    "fruit_for_feet": "fruit for the move, shells for the price",
    "fruit_for_shells": "feet for the move, fruit for the price",
    "fruit_for_both": "fruit for both",
    # exchange cottage: fruit pays part of one payment (exchange > 0: of the price,
    # exchange < 0: of the move); the rest as with own
    "mix_fruit": "feet for the move, shells for the price, the exchanged units in fruit",
    # exchange units of *both* payments in fruit (exchange > 0: that many of each);
    # legal where exchange_uses=per_payment or fruit_payment=per_unit
    "mix_fruit_both": "feet for the move, shells for the price, the exchanged units of each "
                      "in fruit",
}, source=book.at("画面説明", "フルーツ、貝にも足の代わりにも使えるジョーカーのような資源"))
FootPay = game.enum("FootPay", {"feet": "pay the trip in feet", "fruit": "pay the trip in fruit",
                                "feet_and_fruit": "the exchanged feet in fruit, the rest in feet "
                                                  "(exchange cottage)"},
                    source=book.at("画面説明", "フルーツ、貝にも足の代わりにも使えるジョーカーのような資源"))
BOAT_USES = {  # member -> (canoes, level-I boats, level-II boats)
    "canoe": (1, 0, 0), "boat_I": (0, 1, 0), "boat_II": (0, 0, 1),
    "canoe_and_boat_I": (1, 1, 0), "canoe_and_boat_II": (1, 0, 1),
    "two_boat_I": (0, 2, 0), "boat_I_and_boat_II": (0, 1, 1), "two_boat_II": (0, 0, 2),
    # three boats (combine_boats=any; assumption trip_boats_bound)
    "canoe_and_two_boat_I": (1, 2, 0), "canoe_boat_I_and_boat_II": (1, 1, 1),
    "canoe_and_two_boat_II": (1, 0, 2), "three_boat_I": (0, 3, 0),
    "two_boat_I_and_boat_II": (0, 2, 1), "boat_I_and_two_boat_II": (0, 1, 2),
    "three_boat_II": (0, 0, 3),
}
BoatUse = game.enum("BoatUse", {u: f"use {u.replace('_', ' ')}" for u in BOAT_USES},
                    source=book.at("ボートの使用"))
Dock = game.enum("Dock", {f"dock_{d + 1}": f"the island {ISLAND_FEET[d]} feet away"
                          for d in range(DOCKS)},
                 source=book.at("島の訪問", "左の島から順番に３個、４個、５個、６個"))
Isl = game.enum("Isl", {"none": "no island", **{i: f"island showing {ISLANDS[i][1]}"
                                                 f" ({ISLANDS[i][0]})" for i in ISLAND_NAMES}},
                source=book.at("島の訪問"))
Gift = game.enum("Gift", {"none": "no tile waiting", **{k: f"a level-II {k} from an island"
                                                        for k in GIFT_KINDS}},
                 source=book.at("島の訪問", "このタイルを配置する際にも、「タイル購入時のタイル配置ルール」が通常通り適用されます"))

# =====================================================================================
# Interpretation points: where the text allows more than one reading (each option with
# its source, the default with its reason), and the rulesets that bundle them
# =====================================================================================
beach_return = game.point(
    "beach_return", "May a pawn go back to the beach for free before moving on?",
    source=book.at("足の支払い")
        .says("§Paying feet: each step to a neighbouring place costs one foot (a diagonal "
            "step too, and staying put costs one); wherever your pawn is, going back to the "
            "beach costs nothing -- which the original rules allow and the online version "
            "(BGA) does not."),
    free=book.at("足の支払い", "自分のコマがどこにあっても、砂浜に戻る際には足を支払う必要はありません")
        .says("Wherever your pawn is, you do not have to pay feet to return to the "
            "beach."),
    forbidden=book.at("足の支払い", "本来のルールではこのアクションが実行できるのですが、BGAではなぜかできません")
        .says("The original rules allow this action, but for some reason it "
            "cannot be done on BGA."),
    default="free",
    because="the text states the free return as the rule and reports BGA's refusal "
        "as a deviation of the online version ('for some reason'); the page "
        "itself adds it may just be a missing button")
combine_boats = game.point(
    "combine_boats", "How many boats may be used together for one trip (fishing or an island)?",
    source=book.at("ボートの使用")
        .says("§Using boats: a boat lets you fish or visit an island; the boat you choose caps "
            "the feet you can pay (canoe 2, level-I boat 3, level-II boat 4 with one free "
            "foot); each boat is used once per round. Islands cost 3, 4, 5 and 6 feet."),
    two=option(
        notes.at() + " (BGA Italian help: the 6-feet island with two 3-feet boats, "
        "or the 4-feet boat plus the 2-feet boat paying 5); the seed's 5- and "
        "6-feet islands are out of reach of any single boat (§島の訪問, §ボートの使用)",
        english="BGA's Italian help: reach the 6-feet island with two 3-feet boats, "
                "or pay 5 with the 4-feet boat plus the 2-feet boat."),
    one=book.at("ボートの使用", "選んだボードによって支払える「足」の上限値が決まります")
        .says("The boat you choose sets the most feet you can pay."),
    any="INFERENCE: nothing in the seed or the BGA help limits a trip to two boats "
        "once boats combine; at most three in the model (assumption "
        "trip_boats_bound)",
    default="two",
    because="with one boat per trip the 5- and 6-feet islands could never be visited "
        "(no boat carries more than 4 feet); the only source that describes "
        "combining (BGA's Italian help) combines two, and two reach every island")
final_tie = game.point(
    "final_tie", "Who wins when the highest final scores are tied?",
    source=book.at("ゲーム終了")
        .says("§End of the game: after round five, add the points from tile effects to the "
            "points earned during play; the player with the most victory points wins."),
    shared=book.at("ゲーム終了", "最も多くの勝利点を獲得していたプレイヤーが勝者です (no tie rule)")
        .says("The player with the most victory points is the winner (the text "
            "gives no tie rule)."),
    resources=option(
        notes.at() + " (yucata: English rules' tie-breaker 'sum of remaining "
        "resources')",
        english="Tied players compare the sum of their remaining resources "
                "(shells, feet and fruit)."),
    default="shared",
    because="the source names no tie-breaker, so tied players share the win; the "
        "English rules' tie-breaker is recorded as the other reading")
fish_bonus_foot = game.point(
    "fish_bonus_foot", "Does a level-II boat's bonus foot catch a fish token (pay 1 foot, fish 2)?",
    source=book.at("釣り")
        .says("§Fishing: pay feet by boat and take as many fish tokens as the feet paid; the "
            "level-II boat's bonus foot cannot catch a fish token by itself, because it only "
            "lets you pay one foot less once you pay at least one."),
    counts=option(
        book.at("ボートの使用", "足を３個支払えば、足４個分支払ったことになります") + "; §釣り: "
        "「最低でも１個の足を支払わなければオマケの足を使うことはできない」 (with a foot paid, "
        "the bonus counts)",
        english="Pay 3 feet and you have paid 4; you cannot use the bonus foot unless "
                "you pay at least one foot."),
    paid_only=option(
        book.at("釣り", "魚トークンは支払った「足」の数と同じ数だけ獲得できます") + "; "
        "「オマケの足１個を使って魚トークン１個を獲得する、ということはできません」",
        english="You take as many fish tokens as the feet you paid; you cannot use "
                "the bonus foot to take a fish token."),
    default="counts",
    because="§釣り explains the refusal by the bonus foot being usable only once a foot "
        "is paid (最低でも１個の足を支払わなければ), which implies that with a foot "
        "paid it counts")
village_without_tiki = game.point(
    "village_without_tiki", "Is a village valid on a board without any tiki?",
    source=book.at("タイルの配置")
        .says("§Placing tiles: a village is valid at the end only if its rightmost tile reaches "
            "the column of a tiki; tikis are placed from the right and make villages valid "
            "sooner."),
    invalid=option(
        book.at("タイルの配置", "それぞれの村の一番右に置かれているタイルがティキが置かれている"
                        "列に到達することが条件です") + " (no tiki: no column to reach)",
        english="A village counts when its rightmost tile reaches the column where a "
                "tiki stands."),
    board_edge=option(
        "INFERENCE: the tiki line falls back to the board's last column "
        "(§タイルの配置: 個人ボードは下の画像のように７列に分かれており); no source states it",
        english="(Inference) The player board is divided into 7 columns; without a "
                "tiki, the last column is the line to reach."),
    default="invalid",
    because="the condition names a tiki's column; the seed describes no line without one")
fruit_payment = game.point(
    "fruit_payment", "Without an exchange cottage, may fruit pay part of a payment (1 fruit and 2 "
    "shells for a 3)?",
    source=book.at("画面説明")
        .says("§The screen: shells are money, feet are movement, and fruit is a joker-like "
            "resource usable in place of shells or feet."),
    whole=notes.at() + " (Polish BGA help: a 4-step move costs 4 feet OR 4 fruit); "
        "§タイル効果の詳細: mixing is the exchange cottage's effect",
    per_unit=option(
        book.at("画面説明", "フルーツ、貝にも足の代わりにも使えるジョーカーのような資源です")
        + " (a joker stands in for any one unit)",
        english="Fruit: a joker-like resource that can stand in for shells or for "
                "feet."),
    default="whole",
    because="the only source that says how fruit pays (Polish BGA help) pays whole "
        "payments, and if fruit mixed anyway, the exchange cottage's 貝、足、"
        "フルーツを混ぜて支払う would add nothing for fruit")
exchange_uses = game.point(
    "exchange_uses", "May an exchange cottage serve both payments of one purchase (the move and the "
    "price)?",
    source=book.at("タイル効果の詳細", "交換コテージ")
        .says("§Tile effects, exchange cottage: with it you may mix shells, feet and fruit in "
            "a payment; with a level-II exchange cottage, for example, a payment of 2 shells "
            "may be made with 2 feet, or with 1 shell and 1 foot."),
    once_per_turn=notes.at() + " (yucata, German page: the English rules add 'each "
        "exchange hut may be used only once per turn')",
    per_payment=option(
        book.at("タイル効果の詳細", "貝、足、フルーツを混ぜて支払うことができます")
        + " (no limit on how often); yucata lists the limit as an English deviation "
          "from the German rules",
        english="With this tile you may pay with a mix of shells, feet and fruit."),
    default="once_per_turn",
    because="the only text on how often is the English edition's; the seed's example "
        "uses the cottage for one payment")
goal_ranking = game.point(
    "goal_ranking", "Are the round-goal prizes ranked by the price-token totals, or by the totals "
    "with the surfers' reductions added?",
    source=book.at("ラウンド目標")
        .says("§Round goal: players whose price tokens this round add up to the goal score "
            "points; among them the one with the most price tokens gets the first prize, the "
            "next the second, the others the third."),
    raw=book.at("ラウンド目標", "目標を達成してるプレイヤーのうち、最も多くの価格トークンを集めた"
                                 "プレイヤーは")
        .says("Among the players who met the goal, the one who collected the most "
            "price tokens ..."),
    lowered=option(
        book.at("タイル効果の詳細", "ラウンド目標の達成値を４引き下げる") + " (a lowered goal "
        "counts like a higher total)",
        english="(the level-II surfer) lowers the round goal to reach by 4"),
    default="raw",
    because="the prizes go to whoever collected the most price tokens (最も多くの価格"
        "トークンを集めた); a surfer lowers the goal, not the total")
price_cap = game.point(
    "price_cap", "When a drawn price token would make a place's sum equal to its printed cap, is "
    "it placed or flipped to a fish token?",
    source=book.at("細かいルール")
        .says("§Fine print: price tokens are placed so that the sum on each place does not "
            "exceed its printed cap, so some places may get no token; the leftover tokens are "
            "turned over and become fish tokens."),
    at_most=option(
        book.at("細かいルール", "価格トークンの数字の合計値が各エリアごとに設定されている上限値を"
                        "超えないように") + "; §足の支払い: 「この数字以下になるように」",
        english="Price tokens are placed so that their sum does not exceed each "
                "place's cap; ... so that the sum is at or below this number."),
    below=notes.at() + " (phantasiogames.net: 'chips that equal or exceed the "
        "printed number get flipped over to become fish')",
    default="at_most",
    because="the seed says twice that the sum stays at or below the number "
        "(超えないように, この数字以下); goblins.net and throatpunchgames.com agree")
income_after_last_round = game.point(
    "income_after_last_round", "Do income tiles (shell, foot and fruit tiles) pay once more when round 5 ends?",
    source=book.at("ラウンド終了と新たなラウンドの開始")
        .says("§End of a round and a new round: when a new round starts, players receive "
            "shells and feet (plus what their income tiles give), boats are ready again and "
            "new tokens are dealt; the game ends after round five."),
    none=option(
        book.at("ラウンド終了と新たなラウンドの開始", "新たなラウンドが開始されると、次の勝利が行われます"
                                       "・各プレイヤーに貝と足が支給される（自分の村に貝や足や"
                                       "フルーツが追加で支給されるタイルを置いているプレイヤーは"
                                       "その分も支給される）") + " (no round 6)",
        english="When a new round starts: each player receives shells and feet (and "
                "what their shell, foot and fruit tiles add)."),
    tiles=option(
        book.at("タイル効果の詳細", "「レベルⅡ灌漑タイル」についてはラウンド終了時に任意の資源を得る効果")
        + "; " + notes.at() + " (spielmonster.de: shell hut '+1 shell at end of each "
          "round')",
        english="The level-II irrigation tile's effect of gaining a resource of "
                "choice at the end of a round."),
    default="none",
    because="the seed lists tile income among what a new round brings, and the game "
        "ends after round 5; it matters only for leftover resources "
        "(final_tie=resources)")
laka_fruit = game.point(
    "laka_fruit", "Does Laka count fruit tiles in villages that are not valid?",
    source=book.at("タイル効果の詳細", "ラカ")
        .says("§Tile effects: Laka also scores the fruit tiles in villages other than its own; "
            "Kanaloa scores surfers in valid villages only."),
    all_villages=option(
        book.at("タイル効果の詳細", "ラカ: このタイルが置かれている村以外に置かれているフルーツ"
                           "タイルも得点の対象になります") + " (no condition on the "
        "villages, unlike Kanaloa's 有効な村に配置されたサーファー)",
        english="Laka: fruit tiles in villages other than its own also score."),
    valid_villages="INFERENCE by analogy with §タイル効果の詳細 カナロア and "
        "§ゲーム終了 (end effects count only in valid villages)",
    default="all_villages",
    because="Laka's note names no condition, while the note beside it restricts "
        "Kanaloa to valid villages; the contrast reads as no restriction")

kanaloa_surfers = game.point(
    "kanaloa_surfers", "Does Kanaloa count the surfers of all the player's valid villages, or only a "
    "surfer in its own village?",
    source=book.at("タイル効果の詳細", "カナロア")
        .says("§Tile effects, Kanaloa: surfers in valid villages count toward it, surfers in "
            "villages that are not valid do not."),
    valid_villages=book.at("タイル効果の詳細", "カナロア: 有効な村（村として成立している状態）に配置された"
                                    "サーファーは対象になりますが、有効でない村に配置されたサーファーは"
                                    "効果の対象になりません")
        .says("Kanaloa: surfers placed in valid villages count, surfers placed in "
            "villages that are not valid do not."),
    own_village=option(
        book.at("タイル効果の詳細", "フラダンサー: 得点の対象になるのは、フラダンサータイルが置かれて"
                           "いるのと同じ村だけです") + "; only Laka is noted to count "
        "beyond its village (ラカ: このタイルが置かれている村以外に置かれているフルーツタイルも)",
        english="Hula dancer: only the village the hula dancer lies in scores; "
                "(Laka: fruit tiles in villages other than its own also score)."),
    default="valid_villages",
    because="Kanaloa's own village must be valid for its end effect anyway "
        "(§ゲーム終了), so the note about surfers in villages that are not valid "
        "says something only if surfers outside its village count")
pele_floor = game.point(
    "pele_floor", "Can Pele make a purchase's move cost no feet at all?",
    source=book.at("タイル効果の詳細", "ペレ")
        .says("§Tile effects, Pele: the feet paid for a purchase are reduced; the feet paid for "
            "fishing and island visits are not."),
    zero=option(
        book.at("タイル効果の詳細", "ペレ: タイル購入時に支払う足が軽減されます") + " (no "
        "lower limit named)",
        english="Pele: the feet paid when buying a tile are reduced."),
    one_foot=option(
        book.at("足の支払い", "同じ場所に留まって、その場所で再びタイルを購入する場合でも足を１個"
                       "支払う必要があります") + " (every purchase pays at least one foot)",
        english="Even to stay on the same place and buy there again you must pay one "
                "foot."),
    default="zero",
    because="Pele's note names no lower limit; the one foot of §足の支払い prices a "
        "move (staying put), which is what Pele reduces")
exchange_direction = game.point(
    "exchange_direction", "Does an exchange cottage mix any payment, or only a shell price (feet or "
    "fruit paying part of the shells)?",
    source=book.at("タイル効果の詳細", "交換コテージ")
        .says("§Tile effects, exchange cottage: with it you may mix shells, feet and fruit in "
            "a payment; with a level-II exchange cottage, for example, a payment of 2 shells "
            "may be made with 2 feet, or with 1 shell and 1 foot."),
    any_payment=option(
        book.at("タイル効果の詳細", "交換コテージ: このタイルの効果を使うと、貝、足、フルーツを"
                           "混ぜて支払うことができます") + " (no payment named)",
        english="Exchange cottage: with this tile you may pay with a mix of shells, "
                "feet and fruit."),
    price_only=option(
        book.at("タイル効果の詳細", "貝２個の支払いを足２個で支払ったり、貝１個と足１個で支払う"
                           "ことができます") + " (the example only mixes a shell payment)",
        english="A payment of 2 shells may be made with 2 feet, or with 1 shell and "
                "1 foot."),
    default="any_payment",
    because="the rule names all three resources and no particular payment; the "
        "example shows one case of it")

RULESET_ENGLISH = (notes.at() + " (yucata, German rules page, listing the English rules' "
                   "deviations)")
game.ruleset(
    "rulebook",
    options={"beach_return": "free", "final_tie": "shared"},
    source=book.at("足の支払い", "本来のルールではこのアクションが実行できる") + "; §ゲーム終了",
    doc="The printed rules as the seed reports them: the free return to the beach (the seed's "
        "one note on the printed rules) and no tie-breaker. Every other point keeps its "
        "default, which follows the seed's text.")
game.ruleset(
    "bga",
    options={"beach_return": "forbidden", "fruit_payment": "whole", "combine_boats": "two"},
    source=book.at("足の支払い", "BGAではなぜかできません") + "; " + notes.at() + " (Polish and Italian BGA "
           "help pages)",
    doc="The online version as the seed describes it (no free return to the beach), with "
        "the BGA help pages' fruit payments (whole payments) and boats (two together).")
game.ruleset(
    "english",
    options={"final_tie": "resources", "exchange_uses": "once_per_turn"},
    source=RULESET_ENGLISH,
    doc="The English edition's deviations as yucata lists them: the resource tie-breaker "
        "and each exchange cottage once per turn. Its other two (no skipped village row; "
        "2 points for space 1 after round 5) agree with the seed and the model already.")

# =====================================================================================
# State
# =====================================================================================
# --- flow ------------------------------------------------------------------------------
phase = game.field("phase", Phase, initial=Phase.layout, flow=True, source=book.at("ゲーム進行"))
game.phases(phase, {
    Phase.layout: ("the board is being laid", book.at("ゲーム進行")),
    Phase.deal: ("price tokens are being dealt", book.at("細かいルール")),
    Phase.islands: ("islands are being drawn", book.at("島の訪問")),
    Phase.play: ("it is a player's turn", book.at("ゲーム進行")),
    Phase.fishing: ("the player is fishing", book.at("釣り")),
    Phase.gift: ("an island tile waits to be placed", book.at("島の訪問")),
}, source=book.at("ゲーム進行", "１ターンでは様々な行動のうち１つを選択して、それを実行します"))
round_ = game.field("round", range(1, ROUNDS + 1), initial=1, flow=True,
                    source=book.at("ゲーム進行", "ゲームは全５ラウンド行われ"))
order = game.field("order", range(0, 5), shape=(5,), initial=[0, 1, 2, 3, 4], flow=True,
                   source=book.at("パス", "次のラウンドのターン順") + "; assumption start_order",
                   doc="order[k] = the player who moves k-th this round")
turn_pos = game.field("turn_pos", range(0, 5), flow=True, source=book.at("ゲーム進行"),
                      doc="index into order of the player to move")
passed = game.field("passed", bool, shape=(PLAYERS,), flow=True,
                    source=book.at("パス", "パスをしたプレイヤーは、そのラウンドではもう二度と手番がこない"))
layout_step = game.field("layout_step", range(0, 11), flow=True,
                         source=book.at("ゲーム進行", "ゲーム開始時、メインボードにランダムにタイルが配置されます"))
deal_step = game.field("deal_step", range(0, BOARD_DRAWS + 5), flow=True,
                       source=book.at("細かいルール"), doc="how many price tokens were drawn this round")
pending_fish = game.field("pending_fish", range(0, 8), flow=True, source=book.at("釣り"),
                          doc="fish tokens still to take in the current fishing action")
pending_gift = game.field("pending_gift", Gift, flow=True, source=book.at("島の訪問"))

# --- the main board --------------------------------------------------------------------
pos_of = game.field("pos_of", range(0, 10), shape=(Place,),
                    source=book.at("ゲーム進行", "メインボードにランダムにタイルが配置されます"),
                    doc="board position (0-1 lowest row, 2-4, 5-7, 8-9 top row) of each place")
laid = game.field("laid", bool, shape=(Place,), flow=True,
                  source=book.at("ゲーム進行", "メインボードにランダムにタイルが配置されます"),
                  doc="the place has been laid on the board (game start)")
supply = game.field("supply", range(0, 26), shape=(Kind,),
                    initial=[TILE_COUNTS[k] for k in KINDS],
                    source=book.at("タイルの購入と配置", "用意されているタイルの数には上限があります"))
discard = game.field("discard", range(0, 26), shape=(Kind,),
                     source=book.at("タイルの配置", "そのタイルは保持や配置ができず捨てられる"))
bag = game.field("bag", range(0, 6), shape=(TokenCode,), initial=TOKEN_COUNT,
                 source=book.at("ゲーム進行", "価格トークンや魚トークンがランダムに配置され"),
                 doc="price tokens not yet dealt, by token code (code 0 unused)")
area_tok = game.field("area_tok", range(0, 4), shape=(PlaceNo, TokenCode),
                      source=book.at("貝の支払い", "そこに置かれている価格トークン"),
                      doc="price tokens on each place (by Place order), by token code")
pass_tok = game.field("pass_tok", range(0, 11), shape=(5,),
                      source=book.at("パス", "２番目以降のマスには右のマスにいくにつれて大きい数字の価格トークン"),
                      doc="token code on each pass space (0 = none; space 1 never has one)")
pass_by = game.field("pass_by", range(-1, 5), shape=(5,), initial=-1, flow=True,
                     source=book.at("パス"), doc="the player on each pass space (-1 = free)")
fish_pool = game.field("fish_pool", range(0, 6), shape=(TokenCode,),
                       source=book.at("細かいルール", "余った価格トークンが裏返されることで魚トークンとして準備"),
                       doc="fish tokens in the cove, by the code of their price side")
docks = game.field("docks", Isl, shape=(Dock,), initial=Isl.none,
                   source=book.at("島の訪問", "島は下の画像のように、ラウンド開始時に４つ準備されます"))
in_pile = game.field("in_pile", bool, shape=(Isl,),
                     initial=[False] + [True] * len(ISLAND_NAMES),
                     source=book.at("島の訪問", "新しい島タイルが補充されます"))
islands_gone = game.field("islands_gone", range(0, len(ISLAND_NAMES) + 1),
                          source=book.at("島の訪問", "訪問した島タイルは無くなります"))

# --- players ---------------------------------------------------------------------------
shells = game.field("shells", game.at_least(0), shape=(PLAYERS,), source=book.at("画面説明", "貝"))
feet = game.field("feet", game.at_least(0), shape=(PLAYERS,), source=book.at("画面説明", "足"))
fruit = game.field("fruit", game.at_least(0), shape=(PLAYERS,), source=book.at("画面説明", "フルーツ"))
vp = game.field("vp", game.at_least(0), shape=(PLAYERS,), source=book.at("画面説明", "勝利点"))
pawn = game.field("pawn", range(0, 12), shape=(PLAYERS,), initial=BEACH,
                  source=book.at("足の支払い", "ラウンド開始時には、必ず砂浜に自分のコマが置かれます"),
                  doc="board position 0-9, 10 = beach, 11 = pass area")
round_total = game.field("round_total", range(0, sum(v * c for v, c in zip(VALUE, TOKEN_COUNT)) + 1), shape=(PLAYERS,),
                         source=book.at("画面説明", "このラウンドで獲得した価格トークンの合計値"))
spears = game.field("spears", range(0, 6), shape=(PLAYERS,), source=book.at("貝の支払い"),
                    doc="spear price tokens taken this round")
took = game.field("took", range(0, 6), shape=(PLAYERS, TokenCode), source=book.at("貝の支払い"),
                  doc="price tokens taken this round (price side), by code")
caught = game.field("caught", range(0, 6), shape=(PLAYERS, TokenCode), source=book.at("釣り"),
                    doc="fish tokens caught this round, by the code of their price side")
founder = game.field("founder", Founder, shape=(PLAYERS, VILLAGES), initial=Founder.none,
                     source=book.at("タイルの配置", "各村の１枚目のタイル"))
has = game.field("has", bool, shape=(PLAYERS, VILLAGES, Name),
                 source=book.at("タイルの配置", "１つの村に同じ名前のタイルを２枚以上置くことはできない"))
lvl2 = game.field("lvl2", bool, shape=(PLAYERS, VILLAGES, Name),
                  source=book.at("タイルの配置", "補足２"), doc="the tile lies on its level-II side")
width = game.field("width", range(0, 17), shape=(PLAYERS, VILLAGES),
                   source=book.at("タイルの配置", "個人ボードは下の画像のように７列に分かれており"))
tikis = game.field("tikis", range(0, 6), shape=(PLAYERS,),
                   source=book.at("タイルの配置", "ティキは個人ボードの上部に右詰めで置かれていきます"))
kahunas = game.field("kahunas", range(0, 6), shape=(PLAYERS,),
                     source=book.at("タイルの配置", "カフナはそれぞれの村の左側に上から順番に置かれます"))
boats = game.field("boats", range(0, TILE_COUNTS["boat"] + 1), shape=(PLAYERS, Level),
                   source=book.at("ボートの使用", "個人ボード下部にあるボート"))
boats_used = game.field("boats_used", range(0, TILE_COUNTS["boat"] + 1), shape=(PLAYERS, Level),
                        source=book.at("ボートの使用", "１つのボートは１ラウンド中に一度しか使えません"))
canoe_used = game.field("canoe_used", bool, shape=(PLAYERS,),
                        source=book.at("ボートの使用", "１つのボートは１ラウンド中に一度しか使えません"))

# =====================================================================================
# Derived quantities (expressions over the state)
# =====================================================================================
me = called(order[turn_pos], "mover")  # the player to move (turn_pos changes only when a turn ends)
N = game.num_players


# A price token's code is TokenCode.of(price, mark): codes are sorted by value, then spear,
# so that sorting codes sorts tokens the way §細かいルール lays them out (same number: the
# spear token to the right).


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


def _sum(xs):
    total = xs[0]
    for x in xs[1:]:
        total = total + x
    return total


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
        rule.add(reward[me], lookup(table, count[me], name=f"{kind}_track_reward"), source=reward_source)
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


def advance_turn(rule):
    """The next player in turn order who has not passed moves (the mover itself if alone)."""
    nxt = turn_pos
    for d in reversed(range(1, 6)):
        k = (turn_pos + d) % N
        nxt = if_(all_of(d <= N, not_(passed[order[k]])), k, nxt)
    rule.set(turn_pos, nxt, source=book.at("ゲーム進行", "各プレイヤーのターンごとに行動していきます"))


def boats_needed(use, which: int):
    """How many boats of a kind (0 canoe, 1 level I, 2 level II) a BoatUse takes."""
    terms = [to_int(use == BoatUse[u]) * n[which] for u, n in BOAT_USES.items() if n[which]]
    return _sum(terms)


def boats_available(use):
    return all_of(
        boats_needed(use, 0) <= 1 - to_int(canoe_used[me]),
        boats_needed(use, 1) <= boats[me, Level.I] - boats_used[me, Level.I],
        boats_needed(use, 2) <= boats[me, Level.II] - boats_used[me, Level.II])


def boats_combine(use):
    """combine_boats: one boat, two together, or (any) up to three together."""
    by_count = {n: [BoatUse[u] for u, c in BOAT_USES.items() if sum(c) == n] for n in (1, 2, 3)}
    return any_of(use.is_one_of(*by_count[1]),
                  all_of(use.is_one_of(*by_count[2]), combine_boats.is_one_of("two", "any")),
                  all_of(use.is_one_of(*by_count[3]), combine_boats.is_("any")))


def boat_capacity(use):
    return (CANOE_CAP * boats_needed(use, 0) + BOAT_I_CAP * boats_needed(use, 1)
            + BOAT_II_CAP * boats_needed(use, 2))


def use_boats(rule, use):
    rule.set(canoe_used[me], any_of(canoe_used[me], boats_needed(use, 0) == 1),
             source=book.at("ボートの使用", "１つのボートは１ラウンド中に一度しか使えません"))
    rule.add(boats_used[me, Level.I], boats_needed(use, 1))
    rule.add(boats_used[me, Level.II], boats_needed(use, 2))


def trip_exchange_ok(pay, swap):
    """Exchanging ``swap`` of a trip's feet needs that much exchange cottage capacity
    (fruit for part of the feet needs none with fruit_payment=per_unit)."""
    return any_of(swap == 0, swap <= exchange_capacity(me),
                  all_of(pay == FootPay.feet_and_fruit, fruit_payment.is_("per_unit")))


def trip_exchange_direction_ok(pay, swap):
    """exchange_direction=price_only: no exchange cottage mixes a trip's feet (fruit for
    part of them only where fruit_payment=per_unit lets fruit mix without one)."""
    return implies(exchange_direction.is_("price_only"),
                   any_of(swap == 0, all_of(pay == FootPay.feet_and_fruit,
                                            fruit_payment.is_("per_unit"))))


def trip_payment_ok(due, pay, swap):
    """A boat trip's feet: ``swap`` of them exchanged (exchange cottage), the rest in feet or
    fruit. feet / fruit: the ``swap`` feet are paid in shells; feet_and_fruit: in fruit."""
    rest = due - swap
    return all_of(swap <= due,
                  if_(pay == FootPay.feet_and_fruit,
                      # a real mix: fruit for all of it is 'fruit', for none of it 'feet'
                      all_of(swap >= 1, rest >= 1, fruit[me] >= swap, feet[me] >= rest),
                      all_of(shells[me] >= swap,
                             if_(pay == FootPay.feet, feet[me] >= rest,
                                 all_of(rest >= 1, fruit[me] >= rest)))))


def pay_trip(rule, due, pay, swap):
    rest = rule.let(due - swap, name="rest")
    with rule.when(pay == FootPay.feet_and_fruit,
                   source=book.at("タイル効果の詳細", "貝、足、フルーツを混ぜて支払うことができます")):
        rule.add(fruit[me], -swap, source=book.at("タイル効果の詳細", "貝、足、フルーツを混ぜて支払うことができます"))
        rule.add(feet[me], -rest, source=book.at("釣り"))
    with rule.otherwise():
        rule.add(shells[me], -swap, source=book.at("タイル効果の詳細", "交換コテージ"))
        with rule.when(pay == FootPay.feet, source=book.at("釣り")):
            rule.add(feet[me], -rest)
        with rule.otherwise():
            rule.add(fruit[me], -rest, source=book.at("画面説明", "フルーツ、貝にも足の代わりにも使える"))


def take_token(rule, who, code):
    """A price token (price side) goes to ``who`` and counts toward the round goal."""
    rule.add(took[who, code], 1)
    rule.add(round_total[who], lookup(VALUE, code, name="value"),
             source=book.at("ラウンド目標", "受け取る価格トークンの値は２倍にはなりません"))
    rule.add(spears[who], lookup(SPEAR, code, name="spears_on"))


# =====================================================================================
# Setup: resources, the printed start cottage, the first turn order
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
# Chance: laying the board, dealing price tokens, drawing islands
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
        with rule.when(area_sum + price <= lookup(CAPS, where, name="cap") - to_int(price_cap.is_("below")),
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
# Turn action 1: buy a tile and place it at once
# =====================================================================================
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
            implies(fruit_feet, all_of(feet_due >= 1, fruit[me] >= feet_due + if_(fruit_shells, shell_due, 0))),
            implies(fruit_shells, all_of(shell_due >= 1, fruit[me] >= shell_due + if_(fruit_feet, feet_due, 0))),
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
# Turn action 2: fish
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
# Turn action 3: visit an island
# =====================================================================================
DOCK_LIST = [Dock[f"dock_{d + 1}"] for d in range(DOCKS)]


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
        rule.require(pending_gift == Gift[kind], f"the waiting tile is a {kind}", source=book.at("島の訪問"))
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
# Turn action 4: pass; the end of a round
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
# Flow, the end, scoring
# =====================================================================================
game.chance_node(phase.is_one_of(Phase.layout, Phase.deal, Phase.islands),
                 source=book.at("ゲーム進行", "新たなラウンドが開始されると価格トークンや魚トークンがランダムに配置され、島タイルが補充されます"))
game.current_player(me, source=book.at("ゲーム進行", "各プレイヤーのターンごとに行動していきます"))
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
               source="interpretation final_tie: " + notes.at() + " (yucata: tie-breaker 'sum of remaining resources')")
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


# =====================================================================================
# How it looks (the report and --svg draw the state from this)
# =====================================================================================
PLACE_LABELS = {"cottages_1": "Cottages I", "cottages_2": "Cottages II",
                "village_life": "Village life", "fruit_1": "Fruit I", "fruit_2": "Fruit II",
                "sea": "Sea", "kahunas": "Kahunas", "tikis": "Tikis", "gods_1": "Gods I",
                "gods_2": "Gods II"}
TILE_COLOURS = {**{k: "#b07a4f" for k in COTTAGES}, "start_hut": "#7a4e2d",
                "irrigation": "#3a9ca6", "hula": "#d9708f",
                **{k: "#6aa84f" for k in FRUITS}, "surfer": "#4a86c5",
                **{k: "#8e63b5" for k in GODS}, "boat": "#4a86c5", "kahuna": "#c9a227",
                "tiki": "#8c5a3c"}
TILE_TEXT = {"start_hut": "start", "shell_hut": "shell", "foot_hut": "foot",
             "spear_hut": "spear", "exchange_hut": "exch.", "long_hut": "long hut",
             "irrigation": "irrig.", "breadfruit": "bread", "coconut": "coco",
             "banana": "banana"}
# board positions as the rules' picture shows them: rows of 2-3-3-2 places, the beach below
SPOT_XY = {8: (25, 0), 9: (75, 0), 5: (0, 25), 6: (50, 25), 7: (100, 25), 2: (0, 50),
           3: (50, 50), 4: (100, 50), 0: (25, 75), 1: (75, 75), BEACH: (50, 100)}


def _token_glyph(c):
    spear = "⚔" if SPEAR[c] else ""
    return view.glyph(f"{VALUE[c]}{spear}", "#f2d8a7",
                      title=f"price token {VALUE[c]}{' with a spear' if SPEAR[c] else ''}",
                      legend=False)  # the view's legend says what ⚔ means


def _place_pieces(n):
    places = [view.piece(if_(laid[Place[pl]], pos_of[Place[pl]], -1), PLACE_LABELS[pl],
                         kind="tile", glyph=view.glyph(colour=TILE_COLOURS[PLACES[pl].tiles[0]]),
                         chips=[view.chip(area_tok[a, c], _token_glyph(c)) for c in CODES])
              for a, pl in enumerate(PLACE_NAMES)]
    pawns = [view.piece(if_(p < N, pawn[p], -1), f"player {p}'s pawn", player=p)
             for p in range(n)]
    return places + pawns


def _island_text(i):
    what, value = ISLANDS[i]
    return {"fruit": f"{value} fruit", "vp": f"{value} VP"}.get(
        what, f"{value} II" if value in GIFT_KINDS or value == "boat" else value)


def _island_title(i):
    what, value = ISLANDS[i]
    if what == "tile":
        level = " (level II)" if value in GIFT_KINDS or value == "boat" else ""
        return f"an island that gives a {value.replace('_', ' ')} tile{level}"
    return f"an island that gives {value} {'victory points' if what == 'vp' else what}"


def _village_tiles(p, v):
    order = ["start_hut"] + COTTAGES + [n for n in NAMES if n not in COTTAGES + ["start_hut"]]
    return [view.tile(has[p, v, Name[n]],
                      view.glyph(TILE_TEXT.get(n, n), TILE_COLOURS[n], title=n.replace("_", " ")),
                      width=START_HUT_WIDTH if n == "start_hut" else WIDTH.get(n, 1),
                      badge=lvl2[p, v, Name[n]], badge_text="II")
            for n in order]


game.view(
    view.counters("Round", {"round": round_, "phase": phase}),
    view.place_map("Main board", pieces=_place_pieces,
                   spots=[view.spot(k, "beach" if k == BEACH else f"position {k}", x, y)
                          for k, (x, y) in SPOT_XY.items()],
                   links=[(a, b) for a, bs in ADJACENT.items() for b in bs if a < b]),
    view.slots("Pass area (next round's turn order)", count=5, value=lambda k: pass_tok[k],
               glyphs={c: _token_glyph(c) for c in CODES}, owner=lambda k: pass_by[k],
               labels=[str(k + 1) for k in range(5)]),
    view.slots("Islands", count=DOCKS, value=lambda d: docks[DOCK_LIST[d]],
               glyphs={Isl[i]: view.glyph(_island_text(i), "#a8d5e2", shape="square",
                                          title=_island_title(i))
                       for i in ISLAND_NAMES},
               labels=[f"{ISLAND_FEET[d]} feet" for d in range(DOCKS)]),
    view.pile("Fishing cove", [view.chip(fish_pool[c], view.glyph(
        f"{FISH[c]}", "#5b9bd5", title=f"fish token: {FISH[c]} fish") ) for c in CODES]),
    view.counters("Resources", {
        "shells": lambda p: shells[p], "feet": lambda p: feet[p], "fruit": lambda p: fruit[p],
        "victory points": lambda p: vp[p], "round total": lambda p: round_total[p],
        "boats, level I": lambda p: boats[p, Level.I],
        "boats, level II": lambda p: boats[p, Level.II],
        "canoe used": lambda p: canoe_used[p]}, player=True),
    view.tableau("Villages", rows=VILLAGES, columns=COLUMNS, tiles=_village_tiles,
                 marker=lambda p, v: kahunas[p] > v,
                 marker_glyph=view.glyph("K", TILE_COLOURS["kahuna"], title="kahuna"),
                 top=lambda p: tikis[p],
                 top_glyph=view.glyph("T", TILE_COLOURS["tiki"], shape="square", title="tiki"),
                 flag=lambda p, v: valid(p, v), player=True),
    legend={"⚔": "the price token has a spear", "II": "a level-II tile (on a tile: its "
            "level-II side)", "VP": "victory points"},
)

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
        *(implies(founder[p, v] == Founder[c], has[p, v, Name[c]]) for c in ["start_hut"] + COTTAGES))),
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
    "the_turn_is_at_a_seat_of_the_game", turn_pos < N,
    source=book.at("ゲーム進行", "１ラウンドは全プレイヤーがパスをするまで、各プレイヤーのターンごとに行動していきます"),
    doc="the turn position indexes one of the players' seats (needed for induction: the "
        "player to move is one of the players)")
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
    doc="the last draw of a round fills the last pass space and ends the deal")
game.invariant(
    "pass_spaces_fill_in_order_while_dealing",
    implies(phase == Phase.deal,
            all_of(*(implies(k > deal_step - BOARD_DRAWS, pass_tok[k] == 0) for k in range(1, 5)))),
    source=book.at("パス", "２番目以降のマスには右のマスにいくにつれて大きい数字の価格トークンが置かれます"),
    doc="while tokens are dealt, only the pass spaces already dealt hold a token")
game.invariant(
    "places_are_dealt_one_spot_per_draw",
    implies(phase == Phase.deal,
            all_of(*(_sum([area_tok[a, c] for c in CODES])
                     <= lookup([sum(1 for x in DEAL_ORDER[:d] if x == a)
                                for d in range(BOARD_DRAWS + 5)], deal_step, name=f"draws_for_{PLACE_NAMES[a]}_before")
                     for a in range(10)))),
    source=book.at("細かいルール", "価格トークンの数字の合計値が各エリアごとに設定されている上限値を超えないように、価格トークンは置かれます"),
    doc="while dealing, a place holds at most as many tokens as draws it has had this round")
game.invariant(
    "nobody_has_passed_before_the_turns_begin",
    implies(phase.is_one_of(Phase.layout, Phase.deal, Phase.islands),
            forall(game.players(), lambda p: not_(passed[p]))),
    source=book.at("パス", "パスをしたプレイヤーは、そのラウンドではもう二度と手番がこない"),
    doc="passing belongs to a round's turns: a new round starts with nobody passed")
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
    doc="an island drawn from the pile leaves it; 'none' is not an island")
game.invariant(
    "islands_are_drawn_only_while_a_dock_is_empty",
    implies(phase == Phase.islands, islands_needed()),
    source=book.at("島の訪問", "右側に新たにできた空きスペースに新しい島タイルが補充されます"),
    doc="the island draws end when the docks are full or the pile is empty")
game.invariant(
    "a_fisher_has_a_token_to_take",
    implies(phase == Phase.fishing, pending_fish >= 1),
    source=book.at("釣り", "ボートを使って、支払った「足」の数と同じ数だけ魚トークンを獲得できます"),
    doc="fishing ends with the last token paid for (at least one is paid for)")
game.invariant(
    "a_waiting_island_tile_is_in_the_supply",
    implies(phase == Phase.gift,
            all_of(pending_gift != Gift.none,
                   *(implies(pending_gift == Gift[k], supply[Kind[k]] >= 1) for k in GIFT_KINDS))),
    source=book.at("島の訪問", "該当するタイルが残っていない場合は、タイルを獲得することすらできません"),
    doc="an island gives its tile only while one is left; it waits in the supply until placed")
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
    doc="the board is laid before the first price token is drawn")
game.invariant(
    "dealt_pass_spaces_hold_a_token",
    implies(phase == Phase.deal,
            all_of(*(implies(k <= deal_step - BOARD_DRAWS, pass_tok[k] != 0) for k in range(1, 5)))),
    source=book.at("パス", "２番目以降のマスには右のマスにいくにつれて大きい数字の価格トークンが置かれます"),
    doc="while dealing, each pass space dealt so far holds a token (none is skipped)")

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
                    if_(all_of(n_best == 1, tot[i] == second), lookup(PRIZE[1], r0, name="second_prize"),
                        lookup(PRIZE[2], r0, name="third_prize"))))
            for i in range(5)]


_r0 = round_ - 1
_ach = [goal_met(i, lookup(TARGET, _r0, name="goal_target")) for i in range(5)]
_tot = [ranking_total(i) for i in range(5)]
_by_place = round_prizes(_ach, _tot, _r0)
_worded = _prizes_as_worded(_ach, _tot, _r0)
game.law(
    "round_prizes_follow_the_ranking",
    all_of(*(_by_place[i] == _worded[i] for i in range(5))),
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

SPEC = game.build()
