"""The checker finds planted bugs, shrinks them, and its traces replay."""

import json

import pytest

import rulespec
from rulespec.check.property import all_properties
from rulespec.check.results import PASSED, SKIPPED, VIOLATED
from rulespec.check.runner import HYPOTHESIS, RANDOM, check_game
from rulespec.check.walk import recheck
from rulespec.runtime.trace import load_trace

BUGGY = "tests/fixtures/occupied_cell_tic_tac_toe"


@pytest.mark.parametrize("mode", [HYPOTHESIS, RANDOM])
def test_planted_occupied_cell_bug_is_caught_with_a_short_trace(mode, tmp_path):
    game = rulespec.load(BUGGY)
    results = {r.property: r for r in check_game(game, examples=200, seed=1, mode=mode,
                                                 trace_dir=tmp_path)}
    bad = results["cells_filled_one_per_move"]
    assert bad.status == VIOLATED
    if mode == HYPOTHESIS:
        assert bad.trace == ["cell 0", "cell 0"]  # shrunk: the smallest cell, twice
    assert len(bad.trace) <= 9
    # every other property still gets its own verdict
    assert results["winners_are_total"].status == PASSED


def test_saved_trace_replays_to_the_same_violation(tmp_path):
    game = rulespec.load(BUGGY)
    (bad,) = [r for r in check_game(game, examples=100, trace_dir=tmp_path)
              if r.status == VIOLATED]
    trace = load_trace(bad.trace_path)
    assert json.loads(open(bad.trace_path).read())["violates"]["property"] == bad.property
    v = recheck(game, trace.players, trace.actions, all_properties(game))
    assert v is not None and v.property == "cells_filled_one_per_move"
    assert len(v.actions) <= 3


def test_correct_tic_tac_toe_passes_every_property(tmp_path):
    game = rulespec.load("tic_tac_toe")
    results = check_game(game, examples=100, trace_dir=tmp_path)
    assert {r.status for r in results} == {PASSED, SKIPPED}
    # every field is visible to both players: the observation property does not apply
    assert [r.property for r in results if r.status == SKIPPED] == [
        "legal_actions_follow_observation"]
    assert {"marks_alternate", "cells_filled_one_per_move",
            "legal_actions_nonempty_unless_terminal"} <= {r.property for r in results}
    assert not list(tmp_path.iterdir())  # no trace written when nothing failed


def test_a_rule_error_is_reported_not_raised(tmp_path):
    game = rulespec.load("tests/fixtures/broken_specs/index_out_of_range.py")
    results = check_game(game, examples=50, trace_dir=tmp_path)
    errors = [r for r in results if r.property == "rules_evaluate_without_error"]
    assert errors and errors[0].status == VIOLATED
    assert "out of range" in errors[0].detail


def test_unknown_property_name_is_refused():
    game = rulespec.load("tic_tac_toe")
    with pytest.raises(ValueError, match="no property 'nope'"):
        check_game(game, property_names=["nope"])


def test_same_seed_same_playouts():
    from rulespec.runtime.play import play_random
    game = rulespec.load("tic_tac_toe")
    a = [str(s.action) for s in play_random(game, 2, seed=7)[1]]
    b = [str(s.action) for s in play_random(game, 2, seed=7)[1]]
    assert a == b
