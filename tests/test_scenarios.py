"""Scenario files: the bundled ones pass, broken ones fail in one line, false ones are VIOLATED."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from rulespec.check.scenario import (PASSED, VIOLATED, ScenarioFileError, load_scenario_file,
                                     run_scenario_file)
from rulespec.runtime.registry import models_dir

BUNDLED = sorted(models_dir().glob("*/scenarios/*.toml"))


def _write(tmp_path: Path, text: str, name: str = "case.toml") -> Path:
    path = tmp_path / name
    path.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
    return path


# --- (a) every bundled scenario passes -------------------------------------------------------
def test_tic_tac_toe_has_scenario_files():
    assert any(p.parent.parent.name == "tic_tac_toe" for p in BUNDLED)


# Each bundled scenario runs as its own test item: pyproject's testpaths hold models/, where
# the rulespec pytest plugin collects them (tests/test_pytest_plugin.py checks it does).
@pytest.mark.parametrize("path", BUNDLED,
                         ids=[str(p.relative_to(models_dir())) for p in BUNDLED])
def test_bundled_scenario_files_load_and_cite_a_source(path):
    scenarios = load_scenario_file(path).scenarios
    assert scenarios, f"{path} has no scenarios"
    for sc in scenarios:
        assert sc.source.strip(), sc.name


def test_the_tic_tac_toe_rules_file_covers_the_basic_rules():
    sf = load_scenario_file(models_dir() / "tic_tac_toe" / "scenarios" / "rules.toml")
    then = [s.then for s in sf.scenarios]
    assert any(t.refused and "the cell is empty" in t.refused_because for t in then)
    assert any(t.refused and "the game is over" in t.refused_because for t in then)
    assert any(t.winners == (0, 1) for t in then)          # a draw
    assert any(s.given.edits for s in sf.scenarios)         # state edits


# --- (b) broken files: ScenarioFileError, one line naming the file and the line --------------
GOOD = """
game = "tic_tac_toe"

[[scenario]]
name = "first"
source = "a rule"
[scenario.then]
terminal = false

[[scenario]]
name = "second"
source = "a rule"
[scenario.given]
actions = ["mark(0,0)",
           "mark(1,1)"]
