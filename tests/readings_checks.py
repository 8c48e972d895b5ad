"""The checks every seed game's interpretation points share (tests/test_*_readings.py,
tests/test_aquatica.py): each point sourced, each option pinned apart from the default by
scenarios, each difference found by ``diff`` within 3 actions of its start."""

from pathlib import Path

import attrs

import rulespec
from rulespec.check.diff import diff
from rulespec.check.results import DIFFER
from rulespec.check.scenario import load_scenario_file, run_scenario


def other_options(spec):
    """Every (point, option) that is not the point's default."""
    return [(p.name, o) for p in spec.interpretations for o in p.options if o != p.default]


def assert_points_are_sourced(spec):
    """Every point gives a source for each option and a reason for its default."""
    for p in spec.interpretations:
        assert (p.default_reason or "").strip(), p.name
        assert all(src.strip() for src in p.options.values()), p.name


def assert_pinned_apart(spec, path: Path, point: str, option: str, **evolve):
    """Some scenario of ``path`` passes under the option and fails under the default, and
    another passes under the default and fails under the option: they tell the readings
    apart (``evolve``: more changes to each scenario, e.g. ``ruleset=None``)."""
    default = spec.interpretation(point).default
    sf = load_scenario_file(path)

    def run(sc, reading):
        interp = {**sc.interpretation, point: reading}
        return run_scenario(sf, attrs.evolve(sc, interpretation=interp, **evolve))
    pins = {default: False, option: False}
    for sc in sf.scenarios:
        mine = sc.interpretation.get(point, default)
        if mine not in pins:
            continue
        other = option if mine == default else default
        assert run(sc, mine).passed, sc.name
        if not run(sc, other).passed:
            pins[mine] = True
    assert pins == {default: True, option: True}


def assert_diff_within_three(game: str, spec, point: str, option: str, start, tmp_path,
                             *, games: int = 0, fewest: int = 1):
    """``diff`` of the default against the option, from ``start`` (None: the setup), finds
    the difference by search within 3 actions and states it in rule terms with sources;
    returns the report."""
    default = spec.interpretation(point).default
    ma = rulespec.load(game, {point: default})
    mb = rulespec.load(game, {point: option})
    report = diff(ma, mb, setups=1, games=games, scenario_dir=tmp_path,
                  start=None if start is None else str(start))
    assert report.status == DIFFER
    d = report.difference
    assert d.found_by == "search" and fewest <= len(d.steps) <= 3
    assert point in d.points
    assert all(r.source for r in (*d.refused_by, *d.rules))
    return report
