"""Aquatica's components and vocabulary: what the seed does not give (assumptions, each with its
reason and origin, and the catalogues of components.toml read through their schemas), the
enums the rules speak of, and the catalogue as tables keyed by card, location and icon. A
part of spec.py, imported after the numbers the seed prints.
"""

import attrs

from rulespec.spec import (Absent, any_of, derived, lookup)
from rulespec.spec.components import (member_of)

from .spec import (COMPONENTS, PRINTINGS, SCOUT_KEEP, book, game)

# =====================================================================================
# Component data the seed does not give (assumptions, each with reason and origin)
# =====================================================================================
game.assume("player_count", [2, 4],
            reason="the seed does not say; Board Game Arena offers 2-4 players (the box says "
                   "1-4; the solo game is a different rule set, out of scope)",
            origin=f"{COMPONENTS} (hu.boardgamearena.com gamepanel aquatica)")

LOC_TYPES = {"shark_bay": "Shark Bay", "sunken_ships": "Sunken Ships",
             "decayed_civilizations": "Decayed Civilizations",
             "ocean_volcanoes": "Ocean Volcanoes"}
game.assume("location_types", list(LOC_TYPES),
            reason="the seed names no location types; the published game has four, and "
                   "a +2 power badge of a type helps only to conquer that type",
            origin=f"{COMPONENTS} §Turn ('4 base Location types')")

# The catalogues (components.toml, one entry per component with its provenance): the 14
# location kinds, 4 identical copies each; the characters; the trained and wild mantas.
ICON_NAMES = ["empty", "coin1", "coin2", "power1", "power2", *(f"badge_{t}" for t in LOC_TYPES),
              "scout", "recruit", "recruit_free", "take_back", "raise1", "raise2",
              "full_raise", "score"]
CARD_EFFECTS = ["scout", "recruit", "recruit_free", "buy", "conquer", "take_back", "wave",
                "raise2", "raise1", "full_raise", "score", "return_all", "ready"]
WILD_NAMES = ["coin", "power", "raise"]


@attrs.frozen
class Location:
    """A location kind: its type, its price in coins (buy, L31) and power (conquer, L34),
    its prosperity points, its depths from the top (L15) and the wild manta at its bottom."""
    type: str = attrs.field(validator=member_of(list(LOC_TYPES)))
    coins: int
    power: int
    points: int
    depths: list[str] = attrs.field(validator=member_of(ICON_NAMES))
    wild_manta: str | None = attrs.field(default=None,
                                         validator=attrs.validators.optional(member_of(WILD_NAMES)))


@attrs.frozen
class Character:
    """A character card: what the card says, the resources gained when it is played and its
    effects in printed order."""
    text: str
    coins: int = 0
    power: int = 0
    effects: list[str] = attrs.field(factory=list, validator=member_of(CARD_EFFECTS))


@attrs.frozen
class Manta:
    """A manta: the icon on its effect side (and, for a wild kind, how many there are)."""
    icon: str = attrs.field(validator=member_of(ICON_NAMES))
    count: int = 1


def _character_table(name):
    """A catalogue of characters as {card: (resources, effects, text)}."""
    return {k: ({"coins": c.coins, "power": c.power}, list(c.effects), c.text)
            for k, c in game.components(name, Character).items()}


LOCATIONS = {k: (loc.type, loc.coins, loc.power, loc.points, list(loc.depths), loc.wild_manta)
             for k, loc in game.components("location_catalogue", Location).items()}
LOC_COPIES = game.assume("location_copies", 4,
                         reason="56 locations over the 14 constructed kinds",
                         origin=f"{COMPONENTS} §Components ('56 Location cards')")
MAX_DEPTHS = 4
UPPER_SLOTS = game.assume(
    "upper_row_slots", SCOUT_KEEP,
    reason="the upper (scouted) row holds the at most 4 locations a scout keeps (L47); the "
           "English help says the top row has less room than the bottom one",
    origin=f"INFERENCE from {book.at('47')}; en.doc.boardgamearena.com Gamehelpaquatica")
UPPER_DISCOUNT = game.assume(
    "upper_row_conquer_discount", 1,
    reason="the seed does not say why the upper row matters; the English help of the same "
           "site: scouted locations cost 1 power less to conquer, the coin price unchanged",
    origin=f"{COMPONENTS} §Setup (BGA Gamehelpaquatica; utility)")

STARTING = _character_table("starting_characters")
KINGS = _character_table("king_cards")
OCEAN_COPIES = 3
OCEAN = _character_table("ocean_characters")
game.assume("two_player_deck", "remove one set (the 'O' symbol): 2 copies of each",
            reason="with 2 players the cards with the 'O' symbol leave the Ocean deck",
            origin=f"{COMPONENTS} §Setup (ultraboardgames, original rulebook text)")
