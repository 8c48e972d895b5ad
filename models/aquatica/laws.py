"""What must always hold in Aquatica: every card, location and manta somewhere, the goal
tracks, the turn's bookkeeping. A part of spec.py: invariants and conservation laws,
each with its source (checked by `rulespec check`, proved by `rulespec prove`).
"""

from types import SimpleNamespace

from rulespec.spec import all_of, any_of, count, forall, if_, implies, not_, sum_of

from .spec import (CHAR_ROW, COMPONENTS, Card, EFFECT_NAMES, Effect, Goal, Loc, LocType, MainStep,
                   MantaSide, N, ROW_LOCATIONS, SLOTS, SPOTS, TRAINED, WILD, WILD_TOTAL, WildKind,
                   badge, board, book, char_box, char_deck, char_row, char_to_draw, coins, depth,
                   depths, discard, discard_timing, ending, extra_effect, extra_timing,
                   final_turns, game, goal_spot, hand, in_play, loc_box, loc_deck, loc_to_draw,
                   lower, main, matrona, me, over, pending, power, resource_span, scored, to_move,
                   trained, trigger_seat, upper, wild_ready, wild_supply, wild_tired)

# =====================================================================================
# What must always hold
# =====================================================================================
CONSERVE = "every card is somewhere: a deck, a row, a hand, a discard pile, a board, a " \
           "scoring pile, or out of the game"
being_played = SimpleNamespace(amount=lambda c: if_(all_of(in_play == c, c != Card.none), 1, 0))
char_deck.conserve("characters_are_conserved", hand, discard, char_row, char_box, being_played,
                   source=f"{book.at('7-9, 27')}; {CONSERVE}")
on_boards = SimpleNamespace(amount=lambda loc: sum_of(game.players(), lambda p: count(
    SLOTS, lambda s: all_of(board[p, s] == loc, loc != Loc.none))))
loc_deck.conserve("locations_are_conserved", lower, upper, on_boards, scored, loc_box,
                  source=f"{book.at('29-47, 67')}; {CONSERVE}")
WILD_COPIES = game.table("wild_copies", {WildKind[k]: n for k, (_, n) in WILD.items()},
                         source="assumption wild_mantas")


def wild_held(w):
    return wild_supply[w] + sum_of(game.players(), lambda p: wild_ready[p, w] + wild_tired[p, w])


game.invariant("wild_mantas_are_conserved_per_kind",
               forall(WildKind, lambda w: wild_held(w) == WILD_COPIES[w]),
               source=f"{COMPONENTS} §Turn (wild mantas)",
               doc="every wild manta is beside the board or with one player, ready or tired")
game.conservation("wild_mantas_are_conserved", sum_of(WildKind, wild_held),
                  source=f"{COMPONENTS} §Components", doc=f"the {WILD_TOTAL} wild mantas")


def spots_of(p):
    return sum_of(Goal, lambda g: count(range(SPOTS), lambda k: goal_spot[g, k] == p))


game.conservation(
    "trained_mantas_are_conserved",
    sum_of(game.players(), lambda p: count(range(len(TRAINED)),
                                           lambda m: trained[p, m] != MantaSide.goal))
    + sum_of(Goal, lambda g: count(range(SPOTS), lambda k: goal_spot[g, k] != -1)),
    source=book.at("12-13, 51"), doc="a trained manta is with its player or on a goal spot")
game.invariant("a_manta_on_a_goal_spot_is_one_of_its_owners",
               forall(game.players(), lambda p: spots_of(p) == count(
                   range(len(TRAINED)), lambda m: trained[p, m] == MantaSide.goal)),
               source=book.at("51", "自分のマンタ（自分の色のもの）を置く"),
               doc="each player's mantas marked 'on a goal' are exactly their goal spots")
game.invariant("goal_spots_hold_players",
               forall(Goal, lambda g: forall(range(SPOTS), lambda k: goal_spot[g, k] < N)),
               source=book.at("51"))
game.invariant("goal_tracks_fill_best_first",
               forall(Goal, lambda g: forall(range(SPOTS - 1), lambda k: implies(
                   goal_spot[g, k] == -1, goal_spot[g, k + 1] == -1))),
               source=book.at("49-51", "その目標の現状の最高点のマス"),
               doc="a free spot has only free spots after it: spots are taken best first")
game.invariant("each_goal_once_per_player",
               forall(Goal, lambda g: all_of(*(
                   implies(goal_spot[g, k] != -1, goal_spot[g, k] != goal_spot[g, j])
                   for k in range(SPOTS) for j in range(k + 1, SPOTS)))),
               source=book.at("52", "1人のプレイヤーが同じ目標を2回達成することはできません"))
game.invariant("the_fifth_spot_stays_free",
               forall(Goal, lambda g: goal_spot[g, SPOTS - 1] == -1),
               source=book.at("54", "5番目のマスは、将来のゲーム用に使用されます"))
