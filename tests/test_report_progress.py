"""`rulespec report` shows each game's phase, its count and what is left (issue 25, item 6),
from worker processes too; lines fit 100 columns."""

from __future__ import annotations

import io
import re

from rulespec.report.budget import SMOKE
from rulespec.report.progress import WIDTH, GameProgress, ReportProgress, left_text
from rulespec.report.run import report_games


def test_what_is_left_comes_from_the_count_done_and_to_do():
    assert left_text(done=3, total=4, elapsed=30.0) == "about 10 s left"
    assert left_text(done=1, total=10, elapsed=60.0) == "about 9 min left"
    # nothing counted yet, no total, or all done: no estimate rather than a guess
    assert left_text(done=0, total=4, elapsed=30.0) == ""
    assert left_text(done=2, total=None, elapsed=30.0) == ""
    assert left_text(done=4, total=4, elapsed=30.0) == ""


def test_a_line_names_the_game_its_phase_and_its_count_within_100_columns():
    stream = io.StringIO()
    with ReportProgress(["hawaii"], interval=0.0, stream=stream, live=False) as shown:
        game = GameProgress("hawaii", shown.update)
        game.phase("prove", 5, 5)
        game.set_total(20)
        game.advance(5)
        game.note("done: steps (5 players, phase=3): buy_shell_hut and 23 more; " * 3)
        shown.finished("hawaii")
    lines = stream.getvalue().splitlines()
    assert lines[0] == "rulespec: reporting 1 game(s); a line every 0 s"
    last = [line for line in lines if "prove" in line][-1]
    assert re.match(r"rulespec: hawaii: prove \(5/5\): 5/20 jobs, about \d+ s left, done: ",
                    last), last
    assert max(map(len, lines)) <= WIDTH
    assert lines[-1].startswith("rulespec: hawaii done (1/1 games, ")


def test_quiet_shows_nothing():
    stream = io.StringIO()
    with ReportProgress(["nim"], quiet=True, interval=0.0, stream=stream, live=False) as shown:
        GameProgress("nim", shown.update).phase("check", 1, 4)
        shown.finished("nim")
    assert stream.getvalue() == ""


def test_games_reported_in_workers_show_every_phase_with_its_count(tmp_path):
    """Two games in two worker processes: their phases reach the parent's display, in
    order, the diff phase counts the options compared, and each game's end is shown."""
    stream = io.StringIO()
    games = ["tic_tac_toe", "tests/fixtures/two_readings"]
    with ReportProgress(games, interval=0.0, stream=stream, live=False) as shown:
        seen = []
        update = shown.update
        shown.update = lambda event: (seen.append(event), update(event))  # type: ignore
        done = report_games(games, SMOKE, str(tmp_path), workers=2, progress=shown)
    assert [d.get("error") for d in done] == [None, None]
    for game in games:  # by the name each was given
        phases = [e[1:4] for e in seen if e[0] == game]
        assert list(dict.fromkeys(phases)) == [("check", 1, 4), ("diff", 2, 4),
                                               ("scenarios", 3, 4), ("coverage", 4, 4)]
    # two_readings has one point with one other option: one option to compare, compared
    diffs = [e for e in seen if e[0] == games[1] and e[1] == "diff"]
    assert diffs[-1][4:6] == (1, 1)
    checks = [e for e in seen if e[0] == "tic_tac_toe" and e[1] == "check"]
    assert checks[-1][4] >= SMOKE.min_examples and checks[-1][5] is not None
    text = stream.getvalue()
    assert "rulespec: tic_tac_toe done" in text and f"rulespec: {games[1]} done" in text
    assert "(2/2 games" in text


def test_a_count_past_its_total_raises_the_total():
    """Hypothesis may call a test more often than its example budget: the command's
    progress line says 28/28, never 28/20."""
    import io

    from rulespec.check.progress import Progress
    stream = io.StringIO()
    with Progress("checking nim", stream=stream) as p:
        p.set_total(2)
        p.advance(3)
        assert p.line().startswith("rulespec: checking nim: 3/3")


def test_games_side_by_side_share_the_cores_among_their_proofs(tmp_path, monkeypatch):
    """Two games at a time on two cores: each game's proofs run in one process, not in
    the budget's two (four processes on two cores only share them); the report records
    the number it used. One game alone keeps the budget's."""
    import json

    import attrs

    import rulespec.report.run as run
    monkeypatch.setattr(run, "_cores", lambda: 2)
    budget = attrs.evolve(SMOKE, workers=2)
    games = ["tic_tac_toe", "tests/fixtures/two_readings"]
    done = report_games(games, budget, str(tmp_path / "side"), workers=2)
    assert [d.get("error") for d in done] == [None, None]
    for name in ("tic_tac_toe", done[1]["game"]):
        doc = json.loads((tmp_path / "side" / f"{name}.json").read_text())
        assert doc["budget"]["workers"] == 1
    report_games(games[:1], budget, str(tmp_path / "alone"), workers=2)
    doc = json.loads((tmp_path / "alone" / "tic_tac_toe.json").read_text())
    assert doc["budget"]["workers"] == 2
