"""Aquatica (Ivan Tuzovsky, Cosmodrome Games 2019), written in the rulespec language.

Source: Board Game Arena's Japanese game help, seed file ``002_50b4d45ccb25edcc.txt`` (cited
by line, ``L7``, with a short quote). The page is cut off in its list of location icons
(L74-75). Component facts it does not print -- the cards, the mantas, the goals, the
2-player changes -- come from ``research/components.md`` (its §2 AQUATICA and §AQUATICA --
starting characters and printings) or are constructed; every such value is a
``game.assume(...)`` with its origin. ``docs/sources.md`` describes both texts;
``models/aquatica/README.md`` and ``docs/games/aquatica.md`` list the scope, the card
catalogue, the assumptions and the interpretation points.

Reading guide, in the rulebook's order: numbers printed in the seed; state; the setup and
the chance draws; a turn, split into small steps -- the main action (``play``), the extra
actions (``exploit`` a depth, use a manta), one step per effect (``buy``, ``conquer``,
``recruit``, ``raise``, ``score``, scouting ...), goals, ``end turn`` --; scoring and
tie-breaks. The folder's parts, in the order this file imports them: ``catalogue.py`` (the
assumptions, the catalogues of ``components.toml`` read through their schemas, the
vocabulary and the catalogue as tables), ``readings.py`` (the interpretation points and
rulesets), ``words.py`` (the expressions the rules are written with), and at the end
``view.py`` (how a state looks) and ``laws.py`` (what must always hold).

Modelling choices that keep the state small and finite: a card is a member of an enum and
every place holding cards is a count per card (a location kind comes in 4 identical
copies, an ocean character in 3), so the decks, hands, piles and rows are a few dozen small
integers; a location on a player board is its kind plus the number of depths slid past;
the effects still to carry out are counts per effect kind.
"""

from rulespec.spec import (PLAYERS, Game, all_of, any_of, count, forall, if_, implies, lookup,
                           min_, not_, sum_of)
from rulespec.spec.kit import Deck, Effects, Hands, Pile, Row

SEED = "002_50b4d45ccb25edcc.txt"

game = Game("aquatica", title="Aquatica", players=(2, 4), source=f"{SEED} L3-73",
            summary="Play one character card a turn and use mantas and location depths "
                    "around it to recruit characters, buy or conquer locations, raise and "
                    "score them, and race for four goals; cards in hand, goals and scored "
                    "locations count at the end.")
book = game.text(SEED, cite="L{}")           # the seed, cited by line: 「quote」
notes = game.text("research/components.md", cite="§{}")   # the research note, by section
COMPONENTS = notes.at("2 AQUATICA")
PRINTINGS = notes.at("AQUATICA — starting characters and printings")

# =====================================================================================
# Numbers printed in the seed
# =====================================================================================
MAX_LOCATIONS = 5
game.constant("locations_per_board", MAX_LOCATIONS,
              source=book.at("35", "場所カードは最大5枚まで"))
SCOUT_KEEP = 4
game.constant("scout_keeps_at_most", SCOUT_KEEP, source=book.at("47", "場所を4枚まで保持して上段のエリアに移動"))
ROW_LOCATIONS = 6
game.constant("scout_refill", ROW_LOCATIONS, source=book.at("47", "山札から6枚の場所カードを場に補充"))
GOALS = 4
game.constant("goals", GOALS, source=book.at("50", "海の上部には4つの目標があります"))
SPOTS = 5
game.constant("spots_per_goal_track", SPOTS, source=book.at("53", "各目標トラックには5つのマス"))
game.constant("points_per_character_in_hand", 1,
              source=book.at("65", "手札のキャラクターカード（王を含む）1枚につき1点"))
game.constant("coins_of_the_first_icon", 2, source=book.at("75", "そのターンで使用できる2コインを得ます"))

# Component data the seed does not give: catalogue.py (a part of this folder)
from .catalogue import (LOCATIONS, LOC_COPIES, MAX_DEPTHS,
                        UPPER_SLOTS, UPPER_DISCOUNT, STARTING, KINGS, OCEAN_COPIES,
                        OCEAN, CHAR_ROW, RECRUIT_COST, TRAINED, WILD, SPOT_POINTS,
                        Loc, LocType, Icon, Effect, Card, WildKind, MantaSide, Goal,
                        MainStep, LocRow, WaveChoice, STARTING_CARDS, KING_CARDS,
                        OCEAN_CARDS, ALL_CARDS, card_coins, card_power, card_effects,
                        card_returns_all, card_readies, loc_type, buy_cost,
                        conquer_cost, points, depths, has_wild, wild_at_bottom,
                        depth_icon, icon_coins, icon_power, icon_badge,
                        icon_badge_type, icon_effect, BADGE_POWER, wild_icon,
                        TRAINED_ICONS, is_resource)  # noqa: E402

# =====================================================================================
# State
# =====================================================================================
# The interpretation points (where the text allows more than one reading) and the
# rulesets that bundle them: readings.py.
from .readings import (order, partial, depth_reuse, empty_depth, resource_span,
                       goal_claim, reserve_point, deck_out, kings, scout_keep,
                       discard_timing, matrona, scout_optional, scout_rows,
                       can_be_done, extra_timing, score_timing, extra_without_effect)  # noqa: E402

N = game.num_players
to_move = game.field("to_move", range(0, 4), flow=True,
                     source=book.at("5", "ターンの間に") + "; assumption first_player",
                     doc="the player whose turn it is")
