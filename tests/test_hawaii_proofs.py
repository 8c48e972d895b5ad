"""Z3 on Hawaii: the round-goal prize law for 2-5 players and any totals, and its misreading."""

import rulespec
from rulespec.check.prove import law_proofs
from rulespec.check.solvers import DEFAULT_RLIMIT
from rulespec.check.results import PROVED, VIOLATED
from rulespec.compile.smt_backend import compile_smt
from rulespec.runtime.registry import models_dir

LAW = "round_prizes_follow_the_ranking"


def _law(game):
    smt = compile_smt(game.spec, game.interpretation)
    (result,) = [r for r in law_proofs(smt, DEFAULT_RLIMIT, {LAW})]
    return result


def test_round_prize_law_is_proved_for_every_total():
    result = _law(rulespec.load("hawaii"))
    assert result.status == PROVED


def test_the_tie_for_first_misreading_is_violated(tmp_path):
    # misreading: after a tie for first, the next total still gets the second prize
    # (the source's second example says it gets the third)
    text = (models_dir() / "hawaii" / "spec.py").read_text()
    old = "if_(all_of(n_best == 1, tot[i] == second), lookup(PRIZE[1], r0),"
    assert old in text
    path = tmp_path / "spec.py"
    path.write_text(text.replace(old, "if_(tot[i] == second, lookup(PRIZE[1], r0),"))
    result = _law(rulespec.load(path))
    assert result.status == VIOLATED
    assert "round_total" in result.detail
