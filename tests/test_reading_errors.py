"""``rules_evaluate_without_error`` covers reading a state, not only stepping: whose move it
is and whether the game is over, the preconditions ``legal_actions`` tests, and the scores
of a finished game (rulespec/check/reading_errors.py). Before, ``prove`` proved the goal
for a game whose precondition indexed past an array's end in the third state, which
``check`` found at once.

Each planted bug reads ``row[n]`` (three cells) where ``n`` reaches 3: in a precondition,
in the end rule, or in the score. The correct game tests ``n < 3`` first."""

import pytest

import rulespec
from rulespec.check.prove import prove
from rulespec.check.reading_errors import can_raise
from rulespec.check.results import PROVED, VIOLATED
from rulespec.check.runner import check_game
from rulespec.compile.smt_backend import compile_smt
from rulespec.ir.raising import may_raise

ROW = '''
from rulespec.spec import Game, all_of, if_

SRC = "test: a counter that indexes a row of three cells"
game = Game("row", title="Row", players=1, source=SRC)
n = game.field("n", range(0, 6), source=SRC)
row = game.field("row", bool, shape=(3,), source=SRC)


@game.action(source=SRC)
def step(rule):
    rule.require({guard}, "the next cell is free", source=SRC)
    rule.add(n, 1)


game.current_player(0, source=SRC)
game.terminal({ends}, source=SRC)
game.max_steps(5, source=SRC)
game.score(lambda p: {score}, source=SRC)
SPEC = game.build()
'''
SAFE = {"guard": "all_of(n < 3, row[n] == False)", "ends": "n == 3",
        "score": "if_(n < 3, 0, n)"}
PLANTED = {
    "precondition": {**SAFE, "guard": "row[n] == False", "ends": "n == 5"},
    "end": {**SAFE, "guard": "n < 5", "ends": "all_of(n == 5, row[n])"},
    "score": {**SAFE, "guard": "n < 4", "ends": "n == 4", "score": "if_(row[n], 1, 0)"},
}


def _load(tmp_path, parts):
    path = tmp_path / "row.py"
    path.write_text(ROW.format(**parts))
    return rulespec.load(str(path))


def _errors(run):
    return {r.checker: r for r in run.results if r.property == "rules_evaluate_without_error"}


@pytest.mark.parametrize("where", sorted(PLANTED))
def test_prove_finds_a_rule_that_raises_when_a_state_is_read(where, tmp_path, monkeypatch):
    monkeypatch.setenv("RULESPEC_STORE", "off")
    model = _load(tmp_path, PLANTED[where])
    # check finds it too (a score that raises is found by the property that reads it)
    assert any(r.status == VIOLATED and "out of range" in r.detail
               for r in check_game(model, examples=30, trace_dir=tmp_path))
    run = prove(model, rlimit=5_000_000, trace_dir=tmp_path, infer=False)
    found = _errors(run)
    statuses = {r.status for r in found.values()}
    assert VIOLATED in statuses and PROVED not in statuses, found
    (bad,) = [r for r in found.values() if r.status == VIOLATED]
    assert "out of range" in bad.detail and bad.trace_path


def test_a_guarded_read_is_proved(tmp_path, monkeypatch):
    monkeypatch.setenv("RULESPEC_STORE", "off")
    model = _load(tmp_path, SAFE)
    run = prove(model, rlimit=5_000_000, trace_dir=tmp_path, infer=False)
    assert {r.status for r in _errors(run).values()} == {PROVED}
    # the guarded read may fail by interval analysis alone: Z3 is asked, within the bounds
    smt = compile_smt(model.spec, model.interpretation)
    assert may_raise(model.spec.actions[0].preconditions[0].cond, 1)
    assert can_raise(smt) == (False, (), False)


def test_no_bundled_game_asks_a_reading_query():
    # interval analysis and one screening query per risky rule clear every bundled game,
    # so the reading goal costs their proofs no query under the invariants
    for name in ("tic_tac_toe", "crazy_eights", "checkers"):
        model = rulespec.load(name)
        assert can_raise(compile_smt(model.spec, model.interpretation)) == (False, (), False)
