"""properties/hawaii.py: every property holds on real play and flags a corrupted state or
transition (so none of them is vacuous)."""

from __future__ import annotations

import copy
import shutil
import random
from typing import Any

import pytest

import rulespec
from rulespec.runtime.model import State
from rulespec.runtime.play import seeded_chooser
from rulespec.runtime.registry import models_dir

from rulespec.properties import hawaii as H


@pytest.fixture(scope="module")
def game():
    return rulespec.load("hawaii")


@pytest.fixture(scope="module")
def played(game):
    """One seeded 4-player game: every (before, action, after) step, to the end."""
    rng = random.Random(7)
    choose = seeded_chooser(game, rng)
    s = game.initial_state(4)
    steps = []
    while not game.is_terminal(s):
        legal = game.legal_actions(s)
        a = legal[choose(s, legal)]
        after = game.apply(s, a)
        steps.append((s, a, after))
        s = after
    return steps


def edit(game, state: State, **changes: Any) -> State:
    """A copy of ``state`` with fields changed (``fn(fields)`` or a value per field)."""
    d = copy.deepcopy(state.to_dict())
    for name, value in changes.items():
        if callable(value):
            value(d["fields"])
        else:
            d["fields"][name] = value
    return game.state_from_json(d)


def with_value(game, state: State, field: str, index: int, value: int) -> State:
    """A raw state with one cell set, bypassing the JSON bounds check (to build states the
    field ranges would refuse)."""
    slot = game.layout.slots[field]
    values = list(state.values)
    values[slot.offset + index] = value
    return State(tuple(values), game)


def round_ends(game, steps):
    return [(b, a, c) for b, a, c in steps
            if b["phase"] == "play" and (c["round"] != b["round"] or c["phase"] == "over")]


def mid_round_steps(steps):
    return [(b, a, c) for b, a, c in steps
            if b["phase"] == "play" and c["round"] == b["round"] and c["phase"] != "over"]


def check_all_hold(game, steps, props):
    for b, a, c in steps:
        for p in props:
            if p.kind == "step":
                assert p.check(game, b, a, c) is None, (p.name, str(a))
            elif p.kind == "state":
                assert p.check(game, c) is None, (p.name, str(a))
    last = steps[-1][2]
    for p in props:
        if p.kind == "end":
            assert p.check(game, last, len(steps)) is None, p.name


def test_every_property_holds_on_a_played_game(game, played):
    assert game.is_terminal(played[-1][2])
    assert len(round_ends(game, played)) == 5
    check_all_hold(game, played, H.PROPERTIES)


def test_every_property_has_a_doc_and_a_seed_source():
    names = [p.name for p in H.PROPERTIES]
    assert len(set(names)) == len(names) == 8
    for p in H.PROPERTIES:
        assert p.doc and H.SEED in p.source, p.name


def test_the_names_are_the_specs(game):
    name_enum = next(e for e in game.spec.enums if e.name == "Name")
    assert H.numbers(game).names == list(name_enum.members)


# --- turn order -----------------------------------------------------------------------------
def test_turn_order_flags_a_wrong_next_order(game, played):
    b, a, c = round_ends(game, played)[0]
    prop = H.next_round_turn_order_is_the_pass_order
    assert prop.check(game, b, a, c) is None
    order = c["order"]
    wrong = edit(game, c, order=[order[1], order[0], *order[2:]])
    assert "turn order is" in prop.check(game, b, a, wrong)


def test_turn_order_flags_a_change_within_a_round(game, played):
    b, a, c = mid_round_steps(played)[0]
    prop = H.next_round_turn_order_is_the_pass_order
    order = c["order"]
    wrong = edit(game, c, order=[order[1], order[0], *order[2:]])
    assert "changed within round" in prop.check(game, b, a, wrong)


# --- rounds ---------------------------------------------------------------------------------
def test_a_round_end_before_everyone_passed_is_flagged(game, played):
    b, a, c = round_ends(game, played)[0]
    prop = H.a_round_ends_when_everyone_has_passed
    assert prop.check(game, b, a, c) is None
    mover = b["order"][b["turn_pos"]]
    other = next(p for p in range(4) if p != mover)
    early = edit(game, b, passed=[False if p == other else v for p, v in enumerate(b["passed"])])
    assert "had not passed" in prop.check(game, early, a, c)


def test_a_skipped_round_is_flagged(game, played):
    b, a, c = round_ends(game, played)[0]
    skipped = edit(game, c, round=c["round"] + 1)
    assert "went from" in H.a_round_ends_when_everyone_has_passed.check(game, b, a, skipped)


