"""MOTU's component data and the tables the rules read from it: the island and village
cards, the fate cards and the travellers (components.toml, one entry each with its
provenance), and the scoring tables and deck sizes the seed leaves out (assumptions).
A part of spec.py (docs/formats/components.md, "Game folders").
"""

import attrs
from rulespec.spec import Absent, SpecError, derived
from rulespec.spec.components import ComponentValueError, member_of

from .spec import (C, CARD_H, CARD_W, CENTRE, FATE, ISLAND_CARDS, POSITION, R, ROW, SETUP, Sym,
                   TOTEMS, TRAVELLER, Terrain, game, research)

# --- the cards (component data: components.toml) -------------------------------------
TERRAIN_NAMES = ["land", "sea", "beach_h", "beach_v"]


def _card_rows(names):
    """A card's cells as the data file writes them: 3 rows of 2 names, top row first."""
    def check(_instance, attribute, rows):
        if len(rows) != CARD_H or any(len(r.split()) != CARD_W or not set(r.split()) <= set(names)
                                      for r in rows):
            raise ComponentValueError(
                f"'{attribute.name}' is {CARD_H} rows of {CARD_W} names among "
                f"{', '.join(names)}, got {rows!r}", attribute.name)
    return check


@attrs.frozen
class CardFace:
    """An island or village card, upright: each cell's terrain and symbol."""
    terrain: list[str] = attrs.field(validator=_card_rows(TERRAIN_NAMES))
    symbols: list[str] = attrs.field(validator=_card_rows(Sym.members))

    def cells(self, rows):
        """Cell k = row * 2 + column of ``rows`` (the terrain or the symbols)."""
        return [name for row in rows for name in row.split()]


CATALOGUE = game.components("island_cards", CardFace)
VILLAGES = game.components("villages", CardFace)
if (len(CATALOGUE), len(VILLAGES)) != (ISLAND_CARDS, 6):
    raise SpecError(f"components: the seed has {ISLAND_CARDS} island cards (L11) and 6 "
                    f"villages (L9), got {len(CATALOGUE)} and {len(VILLAGES)}")

Card = game.enum("Card", {"none": "no card (an empty slot)",
                          **{k: f"island card {k}: {' / '.join(c.terrain)}; "
                                f"{' / '.join(c.symbols)}" for k, c in CATALOGUE.items()}},
                 source=SETUP.at(11, "58枚の島カード"))
Village = game.enum("Village", {k: f"village card {k}: {' / '.join(c.symbols)}"
                                for k, c in VILLAGES.items()},
                    source=SETUP.at(9, "6枚の村カードから1枚"))


def _card_tables(name: str, enum, data: dict, empty_first: bool):
    """One table per card cell (k = row * 2 + column, upright): the terrain as printed,
    the terrain after a quarter turn (a beach band's direction turns with the card) and
    the symbol."""
    turned = {"beach_h": "beach_v", "beach_v": "beach_h"}
    terr, terr_turned, sym = [], [], []
    for k in range(CARD_H * CARD_W):
        t, tt, s = {}, {}, {}
        if empty_first:
            t[enum.none] = Terrain.empty
            tt[enum.none] = Terrain.empty
            s[enum.none] = Sym.none
        for key, card in data.items():
            name_t = card.cells(card.terrain)[k]
            # derived() keeps the entry the value comes from
            t[enum[key]] = derived(Terrain[name_t], card.terrain)
            tt[enum[key]] = derived(Terrain[turned.get(name_t, name_t)], card.terrain)
            s[enum[key]] = derived(Sym[card.cells(card.symbols)[k]], card.symbols)
        where = f"{name} catalogue (components.toml), cell {k}"
        terr.append(game.table(f"{name}_terrain_{k}", t, source=where))
        terr_turned.append(game.table(f"{name}_terrain_turned_{k}", tt, source=where))
        sym.append(game.table(f"{name}_symbol_{k}", s, source=where))
    return terr, terr_turned, sym


CARD_TERRAIN, CARD_TERRAIN_TURNED, CARD_SYMBOL = _card_tables("card", Card, CATALOGUE, True)
VILLAGE_TERRAIN, _, VILLAGE_SYMBOL = _card_tables("village", Village, VILLAGES, False)


