"""Crazy Eights, written in the rulespec language.

Source: OpenSpiel's ``crazy_eights`` (open_spiel/games/crazy_eights/crazy_eights.cc and its
header comment), with its default parameters -- max_draw_cards = 5, max_turns = 100,
use_special_cards = false, reshuffle = false -- for 2 to 5 players (OpenSpiel's default is
5; with more than 5 it uses two decks, which this spec does not model). See README.md.

One standard 52-card deck, card ``rank * 4 + suit`` as in OpenSpiel (suits C, D, H, S;
ranks 2..A). A dealer is chosen at random; each player is dealt 7 cards (2 players) or 5,
one at a time from the dealer's left; then a card is turned up to start the discard pile
(an eight goes back into the deck and another is turned). On your turn play a card that
matches the top card's suit or rank, or any eight (then name a suit), or draw (at most 5
per turn; after 5, or with an empty deck, you may pass). The first to empty their hand
ends the game, as do 100 cards played or, once the deck is empty, a full round of passes.
Everyone pays a penalty for the cards left in hand.
"""

import attrs

from rulespec.spec import (Game, all_of, any_of, called, exists, forall, if_, implies, not_,
                           ordinal, sum_of, view)
from rulespec.spec import components
from rulespec.spec.kit import Deck, Hands, Pile

CC = "OpenSpiel crazy_eights.cc"
HEADER = "OpenSpiel crazy_eights.h (header comment)"

game = Game("crazy_eights", title="Crazy Eights", players=(2, 5), source=f"{CC}, {HEADER}",
            summary="Shed your hand by matching the top card's suit or rank; eights are wild.")

# --- numbers of the game ---------------------------------------------------------------
SUITS, RANKS = "CDHS", "23456789TJQKA"
MAX_DRAW = game.constant("max_draw_cards", 5, source=f"{CC}: kDefaultMaxDrawCards = 5")
MAX_TURNS = game.constant("max_turns", 100, source=f"{CC}: kDefaultMaxTurns = 100")
EIGHT = game.constant("eight_rank", 6, source=f"{CC}: kEightRank = 6; // 8")  # the 8's rank

# --- vocabulary --------------------------------------------------------------------------
Suit = game.enum("Suit", {"clubs": "C", "diamonds": "D", "hearts": "H", "spades": "S"},
                 source=f"{CC}: enum Suit {{ kClubs, kDiamonds, kHearts, kSpades }}")
Card = game.enum("Card", {f"{s}{r}": f"the {r} of {Suit.members[k]}"
                          for r in RANKS for k, s in enumerate(SUITS)},
                 source=f"{CC}: a card is rank * kNumSuits + suit (GetAction, GetCardStr)")
Phase = game.enum("Phase", {
    "choose_dealer": "a random player becomes the dealer",
    "deal": "the dealer deals the hands, one card at a time",
    "turn_up": "a card is turned up to start the discard pile (an eight goes back)",
    "play": "the player to move plays, draws, passes or names a suit",
    "draw": "the player to move draws a card from the deck",
    "over": "a hand is empty, 100 cards were played, or everyone passed",
}, source=f"{CC}: enum Phase {{ kDeal, kPlay, kGameOver }}; the deal phase split by step")


