"""Step proofs one action case at a time: the frame rules, the Hawaii dealing and island
steps made inductive, and a planted tile leak found through the sum-delta rule."""

import shutil

import pytest
import z3

import rulespec
from rulespec.check.steps import step_cases
from rulespec.check.results import PROVED, VIOLATED
from rulespec.check.seats import with_seat_lemmas
from rulespec.check.solvers import Budget
from rulespec.check.steps import (ActionProver, ImpliedBounds, Lessons, Premises, Refuter,
                                  _Terms, goals_of)
from rulespec.check.steps.lessons import SPLIT_FURTHER
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
    prover, _, _ = _prover(with_seat_lemmas(rulespec.load("hawaii")), action)
    verdicts = prover.run()
    assert {n: v.detail for n, v in verdicts.items() if v.status != PROVED} == {}


def test_a_planted_tile_leak_is_violated_by_the_step_proof(tmp_path):
    folder = tmp_path / "hawaii"   # the game folder (spec, parts, components), scenarios aside
    shutil.copytree(models_dir() / "hawaii", folder, ignore=shutil.ignore_patterns("scenarios"))
    text = (folder / "spec.py").read_text()
    take = "        rule.add(supply[Kind[kind]], -1)\n        if in_village:"
    assert take in text  # a purchase takes the tile from the supply ...
    (folder / "spec.py").write_text(text.replace(take, "        if in_village:"))  # ... not any more
    prover, _, _ = _prover(rulespec.load(folder), "buy_boat",
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
    keys = lessons.cores("fields_within_bounds[spears]")
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


def test_with_no_parameter_left_a_case_splits_on_the_player_to_move():
    """A residual that reads the player to move's cell, once every parameter is set,
    splits on that cell (one case per value of its field); one that does not, is not."""
    model = rulespec.load("tic_tac_toe")
    prover, smt, _ = _prover(model, "mark")
    s = prover.p.state
    legal = smt.legal(prover.a_idx, s, prover.symbolic)
    names = smt.cell_names()
    mover = s[names.index("to_move")]
    m = len(prover.symbolic)
    assert prover._split_on({0: 0, 1: 0}, mover >= 0, legal) == m
    assert prover._domain(m) == (0, 2)  # range(0, 2): both players
    assert prover._split_on({0: 0}, mover + prover.symbolic[1] >= 0, legal) == 1  # params first
    assert prover._split_on({0: 0, 1: 0, m: 1}, mover >= 0, legal) is None  # already set
    assert prover._case_text({0: 1, 1: 2, m: 1}).endswith("with to_move=1")


def _aquatica_leaf(game, action, goal, fixed, players=2):
    """One leaf case of an Aquatica step (every parameter and the player to move set):
    the prover after asking it, and the goal's verdict."""
    smt = compile_smt(game.spec, game.interpretation)
    a_idx = next(i for i, a in enumerate(game.spec.actions) if a.name == action)
    (case,) = [f for a, f in step_cases(smt) if a == a_idx and dict(f)[0] == players]
    goals = [g for g in goals_of(smt) if g.name == goal]
    prover = ActionProver(game, smt, Premises(smt, dict(case)), a_idx, goals,
                          Budget(10_000_000))
    after = smt.apply_checked(a_idx, prover.p.state, prover.symbolic)
    top = _Terms(smt.legal(a_idx, prover.p.state, prover.symbolic), after.error,
                 {goal: z3.And(*prover.residual(goals[0], after))})
    prover._case(fixed, goals, top)
    return prover, prover.verdicts[goal]


def test_a_purchase_keeps_each_card_count_without_every_premise():
    """Aquatica's purchase with every parameter and the player to move set: the 15
    location cards' counts together are undecided within the slice budget, but each
    card's count alone is shown with a few premises (``_by_conjunct``), before the split
    on the card cell the residual indexes by, which would ask a query per value: no
    full-premise query and no split is needed."""
    game = rulespec.load("aquatica")
    prover, verdict = _aquatica_leaf(game, "buy", "locations_are_conserved_per_card",
                                     {0: 0, 1: 2, 2: 1})  # lower row, slot 2, player 1
    assert verdict.status == PROVED, verdict.detail
    queries, units, unsat, sat, unknown = prover.stats["conjunct"]
    assert unsat == queries >= 14  # a count the step cannot change folds to True
    assert not {"cell", "tracked", "full"} & prover.stats.keys()
    assert ("invariant", next(k for k, i in enumerate(game.spec.invariants)
                              if i.name == "locations_are_conserved_per_card")) in verdict.used


def test_a_card_lost_only_on_one_players_purchase_is_found(tmp_path):
    """The split on the player to move stays sound: a planted purchase that loses the
    card when player 1 buys is VIOLATED in player 1's case, and only there."""
    folder = tmp_path / "aquatica"                 # the game folder: spec.py and its parts
    shutil.copytree(models_dir() / "aquatica", folder)
    text = (folder / "spec.py").read_text(encoding="utf-8")
    old = '    rule.set(board[me, s], loc, source="assumption board_slot")'
    assert old in text
    planted = ('    rule.set(board[me, s], if_(me == 1, Loc.none, loc), '
               'source="assumption board_slot")')
    (folder / "spec.py").write_text(text.replace(old, planted), encoding="utf-8")
    game = rulespec.load(folder)
    goal = "locations_are_conserved_per_card"
    _, kept = _aquatica_leaf(game, "buy", goal, {0: 0, 1: 2, 2: 0})
    assert kept.status == PROVED, kept.detail
    _, lost = _aquatica_leaf(game, "buy", goal, {0: 0, 1: 2, 2: 1})
    assert lost.status == VIOLATED
    assert "to_move=1" in lost.detail


def test_a_seat_beyond_the_player_count_is_not_a_case():
    """With 2 players, Aquatica's premises leave no state with player 2 or 3 to move (the
    seat invariant): those values of the split are skipped, citing it; 0 and 1 are not."""
    game = rulespec.load("aquatica")
    prover, _ = _aquatica_leaf(game, "buy", "locations_are_conserved_per_card",
                               {0: 1, 1: 5, 2: 0})  # the upper row has no slot 5: no step
    assert prover.queries == 0
    seated = next(k for k, i in enumerate(game.spec.invariants)
                  if i.name == "the_player_on_turn_is_seated")
    assert ("invariant", seated) in prover._no_such_mover(2)
    assert prover._no_such_mover(3) is not None
    assert prover._no_such_mover(1) is None and prover._no_such_mover(0) is None


def test_a_sibling_case_splits_at_once_what_the_first_one_had_to_split():
    """Aquatica's claim (4 players): the trained mantas' total is undecided in a slice with
    the claim's first parameter set to 0, and split on the next one. Its siblings (the
    parameter set to 1, 2, 3) split at once: two undecided slices in all (the top case
    and the first sibling), not five."""
    game = rulespec.load("aquatica")
    smt = compile_smt(game.spec, game.interpretation)
    a_idx, case = next(c for c in step_cases(smt) if game.spec.actions[c[0]].name == "claim"
                       and dict(c[1])[0] == 4)
    goals = [g for g in goals_of(smt) if g.name == "trained_mantas_are_conserved"]
    prover = ActionProver(game, smt, Premises(smt, dict(case)), a_idx, goals,
                          Budget(10_000_000), Lessons())
    assert prover.run()["trained_mantas_are_conserved"].status == PROVED
    assert prover.lessons.has(SPLIT_FURTHER, a_idx, "trained_mantas_are_conserved",
                              frozenset({0}))
    queries, units, unsat, sat, unknown = prover.stats["slice"]
    assert unknown == 2