#: an empty row slot is no card: no rule counts what it shows (the row is full when a
#: traveller counts it, L107); reading it is a rule error, which ``prove`` rules out
NO_CARD = Absent("an empty slot is no card")


def _symbol_count_table(name: str):
    counts = {Card.none: NO_CARD}
    for key, card in CATALOGUE.items():
        counts[Card[key]] = derived(card.cells(card.symbols).count(name), card.symbols,
                                    TOTEMS if name in TOTEMS else ())
    return game.table(f"card_{name}s", counts, source="island card catalogue (components.toml)")


CARD_COUNT = {s: _symbol_count_table(s) for s in Sym.members[1:-1]}
CARD_TOTEMS = game.table("card_totems", {Card.none: NO_CARD, **{
    c: derived(sum(CARD_COUNT[t].values[k] for t in TOTEMS), CATALOGUE[Card.members[k]].symbols,
               TOTEMS)
    for k, c in enumerate(Card) if k}}, source="island card catalogue (components.toml)")
PRINTED_BEACH = game.table("card_shows_beach", {
    Card.none: False, **{Card[k]: derived(any(t.startswith("beach") for t in c.cells(c.terrain)),
                                          c.terrain)
                         for k, c in CATALOGUE.items()}},
    source="island card catalogue (components.toml): a 'beach card' shows beach")

# --- scoring tables the seed leaves out -------------------------------------------------
TOTEM_POINTS = game.assume(
    "totem_points", [0, 1, 3, 6, 10, 15],
    reason="the seed scores 'by the number of different totem kinds' (L143); its table (p. "
           "12-13 of the booklet) is not in the summary; points for 0..5 kinds assumed on "
           "a triangular scale",
    origin="NOT FOUND (research/components.md: 'Exact point values per source NOT FOUND'); "
           "INVENTED")
RULER = game.assume(
    "volcano_ruler", {1: 0, 2: 1, 4: 2, 5: 2, 8: 3, 9: 4, 10: 4, 13: 5, 16: 5, 17: 4, 18: 4,
                      20: 3, 25: 2, 26: 2, 29: 1, 32: 1},
    reason="each volcano scores 0-5 points by the ruler distance between the centres of the "
           "village and the volcano (L144; one example shows 3, L146); the bands are not "
           "given. Assumed by squared cell distance (row^2 + column^2 between the cells): "
           "next to the village 0, then rising to 5 at 3.6-4 cells and falling again "
           "('far, but not too far')",
    origin="NOT FOUND; shape from " + research.at("Harmony sources") + " (spiele-archiv.de: 'weit, "
           "aber nicht zu weit'); INVENTED numbers")


def ruler_points(r: int, c: int) -> int:
    d2 = (r - CENTRE[0]) ** 2 + (c - CENTRE[1]) ** 2
    return RULER.get(d2, 0)


RULER_BY_CELL = [derived(ruler_points(r, c), POSITION, RULER) for r in range(R) for c in range(C)]

# --- decks -----------------------------------------------------------------------------
DECK_SHARE = game.assume(
    "deck_sizes", {"A": 4, "B": 3, "C": 2},
    reason="the seed sends the deck sizes to a table it does not contain (L15). Every player "
           "places 4 cards by the first scoring, 7 by the second and 9 in all (L132), one "
           "card per turn and one refill per take, so decks A, B and C hold 4, 3 and 2 cards "
           "per player (for 6 players 24 + 18 + 12 + the row's 4 = 58, every card). The "
           "property 'the player right of the first player draws each deck's last card' "
           "(L90) checks the inference",
    origin="INFERENCE (" + research.at("Turn", "deck sizes A = 4xN, B = 3xN, C = 2xN") + ")")

# --- fate cards (L94-103) ----------------------------------------------------------------
Element = game.enum("Element", {
    "fishers": "fishers", "fish": "fish", "hunters": "hunters", "birds": "birds",
    "canoes": "canoes", "palms": "palm trees", "totems": "totems of every kind together",
    "beach_cards": "beach cards (see the point beach_card)",
    "coconuts": "coconut counters not on cards (see the point traveller_coconuts)",
    "volcanoes": "volcanoes",
}, source=FATE.at("94-103"))
Fate = game.enum("Fate", {
    "palms_8": "most palm trees: +8, else -5", "canoes_4": "most canoes: +4, else -3",
    "fish_birds_10": "most fish and most birds: both +10, one +2, neither -8",
    "totems_6": "most totems (all kinds): +6, else -4",
    "beaches_6": "most beach cards: +6, else -4",
    "coconuts_4": "most coconuts not on cards: +4, else -3",
    "volcanoes_6": "most volcanoes: +6, else -4",
    "fishers_5": "most fishers: +5, else -3", "hunters_5": "most hunters: +5, else -3",
    "birds_4": "most birds: +4, else -3",
}, source=FATE.at("94-103"))


