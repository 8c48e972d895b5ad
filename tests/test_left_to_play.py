"""``game.left_to_play``: an invariant the spec leaves to play is SKIPPED by ``prove``, with
its reason, and no proof assumes it; the same invariant not left to play is VIOLATED."""

from pathlib import Path

import pytest

import rulespec
from rulespec.check.prove import prove
from rulespec.check.results import PROVED, SKIPPED, VIOLATED

from rulespec.spec import SpecError

FALSE = ('game.invariant("at_most_three_taken", taken <= 3, source="fixture: false on '
         'purpose")\n')
LEFT = 'game.left_to_play("at_most_three_taken", reason="fixture: beyond the solver")\n'


def _nim(tmp_path, extra: str):
    text = (Path(__file__).parent / "fixtures" / "nim" / "spec.py").read_text()
    path = tmp_path / "spec.py"
    path.write_text(text.replace("SPEC = game.build()", extra + "SPEC = game.build()"))
    return rulespec.load(path)


def test_a_false_invariant_not_left_to_play_is_violated(tmp_path):
    results = prove(_nim(tmp_path, FALSE), depth=4, trace_dir=tmp_path).results
    assert VIOLATED in {r.status for r in results if r.property == "at_most_three_taken"}


def test_an_invariant_left_to_play_is_skipped_with_its_reason_and_never_assumed(tmp_path):
    run = prove(_nim(tmp_path, FALSE + LEFT), depth=4, trace_dir=tmp_path)
    (left,) = [r for r in run.results if r.property == "at_most_three_taken"]
    assert left.status == SKIPPED and "fixture: beyond the solver" in left.detail
    # the rest is proved by induction, without assuming the invariant left to play
    inducted = {r.property for r in run.results
                if r.checker == "z3-induction" and r.status == PROVED}
    assert {"counters_are_conserved", "fields_within_bounds",
            "a_winner_only_when_every_heap_is_empty"} <= inducted
    assert {r.status for r in run.results} <= {PROVED, SKIPPED}


def test_only_a_property_left_to_play_can_be_asked_for_alone(tmp_path):
    run = prove(_nim(tmp_path, FALSE + LEFT), property_names=["at_most_three_taken"],
                depth=2, trace_dir=tmp_path)
    assert [(r.property, r.status) for r in run.results
            if r.property == "at_most_three_taken"] == [("at_most_three_taken", SKIPPED)]


@pytest.mark.parametrize("name", ["no_such_invariant", "fields_within_bounds"])
def test_left_to_play_must_name_an_invariant_or_conservation_law(tmp_path, name):
    with pytest.raises(SpecError, match="left_to_play"):
        _nim(tmp_path, f'game.left_to_play("{name}", reason="fixture")\n')


def test_a_field_whose_bounds_break_takes_only_the_proofs_that_assumed_them(tmp_path):
    # nim_unbounded: the heaps leave their bounds; the mover's bounds, and an invariant
    # proved from them, are still proved by induction (each field's bounds are a goal)
    text = (Path(__file__).parent / "fixtures" / "nim_unbounded" / "spec.py").read_text()
    path = tmp_path / "spec.py"
    path.write_text(text.replace("SPEC = game.build()", 'game.invariant("the_mover_is_a_player", '
                                 'to_move <= 1, source="fixture")\nSPEC = game.build()'))
    run = prove(rulespec.load(path), trace_dir=tmp_path)
    inducted = {r.property for r in run.results
                if r.checker == "z3-induction" and r.status == PROVED}
    assert "the_mover_is_a_player" in inducted
    assert "fields_within_bounds" not in inducted
    assert VIOLATED in {r.status for r in run.results if r.property == "fields_within_bounds"}
