"""Z3 proofs: tic-tac-toe's invariants hold for the whole game; injected bugs are found."""

import json

import pytest

import rulespec
from rulespec.check.prove import prove_game
from rulespec.check.property import all_properties
from rulespec.check.results import PROVED, UNKNOWN, VIOLATED
from rulespec.check.walk import recheck
from rulespec.runtime.registry import models_dir
from rulespec.runtime.trace import load_trace


@pytest.mark.slow
@pytest.mark.parametrize("workers", [1, 2])  # 2: BMC runs alongside, assuming invariants
def test_tic_tac_toe_invariants_are_proved_for_the_whole_game(tmp_path, workers):
    game = rulespec.load("tic_tac_toe")
    results = prove_game(game, trace_dir=tmp_path, workers=workers)
    assert {r.status for r in results} == {PROVED}
    by = {(r.property, r.checker) for r in results}
    for inv in game.spec.invariants:
        assert (inv.name, "z3-induction") in by
        assert (inv.name, "z3-bmc") in by
    bmc = [r for r in results if r.checker == "z3-bmc"]
    assert all("within 9 steps" in r.detail for r in bmc)  # the whole game


def _copy_with(tmp_path, old, new):
    text = (models_dir() / "tic_tac_toe" / "spec.py").read_text()
    assert old in text
    path = tmp_path / "mutant.py"
    path.write_text(text.replace(old, new))
    return rulespec.load(path)


def test_injected_conservation_bug_is_violated_with_a_replayable_trace(tmp_path):
    # the mutant marks a cell without requiring it to be empty
    game = _copy_with(tmp_path, 'rule.require(board[r, c] == Mark.empty, "the cell is empty",',
                      'rule.require(board[r, c] != Mark.empty + 0 if False else True, "x",')
    results = prove_game(game, property_names=["cells_filled_one_per_move"], depth=3,
                         trace_dir=tmp_path)
    bad = [r for r in results if r.status == VIOLATED]
    assert bad, results
    r = bad[0]
    assert r.property == "cells_filled_one_per_move" and len(r.trace) == 2
    trace = load_trace(r.trace_path)
    v = recheck(game, trace.players, trace.actions, all_properties(game))
    assert v is not None and v.property == "cells_filled_one_per_move"


def test_bounded_model_checking_alongside_never_assumes_what_induction_did_not_prove(tmp_path):
    # with workers, BMC runs beside the step proofs assuming every invariant; here the
    # invariants break (a mark may overwrite another), so that run must be thrown away
    game = _copy_with(tmp_path, 'rule.require(board[r, c] == Mark.empty, "the cell is empty",',
                      'rule.require(board[r, c] != Mark.empty + 0 if False else True, "x",')
    results = prove_game(game, depth=3, trace_dir=tmp_path, workers=2)
    violated = {r.property for r in results if r.status == VIOLATED}
    assert "cells_filled_one_per_move" in violated
    assert not [r for r in results if r.checker == "z3-induction" and r.status == PROVED]
    assert not [r for r in results if r.checker == "z3-bmc" and r.status == PROVED
                and r.property in violated]


def test_a_non_inductive_invariant_is_unknown_not_proved(tmp_path):
    # weaken the invariants that make marks_alternate inductive: the step proof fails from
    # an unreachable state, bounded model checking finds nothing reachable, so the verdict
    # is UNKNOWN (never PROVED, never a false VIOLATED)
    text = (models_dir() / "tic_tac_toe" / "spec.py").read_text()
    text = text.replace("xs + os == moves,", "moves >= 0,").replace("xs - os == to_move,",
                                                                     "to_move >= 0,")
    start = text.index('game.conservation("cells_filled_one_per_move",')
    end = text.index('doc="moves made + empty cells stays 9")') + len('doc="moves made + empty cells stays 9")')
    text = text[:start] + text[end:]  # conservation laws are premises too: drop it
    path = tmp_path / "weak.py"
    path.write_text(text)
    game = rulespec.load(path)
    results = prove_game(game, property_names=["marks_alternate"], depth=3, trace_dir=tmp_path)
    (step,) = [r for r in results if r.checker == "z3-step"]
    assert step.status == UNKNOWN and "not inductive" in step.detail
    assert not [r for r in results if r.checker == "z3-induction"]
    (bmc,) = [r for r in results if r.checker == "z3-bmc"]
    assert bmc.status == PROVED and "within 3 steps" in bmc.detail


def test_a_false_law_is_violated_with_a_witness(tmp_path):
    game = _copy_with(tmp_path, "SPEC = game.build()",
                      'game.law("moves_never_exceed_four", moves <= 4, source="fixture")\n'
                      "SPEC = game.build()")
    (law,) = [r for r in prove_game(game, property_names=["moves_never_exceed_four"],
                                    depth=0, trace_dir=tmp_path) if r.checker == "z3-law"]
    assert law.status == VIOLATED and "moves=" in law.detail


def test_prove_cli_json(capsys, tmp_path):
    from rulespec.cli import main
    with pytest.raises(SystemExit) as done:
        main(["prove", "tic_tac_toe", "--property", "turn_follows_move_count", "--depth", "2",
              "--json", "--trace-dir", str(tmp_path)])
    assert done.value.code == 0
    doc = json.loads(capsys.readouterr().out)
    assert {r["status"] for r in doc["results"]} == {PROVED}
    with pytest.raises(SystemExit) as done:
        main(["prove", "tic_tac_toe", "--property", "nope"])
    assert done.value.code == 2
