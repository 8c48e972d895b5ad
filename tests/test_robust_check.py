"""The checkers survive the bugs they hunt and never lose a result (issue 9, items 4 and 5)."""

from __future__ import annotations

import io
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import rulespec
from rulespec.check.progress import Progress
from rulespec.check.results import PASSED, VIOLATED
from rulespec.check.runner import HYPOTHESIS, RANDOM, check_game
from rulespec.cli import main
from rulespec.runtime.registry import models_dir

#: SKIPPED on a game whose fields every player sees (nothing hidden to check)
PERFECT_INFO = "legal_actions_follow_observation"

NIM = "tests/fixtures/nim"
NIM_BUG = "tests/fixtures/nim_unbounded"
HAWAII_BUG = ("implies(fruit_feet, all_of(feet_due >= 1,\n"
              "                                       fruit[me] >= feet_due + "
              "if_(fruit_shells, shell_due, 0))),")


def run(capsys, *argv):
    with pytest.raises(SystemExit) as done:
        main(list(argv))
    cap = capsys.readouterr()
    return done.value.code, cap.out, cap.err


@pytest.mark.parametrize("mode", [HYPOTHESIS, RANDOM])
def test_an_out_of_range_field_is_violated_with_a_one_step_trace_not_a_crash(mode, tmp_path):
    results = {r.property: r for r in check_game(rulespec.load(NIM_BUG), examples=100,
                                                 mode=mode, trace_dir=tmp_path)}
    bounds = results["fields_within_bounds"]
    assert bounds.status == VIOLATED and "heaps[0]" in bounds.detail
    # the JSON round trip of that state raises inside the property: reported on it
    assert results["state_json_round_trip"].status == VIOLATED
    detail = results["state_json_round_trip"].detail
    assert detail.startswith("raised StateError: ") and "field 'heaps'" in detail, detail
    # the shortest way out of range: one move takes more than heap 0 holds
    assert len(bounds.trace) == 1 and bounds.trace[0] in {"take 4 from 0", "take 5 from 0"}
    # everything else still gets its verdict
    assert results["counters_are_conserved"].status == PASSED
    assert results["winners_are_total"].status == PASSED


@pytest.mark.parametrize("extra", [[], ["--random"], ["--workers", "2"]])
def test_check_json_of_the_planted_bug_is_valid_with_exit_1(capsys, tmp_path, extra):
    code, out, err = run(capsys, "check", NIM_BUG, "--json", "--quiet", "--trace-dir",
                         str(tmp_path), *extra)
    assert code == 1
    assert "Traceback" not in out + err
    doc = json.loads(out)
    bad = {r["property"]: r for r in doc["results"] if r["status"] == VIOLATED}
    assert {"fields_within_bounds", "state_json_round_trip"} <= set(bad)
    assert Path(bad["fields_within_bounds"]["trace_path"]).is_file()


def test_the_correct_nim_passes(tmp_path):
    results = check_game(rulespec.load(NIM), examples=100, trace_dir=tmp_path)
    assert {r.status for r in results if r.property != PERFECT_INFO} == {PASSED}


def test_a_property_that_raises_is_violated_and_the_others_go_on(tmp_path):
    from rulespec.check.property import state_property
    from rulespec.check.walk import play_checked, Violation
    model = rulespec.load("tic_tac_toe")

    @state_property("explodes_on_the_third_mark", source="test")
    def explodes(m, s):
        if s["moves"] == 3:
            raise ZeroDivisionError("boom")
        return None
    with pytest.raises(Violation) as v:
        play_checked(model, 2, lambda s, legal: 0, [explodes])
    assert v.value.property == "explodes_on_the_third_mark"
    assert v.value.message == "raised ZeroDivisionError: boom"
    assert len(v.value.actions) == 3


def test_a_rule_error_is_reported_once_and_the_search_goes_on(tmp_path):
    game = rulespec.load("tests/fixtures/broken_specs/index_out_of_range.py")
    results = check_game(game, examples=50, trace_dir=tmp_path)
    assert [r.property for r in results].count("rules_evaluate_without_error") == 1
    assert all(r.status in (PASSED, VIOLATED) for r in results if r.property != PERFECT_INFO)