main = game.field("main", MainStep, flow=True, source=book.at("5-9"),
                  doc="where the turn stands with respect to its one main action")
coins = game.field("coins", game.at_least(0), flow=True, source=book.at("16-17"),
                   doc="coins gained this turn and not spent")
power = game.field("power", game.at_least(0), flow=True, source=book.at("16-17, 34"),
                   doc="power gained this turn and not spent")
badge = game.field("badge", game.at_least(0), shape=(LocType,), flow=True,
                   source=f"{COMPONENTS} §Turn; assumption location_types",
                   doc="power usable only to conquer that type")
# The effects still to carry out: the kit's queue (how many of each kind wait, in printed
# order or any order as `order` reads, "as far as possible" as `partial` reads)
fx = Effects(game, "pending", Effect, order=order, counted=2, flow=True, source=book.at("7-8"),
             order_source=f"{order.source}; assumption printed_effect_order",
             doc="effects still to carry out (of the card, or of one extra action)")
pending = fx.pending
source_slot = game.field("source_slot", range(-1, MAX_LOCATIONS), initial=-1, flow=True,
                         source=book.at("42", "他の場所カードに表示された「上昇」"),
                         doc="the board slot whose depth gave the pending effect (-1: none); "
                             "a raise from a location moves another location")
in_play = game.field("in_play", Card, flow=True, source=book.at("9", "プレイした後"),
                    doc="the card played this turn while its effects are carried out, under "
                        "discard_timing=after_effects (else none)")
extra_effect = fx.extra("extra_effect", none=Effect.none, allowed=extra_timing.is_("any_time"),
                        source=book.at("5, 13"), rules_source=extra_timing.source,
                        resets={source_slot: -1},
                        doc="the effect of an extra action taken between the card's effects "
                            "(extra_timing=any_time), carried out before the card's next one")
scouting = game.field("scouting", bool, flow=True, source=book.at("47"),
                      doc="a scout is choosing the locations to keep")
exploited = game.field("exploited", bool, shape=(MAX_LOCATIONS,), flow=True, source=book.at("20"),
                       doc="a depth of this slot's location was used this turn")
loc_to_draw = game.field("loc_to_draw", range(0, ROW_LOCATIONS + 1), flow=True,
                         source=book.at("47", "山札から6枚の場所カードを場に補充"),
                         doc="locations still to draw into the lower row")
char_to_draw = game.field("char_to_draw", range(0, CHAR_ROW + 1), flow=True,
                          source=f"{COMPONENTS} §Turn ('row slides left and refills')",
                          doc="characters still to draw into the row")
game.phases(main, {
    MainStep.before: ("you have not played a card this turn", book.at("5", "1つのメインアクション")),
    MainStep.during: ("the card's effects are being carried out", book.at("7-8")),
    MainStep.after: ("you have played a card and carried out its effects",
                     book.at("5", "1つのメインアクションを行い"))}, source=book.at("5-9"))
ending = game.field("ending", bool, flow=True, source=book.at("57"),
                    doc="an end condition has been met")
final_turns = game.field("final_turns", range(0, 5), flow=True, source=book.at("57"),
                         doc="extra turns still to begin after the current one")
trigger_seat = game.field("trigger_seat", range(0, 4), flow=True, source=book.at("57"),
                          doc="the player on turn when the end was triggered")
over = game.field("over", bool, flow=True, source=book.at("57", "ゲーム終了となります"))
met = game.field("met", bool, shape=(PLAYERS, Goal), source=book.at("51"),
                 doc="the goal's condition held at some moment of the player's turns "
                     "(read by goal_claim=once_met)")

LOC_COPY_TABLE = {Loc.none: 0, **{Loc[k]: LOC_COPIES for k in LOCATIONS}}
loc_deck = Deck(game, "loc_deck", Loc, copies=LOC_COPY_TABLE,
                source=f"{book.at('47, 60')}; {COMPONENTS} §Components", doc="the location deck")
lower = Row(game, "lower", ROW_LOCATIONS, Loc, empty=Loc.none, source=book.at("47", "場を"),
            doc="the location row (refilled only by scouting)")
upper = Row(game, "upper", UPPER_SLOTS, Loc, empty=Loc.none, source=book.at("47", "上段のエリア"),
            doc="the scouted row: conquering from it costs 1 power less")
board = game.field("board", Loc, shape=(PLAYERS, MAX_LOCATIONS), source=book.at("35"),
                   doc="the location in each slot of each player board")
depth = game.field("depth", range(0, MAX_DEPTHS + 1), shape=(PLAYERS, MAX_LOCATIONS),
                   source=book.at("20", "深さを上にスライド"),
                   doc="how many depths of the slot's location have been slid past")
scored = Pile(game, "scored", Loc, copies=LOC_COPIES, per_player=True, counted=True,
              visible="owner",
              source=book.at("67", "自分の得点化した場所カードの山") + "; assumption scored_pile_hidden",
              doc="each player's scoring pile")
loc_box = Pile(game, "loc_box", Loc, copies=LOC_COPIES, source=book.at("47"),
               doc="locations out of the game (discarded when scouting)")

CARD_COPIES = {Card.none: 0, **{c: 4 for c in STARTING_CARDS}, **{c: 1 for c in KING_CARDS},
               **{c: OCEAN_COPIES for c in OCEAN_CARDS}}
char_deck = Deck(game, "char_deck", Card, copies=CARD_COPIES,
                 source=f"{book.at('61')}; {COMPONENTS} §Components",
                 doc="the character deck (at first every card of the box; the setup deals "
                     "the starting cards out)")
