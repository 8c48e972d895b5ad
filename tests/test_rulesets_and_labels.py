"""Rulesets (named bundles of interpretation options) and labels (names for the positions
of an int dimension): in the spec language, in load(), and in scenario files."""

import textwrap

import pytest

import rulespec
from rulespec import SpecError
from rulespec.check.scenario import ScenarioFileError, load_scenario_file, run_scenario_file

FIXTURE = "tests/fixtures/two_readings"
HEADER = '''
from rulespec.spec import Game
SRC = "fixture"
game = Game("broken", title="Broken", players=1, source=SRC)
pos = game.field("pos", range(0, 3), source=SRC)
size = game.interpretation("size", question="?", options={"one": SRC, "two": SRC},
                           default="one", source=SRC)
'''


def _spec(tmp_path, body):
    path = tmp_path / "spec.py"
    path.write_text(textwrap.dedent(HEADER) + textwrap.dedent(body))
    return path


@pytest.mark.parametrize("body, message", [
    ('game.ruleset("r", options={"nope": "one"}, source=SRC)', "no interpretation point 'nope'"),
    ('game.ruleset("r", options={"size": "three"}, source=SRC)', "no option 'three'"),
    ('game.ruleset("r", options={"size": "two"}, source="")', "missing source"),
    ('game.ruleset("r", options={}, source=SRC)', "needs options"),
    ('game.labels("L", ["a", "a"], source=SRC)', "labels must be distinct"),
    ('game.labels("L", {0: "a[1]"}, source=SRC)', "may not contain"),
])
def test_malformed_rulesets_and_labels_fail_at_load(tmp_path, body, message):
    with pytest.raises(SpecError, match=message) as err:
        rulespec.load_spec(_spec(tmp_path, body))
    assert "spec.py:" in str(err.value)


def test_a_ruleset_sets_its_options_and_leaves_the_rest_open():
    game = rulespec.load("hawaii", ruleset="bga")
    assert game.interpretation["beach_return"] == "forbidden"
    assert game.interpretation["final_tie"] == "shared"        # not in the ruleset: default
    mixed = rulespec.load("hawaii", {"final_tie": "resources"}, ruleset="bga")
    assert mixed.interpretation["final_tie"] == "resources"
    same = rulespec.load("hawaii", {"beach_return": "forbidden"}, ruleset="bga")
    assert same.interpretation == game.interpretation          # repeating is no conflict
    with pytest.raises(ValueError, match="conflicts"):
        rulespec.load("hawaii", {"beach_return": "free"}, ruleset="bga")


def _scenarios(tmp_path, text):
    path = tmp_path / "s.toml"
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def test_a_scenario_file_may_name_a_ruleset(tmp_path):
    path = _scenarios(tmp_path, f'''
        game = "{rulespec.runtime.registry.spec_path(FIXTURE).parent}"
        ruleset = "long_steps"
        [[scenario]]
        name = "long"
        source = "fixture"
        [scenario.when]
        actions = ["step"]
        [scenario.then]
        fields = {{ "pos" = 2 }}
        [[scenario]]
        name = "short, by its own ruleset"
        source = "fixture"
        ruleset = "short_steps"
        [scenario.when]
        actions = ["step"]
        [scenario.then]
        fields = {{ "pos" = 1 }}
    ''')
    results = run_scenario_file(path, trusted=[FIXTURE])
    assert [r.status for r in results] == ["PASSED", "PASSED"]
    assert results[0].interpretation == {"step_size": "two"}


@pytest.mark.parametrize("extra, message", [
    ('ruleset = "nope"', "no ruleset 'nope'"),
    ('ruleset = "long_steps"\ninterpretation = { step_size = "one" }', "conflicts"),
])
def test_a_bad_ruleset_in_a_scenario_is_a_file_error(tmp_path, extra, message):
    path = _scenarios(tmp_path, f'''
        game = "{rulespec.runtime.registry.spec_path(FIXTURE).parent}"
        {extra}
        [[scenario]]
        name = "x"
        source = "fixture"
        [scenario.then]
        terminal = false
    ''')
    with pytest.raises(ScenarioFileError, match=message):
        load_scenario_file(path, trusted=[FIXTURE])


OPENING = load_scenario_file(
    rulespec.runtime.registry.models_dir() / "hawaii" / "scenarios" / "movement.toml"
).scenarios[0].given.actions


def _hawaii(tmp_path, edits, then):
    actions = ", ".join(f'"{a}"' for a in OPENING)
    return _scenarios(tmp_path, f'''
        game = "hawaii"
        players = 2
        [[scenario]]
        name = "named counts"
        source = "fixture"
        [scenario.given]
        actions = [{actions}]
        [scenario.given.edits]
        {edits}
        [scenario.then.fields]
        {then}
    ''')


def test_counted_things_may_be_named_instead_of_written_as_arrays(tmp_path):
    path = _hawaii(tmp_path, '"took[0]" = { "6/plain" = 1, "2/spear" = 2 }\n'
                             '"has[0][0]" = { start_hut = true, laka = true }',
                   '"took[0][6/plain]" = 1\n"took[0][2/plain]" = 0\n'
                   '"took[0]" = [0, 0, 2, 0, 0, 0, 0, 0, 0, 1, 0]\n'
                   '"has[0][0][laka]" = true\n"has[0][0][surfer]" = false')
    assert [r.status for r in run_scenario_file(path)] == ["PASSED"]


@pytest.mark.parametrize("edits, message", [
    ('"took[0]" = { "7/plain" = 1 }', "'7/plain' is not a TokenCode name"),
    ('"vp[0]" = { "a" = 1 }', "needs a dimension with named positions"),
    ('"took[0][9/plain]" = 1', "is not 0..10 or a TokenCode name"),
])
def test_a_wrong_name_is_a_file_error(tmp_path, edits, message):
    path = _hawaii(tmp_path, edits, '"vp[0]" = 0')
    with pytest.raises(ScenarioFileError, match=message):
        load_scenario_file(path)
