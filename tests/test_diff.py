"""rulespec diff: where two readings part, explained in rule terms, saved as a scenario."""

import json
import tomllib

import pytest

import rulespec
from rulespec.check.diff import complexity, diff, point_changes
from rulespec.check.impact import impact, lockstep, wilson
from rulespec.check.results import DIFFER, SAME
from rulespec.check.scenario import load_scenario_file, run_scenario_file
from rulespec.cli import main

FIXTURE = "tests/fixtures/two_readings"


def test_finds_the_one_step_difference_and_saves_a_passing_scenario(tmp_path):
    ma = rulespec.load(FIXTURE, {"step_size": "one"})
    mb = rulespec.load(FIXTURE, {"step_size": "two"})
    report = diff(ma, mb, games=10, scenario_dir=tmp_path)
    assert report.status == DIFFER
    d = report.difference
    assert d.actions == ("step",) and d.kind == "effect" and d.action == "step"
    assert d.cells == {"pos": (0, 1, 2)}
    assert [p.point for p in report.points] == ["step_size"]
    # the rule that makes the difference, with its source, and the point's options
    assert any("which reads step_size" in line and "fixture" in line for line in d.explanation)
    assert "pos: 0 -> 1 under step_size=one; 0 -> 2 under step_size=two" in "\n".join(
        d.explanation)
    results = run_scenario_file(report.scenario_path)
    assert [r.status for r in results] == ["PASSED", "PASSED"]
    assert report.impact.games == 10 and report.impact.parted.count == 10
    # the impact is stored with the scenario
    stored = load_scenario_file(report.scenario_path)
    assert stored.scenarios[0].interpretation["step_size"] == "one"
    found = tomllib.loads(open(report.scenario_path, encoding="utf-8").read())["diff"]
    assert found["parted"] == [10, 10] and len(found["parted_ci95"]) == 2
    json.dumps(report.to_json())  # everything is JSON-able


def test_a_reading_against_itself_is_the_same_within_an_exhaustive_bound(tmp_path):
    m = rulespec.load("tic_tac_toe")
    report = diff(m, m, depth=3, games=5, scenario_dir=tmp_path)
    assert report.status == SAME and report.difference is None
    b = report.bound
    assert (b.depth, b.start, b.players, b.exhaustive, b.games) == (3, "setup", (2, 2), True, 5)
    assert report.detail == ("no difference within 3 actions of any setup, 2 players (every "
                             "choice and chance outcome expanded); nor in 5 lockstep games")
    assert report.to_json()["bound"]["exhaustive"] is True
    assert report.impact.parted.count == 0 and report.impact.winner_changed.count == 0


def test_wilson_interval_contains_the_rate_and_narrows_with_more_games():
    lo, hi = wilson(5, 10)
    assert lo < 0.5 < hi
    lo2, hi2 = wilson(50, 100)
    assert lo < lo2 < 0.5 < hi2 < hi
    assert wilson(10, 10)[1] == 1.0 and wilson(0, 10)[0] == 0.0


def test_impact_of_identical_readings_is_nothing_and_counts_the_games():
    m = rulespec.load("tic_tac_toe")
    im = impact(m, m, 6, seed=3)
    assert (im.games, im.seed, im.parted.count, im.winner_changed.count) == (6, 3, 0, 0)
    assert im.parted.high < 0.5


def test_lockstep_games_shared_across_options_give_the_same_figures():
    """The defaults' own games are played once for several options (``paths``, on the
    Python backend: the C backend plays each game whole, the driver's too): each option's
    figures are what a lockstep of its own gives, and they differ by option."""
    m = rulespec.load("hawaii")
    paths: dict = {}
    seen = []
    for point, option in (("beach_return", "forbidden"), ("final_tie", "resources"),
                          ("combine_boats", "any")):
        other = rulespec.load("hawaii", {point: option})
        shared = lockstep(m, other, 6, 1, paths=paths, backend="python")
        assert shared == lockstep(m, other, 6, 1, backend="python")
        assert shared == lockstep(m, other, 6, 1, backend="c")
        seen.append(shared[0].parted.count)
    assert len(paths) == 3 and len(set(seen)) > 1


def test_simpler_parameter_values_rank_lower():
    g = rulespec.load("hawaii")
    s = g.initial_state(2)
    own = g.action_from_str(s, "pass to turn-order space 1")
    later = g.action_from_str(s, "pass to turn-order space 3")
    assert complexity(g, own) == 0 < complexity(g, later)


