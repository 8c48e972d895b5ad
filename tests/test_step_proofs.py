"""Step proofs one action case at a time: the frame rules, the Hawaii dealing and island
steps made inductive, and a planted tile leak found through the sum-delta rule."""

import pytest
import z3

import rulespec
from rulespec.check.steps import step_cases
from rulespec.check.results import PROVED, VIOLATED
from rulespec.check.solvers import Budget
from rulespec.check.steps import ActionProver, ImpliedBounds, Lessons, Premises, Refuter, goals_of
from rulespec.compile.smt_backend import compile_smt
from rulespec.runtime.registry import models_dir


def _prover(model, action, players=2, only=None):
    smt = compile_smt(model.spec, model.interpretation)
    a_idx = next(i for i, a in enumerate(model.spec.actions) if a.name == action)
    (fixed,) = [f for a, f in step_cases(smt) if a == a_idx and dict(f)[0] == players]
    goals = [g for g in goals_of(smt) if only is None or g.name in only]
    return ActionProver(model, smt, Premises(smt, dict(fixed)), a_idx, goals,
                        Budget()), smt, fixed


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


def test_a_learned_core_alone_proves_the_goal_and_carries_to_fewer_players():
    """An unsat answer names the premises it used; those alone still prove the goal, and
    Lessons finds the same premises (by origin and cells) in a case with fewer players."""
    model = rulespec.load("hawaii")
    five, smt, _ = _prover(model, "buy_surfer", players=5,
                           only={"fields_within_bounds[spears]"})
    lessons = Lessons()
    five.lessons = lessons
    assert {v.status for v in five.run().values()} == {PROVED}
    keys = lessons.cores["fields_within_bounds[spears]"]
    assert keys  # the spear bound needs premises (the spear count invariant)

    # the core, asked alone on a fresh solver with the step's terms, still proves it
    p = five.p
    core = lessons.core(p, "fields_within_bounds[spears]")
    assert 0 < len(core) < len(p.terms) // 4
    params = five._params({})
    after = smt.apply_checked(five.a_idx, p.state, params)
    goal = z3.And(*five.residual(five.goals[0], after))
    solver = z3.Solver()
    solver.add(*(p.terms[i] for i in core), smt.legal(five.a_idx, p.state, params),
               z3.Not(after.error), z3.Not(goal))
    assert solver.check() == z3.unsat
    solver.reset()  # and not because the premises it left out were never needed
    solver.add(smt.legal(five.a_idx, p.state, params), z3.Not(after.error), z3.Not(goal))
    assert solver.check() == z3.sat

    # four players: the same keys name premises of that case
    four, _, _ = _prover(model, "buy_surfer", players=4,
                         only={"fields_within_bounds[spears]"})
    mapped = lessons.core(four.p, "fields_within_bounds[spears]")
    assert mapped and {four.p.keys[i] for i in mapped} <= keys


def test_refuter_reports_the_premises_an_answer_used():
    model = rulespec.load("hawaii")
    prover, smt, _ = _prover(model, "pass_turn")
    p = prover.p
    x = p.state[smt.cell_names().index("turn_pos")]
    bound = next(i for i, t in enumerate(p.terms) if str(t) == str(x <= 4))
    verdict, core = Refuter(p, []).refute([bound, 0], [x > 4], 1_000_000)
    assert verdict == z3.unsat and core == [bound]
    verdict, core = Refuter(p, []).refute([0], [x > 4], 1_000_000)
    assert verdict == z3.sat and core is None


def test_bounds_are_implied_cell_by_cell_but_not_for_an_empty_seat():
    """With four players, each player's round total is capped by the tokens taken (an
    invariant and the token counts), but the fifth seat's cell only by its own bounds."""
    model = rulespec.load("hawaii")
    smt = compile_smt(model.spec, model.interpretation)
    four = ImpliedBounds(smt, 4, Budget()).of("round_total")
    assert four is not None and four.cells == frozenset(range(4))
    invariant = next(k for k, inv in enumerate(model.spec.invariants)
                     if inv.name == "round_total_is_the_tokens_taken")
    assert ("invariant", invariant) in four.origins
    assert ("bounds", "round_total") not in four.origins  # never its own bounds
    five = ImpliedBounds(smt, 5, Budget()).of("round_total")
    assert five is not None and five.cells == frozenset(range(5))


def test_an_action_is_split_only_on_a_parameter_that_matters_to_the_goal():
    """A residual that mentions a parameter splits on it; one that reads a cell only the
    legality ties to a parameter splits on that one; one neither touches is not split at
    all (each value would ask the same question again: MOTU's placements split on 64
    rows and columns for goals about card counts)."""
    model = rulespec.load("tic_tac_toe")
    prover, smt, _ = _prover(model, "mark")
    s, (r, c) = prover.p.state, prover.symbolic
    legal = smt.legal(prover.a_idx, s, prover.symbolic)
    names = smt.cell_names()
    corner = s[names.index("board[0,0]")]
    moves = s[names.index("moves")]
    assert prover._split_on({}, z3.And(r >= 0, moves >= 0), legal) == 0
    assert prover._split_on({0: 1}, c + moves >= 0, legal) == 1
    # the legality asks for an empty destination: the board's cells depend on (r, c)
    assert prover._split_on({}, corner >= 0, legal) in (0, 1)
    assert prover._split_on({0: 0}, corner >= 0, legal) == 1
    # nothing ties the move count to the destination: asked once, not split
    assert prover._split_on({}, moves >= 0, legal) is None
    assert prover._split_on({0: 0, 1: 0}, corner >= 0, legal) is None