game.assume("two_player_matrona", "playing Matrona also removes the leftmost character of "
            "the row from the game (the row slides and refills)",
            reason="the 2-player adjustment that keeps the character deck moving",
            origin=f"{COMPONENTS} §Turn (utility, citing Cold Waters p.11 / FAQ #26)")
CHAR_ROW = 6
RECRUIT_COST = game.assume(
    "recruit_cost_by_slot", [1, 2, 2, 3, 4, 5],
    reason="the recruit cost is printed under each slot of the character row (a goal token "
           "asks for a 5-coin recruit); the values are not known. The row slides toward "
           "the cheap end and refills at the dear end",
    origin=f"{COMPONENTS} §Turn ('pay coins shown under a character in the row'); "
           "values NOT FOUND")
game.assume("character_row", "6 face up, slides and refills from the deck after a recruit",
            reason="the seed does not describe the row",
            origin=f"{COMPONENTS} §Setup, §Turn; {PRINTINGS} (brettspiel-news.de)")
game.assume("recruit_goes_to_hand", True,
            reason="L28 says a recruit 'joins your territory'; the research says into the hand",
            origin=f"{COMPONENTS} §Turn")
TRAINED = [m.icon for m in game.components("trained_mantas", Manta).values()]
WILD = {k: (m.icon, m.count) for k, m in game.components("wild_mantas", Manta,
                                                       members=WILD_NAMES).items()}
GOAL_TEXT = {"eight_characters": "8 character cards in hand (the King counts)",
             "five_locations": "5 locations on your board",
             "three_scored": "3 or more locations scored",
             "two_wild_mantas": "2 or more wild mantas"}
game.assume("goals_printed", GOAL_TEXT,
            reason="the seed does not say what the four goals ask (L50); these are the goals "
                   "printed on the board (the variable goal tokens are out of scope)",
            origin=f"{COMPONENTS} §Goals (utility; playeraid.net)")
SPOT_POINTS = game.assume(
    "goal_spot_points", [5, 4, 3, 2, 1],
    reason="each spot shows its points (L53) and earlier claims score more (L49); the values "
           "are not known",
    origin=f"{COMPONENTS} §Goals: 'Goal-track point values per spot: NOT FOUND'")
game.assume("printed_effect_order", "scout, recruit, free recruit, buy, conquer, take back, "
            "wave, raise 2, raise 1, full raise, score",
            reason="the cards of the catalogue print their effects in this order (the "
                   "starting cards: 'Scout, 1 power, Conquer', '1 coin + Buy'); coins, power, "
                   "readying and returning cards happen when the card is played",
            origin=f"CONSTRUCTED, after {PRINTINGS}")
game.assume("board_slot", "a new location goes into the first free slot of the player board",
            reason="the five slots are alike (L35 limits only their number)",
            origin="INFERENCE")
game.assume("first_player", "seat 0",
            reason="the rulebook starts with the last player to swim in the sea; any seat "
                   "will do",
            origin=f"{COMPONENTS} §Setup (gamerules.com)")
game.assume("fully_raised_gives_wild_manta", True,
            reason="the seed is silent; a location raised to its bottom at once gives the "
                   "wild manta printed there (if any and if the supply has one), ready",
            origin=f"{COMPONENTS} §Turn; BGA English help ('may grant a Wild Manta')")
game.assume("extra_effect_timing",
            "resource icons (coins, power) only while the card's effects are being carried "
            "out; effect icons before or after that (and, under extra_timing=any_time, "
            "between the card's effects)",
            reason="L17: resources only in the main action, and no player would read it "
                   "otherwise; L19: effects before or after it (whether also between the "
                   "card's effects is the point extra_timing)",
            origin=f"{book.at('17')}; {book.at('19')}; {COMPONENTS} §Turn (utility)")
game.assume("raise_past_the_bottom", "a raise stops at the bottom of the location",
            reason="L42 slides the location up by the icon's number; a location cannot "
                   "slide further than its last depth",
            origin="INFERENCE")
game.assume("end_turn_order", "the extra turns go on in seat order; a second end trigger "
            "changes nothing",
            reason="L57 says only that everyone takes one more turn",
            origin=f"INFERENCE from {book.at('57')}")
game.assume("scored_pile_hidden", True,
            reason="the seed does not say; the scoring pile is secret (its size is seen)",
            origin=f"{COMPONENTS} §Turn ('secret scoring pile')")