char_row = Row(game, "char_row", CHAR_ROW, Card, empty=Card.none,
               source=f"{book.at('27')}; {COMPONENTS} §Setup; assumption character_row",
               doc="the characters for hire")
hand = Hands(game, "hand", Card, copies=4, source=book.at("7", "手札から"))
discard = Pile(game, "discard", Card, copies=4, per_player=True, counted=True,
               source=book.at("9", "自分の捨て札の山に表向きで置きます"), doc="each player's discard pile, face up")
char_box = Pile(game, "char_box", Card, copies=4, source=f"{COMPONENTS} §Setup",
                doc="characters out of the game (other symbols, unused Kings, removed sets)")
trained = game.field("trained", MantaSide, shape=(PLAYERS, len(TRAINED)),
                     source=book.at("12-13, 51"),
                     doc="each player's own trained mantas")
WILD_KINDS = list(WildKind)
wild_ready = game.field("wild_ready", range(0, 13), shape=(PLAYERS, WildKind),
                        source=f"{COMPONENTS} §Turn", doc="ready wild mantas of each kind")
wild_tired = game.field("wild_tired", range(0, 13), shape=(PLAYERS, WildKind),
                        source=f"{COMPONENTS} §Turn", doc="tired wild mantas of each kind")
WILD_TOTAL = sum(n for _, n in WILD.values())
wild_supply = game.field("wild_supply", range(0, 13), shape=(WildKind,),
                         initial=[n for _, n in WILD.values()], source=f"{COMPONENTS} §Setup",
                         doc="wild mantas beside the board")
goal_spot = game.field("goal_spot", range(-1, 4), shape=(Goal, SPOTS), initial=-1,
                       source=book.at("51-54"), doc="the player whose manta is on each spot "
                       "(-1: free), best spot first")

# Words the rules use: words.py (a part of this folder)
from .words import (me, SLOTS, goal_taken_by, claims_of, filled_spots,
                    locations_on_board, wild_count, first_free_slot, fully_raised,
                    raisable, top_icon, GOAL_CONDITIONS, condition, row_card,
                    conquer_price, can_pay_power, can_raise, can_score, POSSIBLE,
                    buy_affordable, recruit_affordable, affords_both, MOST_EFFECTS)  # noqa: E402

fx.possible_when(POSSIBLE)
fx.paused_while(scouting, "no scout is choosing", source=book.at("47"))

# =====================================================================================
# Setup
# =====================================================================================
@game.setup(source=f"{COMPONENTS} §Setup; {PRINTINGS}")
def setup(rule):
    """Each player takes the 6 characters of their symbol (and, with Kings, King n for the
    n-th player); the rest of the starting cards and Kings go back to the box; with 2
    players one set of Ocean characters leaves the deck. Then 6 locations and 6
    characters are drawn (chance)."""
    for p in range(game.max_players):
        for c in STARTING_CARDS:
            char_deck.take(rule, c)
            with rule.when(p < N, source=book.at("7", "手札")):
                hand.put(rule, c, of=p)
            with rule.otherwise():
                char_box.put(rule, c)
    for n, king in enumerate(KING_CARDS):
        char_deck.take(rule, king)
        with rule.when(all_of(kings.is_("dealt"), n < N), source=kings.source):
            hand.put(rule, king, of=n)
        with rule.otherwise():
            char_box.put(rule, king)
    with rule.when(N == 2, source="assumption two_player_deck"):
        for c in OCEAN_CARDS:
            char_deck.take(rule, c)
            char_box.put(rule, c)
    rule.set(loc_to_draw, ROW_LOCATIONS)
    rule.set(char_to_draw, CHAR_ROW)


# =====================================================================================
# The end (L55-61): a trigger gives every player one more turn
# =====================================================================================
def trigger_end(rule, source):
    """An end condition is met on ``to_move``'s turn: everyone, the trigger's player
    included, takes one more turn (L57). A second trigger changes nothing."""
    with rule.when(not_(ending), source=source):
        rule.set(ending, True)
        rule.set(final_turns, N)
        rule.set(trigger_seat, me)


def after_draw(rule, deck, to_draw, source):
    """A card came off ``deck``; one fewer to draw. An empty deck ends the drawing and
    is exhausted: at once (last_card_drawn) or if a card was still needed (draw_fails)."""
    rule.add(to_draw, -1)
    with rule.when(deck.size() == 0):
        with rule.when(any_of(deck_out.is_("last_card_drawn"), to_draw > 0)):
            trigger_end(rule, source)
        rule.set(to_draw, 0)


def need_cards(rule, deck, to_draw, n, source):
    """Start drawing ``n`` cards; with an empty deck nothing is drawn, and under
    draw_fails that is when the deck counts as exhausted."""
    with rule.when(deck.size() == 0):
        with rule.when(deck_out.is_("draw_fails")):
            trigger_end(rule, source)
    with rule.otherwise():
        rule.set(to_draw, n)


LOC_OUT = book.at("60", "場所の山札が尽きた")
CHAR_OUT = book.at("61", "キャラクターの山札が尽きた")

game.chance_node(any_of(loc_to_draw > 0, char_to_draw > 0),
                 source=f"{COMPONENTS} §Setup (6 face up in each row); {book.at('47')}")


@game.chance(params={"card": Loc}, text="draw location {card}",
             source=f"{book.at('47', '山札から6枚の場所カードを場に補充')}; {COMPONENTS} §Setup")
