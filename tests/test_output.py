"""Human output fits 100 columns and summarises long lists; --json has everything (issue 9,
item 7)."""

from __future__ import annotations

import json
import re

import pytest
from rich.cells import cell_len

from rulespec.cli import main
from rulespec.console import wrap
from rulespec.runtime.registry import available_games


def run(capsys, *argv):
    with pytest.raises(SystemExit) as done:
        main(list(argv))
    cap = capsys.readouterr()
    return done.value.code, cap.out, cap.err


def widest(text: str) -> int:
    return max((cell_len(line) for line in text.splitlines()), default=0)


@pytest.mark.parametrize("argv", [
    ["list"],
    ["info", "hawaii"],
    ["info", "hawaii", "--all"],
    ["info", "hawaii", "--assumptions"],
    ["info", "hawaii", "--action", "fish", "--action", "buy_boat"],
    ["info", "tic_tac_toe", "--all"],
    ["play", "hawaii", "--players", "4", "--seed", "2"],
    ["check", "tests/fixtures/nim_unbounded", "-q"],
    ["check", "tests/fixtures/nim_unbounded", "-q", "--verbose"],
    ["scenario", "hawaii", "-q", "--verbose"],
    ["diff", "hawaii", "--interpretation", "beach_return=free", "--against",
     "beach_return=forbidden", "--games", "3", "-q", "--verbose"],
], ids=lambda a: " ".join(a[:3]))
def test_human_output_fits_100_columns(capsys, tmp_path, argv):
    code, out, err = run(capsys, *argv, *(["--trace-dir", str(tmp_path)]
                                         if argv[0] in ("check", "scenario") else []),
                         *(["--out-dir", str(tmp_path)] if argv[0] == "diff" else []))
    assert code in (0, 1), err
    assert out.strip()
    assert widest(out) <= 100


def test_info_is_a_one_screen_overview_with_details_on_request(capsys):
    _, overview, _ = run(capsys, "info", "hawaii")
    lines = overview.splitlines()
    # one screen: the interpretation points, the rulesets and the catalogues are summarised
    # as the properties are (their counts and the first few), the rest under --all
    assert len(lines) <= 61
    assert "Actions (31)" in overview and "Assumptions (14)" in overview
    assert "Components (5)" in overview and "Interpretation points (14;" in overview
    flat = " ".join(overview.split())
    assert "(9 more; --all lists them)" in flat and "pele_floor" not in flat
    assert "round_tiles (5 entries); --assumptions lists them" in flat
    assert "rulesets: rulebook (2 points), bga (3 points)" in flat
    # one line per action, named in full, and a family of actions one entry
    for action in ("lay_place(", "fish(", "pass_turn(", "buy_… (21 actions: buy_shell_hut"):
        assert sum(line.lstrip().startswith(action) for line in lines) == 1
    assert not any(line.lstrip().startswith("buy_foot_hut(") for line in lines)
    assert "more; --all lists them" in " ".join(overview.split())  # wherever the line wraps
    _, detail, _ = run(capsys, "info", "hawaii", "--action", "fish")
    assert "requires: the boat(s) have not been used this round" in detail
    assert "means:" in detail
    _, assumptions, _ = run(capsys, "info", "hawaii", "--assumptions")
    assert "why: " in assumptions and "origin: " in assumptions
    _, everything, _ = run(capsys, "info", "hawaii", "--all")
    assert len(everything.splitlines()) > 10 * len(lines)
    assert "pele_floor" in everything and "round_tiles (components.toml)" in everything


def test_check_tables_never_cut_property_names(capsys, tmp_path):
    from rulespec import load
    from rulespec.check.property import all_properties
    _, out, _ = run(capsys, "check", "tests/fixtures/nim_unbounded", "-q", "--trace-dir",
                    str(tmp_path))
    for p in all_properties(load("tests/fixtures/nim_unbounded")):
        assert f" {p.name} " in out


def test_a_long_counterexample_is_summarised_and_verbose_shows_it_all(capsys, tmp_path):
    args = ["check", "tests/fixtures/nim_unbounded", "-q", "--property",
            "terminates_within_declared_bound", "--trace-dir", str(tmp_path)]
    _, short, _ = run(capsys, *args)
    _, full, _ = run(capsys, *args, "--verbose")
    assert "more; --verbose or the trace has them all" in short
    assert "more;" not in full
    trace = json.loads((tmp_path / "nim_unbounded-terminates_within_declared_bound.json")
                       .read_text())
    assert len(trace["actions"]) == 13


def test_scenario_json_reports_results_not_states_unless_asked(capsys, tmp_path):
    _, out, _ = run(capsys, "scenario", "hawaii", "--json", "-q", "--trace-dir",
                    str(tmp_path))
    doc = json.loads(out)
    scenarios = [s for f in doc["files"] for s in f["scenarios"]]
    assert len(scenarios) >= 50 and doc["failed"] == 0
    assert all("state" not in s and "start" not in s for s in scenarios)
    assert len(out) < 400_000
    _, out, _ = run(capsys, "scenario", "tic_tac_toe", "--json", "--states", "-q",
                    "--trace-dir", str(tmp_path))
    (first, *_) = json.loads(out)["files"][0]["scenarios"]
    assert first["state"]["game"] == "tic_tac_toe"


def test_scenario_output_lists_failures_and_counts_passes(capsys, tmp_path):
    from rulespec.runtime.registry import models_dir
    _, out, _ = run(capsys, "scenario", "hawaii", "-q", "--trace-dir", str(tmp_path))
    files = len(list((models_dir() / "hawaii" / "scenarios").glob("*.toml")))
    assert len(out.splitlines()) <= files + 1  # one line per file and the total
    assert re.fullmatch(r"\d+ passed, 0 failed", out.splitlines()[-1])


def test_wrap_counts_wide_characters_as_two_columns():
    text = "requires: 「用意されているタイルの数には上限があります」 " * 4
    lines = wrap(text, 40, indent=2, hang=4)
    assert all(cell_len(line) <= 40 for line in lines)
    assert "".join(line.strip() for line in lines).replace(" ", "") == text.replace(" ", "")


@pytest.mark.parametrize("game", available_games())
def test_every_bundled_games_overview_fits_one_screen(capsys, game):
    _, overview, _ = run(capsys, "info", game)
    assert len(overview.splitlines()) <= 61
