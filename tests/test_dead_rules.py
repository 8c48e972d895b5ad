"""Dead rules: actions and branches no state within the invariants can enable."""

from pathlib import Path

import rulespec
from rulespec.check.dead import dead_rules
from rulespec.check.results import PROVED, SKIPPED, VIOLATED
from rulespec.compile.smt_backend import compile_smt


def _by_name(game):
    smt = compile_smt(game.spec, game.interpretation)
    return {r.property: r for r in dead_rules(smt)}


def test_planted_dead_action_and_branch_are_reported():
    found = _by_name(rulespec.load("tests/fixtures/dead_rule"))
    assert found["rule_can_apply:step"].status == PROVED
    assert found["rule_can_apply:jump"].status == VIOLATED
    branch = found["rule_can_apply:step:when n = 3"]  # named by its condition, in English
    assert branch.status == VIOLATED and "never runs" in branch.detail


def test_tic_tac_toe_has_no_dead_rule():
    found = _by_name(rulespec.load("tic_tac_toe"))
    assert found["rule_can_apply:mark"].status == PROVED
    assert any(name.startswith("rule_can_apply:mark:when ") for name in found)
    assert any(name.startswith("rule_can_apply:the score:when ") for name in found)
    assert {r.status for r in found.values()} == {PROVED}


def test_played_games_are_witnesses_and_never_hide_a_dead_rule():
    game = rulespec.load("tests/fixtures/dead_rule")
    smt = compile_smt(game.spec, game.interpretation)
    found = {r.property: r for r in dead_rules(smt, model=game, games=3)}
    assert "random game" in found["rule_can_apply:step"].detail  # taken: no query needed
    assert found["rule_can_apply:jump"].status == VIOLATED  # never taken: still asked
    assert found["rule_can_apply:step:when n = 3"].status == VIOLATED


def test_a_reading_switch_in_the_score_is_no_dead_clause(tmp_path):
    # `if_(point.is_(...), ...)` chooses between readings: under either, its other side
    # never applies by design, so it is no clause of the rules; a real condition stays
    text = (Path(__file__).parent / "fixtures" / "dead_rule" / "spec.py").read_text()
    text = text.replace(
        "game.score(lambda p: n + bonus, source=SRC)",
        "double = game.interpretation('double', question='Double the bonus?',\n"
        "    options={'no': SRC, 'yes': SRC}, default='no', source=SRC,\n"
        "    default_reason='fixture')\n"
        "game.score(lambda p: if_(double.is_('yes'), n + 2 * bonus, n + bonus)\n"
        "           + if_(bonus == 1, 1, 0), source=SRC)")
    text = text.replace("from rulespec.spec import Game",
                        "from rulespec.ir import if_\nfrom rulespec.spec import Game")
    path = tmp_path / "spec.py"
    path.write_text(text)
    for reading in ("no", "yes"):
        found = _by_name(rulespec.load(path, {"double": reading}))
        clauses = {name for name in found if name.startswith("rule_can_apply:the score:")}
        assert len(clauses) == 2, clauses  # then/else of `bonus == 1` only
        assert all(found[c].status == PROVED for c in clauses)


def test_games_stop_after_a_round_that_finds_no_new_rule():
    from rulespec.check.dead import play
    game = rulespec.load("tic_tac_toe")
    smt = compile_smt(game.spec, game.interpretation)
    rounds = play(game, smt, 64, rounds_of=4)
    assert 8 <= rounds.games < 64  # every rule runs within a few games: then it stops
    again = play(game, smt, rounds.games)
    assert (rounds.taken, rounds.ran, rounds.finals) == (again.taken, again.ran, again.finals)
    assert play(game, smt, 64, rounds_of=4) == rounds  # the same games every time


def test_running_effects_on_a_concrete_state_reports_the_branches_the_terms_do():
    """``run_concrete`` (what the games use) sees exactly the branches that
    ``apply_checked`` on the same concrete state does, building no term."""
    import random
    game = rulespec.load("hawaii")
    smt = compile_smt(game.spec, game.interpretation)
    rng = random.Random(3)
    state = game.initial_state(3)
    branches = set()
    for _ in range(60):
        legal = game.legal_actions(state)
        if not legal:
            break
        action = rng.choice(legal)
        key = action.key
        seen: list[set] = [set(), set()]
        for k, run in enumerate((
                lambda: smt.run_concrete(key[0], state.values, key[1:]),
                lambda: smt.apply_checked(key[0], smt.concrete_state(state.values),
                                          list(key[1:])))):
            smt.branch_seen = lambda st, side, k=k: seen[k].add((id(st), side))
            try:
                run()
            finally:
                smt.branch_seen = None
        assert seen[0] == seen[1]
        branches |= seen[0]
        state = game.apply(state, action)
    assert len(branches) > 10  # the steps ran many branches both ways


def test_an_action_or_branch_of_another_reading_is_no_dead_rule(tmp_path):
    # an action that only another reading allows is not a rule under this one: SKIPPED,
    # naming the precondition; the planted dead action is still VIOLATED
    text = (Path(__file__).parent / "fixtures" / "dead_rule" / "spec.py").read_text()
    text = text.replace(
        "@game.action(source=SRC)\ndef jump(rule):",
        "skip = game.interpretation('skip', question='May the counter skip?',\n"
        "    options={'no': SRC, 'yes': SRC}, default='no', source=SRC,\n"
        "    default_reason='fixture')\n\n\n"
        "@game.action(source=SRC)\n"
        "def leap(rule):\n"
        "    rule.require(skip.is_('yes'), 'skipping is allowed', source=SRC)\n"
        "    rule.require(n < 2, 'room to skip', source=SRC)\n"
        "    with rule.when(skip.is_('no')):\n"
        "        rule.set(bonus, 1)\n"
        "    rule.add(n, 2)\n\n\n"
        "@game.action(source=SRC)\n"
        "def step_on(rule):\n"
        "    rule.require(n < 3, 'not at the end', source=SRC)\n"
        "    with rule.when(skip.is_('yes')):\n"
        "        rule.set(bonus, 1)\n"
        "    rule.add(n, 1)\n\n\n"
        "@game.action(source=SRC)\ndef jump(rule):")
    path = tmp_path / "spec.py"
    path.write_text(text)
    found = _by_name(rulespec.load(path))  # skip=no
    assert found["rule_can_apply:leap"].status == SKIPPED
    assert "'skipping is allowed' is false" in found["rule_can_apply:leap"].detail
    assert found["rule_can_apply:step_on"].status == PROVED
    assert not any(k.startswith("rule_can_apply:step_on:") for k in found), found.keys()
    assert found["rule_can_apply:jump"].status == VIOLATED
    found = _by_name(rulespec.load(path, {"skip": "yes"}))
    assert found["rule_can_apply:leap"].status == PROVED
    # a `when` the reading decides is no branch under either reading (compiled away)
    assert not any(k.startswith("rule_can_apply:step_on:") for k in found), found.keys()