def draw_location(rule, card):
    rule.require(loc_to_draw > 0, "a location is to be drawn", source=book.at("47"))
    loc_deck.draw(rule, card)
    lower.refill(rule, card)
    after_draw(rule, loc_deck, loc_to_draw, LOC_OUT)


@game.chance(params={"card": Card}, text="draw character {card}",
             source=f"{COMPONENTS} §Setup, §Turn ('row slides left and refills')")
def draw_character(rule, card):
    rule.require(all_of(loc_to_draw == 0, char_to_draw > 0), "a character is to be drawn",
                 source=f"{COMPONENTS} §Turn")
    char_deck.draw(rule, card)
    char_row.refill(rule, card)
    after_draw(rule, char_deck, char_to_draw, CHAR_OUT)


# =====================================================================================
# Gaining what an icon shows, and closing a step
# =====================================================================================
def gain_wild_if_full(rule, p, s):
    """A location raised to its bottom gives the wild manta printed there, ready."""
    loc = board[p, s]
    with rule.when(all_of(depth[p, s] == depths[loc], has_wild[loc],
                          wild_supply[wild_at_bottom[loc]] > 0),
                   source="assumption fully_raised_gives_wild_manta"):
        rule.add(wild_supply[wild_at_bottom[loc]], -1)
        rule.add(wild_ready[p, wild_at_bottom[loc]], 1)


def gain(rule, icon, from_slot):
    """Take what ``icon`` gives: coins and power at once, an effect to carry out next."""
    rule.add(coins, icon_coins[icon], source=book.at("16", "資源（コインとパワー）"))
    rule.add(power, icon_power[icon], source=book.at("16"))
    with rule.when(icon_badge[icon], source=f"{COMPONENTS} §Turn"):
        rule.add(badge[icon_badge_type[icon]], BADGE_POWER)
    with rule.when(all_of(extra_timing.is_("any_time"), main == MainStep.during,
                          icon_effect[icon] != Effect.none), source=extra_timing.source):
        fx.put_first(rule, icon_effect[icon])
        rule.set(source_slot, from_slot)
    with rule.otherwise():
        with rule.when(icon_effect[icon] != Effect.none, source=book.at("18-19", "効果")):
            fx.add(rule, icon_effect[icon], 1)
            rule.set(source_slot, from_slot)


def may_use_icon(icon):
    """When an extra action's icon may be used (assumption extra_effect_timing): resources
    only during the main action (L17), effects only before or after it (L19)."""
    between_effects = all_of(extra_timing.is_("any_time"), main == MainStep.during,
                             not_(scouting), not_(fx.extra_waiting()))
    usable = any_of(extra_without_effect.is_("allowed"), icon_effect[icon] == Effect.none,
                    fx.can(icon_effect[icon]))
    return all_of(usable, if_(is_resource(icon), main == MainStep.during,
                              any_of(all_of(main != MainStep.during, fx.idle()),
                                     between_effects)))


def settle(rule):
    """After each step: the main action ends when its effects are done (and under
    resource_span=main_action its unspent resources vanish); the goals met now are noted."""
    with rule.when(all_of(main == MainStep.during, fx.idle()), source=book.at("17")):
        rule.set(main, MainStep.after)
        with rule.when(all_of(discard_timing.is_("after_effects"), in_play != Card.none),
                       source=discard_timing.source):
            put_down_the_played_card(rule)
        with rule.when(resource_span.is_("main_action"), source=resource_span.source):
            clear_resources(rule)
    with rule.when(fx.none_waiting()):
        rule.set(source_slot, -1)
    for name, cond in zip(Goal.members, GOAL_CONDITIONS):
        with rule.when(cond(me), source="assumption goals_printed"):
            rule.set(met[me, Goal[name]], True)


def put_down_the_played_card(rule):
    """discard_timing=after_effects: the card's effects are done, it goes to the discard
    pile -- Matrona (matrona_returns=all) back to the hand: she is never discarded."""
    with rule.when(all_of(card_returns_all[in_play], matrona.is_("all")),
                   source=matrona.options["all"]):
        hand.put(rule, in_play, of=me)
    with rule.otherwise():
        discard.put(rule, in_play, of=me, source=book.at("9", "自分の捨て札の山に表向きで置きます"))
    rule.set(in_play, Card.none)


def clear_resources(rule):
    rule.set(coins, 0)
    rule.set(power, 0)
    for t in LocType:
        rule.set(badge[t], 0)


# =====================================================================================
# The main action (L6-9): play one character card
# =====================================================================================
@game.action(params={"card": Card}, text="play {card}", phase=MainStep.before,
             source=book.at("7", "手札から1枚のキャラクターカードをプレイし、そのカードに示された効果を実行しなければなりません"))
