"""A mutant's model takes the unmutated model's compiled preconditions and facts for the
preconditions it did not change (:mod:`rulespec.check.mutate.share`); it refuses every
action as the mutant compiled whole does, with the same reasons and the same facts."""

from __future__ import annotations

import random

import pytest

import rulespec
from rulespec.check.mutate import mutants
from rulespec.check.mutate import share
from rulespec.check.mutate.judge import BUDGETS, Judges, _Models
from rulespec.ir.errors import SpecError
from rulespec.runtime.model import Model, State


def _reasons(model: Model, values: tuple, key: tuple) -> list[str]:
    try:
        return [str(r) for r in model.why_illegal(State(values, model), model._action(key))]
    except Exception as err:  # noqa: BLE001 - a mutant's rules may raise: both alike
        return [f"raise {type(err).__name__}"]


def _differences(whole: Model, shared: Model, steps: int, seed: int, per_state: int
                 ) -> list[str]:
    """Where the two refuse an action differently, on a seeded random game of the mutant
    (every action of the game considered in each state, up to ``per_state`` of them)."""
    rng = random.Random(seed)
    keys = sorted(a.key for a in whole._every_action().values())
    try:
        v = whole.compiled.initial(whole.max_players)
    except Exception:  # noqa: BLE001 - the mutant's setup raises
        return []
    out = []
    for _ in range(steps):
        for key in (keys if len(keys) <= per_state else rng.sample(keys, per_state)):
            a, b = _reasons(whole, v, key), _reasons(shared, v, key)
            if a != b:
                out.append(f"{key}: {a} != {b}")
        try:
            legal = whole.compiled.legal(v)
            if out or not legal or whole.compiled.terminal(v):
                break
            key = rng.choice(legal)
            v = whole.compiled.step[key[0]](v, key)
        except Exception:  # noqa: BLE001
            break
        if v is None:
            break
    return out


def _check(game: str, operators: list[str], every: int, steps: int, per_state: int) -> int:
    model = rulespec.load(game)
    judges = Judges(model.spec, model, (), BUDGETS["quick"])
    checked = 0
    for m in mutants(model.spec, operators)[::every]:
        try:
            mut = m.make(model.spec)
            shared = _Models(mut, judges.models(model.spec))(None)
            whole = Model(mut, dict(model.interpretation))
        except (SpecError, ValueError, TypeError, KeyError, IndexError):
            continue
        found = _differences(whole, shared, steps, checked, per_state)
        assert not found, (m.id, found[:3])
        checked += 1
    return checked


@pytest.mark.parametrize("game", ["tic_tac_toe", "connect_four"])
def test_every_mutant_refuses_as_compiled_whole(game):
    assert _check(game, ["drop_precondition", "comparison", "constant"], 2, 12, 40) >= 6


@pytest.mark.slow
def test_motu_precondition_mutants_refuse_as_compiled_whole():
    """MOTU: dropped (the later ones shift) and changed preconditions, sampled."""
    assert _check("motu", ["drop_precondition", "negate_comparison"], 16, 12, 12) >= 5


def test_sharing_a_changed_precondition_is_noticed(monkeypatch):
    """The comparison can fail: a mutant told that every precondition is the spec's own
    refuses with the spec's rule where the dropped one moved the others up."""
    model = rulespec.load("tic_tac_toe")
    judges = Judges(model.spec, model, (), BUDGETS["quick"])

    def every_one(mut, orig):
        return {(i, j): j for i, a in enumerate(mut.actions)
                for j in range(len(a.preconditions)) if j < len(orig.actions[i].preconditions)}
    monkeypatch.setattr(share, "_same_precondition", every_one)
    found = 0
    for m in mutants(model.spec, ["negate_comparison"]):
        mut = m.make(model.spec)
        shared = _Models(mut, judges.models(model.spec))(None)
        found += bool(_differences(Model(mut, dict(model.interpretation)), shared, 10, 0, 50))
    assert found
