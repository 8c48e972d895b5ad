"""Mutant judgements through the verdict store (:mod:`rulespec.check.store`).

A judgement reads the whole mutated spec (its scenarios, ``check`` and ``prove`` run on
every rule), so it is keyed by the whole unmutated spec (IR, files, Python properties),
the scenario files, the mutant's id (which says which rule it changes and how), the
budget, the seed and whether ``prove`` judges too. Each judgement is kept as soon as it
is made: an interrupted ``mutate`` run again judges only the mutants it had not judged.
The baseline (the unmutated spec passes every judge) is kept the same way.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any, Callable, Sequence

import attrs

from ..store import MISSING, current
from .judge import Judges, MutantResult, scenario_files
from .operators import Mutant

KIND = "mutant"


class Stored:
    """One ``mutate`` run's view of the store (does nothing when no store is open)."""

    def __init__(self, game: str, judges: Judges, budget: str, seed: int, prove: bool,
                 files: Sequence[str] | None) -> None:
        self.store = current()
        self.hits = 0
        if self.store is None:
            return
        from ..fingerprint import SpecPrint
        digest = hashlib.sha256()
        for f in files if files is not None else scenario_files(game):
            digest.update(str(Path(f).name).encode() + b"\0" + Path(f).read_bytes() + b"\0")
        self.base = {"game": judges.spec.name, "spec": SpecPrint.of(judges.spec).whole(),
                     "scenarios": digest.hexdigest(), "budget": budget, "seed": seed,
                     "prove": prove}

    def baseline(self, check: Callable[[], None]) -> None:
        """Run ``check`` (it raises when the unmutated spec fails a judge) unless a run
        with the same key passed it."""
        if self.store is None:
            check()
            return
        key = {**self.base, "baseline": True}
        if self.store.get(KIND, key) is not MISSING:
            self.store.asked -= 1  # the baseline is not a verdict the output counts
            self.store.hits -= 1
            return
        self.store.asked -= 1
        check()
        self.store.put(KIND, key, "passed")

    def found(self, chosen: Sequence[Mutant]) -> dict[str, MutantResult]:
        """The judgements of ``chosen`` an earlier run made."""
        out: dict[str, MutantResult] = {}
        if self.store is None:
            return out
        for m in chosen:
            got = self.store.get(KIND, {**self.base, "mutant": m.id})
            if isinstance(got, MutantResult) and got.id == m.id:
                # the verdict is stored; where the rule is was written relative to the
                # folder the storing run ran in, and is this run's to say
                out[m.id] = attrs.evolve(got, where=m.where)
        self.hits = len(out)
        self.chosen = len(chosen)
        return out

    def keep(self, r: MutantResult) -> MutantResult:
        if self.store is not None:
            self.store.put(KIND, {**self.base, "mutant": r.id}, r)
        return r

    def counts(self) -> tuple[int, int] | None:
        return None if self.store is None else (self.hits, self.chosen)


__all__: list[Any] = ["Stored"]
