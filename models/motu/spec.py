"""MOTU (Scott Almes; Superlude 2020, Ghost Dog Games 2023; German edition "Atua", Schmidt
2025), written in the rulespec language.

Source: a Japanese rules summary, seed file ``003_6720fac1c931cea7.txt`` (cited as
``§<section heading> L<line>``, through the citation object ``book``). The cards, fate
cards and travellers are data in ``components.toml`` (one entry each, printed or
constructed with the reason); the numbers the summary does not print (deck sizes, the
totem table, the volcano ruler) are ``game.assume(...)`` with their origin
(``research/components.md`` where it has them, otherwise invented; ``docs/sources.md``
describes both texts, which are not in the repository). ``README.md`` in this folder and
``docs/games/motu.md`` give the scope, the assumptions and the readings.

The folder's parts, in the order this file imports them: ``cards.py`` (the component data
and the tables read from it), ``readings.py`` (the interpretation points and rulesets),
``island.py`` (reading an island for scoring: visible symbols, sources), ``grid.py`` (cards
on the cell grid), ``looks.py`` (how a state looks), ``invariants.py`` (what must always
hold, and the flow facts that exist for the prover).

**The geometry is an abstraction** (stated in ``docs/games/motu.md``, with a picture): the
physical cards may lie at any position and angle; here each card is 2 x 3 cells, each cell
land, beach or sea with at most one symbol, and a card goes on an 8 x 8 grid of cells per
player, turned by quarter turns and moved by whole cells. A symbol covers its whole cell,
so "completely covered" and "fully visible" are about cells. **A declared limit**: the
text distinguishes a partly covered symbol (hidden for scoring, L134, but not "completely
covered" for the placement rule, L66) and a volcano partly covered with its star still free
(L76 forbids covering only the star); on the grid neither can happen.

Reading guide: numbers, the island grid, vocabulary, component data (cards.py), the
readings (readings.py), the state, setup (chance), a turn in the seed's order (take, place,
refill, fate card, traveller), the intermediate scorings and the final count, scoring and
the end.

For the prover: taking, placing and refilling are separate actions (as the seed's steps 1-3
are), so the coconut flow (take, buy a fate card) never meets the geometry (place). What
exists only for the prover is marked ``proof_aid=True`` where it is declared (listed in
docs/games/motu.md, "Proof aids"): the row dealt one action per slot, the final ``tally``
step that writes the end-of-game measures (longest beach, element counts for the fate
cards) on the score sheet so that the scoring laws are arithmetic over fields, and the flow
facts in invariants.py.
"""

from rulespec.spec import (PLAYERS, Game, Text, all_of, any_of, count, exists, if_, implies,
                           largest_component, most, not_, sum_of, to_int)
from rulespec.spec.kit import Deck, Pile, Row

# The seed, cited by section heading and line (`SETUP.at(13, "quote")`), and the research
# note the component assumptions come from, cited by section
book = Text("003_6720fac1c931cea7.txt", cite="§{} L{}")
research = Text("research/components.md", cite="§{}", quote="'{}'")
SETUP, AIM, ROUND = (book.part(s) for s in ("セットアップ", "ゲームの目的", "ラウンドをプレイする"))
TAKE, ADD, REFILL = (book.part(s) for s in ("1 - 島カードの選択", "2 - 自分の島にカードを追加",
                                            "3 - 島カードの列を補充する"))
FATE, TRAVELLER, SCORING = (book.part(s) for s in ("4 – 運命カードを購入する",
                                                   "5 - 旅人カードをプレイする", "6 - 中間決算"))
END, FINAL = (book.part(s) for s in ("ゲーム終了", "スコアの計算"))

game = Game("motu", title="MOTU", players=(2, 4), source=ROUND.at("43-52"),
            summary="Take island cards from a row paid with coconuts, overlap them into your "
                    "own island (cover a symbol, keep beaches continuous, keep sea off "
                    "land), and score six harmony sources over three scorings, plus fate "
                    "cards, a traveller and two bonuses.")

# =====================================================================================
# Numbers printed in the rules
# =====================================================================================
ROW = 4
game.constant("row_cards", ROW, source=SETUP.at(13, "島カードから4枚を表向きにして"))
ISLAND_CARDS = 58
game.constant("island_card_count", ISLAND_CARDS, source=SETUP.at(11, "58枚の島カードをシャッフル"))
START_COCONUTS = 5
game.constant("coconuts_each", START_COCONUTS,
              source=SETUP.at(23, "各プレイヤーにココナッツカウンターを5つ与えます"))
ROUNDS = 9
game.constant("rounds", ROUNDS, source=AIM.at(33, "MOTUのゲームは9ラウンドでプレイされます"))
BONUS = 5
game.constant("longest_beach_bonus", BONUS, source=FINAL.at(158, "さらに5ハーモニーポイント"))
game.constant("most_coconuts_bonus", BONUS, source=FINAL.at(159, "さらに5ハーモニーポイント"))
PAIR_POINTS = {"fishers": 2, "hunters": 3, "canoes": 4}
game.constant("points_per_fisher", 2, source=SCORING.at(139, "漁師ごとに2ポイント"))
game.constant("points_per_hunter", 3, source=SCORING.at(140, "猟師ごとに3ポイント"))
game.constant("points_per_canoe", 4, source=SCORING.at(141, "カヌーごとに4ポイント"))

