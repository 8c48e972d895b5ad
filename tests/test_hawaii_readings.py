"""Hawaii's interpretation points: each option pinned by a scenario, each difference found
and explained by ``rulespec diff`` within 3 actions of its start, and the rulesets."""

import json

import pytest

import rulespec
from rulespec.check.scenario import load_scenario_file
from rulespec.cli import main
from rulespec.runtime.registry import models_dir
from readings_checks import (assert_diff_within_three, assert_pinned_apart, assert_points_are_sourced, other_options)

SPEC = rulespec.load_spec("hawaii")
SCENARIOS = models_dir() / "hawaii" / "scenarios"


def _reading_file(point):
    return SCENARIOS / f"reading_{point}.toml"


#: where each difference shows first: from setup, or from a bundled scenario's situation
STARTS = {
    ("beach_return", "forbidden"): None,
    ("combine_boats", "one"): None,
    ("combine_boats", "any"): "reading_combine_boats.toml#any: the canoe and two level-I boats fish 7 tokens",
    ("final_tie", "resources"): "reading_final_tie.toml#shared: tied players share the win",
    ("fish_bonus_foot", "paid_only"): None,
    ("village_without_tiki", "board_edge"): "reading_village_without_tiki.toml#board_edge: a village filling the board's 7 columns is valid",
    ("fruit_payment", "per_unit"): None,
    ("exchange_uses", "per_payment"): "reading_exchange_uses.toml#per_payment: the same cottage mixes 1 fruit into the move and 1 into the price",
    ("goal_ranking", "lowered"): "reading_goal_ranking.toml#lowered: the surfer's reduction counts like a higher total",
    ("price_cap", "below"): "reading_price_cap.toml#below: the same 5 is flipped to a fish token",
    ("income_after_last_round", "tiles"): "reading_income_after_last_round.toml#tiles: the shell cottage pays when round 5 ends",
    ("laka_fruit", "valid_villages"): "reading_laka_fruit.toml#valid_villages: Laka counts fruit in valid villages only",
    ("kanaloa_surfers", "own_village"): "reading_kanaloa_surfers.toml#valid_villages: Kanaloa counts the surfer of another valid village",
    ("pele_floor", "one_foot"): "reading_pele_floor.toml#zero: Pele I makes the one-step move free",
    ("exchange_direction", "price_only"): "reading_exchange_direction.toml#any_payment: a shell pays the canoe's one foot",
}
OTHER_OPTIONS = other_options(SPEC)


def test_every_other_option_of_every_point_has_a_start():
    assert sorted(STARTS) == sorted(OTHER_OPTIONS)


def test_every_point_has_a_source_per_option_and_a_reason_for_its_default():
    assert_points_are_sourced(SPEC)


@pytest.mark.parametrize("point, option", OTHER_OPTIONS)
def test_scenarios_pin_the_default_and_the_other_option_apart(point, option):
    path = _reading_file(point) if point != "beach_return" else SCENARIOS / "movement.toml"
    assert_pinned_apart(SPEC, path, point, option)


@pytest.mark.parametrize("point, option", OTHER_OPTIONS)
def test_diff_explains_each_reading_within_three_actions(point, option, tmp_path):
    start = STARTS[(point, option)]
    report = assert_diff_within_three("hawaii", SPEC, point, option,
                                      None if start is None else SCENARIOS / start,
                                      tmp_path, games=2)
    d = report.difference
    # stated in rule terms: the refusing precondition, or rules with their sources
    assert (d.refused_by if d.kind == "legality" else d.rules)
    im = report.impact
    assert im.games == 2 and 0 <= im.parted.low <= im.parted.high <= 1
    assert load_scenario_file(report.scenario_path).scenarios


def test_info_lists_every_point_and_the_three_rulesets(capsys):
    with pytest.raises(SystemExit) as done:
        main(["info", "hawaii", "--json"])
    assert done.value.code == 0
    doc = json.loads(capsys.readouterr().out)
    names = {i["name"] for i in doc["interpretations"]}
    assert names == {p.name for p in SPEC.interpretations} and len(names) >= 10
    rulesets = {r["name"]: r for r in doc["rulesets"]}
    assert {"rulebook", "bga", "english"} <= set(rulesets)
    assert all(r["source"] and r["options"] for r in rulesets.values())
    assert rulesets["bga"]["options"]["beach_return"] == "forbidden"


def test_rulebook_and_bga_part_on_the_beach_return(capsys, tmp_path):
    with pytest.raises(SystemExit) as done:
        main(["diff", "hawaii", "--ruleset", "rulebook", "--against", "bga", "--games", "0",
              "--setups", "1", "--out-dir", str(tmp_path), "--json"])
    assert done.value.code == 1
    doc = json.loads(capsys.readouterr().out)
    rulebook = rulespec.load("hawaii", ruleset="rulebook").interpretation
    bga = rulespec.load("hawaii", ruleset="bga").interpretation
    assert [p["point"] for p in doc["points"]] == [k for k in rulebook if rulebook[k] != bga[k]]
    assert doc["points"][0]["point"] == "beach_return"
