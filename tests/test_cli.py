"""The CLI contract: output, exit codes, and one clear line for bad input."""

import json
import subprocess
import sys

import pytest

from rulespec.cli import main


def run(capsys, *argv):
    with pytest.raises(SystemExit) as done:
        main(list(argv))
    cap = capsys.readouterr()
    return done.value.code, cap.out, cap.err


def test_list_json_names_the_bundled_games(capsys):
    code, out, _ = run(capsys, "list", "--json")
    assert code == 0
    assert "tic_tac_toe" in {g["name"] for g in json.loads(out)}


def test_info_json_lists_interpretation_points_and_properties(capsys):
    code, out, _ = run(capsys, "info", "tests/fixtures/two_readings", "--json")
    assert code == 0
    doc = json.loads(out)
    (point,) = doc["interpretations"]
    assert point["name"] == "step_size"
    assert point["default"] == "one"
    assert [o["name"] for o in point["options"]] == ["one", "two"]
    assert "legal_actions_nonempty_unless_terminal" in {p["name"] for p in doc["properties"]}


def test_play_is_deterministic_for_a_seed(capsys):
    first = run(capsys, "play", "tic_tac_toe", "--seed", "5", "--json")
    second = run(capsys, "play", "tic_tac_toe", "--seed", "5", "--json")
    assert first == second
    doc = json.loads(first[1])
    assert doc["terminal"] is True and 5 <= len(doc["steps"]) <= 9


def test_check_passes_on_tic_tac_toe(capsys, tmp_path):
    code, out, _ = run(capsys, "check", "tic_tac_toe", "--examples", "30", "--json",
                       "--trace-dir", str(tmp_path))
    assert code == 0
    results = json.loads(out)["results"]
    assert {r["status"] for r in results} == {"PASSED", "SKIPPED"}
    assert [r["property"] for r in results if r["status"] == "SKIPPED"] == [
        "legal_actions_follow_observation"]  # perfect information


def test_check_catches_the_planted_bug_and_replay_reproduces_it(capsys, tmp_path):
    code, out, _ = run(capsys, "check", "tests/fixtures/occupied_cell_tic_tac_toe",
                       "--trace-dir", str(tmp_path))
    assert code == 1
    assert "VIOLATED" in out and "cell 0, cell 0" in out
    trace = tmp_path / "occupied_cell_tic_tac_toe-cells_filled_one_per_move.json"
    assert len(json.loads(trace.read_text())["actions"]) <= 3
    code, out, _ = run(capsys, "replay", str(trace))
    assert code == 1
    assert "VIOLATED cells_filled_one_per_move" in out


@pytest.mark.parametrize("argv, needle", [
    (["check", "no_such_game"], "unknown game 'no_such_game'"),
    (["check", "tic_tac_toe", "--examples", "many"], "'--examples'"),
    (["check", "tic_tac_toe", "--property", "nope"], "no property 'nope'"),
    (["check", "tic_tac_toe", "--players", "7"], "2-2 players"),
    (["play", "tic_tac_toe", "--interpretation", "x=y"], "no interpretation point 'x'"),
    (["play", "tic_tac_toe", "--interpretation", "nonsense"], "NAME=OPTION"),
    (["frobnicate"], "No such command"),
    (["replay", "/no/such/trace.json"], "no such trace file"),
    (["scenario", "/no/such/file.toml"], "/no/such/file.toml"),
])
def test_bad_input_is_one_line_and_exit_2(capsys, argv, needle):
    code, out, err = run(capsys, *argv)
    assert code == 2
    assert err.startswith("rulespec: error: ")
    assert needle in err
    assert err.count("\n") == 1


def test_malformed_trace_and_broken_spec_exit_2(capsys, tmp_path):
    bad = tmp_path / "t.json"
    bad.write_text('{"game": "tic_tac_toe", "players": 2, "actions": ["mark(9,9)"]}')
    code, _, err = run(capsys, "replay", str(bad))
    assert code == 2 and "step 1" in err and err.count("\n") == 1
    spec = tmp_path / "broken.py"
    spec.write_text("from rulespec.spec import Game\ngame = Game('b', title='b', players=2, "
                    "source='s')\nx = game.field('x', int, source='s')\n")
    code, _, err = run(capsys, "check", str(spec))
    assert code == 2 and "broken.py:3" in err and "unbounded" in err


def test_no_traceback_from_the_installed_entry_point():
    done = subprocess.run([sys.executable, "-m", "rulespec.cli", "check", "nope"],
                          capture_output=True, text=True)
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    assert done.stderr.strip().splitlines() == [done.stderr.strip()]




def test_info_prints_sources_in_brackets_literally(capsys):
    """Regression: rich read "[source]" as markup and swallowed every cited source."""
    code, out, _ = run(capsys, "info", "tic_tac_toe", "--action", "mark")
    assert code == 0
    assert "requires: the cell is empty [tic-tac-toe common rules" in out


def test_scenario_takes_a_bundled_games_name_for_all_its_files(capsys, tmp_path):
    code, out, _ = run(capsys, "scenario", "tic_tac_toe", "--json", "--trace-dir",
                       str(tmp_path))
    assert code == 0
    files = json.loads(out)["files"]
    assert files and all("models/tic_tac_toe/scenarios/" in f["file"] for f in files)
    assert sum(len(f["scenarios"]) for f in files) >= 1