def test_rulesets_select_options_and_conflicts_are_refused():
    short = rulespec.load(FIXTURE, ruleset="short_steps")
    long_ = rulespec.load(FIXTURE, ruleset="long_steps")
    assert [p.point for p in point_changes(short, long_)] == ["step_size"]
    with pytest.raises(ValueError, match="conflicts"):
        rulespec.load(FIXTURE, {"step_size": "one"}, ruleset="long_steps")
    with pytest.raises(ValueError, match="no ruleset"):
        rulespec.load(FIXTURE, ruleset="nope")


def test_diff_cli(capsys, tmp_path):
    with pytest.raises(SystemExit) as done:
        main(["diff", FIXTURE, "--interpretation", "step_size=one", "--against",
              "step_size=two", "--games", "3", "--out-dir", str(tmp_path), "--json"])
    assert done.value.code == 1
    doc = json.loads(capsys.readouterr().out)
    assert doc["status"] == "DIFFER" and doc["difference"]["steps"] == ["step"]
    assert doc["impact"]["games"] == 3 and "low" in doc["impact"]["parted"]
    with pytest.raises(SystemExit) as done:
        main(["diff", FIXTURE, "--interpretation", "step_size=one", "--against",
              "step_size=one"])
    assert done.value.code == 2


def test_diff_cli_says_differ_or_same_never_violated(capsys, tmp_path):
    with pytest.raises(SystemExit) as done:
        main(["diff", FIXTURE, "--interpretation", "step_size=one", "--against",
              "step_size=two", "--games", "2", "--out-dir", str(tmp_path)])
    out = capsys.readouterr().out
    assert done.value.code == 1   # they differ
    assert "DIFFER: the readings differ 1 action(s) after setup" in out
    assert "VIOLATED" not in out
    # Hawaii's final tie needs a finished game: one action from setup parts nothing
    with pytest.raises(SystemExit) as done:
        main(["diff", "hawaii", "--interpretation", "final_tie=shared", "--against",
              "final_tie=resources", "--depth", "1", "--setups", "1", "--games", "2",
              "--out-dir", str(tmp_path)])
    out = capsys.readouterr().out
    assert done.value.code == 0
    assert ("SAME: no difference within 1 actions of any setup, 2-5 players (not exhaustive: "
            "1 sampled setup(s) per player count)") in " ".join(out.split())
    assert "VIOLATED" not in out and not list(tmp_path.glob("hawaii-*.toml"))


def test_diff_cli_between_rulesets_lists_every_differing_point(capsys, tmp_path):
    with pytest.raises(SystemExit) as done:
        main(["diff", FIXTURE, "--ruleset", "short_steps", "--against", "long_steps",
              "--games", "0", "--out-dir", str(tmp_path)])
    assert done.value.code == 1
    out = capsys.readouterr().out
    assert "ruleset short_steps against ruleset long_steps" in out
    assert "step_size" in out and "reading A: one square" in out
    for line in out.splitlines():
        assert len(line) <= 100 or line.strip().startswith(str(tmp_path))
    with pytest.raises(SystemExit) as done:   # a ruleset and a conflicting option
        main(["diff", FIXTURE, "--ruleset", "long_steps", "--interpretation",
              "step_size=one", "--against", "short_steps"])
    assert done.value.code == 2


def test_hawaii_beach_return_is_explained_as_a_cost_within_three_actions(tmp_path):
    free = rulespec.load("hawaii", {"beach_return": "free"})
    forbidden = rulespec.load("hawaii", {"beach_return": "forbidden"})
    report = diff(free, forbidden, setups=1, games=0, scenario_dir=tmp_path)
    assert report.status == DIFFER
    d = report.difference
    assert d.start == "setup" and len(d.steps) <= 3
    # the same purchase costs different feet: an effect, not a list of legal variants
    assert d.kind == "effect" and set(d.cells) == {f"feet[{d.movers[-1]}]"}
    (cell,) = d.cells.values()
    assert cell[1] > cell[2]  # more feet left when the beach is free
    assert any(r.kind == "effect" and "§足の支払い" in (r.source or "") for r in d.rules)
    assert [r.status for r in run_scenario_file(report.scenario_path)] == ["PASSED", "PASSED"]
