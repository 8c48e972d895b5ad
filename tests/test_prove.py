"""Z3 proofs: tic-tac-toe's invariants hold for the whole game; injected bugs are found."""

import gc
import json
import os
import subprocess
import sys

import pytest

import rulespec
from rulespec.check.prove import prove, prove_game
from rulespec.check.property import all_properties
from rulespec.check.results import PROVED, UNKNOWN, VIOLATED
from rulespec.check.walk import recheck
from rulespec.runtime.registry import models_dir
from rulespec.runtime.trace import load_trace


@pytest.mark.slow
def test_tic_tac_toe_invariants_are_proved_for_the_whole_game(tmp_path):
    game = rulespec.load("tic_tac_toe")
    results = prove_game(game, trace_dir=tmp_path)
    assert {r.status for r in results} == {PROVED}
    by = {(r.property, r.checker) for r in results}
    for inv in game.spec.invariants:
        assert (inv.name, "z3-induction") in by
    # proved by induction for games of any length: bounded model checking is not asked
    assert not [r for r in results if r.checker == "z3-bmc"]


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


def test_induction_keeps_only_goals_whose_proofs_never_assumed_a_broken_one(tmp_path):
    # a mark may overwrite another: the cell count is not conserved any more; a goal
    # whose step proof assumed it is not proved by induction, one that did not still is
    game = _copy_with(tmp_path, 'rule.require(board[r, c] == Mark.empty, "the cell is empty",',
                      'rule.require(board[r, c] != Mark.empty + 0 if False else True, "x",')
    run = prove(game, depth=3, trace_dir=tmp_path)
    violated = {r.property for r in run.results if r.status == VIOLATED}
    assert "cells_filled_one_per_move" in violated
    inducted = {r.property for r in run.results
                if r.checker == "z3-induction" and r.status == PROVED}
    assert "cells_filled_one_per_move" not in inducted
    assert "fields_within_bounds" in inducted  # its proofs assumed only the bounds
    assert not [r for r in run.results if r.checker == "z3-bmc" and r.status == PROVED
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
    results = prove_game(game, property_names=["marks_alternate"], depth=3, trace_dir=tmp_path,
                         infer=False)
    (step,) = [r for r in results if r.checker == "z3-step"]
    assert step.status == UNKNOWN and "not inductive" in step.detail
    assert not [r for r in results if r.checker == "z3-induction"]
    (bmc,) = [r for r in results if r.checker == "z3-bmc"]
    assert bmc.status == PROVED and "within 3 steps" in bmc.detail
    # the prover finds the strengthening the spec no longer states (rulespec/check/infer.py)
    results = prove_game(game, property_names=["marks_alternate"], depth=3, trace_dir=tmp_path)
    step = [r for r in results if r.property == "marks_alternate"]
    assert ("z3-induction", PROVED) in {(r.checker, r.status) for r in step}
    premises = next(r.evidence["premises"] for r in step if r.checker == "z3-induction")
    assert any(p.startswith("inferred: ") for p in premises)


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


def test_a_correct_small_nim_is_proved_and_exits_0(tmp_path):
    run = prove(rulespec.load("tests/fixtures/nim"), trace_dir=tmp_path)
    assert {r.status for r in run.results} == {PROVED}
    assert {r.property for r in run.results if r.checker == "z3-induction"} == {
        "fields_within_bounds", "rules_evaluate_without_error", "counters_are_conserved",
        "a_winner_only_when_every_heap_is_empty"}


def test_planted_unbounded_heap_is_violated_with_a_one_step_trace(tmp_path):
    game = rulespec.load("tests/fixtures/nim_unbounded")
    run = prove(game, trace_dir=tmp_path)
    (bad,) = [r for r in run.results if r.status != PROVED]
    assert (bad.property, bad.status) == ("fields_within_bounds", VIOLATED)
    assert len(bad.trace) == 1 and bad.trace[0].startswith("take 5 from")  # minimal
    trace = load_trace(bad.trace_path)
    v = recheck(game, trace.players, trace.actions, all_properties(game))
    assert v is not None and v.property == "fields_within_bounds"
    # the goals whose proofs never assumed the bounds are still proved by induction
    inducted = {r.property for r in run.results if r.checker == "z3-induction"}
    assert "counters_are_conserved" in inducted and "fields_within_bounds" not in inducted


def test_verdicts_and_work_do_not_depend_on_the_workers(tmp_path):
    game = rulespec.load("tic_tac_toe")
    one = prove(game, trace_dir=tmp_path, workers=1)
    two = prove(game, trace_dir=tmp_path, workers=2)
    assert [r.to_json() for r in one.results] == [r.to_json() for r in two.results]
    assert one.rlimit == two.rlimit and one.rlimit > 0


@pytest.mark.slow
def test_a_job_for_fewer_players_starts_from_what_the_most_players_job_learned(
        tmp_path, monkeypatch):
    """Crazy Eights (2-5 players): the 3-, 4- and 2-player jobs of an action set start from
    the lessons of its 5-player job. Same verdicts and work in this process (each pupil
    on a copy) as in workers (each on what was pickled to it), and less work than with
    every job starting afresh. One goal is asked for: the step jobs are the same, and the
    laws, the bounded model checking and the dead rules (which no job teaches) are left out."""
    import rulespec.check.prove as prove_module
    game = rulespec.load("crazy_eights")
    goal = ["hands_are_dealt_one_card_at_a_time"]
    one = prove(game, property_names=goal, trace_dir=tmp_path, workers=1)
    two = prove(game, property_names=goal, trace_dir=tmp_path, workers=2)
    assert [r.to_json() for r in one.results] == [r.to_json() for r in two.results]
    assert one.rlimit == two.rlimit
    monkeypatch.setattr(prove_module, "_teachers", lambda groups: [None] * len(groups))
    afresh = prove(game, property_names=goal, trace_dir=tmp_path, workers=2)
    assert [r.status for r in afresh.results] == [r.status for r in one.results]
    assert one.rlimit < afresh.rlimit


def test_the_teacher_of_each_step_job_is_its_action_sets_most_players_job():
    from rulespec.check.prove import _teachers
    a, b = 0, 1  # (cell 0: the player count; cell 7: a pinned phase)
    groups = [[(a, ((0, 4), (7, 1))), (b, ((0, 4), (7, 1)))],
              [(a, ((0, 5), (7, 1))), (b, ((0, 5), (7, 1)))],
              [(a, ((0, 5), (7, 2)))],  # another pin: an action set of its own
              [(a, ((0, 2), (7, 1))), (b, ((0, 2), (7, 1)))],
              [(a, ((0, 3),))]]  # no pins: another action set, alone
    assert _teachers(groups) == [1, None, None, 1, None]


def test_verdicts_and_work_do_not_depend_on_the_hash_seed(tmp_path):
    # the set orders of a Python process change with its hash seed; the Z3 work must not
    docs = []
    for seed in ("1", "2"):
        out = subprocess.run([sys.executable, "-m", "rulespec.cli", "prove", "tic_tac_toe",
                              "--json", "-q", "--workers", "1", "--trace-dir", str(tmp_path)],
                             capture_output=True, text=True, timeout=600,
                             env={**os.environ, "PYTHONHASHSEED": seed})
        assert out.returncode == 0, out.stderr
        docs.append(json.loads(out.stdout))
    assert docs[0]["results"] == docs[1]["results"]
    assert docs[0]["rlimit_spent"] == docs[1]["rlimit_spent"]


def test_a_small_budget_is_unknown_never_proved(tmp_path):
    run = prove(rulespec.load("tic_tac_toe"), trace_dir=tmp_path, rlimit=1000,
                property_names=["marks_alternate"], depth=2)
    steps = [r for r in run.results if r.checker == "z3-step"]
    assert steps and all(r.status == UNKNOWN for r in steps)
    assert "resource units" in steps[0].detail


def test_the_safety_limit_stops_the_run_and_says_so(tmp_path):
    run = prove(rulespec.load("tic_tac_toe"), trace_dir=tmp_path, workers=2, timeout=0.001)
    assert run.stopped and "safety limit" in run.stopped
    assert PROVED not in {r.status for r in run.results if r.checker == "z3-step"}
    assert any("safety limit" in r.detail for r in run.results if r.status == UNKNOWN)


def _a_query(model, smt):
    import z3
    solver = z3.Solver()
    x = z3.Int("x")
    solver.add(x * x == 2)
    return str(solver.check())


def test_jobs_stopped_early_still_count_the_units_of_those_that_finished():
    """At the safety limit the run stops; what the finished jobs spent is still spent."""
    from rulespec.check.jobs import Jobs
    with Jobs(rulespec.load("tic_tac_toe"), workers=1) as jobs:
        jobs.submit("one query", _a_query)
        assert jobs.rlimit == 0        # done here at once, not yet waited for
        jobs.stop()
        assert jobs.rlimit > 0 and list(jobs.units) == ["one query"]


def test_the_safety_limit_does_not_wait_for_the_jobs_still_running(tmp_path):
    # Hawaii's step jobs run for minutes: at the limit the workers are killed, not awaited
    # (a hang detector, like the Ctrl-C tests: the bound is far above the expected time)
    p = subprocess.Popen([sys.executable, "-m", "rulespec.cli", "prove", "hawaii", "--workers",
                          "2", "--timeout", "2", "--quiet", "--trace-dir", str(tmp_path)],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        out, err = p.communicate(timeout=240)
    finally:
        p.kill()
    assert "safety limit" in out + err
    assert p.returncode in (1, 3), err


def test_the_same_verdicts_and_work_beside_a_cpu_bound_process(tmp_path):
    # budgets are counted (resource units), so a busy machine changes the time, never
    # the verdicts or the work; a wall-clock budget would turn proofs into UNKNOWN here
    game = rulespec.load("tests/fixtures/nim")
    idle = prove(game, trace_dir=tmp_path, workers=2)
    burner = subprocess.Popen([sys.executable, "-c", "while True: pass"])
    try:
        busy = prove(game, trace_dir=tmp_path, workers=2)
    finally:
        burner.kill()
        burner.wait()
    assert [r.to_json() for r in idle.results] == [r.to_json() for r in busy.results]
    assert idle.rlimit == busy.rlimit > 0


@pytest.mark.slow
def test_connect_four_is_proved_and_exits_0(tmp_path):
    out = subprocess.run([sys.executable, "-m", "rulespec.cli", "prove", "connect_four",
                          "--json", "-q", "--trace-dir", str(tmp_path)],
                         capture_output=True, text=True, timeout=1800)
    assert out.returncode == 0, out.stdout[-2000:] + out.stderr
    doc = json.loads(out.stdout)
    assert {r["status"] for r in doc["results"]} == {PROVED}
    assert not any(r["checker"] == "z3-bmc" for r in doc["results"])  # induction suffices


def _frozen_objects(model, smt):
    return gc.get_freeze_count()


def test_a_job_runs_with_the_heap_before_it_frozen_and_leaves_the_collector_as_it_was():
    # the collection after a job looks only at what the job made: a report's heap (every
    # reading it compiled) took a tenth of a CPU second to collect, twice per job
    from rulespec.check.jobs import run_job
    frozen, units = run_job(rulespec.load("tic_tac_toe"), _frozen_objects, ())
    assert frozen > 1000 and units > 0
    assert gc.get_freeze_count() == 0 and gc.isenabled()
