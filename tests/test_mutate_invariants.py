"""Equivalence under the invariants ``prove`` proves by induction (docs/mutation.md).

The fixture ``tests/fixtures/mutate_invariants`` keeps a tally that is always twice its
count: a precondition on the tally repeats the count's in every reachable state but not in
every state within bounds. Only the spec's invariants proved by induction may serve as
premises: never a planted false one, nor one whose proof rests on a false one.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import rulespec
from rulespec.check.mutate import mutants
from rulespec.check.mutate.equivalent import (BY_PROVED_INVARIANTS, changed_parts,
                                              equivalence, formula_equivalent)
from rulespec.check.mutate.invariants import Proved, ProvedInvariants, prove_invariants
from rulespec.check.store import opened
from rulespec.runtime.model import Model

FIXTURE = Path(__file__).parent / "fixtures" / "mutate_invariants"
RLIMIT = 5_000_000


def _spec(planted: bool = False):
    if not planted:
        return rulespec.load(str(FIXTURE)).spec
    loaded = importlib.util.spec_from_file_location("mutate_invariants_planted",
                                                    FIXTURE / "spec.py")
    module = importlib.util.module_from_spec(loaded)
    loaded.loader.exec_module(module)
    return module.make(planted=True)


def _mutant(spec, mid):
    (m,) = [m for m in mutants(spec) if m.id == mid]
    mut = m.make(spec)
    return mut, changed_parts(spec, mut)


def _proved(spec):
    return ProvedInvariants(lambda reading: Model(spec, dict(reading)), RLIMIT)


def test_a_mutant_equivalent_only_where_the_game_goes_is_shown_so_with_proved_invariants():
    spec = _spec()
    for mid in ("drop_precondition@30:8", "weaken_comparison@30:21"):  # tally < 8
        mut, ch = _mutant(spec, mid)
        # within bounds but never reached: count 3 with tally 8
        assert formula_equivalent(spec, mut, ch, RLIMIT) is False, mid
        assert formula_equivalent(spec, mut, ch, RLIMIT, _proved(spec)) is True, mid
        same = equivalence(spec, mut, RLIMIT, 0, witness_games=0, invariants=_proved(spec))
        assert (same.equivalent, same.how) == (True, BY_PROVED_INVARIANTS), mid
        # without them the same judgement leaves it a survivor
        assert not equivalence(spec, mut, RLIMIT, 0, witness_games=0).equivalent


def test_a_mutant_that_really_differs_is_never_equivalent():
    spec = _spec()
    for mid in ("constant_minus_one@limit", "constant_plus_one@full_tally",
                "drop_effect@32:8", "negate_comparison@30:21"):
        mut, ch = _mutant(spec, mid)
        assert formula_equivalent(spec, mut, ch, RLIMIT, _proved(spec)) is False, mid
        assert not equivalence(spec, mut, RLIMIT, 0, witness_games=0,
                               invariants=_proved(spec)).equivalent, mid


def test_a_planted_false_invariant_and_one_resting_on_it_are_never_premises():
    spec = _spec(planted=True)
    proved = prove_invariants(Model(spec, {}), RLIMIT)
    assert proved.names == ("the_tally_is_twice_the_count",)
    assert proved.units > 0
    # the tally reaches 8 (a score of 1); the mutant asks for 9. Were "the tally stays at
    # most six" (proved only from "the count stays below three", which a step breaks) a
    # premise, the score's change would look unreachable and the mutant equivalent
    mut, ch = _mutant(spec, "constant_plus_one@full_tally")
    every = [k for k, inv in enumerate(spec.invariants) if not inv.law]
    trusted_all = formula_equivalent(spec, mut, ch, RLIMIT,
                                     lambda reading: Proved(tuple(every), (), 0))
    assert trusted_all is True  # what a wrongly trusted invariant would claim
    assert formula_equivalent(spec, mut, ch, RLIMIT, _proved(spec)) is False
    same = equivalence(spec, mut, RLIMIT, 0, witness_games=0, invariants=_proved(spec))
    assert not same.equivalent


def test_the_proof_is_made_once_per_reading_and_found_in_the_store(tmp_path):
    spec = _spec()
    with opened(folder=str(tmp_path)):
        first = _proved(spec)
        assert first({}).names == ("the_tally_is_twice_the_count",)
        spent = first.take_spent()
        assert spent > 0
        assert first({}).names == ("the_tally_is_twice_the_count",)
        assert first.take_spent() == 0  # kept in this process
        again = _proved(spec)  # another process: the store answers every job
        assert again({}).names == ("the_tally_is_twice_the_count",)
        assert again.take_spent() == 0