def test_shrinking_is_bounded_by_a_count_and_says_so(tmp_path):
    prop = ["terminates_within_declared_bound"]  # Hypothesis needs many tries to shrink it
    out = io.StringIO()
    with Progress("checking", stream=out, interval=0.0, live=False) as progress:
        (cut,) = check_game(rulespec.load(NIM_BUG), property_names=prop, examples=100,
                            trace_dir=tmp_path, progress=progress, shrink_budget=2)
    assert cut.status == VIOLATED
    assert "shrinking stopped after 2 tries" in cut.detail
    assert "shrinking terminates_within_declared_bound" in out.getvalue()
    (again,) = check_game(rulespec.load(NIM_BUG), property_names=prop, examples=100,
                          trace_dir=tmp_path, shrink_budget=2)
    assert again.trace == cut.trace  # a count, not a clock: the same trace every time
    (full,) = check_game(rulespec.load(NIM_BUG), property_names=prop, examples=100,
                         trace_dir=tmp_path)
    assert "shrinking stopped" not in full.detail
    assert full.trace != cut.trace and full.trace[0] == "take 1 from 0"


def test_an_output_folder_that_cannot_be_one_is_refused_before_any_work(capsys, tmp_path):
    """Issue 26: a bad --trace-dir / --out-dir is one line and exit 2 at the start (the
    verdicts surviving a write that fails later: tests/test_outputs.py)."""
    blocker = tmp_path / "a_file"
    blocker.write_text("not a folder")
    for argv in (["check", NIM_BUG, "--json", "-q", "--trace-dir", str(blocker / "traces")],
                 ["check", NIM_BUG, "-q", "--trace-dir", str(blocker)],
                 ["diff", "tests/fixtures/two_readings", "--interpretation", "step_size=one",
                  "--against", "step_size=two", "--json", "-q", "--out-dir", str(blocker / "x")],
                 ["scenario", "tic_tac_toe", "-q", "--trace-dir", str(blocker / "x")]):
        code, out, err = run(capsys, *argv)
        assert code == 2, (argv, out, err)
        assert out == "" and err.count("\n") == 1 and str(blocker) in err, (argv, err)


def _hawaii_copy(folder: Path) -> Path:
    """A copy of the bundled Hawaii (same game name) with a planted payment bug."""
    shutil.copytree(models_dir() / "hawaii", folder)
    spec = folder / "spec.py"
    text = spec.read_text(encoding="utf-8")
    assert HAWAII_BUG in text
    spec.write_text(text.replace(HAWAII_BUG, "implies(fruit_feet, feet_due >= 1),"),
                    encoding="utf-8")
    return folder


@pytest.mark.slow
def test_a_modified_copy_of_hawaii_keeps_its_traces_and_replay_checks_the_copy(tmp_path):
    copy = _hawaii_copy(tmp_path / "my_hawaii")
    traces = tmp_path / "traces"
    cli = [sys.executable, "-m", "rulespec.cli"]
    done = subprocess.run([*cli, "check", str(copy), "--random", "--json", "-q",
                           "--property", "fields_within_bounds", "--property",
                           "state_json_round_trip", "--trace-dir", str(traces)],
                          capture_output=True, text=True, cwd=tmp_path)
    assert done.returncode == 1, done.stderr
    assert "Traceback" not in done.stderr
    results = {r["property"]: r for r in json.loads(done.stdout)["results"]}
    assert {r["status"] for r in results.values()} == {VIOLATED}
    assert "fruit" in results["fields_within_bounds"]["detail"]
    trace = json.loads(Path(results["fields_within_bounds"]["trace_path"]).read_text())
    assert trace["game"] == "hawaii"
    assert trace["spec_path"] == str((copy / "spec.py").resolve())
    assert len(trace["spec_sha256"]) == 64
    # replay from another folder checks the copy, not the bundled Hawaii
    path = results["fields_within_bounds"]["trace_path"]
    elsewhere = subprocess.run([*cli, "replay", path, "-q"], capture_output=True, text=True,
                               cwd="/")
    assert elsewhere.returncode == 1, elsewhere.stdout + elsewhere.stderr
    assert "VIOLATED fields_within_bounds" in elsewhere.stdout
    # change the copy: the trace no longer names the spec it was made with
    (copy / "spec.py").write_text((copy / "spec.py").read_text() + "\n# edited\n")
    changed = subprocess.run([*cli, "replay", path], capture_output=True, text=True)
    assert changed.returncode == 2
    assert "has changed since this trace was written" in changed.stderr
    assert "Traceback" not in changed.stderr


def test_a_bundled_games_trace_names_only_the_game(tmp_path):
    from rulespec.runtime.trace import Trace, spec_identity
    model = rulespec.load("tic_tac_toe")
    assert spec_identity(model) == (None, None)
    by_path = rulespec.load(str(models_dir() / "tic_tac_toe" / "spec.py"))
    assert spec_identity(by_path) == (None, None)  # the bundled file itself, by its path
    nim = rulespec.load(NIM)
    path, sha = spec_identity(nim)
    assert path == str(Path(NIM, "spec.py").resolve()) and len(sha) == 64
    assert Trace.of(nim, 2, ["take 1 from 0"]).to_json()["spec_path"] == path
