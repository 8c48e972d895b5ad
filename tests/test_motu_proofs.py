"""Z3 on MOTU: the scoring laws (fate cards +/-, both bonuses with ties) for every state
within bounds, and coconut conservation step by step for the actions that move coconuts;
each with a planted misreading that Z3 must refute; the turn's flow invariants step by step
on the refill, with a planted miscount."""

from typing import Any

import pytest

import rulespec
from rulespec.check.budget import Budget
from rulespec.check.prove import law_proofs
from rulespec.check.results import PROVED, VIOLATED
from rulespec.check.seats import with_seat_lemmas
from rulespec.check.steps import ActionProver, Lessons, Premises, goals_of, step_cases
from rulespec.check.steps.lessons import SPLIT_FURTHER, UNTRACKED
from rulespec.compile.smt_backend import compile_smt

from planting import planted_spec

COCONUTS = "coconuts_are_conserved"


def _load(game):
    """The game as ``prove`` proves it: with the seat lemmas it states itself."""
    return with_seat_lemmas(rulespec.load(game))


def _planted(tmp_path, old: str, new: str):
    return _load(planted_spec(tmp_path, "motu", old, new))


def _laws(game, names=None):
    smt = compile_smt(game.spec, game.interpretation)
    return {r.property: r for r in law_proofs(smt, 60_000, names)}


def test_every_scoring_law_is_proved():
    results = _laws(_load("motu"))
    assert len(results) == 12
    assert {r.status for r in results.values()} == {PROVED}


def test_a_fate_card_that_ignores_ties_is_refuted(tmp_path):
    # misreading: a tie for the most does not count (L94 says it does)
    game = _planted(tmp_path, "return most(lambda q: tallied[q, e], of=p, over=game.players())",
                    "return most(lambda q: tallied[q, e], of=p, over=game.players(), "
                    "ties=False)")
    results = _laws(game, {"fate_canoes_4_adds_or_subtracts_its_value"})
    assert results["fate_canoes_4_adds_or_subtracts_its_value"].status == VIOLATED


def _steps(game, actions, names, players=None, budget=None):
    """Step verdicts of the goals ``names`` for each case of ``actions`` (of one player
    count, or every one)."""
    smt = compile_smt(game.spec, game.interpretation)
    goals = [g for g in goals_of(smt) if g.name in names]
    out = {}
    for a_idx, fixed in step_cases(smt):
        if game.spec.actions[a_idx].name in actions and players in (None, dict(fixed)[0]):
            prover = ActionProver(game, smt, Premises(smt, dict(fixed)), a_idx, goals,
                                  budget or Budget(), Lessons())
            for name, verdict in prover.run().items():
                out[(game.spec.actions[a_idx].name, fixed, name)] = verdict.status
    return out


def _coconut_steps(game, actions):
    return {k[:2]: v for k, v in _steps(game, actions, {COCONUTS}).items()}


TURN = {"players_take_cards_in_turn", "one_card_is_drawn_for_each_card_taken",
        "decks_run_out_in_order", "the_player_right_of_the_first_draws_each_decks_last_card",
        "island_cards_are_conserved_per_card"}


def test_the_refill_keeps_the_turn_and_the_cards_in_step():
    verdicts = _steps(_load("motu"), {"draw"}, TURN, players=3)
    assert len(verdicts) == len(TURN) and set(verdicts.values()) == {PROVED}


def test_a_refill_that_does_not_count_down_the_deck_is_refuted(tmp_path):
    game = _planted(tmp_path, "rule.add(deck_left[deck_no], -1, source=REFILL.at(88))",
                    "rule.add(deck_left[deck_no], 0, source=REFILL.at(88))")
    verdicts = _steps(game, {"draw"}, {"one_card_is_drawn_for_each_card_taken"}, players=3)
    assert set(verdicts.values()) == {VIOLATED}


def test_paying_and_buying_fate_cards_keep_the_coconuts():
    game = _load("motu")
    verdicts = _coconut_steps(game, {"pay", "buy_fate"})
    assert len(verdicts) == 6 and set(verdicts.values()) == {PROVED}


def test_a_fate_card_that_swallows_a_coconut_is_refuted(tmp_path):
    game = _planted(tmp_path, "    rule.add(coconuts[p], 0 - price)\n",
                    "    rule.add(coconuts[p], 0 - price - to_int(price == 4))\n")
    verdicts = _coconut_steps(game, {"buy_fate"})
    assert set(verdicts.values()) == {VIOLATED}


def test_a_payment_that_creates_a_coconut_is_refuted(tmp_path):
    # planted leak: the payer keeps one of the coconuts put on the row
    game = _planted(tmp_path, "rule.add(coconuts[p], 0 - k)", "rule.add(coconuts[p], 1 - k)")
    verdicts = _coconut_steps(game, {"pay"})
    assert len(verdicts) == 3 and set(verdicts.values()) == {VIOLATED}


QUICK = Budget(10_000_000)  # the report's quick budget (rulespec/report/budget.py)
CARDS = {"island_cards_are_conserved_per_card", "aside_size_counts_its_cards"}


