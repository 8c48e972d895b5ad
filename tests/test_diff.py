"""rulespec diff: the smallest situation where two readings differ, saved as a scenario."""

import json

import pytest

import rulespec
from rulespec.check.diff import compare, diff
from rulespec.check.results import PROVED, VIOLATED
from rulespec.check.scenario import run_scenario_file
from rulespec.cli import main

FIXTURE = "tests/fixtures/two_readings"


def test_finds_the_one_step_difference_and_saves_a_passing_scenario(tmp_path):
    ma = rulespec.load(FIXTURE, {"step_size": "one"})
    mb = rulespec.load(FIXTURE, {"step_size": "two"})
    report = diff(ma, mb, games=10, scenario_dir=tmp_path)
    assert report.status == VIOLATED
    d = report.difference
    assert d.actions == ("step",) and d.kind == "state" and d.fields == {"pos": (1, 2)}
    results = run_scenario_file(report.scenario_path)
    assert [r.status for r in results] == ["PASSED", "PASSED"]
    assert report.lockstep.games == 10 and report.lockstep.parted == 10


def test_a_reading_against_itself_is_proved_equivalent(tmp_path):
    m = rulespec.load("tic_tac_toe")
    report = diff(m, m, depth=4, games=5, scenario_dir=tmp_path)
    assert report.status == PROVED and report.difference is None
    assert report.lockstep.parted == 0 and report.lockstep.winners_differ == 0


def test_compare_reports_legal_action_differences():
    ma = rulespec.load(FIXTURE, {"step_size": "one"})
    mb = rulespec.load(FIXTURE, {"step_size": "two"})
    s = ma.initial_state()
    s = ma.apply(s, ma.legal_actions(s)[0])
    s = ma.apply(s, ma.legal_actions(s)[0])  # pos 2: one more step is legal under both
    assert compare(ma, ma, s, s) is None
    sb = mb.state_from_json(s.to_json().replace('"step_size": "one"', '"step_size": "two"'))
    assert compare(ma, mb, s, sb) is None  # same state, same legal actions


def test_diff_cli(capsys, tmp_path):
    with pytest.raises(SystemExit) as done:
        main(["diff", FIXTURE, "--interpretation", "step_size=one", "--against",
              "step_size=two", "--games", "3", "--out-dir", str(tmp_path), "--json"])
    assert done.value.code == 1
    doc = json.loads(capsys.readouterr().out)
    assert doc["status"] == "VIOLATED" and doc["difference"]["actions"] == ["step"]
    with pytest.raises(SystemExit) as done:
        main(["diff", FIXTURE, "--interpretation", "step_size=one", "--against",
              "step_size=one"])
    assert done.value.code == 2


def test_hawaii_beach_return_difference_within_three_actions_after_setup(tmp_path):
    free = rulespec.load("hawaii", {"beach_return": "free"})
    forbidden = rulespec.load("hawaii", {"beach_return": "forbidden"})
    report = diff(free, forbidden, depth=3, setups=2, games=0, scenario_dir=tmp_path)
    assert report.status == VIOLATED
    d = report.difference
    assert len(d.actions) - d.setup_steps <= 3
    assert d.kind == "legal actions" and (d.only_a or d.only_b)
    assert [r.status for r in run_scenario_file(report.scenario_path)] == ["PASSED", "PASSED"]