# =====================================================================================
# Players and the island grid (the abstraction; docs/games/motu.md)
# =====================================================================================
MAXP = 4
game.assume("player_counts", [2, 3, 4],
            reason="the seed gives no player count (its examples have 2 and 3 players, L7 and "
                   "L19); the editions print 1-4 (Superlude print-and-play, bodoge) and 1-6 "
                   "(Ghost Dog box, Atua). Solo rules are at the end of the booklet and not in "
                   "the seed (L29), so 1 player is not modelled; 5-6 are left out to keep the "
                   "state small",
            origin=research.at("3 MOTU Identity") + " (undecent.fr, bodoge, ludorium.at)")
R, C = 8, 8
CARD_H, CARD_W = 3, 2
GRID_SIZE = game.assume("island_grid", {"rows": R, "cols": C, "card_cells": [CARD_H, CARD_W]},
            reason="the physical cards lie at any position and angle (Atua reviews: 'in jeder "
                   "beliebigen Drehlage'); the model puts 2 x 3-cell cards on an 8 x 8 grid "
                   "per player, by quarter turns and whole-cell offsets, and a card may not "
                   "stick out of the grid: see docs/games/motu.md. 8 x 8 leaves a taken card "
                   "without a legal placement in about 1 turn in 150 of random play (7 x 7: 1 "
                   "in 40). A declared limit: a symbol fills its cell, so a symbol is either "
                   "fully visible or wholly covered; the text's partly covered symbol (hidden "
                   "for scoring, L134, yet not 'completely covered' for L66) and a volcano "
                   "partly covered with its star free (L76 forbids only the star) cannot "
                   "arise",
            origin="INFERENCE (modelling abstraction); card proportions of a standard card")
POSITION = game.assume("village_position", {"card_top_left": [3, 3], "village_cell": [4, 3]},
            reason="the village card starts the island (L9); it lies upright in the middle of "
                   "the grid with its village symbol on the centre cell",
            origin="INFERENCE (modelling abstraction)")
VILLAGE_TOP, VILLAGE_LEFT = POSITION["card_top_left"]
CENTRE = tuple(POSITION["village_cell"])  # the village symbol: card cell (1, 0) of the village card
FIRST_PLAYER = game.assume(
    "first_player", 0,
    reason="the seed's start player is whoever most recently set foot on an island (L33), "
           "which no state records; seat 0 starts and play goes clockwise (seat order)",
    origin=AIM.at(33))

# =====================================================================================
# Vocabulary
# =====================================================================================
Terrain = game.enum("Terrain", {
    "empty": "no card here (the table)",
    "land": "land",
    "sea": "sea",
    "beach_h": "beach whose band runs left-right on the grid (its ends: left and right)",
    "beach_v": "beach whose band runs up-down on the grid (its ends: above and below)",
}, source=ADD.at("64-84", "ビーチ…海…陸地"))
Sym = game.enum("Sym", {
    "none": "no symbol",
    "fisher": "a fisher", "fish": "a fish", "hunter": "a hunter", "bird": "a bird",
    "canoe": "a canoe", "palm": "a palm tree",
    "lizard": "a lizard totem", "mask": "a mask totem", "moon": "a moon totem",
    "turtle": "a turtle totem", "shark": "a shark totem",
    "volcano": "a volcano (with a star: never covered)",
    "village": "the village (with a star: never covered)",
}, source=SCORING.at("139-144"))
TOTEMS = game.assume("totem_kinds", ["lizard", "mask", "moon", "turtle", "shark"],
            reason="the seed counts 'different totem kinds' (L143) without naming them; the "
                   "2020 review names salamander, tribal masks and moon; five kinds assumed",
            origin=research.at("Harmony sources") + " (undecent.fr 2020)")
STARS = ["volcano", "village"]
Source = game.enum("Source", {
    "fishers": "fisher/fish: 2 per fisher, 0 if fishers outnumber fish",
    "hunters": "hunter/bird: 3 per hunter, 0 if hunters outnumber birds",
    "canoes": "canoe/palm: 4 per canoe, 0 if canoes outnumber palms",
    "coconuts": "1 per coconut, the traveller's included",
    "totems": "by the number of different totem kinds",
    "volcanoes": "each volcano's ruler distance from the village, 0-5 points",
}, source=SCORING.at("138-144"))
Phase = game.enum("Phase", {
    "villages": "each player gets a random village card (chance)",
    "row": "four island cards are turned face up in the row (chance)",
    "travellers": "each player gets a face-down traveller (chance)",
    "fates": "players + 1 fate cards are turned face up (chance)",
    "take": "the player to move chooses a card from the row",
    "pay": "the player to move pays for the chosen card and takes it",
    "place": "the player to move adds the taken card to the island",
    "refill": "the row is refilled from the nearest deck (chance)",
    "fate": "the player to move may buy one fate card",
    "traveller": "the player to move may reveal the traveller",
    "scoring": "an intermediate scoring: each player chooses sources in turn",
    "tally": "the final count: each player measures the island in turn",
    "over": "the game is over",
}, source=ROUND.at("45-52"))

from .cards import (BOTH_ONE, CARD_COUNT, CARD_SYMBOL, CARD_TERRAIN, CARD_TERRAIN_TURNED,
                    CARD_TOTEMS, CATALOGUE, Card, DECK_SHARE, Element, FATES, FATE_PRICE, Fate,
                    PRINTED_BEACH, TRAVELLER_COUNTS, TRAVELLER_RATE, Traveller, VILLAGE_SYMBOL,
                    VILLAGE_TERRAIN, Village)  # noqa: E402 - cards.py

from .readings import (FULL, beach_bonus_at_zero, beach_card, beach_cut, beach_end, diagonal,
                       longest_beach, no_placement, scoring_time, sea_rule, traveller_coconuts,
                       traveller_majorities, traveller_scoring)  # noqa: E402 - readings.py

