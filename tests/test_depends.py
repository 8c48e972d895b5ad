"""What a verdict rests on: assumptions traced through the IR, the static slices over them,
the evidence each checker records, and dead rules that say why (rulespec/check/depends.py,
rulespec/ir/assumed.py, rulespec/check/dead.py)."""

from __future__ import annotations

import json

import jsonschema
import pytest

import rulespec
from rulespec.check.dead import dead_rules
from rulespec.check.depends import Dependence
from rulespec.check.property import state_property
from rulespec.check.prove import prove
from rulespec.check.results import PASSED, PROVED, VIOLATED
from rulespec.check.runner import RANDOM, check_game
from rulespec.compile.smt_backend import compile_smt
from rulespec.ir.assumed import Assumed, derived, tags_of
from rulespec.ir.nodes import lift
from rulespec.report.budget import SMOKE
from rulespec.report.collect import collect
from rulespec.report.document import build_document
from rulespec.report.render import SCHEMA
from rulespec.runtime.model import Model
from rulespec.runtime.registry import available_games
from rulespec.spec import PLAYERS, Game, lookup, min_

SRC = "fixture: a race to the end of a short track"


def race(cap_read_by: tuple[str, ...] = ("move",)):
    """Two pawns race along a track; ``cap`` (an assumption) caps a move where
    ``cap_read_by`` says: in ``move`` (a pawn stops at the cap), in ``grab`` (the bonus
    stops at the cap), or nowhere (the printed 7 instead)."""
    game = Game("planted_depends", title="Planted race", players=(2, 2), source=SRC)
    cap = game.assume("cap", 7, reason="the track's length is not printed",
                      origin="CONSTRUCTED for the fixture")
    steps = game.assume("steps", [1, 2], reason="the two step sizes are not printed",
                        origin="INFERENCE from the fixture")
    game.assume("colours", ["red", "blue"], reason="no rule reads it", origin="INFERENCE")
    pos = game.field("pos", range(0, 8), shape=(PLAYERS,), source=SRC)
    bonus = game.field("bonus", range(0, 8), source=SRC)
    turn = game.field("turn", range(0, 2), flow=True, source=SRC)

    @game.action(params={"k": range(2)}, text="move {k}", source=SRC)
    def move(rule, k):
        rule.require(pos[turn] < 7, "the pawn is not at the end", source=SRC)
        end = cap if "move" in cap_read_by else 7
        rule.set(pos[turn], min_(pos[turn] + lookup(steps, k), end))
        rule.set(turn, 1 - turn)

    @game.action(text="jump", source=SRC)
    def jump(rule):
        rule.require(pos[turn] < 5, "the pawn is far from the end", source=SRC)
        rule.set(pos[turn], pos[turn] + steps[1])  # the second step size only
        rule.set(turn, 1 - turn)

    @game.action(text="grab", source=SRC)
    def grab(rule):
        rule.require(bonus < 7, "a bonus is left", source=SRC)
        rule.set(bonus, min_(bonus + 1, cap if "grab" in cap_read_by else 7))
        rule.set(turn, 1 - turn)

    game.invariant("pawns_on_the_track", pos[0] + pos[1] >= 0, source=SRC)
    game.invariant("bonus_within_the_box", bonus <= 7, source=SRC)
    game.current_player(turn, source=SRC)
    game.terminal((pos[0] == 7) | (pos[1] == 7), source=SRC)
    game.max_steps(40, source=SRC)
    game.score(lambda p: pos[p], source=SRC)
    return Model(game.build())


def names(rests):
    return {a.name for a in rests.assumptions}


def results_of(model):
    check = check_game(model, examples=4, seed=1, mode=RANDOM, trace_dir=None)
    proofs = prove(model, rlimit=2_000_000, depth=2, trace_dir="traces").results
    return {(r.property, r.checker): r for r in check + proofs}


