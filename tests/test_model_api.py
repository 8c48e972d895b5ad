"""The public Model API on the reference games."""

import pytest

import rulespec


def test_available_games_lists_the_reference_games():
    assert {"tic_tac_toe"} <= set(rulespec.available_games())


def test_apply_returns_a_new_state_and_leaves_the_old_one():
    game = rulespec.load("tic_tac_toe")
    s0 = game.initial_state()
    a = game.legal_actions(s0)[4]
    s1 = game.apply(s0, a)
    assert s0 != s1
    assert s0["board"] == [["empty"] * 3] * 3
    assert s1["board"][1][1] == "x"
    assert game.current_player(s1) == 1


def test_illegal_action_names_the_failed_precondition_and_its_source():
    game = rulespec.load("tic_tac_toe")
    s = game.apply(game.initial_state(), game.action_from_str(game.initial_state(), "mark(1,1)"))
    occupied = game.action_from_str(s, "mark(1,1)")
    with pytest.raises(rulespec.IllegalAction) as err:
        game.apply(s, occupied)
    assert [r.text for r in err.value.reasons] == ["the cell is empty"]
    assert "tic-tac-toe" in err.value.reasons[0].source


def test_json_round_trip_is_lossless():
    game = rulespec.load("tic_tac_toe")
    s = game.initial_state()
    for text in ["mark(0,0)", "mark(1,1)", "mark(2,2)"]:
        s = game.apply(s, game.action_from_str(s, text))
    back = game.state_from_json(s.to_json())
    assert back == s
    assert back.to_json() == s.to_json()


def test_a_won_game_is_terminal_with_scores_and_a_sole_winner():
    game = rulespec.load("tic_tac_toe")
    s = game.initial_state()
    for text in ["mark(0,0)", "mark(1,0)", "mark(0,1)", "mark(1,1)", "mark(0,2)"]:
        s = game.apply(s, game.action_from_str(s, text))
    assert game.is_terminal(s)
    assert game.scores(s) == [1, -1]
    assert game.winners(s) == [0]
    assert game.legal_actions(s) == []