def rank(card):
    """The rank index 0..12 (2..A): ``GetRank(action) = action / kNumSuits``."""
    return called(ordinal(card) // 4, "rank[{0}]", card)




@attrs.frozen
class CardData:
    """A card as components.toml gives it: its suit, and what it costs left in hand."""

    suit: str = attrs.field(validator=components.member_of(Suit))
    penalty: int


CARDS = game.components("cards", CardData, members=Card)
suit_of = game.table("suit_of", {Card[k]: Suit[c.suit] for k, c in CARDS.items()},
                     source=f"{CC}: GetSuit(action) = action % kNumSuits (components.toml)")
# Penalties for the cards left in hand. The header's text and the code disagree: a reading.
face_value = game.table("face_value", {Card[k]: c.penalty for k, c in CARDS.items()},
    source=f"{HEADER}: -50 for each 8, -10 for each court card, and -{{face value}} for "
           "others; kMaxPenality = 4 * (2+3+..7+50+9+10+4*10) = 544 (components.toml)")
code_penalty = game.table("code_penalty", {
    c: 50 if k // 4 == EIGHT else 10 if k // 4 >= 9 else k + 2 for k, c in enumerate(Card)},
    source=f"{CC}: ScoreUp: 50 for an 8, 10 for rank >= 9, else (card + 2) -- the card's "
           "index, not its rank")
cc, header = game.text(CC, cite="", quote="{}"), game.text(HEADER, cite="", quote="{}")
penalty_reading = game.point(
    "penalty", "What does a card left in hand cost?",
    source=header.at("the penalties").also(cc.at("ScoreUp")),
    face_value=header.at("-{face value} for cards other than 8s and court cards (10 for the "
                         "ten and court cards, as kMaxPenality adds them)"),
    openspiel_code=cc.at("ScoreUp subtracts (card + 2), the card's index in the deck, for "
                         "ranks 2..T other than 8"),
    default="face_value", because="the header states the rule in words and its "
    "kMaxPenality (544) adds up face values; the code's (card + 2) reads as a slip")

# --- state -------------------------------------------------------------------------------
phase = game.field("phase", Phase, flow=True, source=f"{CC}: phase_")
dealer = game.field("dealer", range(0, 5), flow=True, source=f"{CC}: dealer_")
to_move = game.field("to_move", range(0, 5), flow=True, source=f"{CC}: current_player_")
dealt = game.field("dealt", range(0, 26), flow=True,
                   source=f"{CC}: the first num_players * num_initial_cards deals",
                   doc="cards dealt so far in the initial deal")
deck = Deck(game, "deck", Card, source=f"{CC}: dealer_deck_, num_cards_left_",
            doc="the dealer's deck, face down")
hand = Hands(game, "hand", Card, source=f"{CC}: hands_ (ObservationString: 'Currently I have')")
discard = Pile(game, "discard", Card, counted=True,
               source=f"{CC}: a played card goes on the discard pile (last_card_ is its top)")
deck.conserve("cards_are_conserved", hand, discard,
              source=f"{CC}: one deck: every card is in the deck, a hand or the discard pile")
last_card = game.field("last_card", Card, source=f"{CC}: last_card_ (the top of the pile)")
last_suit = game.field("last_suit", Suit, source=f"{CC}: last_suit_ (the suit to follow)")
nominating = game.field("nominating", bool, flow=True, source=f"{CC}: nominate_suits_")
can_pass = game.field("can_pass", bool, flow=True, source=f"{CC}: can_pass_action_")
passes = game.field("passes", range(0, 7), flow=True,
                    source=f"{CC}: num_passes_ (up to num_players + 1)")
draws = game.field("draws", range(0, MAX_DRAW + 1), flow=True,
                   source=f"{CC}: num_draws_before_play_")
plays = game.field("plays", range(0, MAX_TURNS + 1), flow=True, source=f"{CC}: num_plays")

players = game.num_players
next_player = (to_move + 1) % players
hand_cards = if_(players == 2, 7, 5) * players
game.phases(phase, {Phase.choose_dealer: "the dealer is not chosen yet",
                    Phase.deal: "the hands are being dealt",
                    Phase.turn_up: "a card is being turned up",
                    Phase.play: "it is your turn",
                    Phase.draw: "the player to move is drawing"}, source=CC)


# --- the deal (chance) ---------------------------------------------------------------------
game.chance_node(phase.is_one_of(Phase.choose_dealer, Phase.deal, Phase.turn_up, Phase.draw),
                 source=f"{CC}: CurrentPlayer is kChancePlayerId in the deal phase")


@game.chance(params={"p": game.players()}, text="dealer {p}", phase=Phase.choose_dealer,
             source=f"{CC}: ApplyDealAction, history empty: decide the dealer (uniform)")
def choose_dealer(rule, p):
    rule.set(dealer, p)
    rule.set(to_move, (p + 1) % players, source=f"{CC}: dealing starts left of the dealer")
    rule.set(phase, Phase.deal)


@game.chance(params={"card": Card}, text="deal {card}", phase=Phase.deal,
             source=f"{CC}: ApplyDealAction: each player is dealt 5 cards (7 for 2 players)")
def deal(rule, card):
    deck.draw(rule, card, into=hand, of=to_move, source=f"{CC}: ChanceOutcomes: by copies left")
    count = rule.let(dealt + 1, name="count")
    rule.set(dealt, count)
    with rule.when(count < hand_cards, source=f"{CC}: the next card to the next player"):
        rule.set(to_move, next_player)
    with rule.otherwise():
        rule.set(phase, Phase.turn_up, source=f"{CC}: then the dealer turns a card up")


@game.chance(params={"card": Card}, text="turn up {card}", phase=Phase.turn_up,
             source=f"{CC}: ApplyDealAction with redraw_: the first card turned face up")
def turn_up(rule, card):
    rule.require(deck.has(card), "the card is in the deck", source=CC)
    rule.set_weight(deck.count(card))
    with rule.when(rank(card) != EIGHT, source=f"{CC}: 'which cannot be Eights': put back"):
        deck.take(rule, card)
        discard.put(rule, card)
        rule.set(last_card, card)
        rule.set(last_suit, suit_of[card])
        rule.set(phase, Phase.play)
        rule.set(to_move, next_player, source=f"{CC}: the player after the dealer starts")


@game.chance(params={"card": Card}, text="draw {card}", phase=Phase.draw,
             source=f"{CC}: ApplyDealAction: a player draws without a previous +2")
def draw_card(rule, card):
    deck.draw(rule, card, into=hand, of=to_move)
    rule.set(phase, Phase.play)
    rule.set(draws, if_(deck.size() == 0, MAX_DRAW, draws + 1),
             source=f"{CC}: num_draws_before_play_++; an empty deck ends the drawing")
    with rule.when(draws == MAX_DRAW, source=f"{CC}: after max_draw_cards you may pass"):
        rule.set(can_pass, True)


# --- a turn ------------------------------------------------------------------------------
def matches(card):
    """An eight, or the suit to follow, or the top card's rank (SearchLegalCards)."""
    return any_of(rank(card) == EIGHT, suit_of[card] == last_suit,
                  rank(card) == rank(last_card))


NO_SUIT_DUE = f"{CC}: nominate_suits_: after an eight only the suits are legal"
with game.phase(Phase.play):  # a player's actions: play, draw, pass, name a suit
    @game.action(params={"card": Card}, text="play {card}",
                 source=f"{CC}: PlayLegalActions / ApplyPlayAction: play a card from your hand")
    def play(rule, card):
        rule.require(not_(nominating), "no suit is to be named", source=NO_SUIT_DUE)
        rule.require(hand.has(card, of=to_move), "you hold the card", source=f"{CC}: hands_")
        rule.require(matches(card), "an eight, or the suit to follow, or the top card's rank",
                     source=f"{CC}: SearchLegalCards")
        rule.set(passes, 0, source=f"{CC}: any action but a pass resets num_passes_")
        rule.add(plays, 1)
        rule.set(can_pass, False)
        rule.set(draws, 0)
        hand.take(rule, card, of=to_move)
        discard.put(rule, card)
        with rule.when(any_of(hand.size(of=to_move) == 0, plays >= MAX_TURNS),
                       source=f"{CC}: all cards played, or num_plays >= max_turns: ScoreUp"):
            rule.set(phase, Phase.over)
        rule.set(last_card, card)
        rule.set(last_suit, suit_of[card])
        with rule.when(rank(card) == EIGHT, source=f"{CC}: an eight: nominate a suit"):
            rule.set(nominating, True)
        with rule.otherwise():
            rule.set(to_move, next_player)

    @game.action(text="draw", source=f"{CC}: kDraw: draw a card from the dealer's deck")
    def draw(rule):
        rule.require(not_(nominating), "no suit is to be named", source=NO_SUIT_DUE)
        rule.require(deck.size() > 0, "the deck is not empty", source=f"{CC}: num_cards_left_")
        rule.require(draws != MAX_DRAW, "you have drawn fewer than 5 cards this turn",
                     source=f"{CC}: num_draws_before_play_ != max_draw_cards_")
        rule.set(passes, 0, source=f"{CC}: any action but a pass resets num_passes_")
        rule.set(phase, Phase.draw)

    @game.action(name="pass_turn", text="pass", source=f"{CC}: kPass")
    def pass_turn(rule):
        rule.require(not_(nominating), "no suit is to be named", source=NO_SUIT_DUE)
        rule.require(any_of(can_pass, deck.size() == 0),
                     "you have drawn 5 cards this turn, or the deck is empty",
                     source=f"{CC}: can_pass_action_ || !num_cards_left_")
        rule.set(passes, if_(deck.size() == 0, passes + 1, 0),
                 source=f"{CC}: passes count only once the deck is empty")
        with rule.when(passes == players + 1,
                       source=f"{CC}: num_passes_ == num_players_ + 1 ends the game"):
            rule.set(phase, Phase.over)
        with rule.otherwise():
            with rule.when(draws == MAX_DRAW):
                rule.set(draws, 0)
            rule.set(to_move, next_player)
            with rule.when(deck.size() > 0):
                rule.set(can_pass, False)

    @game.action(params={"suit": Suit}, text="nominate {suit}",
                 source=f"{CC}: kNominateSuitActionBase: after an eight, name the suit to follow")
    def nominate(rule, suit):
        rule.require(nominating, "you have just played an eight", source=f"{CC}: nominate_suits_")
        rule.set(passes, 0)
        rule.set(last_suit, suit)
        rule.set(to_move, next_player)
        rule.set(nominating, False)


# --- flow, the end and scoring -------------------------------------------------------------
game.current_player(to_move, source=f"{CC}: CurrentPlayer: current_player_ in the play phase")
game.terminal(phase == Phase.over, source=f"{CC}: IsTerminal: phase_ == kGameOver")
game.horizon(1000, reason=f"{CC}: a turned-up eight goes back into the deck and another card "
                          "is turned, as often as eights come up: no bound (OpenSpiel's "
                          "MaxGameLength is 10000)")
game.check_examples(50, reason="a game of 5 players takes a few hundred steps")


def penalty(card):
    return if_(penalty_reading.is_("face_value"), face_value[card], code_penalty[card])


game.score(lambda p: 0 - sum_of(Card, lambda c: hand.count(c, of=p) * penalty(c)),
           source=f"{CC}: Returns at the end (ScoreUp): minus the penalties of your hand")
game.shared_ties(source=f"{CC}: general-sum returns (kGeneralSum): equal penalties, equal results")

SUIT_COLOUR = {"C": "#1a1a1a", "D": "#d55e00", "H": "#cc0033", "S": "#0072b2"}


SUIT_NAME = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
RANK_NAME = {"T": "10", "J": "jack", "Q": "queen", "K": "king", "A": "ace"}


def card_glyph(c):
    """A card as drawn: rank then suit letter, in its suit's colour (the legend explains
    the letters once, not each of the 52 cards)."""
    name = Card.name_of(c.args[0])  # c is a member (a constant)
    return view.glyph(name[1] + name[0], SUIT_COLOUR[name[0]], shape="card",
                      title=f"{RANK_NAME.get(name[1], name[1])} of {SUIT_NAME[name[0]]}",
                      legend=False)


game.view(
    view.counters("Turn", {"phase": phase, "dealer": dealer, "to move": to_move,
                           "cards in the deck": deck.size(), "draws this turn": draws,
                           "passes": passes, "cards played": plays}),
    view.slots("Top of the discard pile", count=1, value=lambda i: last_card,
               glyphs={c: card_glyph(c) for c in Card}),
    view.slots("Suit to follow", count=1, value=lambda i: last_suit,
               glyphs={s: view.glyph(SUITS[k], SUIT_COLOUR[SUITS[k]], title=Suit.members[k])
                       for k, s in enumerate(Suit)}),
    view.pile("Hand", lambda p: [view.chip(hand.count(c, of=p), card_glyph(c)) for c in Card],
              player=True),
    view.pile("Discard pile", [view.chip(discard.count(c), card_glyph(c)) for c in Card]),
    legend={"2C, 7H, TS …": "a card: its rank (T: 10, J: jack, Q: queen, K: king, A: ace), "
                           "then its suit (C: clubs, D: diamonds, H: hearts, S: spades)"},
)

# --- what must always hold ---------------------------------------------------------------
game.invariant("the_mover_and_dealer_are_players",
               all_of(to_move < players, dealer < players),
               source=f"{CC}: current_player_ and dealer_ are players")
game.invariant("passes_end_the_game_at_a_full_round",
               implies(phase != Phase.over, passes <= players),
               source=f"{CC}: num_passes_ == num_players_ + 1 ends the game")
game.invariant("the_top_card_is_on_the_discard_pile",
               implies(phase.is_one_of(Phase.play, Phase.draw), discard.has(last_card)),
               source=f"{CC}: last_card_ is the card last played or turned up")
game.invariant("a_suit_is_named_only_after_an_eight",
               implies(nominating, all_of(phase.is_one_of(Phase.play, Phase.over),
                                          rank(last_card) == EIGHT)),
               source=f"{CC}: nominate_suits_ is set when an 8 is played")
game.invariant("turns_start_fresh_after_the_deal",
               implies(phase.is_one_of(Phase.choose_dealer, Phase.deal, Phase.turn_up),
                       all_of(not_(can_pass), not_(nominating), draws == 0, passes == 0)),
               source=f"{CC}: can_pass_action_, nominate_suits_, num_draws_before_play_ and "
                      "num_passes_ start false / 0")
game.invariant("a_draw_comes_from_a_turn_that_may_draw",
               implies(phase == Phase.draw, all_of(draws < MAX_DRAW, deck.size() > 0,
                                                   not_(can_pass), not_(nominating))),
               source=f"{CC}: kDraw is legal only with cards left and fewer than "
                      "max_draw_cards draws (SPIEL_CHECK_FALSE(can_pass_action_))")
game.invariant("fewer_than_100_cards_are_played_before_the_end",
               implies(phase != Phase.over, plays < MAX_TURNS),
               source=f"{CC}: num_plays >= max_turns ends the game")
game.invariant("nothing_is_dealt_before_the_dealer_is_chosen",
               implies(phase == Phase.choose_dealer, all_of(
                   deck.size() == 52, dealt == 0,
                   forall(game.players(), lambda p: hand.size(of=p) == 0))),
               source=f"{CC}: the first chance outcome decides the dealer")
game.invariant("hands_are_dealt_one_card_at_a_time",
               all_of(implies(phase == Phase.deal, all_of(
                          sum_of(game.players(), lambda p: hand.size(of=p)) == dealt,
                          dealt < hand_cards)),
                      implies(phase == Phase.turn_up, all_of(
                          sum_of(game.players(), lambda p: hand.size(of=p)) == hand_cards,
                          discard.size() == 0))),
               source=f"{CC}: ApplyDealAction deals one card per chance step, then turns "
                      "one up")
game.invariant("passing_needs_five_draws_or_an_empty_deck",
               implies(all_of(phase == Phase.play, can_pass), any_of(
                   draws == MAX_DRAW, deck.size() == 0)),
               source=f"{CC}: can_pass_action_ after max_draw_cards draws or with no card left")
game.invariant("no_card_is_played_before_the_turn_up",
               implies(phase.is_one_of(Phase.choose_dealer, Phase.deal, Phase.turn_up),
                       all_of(discard.size() == 0, plays == 0)),
               source=f"{CC}: the turned-up card starts the discard pile")
game.invariant("an_empty_hand_ends_the_game",
               implies(all_of(phase.is_one_of(Phase.play, Phase.draw)),
                       exists(game.players(), lambda p: hand.size(of=p) > 0)),
               source=f"{CC}: CheckAllCardsPlayed ends the game")

SPEC = game.build()