# =====================================================================================
# Vocabulary
# =====================================================================================
Loc = game.enum("Loc", {"none": "no location", **{
    k: f"{k.replace('_', ' ')} ({LOC_TYPES[v[0]]}; {v[1]} coins or {v[2]} power; "
       f"{v[3]} points)" for k, v in LOCATIONS.items()}}, source=book.at("29-35"))
LocType = game.enum("LocType", {k: f"a {v} location" for k, v in LOC_TYPES.items()},
                    source=f"{COMPONENTS} §Turn")
Icon = game.enum("Icon", {
    "empty": "an empty depth: it cannot be used (L21)",
    "coin1": "1 coin", "coin2": "2 coins (L75)", "power1": "1 power", "power2": "2 power",
    **{f"badge_{t}": f"2 power toward conquering a {n} location" for t, n in LOC_TYPES.items()},
    "scout": "scout (L45-47)", "recruit": "recruit, paying the slot's coins (L27)",
    "recruit_free": "recruit without paying", "take_back": "a discarded character back to hand",
    "raise1": "raise another location by 1 (L36-42)", "raise2": "raise another location by 2",
    "full_raise": "raise another location to its bottom", "score": "score a fully raised "
    "location (L43-44)"}, source=f"{book.at('15-26')}; {COMPONENTS} §Turn (other icons)")
Effect = game.enum("Effect", {
    "scout": "keep up to 4 locations of the lower row in the upper row, refill 6 (L47)",
    "recruit": "a character of the row into your hand, paying its slot's coins (L27-28)",
    "recruit_free": "a character of the row into your hand, for nothing",
    "buy": "a location of a row onto your board, paying its coins (L29-31)",
    "conquer": "a location of a row onto your board, paying its power (L32-34)",
    "take_back": "one of your discarded characters back into your hand",
    "wave": "the Wave-Teller's choice: raise one by 2, two by 1, or score two",
    "raise2": "raise a location of your board by 2 (L36-42)",
    "raise1": "raise a location of your board by 1 (L36-42)",
    "full_raise": "raise a location of your board to its bottom",
    "score": "move a fully raised location to your scoring pile (L43-44)",
    "none": "no effect to carry out (a resource icon)"}, source=f"{book.at('22-47')}")
Card = game.enum("Card", {"none": "no card", **{k: v[2] for k, v in STARTING.items()},
                          **{k: v[2] for k, v in KINGS.items()},
                          **{k: v[2] for k, v in OCEAN.items()}}, source=book.at("7", "キャラクターカード"))
WildKind = game.enum("WildKind", {k: f"a wild manta showing {icon}" for k, (icon, _) in
                                  WILD.items()}, source=f"{COMPONENTS} §Turn")
MantaSide = game.enum("MantaSide", {"ready": "effect side up: it can be used (L13)",
                                    "tired": "flipped after use (L13)",
                                    "goal": "on a goal track (L51)"}, source=book.at("12-13, 51"))
Goal = game.enum("Goal", GOAL_TEXT, source=book.at("48-54"))
MainStep = game.enum("MainStep", {
    "before": "the card is not played yet this turn (L5)",
    "during": "the card's effects are being carried out: resources may be gained (L17)",
    "after": "the card's effects are done (L19)"}, source=book.at("5-19"))
LocRow = game.enum("LocRow", {"lower": "the location row, refilled by scouting",
                              "upper": "the scouted row (L47)"}, source=book.at("47"))
WaveChoice = game.enum("WaveChoice", {
    "raise_one_by_two": "raise one location by 2", "raise_two_by_one": "raise two locations "
    "by 1 each", "score_two": "score two locations"}, source=PRINTINGS)

STARTING_CARDS = [Card[k] for k in STARTING]
KING_CARDS = [Card[k] for k in KINGS]
OCEAN_CARDS = [Card[k] for k in OCEAN]
ALL_CARDS = {**STARTING, **KINGS, **OCEAN}

# --- card data as tables keyed by the card -------------------------------------------
CARDS_SRC = f"{PRINTINGS}; constructed (see the assumptions)"
#: 'no card' (nothing in play) shows nothing: no rule reads its entry (prove checks)
NO_CARD = Absent("no card is in play")
#: 'no location' (an empty slot) is never bought or conquered: no rule reads its costs
NO_LOCATION = Absent("an empty slot is no location")

# (each value is computed from the card's entry: derived() keeps where it comes from)
card_coins = game.table("card_coins", {Card.none: NO_CARD, **{
    Card[k]: derived(v[0].get("coins", 0), v) for k, v in ALL_CARDS.items()}}, source=CARDS_SRC)
card_power = game.table("card_power", {Card.none: NO_CARD, **{
    Card[k]: derived(v[0].get("power", 0), v) for k, v in ALL_CARDS.items()}}, source=CARDS_SRC)
