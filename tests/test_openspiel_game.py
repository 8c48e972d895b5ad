"""Every bundled spec is an OpenSpiel game (issue 16, item 1): OpenSpiel's own simulation
test passes on it, its bots play it, and its ids, returns and observations mean what the
spec says."""

from __future__ import annotations

import pickle
import random
import subprocess
import sys

import pytest

import rulespec
from rulespec.openspiel import ActionIds, win_returns

pyspiel = pytest.importorskip("pyspiel")
import rulespec.openspiel as ros  # noqa: E402 - after the skip


# Hawaii and Crazy Eights games are long (hundreds of steps): fewer simulations
SIMS = {"hawaii": 1, "crazy_eights": 2}


@pytest.mark.parametrize("name", rulespec.available_games())
def test_openspiels_random_simulation_test_passes(name):
    """pyspiel.random_sim_test: clone, serialization (game and state), legal-action masks,
    sorted ids, utilities within bounds, game length within max_game_length."""
    model = rulespec.load(name)
    for players in sorted({model.min_players, model.max_players}):
        game = ros.load_game(name, players=players)
        pyspiel.random_sim_test(game, num_sims=SIMS.get(name, 3), serialize=True,
                                verbose=False)


def test_every_interpretation_is_a_game_parameter():
    ros.load_game("hex")  # registers rulespec_hex
    game = pyspiel.load_game("rulespec_hex(board_size=4)")
    assert game.num_players() == 2
    assert game.model.interpretation == {"board_size": "4"}
    state = game.new_initial_state()
    assert len(state.legal_actions()) == 16
    again = ros.load_game("hawaii", interpretation={"beach_return": "forbidden"}, players=3)
    assert str(again).startswith("rulespec_hawaii(beach_return=forbidden,")
    assert again.num_players() == 3
    assert pyspiel.load_game(str(again)).model is again.model


def test_a_ruleset_is_a_game_whose_parameters_are_its_options():
    """Every point a ruleset fixes is a game parameter; the string form loads it again (as
    random_sim_test's serialization does)."""
    game = ros.load_game("hawaii", ruleset="bga", players=3)
    model = rulespec.load("hawaii", ruleset="bga")
    assert game.model.interpretation == model.interpretation
    params = game.get_parameters()
    assert params["beach_return"] == "forbidden" and params["players"] == 3
    assert pyspiel.load_game(str(game)).model is game.model
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


def test_the_game_type_says_what_the_spec_says():
    ttt = ros.load_game("tic_tac_toe").get_type()
    assert ttt.chance_mode == pyspiel.GameType.ChanceMode.DETERMINISTIC
    assert ttt.information == pyspiel.GameType.Information.PERFECT_INFORMATION
    c8 = ros.load_game("crazy_eights", players=3)
    kind = c8.get_type()
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert (kind.min_num_players, kind.max_num_players) == (2, 5)
    assert c8.max_game_length() == 1000  # the spec's horizon
    hawaii = ros.load_game("hawaii", players=5)
    assert hawaii.max_game_length() == rulespec.load("hawaii").spec.max_steps
    assert (hawaii.min_utility(), hawaii.max_utility()) == (-0.25, 1.0)


def test_action_ids_are_a_stable_numbering_of_every_action():
    for name in rulespec.available_games():
        model = rulespec.load(name)
        ids = ActionIds.of(model)
        for chance in (False, True):
            n = ids.chance if chance else ids.players
            keys = [ids.key_of(i, chance=chance) for i in range(n)]
            assert [ids.id_of(k) for k in keys] == list(range(n))
            assert all(model.spec.actions[k[0]].chance == chance for k in keys)
    # tic-tac-toe and Connect Four number their moves as OpenSpiel does
    ttt = ros.load_game("tic_tac_toe").new_initial_state()
    assert [ttt.action_to_string(0, a) for a in (0, 5, 8)] == ["mark(0,0)", "mark(1,2)",
                                                                "mark(2,2)"]
    with pytest.raises(ValueError, match="no action has id 9"):
        ActionIds.of(rulespec.load("tic_tac_toe")).key_of(9, chance=False)


def test_illegal_ids_are_refused_with_the_rule():
    game = ros.load_game("tic_tac_toe")
    state = game.new_initial_state()
    state.apply_action(4)
    with pytest.raises(Exception, match="the cell is empty"):
        state.apply_action(4)


def test_returns_are_the_win_loss_utility_and_match_openspiels_tic_tac_toe():
    assert win_returns(4, [1, 2]) == pytest.approx([-1 / 3, 1 / 3, 1 / 3, -1 / 3])
    assert sum(win_returns(5, [0])) == pytest.approx(0.0)
    ours, theirs = ros.load_game("tic_tac_toe"), pyspiel.load_game("tic_tac_toe")
    outcomes = set()
    for seed in range(30):
        rng = random.Random(seed)
        a, b = ours.new_initial_state(), theirs.new_initial_state()
        while not b.is_terminal():
            assert a.legal_actions() == b.legal_actions()
            move = rng.choice(b.legal_actions())
            a.apply_action(move)
            b.apply_action(move)
        assert a.is_terminal() and a.returns() == b.returns()
        outcomes.add(tuple(a.returns()))
    assert outcomes == {(1.0, -1.0), (-1.0, 1.0), (0.0, 0.0)}


