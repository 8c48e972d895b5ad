"""What must always hold in MOTU: the invariants and laws the checks and the prover read,
with the turn's flow facts that exist for the prover (each marked ``proof_aid=True``; listed
in docs/games/motu.md, "Proof aids"). A part of spec.py."""

from rulespec.spec import (all_of, any_of, count, exists, forall, if_, implies, lookup, not_,
                           sum_of, to_int)

from .spec import (ADD, AIM, BONUS, BOTH_ONE, C, CARD_COUNT, CENTRE, Card, DECK_SHARE, END,
                   Element, FATE, FATES, FINAL, FIRST_PLAYER, FULL, Fate, N, Phase, R, REFILL,
                   ROUND, ROUNDS, ROW, ROW_SLOTS, SCORING, SETUP, Source, Sym, TAKE, Terrain,
                   aside, beach, beach_bonus, beach_bonus_at_zero, beach_cut, choices, chosen,
                   coconut_bonus, coconut_total, coconuts, dealt, deck_left, deck_no, diagonal,
                   due, fate_owner, fate_value, fates_shown, game, island, phase, placed, row,
                   scored, scorer, scorings, sea_rule, sheet, symbol, taken, tallied, terrain,
                   to_move, visible_count)

# =====================================================================================
# What must always hold
# =====================================================================================
SEATED = game.players()