def test_a_game_ending_in_round_4_is_flagged(game, played):
    last = played[-1][2]
    prop = H.the_game_lasts_exactly_five_rounds
    assert prop.check(game, last, len(played)) is None
    short = edit(game, last, round=4)
    assert game.is_terminal(short)
    assert "ended in round 4" in prop.check(game, short, len(played))


# --- resources, points, boats ---------------------------------------------------------------
@pytest.mark.parametrize("field", ["shells", "feet", "fruit", "vp"])
def test_a_negative_resource_is_flagged(game, played, field):
    s = played[40][2]
    assert H.no_negative_resource.check(game, s) is None
    bad = with_value(game, s, field, 1, -1)
    assert H.no_negative_resource.check(game, bad) == f"player 1 has -1 {field}"


def test_losing_points_is_flagged(game, played):
    b, a, c = mid_round_steps(played)[0]
    richer = edit(game, b, vp=[3, 0, 0, 0, 0])
    assert "points fell from 3 to 0" in H.victory_points_never_decrease.check(game, richer, a, c)


def test_a_boat_made_usable_again_within_the_round_is_flagged(game, played):
    prop = H.a_used_boat_stays_used_until_the_round_ends
    b, a, c = next((b, a, c) for b, a, c in mid_round_steps(played)
                   if not str(a).startswith(("fish ", "visit the island")))
    used = edit(game, b, canoe_used=[True] * 5)
    after = edit(game, c, canoe_used=[False] * 5)
    assert "usable again" in prop.check(game, used, a, after)


def test_a_boat_trip_that_uses_no_boat_is_flagged(game, played):
    prop = H.a_used_boat_stays_used_until_the_round_ends
    b, a, c = next((b, a, c) for b, a, c in played if str(a).startswith("fish "))
    assert prop.check(game, b, a, c) is None
    unmarked = edit(game, c, canoe_used=b["canoe_used"], boats_used=b["boats_used"])
    assert "marked no boat" in prop.check(game, b, a, unmarked)


# --- round prizes ---------------------------------------------------------------------------
def test_the_prize_rule_reproduces_the_seed_examples():
    met = [True, True, True, True, False]
    assert H.expected_prizes([12, 11, 10, 9, 8], met, (8, 5, 2)) == [8, 5, 2, 2, 0]
    assert H.expected_prizes([12, 12, 11, 9, 8], met, (8, 5, 2)) == [8, 8, 2, 2, 0]
    assert H.expected_prizes([12, 11, 11, 9, 8], met, (8, 5, 2)) == [8, 5, 5, 2, 0]
    assert H.expected_prizes([5, 4], [False, False], (8, 5, 2)) == [0, 0]


def test_a_wrong_round_prize_is_flagged(game, played):
    prop = H.round_prizes_follow_the_goal_tile
    for b, a, c in round_ends(game, played):
        assert prop.check(game, b, a, c) is None
    b, a, c = round_ends(game, played)[0]
    more = edit(game, c, vp=[v + (1 if p == 2 else 0) for p, v in enumerate(c["vp"])])
    assert "player 2" in prop.check(game, b, a, more)


def test_prizes_for_a_missed_goal_are_flagged(game, played):
    """Round 1 of the played game hands out prizes; with every total set to 0 before the
    last pass nobody meets the goal, so those prizes are flagged."""
    prop = H.round_prizes_follow_the_goal_tile
    b, a, c = round_ends(game, played)[0]
    assert any(c["vp"][p] > b["vp"][p] for p in range(4))
    zero = edit(game, b, round_total=[0] * 5, spears=[0] * 5, pass_tok=[0] * 5)
    msg = prop.check(game, zero, a, c)
    assert msg and "goal met: False" in msg


# --- end scoring ----------------------------------------------------------------------------
class ScoresInvalidVillages:
    """A model whose scoring forgets the validity rule: kahunas always count."""

    def __init__(self, game):
        self.game = game
        self.spec = game.spec
        self.interpretation = game.interpretation

    def is_terminal(self, state):
        return self.game.is_terminal(state)

    def scores(self, state):
        return [state["vp"][p] + sum(H.numbers(self.game).kahuna_vp[:state["kahunas"][p]])
                for p in range(state["num_players"])]


def test_end_scoring_from_an_invalid_village_is_flagged(game, played):
    last = played[-1][2]
    prop = H.end_scoring_counts_only_valid_villages
    assert prop.check(game, last, len(played)) is None
    # player 0: a kahuna, no tiki, so no village is valid
    no_valid = edit(game, last, kahunas=[1, *last["kahunas"][1:]],
                    tikis=[0, *last["tikis"][1:]])
    assert prop.check(game, no_valid, len(played)) is None     # the spec scores it right
    msg = prop.check(ScoresInvalidVillages(game), no_valid, len(played))
    assert msg and "player 0 has no valid village" in msg


