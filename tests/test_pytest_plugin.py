"""The pytest plugin: scenario files and game properties are test items, failures read in
rule terms, Hypothesis profiles apply, and the project's own run collects models/ with it."""

from __future__ import annotations

import shutil
import textwrap
from pathlib import Path

import pytest
from hypothesis import settings

from rulespec.runtime.registry import models_dir

BUGGY = Path(__file__).parent / "fixtures" / "occupied_cell_tic_tac_toe"

SCENARIOS = """
game = ".."

[[scenario]]
name = "the first mark is allowed"
source = "tic-tac-toe: any empty cell"
[scenario.then]
legal = ["cell 0"]

[[scenario]]
name = "marking an occupied cell is refused"
source = "tic-tac-toe: a mark goes in an empty cell"
[scenario.when]
actions = ["cell 0", "cell 0"]
[scenario.then]
refused = "cell 0"
"""


@pytest.fixture
def buggy_game(pytester: pytest.Pytester) -> Path:
    """The planted-bug tic-tac-toe as a game folder with one passing and one failing
    scenario."""
    folder = pytester.path / "bug"
    shutil.copytree(BUGGY, folder)
    (folder / "scenarios").mkdir()
    (folder / "scenarios" / "rules.toml").write_text(textwrap.dedent(SCENARIOS).lstrip())
    return folder


@pytest.fixture(autouse=True)
def keep_profile():
    """An in-process run may load another Hypothesis profile: the suite's comes back."""
    name = settings.get_current_profile_name()
    yield
    settings.load_profile(name)


def test_scenarios_are_items_named_after_them(pytester, buggy_game):
    result = pytester.runpytest_inprocess("--collect-only", "-q", "-m", "rulespec_scenario")
    result.stdout.fnmatch_lines([
        "bug/scenarios/rules.toml::the first mark is allowed",
        "bug/scenarios/rules.toml::marking an occupied cell is refused"])


def test_a_failing_scenario_is_told_in_rule_terms(pytester, buggy_game):
    result = pytester.runpytest_inprocess("-m", "rulespec_scenario")
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines([
        "*scenario 'marking an occupied cell is refused' (*rules.toml:9) VIOLATED",
        "*source: tic-tac-toe: a mark goes in an empty cell",
        "*played: cell 0",
        "*- expected 'cell 0' to be refused, but it is legal"])
    assert "Traceback" not in result.stdout.str()


def test_a_planted_property_bug_fails_with_its_minimal_trace(pytester, buggy_game):
    pytester.makeconftest("""
        from hypothesis import settings
        settings.register_profile("ci_like", max_examples=100, derandomize=True)
        settings.load_profile("ci_like")
    """)
    result = pytester.runpytest_inprocess("-m", "rulespec_property", "-rs")
    outcomes = result.parseoutcomes()
    assert outcomes["failed"] == 1 and outcomes["passed"] >= 9, outcomes
    result.stdout.fnmatch_lines([
        "*occupied_cell_tic_tac_toe: cells_filled_one_per_move VIOLATED (hypothesis, 100 "
        "examples)",
        "*counterexample, 2 step(s) from setup: cell 0; cell 0",
        "*SKIPPED*perfect information*"])


def test_the_hypothesis_profile_caps_the_games(pytester, buggy_game):
    pytester.makeconftest("""
        from hypothesis import settings
        settings.register_profile("tiny", max_examples=3, derandomize=True)
        settings.load_profile("tiny")
    """)
    result = pytester.runpytest_inprocess("-m", "rulespec_property", "-k",
                                          "cells_filled_one_per_move")
    # three derandomized games do not always meet the bug; when they do, it says 3
    text = result.stdout.str()
    assert "(hypothesis, 3 examples)" in text or result.parseoutcomes() == {
        "passed": 1, "deselected": 14}


def test_ini_options_choose_examples_and_scenarios_only(pytester, buggy_game):
    pytester.makeini("[pytest]\nrulespec_examples = 7\n")
    result = pytester.runpytest_inprocess("-m", "rulespec_property", "-k", "cells_filled")
    result.stdout.fnmatch_lines(["*(hypothesis, 7 examples)*"])
    pytester.makeini("[pytest]\nrulespec_properties = false\n")
    result = pytester.runpytest_inprocess("--collect-only", "-q")
    assert "properties" not in result.stdout.str()
    result.stdout.fnmatch_lines(["2 tests collected*"])


def test_a_broken_scenario_file_is_one_collection_error(pytester, buggy_game):
    (buggy_game / "scenarios" / "broken.toml").write_text(
        'game = ".."\n[[scenario]]\nname = "x"\nsource = "y"\n[scenario.then]\nrefused = 1\n')
    result = pytester.runpytest_inprocess("-m", "rulespec_scenario")
    result.stdout.fnmatch_lines(["*broken.toml:6: scenario 'x': 'then.refused' must be a "
                                 "string, got 1"])
    assert "Traceback" not in result.stdout.str()


def test_the_spec_file_is_not_imported_as_a_test_module(pytester, buggy_game):
    result = pytester.runpytest_inprocess("--collect-only", "-q", "--doctest-modules")
    assert "spec.py" not in result.stdout.str()


def test_the_project_collects_every_bundled_scenario_through_the_plugin(request):
    """pyproject's testpaths hold models/: each scenario of each bundled game is an item of
    this very run (tests/test_scenarios.py no longer runs them itself)."""
    ids = {item.nodeid for item in request.session.items}
    if not any("models/" in i for i in ids):
        pytest.skip("this run did not collect models/ (a single test file was chosen)")
    from rulespec.check.scenario import load_scenario_file
    root = models_dir().parent
    for path in sorted(models_dir().glob("*/scenarios/*.toml")):
        rel = path.relative_to(root).as_posix()
        for sc in load_scenario_file(path).scenarios:
            assert f"{rel}::{sc.name}" in ids, (rel, sc.name)
