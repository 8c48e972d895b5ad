"""A horizon: a game the rules do not bound is cut there, reported truncated, never won.

The fixture (tests/fixtures/horizon_toy) is tug of war with resting allowed: both players
may rest for ever. Declaring ``max_steps`` instead would be a claim the checker refutes;
with a horizon, termination is SKIPPED with the reason and cut games are counted.
"""

from __future__ import annotations

import json

import pytest

import rulespec
from rulespec.check.results import PASSED, SKIPPED, VIOLATED
from rulespec.check.runner import RANDOM, check_game
from rulespec.cli import main
from rulespec.runtime.play import play_random

TOY = "tests/fixtures/horizon_toy"


def run(capsys, *argv):
    with pytest.raises(SystemExit) as done:
        main(list(argv))
    cap = capsys.readouterr()
    return done.value.code, cap.out, cap.err


def test_termination_is_skipped_with_the_reason_and_cut_games_are_counted(tmp_path):
    game = rulespec.load(TOY)
    results = {r.property: r for r in check_game(game, examples=60, trace_dir=tmp_path)}
    term = results["terminates_within_declared_bound"]
    assert term.status == SKIPPED
    assert "rest for ever" in term.detail and "horizon of 12 steps" in term.detail
    assert VIOLATED not in {r.status for r in results.values()}
    passed = [r for r in results.values() if r.status == PASSED]
    assert passed and all(r.games == passed[0].games for r in passed)
    assert 0 < passed[0].truncated < passed[0].games
    assert f"{passed[0].truncated}/{passed[0].games} games truncated at 12 steps" in passed[0].detail


def test_random_playouts_count_truncated_games_too(tmp_path):
    game = rulespec.load(TOY)
    results = check_game(game, examples=40, mode=RANDOM, trace_dir=tmp_path)
    counted = [r for r in results if r.games is not None]
    assert counted and counted[0].games == 40 and 0 < counted[0].truncated < 40


def test_check_shows_truncated_games_in_text_and_json(capsys, tmp_path):
    code, out, _ = run(capsys, "check", TOY, "--examples", "30", "--trace-dir", str(tmp_path))
    assert code == 0
    assert "truncated: " in out and "cut at the horizon (12 steps)" in out
    assert "SKIPPED" in out
    code, out, _ = run(capsys, "check", TOY, "--examples", "30", "--json",
                       "--trace-dir", str(tmp_path))
    doc = json.loads(out)
    assert code == 0 and doc["horizon"] == 12 and 0 < doc["truncated"] <= doc["games"]
    term = next(r for r in doc["results"] if r["property"] == "terminates_within_declared_bound")
    assert term["status"] == "SKIPPED"


def test_a_truncated_game_has_no_winner(capsys):
    game = rulespec.load(TOY)
    outcomes = []
    for seed in range(10):
        final, steps = play_random(game, 2, seed)
        over = game.is_terminal(final)
        assert len(steps) <= 12 and (over or len(steps) == 12)
        outcomes.append(over)
        code, out, _ = run(capsys, "play", TOY, "--seed", str(seed), "--json")
        doc = json.loads(out)
        assert doc["truncated"] is (not over)
        assert doc["winners"] == ([] if not over else game.winners(final))
    assert True in outcomes and False in outcomes  # both kinds occur in ten seeded games


def test_the_same_game_with_max_steps_fails_termination(tmp_path):
    text = (rulespec.runtime.registry.spec_path(TOY).read_text()
            .replace('game.horizon(12, reason="both players may rest for ever: no rule ends '
                     'the game")', 'game.max_steps(12, source=RULES)'))
    assert "max_steps(12" in text
    (tmp_path / "spec.py").write_text(text)
    game = rulespec.load(tmp_path / "spec.py")
    results = {r.property: r for r in check_game(game, examples=60, trace_dir=tmp_path)}
    assert results["terminates_within_declared_bound"].status == VIOLATED
    assert all(r.games is None for r in results.values())  # no horizon: nothing truncated