def test_end_scoring_recomputation_counts_a_valid_village(game, played):
    last = played[-1][2]
    nums = H.numbers(game)

    def valid_village_1(f):
        f["tikis"][0] = 5                    # width 2 + 5 tikis < 8: still not valid
        f["kahunas"][0] = 1
        f["has"][0][0] = [False] * len(nums.names)
        f["lvl2"][0][0] = [False] * len(nums.names)
        f["has"][0][0][nums.index["start_hut"]] = True
        f["has"][0][0][nums.index["long_hut"]] = True     # 2 columns: width 4, 4 + 5 >= 8
        f["width"][0][0] = 4
        f["founder"][0][0] = "start_hut"
    d = copy.deepcopy(last.to_dict())
    valid_village_1(d["fields"])
    s = game.state_from_json(d)
    assert H._valid(s, 0, 0)
    assert H.end_bonus(s, 0) >= nums.kahuna_vp[0] + nums.long_vp[0]
    assert H.end_scoring_counts_only_valid_villages.check(game, s, len(played)) is None
    assert game.scores(s)[0] == s["vp"][0] + H.end_bonus(s, 0)


# --- one source of truth: the numbers are the checked spec's -------------------------------
LAST_PASS = ["pass to turn-order space 2"]


def _changed_spec(tmp_path, old, new):
    """A copy of the game folder with one passage of spec.py replaced."""
    folder = tmp_path / "hawaii"
    shutil.copytree(models_dir() / "hawaii", folder, ignore=shutil.ignore_patterns("scenarios"))
    text = (folder / "spec.py").read_text()
    assert text.count(old) == 1, old
    (folder / "spec.py").write_text(text.replace(old, new))
    return rulespec.load(folder)


def _round_end_with_lono(game):
    """Round 1, player 1 has passed; player 0 (Lono I in village 1, round total 9: the goal
    met) passes last."""
    s = game.initial_state(2)
    while s["phase"] != "play":  # the chance steps of the opening, first outcome each
        s = game.apply(s, game.legal_actions(s)[0])
    nums = H.numbers(game)

    def lono(f):
        f["has"][0][0][nums.index["lono"]] = True
        f["passed"][1] = True
        f["pawn"][1] = 11
        f["pass_by"][0] = 1
        f["round_total"][0] = 9
        f["took"][0][5] = 1   # a 4 ...
        f["took"][0][7] = 1   # ... and a 5
    before = edit(game, s, **{"has": lono})
    action = next(a for a in game.legal_actions(before) if str(a) == LAST_PASS[0])
    return before, action


def _changed_components(tmp_path, old, new):
    text = (models_dir() / "hawaii" / "components.toml").read_text()
    assert text.count(old) == 1, old
    path = tmp_path / "other_tiles.toml"
    tiles = text[text.index("[tiles]"):text.index("[places]")]
    path.write_text(tiles.replace(old, new))
    return rulespec.load("hawaii", components=path)


def test_a_changed_tile_effect_in_the_components_reaches_the_property(game, tmp_path):
    """Lono's points are component data, read by the property from the spec the model was
    loaded from: with another tile list giving Lono 4 (not 3), the round-end property
    expects 4, passes on that model's round end and flags the bundled list's 3."""
    changed = _changed_components(tmp_path, "amounts = [3, 5]", "amounts = [4, 6]")
    assert H.numbers(changed).lono_vp == (4, 6) and H.numbers(game).lono_vp == (3, 5)
    prop = H.round_prizes_follow_the_goal_tile
    b, a = _round_end_with_lono(changed)
    after = changed.apply(b, a)
    assert prop.check(changed, b, a, after) is None
    bundled_after = game.apply(edit(game, b), a)   # the same step under Lono's 3 points
    assert after["vp"][0] == bundled_after["vp"][0] + 1
    msg = prop.check(changed, b, a, edit(changed, bundled_after))
    assert msg and "player 0" in msg


def test_a_changed_printed_constant_reaches_the_property(tmp_path):
    """The kahunas' row points are printed constants; the end-scoring recomputation reads
    them from the spec, so a spec printing 6 for the first row is checked against 6."""
    changed = _changed_spec(tmp_path, "[5, 5, 10, 10, 15]", "[6, 5, 10, 10, 15]")
    assert H.numbers(changed).kahuna_vp[0] == 6
