"""Hawaii's vocabulary: the phases of play, the places, tile names and supply stacks, the
price tokens, the payments, the boats, the island docks and islands (the enums every rule is
written in; a part of spec.py, imported after the printed numbers and the component data).
Each enum cites the rulebook section that names what it lists."""

from .catalogue import (CODES, COTTAGES, GIFT_KINDS, ISLANDS, ISLAND_NAMES, KINDS, NAMES,
                        PLACES, PLACE_NAMES, SPEAR, VALUE)
from .spec import DOCKS, ISLAND_FEET, VILLAGES, book, game

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
# A price token's code is TokenCode.of(price, mark): codes are sorted by value, then spear,
# so that sorting codes sorts tokens the way §細かいルール lays them out (same number: the
# spear token to the right).
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
DOCK_LIST = [Dock[f"dock_{d + 1}"] for d in range(DOCKS)]  # the docks from left to right
