"""The step proofs' verdicts do not depend on the order the goals are listed in: handed to
the step jobs reversed, or with the spec's invariants and conservation laws listed in
reverse (which also reverses the premises on every solver).

The resource units do differ a little (0.1 to 3 % on these games): the goals of one case
share one solver, and the terms and tracking flags are made in the order the goals are
tried, which changes Z3's search -- not what it can decide within the budget here."""

from __future__ import annotations

import attrs
import pytest

import rulespec
from rulespec.check import proof_jobs, prove as prove_module
from rulespec.check import steps
from rulespec.check.steps import tactics
from rulespec.runtime.model import Model

QUICK = 10_000_000  # report's quick budget (resource units per query)


def _verdicts(monkeypatch, tmp_path, game: str, reverse: str = "",
              infer: bool = True) -> tuple[dict, int]:
    """Each property's verdict per checker, and the step proofs' resource units, with the
    goals in the spec's order, or reversed (``reverse``: "goals" as handed to the step
    jobs, "spec" as the spec lists its invariants and laws); ``infer`` as ``prove``'s."""
    listed = steps.goals_of
    for where in (prove_module, proof_jobs):  # the run's plan, and the step jobs
        monkeypatch.setattr(where, "goals_of",
                            lambda smt: listed(smt)[::-1] if reverse == "goals" else listed(smt))
    model = rulespec.load(game)
    if reverse == "spec":
        spec = model.spec
        model = Model(attrs.evolve(spec, invariants=spec.invariants[::-1],
                                   conservation=spec.conservation[::-1]), model.interpretation)
    run = prove_module.prove(model, rlimit=QUICK, depth=2, workers=1, trace_dir=tmp_path,
                             infer=infer)
    units = sum(u for label, u in run.units.items() if label.startswith("steps"))
    return {(r.property, r.checker): r.status for r in run.results}, units


_LISTED: dict[str, tuple[dict, int]] = {}


def _first_goal_of_each_case_gives_up(run: tactics.CaseRun, t: tactics.Attempt) -> str:
    """A planted order dependence: the goal tried first in each case is left UNKNOWN."""
    if not getattr(run, "planted", False):
        run.planted = True  # type: ignore[attr-defined]
        run.prover._unknown(t.name, run.fixed, "planted")
        return tactics.PROVED
    return tactics.OPEN


@pytest.mark.parametrize("game, reverse", [
    ("tic_tac_toe", "goals"), ("tic_tac_toe", "spec"), ("connect_four", "goals"),
    ("connect_four", "spec"), pytest.param("checkers", "spec", marks=pytest.mark.slow)])
def test_reversing_the_goals_keeps_every_verdict(monkeypatch, tmp_path, game, reverse):
    if game not in _LISTED:  # in the spec's order: once per game
        _LISTED[game] = _verdicts(monkeypatch, tmp_path, game)
    listed, listed_units = _LISTED[game]
    reversed_, reversed_units = _verdicts(monkeypatch, tmp_path, game, reverse)
    assert listed == reversed_
    assert sum(1 for (_, checker) in listed if checker == "z3-step") >= 5
    assert listed_units > 0 and reversed_units > 0


def test_a_planted_order_dependence_changes_a_verdict(monkeypatch, tmp_path):
    """The comparison above can fail: a shortcut that treats the first goal of a case
    differently makes the verdicts follow the goals' order. (No lemma search: the goals
    left UNKNOWN are the step proofs' own; searching for lemmas to prove them, 85 % of the
    run, is not what the comparison is shown to see.)"""
    monkeypatch.setattr(tactics, "SHORTCUTS",
                        (_first_goal_of_each_case_gives_up, *tactics.SHORTCUTS))
    listed, _ = _verdicts(monkeypatch, tmp_path, "tic_tac_toe", infer=False)
    reversed_, _ = _verdicts(monkeypatch, tmp_path, "tic_tac_toe", "goals", infer=False)
    assert listed != reversed_