def _at_most_the_row(_instance, attribute, price):
    # L94 puts the price on the row's cards one counter per card: never above its 4 cards
    if not 1 <= price <= ROW:
        raise ComponentValueError(f"'{attribute.name}' must be 1 to {ROW}: L94 pays one "
                                  f"counter per row card, got {price}", attribute.name)


@attrs.frozen
class FateCard:
    """Its element(s), the points won (plus) or lost (minus) and its price in coconuts."""
    element: str = attrs.field(validator=member_of(Element))
    plus: int
    minus: int
    price: int = attrs.field(validator=_at_most_the_row)
    second_element: str | None = attrs.field(
        default=None, validator=attrs.validators.optional(member_of(Element)))


FATES = game.components("fate_cards", FateCard, members=Fate)
FATE_PLUS = game.table("fate_plus", {Fate[k]: f.plus for k, f in FATES.items()},
                       source=FATE.at("96-103") + " (components.toml)")
FATE_MINUS = game.table("fate_minus", {Fate[k]: f.minus for k, f in FATES.items()},
                        source=FATE.at("96-103") + " (components.toml)")
FATE_PRICE = game.table("fate_price", {Fate[k]: f.price for k, f in FATES.items()},
                        source=FATE.at(94) + " (components.toml: prices NOT FOUND)")
BOTH_ONE = 2
game.constant("fate_both_one_element", BOTH_ONE,
              source=FATE.at(99, "コンポーネントのうち1つを最も多く持っている場合は2ポイント"))

# --- travellers (L105-118) -------------------------------------------------------------
Traveller = game.enum("Traveller", {
    "none": "no traveller (first-game variant)",
    "T1": "canoe + fish; 3 per beach card in the row",
    "T2": "hunter + palm; 3 per totem in the row",
    "T3": "palm + 2 coconuts; 4 per palm in the row",
    "T4": "3 fish; 2 per fish in the row",
    "T5": "bird + fisher; 3 per bird in the row (assumed)",
    "T6": "canoe + 1 coconut; 4 per canoe in the row (assumed)",
}, source=TRAVELLER.at("113-118"))
ROW_COUNTS = ["beach_cards", "totems", "palm", "fish", "bird", "canoe"]


@attrs.frozen
class TravellerCard:
    """The symbols and coconuts it adds once revealed, what it counts in the row (cards
    showing beach, totems of any kind, or one symbol) and the points per element counted."""
    symbols: list[str] = attrs.field(validator=member_of(Sym))
    coconuts: int
    counts: str = attrs.field(validator=member_of(ROW_COUNTS))
    points: int


TRAVELLERS = game.components("travellers", TravellerCard,
                             members=[t for t in Traveller.members if t != "none"])


def _traveller_table(name: str, fn):
    # 'no traveller' (the first game) is never revealed, so no rule reads its entry; not
    # Absent: prove infers that, but at ~250M units more a proof (docs/games/motu.md)
    values = {Traveller.none: 0}
    for key, card in TRAVELLERS.items():
        values[Traveller[key]] = fn(card)
    return game.table(name, values, source=TRAVELLER.at("115-118") + " (components.toml)")


TRAVELLER_SYMBOLS = {s: _traveller_table(f"traveller_{s}s",
                                          lambda d, s=s: derived(d.symbols.count(s), d.symbols))
                     for s in ["fisher", "fish", "hunter", "bird", "canoe", "palm"]}
TRAVELLER_COCONUTS = _traveller_table("traveller_printed_coconuts", lambda d: d.coconuts)
TRAVELLER_RATE = _traveller_table("traveller_points_per_element", lambda d: d.points)
TRAVELLER_COUNTS = {what: _traveller_table(f"traveller_counts_{what}",
                                           lambda d, w=what: derived(int(d.counts == w), d.counts))
                    for what in ROW_COUNTS}