def play(rule, card):
    rule.require(fx.idle(), "no effect is waiting", source=book.at("7"))
    rule.require(hand.has(card, of=me), "the card is in your hand", source=book.at("7", "手札から"))
    hand.take(rule, card, of=me)
    with rule.when(discard_timing.is_("before_effects"), source=discard_timing.source):
        discard.put(rule, card, of=me, source=book.at("9", "自分の捨て札の山に表向きで置きます"))
    with rule.otherwise():
        rule.set(in_play, card)
    rule.set(main, MainStep.during)
    rule.add(coins, card_coins[card], source=book.at("16-17"))
    rule.add(power, card_power[card], source=book.at("16-17"))
    for e, table in card_effects.items():
        fx.add(rule, Effect[e], table[card], source=book.at("7", "効果を実行"))
    with rule.when(all_of(card_returns_all[card], matrona.is_("one")), source=matrona.source):
        fx.add(rule, Effect.take_back, 1)
    with rule.when(all_of(card_returns_all[card], matrona.is_("all")), source=matrona.source):
        discard.empty_into(rule, hand, of=me, source=matrona.source)
        with rule.when(N == 2, source="assumption two_player_matrona"):
            with rule.when(char_row[0] != Card.none):
                gone = char_row.take(rule, 0)["card"]
                char_box.put(rule, gone)
                need_cards(rule, char_deck, char_to_draw, 1, CHAR_OUT)
    with rule.when(card_readies[card], source=f"{COMPONENTS} §Turn; BGA English help "
                   "('refreshed ... with a card like Matrona or Mantas Leader')"):
        for m in range(len(TRAINED)):
            with rule.when(trained[me, m] == MantaSide.tired):
                rule.set(trained[me, m], MantaSide.ready)
        for w in WildKind:
            rule.add(wild_ready[me, w], wild_tired[me, w])
            rule.set(wild_tired[me, w], 0)
    settle(rule)


# =====================================================================================
# Extra actions (L10-21): a ready manta, or the top depth of a location
# =====================================================================================
@game.action(params={"slot": SLOTS}, text="use the depth of slot {slot}",
             source=book.at("20", "場所カードの現在の一番上の深さを探索することができ、深さを上にスライドさせて"))
def exploit(rule, slot):
    loc = board[me, slot]
    icon = top_icon(me, slot)
    rule.require(loc != Loc.none, "a location is in the slot", source=book.at("14"))
    rule.require(depth[me, slot] < depths[loc], "the location is not fully raised",
                 source=book.at("44"))
    rule.require(any_of(icon != Icon.empty, empty_depth.is_("slide_past")),
                 "the top depth is not empty", source=book.at("21", "空の深さは使用できません"))
    rule.require(if_(icon == Icon.empty, any_of(main == MainStep.during, fx.idle()),
                     may_use_icon(icon)),
                 "resources only during the main action, effects only before or after it",
                 source=f"{book.at('17')}; {book.at('19')}; assumption extra_effect_timing")
    rule.require(any_of(depth_reuse.is_("repeat"), not_(exploited[slot])),
                 "no depth of this location was used this turn", source=depth_reuse.source)
    got = rule.let(icon, name="icon")
    rule.add(depth[me, slot], 1, source=book.at("20", "深さを上にスライドさせて"))
    rule.set(exploited[slot], True)
    gain(rule, got, slot)
    gain_wild_if_full(rule, me, slot)
    settle(rule)


@game.action(params={"m": range(len(TRAINED))}, text="use trained manta {m}",
             source=book.at("13", "準備が整ったマンタを使って、そのマンタに示された効果を実行"))
def use_manta(rule, m):
    icon = lookup(TRAINED_ICONS, m, name="trained_icon")
    rule.require(trained[me, m] == MantaSide.ready, "the manta is ready", source=book.at("13"))
    rule.require(may_use_icon(icon),
                 "resources only during the main action, effects only before or after it",
                 source=f"{book.at('17')}; {book.at('19')}; assumption extra_effect_timing")
    rule.set(trained[me, m], MantaSide.tired, source=book.at("13", "「疲れた」状態にします"))
    gain(rule, icon, -1)
    settle(rule)


@game.action(params={"kind": WildKind}, text="use a wild {kind} manta",
             source=f"{book.at('13')}; {COMPONENTS} §Turn (wild mantas)")
def use_wild(rule, kind):
    icon = wild_icon[kind]
    rule.require(wild_ready[me, kind] > 0, "a wild manta of that kind is ready",
                 source=book.at("13"))
    rule.require(may_use_icon(icon),
                 "resources only during the main action, effects only before or after it",
                 source=f"{book.at('17')}; {book.at('19')}; assumption extra_effect_timing")
    rule.add(wild_ready[me, kind], -1)
    rule.add(wild_tired[me, kind], 1, source=book.at("13", "「疲れた」状態にします"))
    gain(rule, icon, -1)
    settle(rule)


# =====================================================================================
# Carrying out effects (L22-47): one step per effect, with its target
# =====================================================================================
EFFECT_NAMES = [m for m in Effect.members if m != "none"]
# Each step starts with fx.carry_out(rule, effect): legal while the effect waits (an extra
# action's effect first), in printed order once those printed before it are done or
# impossible; the impossible ones before it lapse (the kit, rulespec.spec.kit.effects).


def place_location(rule, loc):
    """A new location goes into the first free slot of the player board, at its top."""
    s = rule.let(first_free_slot(me), name="slot")
    rule.set(board[me, s], loc, source="assumption board_slot")
    rule.set(depth[me, s], 0)
    rule.set(exploited[s], False)


def take_from_row(rule, row, k):
    with rule.when(row == LocRow.lower):
        lower.take(rule, k)
    with rule.otherwise():
        upper.take(rule, min_(k, UPPER_SLOTS - 1))


def row_slot_ok(row, k):
    return all_of(implies(row == LocRow.upper, k < UPPER_SLOTS), row_card(row, k) != Loc.none)


BUY = book.at("29-31", "場所カードの上部に記載されたコインの数を支払います")
CONQUER = book.at("32-34", "場所カードの上部に記載されたパワーの数を支払います")
LIMIT = book.at("35", "1人のプレイヤーがプレイヤーボードに保持できる場所カードは最大5枚まで")


@game.action(params={"row": LocRow, "k": range(ROW_LOCATIONS)},
             text="buy the location in {row} slot {k}", source=BUY)