[scenario.when]
actions = ["mark(0,1)"]
[scenario.then]
fields = { "board[0][1]" = "x" }
legal = ["mark(2,2)"]
"""


def test_the_good_file_loads_and_passes(tmp_path):
    results = run_scenario_file(_write(tmp_path, GOOD))
    assert [(r.name, r.status) for r in results] == [("first", PASSED), ("second", PASSED)]
    assert results[1].played == ("mark(0,0)", "mark(1,1)", "mark(0,1)")
    assert results[1].line == 9


BROKEN = [
    # (id, old text, new text, line, words the message must contain)
    ("toml syntax", "terminal = false", "terminal = = false", 7, ["not valid TOML"]),
    ("unknown top key", 'game = "tic_tac_toe"', 'game = "tic_tac_toe"\ngaem = 1', 2,
     ["unknown key 'gaem'"]),
    ("unknown then key", 'legal = ["mark(2,2)"]', 'legall = ["mark(2,2)"]', 19,
     ["scenario 'second'", "unknown key 'legall'"]),
    ("unknown scenario key", 'name = "second"', 'name = "second"\nwhen_ = 1', 11,
     ["unknown key 'when_'"]),
    ("unknown action text", '"mark(1,1)"]', '"mark(9,9)"]', 14,
     ["scenario 'second'", "mark(9,9)"]),
    ("unknown action name", 'legal = ["mark(2,2)"]', 'legal = ["move(2,2)"]', 19,
     ["then.legal", "move(2,2)"]),
    ("unknown field", '"board[0][1]"', '"bord[0][1]"', 18, ["no field 'bord'"]),
    ("index out of range", '"board[0][1]"', '"board[0][3]"', 18, ["index 3"]),
    ("bad enum value", '"board[0][1]" = "x"', '"board[0][1]" = "q"', 18,
     ["'q' is not a Mark"]),
    ("wrong value type", '"board[0][1]" = "x"', '"winner" = "x"', 18, ["winner", "not an int"]),
    ("value out of bounds", '"board[0][1]" = "x"', '"winner" = 7', 18, ["winner", "-1..1"]),
    ("wrong key type", "terminal = false", 'terminal = "no"', 7,
     ["scenario 'first'", "'then.terminal' must be true or false"]),
    ("actions not strings", 'actions = ["mark(0,1)"]', "actions = [1]", 16,
     ["'when.actions' must be an array of strings"]),
    ("unknown game", '"tic_tac_toe"', '"tic_tac_tow"', 1, ["unknown game 'tic_tac_tow'"]),
    ("bad interpretation", 'name = "second"', 'name = "second"\ninterpretation = { x = "y" }',
     11, ["no interpretation point 'x'"]),
    ("bad players", 'name = "second"', 'name = "second"\nplayers = 3', 11, ["not 3"]),
    ("missing source", 'name = "second"\nsource = "a rule"', 'name = "second"', 9,
     ["scenario 'second'", "needs a 'source'"]),
    ("duplicate name", 'name = "second"', 'name = "first"', 10, ["already used"]),
    ("refused is not the last when-action", 'legal = ["mark(2,2)"]', 'refused = "mark(2,2)"',
     19, ["last of 'when.actions'"]),
    ("scores of the wrong length", 'legal = ["mark(2,2)"]', "scores = [1]", 19,
     ["one score per player"]),
    ("bad edit value", "[scenario.when]", '[scenario.given.edits]\n"board[0][2]" = "z"\n'
     "[scenario.when]", 16, ["given.edits", "'z' is not a Mark"]),
]


@pytest.mark.parametrize("old,new,line,words", [b[1:] for b in BROKEN],
                         ids=[b[0] for b in BROKEN])
def test_a_broken_file_raises_one_clear_line(tmp_path, old, new, line, words):
    assert old in GOOD
    path = _write(tmp_path, GOOD.replace(old, new, 1))
    with pytest.raises(ScenarioFileError) as err:
        run_scenario_file(path)
    message = str(err.value)
    assert "\n" not in message
    assert message.startswith(f"{path}:{line}: "), message
    for w in words:
        assert w in message, message
    assert err.value.line == line


def test_a_missing_file_is_a_scenario_file_error(tmp_path):
    with pytest.raises(ScenarioFileError) as err:
        load_scenario_file(tmp_path / "nope.toml")
    assert str(err.value) == f"{tmp_path / 'nope.toml'}: no such file"


def test_without_a_known_line_the_message_names_the_scenario():
    err = ScenarioFileError("f.toml", "something\nis wrong", scenario="x wins")
    assert str(err) == "f.toml: scenario 'x wins': something is wrong"


def test_a_file_without_scenarios_is_an_error(tmp_path):
    with pytest.raises(ScenarioFileError, match="no scenarios"):
        load_scenario_file(_write(tmp_path, 'game = "tic_tac_toe"\n'))


# --- (c) false expectations are VIOLATED, with expected and actual ---------------------------
def _run_one(tmp_path, then: str, when: str = '["mark(0,0)", "mark(1,1)"]',
             given: str = "") -> list[str]:
    text = f"""
    game = "tic_tac_toe"
    [[scenario]]
    name = "false"
    source = "a rule"
    {given}
    [scenario.when]
    actions = {when}
    [scenario.then]
    {then}
    """
    (result,) = run_scenario_file(_write(tmp_path, text))
    assert result.status == VIOLATED
    assert result.failures
    return list(result.failures)


def test_a_wrong_field_value_shows_expected_and_actual(tmp_path):
    (msg,) = _run_one(tmp_path, 'fields = { "board[1][1]" = "x" }')
    assert msg == "field board[1][1]: expected 'x', got 'o'"


def test_a_wrong_array_shows_the_first_difference(tmp_path):
    (msg,) = _run_one(tmp_path, 'fields = { "board[0]" = ["x", "x", "empty"] }')
    assert "expected ['x', 'x', 'empty'], got ['x', 'empty', 'empty']" in msg
    assert "board[0][1]: expected 'x', got 'empty'" in msg


def test_wrong_winners_scores_and_terminal(tmp_path):
    msgs = _run_one(tmp_path, "winners = [0]\nscores = [1, -1]\nterminal = true")
    assert "winners: expected [0], but the game is not over (scores [0, 0])" in msgs
    assert "scores: expected [1, -1], got [0, 0]" in msgs
    assert "expected the game to be over, but it is not" in msgs


def test_an_expected_legal_action_that_is_refused_says_why(tmp_path):
    (msg,) = _run_one(tmp_path, 'legal = ["mark(1,1)"]')
    assert msg.startswith("expected 'mark(1,1)' to be legal, but it is refused: requires: "
                          "the cell is empty — but board[1][1] is o")


def test_an_expected_illegal_action_that_is_legal(tmp_path):
    (msg,) = _run_one(tmp_path, 'illegal = ["mark(2,2)"]')
    assert msg == "expected 'mark(2,2)' to be refused, but it is legal"


def test_a_refusal_expected_for_a_legal_action(tmp_path):
    (msg,) = _run_one(tmp_path, 'refused = "mark(2,2)"', when='["mark(0,0)", "mark(2,2)"]')
    assert msg == "expected 'mark(2,2)' to be refused, but it is legal"


def test_a_refusal_for_another_reason(tmp_path):
    (msg,) = _run_one(tmp_path, 'refused = "mark(0,0)"\nrefused_because = "it is not your turn"',
                      when='["mark(0,0)", "mark(0,0)"]')
    assert msg == ("expected 'mark(0,0)' to be refused because 'it is not your turn', "
                   "but it is refused because: 'the cell is empty'")


def test_a_refused_when_action_stops_the_scenario(tmp_path):
    (msg,) = _run_one(tmp_path, "terminal = false", when='["mark(0,0)", "mark(0,0)"]')
    assert msg.startswith("when: action 2 of 2, 'mark(0,0)', was refused: requires: "
                          "the cell is empty — but board[0][0] is x")


def test_a_refused_given_action_is_violated(tmp_path):
    given = '[scenario.given]\nactions = ["mark(2,2)", "mark(2,2)"]'
    (msg,) = _run_one(tmp_path, "terminal = false", given=given)
    assert msg.startswith("given: action 2 of 2, 'mark(2,2)', was refused")


def test_only_legal_lists_what_is_missing_and_extra(tmp_path):
    (msg,) = _run_one(tmp_path, 'only_legal = ["mark(0,0)", "mark(2,2)"]')
    assert "not legal: ['mark(0,0)']" in msg
    assert "also legal: ['mark(0,1)'" in msg


def test_a_wrong_current_player(tmp_path):
    (msg,) = _run_one(tmp_path, "current_player = 1")
    assert msg == "current player: expected 1, got 0"


def test_a_refused_action_leaves_the_state_unchanged_for_the_checks(tmp_path):
    text = """
    game = "tic_tac_toe"
    [[scenario]]
    name = "occupied"
    source = "a rule"
    [scenario.when]
    actions = ["mark(0,0)", "mark(0,0)"]
    [scenario.then]
    refused = "mark(0,0)"
    refused_because = ["the cell is empty"]
    fields = { "moves" = 1, "to_move" = 1 }
    """
    (result,) = run_scenario_file(_write(tmp_path, text))
    assert result.status == PASSED, result.failures
    assert result.played == ("mark(0,0)",)


def test_edits_go_through_the_state_json(tmp_path):
    text = """
    game = "tic_tac_toe"
    [[scenario]]
    name = "edited"
    source = "a rule"
    [scenario.given]
    actions = ["mark(0,0)"]
    edits = { "board[0][0]" = "empty", "board[2]" = ["o", "o", "empty"], "to_move" = 1 }
    [scenario.when]
    actions = ["mark(2,2)"]
    [scenario.then]
    fields = { "winner" = 1, "board[0][0]" = "empty" }
    winners = [1]
    """
    (result,) = run_scenario_file(_write(tmp_path, text))
    assert result.status == PASSED, result.failures
    assert result.edited
    assert result.state["fields"]["board"][2] == ["o", "o", "o"]
    assert result.start["fields"]["board"][2] == ["o", "o", "empty"]
    assert result.when_played == ("mark(2,2)",)
    assert result.to_dict()["status"] == PASSED
    assert result.to_trace() is None      # an edited state cannot be replayed from setup


def test_a_violated_scenario_gives_a_replayable_trace(tmp_path):
    text = """
    game = "tic_tac_toe"
    [[scenario]]
    name = "wrong"
    source = "a rule"
    [scenario.when]
    actions = ["mark(0,0)", "mark(1,1)"]
    [scenario.then]
    winners = [0]
    """
    (result,) = run_scenario_file(_write(tmp_path, text))
    trace = result.to_trace()
    assert trace.game == "tic_tac_toe" and trace.players == 2 and trace.spec_path is None
    assert trace.actions == ("mark(0,0)", "mark(1,1)")
    assert trace.property == "scenario 'wrong'"
    assert "winners: expected [0]" in trace.message


# --- a game from a path, chance outcomes, interpretations, per-player fields ------------------
DICE = '''
"""A tiny test game: a weighted chance roll, an interpretation point, a per-player field."""
from rulespec.spec import PLAYERS, Game, if_

S = "dice test rules"
game = Game("dice", title="Dice", players=(2, 3), source=S, summary="Roll once each.")
Face = game.enum("Face", {"none": "not rolled", "low": "low", "high": "high"}, source=S)
rolled = game.field("rolled", Face, initial=Face.none, flow=True, source=S)
points = game.field("points", range(0, 3), shape=(PLAYERS,), source=S)
turn = game.field("turn", range(0, 4), flow=True, source=S)
bonus = game.interpretation("bonus", question="does a high roll score 2?",
                            options={"one": S, "two": S}, default="one", source=S)


@game.chance(params={"face": Face}, text="roll({face})", source=S)
def roll(rule, face):
    rule.require(face != Face.none, "a die shows a face")
    rule.set_weight(if_(face == Face.low, 2, 1))
    rule.set(rolled, face)


@game.action(text="score", source=S)
def score(rule):
    rule.require(rolled != Face.none, "the die was rolled", source=S)
    rule.set(points[turn], if_(rolled == Face.high, if_(bonus.is_("two"), 2, 1), 0))
    rule.set(rolled, Face.none)
    rule.set(turn, turn + 1)


game.chance_node(rolled == Face.none, source=S)
game.current_player(turn, source=S)
game.terminal(turn == game.num_players, source=S)
game.max_steps(6, source=S)
game.score(lambda p: points[p], source=S)
game.shared_ties(source=S)
SPEC = game.build()
'''


@pytest.fixture
def dice_dir(tmp_path):
    (tmp_path / "dice").mkdir()
    (tmp_path / "dice" / "spec.py").write_text(DICE, encoding="utf-8")
    return tmp_path


def test_a_spec_path_chance_outcomes_and_interpretations(dice_dir):
    text = """
    game = "dice"                 # a folder next to this file
    [[scenario]]
    name = "the roll is weighted two to one"
    source = "dice test rules"
    [scenario.then]
    current_player = "chance"
    outcomes = { "roll(low)" = "2/3", "roll(high)" = 0.3333333333 }
    illegal_because = { "score" = "this is a chance node: only a random outcome can happen now" }

    [[scenario]]
    name = "a high roll scores 2 under the 'two' reading"
    source = "dice test rules"
    players = 3
    interpretation = { bonus = "two" }
    [scenario.when]
    actions = ["roll(high)", "score", "roll(low)", "score"]
    [scenario.then]
    fields = { "points[0]" = 2, "points" = [2, 0, 0], "turn" = 2 }
    current_player = "chance"
    only_legal = ["roll(low)", "roll(high)"]

    [[scenario]]
    name = "a high roll scores 1 by default"
    source = "dice test rules"
    [scenario.when]
    actions = ["roll(high)", "score", "roll(high)", "score"]
    [scenario.then]
    scores = [1, 1, 0]
    winners = [0, 1]
    terminal = true
    """
    path = _write(dice_dir, text)
    dice = [dice_dir / "dice"]   # the spec the user names (a scenario alone runs no code)
    with pytest.raises(ScenarioFileError, match=r"case.toml:28: .*one score per player \(2\)"):
        run_scenario_file(path, trusted=dice)
    path.write_text(path.read_text().replace("scores = [1, 1, 0]", "scores = [1, 1]"))
    results = run_scenario_file(path, trusted=dice)
    assert [r.status for r in results] == [PASSED] * 3, [r.failures for r in results]
    assert results[1].interpretation == {"bonus": "two"}
    assert results[1].spec_path == str((dice_dir / "dice" / "spec.py").resolve())
    assert results[1].spec_sha256 and len(results[1].spec_sha256) == 64
    assert results[1].players == 3


def test_wrong_chance_outcomes_are_violated(dice_dir):
    text = """
    game = "dice/spec.py"
    [[scenario]]
    name = "wrong odds"
    source = "dice test rules"
    [scenario.then]
    outcomes = { "roll(low)" = 0.5, "roll(none)" = 0 }
    """
    (result,) = run_scenario_file(_write(dice_dir, text), trusted=[dice_dir / "dice"])
    assert result.status == VIOLATED
    (msg,) = result.failures
    assert "'roll(low)' has probability 2/3, not 1/2" in msg
    assert "'roll(none)' is not a possible outcome" in msg
    assert "also possible: ['roll(high)']" in msg


def test_a_bad_probability_is_a_file_error(dice_dir):
    text = """
    game = "dice"
    [[scenario]]
    name = "odd odds"
    source = "dice test rules"
    [scenario.then]
    outcomes = { "roll(low)" = "two thirds" }
    """
    with pytest.raises(ScenarioFileError, match=r"case.toml:6: .*needs a probability"):
        load_scenario_file(_write(dice_dir, text), trusted=[dice_dir / "dice" / "spec.py"])


def test_the_bundled_scenarios_catch_a_broken_rule(tmp_path):
    """Drop the anti-diagonal from a copy of the spec: exactly that scenario fails."""
    spec = (models_dir() / "tic_tac_toe" / "spec.py").read_text(encoding="utf-8")
    line = "        all_of(r + c == 2, *(board[k, 2 - k] == mark for k in range(3))),\n"
    assert line in spec
    (tmp_path / "ttt").mkdir()
    (tmp_path / "ttt" / "spec.py").write_text(spec.replace(line, ""), encoding="utf-8")
    rules = (models_dir() / "tic_tac_toe" / "scenarios" / "rules.toml").read_text("utf-8")
    assert 'game = "tic_tac_toe"' in rules
    path = _write(tmp_path, rules.replace('game = "tic_tac_toe"', 'game = "ttt"'))
    violated = {r.name: r.failures for r in run_scenario_file(path, trusted=[tmp_path / "ttt"])
                if r.status == VIOLATED}
    assert list(violated) == ["three x on the anti-diagonal win"]
    assert "winners: expected [0], but the game is not over (scores [0, 0])" in violated[
        "three x on the anti-diagonal win"]
