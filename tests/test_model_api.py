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


# --- misuse gets a clear TypeError or ValueError (issue 9) -------------------------------
def test_a_state_of_another_game_is_refused():
    ttt, c4 = rulespec.load("tic_tac_toe"), rulespec.load("connect_four")
    s, other = ttt.initial_state(), c4.initial_state()
    with pytest.raises(ValueError, match="belongs to game 'connect_four', not to tic_tac_toe"):
        ttt.apply(other, ttt.legal_actions(s)[0])
    for call in (ttt.legal_actions, ttt.current_player, ttt.is_terminal, ttt.scores,
                 ttt.winners):
        with pytest.raises(ValueError, match="belongs to game 'connect_four'"):
            call(other)


def test_an_action_of_another_game_is_refused():
    ttt, c4 = rulespec.load("tic_tac_toe"), rulespec.load("connect_four")
    s = ttt.initial_state()
    with pytest.raises(ValueError, match="action 'drop.*' belongs to game 'connect_four'"):
        ttt.apply(s, c4.legal_actions(c4.initial_state())[0])


def test_a_string_or_anything_else_is_not_an_action():
    game = rulespec.load("tic_tac_toe")
    s = game.initial_state()
    with pytest.raises(TypeError, match=r"expected an Action .* got str \(use "
                                        r"game.action_from_str"):
        game.apply(s, "mark(0,0)")
    with pytest.raises(TypeError, match="expected a State"):
        game.apply("state", game.legal_actions(s)[0])
    with pytest.raises(TypeError, match="expected a State"):
        game.legal_actions(None)
    with pytest.raises(TypeError, match="needs the action's text"):
        game.action_from_str(s, 3)
    with pytest.raises(ValueError, match="not an action of tic_tac_toe"):
        game.apply(s, rulespec.Action((0, 1), "half an action"))


def test_states_of_the_same_game_loaded_twice_mix():
    spec = rulespec.load_spec("tic_tac_toe")
    a, b = rulespec.Model(spec), rulespec.Model(spec)
    s = b.apply(a.initial_state(), a.action_from_str(a.initial_state(), "mark(1,1)"))
    assert s["board"][1][1] == "x"


def test_another_reading_of_the_same_game_is_not_the_same_game():
    free = rulespec.load("hawaii")
    other = rulespec.load("hawaii", interpretation={"beach_return": "forbidden"})
    with pytest.raises(ValueError, match="belongs to hawaii under"):
        free.legal_actions(other.initial_state(2))


def test_a_state_cannot_be_changed():
    game = rulespec.load("tic_tac_toe")
    s = game.initial_state()
    with pytest.raises(AttributeError, match="immutable"):
        s.values = ()
    with pytest.raises(AttributeError, match="immutable"):
        s.model = None
    with pytest.raises(AttributeError, match="immutable"):
        del s.values
    assert isinstance(s.values, tuple)


def test_nobody_wins_before_the_end():
    game = rulespec.load("tic_tac_toe")
    s = game.apply(game.initial_state(), game.action_from_str(game.initial_state(), "mark(0,0)"))
    assert not game.is_terminal(s)
    assert game.winners(s) == []
    assert game.scores(s) == [0, 0]


def test_players_must_be_an_int_in_range():
    game = rulespec.load("tic_tac_toe")
    for bad in (True, 2.0, "2", 3):
        with pytest.raises(ValueError, match="is for 2-2 players"):
            game.initial_state(bad)


def test_a_conflicting_repeat_of_an_interpretation_is_refused():
    with pytest.raises(ValueError, match="given twice"):
        rulespec.load("hawaii", interpretation="beach_return=free,beach_return=forbidden")
    assert rulespec.load("hawaii", interpretation="beach_return=free,beach_return=free")
    with pytest.raises(TypeError, match="interpretation must be"):
        rulespec.load("hawaii", interpretation=["beach_return=free"])
