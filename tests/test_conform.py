"""``rulespec conform`` (issue 16, item 3): an outside implementation is played in lockstep
with the spec; a planted off-by-one is caught, shrunk to the fewest steps and told in rule
terms; a correct implementation passes."""

from __future__ import annotations

import json

import pytest

import rulespec
from rulespec.check.conform import (ConformError, Disagreement, conform, load_factory,
                                    play_lockstep)
from rulespec.check.results import PASSED, VIOLATED
from rulespec.cli import main

IMPL = "tests/fixtures/conform/connect_four_impl.py"


def run(capsys, *args):
    with pytest.raises(SystemExit) as done:
        main(list(args))
    out, err = capsys.readouterr()
    return done.value.code, out, err


def test_a_correct_implementation_conforms():
    report = conform(rulespec.load("connect_four"), load_factory(f"{IMPL}:connect_four"),
                     examples=60)
    assert report.status == PASSED
    assert report.games >= 60 and report.disagreement is None


def test_the_planted_off_by_one_is_caught_and_shrunk_to_a_full_column(tmp_path):
    """A full column (6 pieces) still takes a seventh piece in the implementation: the
    smallest witness is six drops into the first column."""
    report = conform(rulespec.load("connect_four"),
                     load_factory(f"{IMPL}:connect_four_off_by_one"), examples=100,
                     trace_dir=tmp_path)
    assert report.status == VIOLATED
    found = report.disagreement
    assert found.actions == ("drop(0)",) * 6
    assert found.kind == "legal actions"
    assert found.message == (
        "after step 6 (drop(0)): the implementation allows drop(0), which the spec forbids: "
        "requires: the column is not full — but height[0] is 6 "
        "[Connect Four common rules (OpenSpiel connect_four.cc): "
        "LegalActions: a column whose top cell is empty]")
    saved = json.loads((tmp_path / "connect_four-conform.json").read_text())
    assert saved["actions"] == ["drop(0)"] * 6
    assert saved["violates"]["property"].startswith("conforms:")


def test_random_mode_catches_it_too_without_shrinking():
    report = conform(rulespec.load("connect_four"),
                     load_factory(f"{IMPL}:connect_four_off_by_one"), examples=200,
                     mode="random")
    assert report.status == VIOLATED
    found = report.disagreement
    assert "the column is not full" in found.message
    from rulespec.check.walk import replay
    game = rulespec.load("connect_four")
    final, _ = replay(game, 2, found.actions)
    column = int(found.message.split("allows drop(")[1][0])
    assert final["height"][column] == 6   # the column the implementation overfills is full


class _Broken:
    """An adapter whose implementation fails in ways conform must report, not crash on."""

    def __init__(self, players, *, raise_on_apply=False, wrong_player=False, snapshot=None):
        self.inner = load_factory(f"{IMPL}:connect_four")(players)
        self.raise_on_apply = raise_on_apply
        self.wrong_player = wrong_player
        self.snap = snapshot

    def legal_actions(self):
        return self.inner.legal_actions()

    def apply(self, action):
        if self.raise_on_apply and action == "drop(3)":
            raise RuntimeError("column 3 is jammed")
        self.inner.apply(action)

    def current_player(self):
        p = self.inner.current_player()
        return 1 - p if self.wrong_player and p != "terminal" else p

    def returns(self):
        return self.inner.returns()

    def snapshot(self):
        return self.snap or {}


def test_an_implementation_that_raises_is_a_disagreement():
    game = rulespec.load("connect_four")
    report = conform(game, lambda n: _Broken(n, raise_on_apply=True), examples=50)
    assert report.status == VIOLATED
    assert report.disagreement.kind == "raised"
    assert report.disagreement.actions == ("drop(3)",)
    assert "RuntimeError: column 3 is jammed on drop(3), which the spec allows (rule drop" \
        in report.disagreement.message


def test_the_wrong_player_to_move_is_found_at_setup():
    report = conform(rulespec.load("connect_four"), lambda n: _Broken(n, wrong_player=True),
                     examples=10)
    assert report.disagreement.kind == "player" and report.disagreement.actions == ()
    assert "by the spec player 0 moves" in report.disagreement.message


def test_a_snapshot_naming_no_field_is_a_bad_adapter():
    with pytest.raises(ConformError, match="names 'heights'"):
        play_lockstep(rulespec.load("connect_four"),
                      lambda n: _Broken(n, snapshot={"heights": [0] * 7}), 2,
                      lambda s, legal: 0)


def test_a_wrong_snapshot_names_the_rule_just_applied():
    with pytest.raises(Disagreement) as found:
        play_lockstep(rulespec.load("connect_four"),
                      lambda n: _Broken(n, snapshot={"moves": 0}), 2, lambda s, legal: 0)
    assert found.value.kind == "snapshot"
    assert found.value.message.startswith("after step 1 (drop(0)): moves is 1 by the spec, "
                                          "0 in the implementation (rule drop [")


def test_the_command_reports_the_minimal_trace(capsys, tmp_path):
    code, out, _ = run(capsys, "conform", "connect_four", "--impl",
                       f"{IMPL}:connect_four_off_by_one", "--trace-dir", str(tmp_path), "-q")
    assert code == 1
    text = " ".join(out.split())
    assert "VIOLATED: legal actions: after step 6 (drop(0))" in text
    assert "minimal trace (2 players, 6 step(s)): " + ", ".join(["drop(0)"] * 6) in text
    code, out, _ = run(capsys, "conform", "connect_four", "--impl", f"{IMPL}:connect_four",
                       "--examples", "20", "--json", "-q")
    doc = json.loads(out)
    assert code == 0 and doc["status"] == "PASSED" and doc["disagreement"] is None


@pytest.mark.parametrize("ref, says", [
    ("no_colon", "must read module:factory"),
    ("no_such_module_xyz:f", "cannot import no_such_module_xyz"),
    (f"{IMPL}:nope", "has no factory 'nope'"),
    ("missing/impl.py:f", "no file missing/impl.py"),
])
def test_a_bad_impl_is_one_line_and_exit_2(capsys, ref, says):
    code, _, err = run(capsys, "conform", "connect_four", "--impl", ref)
    assert code == 2
    assert says in err and len(err.strip().splitlines()) == 1