def buy(rule, row, k):
    loc = row_card(row, k)
    fx.carry_out(rule, Effect.buy, source=BUY)
    rule.require(row_slot_ok(row, k), "a location is in that slot", source=book.at("30"))
    rule.require(coins >= buy_cost[loc], "you have its coins", source=BUY)
    fx.leave_possible(rule, Effect.buy, Effect.recruit, when=partial.is_("most_effects"),
                      together=affords_both(), still=recruit_affordable(coins - buy_cost[loc]),
                      text="the coins left still pay for the waiting recruit (when some "
                           "choice pays for both)", source=f"{MOST_EFFECTS}; {partial.source}")
    rule.require(locations_on_board(me) < MAX_LOCATIONS, "your board has a free slot",
                 source=LIMIT)
    got = rule.let(loc, name="loc")
    rule.add(coins, 0 - buy_cost[got], source=BUY)
    take_from_row(rule, row, k)
    place_location(rule, got)
    settle(rule)


@game.action(params={"row": LocRow, "k": range(ROW_LOCATIONS)},
             text="conquer the location in {row} slot {k}", source=CONQUER)
def conquer(rule, row, k):
    loc = row_card(row, k)
    fx.carry_out(rule, Effect.conquer, source=CONQUER)
    rule.require(row_slot_ok(row, k), "a location is in that slot", source=book.at("33"))
    rule.require(can_pay_power(loc, row), "you have its power",
                 source=f"{CONQUER}; assumption upper_row_conquer_discount")
    rule.require(locations_on_board(me) < MAX_LOCATIONS, "your board has a free slot",
                 source=LIMIT)
    got = rule.let(loc, name="loc")
    price = rule.let(conquer_price(got, row), name="price")
    from_badge = rule.let(min_(badge[loc_type[got]], price), name="from_badge")
    rule.add(badge[loc_type[got]], 0 - from_badge, source=f"{COMPONENTS} §Turn (badges)")
    rule.add(power, from_badge - price, source=CONQUER)
    take_from_row(rule, row, k)
    place_location(rule, got)
    settle(rule)


RECRUIT = book.at("27-28", "キャラクターを雇用すると彼らはあなたの領土に加わり")


def recruit_from(rule, k):
    got = char_row.take(rule, k, source=f"{COMPONENTS} §Turn ('row slides left')")["card"]
    hand.put(rule, got, of=me, source="assumption recruit_goes_to_hand")
    need_cards(rule, char_deck, char_to_draw, 1, CHAR_OUT)


@game.action(params={"k": range(CHAR_ROW)}, text="recruit the character in slot {k}",
             source=RECRUIT)
def recruit(rule, k):
    fx.carry_out(rule, Effect.recruit, source=RECRUIT)
    rule.require(char_row[k] != Card.none, "a character is in that slot", source=RECRUIT)
    rule.require(coins >= lookup(RECRUIT_COST, k, name="recruit_cost"), "you have the slot's coins",
                 source="assumption recruit_cost_by_slot")
    fx.leave_possible(rule, Effect.recruit, Effect.buy, when=partial.is_("most_effects"),
                      together=affords_both(),
                      still=buy_affordable(coins - lookup(RECRUIT_COST, k, name="recruit_cost")),
                      text="the coins left still pay for the waiting buy (when some choice "
                           "pays for both)", source=f"{MOST_EFFECTS}; {partial.source}")
    rule.add(coins, 0 - lookup(RECRUIT_COST, k, name="recruit_cost"),
             source="assumption recruit_cost_by_slot")
    recruit_from(rule, k)
    settle(rule)


@game.action(params={"k": range(CHAR_ROW)}, text="recruit the character in slot {k} for free",
             source=f"{RECRUIT}; {COMPONENTS} §Turn ('free Recruit')")
def recruit_free(rule, k):
    fx.carry_out(rule, Effect.recruit_free, source=RECRUIT)
    rule.require(char_row[k] != Card.none, "a character is in that slot", source=RECRUIT)
    recruit_from(rule, k)
    settle(rule)


TAKE_BACK = f"{COMPONENTS} §Turn ('take back 1 Character from discard')"


@game.action(params={"card": Card}, text="take {card} back from the discard pile",
             source=TAKE_BACK)
def take_back(rule, card):
    fx.carry_out(rule, Effect.take_back, source=TAKE_BACK)
    rule.require(discard.has(card, of=me), "the card is in your discard pile", source=TAKE_BACK)
    discard.take(rule, card, of=me)
    hand.put(rule, card, of=me)
    settle(rule)


@game.action(params={"choice": WaveChoice}, text="wave-teller: {choice}",
             source=f"{PRINTINGS} (Wellenleser)")
def choose_wave(rule, choice):
    fx.carry_out(rule, Effect.wave, source=PRINTINGS)
    rule.require(if_(choice == WaveChoice.score_two, can_score(), can_raise()),
                 "the chosen effect can be carried out", source=book.at("8"))
    with rule.when(choice == WaveChoice.raise_one_by_two):
        fx.add(rule, Effect.raise2, 1)
    with rule.when(choice == WaveChoice.raise_two_by_one):
        fx.add(rule, Effect.raise1, 2)
    with rule.when(choice == WaveChoice.score_two):
        fx.add(rule, Effect.score, 2)
    settle(rule)


RAISE = book.at("40-42", "「上昇」の効果アイコンで指定された深さの数だけ、その場所を上にスライドさせます")