# =====================================================================================
# State
# =====================================================================================
phase = game.field("phase", Phase, flow=True, source=ROUND.at("45-52"))
game.phases(phase, {
    Phase.villages: ("villages are being dealt", SETUP.at(9)),
    Phase.row: ("the row is being dealt", SETUP.at(13)),
    Phase.travellers: ("travellers are being dealt", SETUP.at(17)),
    Phase.fates: ("fate cards are being turned up", SETUP.at(19)),
    Phase.take: ("it is your turn to take a card", TAKE.at(56)),
    Phase.pay: ("you have chosen a card", TAKE.at(56)),
    Phase.place: ("you have a card to add", ADD.at(62)),
    Phase.refill: ("the row is being refilled", REFILL.at(88)),
    Phase.fate: ("you may buy a fate card now", FATE.at(92)),
    Phase.traveller: ("you may play your traveller now", TRAVELLER.at(105)),
    Phase.scoring: ("an intermediate scoring is under way", SCORING.at(122)),
    Phase.tally: ("the game has ended: count the islands", END.at(150)),
}, source=ROUND.at("45-52"))
to_move = game.field("to_move", range(0, MAXP), flow=True,
                     source=AIM.at(33, "ゲームは時計回りに進行し"))
dealt = game.field("dealt", range(0, MAXP + 2), flow=True, source=SETUP.at("9-19"),
                   doc="cards dealt so far in the current setup step")
scorer = game.field("scorer", range(0, MAXP), flow=True, source=SCORING.at("122-130"),
                    doc="the player choosing sources (scoring) or counting (tally)")
choices = game.field("choices", range(0, 4), flow=True, source=SCORING.at("128-130"),
                     doc="sources the scorer still scores in this scoring")
scorings = game.field("scorings", range(0, 4), flow=True, source=SCORING.at("128-130"),
                      doc="intermediate scorings done (the third is the last)")
chosen = game.field("chosen", range(0, ROW), flow=True, source=TAKE.at(56),
                    doc="the row slot chosen this turn (0 = the first card)")
due = game.field("due", bool, flow=True, source=REFILL.at(90),
                 doc="a deck ran out: a scoring is due")
deck_no = game.field("deck_no", range(0, 4), flow=True, source=SETUP.at(15),
                     doc="the deck the row is refilled from: 0 = A, 1 = B, 2 = C, 3 = all empty")
deck_left = game.field("deck_left", range(0, 4 * MAXP + 1), shape=(3,),
                       source=SETUP.at(15) + " (deck_sizes assumption)",
                       doc="cards left in decks A, B, C")

terrain = game.field("terrain", Terrain, shape=(PLAYERS, R, C), initial=Terrain.empty,
                     source=ADD.at("62-84") + "; assumption island_grid",
                     doc="the visible terrain of each cell")
symbol = game.field("symbol", Sym, shape=(PLAYERS, R, C), initial=Sym.none,
                    source=SCORING.at(134) + "; assumption island_grid",
                    doc="the visible symbol of each cell")
layer = game.field("layer", range(0, ROUNDS + 1), shape=(PLAYERS, R, C),
                   source=FINAL.at(158, "構成する島カードの枚数") + "; assumption island_grid",
                   doc="which card shows at the cell: 0 the village, k the k-th card added")
placed = game.field("placed", range(0, ROUNDS + 1), shape=(PLAYERS,),
                    source=SCORING.at(132), doc="island cards added so far")
coconuts = game.field("coconuts", range(0, START_COCONUTS * MAXP + 1), shape=(PLAYERS,),
                      source=SETUP.at(23), doc="each player's coconut counters")
taken = game.field("taken", Card, initial=Card.none, source=TAKE.at("54-58"),
                   doc="the card taken this turn, until it is placed")
village = game.field("village", Village, shape=(PLAYERS,), source=SETUP.at(9))
village_used = game.field("village_used", bool, shape=(Village,), source=SETUP.at(9))

deck = Deck(game, "deck", Card, copies={Card.none: 0, **{Card[k]: 1 for k in CATALOGUE}},
            flags=True, source=SETUP.at("11-15"),
            doc="the island cards not yet drawn (decks A, B, C and the box), face down")
row = Row(game, "row", ROW, Card, empty=Card.none,
          riders={"coconuts": START_COCONUTS * MAXP}, source=SETUP.at(13),
          doc="the four face-up island cards, first (free) to last")
island = Pile(game, "island", Card, flags=True, per_player=True, source=ADD.at(62),
              doc="the island cards each player has added")
aside = Pile(game, "aside", Card, flags=True, per_player=True, counted=True,
             source=ADD.at("62-84") + " (the no_placement point)",
             doc="cards each player took that fit nowhere")


class _Taken:
    """The card in hand as a place for the deck's conservation law."""

    @staticmethod
    def amount(card):
        return to_int(all_of(taken == card, taken != Card.none))


deck.conserve("island_cards_are_conserved", row, island, aside, _Taken,
              source=SETUP.at("11-15"))

revealed = game.field("revealed", bool, shape=(PLAYERS,), source=TRAVELLER.at(107))
traveller = game.field("traveller", Traveller, shape=(PLAYERS,), source=SETUP.at(17),
                       visible=lambda observer, p: (observer == p) | revealed[p],
                       doc="each player's traveller: face down (seen by its owner) until "
                           "revealed")
traveller_used = game.field("traveller_used", bool, shape=(Traveller,), source=SETUP.at(17))
fate_owner = game.field("fate_owner", range(-2, MAXP), shape=(Fate,), initial=-2,
                        source=SETUP.at(19),
                        doc="-2 in the box, -1 face up on the table, else its owner")
