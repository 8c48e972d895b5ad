"""Hawaii's component data and the values the text does not give: the catalogues of
components.toml read through their schemas, and each assumption with its reason and origin
(a part of spec.py, imported where the rules first need them)."""

import attrs
from rulespec.spec import derived
from rulespec.spec.components import member_of

from .spec import SURFER_II_GOAL, book, game, notes

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
KAHUNA_SPOTS = game.assume("kahuna_spots", "5 kahuna spots, one per village row, filled from "
            "the top; a 6th kahuna cannot be placed and is discarded; likewise a 6th tiki",
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