def test_a_verdict_gains_and_loses_an_assumption_with_one_read_of_it():
    """The planted test: moving the one read of ``cap`` from ``move`` to ``grab`` moves it
    from the pawns' verdicts to the bonus's step proof."""
    slices = {}
    for where in (("move",), ("grab",), ()):
        model = race(where)
        dep = Dependence(model.spec)
        found = results_of(model)
        step_pos = found[("pawns_on_the_track", "z3-step")]
        step_bonus = found[("bonus_within_the_box", "z3-step")]
        tested_pos = found[("pawns_on_the_track", "random")]
        assert step_pos.status == step_bonus.status == PROVED and tested_pos.status == PASSED
        slices[where] = {name: names(dep.for_result(r)) for name, r in (
            ("step pos", step_pos), ("step bonus", step_bonus), ("tested pos", tested_pos))}
    with_move, with_grab, nowhere = slices[("move",)], slices[("grab",)], slices[()]
    assert "cap" in with_move["step pos"] and "cap" in with_move["tested pos"]
    assert "cap" not in with_move["step bonus"]  # grab does not read it: one step is enough
    assert "cap" not in with_grab["step pos"] and "cap" in with_grab["step bonus"]
    assert all("cap" not in s for s in nowhere.values())
    # the step sizes are read by move and jump whatever cap does
    assert all("steps" in s["step pos"] for s in slices.values())
    assert all("steps" not in s["step bonus"] for s in slices.values())


def test_entries_of_a_table_and_untraced_assumptions():
    dep = Dependence(race().spec)
    jump = [t for s in dep.action_sites["jump"] for t in s.tags]
    move = [t for s in dep.action_sites["move"] for t in s.tags]
    assert Assumed("steps", "1") in jump and Assumed("steps", "0") not in jump  # steps[1]
    assert {Assumed("steps", "0"), Assumed("steps", "1"), Assumed("cap")} <= set(move)
    assert dep.untraced == {"colours"}  # read by no rule: every verdict may rest on it
    assert dep.reach(set(dep.spec.fields)).untraced == {"colours"}


def test_python_properties_are_conservative_unless_they_say_what_they_read():
    model = race(("grab",))
    dep = Dependence(model.spec)

    @state_property("bonus_is_even_or_odd", source=SRC)
    def anything(model, state):
        return None

    @state_property("bonus_is_counted", source=SRC, reads=("bonus",))
    def bonus_only(model, state):
        return None
    r_any = check_game(model, examples=1, mode=RANDOM, trace_dir=None)[0]
    loose = dep.for_result(r_any.__class__("bonus_is_even_or_odd", PASSED, "random"), anything)
    tight = dep.for_result(r_any.__class__("bonus_is_counted", PASSED, "random"), bonus_only)
    assert loose.conservative and names(loose) == {"cap", "steps"}
    assert tight.conservative is None and "cap" in names(tight)


def test_tags_ride_on_python_values_into_the_ir_without_changing_them():
    n = rulespec.ir.assumed.tag(4, "copies")
    assert n + 1 == 5 and isinstance(n + 1, int) and tags_of(n * 2) == {Assumed("copies")}
    assert lift(n).assumed == {Assumed("copies")} and lift(n).args == (4,)
    table = rulespec.ir.assumed.tag({"a": (1, "x"), "b": (2, "y")}, "cards")
    assert tags_of(table["b"][0]) == {Assumed("cards", "b")}
    assert tags_of(derived(len(table["a"]), table["a"])) == {Assumed("cards", "a")}
    assert derived(True, table["a"]).assumed == {Assumed("cards", "a")}  # a bool: an expression


