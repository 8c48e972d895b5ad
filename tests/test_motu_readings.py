"""MOTU's interpretation points: each option pinned by a scenario, each difference found and
explained by ``rulespec diff`` within 3 actions of its start; the fate prices L94 allows; a
rule that survived mutation, pinned."""


import pytest

import rulespec
from rulespec.check.scenario import load_scenario_file, run_scenario
from rulespec.runtime.registry import models_dir
from planting import planted_spec
from readings_checks import (assert_diff_within_three, assert_pinned_apart, assert_points_are_sourced, other_options)
from rulespec.spec import SpecError

SPEC = rulespec.load_spec("motu")
SCENARIOS = models_dir() / "motu" / "scenarios"

#: where each difference shows first: a bundled scenario's situation (MOTU's setup deals
#: villages, four row cards, travellers and fate cards before the first choice)
STARTS = {
    ("no_placement", "set_aside"): "reading_no_placement.toml#set_aside: the card is taken and set aside, the island gets no card",
    ("diagonal_contact", "diagonal_too"): "reading_diagonal_contact.toml#orthogonal: land may meet sea at a corner",
    ("beach_cut", "allowed"): "reading_beach_cut.toml#allowed: only the added card's beaches are checked",
    ("beach_end", "same_band"): "reading_beach_end.toml#same_band: a T-junction is refused",
    ("beach_end", "table_only"): "reading_beach_end.toml#table_only: an end resting on another beach is refused",
    ("sea_rule", "added_sea_only"): "reading_sea_rule.toml#added_sea_only: only the added card's sea is checked",
    ("scoring_time", "at_draw"): "reading_scoring_time.toml#at_draw: the scoring comes at once, steps 4-5 after it",
    ("traveller_coconuts", "ignore"): "reading_traveller_coconuts.toml#ignore: only the 7 counters count",
    ("traveller_majorities", "island_only"): "reading_traveller_majorities.toml#island_only: the fate cards count what the island shows: no fish",
    ("longest_beach", "joined_ends"): "reading_longest_beach.toml#joined_ends: bands side by side are two beaches; the longest chain has 3 cards",
    ("beach_bonus_at_zero", "needs_a_beach"): "reading_beach_bonus_at_zero.toml#needs_a_beach: without a beach nobody gets the 5 points",
    ("beach_card", "printed_beach"): "reading_beach_card.toml#printed_beach: every card printed with beach",
    ("traveller_scoring", "per_two"): "reading_traveller_scoring.toml#per_two: 3 per two beach cards, 3 points",
    ("components", "first_game"): "reading_components.toml#first_game: play begins",
}
OTHER_OPTIONS = other_options(SPEC)


def test_every_other_option_of_every_point_has_a_start():
    assert sorted(STARTS) == sorted(OTHER_OPTIONS)


def test_every_point_has_a_source_per_option_and_a_reason_for_its_default():
    assert_points_are_sourced(SPEC)


@pytest.mark.parametrize("point, option", OTHER_OPTIONS)
def test_scenarios_pin_the_default_and_the_other_option_apart(point, option):
    assert_pinned_apart(SPEC, SCENARIOS / f"reading_{point}.toml", point, option)


@pytest.mark.parametrize("point, option", OTHER_OPTIONS)
def test_diff_explains_each_reading_within_three_actions(point, option, tmp_path):
    report = assert_diff_within_three("motu", SPEC, point, option,
                                      SCENARIOS / STARTS[(point, option)], tmp_path)
    d = report.difference
    # stated in rule terms: the refusing precondition, or rules with their sources
    assert (d.refused_by if d.kind == "legality" else d.rules)
    assert load_scenario_file(report.scenario_path).scenarios


# --- L94: one counter per row card ----------------------------------------------------

def _planted(tmp_path, old: str, new: str):
    return planted_spec(tmp_path, "motu", old, new)


def test_no_fate_price_exceeds_the_row():
    # L94 puts one counter on each row card: a price above the four cards cannot be paid
    prices = next(t for t in SPEC.tables if t.name == "fate_price").values
    row = next(c for c in SPEC.constants if c.name == "row_cards")
    assert len(prices) == 10 and max(prices) <= row.value == 4


def _swapped(tmp_path, old: str, new: str):
    """The bundled components.toml with one value changed (a publisher's list)."""
    text = (models_dir() / "motu" / "components.toml").read_text()
    assert text.count(old) == 1
    path = tmp_path / "publisher.toml"
    path.write_text(text.replace(old, new))
    return path


def test_a_fate_price_above_the_row_is_refused_at_load(tmp_path):
    path = _swapped(tmp_path, "plus = 8\nminus = 5\nprice = 4", "plus = 8\nminus = 5\nprice = 5")
    with pytest.raises(SpecError, match="one counter per row card, got 5") as err:
        rulespec.load("motu", components=path)
    assert "fate_cards entry 'palms_8'" in str(err.value) and "\n" not in str(err.value)


def test_a_swapped_traveller_changes_what_it_scores(tmp_path):
    # T1 printed: 3 points per beach card in the row (L115); a list giving 4 scores 12
    path = _swapped(tmp_path, 'counts = "beach_cards"\npoints = 3',
                    'counts = "beach_cards"\npoints = 4')
    sf = load_scenario_file(SCENARIOS / "traveller.toml")
    sc = sf.scenarios[0]
    assert run_scenario(sf, sc).passed
    swapped = run_scenario(sf, sc, models=lambda i: rulespec.load("motu", i, components=path))
    assert not swapped.passed
    (catalogue,) = [a for a in rulespec.load("motu", components=path).spec.assumptions
                    if a.name == "travellers"]
    assert catalogue.replaced and catalogue.entries_of("printed") == ["T1", "T2", "T3", "T4"]


# --- mutation survivors, pinned -------------------------------------------------------

def _setup_scenario_passes(path, name):
    sf = load_scenario_file(SCENARIOS / "setup.toml")
    sc = next(s for s in sf.scenarios if s.name == name)
    return run_scenario(sf, sc, models=lambda interp: rulespec.load(path, interp)).passed


def test_a_traveller_dealt_twice_fails_the_setup_scenario(tmp_path):
    name = "a traveller dealt to one player is not dealt to the next"
    assert _setup_scenario_passes(models_dir() / "motu" / "spec.py", name)
    path = _planted(tmp_path, "    rule.set(traveller_used[t], True)\n", "")
    assert not _setup_scenario_passes(path, name)