card_effects = {e: game.table(f"card_{e}", {Card.none: NO_CARD, **{
    Card[k]: derived(v[1].count(e), v) for k, v in ALL_CARDS.items()}}, source=CARDS_SRC)
    for e in Effect.members if e != "none"}
card_returns_all = game.table("card_returns_all", {Card.none: False, **{
    Card[k]: derived("return_all" in v[1], v) for k, v in ALL_CARDS.items()}},
    source=CARDS_SRC)
card_readies = game.table("card_readies", {Card.none: False, **{
    Card[k]: derived("ready" in v[1], v) for k, v in ALL_CARDS.items()}}, source=CARDS_SRC)
KING_NUMBER = {Card[k]: n for n, k in enumerate(KINGS, start=1)}

# --- location data -------------------------------------------------------------------
LOC_SRC = "assumption location_catalogue"
loc_type = game.table("loc_type", {Loc.none: LocType.shark_bay, **{
    Loc[k]: LocType[v[0]] for k, v in LOCATIONS.items()}}, source=LOC_SRC)
buy_cost = game.table("buy_cost", {Loc.none: NO_LOCATION,
                                   **{Loc[k]: v[1] for k, v in LOCATIONS.items()}},
                      source=f"{book.at('31', '場所カードの上部に記載されたコインの数を支払います')}; {LOC_SRC}")
conquer_cost = game.table("conquer_cost", {Loc.none: NO_LOCATION, **{
    Loc[k]: v[2] for k, v in LOCATIONS.items()}},
    source=f"{book.at('34', '場所カードの上部に記載されたパワーの数を支払います')}; {LOC_SRC}")
points = game.table("points", {Loc.none: 0, **{Loc[k]: v[3] for k, v in LOCATIONS.items()}},
                    source=f"{book.at('67')}; {LOC_SRC}")
depths = game.table("depths", {Loc.none: 0, **{Loc[k]: derived(len(v[4]), v)
                                               for k, v in LOCATIONS.items()}},
                    source=f"{book.at('15', '各場所には、左側に示された深さ')}; {LOC_SRC}")
has_wild = game.table("has_wild", {Loc.none: False, **{
    Loc[k]: derived(v[5] is not None, v) for k, v in LOCATIONS.items()}}, source=LOC_SRC)
wild_at_bottom = game.table("wild_at_bottom", {Loc.none: WildKind.coin, **{
    Loc[k]: WildKind[v[5] or "coin"] for k, v in LOCATIONS.items()}}, source=LOC_SRC)
# the icon at depth d of a location: a row of 5 entries per location (d = 0..4)
DEPTH_ICONS = [[Icon[LOCATIONS[k][4][d]] if k != "none" and d < len(LOCATIONS[k][4])
                else derived(Icon.empty, LOCATIONS.get(k, ())) for d in range(MAX_DEPTHS + 1)]
               for k in Loc.members]


def depth_icon(loc, d):
    """The icon at depth ``d`` (0 = the top) of a location kind (empty past its bottom)."""
    return lookup(DEPTH_ICONS, loc, d, name="icon_at_depth")


# --- icons: what each gives ------------------------------------------------------------
ICON_SRC = f"{book.at('16-21')}; {COMPONENTS} §Turn"
BADGES = {f"badge_{t}": t for t in LOC_TYPES}
icon_coins = game.table("icon_coins", {Icon[n]: {"coin1": 1, "coin2": 2}.get(n, 0)
                                       for n in Icon.members}, source=ICON_SRC)
icon_power = game.table("icon_power", {Icon[n]: {"power1": 1, "power2": 2}.get(n, 0)
                                       for n in Icon.members}, source=ICON_SRC)
icon_badge = game.table("icon_badge", {Icon[n]: n in BADGES for n in Icon.members},
                        source=f"{COMPONENTS} §Turn ('+2 power on a Location-type badge')")
icon_badge_type = game.table("icon_badge_type", {
    Icon[n]: LocType[BADGES.get(n, "shark_bay")] for n in Icon.members}, source=ICON_SRC)
icon_effect = game.table("icon_effect", {
    Icon[n]: Effect[n] if n in Effect.members else Effect.none for n in Icon.members},
    source=ICON_SRC)
BADGE_POWER = 2
wild_icon = game.table("wild_icon", {WildKind[k]: Icon[icon] for k, (icon, _) in WILD.items()},
                       source="assumption wild_mantas")
TRAINED_ICONS = [Icon[n] for n in TRAINED]


def is_resource(icon):
    """Coins, power or a power badge: gained only during the main action (L17)."""
    return any_of(icon_coins[icon] > 0, icon_power[icon] > 0, icon_badge[icon])