def test_checkers_say_what_stands_behind_each_verdict():
    found = results_of(race())
    tested = found[("pawns_on_the_track", "random")].evidence
    assert tested["games"] == 4 and tested["seed"] == 1 and tested["players"] == [2]
    assert tested["steps"] > 0 and tested["method"] == "random playouts"
    step = found[("pawns_on_the_track", "z3-step")].evidence
    assert step["method"] == "step proof" and step["rlimit"] == 2_000_000
    assert step["cases"] >= 1 and "players" in step and isinstance(step["premises"], list)
    assert found[("pawns_on_the_track", "z3-induction")].evidence["method"] == "induction"
    assert found[("pawns_on_the_track", "z3-step")].to_json()["evidence"] == step


def shared(dead_in_both: bool):
    """``score_it`` is a helper with a branch (the counter at 2 scores); ``low`` runs it at
    0-1 only, ``high`` at 2 (or, planted, also at 0-1 only)."""
    game = Game("shared_branch", title="Shared branch", players=1, source=SRC)
    n = game.field("n", range(0, 4), source=SRC)
    got = game.field("got", range(0, 2), source=SRC)

    def score_it(rule):
        with rule.when(n == 2):
            rule.set(got, 1)
        rule.add(n, 1)

    @game.action(source=SRC)
    def low(rule):
        rule.require(n < 2, "the counter is low", source=SRC)
        score_it(rule)

    @game.action(source=SRC)
    def high(rule):
        rule.require(n < 2 if dead_in_both else n >= 2, "the counter is high", source=SRC)
        rule.require(n < 3, "the counter can move", source=SRC)
        score_it(rule)

    game.current_player(0, source=SRC)
    game.terminal(n == 3, source=SRC)
    game.max_steps(3, source=SRC)
    game.score(lambda p: got, source=SRC)
    spec = game.build()
    return {r.property: r for r in dead_rules(compile_smt(spec, {}))}


def test_a_shared_branch_is_dead_only_when_no_action_runs_it():
    alive = shared(dead_in_both=False)
    low = next(r for k, r in alive.items() if k == "rule_can_apply:low:when n = 2")
    assert low.status == PROVED and "runs as high:when n = 2" in low.detail
    dead = shared(dead_in_both=True)
    low = next(r for k, r in dead.items() if k == "rule_can_apply:low:when n = 2")
    assert low.status == VIOLATED
    assert "precondition 'the counter is low'" in low.detail  # why: the unsat core
    assert "its condition (n = 2)" in low.detail


def test_a_dead_action_says_which_precondition_and_range_rule_it_out():
    model = rulespec.load("tests/fixtures/dead_rule")
    found = {r.property: r for r in dead_rules(compile_smt(model.spec, {}))}
    jump = found["rule_can_apply:jump"]
    assert jump.status == VIOLATED
    assert jump.evidence["ruled_out_by"] == ["precondition 'beyond the end'",
                                             "the range of n (0..3)"]


@pytest.mark.parametrize("game", available_games())
def test_every_verdict_of_every_bundled_report_shows_its_evidence_and_assumptions(game,
                                                                                  tmp_path):
    doc = build_document(collect(game, SMOKE, tmp_path / "traces"), game)
    jsonschema.validate(doc, json.loads(SCHEMA.read_text()))
    rows = [r for p in doc["properties"] for r in p["results"]]
    assert rows and all(r["evidence_text"] and "rests_on" in r for r in rows)
    assert all(r["evidence"] for r in rows if r["checker"] != "z3")  # the smoke budget's
    assert all("rests_on" in s for s in doc["scenarios"])          # placeholder aside
    assert all("rests_on" in d for q in doc["questions"] for d in q["differences"]
               if d["status"] != "SKIPPED")
    glance = doc["glance"]["rests_on"]
    split = glance["results"]
    assert sum(split.values()) == glance["decided"] > 0
    spec = rulespec.load_spec(game)
    if not spec.assumptions:
        assert split["printed_only"] == glance["decided"] and not doc["assumption_sets"][0][
            "assumptions"]
    else:  # the bundled specs trace every assumption but the player counts they cover
        assert set(glance["untraced"]) <= {"player_count", "player_counts"}
        assert all(a["read_by"] or not a["traced"] for a in doc["assumptions"])