def _play_to_chance_free_turn(game, seed):
    rng = random.Random(seed)
    state = game.new_initial_state()
    while state.is_chance_node():
        outcomes = state.chance_outcomes()
        state.apply_action(rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
    return state


def test_hidden_hands_stay_hidden_and_information_states_recall():
    game = ros.load_game("crazy_eights", players=3)
    state = _play_to_chance_free_turn(game, 0)
    me = state.current_player()
    seen = state.observation_string(me)
    model, inner = game.model, ros.game_state(state)
    assert seen == __import__("json").dumps(model.observation(inner, me),
                                            separators=(",", ":"), ensure_ascii=False)
    other = (me + 1) % 3
    assert state.observation_string(other) != seen
    assert "null" in seen  # the others' cards and the deck
    info = state.information_state_string(me)
    assert info.startswith(seen) and "\nrecall " in info
    # the information state is the same after a serialization round trip ...
    back = game.deserialize_state(state.serialize())
    assert back.information_state_string(me) == info
    # ... and differs after the player acts, even where the observation might not
    after = state.clone()
    after.apply_action(after.legal_actions()[0])
    assert after.information_state_string(me) != info
    tensor = state.observation_tensor(me)
    size = model.layout.size
    assert len(tensor) == 2 * size
    assert 0.0 in tensor[size:] and 1.0 in tensor[size:]  # some cells are hidden, some seen


def test_perfect_information_states_are_the_history():
    game = ros.load_game("connect_four")
    state = game.new_initial_state()
    for move in (3, 3, 4):
        state.apply_action(move)
    assert state.information_state_string(0) == "3 3 4"
    assert '"height":[0,0,0,2,1,0,0]' in state.observation_string(1)
    assert len(state.observation_tensor(0)) == rulespec.load("connect_four").layout.size


def test_a_state_pickles_without_its_compiled_model():
    game = ros.load_game("hawaii", players=2)
    state = _play_to_chance_free_turn(game, 1)
    blob = pickle.dumps(state._s)
    assert len(blob) < 20_000 and b"compiled" not in blob
    assert pickle.loads(blob).values == state._s.values


def test_a_rulespec_state_starts_an_openspiel_state():
    model = rulespec.load("tic_tac_toe")
    s = model.apply(model.initial_state(), model.action_from_str(model.initial_state(),
                                                                 "mark(1,1)"))
    game = ros.load_game("tic_tac_toe")
    state = game.new_initial_state(s.to_json())
    assert state.current_player() == 1 and 4 not in state.legal_actions()


def test_mcts_bot_plays_hawaii_to_the_end():
    """OpenSpiel's MCTSBot, with a small counted budget, plays a whole 2-player game."""
    import numpy as np
    from open_spiel.python.algorithms import mcts
    game = ros.load_game("hawaii", players=2)
    rng = random.Random(0)
    bot = mcts.MCTSBot(game, 2.0, 2, ros._classes().evaluator(3, rng), solve=True,
                       random_state=np.random.RandomState(0))
    state = game.new_initial_state()
    moves = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(rng.choices([a for a, _ in outcomes],
                                           [p for _, p in outcomes])[0])
        else:
            state.apply_action(bot.step(state))
            moves += 1
    assert moves > 50
    assert sum(state.returns()) == pytest.approx(0.0) and max(state.returns()) > 0
    assert game.model.is_terminal(ros.game_state(state))


def test_openspiels_random_rollout_mcts_plays_tic_tac_toe_well():
    """With OpenSpiel's own evaluator and 200 simulations, MCTS never loses to random play."""
    import numpy as np
    from open_spiel.python.algorithms import mcts
    game = ros.load_game("tic_tac_toe")
    rs = np.random.RandomState(3)
    bot = mcts.MCTSBot(game, 2.0, 200, mcts.RandomRolloutEvaluator(1, rs), random_state=rs)
    rng = random.Random(3)
    for _ in range(5):
        state = game.new_initial_state()
        while not state.is_terminal():
            move = (bot.step(state) if state.current_player() == 0
                    else rng.choice(state.legal_actions()))
            state.apply_action(move)
        assert state.returns()[0] >= 0


def test_without_openspiel_the_error_says_how_to_install_it():
    code = ("import sys; sys.modules['pyspiel'] = None\n"
            "import rulespec.openspiel as o\n"
            "try:\n    o.load_game('tic_tac_toe')\n"
            "except o.OpenSpielMissing as e:\n    print(e)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert "pip install open-spiel" in out


def test_bad_arguments_are_clear_errors():
    with pytest.raises(ValueError, match="2-5 players, not 7"):
        ros.load_game("hawaii", players=7)
    with pytest.raises(ValueError, match="no interpretation point"):
        ros.load_game("hawaii", interpretation={"nope": "x"})
    with pytest.raises(ValueError, match="unknown game"):
        ros.load_game("no_such_game")
