"""The retry budget (issue 28, item 4): a step case a goal was undecided in within a small
budget a query is tried again with a larger one, so a small game's verdicts at the
report's quick budget are its verdicts at the full one. Tic-tac-toe stands in for a small
game: at 1,000 units a query every step proof is undecided, at 100,000 each is proved."""

import attrs
import pytest

import rulespec
from rulespec.check import prove as prove_module
from rulespec.check.prove import prove
from rulespec.check.results import PROVED, UNKNOWN

SMALL, LARGE = 1_000, 100_000


def _verdicts(run):
    return sorted((r.property, r.checker, r.status) for r in run.results)


@pytest.fixture(scope="module")
def game():
    return rulespec.load("tic_tac_toe")


def test_an_undecided_case_tried_again_gets_the_larger_budgets_verdicts(game, tmp_path):
    small = prove(game, rlimit=SMALL, depth=2, trace_dir=tmp_path, infer=False)
    assert UNKNOWN in {s for _, _, s in _verdicts(small)} and small.retry is None
    retried = prove(game, rlimit=SMALL, depth=2, trace_dir=tmp_path, infer=False,
                    retry_rlimit=LARGE)
    large = prove(game, rlimit=LARGE, depth=2, trace_dir=tmp_path, infer=False)
    assert _verdicts(retried) == _verdicts(large)
    assert {s for _, _, s in _verdicts(retried)} == {PROVED}
    assert retried.retry == {"rlimit": LARGE, "cases": 1, "tried": True}
    # the first run leaves its bounded model checking to the retry, which replaces its
    # verdicts: here the retry proves everything, so nothing is checked that way at all
    assert "bounded model checking" in small.units
    assert not any(k.startswith("bounded model checking") for k in retried.units)
    # both runs' units are counted, and the dead rules were answered once (the first run)
    assert retried.rlimit > small.rlimit
    assert sum(r.property.startswith("rule_can_apply:") for r in retried.results) == sum(
        r.property.startswith("rule_can_apply:") for r in small.results)
    # a result proved by the retry says the budget it had
    steps = [r for r in retried.results if r.checker == "z3-step"]
    assert steps and all(r.evidence["rlimit"] == LARGE for r in steps)


def test_more_undecided_cases_than_a_retry_takes_are_left_as_they_are(game, tmp_path,
                                                                       monkeypatch):
    monkeypatch.setattr(prove_module, "RETRY_CASES", 0)
    small = prove(game, rlimit=SMALL, depth=2, trace_dir=tmp_path, infer=False)
    retried = prove(game, rlimit=SMALL, depth=2, trace_dir=tmp_path, infer=False,
                    retry_rlimit=LARGE)
    assert _verdicts(retried) == _verdicts(small)
    assert retried.rlimit == small.rlimit
    assert retried.retry == {"rlimit": LARGE, "cases": 1, "tried": False}


def test_a_run_with_nothing_undecided_is_not_tried_again(game, tmp_path):
    once = prove(game, rlimit=LARGE, depth=2, trace_dir=tmp_path, infer=False)
    retried = prove(game, rlimit=LARGE, depth=2, trace_dir=tmp_path, infer=False,
                    retry_rlimit=2 * LARGE)
    assert retried.retry is None
    assert (_verdicts(retried), retried.rlimit) == (_verdicts(once), once.rlimit)


def test_the_retry_does_not_depend_on_the_worker_count(game, tmp_path):
    runs = [prove(game, rlimit=SMALL, depth=2, trace_dir=tmp_path, infer=False,
                  retry_rlimit=LARGE, workers=w) for w in (1, 2)]
    assert _verdicts(runs[0]) == _verdicts(runs[1])
    assert runs[0].rlimit == runs[1].rlimit and runs[0].retry == runs[1].retry


def test_the_report_tries_again_and_says_so(tmp_path):
    from rulespec.report.budget import QUICK, SMOKE
    from rulespec.report.collect import collect
    from rulespec.report.document import build_document
    from rulespec.report.render import render_markdown
    assert QUICK.solver_retry_rlimit == rulespec.check.budget.DEFAULT_RLIMIT
    budget = attrs.evolve(SMOKE, prove=True, solver_rlimit=SMALL, solver_retry_rlimit=LARGE,
                          bmc_depth=2, workers=1)
    c = collect("tic_tac_toe", budget, tmp_path / "traces")
    assert c.solver["retry"] == {"rlimit": LARGE, "cases": 1, "tried": True}
    assert {r.status for r in c.prove} == {PROVED}
    text = render_markdown(build_document(c, "tic_tac_toe"), str(tmp_path / "pictures"))
    assert "the 1 step case a goal was undecided in tried again with 100,000" in " ".join(
        text.split())
