"""Step proofs one action case at a time: the frame rules, the Hawaii dealing and island
steps made inductive, and a planted tile leak found through the sum-delta rule."""

import pytest

import rulespec
from rulespec.check.steps import step_cases
from rulespec.check.results import PROVED, VIOLATED
from rulespec.check.steps import ActionProver, Premises, goals_of
from rulespec.compile.smt_backend import compile_smt
from rulespec.runtime.registry import models_dir


def _prover(model, action, players=2, only=None):
    smt = compile_smt(model.spec, model.interpretation)
    a_idx = next(i for i, a in enumerate(model.spec.actions) if a.name == action)
    (fixed,) = [f for a, f in step_cases(smt) if a == a_idx and dict(f)[0] == players]
    goals = [g for g in goals_of(smt) if only is None or g.name in only]
    return ActionProver(model, smt, Premises(smt, dict(fixed)), a_idx, goals,
                        10_000, 120), smt, fixed


def test_cases_pin_the_phase_an_action_needs():
    model = rulespec.load("hawaii")
    smt = compile_smt(model.spec, model.interpretation)
    phase = smt.cell_names().index("phase")
    cases = step_cases(smt)
    lay = [dict(f) for a, f in cases if model.spec.actions[a].name == "lay_place"]
    assert sorted(c[0] for c in lay) == [2, 3, 4, 5]  # one case per player count
    assert all(c[phase] == 0 for c in lay)  # Phase.layout, the only phase it is legal in


def test_a_goal_about_cells_the_action_never_writes_needs_no_query():
    prover, smt, _ = _prover(rulespec.load("hawaii"), "lay_place")
    after = smt.apply_checked(prover.a_idx, prover.p.state, prover._params({}))
    village = next(g for g in prover.goals if g.name == "villages_fill_rows_from_the_top")
    tiles = next(g for g in prover.goals if g.name == "boat_tiles_are_conserved")
    assert prover.residual(village, after) == []
    assert prover.residual(tiles, after) == []


@pytest.mark.parametrize("action", ["lay_place", "draw_island"])
def test_hawaii_set_up_steps_keep_every_goal(action):
    prover, _, _ = _prover(rulespec.load("hawaii"), action)
    verdicts = prover.run()
    assert {n: v.detail for n, v in verdicts.items() if v.status != PROVED} == {}


def test_a_planted_tile_leak_is_violated_by_the_step_proof(tmp_path):
    text = (models_dir() / "hawaii" / "spec.py").read_text()
    take = "        rule.add(supply[Kind[kind]], -1)\n        if in_village:"
    assert take in text  # a purchase takes the tile from the supply ...
    path = tmp_path / "spec.py"
    path.write_text(text.replace(take, "        if in_village:"))  # ... not any more
    prover, _, _ = _prover(rulespec.load(path), "buy_boat",
                           only={"boat_tiles_are_conserved", "kahuna_tiles_are_conserved"})
    verdicts = prover.run()
    leak = verdicts["boat_tiles_are_conserved"]
    assert leak.status == VIOLATED
    assert "buy boat" in leak.detail
    assert verdicts["kahuna_tiles_are_conserved"].status == PROVED  # untouched: by the frame


def test_interval_reasoning_proves_a_lower_bound_without_a_query():
    prover, smt, _ = _prover(rulespec.load("hawaii"), "pass_turn")
    after = smt.apply_checked(prover.a_idx, prover.p.state, prover._params({}))
    vp = next(g for g in prover.goals if g.name == "fields_within_bounds[vp]")
    # victory points only grow at a pass (round prizes, the last round's first space)
    assert prover.residual(vp, after) == []
