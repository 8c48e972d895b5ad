"""The state document (``State.to_json()``) read through the formats layer (issue 26): its
shape by a declared schema (rulespec/formats/state.py), each field's value by the model,
every problem one ``StateError`` line naming where and, for a JSON text, the line."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rulespec
from rulespec.formats.state import StateError
from rulespec.runtime.registry import available_games


@pytest.fixture(scope="module")
def game():
    return rulespec.load("tic_tac_toe")


@pytest.mark.parametrize("name", available_games())
def test_every_bundled_games_states_read_back_from_text_and_from_a_value(name):
    model = rulespec.load(name)
    state = model.initial_state(model.min_players)
    assert model.state_from_json(state.to_json()) == state
    assert model.state_from_json(state.to_dict()) == state


def _pretty(game) -> str:
    return json.dumps(game.initial_state().to_dict(), indent=1)


@pytest.mark.parametrize("change, says", [
    (('"board": [', '"boards": ['), "state.json:4: state is missing field 'board'"),
    (('"empty"', '"q"'), "state.json:6: field 'board': 'q' is not a Mark (empty, x, o)"),
    (('"moves": 0', '"moves": 99'), "state.json:24: field 'moves': 99 is not an int in"),
    (('"moves": 0', '"moves": "0"'), "state.json:24: field 'moves': '0' is not an int in"),
    (('"winner": -1', '"winner": -1, "colour": 1'), "state.json:25: unknown field(s) ['colour']"),
    (('"game": "tic_tac_toe"', '"game": "hex"'), "state.json:2: not a tic_tac_toe state"),
    (('"game": "tic_tac_toe"', '"game": 3'), "state.json:2: 'game' must be a game's name"),
    (('"interpretation": {}', '"interpretation": []'), "state.json:3: 'interpretation' must be"),
    (('"fields": {', '"fieldz": {'), "state.json:4: unknown key 'fieldz' in a state"),
    (('{\n "game"', '[\n "game"'), "state.json:2: not valid JSON"),
])
def test_a_bad_state_is_one_line_naming_where_and_the_line(game, change, says):
    text = _pretty(game)
    assert change[0] in text
    with pytest.raises(StateError) as err:
        game.state_from_json(text.replace(*change, 1), where="state.json")
    assert str(err.value).startswith(says), str(err.value)
    assert "\n" not in str(err.value)


def test_a_state_value_is_checked_the_same_way_without_a_line(game):
    data = game.initial_state().to_dict()
    data["fields"]["moves"] = True
    with pytest.raises(StateError, match=r"^state: field 'moves': True is not an int in"):
        game.state_from_json(data)
    with pytest.raises(StateError, match=r"^state: a state must be a JSON object, not a list"):
        game.state_from_json([data])       # type: ignore[arg-type]
    with pytest.raises(ValueError, match="a state needs a 'fields' object"):  # a ValueError:
        game.state_from_json({"game": "tic_tac_toe"})                      # callers keep working


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 3) | st.sampled_from(
        ["empty", "x", "o", "tic_tac_toe", "", "q"]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
        st.sampled_from(["game", "fields", "interpretation", "board", "moves", "to_move",
                         "winner", "num_players", "x"]), inner, max_size=4),
    max_leaves=14)


def _mutated(game):
    """A valid state with one key of it (top level or a field) replaced or dropped."""
    base = game.initial_state().to_dict()

    def mutate(where: str, key: str, value, drop: bool):
        data = json.loads(json.dumps(base))
        table = data if where == "top" else data["fields"]
        if drop:
            table.pop(key, None)
        else:
            table[key] = value
        return data
    keys = st.sampled_from(["game", "fields", "interpretation", "board", "moves", "to_move",
                            "winner", "num_players", "extra"])
    return st.builds(mutate, st.sampled_from(["top", "fields"]), keys, json_values,
                     st.booleans())


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_fuzz_state_from_json_gives_a_state_or_one_state_error(game, data):
    value = data.draw(st.one_of(json_values, _mutated(game)))
    as_text = data.draw(st.booleans())
    try:
        state = game.state_from_json(json.dumps(value) if as_text else value, where="fuzz")
    except StateError as err:
        assert "\n" not in str(err) and str(err).startswith("fuzz")
    else:
        assert state.model is game and game.state_from_json(state.to_json()) == state