@game.action(params={"slot": SLOTS, "by": range(1, 3)}, text="raise slot {slot} by {by}",
             source=RAISE)
def raise_location(rule, slot, by):
    effect = if_(by == 1, Effect.raise1, Effect.raise2)
    fx.carry_out(rule, effect, source=RAISE)
    rule.require(raisable(me, slot), "a location that is not fully raised, not the one "
                 "whose depth gave the raise", source=book.at("42", "他の場所カード"))
    rule.set(depth[me, slot], min_(depth[me, slot] + by, depths[board[me, slot]]),
             source=f"{book.at('38-39', '引き上げた深さのアイコンは無視しなければなりません')}; "
                    "assumption raise_past_the_bottom")
    gain_wild_if_full(rule, me, slot)
    settle(rule)


FULL_RAISE = f"{COMPONENTS} §Turn ('fully rise' a different Location)"


@game.action(params={"slot": SLOTS}, text="fully raise slot {slot}", source=FULL_RAISE)
def full_raise(rule, slot):
    fx.carry_out(rule, Effect.full_raise, source=FULL_RAISE)
    rule.require(raisable(me, slot), "a location that is not fully raised, not the one "
                 "whose depth gave the raise", source=FULL_RAISE)
    rule.set(depth[me, slot], depths[board[me, slot]], source=book.at("38-39"))
    gain_wild_if_full(rule, me, slot)
    settle(rule)


SCORE = book.at("43-44", "最後まで完全に上昇している場所があれば、そのカードを得点化し")


@game.action(params={"slot": SLOTS}, text="score slot {slot}", source=SCORE)
def score_location(rule, slot):
    # score_timing=at_will: no icon needed while the turn is free
    at_will = all_of(score_timing.is_("at_will"), fx.idle())
    fx.carry_out(rule, Effect.score, source=SCORE, unless=at_will)
    rule.require(fully_raised(me, slot), "the location is fully raised", source=SCORE)
    scored.put(rule, board[me, slot], of=me, source=book.at("67"))
    rule.set(board[me, slot], Loc.none)
    rule.set(depth[me, slot], 0)
    settle(rule)


SCOUT = book.at("47", "現在の場にある場所を4枚まで保持して上段のエリアに移動させ、山札から6枚の場所カードを場に補充します")


@game.action(text="scout", source=SCOUT)
def scout(rule):
    fx.carry_out(rule, Effect.scout, source=SCOUT)
    with rule.when(scout_rows.is_("lower_row"), source=scout_rows.options["lower_row"]):
        for k in range(UPPER_SLOTS):
            with rule.when(upper[k] != Loc.none):
                loc_box.put(rule, upper[k])
            rule.set(upper.cells[k], Loc.none)
    rule.set(scouting, True)


@game.action(text="do not scout", source=scout_optional.options["optional"])
def decline_scout(rule):
    fx.carry_out(rule, Effect.scout, source=SCOUT)
    rule.require(scout_optional.is_("optional"), "scouting is optional",
                 source=scout_optional.source)
    settle(rule)


@game.action(params={"k": range(UPPER_SLOTS)}, text="let the location in upper slot {k} go",
             source=scout_rows.options["both_rows"])
def let_go(rule, k):
    """scout_rows=both_rows: the upper row's locations are kept unless let go."""
    rule.require(scouting, "you are scouting", source=SCOUT)
    rule.require(scout_rows.is_("both_rows"), "the upper row's locations may be kept",
                 source=scout_rows.source)
    rule.require(upper[k] != Loc.none, "a location is in that slot", source=SCOUT)
    got = upper.take(rule, k, source=SCOUT)["card"]
    loc_box.put(rule, got, source=SCOUT)


@game.action(params={"k": range(ROW_LOCATIONS)}, text="keep the location in lower slot {k}",
             source=SCOUT)
def keep(rule, k):
    rule.require(scouting, "you are scouting", source=SCOUT)
    rule.require(lower[k] != Loc.none, "a location is in that slot", source=SCOUT)
    rule.require(upper.filled() < UPPER_SLOTS, "fewer than 4 are kept", source=SCOUT)
    got = lower.take(rule, k, source=SCOUT)["card"]
    upper.refill(rule, got, source=SCOUT)


@game.action(text="finish scouting", source=SCOUT)
def finish_scouting(rule):
    rule.require(scouting, "you are scouting", source=SCOUT)
    rule.require(any_of(scout_keep.is_("up_to_four"), upper.filled() == UPPER_SLOTS,
                        lower.filled() == 0),
                 "every location that fits is kept", source=scout_keep.source)
    for k in range(ROW_LOCATIONS):
        with rule.when(lower[k] != Loc.none):
            loc_box.put(rule, lower[k])
        rule.set(lower.cells[k], Loc.none)
    rule.set(scouting, False)
    need_cards(rule, loc_deck, loc_to_draw, ROW_LOCATIONS, LOC_OUT)
    settle(rule)


SKIP = book.at("8", "もしすべての効果を実行できない場合でも、そのカードをプレイし、実行できる効果だけを使うことができます")


@fx.skip(text="skip the remaining effects", source=SKIP,
         may_stop=partial.is_("any_once_one_fails"), because=partial.source,
         refusal="no waiting effect can be carried out (or, with partial=any_once_one_fails, "
                 "one cannot)")
def skip(rule):
    settle(rule)


# =====================================================================================
# Goals (L48-54)
# =====================================================================================
GOAL_SRC = book.at("51", "その目標の現状の最高点のマスに自分のマンタ（自分の色のもの）を置くことができます")