def triangle(k):
    """Sources scored per player after k scorings: 1 + 2 + ... + k (for the prover: a
    table, linear for the solver, where k * (k + 1) // 2 is not)."""
    return lookup([n * (n + 1) // 2 for n in range(4)], k, name="scorings_in_all")


game.conservation("coconuts_are_conserved",
                  sum_of(SEATED, lambda p: coconuts[p]) +
                  sum_of(ROW_SLOTS, lambda k: row.rider("coconuts", k)),
                  source=SETUP.at(23) + "; " + TAKE.at("56-58") + "; " + FATE.at(94),
                  doc="players' coconuts + coconuts on row cards stay 5 per player: "
                      "nothing is created or lost (the traveller's printed "
                      "coconuts are symbols, not counters: L117)")
game.invariant("coconuts_lie_only_on_cards",
               forall(ROW_SLOTS, lambda k: implies(row[k] == Card.none,
                                                   row.rider("coconuts", k) == 0)),
               source=TAKE.at(56) + "; " + FATE.at(94))
game.invariant("the_row_holds_four_cards_after_every_refill",
               implies(phase.is_one_of(Phase.travellers, Phase.fates, Phase.take, Phase.pay,
                                       Phase.fate, Phase.traveller, Phase.scoring,
                                       Phase.tally, Phase.over), row.full()),
               source=REFILL.at(88) + " (deck_sizes: 4 + 9 per player <= 58 cards)")
game.invariant("a_card_is_chosen_only_until_it_is_paid",
               implies(phase != Phase.pay, chosen == 0), source=TAKE.at(56), proof_aid=True)
game.invariant("a_card_is_in_hand_only_while_it_is_placed",
               (taken != Card.none) == (phase == Phase.place),
               source=ROUND.at("47-49"), proof_aid=True)
game.invariant("the_village_star_stays_visible",
               forall(SEATED, lambda p: implies(any_of(phase != Phase.villages, p < dealt),
                                                symbol[p, CENTRE[0], CENTRE[1]] == Sym.village)),
               source=ADD.at(76, "村と火山の真ん中にある星シンボルは覆うことができません"))
game.invariant("each_source_is_scored_once_per_scoring_share",
               forall(SEATED, lambda p: count(Source, lambda s: scored[p, s]) == if_(
                   phase == Phase.scoring,
                   if_(p < scorer, triangle(scorings + 1),
                       if_(p == scorer, triangle(scorings) + scorings + 1 - choices,
                           triangle(scorings))),
                   triangle(scorings))),
               source=SCORING.at("128-134"),
               doc="1, then 1 + 2, then all 6 sources per player; the scorer is part-way")
game.invariant("the_scorer_has_a_source_left_to_choose",
               implies(phase == Phase.scoring, all_of(choices >= 1, choices <= scorings + 1)),
               source=SCORING.at("128-130"),
               doc="during a scoring the scorer still chooses 1 to (scorings done + 1) "
                   "sources: 1 after deck A, 2 after B, 3 after C", proof_aid=True)
game.invariant("only_scored_sources_have_points",
               forall(SEATED, lambda p: forall(Source, lambda s: implies(
                   not_(scored[p, s]), sheet[p, s] == 0))),
               source=SCORING.at(134))
game.invariant("fate_cards_are_bought_only_in_the_full_game",
               implies(not_(FULL), forall(Fate, lambda f: fate_owner[f] == -2)),
               source=SETUP.at(21))

game.invariant("the_player_right_of_the_first_draws_each_decks_last_card",
               implies(due, to_move == (FIRST_PLAYER + N - 1) % N),
               source=REFILL.at(90, "常にファーストプレイヤーの右側に座っているプレイヤーが、"
                                      "各山で最後のカードを引きます"),
               doc="checks the deck_sizes assumption (4, 3 and 2 cards per player): with "
                   "play clockwise from seat 0, the seat before it draws every last card")
game.invariant("every_player_takes_nine_cards",
               implies(phase == Phase.over,
                       forall(SEATED, lambda p: placed[p] + aside.size(of=p) == ROUNDS)),
               source=SCORING.at(132, "最終的な合計を計算するまでに9枚のカードを配置する"),
               doc="nine cards per player by the end: added to the island, or set aside "
                   "when none fits (the no_placement point)")


# --- the turn's counters ------------------------------------------------------------------
# For the prover (proof_aid=True): facts of the turn order that tie the flow counters
# together. Each follows from the rules (and is tested by play like every invariant);
# together they make the step proofs above inductive: a state that breaks one of them is
# unreachable. A reader of the rules can skip this section (issue 28 removes it).
DECK_SIZES = [DECK_SHARE["A"], DECK_SHARE["B"], DECK_SHARE["C"]]
DRAWING = (Phase.villages, Phase.row, Phase.travellers, Phase.fates,
           Phase.take, Phase.pay, Phase.place, Phase.refill)
AFTER_PLACING = (Phase.refill, Phase.fate, Phase.traveller, Phase.scoring, Phase.tally,
                 Phase.over)


def cards_taken(p):
    """Island cards player ``p`` has taken and dealt with: added, or set aside."""
    return placed[p] + aside.size(of=p)


def turns_taken():
    return sum_of(SEATED, cards_taken)


game.invariant("a_scoring_is_due_for_each_deck_run_out_and_not_yet_scored",
               scorings + to_int(due) == deck_no,
               source=REFILL.at(90, "デッキの最後のカードを引いた場合、今度は中間決算を計算します") +
               "; " + SCORING.at("128-136"),
               doc="the scorings done plus the one due are the decks that ran out", proof_aid=True)
game.invariant("no_scoring_is_due_before_a_card_is_drawn",
               all_of(implies(phase.is_one_of(*DRAWING), not_(due)),
                      implies(phase == Phase.scoring, due)),
               source=ROUND.at("45-52") + "; " + REFILL.at(90),
               doc="a deck runs out only at a draw, and its scoring is over before the next "
                   "player takes a card (step 6 of the same turn, or at once: scoring_time)",
               proof_aid=True)
game.invariant("decks_run_out_in_order",
               all_of(*[all_of(implies(d < deck_no, deck_left[d] == 0),
                               implies(d == deck_no, all_of(
                                   deck_left[d] >= 1,
                                   implies(due, deck_left[d] == share * N))),
                               implies(d > deck_no, deck_left[d] == share * N))
                        for d, share in enumerate(DECK_SIZES)]),
               source=SETUP.at(15) + "; " + REFILL.at(88, "列に最も近いデッキ") + "; " +
               SCORING.at(136, "デッキ列の次のデッキ"),
               doc="the row is refilled from the nearest deck: the decks before it are "
                   "empty, the ones after it untouched, and a deck just reached (a scoring "
                   "due) is still whole (deck_sizes: 4, 3, 2 cards per player)", proof_aid=True)
game.invariant("the_game_ends_only_when_deck_c_has_run_out",
               all_of(implies(phase.is_one_of(*DRAWING), deck_no < 3),
                      implies(phase.is_one_of(Phase.tally, Phase.over), deck_no == 3)),
               source=END.at(150, "最後の中間決算") + "; " + REFILL.at(88),
               doc="a turn starts only while a deck has cards; the final count comes after "
                   "deck C's scoring", proof_aid=True)
game.invariant("one_card_is_drawn_for_each_card_taken",
               turns_taken() + deck_left[0] + deck_left[1] + deck_left[2]
               == ROUNDS * N + to_int(phase == Phase.refill),
               source=REFILL.at(88, "列に最も近いデッキから別のカードを引き") + "; " +
               SCORING.at(132, "9枚のカードを配置する"),
               doc="cards added or set aside + cards left in the decks = 9 per player (4 + 3 "
                   "+ 2), one more while the row waits for its refill", proof_aid=True)
def _behind(p):
    """Cards seat ``p`` has taken, less those of the current round: every seat's count is
    the same (the rounds completed). For the prover: written linearly, not with // and %."""
    after = phase.is_one_of(*AFTER_PLACING)
    return cards_taken(p) - to_int(p < to_move) - to_int(all_of(p == to_move, after))


game.invariant("players_take_cards_in_turn",
               all_of(forall(SEATED, lambda p: _behind(p) == _behind(0)),
                      N * _behind(0) + to_move + to_int(phase.is_one_of(*AFTER_PLACING))
                      == turns_taken()),
               source=AIM.at(33, "ゲームは時計回りに進行し") + "; " + ROUND.at("43-52"),
               doc="one card per turn, clockwise from seat 0: every seat has taken the same "
                   "number of cards in the rounds completed, plus one for the seats before "
                   "the player to move, and the player to move's own once taken", proof_aid=True)
game.invariant("players_plus_one_fate_cards_are_turned_up",
               all_of(fates_shown <= N + 1, implies(phase == Phase.fates, fates_shown <= N),
                      implies(phase.is_one_of(Phase.villages, Phase.row, Phase.travellers),
                              fates_shown == 0)),
               source=SETUP.at(19, "プレイヤーの数に1を加えた数だけ選択します"),
               doc="the setup turns up fate cards until there are players + 1 (after the "
                   "villages, the row and the travellers)", proof_aid=True)
game.invariant("the_chosen_card_is_affordable",
               implies(phase == Phase.pay, coconuts[to_move] >= chosen),
               source=TAKE.at(56, "カウンターが足りない場合は、このカードを取ることができず"),
               doc="a chosen card is paid one coconut per card to its left", proof_aid=True)
game.invariant("the_row_lacks_one_card_until_its_refill",
               all_of(implies(phase.is_one_of(Phase.place, Phase.refill),
                              all_of(row[ROW - 2] != Card.none, row[ROW - 1] == Card.none)),
                      implies(phase.is_one_of(Phase.villages, Phase.row),
                              row[ROW - 1] == Card.none)),
               source=REFILL.at(88, "列の右側に配置します") + "; " + SETUP.at(13),
               doc="taking a card leaves three in the row until the refill; before play "
                   "the row is dealt slot by slot", proof_aid=True)


def _on_grid(r, c):
    return 0 <= r < R and 0 <= c < C


def _pairs(directions):
    """Each pair of cells (once) that are neighbours in one of ``directions``."""
    return [((r, c), (r + dr, c + dc)) for r in range(R) for c in range(C)
            for dr, dc in directions if _on_grid(r + dr, c + dc)]


def no_sea_by_land(p):
    """No visible sea cell next to a visible land cell (orthogonally; also at a corner
    under diagonal_contact = diagonal_too)."""
    def apart(pairs):
        return all_of(*[not_(any_of(all_of(terrain[p, a[0], a[1]] == Terrain.sea,
                                           terrain[p, b[0], b[1]] == Terrain.land),
                                    all_of(terrain[p, a[0], a[1]] == Terrain.land,
                                           terrain[p, b[0], b[1]] == Terrain.sea)))
                        for a, b in pairs])
    return all_of(apart(_pairs([(0, 1), (1, 0)])),
                  implies(diagonal.is_("diagonal_too"), apart(_pairs([(1, 1), (1, -1)]))))


def beaches_continuous(p):
    """No visible beach band ends against land or sea (ends off the island are fine)."""
    def at(cell):
        return terrain[p, cell[0], cell[1]]

    def ok(axis, pairs):
        return all_of(*[all_of(implies(at(a) == axis,
                                       not_(at(b).is_one_of(Terrain.land, Terrain.sea))),
                               implies(at(b) == axis,
                                       not_(at(a).is_one_of(Terrain.land, Terrain.sea))))
                        for a, b in pairs])
    return all_of(ok(Terrain.beach_h, _pairs([(0, 1)])), ok(Terrain.beach_v, _pairs([(1, 0)])))


game.invariant("no_visible_sea_touches_land",
               implies(sea_rule.is_("both_ways"), forall(SEATED, no_sea_by_land)),
               source=ADD.at("70, 82-84", "海は陸地に直接つなげることはできません"),
               doc="under sea_rule = both_ways every island keeps the sea rule (the "
                   "diagonal_contact point decides whether corners count)")
game.invariant("every_beach_is_continuous",
               implies(beach_cut.is_("forbidden"), forall(SEATED, beaches_continuous)),
               source=ADD.at("68, 78-80", "ビーチは連続してつながっている必要があります"),
               doc="under beach_cut = forbidden no beach of an island ends against land or "
                   "sea; under allowed only the added card's beaches are checked, so an old "
                   "one may be cut")
game.invariant("every_volcano_stays_visible",
               forall(SEATED, lambda p: visible_count(p, Sym.volcano) == sum_of(
                   Card, lambda c: if_(island.has(c, of=p), CARD_COUNT["volcano"][c], 0))),
               source=ADD.at(76, "村と火山の真ん中にある星シンボルは覆うことができません"),
               doc="every volcano of a card added to the island still shows (its star may "
                   "never be covered)")

# --- what Z3 leaves to play --------------------------------------------------------------
# A placement writes up to 6 cells anywhere on an 8 x 8 grid (its row and column are
# parameters): the island-form invariants after it are terms over every cell of every
# island, and deal_village needs an invariant that undealt islands are empty. The deck's
# total over 58 cards moves with a symbolic card through the row's slide. Z3 does not
# decide these within the default budget (models/motu/README.md has the figures); play
# and the scenarios check them, and no proof assumes them.
_GEOMETRY = ("a placement's row and column are parameters, so its step proof is a term over "
             "every cell of every island: undecided within the default budget")
for _name in ("no_visible_sea_touches_land", "every_beach_is_continuous",
              "every_volcano_stays_visible"):
    game.left_to_play(_name, reason=_GEOMETRY)
game.left_to_play("island_cards_are_conserved",
                  reason="the total over 58 cards after a draw, a payment (the row slides) or "
                         "a placement is undecided within the default budget; the per-card "
                         "law (island_cards_are_conserved_per_card) is proved instead")

# --- the scoring laws (every state within bounds, reachable or not) ---------------------
for _key, _card in FATES.items():
    _e1, _e2, _plus, _minus = _card.element, _card.second_element, _card.plus, _card.minus
    _f = Fate[_key]
    if _e2 is None:
        _ok = forall(SEATED, lambda p, f=_f, e=Element[_e1], plus=_plus, minus=_minus: implies(
            fate_owner[f] == p, if_(exists(SEATED, lambda q: tallied[q, e] > tallied[p, e]),
                                    fate_value(f, p) == 0 - minus, fate_value(f, p) == plus)))
    else:
        _ok = forall(SEATED, lambda p, f=_f, a=Element[_e1], b=Element[_e2], plus=_plus,
                     minus=_minus: implies(fate_owner[f] == p, fate_value(f, p) == if_(
                         exists(SEATED, lambda q: tallied[q, a] > tallied[p, a]),
                         if_(exists(SEATED, lambda q: tallied[q, b] > tallied[p, b]),
                             0 - minus, BOTH_ONE),
                         if_(exists(SEATED, lambda q: tallied[q, b] > tallied[p, b]),
                             BOTH_ONE, plus))))
    game.law(f"fate_{_key}_adds_or_subtracts_its_value", _ok,
             source=FATE.at(94, "最も多いプレイヤーである場合(他のプレイヤーと同数でも可)…"
                                  "そうでない場合は、ポイントを失います"),
             doc="its owner gains its points when nobody has more of its element(s), ties "
                 "included, and loses them otherwise")
game.law("the_longest_beach_bonus_goes_to_every_tied_player",
         all_of(forall(SEATED, lambda p: beach_bonus(p) == if_(
                    any_of(exists(SEATED, lambda q: beach[q] > beach[p]),
                           all_of(beach_bonus_at_zero.is_("needs_a_beach"), beach[p] == 0)),
                    0, BONUS)),
                implies(any_of(beach_bonus_at_zero.is_("tied_at_zero"),
                               exists(SEATED, lambda p: beach[p] >= 1)),
                        exists(SEATED, lambda p: beach_bonus(p) == BONUS))),
         source=FINAL.at(158, "同数の場合、それらのプレイヤー全員がこの追加の5ポイントを獲得します"))
game.law("the_most_coconuts_bonus_goes_to_every_tied_player",
         all_of(forall(SEATED, lambda p: coconut_bonus(p) == if_(
                    exists(SEATED, lambda q: coconut_total(q) > coconut_total(p)), 0, BONUS)),
                exists(SEATED, lambda p: coconut_bonus(p) == BONUS)),
         source=FINAL.at(159, "同数の場合、それらのプレイヤー全員がこの追加の5ポイントを獲得します"))
