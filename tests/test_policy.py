"""Policies: who plays the players' moves in check's playouts and diff's impact games
(random, greedy, OpenSpiel's MCTS), and every answer says which one played."""

from __future__ import annotations

import json
import random

import pytest

import rulespec
from rulespec.check.impact import impact
from rulespec.check.policy import (RANDOM_DESCRIPTION, GreedyPolicy, MctsPolicy, RandomPolicy,
                                   chooser, policy_named)
from rulespec.check.runner import HYPOTHESIS, RANDOM, check_game
from rulespec.cli import main

TWO = "tests/fixtures/two_readings"
BUGGY = "tests/fixtures/occupied_cell_tic_tac_toe"


def _run(capsys, argv):
    with pytest.raises(SystemExit) as e:
        main(argv)
    return e.value.code, capsys.readouterr()


def test_greedy_takes_a_winning_move_and_random_plays_as_before():
    game = rulespec.load("tic_tac_toe")
    s = game.initial_state()
    for text in ["mark(0,0)", "mark(1,0)", "mark(0,1)", "mark(1,1)"]:
        s = game.apply(s, game.action_from_str(s, text))
    legal = game.legal_actions(s)
    pick = GreedyPolicy().choose(game, s, legal, random.Random(0))
    assert str(legal[pick]) == "mark(0,2)"   # x completes the top row
    # random play draws exactly as rulespec play's seeded chooser always did
    from rulespec.runtime.play import seeded_chooser
    a, b = chooser(RandomPolicy(), game, random.Random(5)), seeded_chooser(game, random.Random(5))
    assert [a(s, legal) for _ in range(20)] == [b(s, legal) for _ in range(20)]


def test_mcts_blocks_a_line_with_a_small_budget():
    game = rulespec.load("tic_tac_toe")
    s = game.initial_state()
    for text in ["mark(0,0)", "mark(1,1)", "mark(0,1)"]:   # o must block mark(0,2)
        s = game.apply(s, game.action_from_str(s, text))
    legal = game.legal_actions(s)
    policy = MctsPolicy(simulations=200, rollout=None)
    picks = {str(legal[policy.choose(game, s, legal, random.Random(seed))]) for seed in range(3)}
    assert picks == {"mark(0,2)"}


def test_bad_policies_are_refused():
    with pytest.raises(ValueError, match="unknown policy"):
        policy_named("smart")
    with pytest.raises(ValueError, match="at least 1 simulation"):
        MctsPolicy(simulations=0)


def test_random_policy_impact_is_the_plain_impact():
    a, b = rulespec.load(TWO, {"step_size": "one"}), rulespec.load(TWO, {"step_size": "two"})
    plain = impact(a, b, 12, 3)
    assert impact(a, b, 12, 3, policy=RandomPolicy()) == plain
    assert plain.policy == RANDOM_DESCRIPTION


def test_mcts_impact_on_a_hawaii_point_says_who_played():
    a = rulespec.load("hawaii")
    b = rulespec.load("hawaii", {"beach_return": "forbidden"})
    policy = MctsPolicy(simulations=2, rollout=4)
    im = impact(a, b, 2, 0, policy=policy)
    assert im.policy == policy.describe() and im.policy.startswith("mcts (OpenSpiel MCTSBot")
    assert im.games == 2 and im.parted.count == 2   # beach_return parts in every game
    assert impact(a, b, 2, 0, policy=policy) == im  # counted budgets: the same seed, the same


def test_check_playouts_follow_the_policy_and_say_so(capsys, tmp_path):
    code, out = _run(capsys, ["check", BUGGY, "--policy", "greedy", "--examples", "20",
                              "--trace-dir", str(tmp_path), "--json", "-q"])
    doc = json.loads(out.out)
    assert code == 1 and doc["mode"] == RANDOM and doc["policy"].startswith("greedy")
    bad = next(r for r in doc["results"] if r["property"] == "cells_filled_one_per_move")
    assert bad["status"] == "VIOLATED" and bad["checker"] == "greedy"
    ok = next(r for r in doc["results"] if r["status"] == "PASSED")
    assert ok["detail"].startswith("20 playouts by greedy players")
    code, out = _run(capsys, ["check", "tic_tac_toe", "--examples", "5", "--json", "-q"])
    assert json.loads(out.out)["policy"] is None        # Hypothesis chooses its own moves


def test_a_policy_needs_playout_mode():
    with pytest.raises(ValueError, match="playouts"):
        check_game(rulespec.load("tic_tac_toe"), examples=1, mode=HYPOTHESIS,
                   policy=GreedyPolicy(), trace_dir=None)


def test_diff_policy_is_in_the_answer_and_the_scenario_file(capsys, tmp_path):
    code, out = _run(capsys, ["diff", TWO, "--interpretation", "step_size=one", "--against",
                              "step_size=two", "--games", "6", "--policy", "greedy",
                              "--out-dir", str(tmp_path), "--json", "-q"])
    doc = json.loads(out.out)
    assert code == 1 and doc["impact"]["policy"].startswith("greedy")
    saved = (tmp_path / next(p.name for p in tmp_path.iterdir())).read_text()
    assert 'policy = "greedy' in saved
    code, out = _run(capsys, ["diff", TWO, "--interpretation", "step_size=one", "--against",
                              "step_size=two", "--games", "2", "--policy", "mcts",
                              "--simulations", "3", "--out-dir", str(tmp_path), "-q"])
    assert "played by mcts (OpenSpiel MCTSBot, 3 simulations per move" in " ".join(
        out.out.split())


@pytest.mark.parametrize("argv,says", [
    (["--simulations", "3"], "give --policy mcts"),
    (["--policy", "greedy", "--rollout", "3"], "are for --policy mcts, not greedy"),
    (["--policy", "best"], "'best' is not one of"),
])
def test_bad_policy_options_are_one_line_and_exit_2(capsys, argv, says):
    code, out = _run(capsys, ["diff", TWO, "--interpretation", "step_size=one", "--against",
                              "step_size=two", *argv])
    assert code == 2 and says in out.err and "Traceback" not in out.err


@pytest.mark.parametrize("game", ["hawaii", "aquatica", "tic_tac_toe"])
def test_greedy_on_compiled_keys_chooses_as_greedy_on_actions(game):
    """Lockstep games ask GreedyPolicy.choose_key (no Action objects): it must pick the
    same action, with the same draws, as choose does."""
    m = rulespec.load(game)
    greedy, rng, asked = GreedyPolicy(), random.Random(1), 0
    for g in range(2):
        s = m.initial_state(m.min_players + g % (m.max_players - m.min_players + 1))
        while not m.is_terminal(s):
            legal = m.legal_actions(s)
            if m.current_player(s) >= 0 and len(legal) > 1:
                seed = rng.random()
                assert greedy.choose(m, s, legal, random.Random(seed)) == greedy.choose_key(
                    m, s.values, [a.key for a in legal], random.Random(seed))
                asked += 1
            s = m.apply(s, legal[rng.randrange(len(legal))])
    assert asked > 5