@game.action(params={"goal": Goal, "m": range(len(TRAINED))}, text="claim {goal} with manta {m}",
             source=GOAL_SRC)
def claim(rule, goal, m):
    rule.require(fx.idle(), "no effect is waiting", source=book.at("51"))
    rule.require(not_(goal_taken_by(goal, me)), "you have not reached this goal before",
                 source=book.at("52", "1人のプレイヤーが同じ目標を2回達成することはできません"))
    rule.require(any_of(condition(goal, me), all_of(goal_claim.is_("once_met"), met[me, goal])),
                 "you meet the goal's condition",
                 source=f"{goal_claim.source}; assumption goals_printed")
    rule.require(trained[me, m] != MantaSide.goal, "the manta is not on a goal yet",
                 source=book.at("51", "マンタは疲れている裏向きの状態でも構いません"))
    spot = rule.let(filled_spots(goal), name="spot")
    rule.set(goal_spot[goal, spot], me, source=book.at("51", "現状の最高点のマス"))
    rule.set(trained[me, m], MantaSide.goal)
    with rule.when(claims_of(me) == GOALS):
        trigger_end(rule, book.at("59", "1人のプレイヤーが4つの目標をすべて達成した"))
    settle(rule)


# =====================================================================================
# The end of a turn
# =====================================================================================
@game.action(text="end turn", phase=MainStep.after, source=book.at("5-9, 57"))
def end_turn(rule):
    rule.require(fx.idle(), "no effect is waiting", source=book.at("8"))
    clear_resources(rule)
    for s in SLOTS:
        rule.set(exploited[s], False)
    rule.set(main, MainStep.before)
    with rule.when(all_of(ending, final_turns == 0),
                   source=book.at("57", "さらに1手番ずつを行い、ゲーム終了となります")):
        rule.set(over, True)
    with rule.otherwise():
        with rule.when(ending):
            rule.add(final_turns, -1)
        rule.set(to_move, (to_move + 1) % N, source="assumption end_turn_order")
    settle(rule)


game.current_player(to_move, source=book.at("5"))
game.terminal(over, source=book.at("55-57"))


# =====================================================================================
# Scoring (L62-68) and the winner (L69-73)
# =====================================================================================
def goal_points(p):
    return sum_of(Goal, lambda g: sum_of(range(SPOTS), lambda k: if_(
        goal_spot[g, k] == p, lookup(SPOT_POINTS, k, name="spot_points"), 0)))


def location_points(p):
    return sum_of(Loc, lambda loc: scored.count(loc, of=p) * points[loc])


def final_score(p):
    return hand.size(of=p) + goal_points(p) + location_points(p)


def mantas_in_reserve(p):
    """The first tie-break's count, as the reading ``reserve`` says."""
    trained_off_goals = count(range(len(TRAINED)), lambda m: trained[p, m] != MantaSide.goal)
    trained_ready = count(range(len(TRAINED)), lambda m: trained[p, m] == MantaSide.ready)
    wild_ready_count = sum_of(WildKind, lambda w: wild_ready[p, w])
    return if_(reserve_point.is_("off_goals"), trained_off_goals + wild_count(p),
               if_(reserve_point.is_("ready_only"), trained_ready + wild_ready_count,
                   trained_off_goals))


def king_number(p):
    """The number on ``p``'s King: King n goes to the n-th player (the setup)."""
    return p + 1


game.score(final_score, source=f"{book.at('64-68')}; (L67's sentence is garbled: 'the points "
                               "shown on the scored location cards' is the reading)")
game.tie_break(mantas_in_reserve, lower_wins=False,
               source=book.at("70", "リザーブにあるマンタの数が多い方が勝ち"))
game.tie_break(king_number, lower_wins=True, when=kings.is_("dealt"),
               source=book.at("71", "王カードに書かれている数字の小さい方が勝ち"))
game.tie_break(lambda p: p, lower_wins=False, when=kings.is_("none"),
               source=book.at("72-73", "王を使用しない基本設定のゲームの場合は、手番順が最後のプレイヤーの勝利"))


def seat_beats(p, q):
    """The last tie-break: the lower King number, or without Kings the later seat."""
    return if_(kings.is_("dealt"), king_number(p) < king_number(q), p > q)


def beats(p, q):
    """``p``'s score, then reserve, then King number or seat, is better than ``q``'s."""
    sp, sq = final_score(p), final_score(q)
    rp, rq = mantas_in_reserve(p), mantas_in_reserve(q)
    return any_of(sp > sq, all_of(sp == sq, any_of(rp > rq, all_of(
        rp == rq, seat_beats(p, q)))))


game.law("the_tie_break_leaves_one_winner",
         count(game.players(), lambda p: forall(game.players(), lambda q: implies(
             q != p, beats(p, q)))) == 1,
         source=book.at("69-73"),
         doc="whatever the scores and reserves, exactly one player comes first after the "
             "tie-breaks (King numbers differ; without Kings the seats do)")


# How a state looks (view.py) and what must always hold (laws.py), in the folder's parts.
from . import view  # noqa: E402,F401 - view.py: the drawing of a state
from . import laws  # noqa: E402,F401 - laws.py: invariants and conservation laws

game.horizon(2000, reason="the rules do not bound a game: Matrona returns every played "
                          "card, so players may go on for ever without recruiting or scouting "
                          "(the decks, and so the end, move only when they do). Random games "
                          "take 100-500 steps")
game.check_examples(30, reason="a game is a few hundred steps of a 20-action turn structure")
SPEC = game.build()
