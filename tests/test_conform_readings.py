"""``rulespec conform --readings`` (issue 31): which reading of each interpretation point an
implementation follows. Planted implementations that follow a non-default option -- Hex
in JavaScript on a 4x4 or 5x5 board, OpenSpiel's Crazy Eights (its ScoreUp penalty), a
Hawaii without the free return to the beach, a hand-written race following a ruleset or a
combination no ruleset names -- are each named, with the smallest situation excluding every
other option, and the games and states behind each verdict."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from rulespec.cli import main

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "tests" / "fixtures" / "conform"
RACE = str(FIXTURES / "race")
RACE_IMPL = str(FIXTURES / "race_impl.py")
needs_node = pytest.mark.skipif(
    shutil.which("node") is None,
    reason="NODE.JS IS MISSING: the JavaScript reference implementations are NOT tested "
           "(`make test` installs node; or apt-get install nodejs)")


def readings(capsys, game, *args):
    with pytest.raises(SystemExit) as done:
        main(["conform", str(game), "--readings", "--json", "-q", *map(str, args)])
    out, err = capsys.readouterr()
    return done.value.code, (json.loads(out) if out else None), err


def point(doc, name):
    return next(p for p in doc["points"] if p["point"] == name)


def option(p, name):
    return next(o for o in p["options"] if o["option"] == name)


@needs_node
@pytest.mark.parametrize("size", ["4", "5"])
def test_a_javascript_hex_on_another_board_is_named(capsys, size):
    code, doc, err = readings(capsys, "hex", "--exec",
                              f"node {FIXTURES / 'hex.js'} --size {size}", "--examples", "20")
    assert code == 0, err
    board = point(doc, "board_size")
    assert board["consistent"] == [size] and doc["status"] == "PASSED"
    assert doc["detail"] == f"follows board_size={size}"
    follows = option(board, size)
    assert follows["games"] >= 20 and follows["steps"] > follows["games"]
    for other in {"3", "4", "5"} - {size}:
        excluded = option(board, other)["excluded_by"]
        assert option(board, other)["status"] == "excluded"
        assert excluded["actions"] == [] and excluded["kind"] == "legal actions"  # at setup
        if int(other) < int(size):   # the smaller board forbids the cells it lacks
            assert "which the spec forbids: requires: the cell is on the board" \
                in excluded["message"]
        else:
            assert "the implementation does not allow" in excluded["message"]


def test_openspiel_crazy_eights_follows_its_code_penalty(capsys):
    """OpenSpiel's ScoreUp charges a card's index, not its face value: the end of a game
    excludes the header's reading (the smallest game found ends with cards in hand)."""
    pytest.importorskip("pyspiel")
    code, doc, err = readings(capsys, "crazy_eights", "--impl",
                              f"{ROOT / 'tests/test_openspiel_cards_and_maps.py'}:c8",
                              "--examples", "15")
    assert code == 0, err
    penalty = point(doc, "penalty")
    assert penalty["consistent"] == ["openspiel_code"]
    excluded = option(penalty, "face_value")["excluded_by"]
    assert excluded["kind"] == "returns"
    assert "the game is over; the spec scores" in excluded["message"]


def test_hawaii_without_the_free_beach_return_is_named(capsys):
    code, doc, err = readings(capsys, "hawaii", "--point", "beach_return", "--impl",
                              f"{FIXTURES / 'hawaii_online.py'}:no_free_return",
                              "--examples", "4", "--shrink-budget", "10", "--random")
    assert code == 0, err
    beach = point(doc, "beach_return")
    assert beach["consistent"] == ["forbidden"] and doc["rulesets"] == []
    excluded = option(beach, "free")
    assert excluded["status"] == "excluded" and excluded["excluded_by"]["actions"]
    assert doc["detail"] == "follows beach_return=forbidden"


