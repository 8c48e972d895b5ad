"""The spec's invariants that ``prove`` proved by induction, as premises of the
equivalence queries (:mod:`.equivalent`).

Why that is sound. Let I be invariants proved by induction *for the unmutated spec* under
a reading: they hold after every setup, and each action keeps them from any state within
bounds where they (and the other proved goals their step proofs used) hold, so I holds in
every state the spec can reach. Suppose the mutant's setup is the spec's, and in every
state within bounds where I holds its changed parts (legality, effects, chance weights,
whose turn, the end) give what the spec's give. Then, step by step from the same setup,
the mutant offers the same actions with the same outcomes and reaches the same states,
each one where I holds: the two games cannot be told apart, and the scores and tie-break
keys need agree only where I holds. Nothing proved of the mutant is used, nor anything
proved only to a depth (bounded model checking) or left UNKNOWN; ``prove``'s induction
keeps only goals whose step proofs rest on proved goals alone.

The proof is ``prove``'s own (step proofs and the base case, no dead rules, no search for
lemmas but the seat lemmas its first run states: each is proved by induction for the
unmutated spec like the invariants, so the argument holds for it), run once per reading in each
process and through the verdict store, so a second run finds it there. What it cost is
counted where it was spent (:attr:`Proved.units`: 0 for jobs from the store).
"""

from __future__ import annotations

import contextlib
import sys
import tempfile
from typing import Any, Callable, Mapping

import attrs

from ...runtime.model import Model
from ..results import PROVED


@attrs.frozen
class Proved:
    """The invariants proved by induction for the spec under one reading."""

    #: indices into ``spec.invariants`` (never a law: laws hold within bounds anyway)
    indices: tuple[int, ...]
    names: tuple[str, ...]
    #: Z3 resource units the proof spent here (those of jobs from the store not counted)
    units: int
    #: the seat lemmas (:mod:`..seats`) proved with them, as invariants to append to the
    #: spec's: their indices follow the spec's own in ``indices``
    lemmas: tuple = ()

    def spec_with_lemmas(self, spec: Any) -> Any:
        """``spec`` with :attr:`lemmas` after its invariants (what ``indices`` index)."""
        if not self.lemmas:
            return spec
        return attrs.evolve(spec, invariants=(*spec.invariants, *self.lemmas))


def prove_invariants(model: Model, rlimit: int) -> Proved:
    """The invariants ``prove`` shows by induction for ``model`` (the unmutated spec under
    one reading), each query with ``rlimit`` resource units."""
    from ..prove import prove_once, provable
    from ..seats import with_seat_lemmas
    own = len(model.spec.invariants)
    model = with_seat_lemmas(model)  # as prove's first run: the seats it states itself
    spec = model.spec
    laws = {i.name for i in spec.invariants if i.law}
    goals = [n for n in provable(model) if n not in laws and n not in spec.left_to_play]
    try:
        with tempfile.TemporaryDirectory() as tmp, contextlib.redirect_stdout(sys.stderr):
            # depth 0: what induction does not prove is not used, whatever BMC would say
            run = prove_once(model, property_names=goals, rlimit=rlimit, depth=0,
                             trace_dir=tmp)
    except Exception:  # noqa: BLE001 - no proof (a setup that raises...): no premises
        return Proved((), (), 0)
    proved = {r.property for r in run.results
              if r.checker == "z3-induction" and r.status == PROVED}
    kept = [(k, inv.name) for k, inv in enumerate(spec.invariants)
            if not inv.law and inv.name in proved]
    return Proved(tuple(k for k, _ in kept), tuple(n for _, n in kept),
                  max(0, run.rlimit - run.stored_units), tuple(spec.invariants[own:]))


class ProvedInvariants:
    """The proved invariants per reading, proved on first use and kept for the process.
    ``spent`` gathers the units of proofs made since :meth:`take_spent` was last called
    (a mutant's result carries what its judgement cost)."""

    def __init__(self, models: Callable[[Mapping[str, str]], Model], rlimit: int) -> None:
        self.models, self.rlimit = models, rlimit
        self._by_reading: dict[tuple, Proved] = {}
        self.spent = 0

    def __call__(self, reading: Mapping[str, str]) -> Proved:
        key = tuple(sorted(reading.items()))
        got = self._by_reading.get(key)
        if got is None:
            got = self._by_reading[key] = prove_invariants(self.models(reading), self.rlimit)
            self.spent += got.units
        return got

    def take_spent(self) -> int:
        spent, self.spent = self.spent, 0
        return spent