@pytest.mark.slow
def test_paying_and_setting_aside_keep_the_cards_in_step_at_the_quick_budget():
    # pay slides the row from the chosen slot, set_aside writes the card in hand: both are
    # split on that cell (one case per value), each equation less its twin before the step
    verdicts = _steps(_load("motu"), {"pay", "set_aside"}, CARDS, players=2,
                      budget=QUICK)
    assert len(verdicts) == 4 and set(verdicts.values()) == {PROVED}


def _per_card_prover(action: str) -> tuple[ActionProver, Any]:
    game = _load("motu")
    smt = compile_smt(game.spec, game.interpretation)
    goals = [g for g in goals_of(smt) if g.name == "island_cards_are_conserved_per_card"]
    a_idx, case = next(c for c in step_cases(smt)
                       if game.spec.actions[c[0]].name == action and dict(c[1])[0] == 2)
    prover = ActionProver(game, smt, Premises(smt, dict(case)), a_idx, goals, QUICK,
                          Lessons())
    return prover, prover.run()["island_cards_are_conserved_per_card"]


def test_card_by_card_gives_up_within_one_slice_then_the_card_cell_is_split():
    # setting a card aside: 58 cards' counts one by one would cost about ten slices; the
    # try stops after one slice's units and the split on the card in hand proves it
    prover, verdict = _per_card_prover("set_aside")
    assert verdict.status == PROVED, verdict.detail
    queries, units, unsat, sat, unknown = prover.stats["conjunct"]
    assert units <= QUICK.slice * 1.01 and unsat < 58
    assert prover.stats["cell"][2] >= 50  # a value of the card cell per query, shown


def _case_prover(action: str, goal: str, players: int, lessons: Lessons) -> ActionProver:
    game = _load("motu")
    smt = compile_smt(game.spec, game.interpretation)
    a_idx, case = next(c for c in step_cases(smt)
                       if game.spec.actions[c[0]].name == action and dict(c[1])[0] == players)
    return ActionProver(game, smt, Premises(smt, dict(case)), a_idx,
                        [g for g in goals_of(smt) if g.name == goal], QUICK, lessons)


@pytest.mark.parametrize("action, goal, skipped, asked, learned", [
    # every premise shows the traveller points' bound only on the untracked solver: the
    # slice and the tracked query (13M units) spend their budgets undecided first
    ("reveal_traveller", "fields_within_bounds[traveller_points]", {"slice", "tracked"},
     "full", "untracked"),
    # setting a card aside: the slice is undecided, the card in hand is split on
    ("set_aside", "aside_size_counts_its_cards", {"slice"}, "cell", "splits"),
])
@pytest.mark.slow
def test_a_case_for_fewer_players_skips_the_queries_that_failed_for_more(
        action, goal, skipped, asked, learned):
    import copy
    lessons = Lessons()
    four = _case_prover(action, goal, 4, lessons)
    assert four.run()[goal].status == PROVED
    assert skipped <= set(four.stats)  # the teacher asked them, undecided
    a_idx = four.a_idx
    assert (lessons.has(SPLIT_FURTHER, a_idx, goal, frozenset()) if learned == "splits" else
            lessons.has(UNTRACKED, a_idx, goal))
    three = _case_prover(action, goal, 3, copy.deepcopy(lessons))
    verdict = three.run()[goal]
    assert verdict.status == PROVED, verdict.detail
    assert not skipped & set(three.stats) and three.stats[asked][2] >= 1


def test_a_payment_keeps_each_card_count_card_by_card():
    # the row slides from the chosen slot: each card's count alone needs few premises
    prover, verdict = _per_card_prover("pay")
    assert verdict.status == PROVED, verdict.detail
    assert prover.stats["conjunct"][2] >= 50 and "cell" not in prover.stats


def test_a_payment_that_takes_the_first_card_whatever_was_chosen_is_refuted(tmp_path):
    # planted: the taker gets the first card while the chosen one slides away
    game = _planted(tmp_path, 'rule.set(taken, got["card"])', "rule.set(taken, row[0])")
    verdicts = _steps(game, {"pay"}, {"island_cards_are_conserved_per_card"}, players=2,
                      budget=QUICK)
    assert set(verdicts.values()) == {VIOLATED}


def test_setting_aside_a_second_card_uncounted_is_refuted(tmp_path):
    # planted: one more card lands aside with the taken one, the size counts only one
    game = _planted(tmp_path, "    aside.put(rule, taken, of=to_move)\n",
                    "    aside.put(rule, taken, of=to_move)\n"
                    "    rule.set(aside.cells[to_move, Card.I05], True)\n")
    verdicts = _steps(game, {"set_aside"}, {"aside_size_counts_its_cards"}, players=2,
                      budget=QUICK)
    assert set(verdicts.values()) == {VIOLATED}


def test_the_proof_of_a_payment_names_the_premises_it_used():
    # the induction needs them: a proof that stood for "every premise" would need the
    # invariants left to play too, and the per-card law would never be proved by induction
    prover, verdict = _per_card_prover("pay")
    assert verdict.status == PROVED
    invariants = prover.model.spec.invariants
    left = {("invariant", k) for k, inv in enumerate(invariants)
            if inv.name in prover.model.spec.left_to_play}
    assert verdict.used is not None and not verdict.used & left
