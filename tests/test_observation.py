"""Observations: who sees which cells, and the property that legal actions follow them.

The planted leak (tests/fixtures/observation_leak) offers "call" only when the opponent's
face-down card is low; the checker must find two states that look the same to the mover
but offer different actions. The same spec without the leak passes, and a spec may waive
the property with a reason.
"""

from __future__ import annotations

import pytest

import rulespec
from rulespec.check.results import PASSED, SKIPPED, VIOLATED
from rulespec.check.runner import RANDOM, check_game
from rulespec.runtime.registry import spec_path
from rulespec.spec import PLAYERS, Game

LEAK = "tests/fixtures/observation_leak"
PROPERTY = "legal_actions_follow_observation"
LEAK_LINE = '''    rule.require(hand[1] == Card.low, "the opponent holds the low card",  # the planted leak
                 source=f"{RULES}: (bug) reads the opponent's face-down card")
'''


def _variant(tmp_path, old: str, new: str):
    text = spec_path(LEAK).read_text()
    assert old in text
    (tmp_path / "spec.py").write_text(text.replace(old, new))
    return rulespec.load(tmp_path / "spec.py")


def _dealt(game, *cards):
    state = game.initial_state()
    for c in cards:
        state = game.apply(state, game.action_from_str(state, f"deal {c}"))
    return state


def test_an_owner_field_is_hidden_from_the_other_players():
    game = rulespec.load(LEAK)
    state = _dealt(game, "low", "high")
    assert game.observation(state, 0)["hand"] == ["low", None]
    assert game.observation(state, 1)["hand"] == [None, "high"]
    assert game.observation(state, 0)["dealt"] == 2  # visible to all
    assert game.observation_key(_dealt(game, "low", "low"), 0) == \
        game.observation_key(state, 0)
    with pytest.raises(ValueError):
        game.observation(state, 2)


@pytest.mark.parametrize("mode", ["hypothesis", RANDOM])
def test_the_planted_leak_is_caught_with_a_short_trace(tmp_path, mode):
    game = rulespec.load(LEAK)
    (r,) = check_game(game, property_names=[PROPERTY], examples=100, mode=mode,
                      trace_dir=tmp_path)
    assert r.status == VIOLATED
    assert "player 0 sees the same" in r.detail and "hand[1]" in r.detail
    assert "call" in r.detail
    assert len(r.trace) == 2  # the two deals: the first state where player 0 decides
    if mode == "hypothesis":
        assert r.trace[0] == "deal low"  # shrunk towards the first outcome


def test_without_the_leak_the_property_passes(tmp_path):
    game = _variant(tmp_path, LEAK_LINE, "")
    results = {r.property: r for r in check_game(game, examples=100, trace_dir=tmp_path)}
    assert results[PROPERTY].status == PASSED
    assert VIOLATED not in {r.status for r in results.values()}


def test_a_spec_may_waive_the_property_with_a_reason(tmp_path):
    game = _variant(tmp_path, "SPEC = game.build()",
                    'game.waive("legal_actions_follow_observation", reason="the dealer '
                    'peeks, by the rules")\nSPEC = game.build()')
    (r,) = check_game(game, property_names=[PROPERTY], examples=20, trace_dir=tmp_path)
    assert r.status == SKIPPED and "the dealer peeks" in r.detail


def test_waiving_an_unknown_property_is_refused(tmp_path):
    game = _variant(tmp_path, "SPEC = game.build()",
                    'game.waive("no_such_property", reason="r")\nSPEC = game.build()')
    with pytest.raises(ValueError, match="waives unknown property 'no_such_property'"):
        check_game(game, examples=5, trace_dir=tmp_path)


def test_a_perfect_information_game_skips_the_property(tmp_path):
    (r,) = check_game(rulespec.load("tic_tac_toe"), property_names=[PROPERTY], examples=5,
                      trace_dir=tmp_path)
    assert r.status == SKIPPED and "perfect information" in r.detail


def test_part_of_a_field_can_be_visible():
    src = "fixture"
    game = Game("row", title="row", players=2, source=src)
    up = game.field("up", bool, shape=(3,), initial=[True, False, True], source=src)
    row = game.field("row", range(0, 9), shape=(3,), initial=[4, 5, 6], source=src,
                     visible=lambda who, slot: up[slot])
    secret = game.field("secret", range(0, 9), shape=(PLAYERS, 2), initial=1, source=src,
                        visible="owner")
    deck = game.field("deck", range(0, 9), initial=3, source=src, visible="nobody")
    seen = game.field("seen", bool, shape=(PLAYERS,), source=src,
                      visible=lambda who, p: who == p)

    @game.action(source=src)
    def turn(rule):
        rule.set(up[1], True)
    game.current_player(0, source=src)
    game.terminal(up[1], source=src)
    game.max_steps(1, source=src)
    game.score(lambda p: 0, source=src)
    model = rulespec.Model(game.build())
    s = model.initial_state(2)
    assert [row, secret, deck, seen]  # declared above; read through the observation
    obs = model.observation(s, 1)
    assert obs["row"] == [4, None, 6]
    assert obs["secret"] == [[None, None], [1, 1]]
    assert obs["deck"] is None and obs["seen"] == [None, False]
    after = model.apply(s, model.legal_actions(s)[0])
    assert model.observation(after, 0)["row"] == [4, 5, 6]
