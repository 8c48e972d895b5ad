"""English draughts: the spec written from the published rules (models/checkers), played in
lockstep with OpenSpiel's ``checkers`` under the reading OpenSpiel takes
(``draw_rule=forty_actions``), and its one interpretation point told apart.

OpenSpiel's action id ranks (row, column, direction, move type) in a mixed base (8, 8, 4,
2); its text here is the spec's ``move a3 up_right`` / ``jump c5 down_left``. Its board
(``ToString``: rank 8 first) is read as the spec's ``board`` cells.
"""

from __future__ import annotations

from typing import Any, Callable

import pytest

import rulespec
from rulespec.check.conform import RANDOM, PyspielImplementation, conform
from rulespec.check.results import PASSED, VIOLATED
from rulespec.runtime.registry import spec_path

pyspiel = pytest.importorskip("pyspiel")

OPENSPIEL = {"draw_rule": "forty_actions", "jump_on": "must"}
DIRECTIONS = ["up_left", "up_right", "down_right", "down_left"]
PIECES = {".": "empty", "o": "first_man", "+": "second_man", "8": "first_king",
          "*": "second_king"}
FILES = "abcdefgh"


def spiel_text(state: Any, player: int, action: int) -> str:
    action, kind = divmod(action, 2)
    action, direction = divmod(action, 4)
    row, col = divmod(action, 8)
    return f"{'jump' if kind else 'move'} {FILES[col]}{8 - row} {DIRECTIONS[direction]}"


def spiel_board(state: Any) -> dict:
    rows = str(state).splitlines()[:8]
    return {f"board[{8 * r + c}]": PIECES[ch] for r, line in enumerate(rows)
            for c, ch in enumerate(line[1:])}


def spiel_game() -> Callable[[int], PyspielImplementation]:
    game = pyspiel.load_game("checkers")
    return lambda players: PyspielImplementation(game.new_initial_state(), text=spiel_text,
                                                 snapshot_of=spiel_board)


@pytest.fixture(params=["python", "c"])
def backend(request):
    return request.param


def test_checkers_conforms_to_openspiel_step_by_step(backend):
    model = rulespec.load("checkers", interpretation=OPENSPIEL, backend=backend)
    report = conform(model, spiel_game(), name="open_spiel checkers", examples=60)
    assert report.status == PASSED, report.detail
    assert report.steps > 1000


def test_whole_random_games_of_checkers_match_openspiel(backend):
    """Whole games: multi-jumps, crowning, the 40-move draw and a blocked player's loss."""
    model = rulespec.load("checkers", interpretation=OPENSPIEL, backend=backend)
    report = conform(model, spiel_game(), examples=30, mode=RANDOM)
    assert report.status == PASSED, report.detail


def test_a_planted_bug_in_checkers_is_caught(tmp_path):
    """A crowning that lets the jump go on (not the rule: the move terminates) is seen."""
    text = spec_path("checkers").read_text(encoding="utf-8")
    old = 'on = rule.let(all_of(not_(crowned), can_jump_from(r2, f2, piece)), name="jumps_on")'
    assert old in text
    (tmp_path / "spec.py").write_text(text.replace(
        old, 'on = rule.let(can_jump_from(r2, f2, if_(crowned, own_king(), piece)), '
             'name="jumps_on")'))
    model = rulespec.load(tmp_path / "spec.py", interpretation=OPENSPIEL)
    report = conform(model, spiel_game(), examples=200, mode=RANDOM)
    assert report.status == VIOLATED, report.detail


def test_the_published_draw_rule_is_not_openspiels():
    """Under the published rule a man's move restarts the count; OpenSpiel counts on."""
    published = rulespec.load("checkers")
    spiel = rulespec.load("checkers", interpretation=OPENSPIEL)
    for model, after in ((published, 0), (spiel, 1)):
        s = model.initial_state()
        s = model.apply(s, model.action_from_str(s, "move c3 up_right"))
        assert s["quiet"] == after


# --- the interpretation point -----------------------------------------------------------
SPEC = rulespec.load_spec("checkers")
SCENARIOS = spec_path("checkers").parent / "scenarios"
#: where each other option parts from the default: from setup, or a scenario's situation
STARTS = {("draw_rule", "forty_actions"): None,
          ("jump_on", "may"): "reading_jump_on.toml#must: the piece that can jump on has to"}


def test_the_readings_are_sourced_points():
    from readings_checks import assert_points_are_sourced, other_options
    assert sorted(other_options(SPEC)) == sorted(STARTS)
    assert_points_are_sourced(SPEC)


@pytest.mark.parametrize("point, option", sorted(STARTS))
def test_scenarios_pin_each_reading_apart(point, option):
    from readings_checks import assert_pinned_apart
    assert_pinned_apart(SPEC, SCENARIOS / f"reading_{point}.toml", point, option)


@pytest.mark.parametrize("point, option", sorted(STARTS))
def test_diff_finds_each_reading_within_three_actions(point, option, tmp_path):
    from readings_checks import assert_diff_within_three
    start = STARTS[(point, option)]
    assert_diff_within_three("checkers", SPEC, point, option,
                             None if start is None else SCENARIOS / start, tmp_path)