@pytest.mark.parametrize("impl, consistent, base, label", [
    # the defaults: every point at its default
    ("printed", ("one", "six"), {}, "the defaults"),
    # a ruleset: the defaults excluded, the ruleset becomes the base of the points
    ("online", ("two", "eight"), {"step_size": "two", "goal": "eight"}, "ruleset online"),
    # one point changed: found alone, then the base for the others
    ("second_edition", ("one", "eight"), {"goal": "eight"}, "goal=eight"),
    # two points changed in a combination no ruleset names: found together
    ("far_online", ("two", "ten"), {"step_size": "two", "goal": "ten"},
     "step_size=two, goal=ten"),
])
def test_the_reading_of_a_hand_written_race_is_named(capsys, impl, consistent, base, label):
    code, doc, err = readings(capsys, RACE, "--impl", f"{RACE_IMPL}:{impl}",
                              "--examples", "30")
    assert code == 0, err
    assert [p["consistent"] for p in doc["points"]] == [[c] for c in consistent]
    assert {r["option"]: r["status"] for r in doc["rulesets"]} == {
        "online": "consistent" if impl == "online" else "excluded"}
    assert {k: v for k, v in doc["base"].items() if v not in ("one", "six")} == base
    assert doc["base_label"] == label
    for p in doc["points"]:
        for o in p["options"]:
            if o["status"] == "excluded":   # every exclusion is a game, shrunk
                assert o["excluded_by"]["actions"] and o["excluded_by"]["message"]
            else:
                assert o["games"] >= 30


def test_an_implementation_following_no_reading_is_said_so(capsys):
    code, doc, err = readings(capsys, RACE, "--impl", f"{RACE_IMPL}:three_steps",
                              "--examples", "20")
    assert code == 1 and doc["status"] == "VIOLATED"
    assert point(doc, "step_size")["consistent"] == []
    assert "follows no option of step_size" in doc["detail"]


def test_the_human_output_names_each_verdict(capsys):
    with pytest.raises(SystemExit) as done:
        main(["conform", RACE, "--readings", "--impl", f"{RACE_IMPL}:online", "-q",
              "--examples", "20"])
    out = " ".join(capsys.readouterr().out.split())
    assert done.value.code == 0
    assert "goal: Where does the race end? (other points: step_size=two)" in out
    assert "two: consistent (" in out and "one (default): excluded (" in out
    assert "smallest situation (2 players, 5 step(s)): advance, advance" in out
    assert "PASSED: follows step_size=two, goal=eight; consistent with ruleset online" in out


@pytest.mark.parametrize("args, says", [
    (["connect_four", "--readings", "--impl",
      f"{FIXTURES / 'connect_four_impl.py'}:connect_four"], "has no interpretation point"),
    ([RACE, "--readings", "--point", "speed", "--impl", f"{RACE_IMPL}:online"],
     "has no interpretation point 'speed'"),
    ([RACE, "--point", "goal", "--impl", f"{RACE_IMPL}:online"], "give --readings"),
])
def test_readings_refuses_what_it_cannot_answer(capsys, args, says):
    with pytest.raises(SystemExit) as done:
        main(["conform", *args])
    err = capsys.readouterr().err
    assert done.value.code == 2 and says in err and len(err.strip().splitlines()) == 1


def test_what_excluded_one_option_is_replayed_against_the_others(monkeypatch):
    """An option whose own games showed nothing is still excluded by a situation another
    option's games found: here goal=eight's games are made to find nothing (as a short run
    might), and the game that excludes goal=ten excludes it too."""
    import attrs

    import rulespec
    from rulespec.check import readings as module
    from rulespec.check.conform import load_factory
    from rulespec.check.results import PASSED
    real = module.conform

    def conform(model, driver, **kw):
        report = real(model, driver, **kw)
        if model.interpretation["goal"] == "eight":   # pretend its games found nothing
            report = attrs.evolve(report, status=PASSED, disagreement=None)
        return report
    monkeypatch.setattr(module, "conform", conform)
    model = rulespec.load(RACE)
    report = module.readings(model, load_factory(f"{RACE_IMPL}:printed"), examples=20,
                             load=lambda options: rulespec.load(RACE, interpretation=options),
                             points=["goal"])
    goal = report.points[0]
    assert goal.consistent == ["six"]
    eight = next(v for v in goal.options if v.option == "eight")
    assert eight.status == "excluded" and eight.found_in == "the games of ten"
    assert "the game is over by the spec" not in eight.excluded_by.message
    assert "the implementation ends the game" in eight.excluded_by.message