fates_shown = game.field("fates_shown", range(0, MAXP + 2), flow=True, source=SETUP.at(19))

sheet = game.field("sheet", game.at_least(0), shape=(PLAYERS, Source), source=SCORING.at(134),
                   doc="the score sheet: points written for each source")
scored = game.field("scored", bool, shape=(PLAYERS, Source), source=SCORING.at(134))
traveller_points = game.field("traveller_points", game.at_least(0), shape=(PLAYERS,),
                              source=TRAVELLER.at(107, "スコアシートの旅人の行に記入"))
# the final count's measures, on the sheet for the prover (proof_aid: see tally)
beach = game.field("beach", range(0, ROUNDS + 2), shape=(PLAYERS,), source=FINAL.at(158),
                   doc="the longest beach in island cards (written by the final count)",
                   proof_aid=True)
tallied = game.field("tallied", game.at_least(0), shape=(PLAYERS, Element),
                     source=FINAL.at(157), doc="each player's elements for the fate cards "
                                                "(written by the final count)", proof_aid=True)

N = game.num_players
ROW_SLOTS = range(ROW)


from .island import (CELLS, GRID, is_beach, source_points, traveller_coconut_count,  # noqa: E402
                     visible_count, with_traveller)  # island.py: reading the island for scoring


# =====================================================================================
# Placement geometry
# =====================================================================================
from .grid import (BANDS, DIAG, ORTHO, QUARTERS, beyond, footprint, new_terrain,  # noqa: E402
                   offsets)  # grid.py: cards on the cell grid


def placement_rules(p, card, q, r, c):
    """The four placement rules for ``card`` turned ``q`` with its footprint's top-left
    cell at (r, c) on player ``p``'s island, as (text, condition, source) triples. ``r``
    and ``c`` are ints or parameters; off-grid neighbours count as the table (empty)."""
    cells, h, w = footprint(q)
    inside = {(dr, dc) for _, dr, dc in cells}

    def sym_at(dr, dc):
        return symbol[p, r + dr, c + dc]

    def outside(dr, dc, directions):
        """Neighbours of footprint cell (dr, dc) outside the footprint, with the condition
        that they are on the grid and their terrain: (direction, on grid, terrain)."""
        out = []
        for di, dj in directions:
            if (dr + di, dc + dj) not in inside:
                out.append(((di, dj), beyond(r, c, h, w, dr + di, dc + dj),
                            terrain[p, r + dr + di, c + dc + dj]))
        return out

    covers = any_of(*[sym_at(dr, dc) != Sym.none for _, dr, dc in cells])
    no_star = all_of(*[not_(sym_at(dr, dc).is_one_of(Sym.volcano, Sym.village))
                       for _, dr, dc in cells])
    sea_land, ends = [], []
    for k, dr, dc in cells:
        t = new_terrain(card, q, k)
        ortho, diag = outside(dr, dc, ORTHO), outside(dr, dc, DIAG)
        near = [(g, u) for _, g, u in ortho] + [
            (all_of(diagonal.is_("diagonal_too"), g), u) for _, g, u in diag]
        if near:
            sea_land.append(all_of(
                implies(t == Terrain.sea, all_of(*[implies(g, u != Terrain.land)
                                                   for g, u in near])),
                # ... and no added land next to the island's sea (sea_rule = both_ways)
                implies(all_of(t == Terrain.land, sea_rule.is_("both_ways")),
                        all_of(*[implies(g, u != Terrain.sea) for g, u in near]))))
        for axis, across, along in (
                (Terrain.beach_h, Terrain.beach_v, [(d, g, u) for d, g, u in ortho if d[0] == 0]),
                (Terrain.beach_v, Terrain.beach_h, [(d, g, u) for d, g, u in ortho if d[1] == 0])):
            if not along:
                continue
            # the added card's beach may not end against land or sea (L80) ...
            ends.append(implies(t == axis, all_of(*[
                implies(g, end_may_rest_on(u, across)) for _, g, u in along])))
            # ... nor may an old beach end against the added card (beach_cut = forbidden)
            ends.append(implies(all_of(beach_cut.is_("forbidden"),
                                       any_of(*[all_of(g, u == axis) for _, g, u in along])),
                                if_(beach_end.is_("same_band"), t == axis, is_beach(t))))
    return [
        ("the card covers at least one fully visible symbol completely", covers,
         ADD.at("66, 72-74", "少なくとも1つのシンボルを完全に覆います")),
        ("the card covers no star (village, volcano)", no_star,
         ADD.at(76, "村と火山の真ん中にある星シンボルは覆うことができません")),
        ("no sea touches land", all_of(*sea_land),
         ADD.at("70, 82-84", "海は陸地に直接つなげることはできません")),
        ("beaches stay continuous: no beach ends against land or sea", all_of(*ends),
         ADD.at("68, 78-80", "ビーチの両端が島から突き出ている必要があります")),
    ]


def end_may_rest_on(u, across):
    """An end of an added beach may rest on terrain ``u`` (``across``: a beach running the
    other way, whose side the end would meet): never land or sea (L80), and under the
    beach_end point maybe only the table, or no T-junction."""
    return all_of(not_(u.is_one_of(Terrain.land, Terrain.sea)),
                  implies(beach_end.is_("same_band"), u != across),
                  implies(beach_end.is_("table_only"), u == Terrain.empty))


def fits(p, card, q, r, c):
    return all_of(*[cond for _, cond, _ in placement_rules(p, card, q, r, c)])