game.invariant("coins_and_power_only_in_their_span",
               implies(any_of(main == MainStep.before,
                              all_of(main == MainStep.after, resource_span.is_("main_action"))),
                       all_of(coins == 0, power == 0, forall(LocType, lambda t: badge[t] == 0))),
               source=f"{book.at('17')}; {book.at('75')}",
               doc="no unspent coins or power before the card is played, nor after its "
                   "effects under resource_span=main_action (at the end of the turn under "
                   "resource_span=turn)")
game.invariant("an_empty_slot_has_no_depth",
               forall(game.players(), lambda p: forall(SLOTS, lambda s: all_of(
                   implies(board[p, s] == Loc.none, depth[p, s] == 0),
                   depth[p, s] <= depths[board[p, s]]))),
               source=book.at("20, 44"))
game.invariant("a_played_card_waits_only_while_its_effects_do",
               all_of(implies(discard_timing.is_("before_effects"), in_play == Card.none),
                      implies(in_play != Card.none, main == MainStep.during)),
               source=discard_timing.source,
               doc="under after_effects the played card waits beside the board while its "
                   "effects are carried out, then goes to the discard pile")


game.invariant("an_extra_effect_waits_only_in_the_main_action",
               all_of(implies(extra_timing.is_("around_main"), extra_effect == Effect.none),
                      implies(extra_effect != Effect.none, main == MainStep.during)),
               source=extra_timing.source,
               doc="under any_time an extra action's effect taken between the card's effects "
                   "is carried out before the main action goes on")


def matronas_held(p):
    """Player ``p``'s Matronas in the hand, or being played by ``p``."""
    return hand.count(Card.matrona, of=p) + if_(all_of(in_play == Card.matrona, me == p), 1, 0)


game.invariant("matrona_never_leaves_the_hand",
               implies(matrona.is_("all"),
                       forall(game.players(), lambda p: matronas_held(p) == 1)),
               source=matrona.options["all"],
               doc="so a player always has a card to play")
# Why Matrona stays in the hand, as a fact of the rules (and, for the prover, what makes
# the law above provable step by step): the setup deals one Matrona per seat into the
# hands and boxes the others; a played card goes to the discard pile (L9) but Matrona
# brings the whole pile back with her; nothing puts a card into the deck, so no Matrona is
# ever drawn into the row and recruited.
game.invariant("matrona_is_only_in_hands_or_the_box",
               implies(matrona.is_("all"), all_of(
                   char_deck.count(Card.matrona) == 0, char_row.amount(Card.matrona) == 0,
                   forall(game.players(), lambda p: discard.count(Card.matrona, of=p) == 0))),
               source=f"{COMPONENTS} §Setup (the starting characters of each symbol); "
                      f"{book.at('9', '自分の捨て札の山に表向きで置きます')}; "
                      f"{matrona.options['all']}",
               doc="the Matronas not dealt stay in the box; a played Matrona takes her own "
                   "discard pile back with her")
game.invariant("the_player_on_turn_is_seated", all_of(to_move < N, trigger_seat < N,
                                                      final_turns <= N),
               source=book.at("5, 57"))
game.invariant("the_extra_turns_go_round_once",
               implies(all_of(ending, not_(over)),
                       (to_move + N - trigger_seat) % N == (N - final_turns) % N),
               source=book.at("57", "すべてのプレイヤー(ゲーム終了トリガーを引いたプレイヤーを含む)はさらに1手番ずつを行い"),
               doc="after the trigger, the k-th extra turn is the k-th seat after the "
                   "trigger's: each player, the trigger's last, exactly once")
game.invariant("the_game_ends_only_after_a_trigger",
               all_of(implies(over, all_of(ending, final_turns == 0, to_move == trigger_seat)),
                      implies(not_(ending), final_turns == 0)),
               source=book.at("57"))
game.invariant("draws_fit_in_their_rows",
               all_of(lower.filled() + loc_to_draw <= ROW_LOCATIONS,
                      char_row.filled() + char_to_draw <= CHAR_ROW,
                      implies(loc_to_draw > 0, loc_deck.size() > 0),
                      implies(char_to_draw > 0, char_deck.size() > 0)),
               source=f"{book.at('47')}; {COMPONENTS} §Turn")
game.invariant("effects_wait_one_source_at_a_time",
               all_of(pending[Effect.none] == 0,
                      *(pending[Effect[m]] <= 1 for m in EFFECT_NAMES
                        if m not in ("raise1", "score")),
                      implies(pending[Effect.wave] > 0, all_of(*(
                          pending[Effect[m]] == 0 for m in EFFECT_NAMES if m != "wave")))),
               source=book.at("7-8, 19"),
               doc="a card prints each effect once (the Wave-Teller's choice alone waits)")
