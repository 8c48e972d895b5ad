"""A mutant's ``check`` is skipped only when it would replay the spec's passing check call
for call (:mod:`rulespec.check.mutate.replay`): every verdict is the one the check gives
when it is run, and a mutant only ``check`` kills is still killed."""

from __future__ import annotations

import attrs
import pytest

import rulespec
from rulespec.check.mutate import mutants
from rulespec.check.mutate import replay
from rulespec.check.mutate.judge import BUDGETS, CHECK, KILLED, Judges


#: the quick budget, but a survivor's equivalence is searched without first proving the
#: spec's invariants under its reading (one Crazy Eights mutant's such proofs took 54 s of
#: the 62 its judgements took): that judge comes after ``check``, the same in both judges
BUDGET = attrs.evolve(BUDGETS["quick"], proof_readings=0)


def _judges(model, skip: bool) -> Judges:
    """Judges without scenarios (``check`` is the first judge that can kill); ``skip``
    False: never replay, always run the check."""
    judges = Judges(model.spec, model, (), BUDGET)
    judges.baseline()
    if not skip:
        object.__setattr__(judges, "_recording", False)
    return judges


@pytest.mark.parametrize("game,every", [
    ("connect_four", 1), pytest.param("crazy_eights", 24, marks=pytest.mark.slow)])
def test_replay_gives_every_verdict_the_check_gives(game, every, monkeypatch):
    model = rulespec.load(game)
    asked, skipped = [], []
    real = replay.Recording.replays

    def counted(self, m):
        got = real(self, m)
        asked.append(m)
        skipped.extend([m] if got else [])
        return got
    monkeypatch.setattr(replay.Recording, "replays", counted)
    fast, slow = _judges(model, True), _judges(model, False)
    chosen = mutants(model.spec)[::every]
    run = {}
    for m in chosen:
        run[m.id] = slow.judge(m)
        assert fast.judge(m) == run[m.id], m.id
    assert asked   # the replay was consulted, not bypassed
    killed = [m for m in chosen if run[m.id].by == CHECK]
    assert killed  # and some of these verdicts are check's kills


CAPPED = '''
from rulespec.spec import Game

SRC = "test: a bonus under a cap the counter never reaches"
game = Game("capped", title="Capped", players=1, source=SRC)
n = game.field("n", range(0, 10), source=SRC, doc="steps taken")
bonus = game.field("bonus", range(0, 10), source=SRC, doc="bonus points")


@game.action(text="step", source=SRC)
def step(rule):
    """One step; a bonus while the counter is under 20 (always, within its bounds)."""
    rule.require(n < 3, "fewer than three steps", source=SRC)
    rule.add(n, 1)
    with rule.when(n < 20, source=SRC):
        rule.add(bonus, 1)


game.current_player(0, source=SRC)
game.terminal(n == 3, source=SRC)
game.max_steps(3, source=SRC)
game.score(lambda p: bonus, source=SRC)
SPEC = game.build()
'''


def test_a_mutant_whose_rules_answer_as_the_spec_s_is_not_checked_again(tmp_path,
                                                                       monkeypatch):
    """``n < 20`` made ``n <= 20`` answers every call the spec's check made as the spec
    did: its check is skipped, with the verdict a check gives. (A compiled mutant's layout
    is an object of its own, compared by identity: before, no check was ever skipped.)"""
    path = tmp_path / "capped.py"
    path.write_text(CAPPED)
    model = rulespec.load(str(path))
    skipped = []
    real = replay.Recording.replays

    def counted(self, m):
        got = real(self, m)
        skipped.extend([m] if got else [])
        return got
    monkeypatch.setattr(replay.Recording, "replays", counted)
    fast, slow = _judges(model, True), _judges(model, False)
    chosen = [m for m in mutants(model.spec) if m.id.startswith("weaken_comparison")]
    assert chosen
    for m in chosen:
        assert fast.judge(m) == slow.judge(m), m.id
    assert len(skipped) == len(chosen)


def test_a_mutant_only_check_kills_is_still_killed(monkeypatch):
    """The test above can fail: told that every changed function answers as the spec's,
    the replay skips the check of a mutant the check kills, and it survives."""
    model = rulespec.load("connect_four")
    judges = _judges(model, True)
    victim = next(m for m in mutants(model.spec) if judges.judge(m).by == CHECK)
    assert judges.judge(victim).status == KILLED
    monkeypatch.setattr(replay.Recording, "replays", lambda self, m: True)
    assert judges.judge(victim).status != KILLED


def test_a_mutant_that_changes_what_a_model_reads_directly_is_checked():
    """A precondition dropped (its text and source with it) or a tie-break turned round is
    read by the model without a compiled function: never replayed."""
    model = rulespec.load("connect_four")
    spec = model.spec
    drop = next(m for m in mutants(spec, ["drop_precondition"]))
    assert not replay.same_outside_functions(spec, drop.make(spec))
    effect = next(m for m in mutants(spec, ["drop_effect"]))
    assert replay.same_outside_functions(spec, effect.make(spec))