def can_place(p, card):
    """Some quarter turn and offset of ``card`` keeps every placement rule (one binder per
    quarter turn over the offsets, numbered row by row)."""
    return any_of(*[exists(range(offsets(q)[0] * offsets(q)[1]),
                           lambda i, q=q: fits(p, card, q, i // offsets(q)[1], i % offsets(q)[1]))
                    for q in range(4)])


# =====================================================================================
# The turn's flow (helpers that write statements into the rules below)
# =====================================================================================
def after_row_dealt(rule):
    with rule.when(FULL, source=SETUP.at("17-21")):
        rule.set(phase, Phase.travellers)
    with rule.otherwise():
        rule.set(phase, Phase.take)


def start_scoring(rule):
    rule.set(phase, Phase.scoring, source=SCORING.at(122))
    rule.set(scorer, 0)
    rule.set(choices, scorings + 1, source=SCORING.at("128-130"))


def after_refill(rule, drawing=False):
    """Steps 4 and 5 are optional; a step with nothing to choose is skipped. ``drawing``:
    called by the draw itself (see end_turn)."""
    can_buy = exists(Fate, lambda f: all_of(fate_owner[f] == -1, fate_affordable(f, to_move)))
    with rule.when(all_of(FULL, can_buy), source=FATE.at(92)):
        rule.set(phase, Phase.fate)
    with rule.otherwise():
        after_fate(rule, drawing)


def after_fate(rule, drawing=False):
    with rule.when(all_of(FULL, not_(revealed[to_move])), source=TRAVELLER.at(105)):
        rule.set(phase, Phase.traveller)
    with rule.otherwise():
        end_turn(rule, drawing)


def next_player(rule):
    rule.set(to_move, (to_move + 1) % N, source=AIM.at(33, "時計回り"))
    rule.set(phase, Phase.take)


def end_turn(rule, drawing=False):
    """Step 6 if a deck ran out (end_of_turn reading), then the next player; after the
    last scoring, the final count. A turn that ends in its draw never ends the game (the
    draw of deck C's last card makes a scoring due first), so the draw has no final-count
    branch: it could never run (a dead rule)."""
    with rule.when(all_of(due, scoring_time.is_("end_of_turn")), source=ROUND.at(52)):
        start_scoring(rule)
    with rule.otherwise():
        if drawing:
            next_player(rule)
            return
        with rule.when(deck_no == 3, source=END.at(150)):
            rule.set(phase, Phase.tally)
            rule.set(scorer, 0)
        with rule.otherwise():
            next_player(rule)


def fate_affordable(f, p):
    return FATE_PRICE[f] <= coconuts[p]



# =====================================================================================
# Setup (chance)
# =====================================================================================
game.chance_node(phase.is_one_of(Phase.villages, Phase.row, Phase.travellers, Phase.fates,
                                 Phase.refill),
                 source=SETUP.at("9-19") + "; " + REFILL.at(88))


@game.setup(source=SETUP.at("9-23"))
def start(rule):
    with rule.for_each(game.players()) as p:
        rule.set(coconuts[p], START_COCONUTS, source=SETUP.at(23))
    rule.set(deck_left[0], DECK_SHARE["A"] * N, source=SETUP.at(15))
    rule.set(deck_left[1], DECK_SHARE["B"] * N, source=SETUP.at(15))
    rule.set(deck_left[2], DECK_SHARE["C"] * N, source=SETUP.at(15))
    rule.set(to_move, FIRST_PLAYER)


@game.chance(phase=Phase.villages, params={"v": Village}, text="village {v} to the next player",
             source=SETUP.at(9, "各プレイヤーは6枚の村カードから1枚をランダムに選んで受け取り"))
def deal_village(rule, v):
    rule.require(not_(village_used[v]), "the village card is still in the box",
                 source=SETUP.at(9))
    rule.set(village_used[v], True)
    rule.set(village[dealt], v)
    for i in range(CARD_H):
        for j in range(CARD_W):
            k = i * CARD_W + j
            rule.set(terrain[dealt, VILLAGE_TOP + i, VILLAGE_LEFT + j], VILLAGE_TERRAIN[k][v])
            rule.set(symbol[dealt, VILLAGE_TOP + i, VILLAGE_LEFT + j], VILLAGE_SYMBOL[k][v])
    with rule.when(dealt + 1 == N, source=SETUP.at(13)):
        rule.set(dealt, 0)
        rule.set(phase, Phase.row)
    with rule.otherwise():
        rule.add(dealt, 1)


def deal_row_rule(k):
    @game.chance(phase=Phase.row, params={"card": Card}, name=f"deal_row_{k + 1}",
                 text=f"deal {{card}} to row slot {k + 1}", proof_aid=True,
                 source=SETUP.at(13, "島カードから4枚を表向きにして"))
    def deal_row(rule, card):
        """Setup: the k-th of the four row cards. For the prover: one action per slot, so
        that each writes one slot and the proofs need no case split on where it goes."""
        rule.require(all_of(row[k] == Card.none, *([row[k - 1] != Card.none] if k else [])),
                     "the slots before it are dealt", source=SETUP.at(13))
        deck.draw(rule, card, source=SETUP.at(11, "58枚の島カードをシャッフル"))
        rule.set(row[k], card, source=SETUP.at(13))
        if k + 1 == ROW:
            after_row_dealt(rule)
    return deal_row


for _k in ROW_SLOTS:
    deal_row_rule(_k)


@game.chance(phase=Phase.refill, params={"card": Card}, text="draw {card}",
             source=REFILL.at(88, "列に最も近いデッキ…から別のカードを引き"))
def draw(rule, card):
    """Step 3: the card goes on the right of the row (the others slid left when the
    chosen card was taken: the_row_lacks_one_card_until_its_refill)."""
    deck.draw(rule, card, source=SETUP.at(11, "58枚の島カードをシャッフル"))
    rule.set(row[ROW - 1], card, source=REFILL.at(88, "列の右側に配置します"))
    rule.add(deck_left[deck_no], -1, source=REFILL.at(88))
    with rule.when(deck_left[deck_no] == 0,
                   source=REFILL.at(90, "デッキの最後のカードを引いた場合")):
        rule.add(deck_no, 1, source=SCORING.at(136, "デッキ列の次のデッキ"))
        rule.set(due, True)
    with rule.when(all_of(due, scoring_time.is_("at_draw")),
                   source=REFILL.at(90, "今度は中間決算を計算します")):
        start_scoring(rule)
    with rule.otherwise():
        after_refill(rule, drawing=True)


@game.chance(phase=Phase.travellers, params={"t": Traveller},
             text="traveller {t} to the next player",
             source=SETUP.at(17, "6枚の旅人カードをシャッフルし、各プレイヤーに1枚ずつ、裏向きに配ります"))
def deal_traveller(rule, t):
    rule.require(all_of(t != Traveller.none, not_(traveller_used[t])),
                 "the traveller is still in the box", source=SETUP.at(17))
    rule.set(traveller_used[t], True)
    rule.set(traveller[dealt], t)
    with rule.when(dealt + 1 == N):
        rule.set(dealt, 0)
        rule.set(phase, Phase.fates)
    with rule.otherwise():
        rule.add(dealt, 1)


@game.chance(phase=Phase.fates, params={"f": Fate}, text="fate card {f} face up",
             source=SETUP.at(19, "プレイヤーの数に1を加えた数だけ選択します"))
def show_fate(rule, f):
    rule.require(fate_owner[f] == -2, "the fate card is still in the box", source=SETUP.at(19))
    rule.set(fate_owner[f], -1)
    rule.add(fates_shown, 1)
    with rule.when(fates_shown == N + 1):
        rule.set(phase, Phase.take)


# =====================================================================================
# A turn
# =====================================================================================
def affordable(p, k):
    return coconuts[p] >= k


@game.action(phase=Phase.take, params={"slot": range(1, ROW + 1)}, text="choose card {slot}",
             source=TAKE.at(56, "列にある4枚の島カードから1枚のカードを選択する必要があります"))
def choose(rule, slot):
    """Step 1: choose a row card you can pay for (and, reading choose_another, add)."""
    k = slot - 1
    p = to_move
    rule.require(affordable(p, k), "you have a coconut for each card to its left",
                 source=TAKE.at(56, "カウンターが足りない場合は、このカードを取ることができず"))
    rule.require(implies(no_placement.is_("choose_another"), can_place(p, row[k])),
                 "the card can be added to your island", source=no_placement.source)
    rule.set(chosen, k)
    rule.set(phase, Phase.pay)


@game.action(phase=Phase.take, params={"slot": range(1, ROW + 1)}, name="choose_unplaceable",
             text="choose card {slot} (no card fits)", source=no_placement.source)
def choose_unplaceable(rule, slot):
    """Reading choose_another: when no card you can pay for fits, choose any of them (it
    will be set aside)."""
    k = slot - 1
    p = to_move
    rule.require(no_placement.is_("choose_another"), "the reading is choose_another",
                 source=no_placement.source)
    rule.require(affordable(p, k), "you have a coconut for each card to its left",
                 source=TAKE.at(56))
    rule.require(not_(exists(ROW_SLOTS, lambda j: all_of(affordable(p, j),
                                                         can_place(p, row[j])))),
                 "no card you can pay for can be added to your island",
                 source=no_placement.source)
    rule.set(chosen, k)
    rule.set(phase, Phase.pay)


@game.action(phase=Phase.pay, name="pay", text="pay for the card and take it",
             source=TAKE.at("56-58"))
def pay(rule):
    """Step 1, paid: one coconut on each card left of the chosen one; take it and the
    coconuts on it. Apart from the choice so that no geometry enters the coconut flow."""
    k = chosen
    p = to_move
    with rule.for_each(ROW_SLOTS, source=TAKE.at(56, "左側にある各カードの上にココナッツ"
                                                      "カウンターを1つずつ置く")) as j:
        with rule.when(j < k):
            row.add_rider(rule, "coconuts", j, 1)
    rule.add(coconuts[p], 0 - k)
    got = row.take(rule, k, source=REFILL.at(88, "他のカードをすべて左に移動"))
    rule.add(coconuts[p], got["coconuts"],
             source=TAKE.at(58, "獲得したカードの上にココナッツカウンターが置いてある場合、"
                                  "これらのカウンターも獲得します"))
    rule.set(taken, got["card"])
    rule.set(chosen, 0)
    rule.set(phase, Phase.place)


def place_rule(q):
    cells, h, w = footprint(q)
    deg = q * 90

    @game.action(phase=Phase.place, name=f"place_{QUARTERS[q]}", params={"r": range(R - h + 1),
                                                     "c": range(C - w + 1)},
                 text=f"place at ({{r}},{{c}}) turned {deg}", source=ADD.at("60-84"))
    def place(rule, r, c):
        """Step 2: the taken card, turned q quarter turns, its top-left cell at (r, c)."""
        p = to_move
        for text, cond, source in placement_rules(p, taken, q, r, c):
            rule.require(cond, text, source=source)
        for k, dr, dc in cells:
            rule.set(terrain[p, r + dr, c + dc], new_terrain(taken, q, k),
                     source=ADD.at(62, "他の島カード1枚または複数枚の上に置く"))
            rule.set(symbol[p, r + dr, c + dc], CARD_SYMBOL[k][taken])
            rule.set(layer[p, r + dr, c + dc], placed[p] + 1)
        island.put(rule, taken, of=p)
        rule.add(placed[p], 1)
        rule.set(taken, Card.none)
        rule.set(phase, Phase.refill)
    return place


for _q in range(4):
    place_rule(_q)


@game.action(phase=Phase.place, text="set the card aside", source=no_placement.source)
def set_aside(rule):
    """A taken card that fits nowhere (the no_placement point)."""
    rule.require(not_(can_place(to_move, taken)), "the card has no legal placement",
                 source=no_placement.source)
    aside.put(rule, taken, of=to_move)
    rule.set(taken, Card.none)
    rule.set(phase, Phase.refill)


def among_the_rightmost(k, n):
    """Row slot ``k`` is one of the ``n`` rightmost cards: where a price of ``n`` puts its
    counters, right to left, one per card (L94; no price exceeds the row)."""
    return ROW - k <= n


@game.action(phase=Phase.fate, params={"f": Fate}, text="buy fate card {f}", source=FATE.at(94))
def buy_fate(rule, f):
    """Step 4: pay the price, one coconut per row card from right to left."""
    p = to_move
    rule.require(fate_owner[f] == -1, "the fate card lies face up on the table",
                 source=SETUP.at(19))
    rule.require(FATE_PRICE[f] <= coconuts[p], "you have the coconuts to pay its price",
                 source=FATE.at(94, "その価格分のココナッツカウンターを支払う"))
    price = rule.let(FATE_PRICE[f], name="price")
    for k in ROW_SLOTS:
        rule.add(row.riders["coconuts"][k], to_int(among_the_rightmost(k, price)),
                 source=FATE.at(94, "列のカードの上に右から左に置き(カード1枚につき1カウンター)"))
    rule.add(coconuts[p], 0 - price)
    rule.set(fate_owner[f], p, source=FATE.at(94, "運命カードを取り、目の前に置きます"))
    after_fate(rule)


@game.action(phase=Phase.fate, name="skip_fate", text="buy no fate card",
             source=FATE.at(92, "オプション"))
def skip_fate(rule):
    after_fate(rule)


def row_count(what):
    """Elements of a kind on the row's cards (their printed symbols; 'beach_cards' counts
    cards showing beach)."""
    if what == "beach_cards":
        return count(ROW_SLOTS, lambda k: PRINTED_BEACH[row[k]])
    if what == "totems":
        return sum_of(ROW_SLOTS, lambda k: CARD_TOTEMS[row[k]])
    return sum_of(ROW_SLOTS, lambda k: CARD_COUNT[what][row[k]])


def traveller_score(t):
    """Points of traveller ``t`` from the row now: per element, or per two (Atua)."""
    n = 0
    for what, table in TRAVELLER_COUNTS.items():
        n = n + table[t] * row_count(what)
    per = if_(traveller_scoring.is_("per_two"), n // 2, n)
    return per * TRAVELLER_RATE[t]


@game.action(phase=Phase.traveller, name="reveal_traveller", text="reveal the traveller",
             source=TRAVELLER.at(107, "自分の旅人カードをめくって、表向きにします"))
def reveal_traveller(rule):
    """Step 5: turn the traveller up; it scores at once from the row."""
    p = to_move
    rule.require(not_(revealed[p]), "the traveller is still face down",
                 source=TRAVELLER.at(107))
    rule.set(revealed[p], True)
    rule.set(traveller_points[p], traveller_score(traveller[p]),
             source=TRAVELLER.at(107, "ハーモニーポイントをただちに獲得し"))
    end_turn(rule)


@game.action(phase=Phase.traveller, name="keep_traveller", text="keep the traveller face down",
             source=TRAVELLER.at(105, "オプション"))
def keep_traveller(rule):
    end_turn(rule)


# =====================================================================================
# Intermediate scorings and the final count
# =====================================================================================
@game.action(phase=Phase.scoring, params={"s": Source}, text="score {s}",
             source=SCORING.at("122-134"))
def score_source(rule, s):
    """The scorer scores one source not scored before (1 after A, 2 after B, 3 after C)."""
    p = scorer
    rule.require(not_(scored[p, s]), "the source has not been scored before",
                 source=SCORING.at(134, "同じソースを2回計算することはできません"))
    rule.set(sheet[p, s], source_points(p, s),
             source=SCORING.at(134, "スコアシートの選択したソースの行にそのポイントを記入"))
    rule.set(scored[p, s], True)
    rule.add(choices, -1)
    with rule.when(choices == 0):
        with rule.when(scorer + 1 < N):
            rule.add(scorer, 1)
            rule.set(choices, scorings + 1)
        with rule.otherwise():
            rule.add(scorings, 1, source=SCORING.at(136))
            rule.set(due, False)
            rule.set(scorer, 0)
            with rule.when(scoring_time.is_("at_draw")):
                after_refill(rule)  # the drawing player goes on with steps 4 and 5
            with rule.otherwise():
                end_turn(rule)


def beach_cards_of(p):
    """Cards of the island that count as 'beach cards' (the beach_card point)."""
    visible = count(range(ROUNDS + 1), lambda k: exists(
        range(R * C), lambda i: all_of(is_beach(terrain[p, i // C, i % C]),
                                       layer[p, i // C, i % C] == k)))
    printed = sum_of(Card, lambda c: to_int(all_of(island.has(c, of=p), PRINTED_BEACH[c])))
    return if_(beach_card.is_("printed_beach"), printed, visible)


def longest_band_chain(p):
    """The longest beach under longest_beach = joined_ends, in island cards."""
    def cell(n):
        return terrain[p, n // 2 // C, n // 2 % C], layer[p, n // 2 // C, n // 2 % C]
    return largest_component(
        BANDS, lambda n: cell(n)[0] == (Terrain.beach_v if n % 2 else Terrain.beach_h),
        label=lambda n: cell(n)[1], labels=ROUNDS + 1,
        text="the longest chain of beach bands, in island cards")


@game.action(phase=Phase.tally, name="tally", text="count the island", source=FINAL.at("154-159"),
             proof_aid=True)
def tally(rule):
    """The final count: the longest beach in cards, and the elements the fate cards ask."""
    p = scorer
    rule.set(beach[p], if_(longest_beach.is_("joined_ends"), longest_band_chain(p),
                           largest_component(
                               GRID, lambda i: is_beach(terrain[p, i // C, i % C]),
                               label=lambda i: layer[p, i // C, i % C], labels=ROUNDS + 1,
                               text="the longest beach, in island cards")),
             source=FINAL.at(158, "最も長いビーチ(構成する島カードの枚数が最も多い)"))
    for name in ["fisher", "fish", "hunter", "bird", "canoe", "palm"]:
        e = {"fisher": "fishers", "hunter": "hunters", "bird": "birds", "canoe": "canoes",
             "palm": "palms"}.get(name, name)
        rule.set(tallied[p, Element[e]],
                 if_(traveller_majorities.is_("count"), with_traveller(p, name),
                     visible_count(p, Sym[name])), source=TRAVELLER.at(107))
    rule.set(tallied[p, Element.totems], count(range(R * C), lambda i: symbol[
        p, i // C, i % C].is_one_of(*[Sym[t] for t in TOTEMS])),
        source=FATE.at(100, "すべてのタイプの合計"))
    rule.set(tallied[p, Element.volcanoes], visible_count(p, Sym.volcano), source=FATE.at(103))
    rule.set(tallied[p, Element.beach_cards], beach_cards_of(p), source=FATE.at(101))
    rule.set(tallied[p, Element.coconuts],
             coconuts[p] + if_(traveller_coconuts.is_("count"), traveller_coconut_count(p), 0),
             source=FATE.at(102))
    with rule.when(scorer + 1 < N):
        rule.add(scorer, 1)
    with rule.otherwise():
        rule.set(phase, Phase.over, source=END.at(150, "その後ゲームが終了し"))


# =====================================================================================
# Scoring, the end and the winner
# =====================================================================================
def has_most(p, e):
    """Player ``p`` has the most of element ``e``, ties included (L94, L157)."""
    return most(lambda q: tallied[q, e], of=p, over=game.players())


def fate_value(f, p):
    """What fate card ``f`` is worth to player ``p`` at the end (L94-103, L157)."""
    parts = []
    for key, card in FATES.items():
        e1, e2, plus, minus = card.element, card.second_element, card.plus, card.minus
        if e2 is None:
            v = if_(has_most(p, Element[e1]), plus, 0 - minus)
        else:
            a, b = has_most(p, Element[e1]), has_most(p, Element[e2])
            v = if_(all_of(a, b), plus, if_(any_of(a, b), BOTH_ONE, 0 - minus))
        parts.append((Fate[key], v))
    out = parts[-1][1]
    for member, v in reversed(parts[:-1]):
        out = if_(f == member, v, out)
    return out


def fate_points(p):
    return sum_of(Fate, lambda f: if_(fate_owner[f] == p, fate_value(f, p), 0))


def coconut_total(p):
    """Coconuts for the bonus: the traveller's included (L159)."""
    return coconuts[p] + traveller_coconut_count(p)


def beach_bonus(p):
    return if_(all_of(most(beach, of=p, over=game.players()),
                      implies(beach_bonus_at_zero.is_("needs_a_beach"), beach[p] >= 1)),
               BONUS, 0)


def coconut_bonus(p):
    return if_(most(coconut_total, of=p, over=game.players()), BONUS, 0)


def final_score(p):
    return (sum_of(Source, lambda s: sheet[p, s]) + traveller_points[p] + fate_points(p)
            + beach_bonus(p) + coconut_bonus(p))


def tie_coconuts(p):
    return coconuts[p] + if_(traveller_coconuts.is_("count"), traveller_coconut_count(p), 0)


game.current_player(if_(phase.is_one_of(Phase.scoring, Phase.tally), scorer, to_move),
                    source=AIM.at(33) + "; " + SCORING.at(126))
game.terminal(phase == Phase.over, source=END.at(150))
game.score(final_score, source=FINAL.at("154-159"))
game.tie_break(tie_coconuts, source=FINAL.at(163, "ココナッツカウンターが最も多いプレイヤーが勝ちます"))
game.shared_ties(source=FINAL.at(163, "それらのプレイヤー全員が勝利を分け合います"))
# setup 3N + 5; a turn at most 6 steps (choose, pay, place, draw, fate, traveller) over 9N turns;
# scorings 1 + 2 + 3 choices per player; the final count one step per player
game.max_steps(3 * MAXP + 5 + 6 * ROUNDS * MAXP + 6 * MAXP + MAXP,
               source=AIM.at(33, "9ラウンド") + "; " + SCORING.at("128-130"), bmc_depth=3)
game.check_examples(20, reason="a 4-player game is about 200 steps, each placement "
                               "weighing 120 positions: 20 examples take about a minute")

from . import looks  # noqa: E402,F401 - looks.py: how a state looks

from . import invariants  # noqa: E402,F401 - invariants.py: what must always hold

SPEC = game.build()
