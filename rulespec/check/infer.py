"""Auxiliary invariants the prover finds itself (issue 28, item 1).

A goal that is true in every reachable state may still fail its step proof: the state the
step starts from satisfies the invariants but is unreachable. The usual cure is a
stronger invariant; rather than ask the spec writer for it, ``prove`` looks for one:

1. **Candidates from the spec**: each counter's range (tighter than declared); linear
   relations between two counters that change together (``x = y + k``, ``x + y = k``,
   ``x + y <= c``, ``x <= y``, a counter against the number of players); and facts that
   hold while an enum flow field (the phase) has one value (``phase = P -> x = c``).
2. **Play filters them**: the setup states and a few hundred states of seeded random
   games on the Python model drop every candidate one of them breaks, before any solver
   query.
3. **Houdini**: the survivors (and the spec's invariants) are assumed before a step of
   every action; a candidate that some step can break is dropped; repeated until none
   is. The rest are *relatively inductive*: each step keeps them all.

What remains is only a suggestion: the lemmas join the spec's invariants as goals of
their own and are proved by the ordinary step proofs and the induction (and a goal that
needs one is proved only when the lemma is). Budgets are Z3 resource units; for one seed
the lemmas are always the same.
"""

from __future__ import annotations

import itertools
import random
from typing import Any, Callable, Iterable, Sequence

import attrs
import z3

from ..compile.smt_backend import SmtGame, Unsupported, compile_smt
from ..compile.smt_terms import own_context
from ..ir.english import to_english
from ..ir.nodes import BOOL, INT, Expr, Field, implies, lift
from ..runtime.model import Model
from ..spec.elements import Invariant
from .solvers import check, limited, simple_solver

#: the provenance every inferred lemma carries (``Result.evidence["provenance"]``)
INFERRED = "inferred"
#: what stands where a rule cites its rulebook: no rulebook states a lemma
SOURCE = ("inferred by the prover (not in the rulebook): true after every setup and kept "
          "by every step")
#: what a lemma's name starts with: it is the prover's, not the rulebook's
PREFIX = "inferred: "
#: random states played per player count to filter the candidates (plus the setups)
STATES_PER_COUNT = 200
#: an array field with at most this many cells gives one counter per cell
SMALL_ARRAY = 8
#: Houdini rounds at most (each round drops at least one candidate, or stops)
ROUNDS = 30


@attrs.frozen
class Atom:
    """One cell a candidate talks about: where it is in the state and how the spec names
    it."""

    offset: int
    expr: Expr = attrs.field(eq=False)
    kind: str  # "int", "bool" or "enum"
    enum: Any = attrs.field(default=None, eq=False)


@attrs.frozen
class Candidate:
    """A fact to try: ``holds`` reads a state's flat values, ``expr`` is the spec's."""

    expr: Expr = attrs.field(eq=False)
    holds: Callable[[tuple], bool] = attrs.field(eq=False)

    @property
    def text(self) -> str:
        return to_english(self.expr, cite=False)

    @property
    def name(self) -> str:
        """The lemma's property name: its reading, marked as the prover's."""
        return PREFIX + self.text


@attrs.frozen
class Inference:
    """What inference found: the lemmas kept, how many candidates it started from (after
    play), and the resource units its queries spent."""

    lemmas: list[Candidate]
    candidates: int
    played: int
    units: int
    #: the candidates play left that a step could break (dropped), by text
    dropped: list[str] = attrs.field(factory=list)

    def summary(self) -> dict[str, Any]:
        """As plain data (``prove --json``'s ``inference``)."""
        return {"lemmas": [c.text for c in self.lemmas], "candidates": self.candidates,
                "states_played": self.played, "dropped": self.dropped,
                "rlimit_spent": self.units}


# --- atoms ------------------------------------------------------------------------------
def atoms_of(model: Model) -> list[Atom]:
    """The counters, flags and enum cells of the state a candidate may name: every scalar
    field, and each cell of a small array (the number of players too)."""
    out = []
    for name, slot in model.layout.slots.items():
        f = slot.field
        if f.size > SMALL_ARRAY:
            continue
        kind = "bool" if f.type == BOOL else "int" if f.type == INT else "enum"
        for k, idx in enumerate(itertools.product(*(range(d.size) for d in f.dims))):
            out.append(Atom(slot.offset + k, _cell(model, f, idx), kind, f.type.enum))
    return out


def _cell(model: Model, f: Field, idx: tuple) -> Expr:
    if f is model.spec.num_players_field:
        return Expr("num_players", (), INT)
    if not idx:
        return lift(f)
    return f[tuple(list(d.enum)[i] if d.enum is not None else i
                   for d, i in zip(f.dims, idx))]


# --- candidates -------------------------------------------------------------------------
def played_states(model: Model, seed: int = 0, per_count: int = STATES_PER_COUNT
                  ) -> list[tuple]:
    """The setup states and ``per_count`` states of seeded random games per player count."""
    rng = random.Random(seed)
    out: list[tuple] = []
    for n in range(model.min_players, model.max_players + 1):
        got = 0
        while got < per_count:
            state = model.initial_state(n)
            out.append(state.values)
            for _ in range(model.spec.max_steps):
                action = model.random_action(state, rng)
                if action is None or got >= per_count:
                    break
                state = model.apply(state, action)
                out.append(state.values)
                got += 1
            else:
                continue
            if action is None and got == 0:
                break  # a game over at its setup: nothing more to play
    return out


def candidates(model: Model, states: Sequence[tuple]) -> list[Candidate]:
    """Every candidate fact no state of ``states`` breaks, in a fixed order."""
    atoms = atoms_of(model)
    out: list[Candidate] = []
    seen: set[str] = set()

    def add(expr: Expr, holds: Callable[[tuple], bool]) -> None:
        c = Candidate(expr, holds)
        if c.text not in seen and all(holds(v) for v in states):
            seen.add(c.text)
            out.append(c)
    ints = [a for a in atoms if a.kind == "int"]
    span = {a.offset: (min(v[a.offset] for v in states), max(v[a.offset] for v in states))
            for a in ints}
    fields = {s.offset: s.field for s in model.layout.slots.values()}
    for a in ints:  # ranges, tighter than declared
        lo, hi = span[a.offset]
        f = _field_at(model, a.offset, fields)
        if lo == hi and (f.lo != lo or f.hi != hi):
            add(a.expr == lo, lambda v, o=a.offset, c=lo: v[o] == c)
        else:
            if lo > f.lo:
                add(a.expr >= lo, lambda v, o=a.offset, c=lo: v[o] >= c)
            if f.hi is None or hi < f.hi:
                add(a.expr <= hi, lambda v, o=a.offset, c=hi: v[o] <= c)
    moving = [a for a in ints if span[a.offset][0] < span[a.offset][1] and a.offset != 0]
    together = _changing_together(states, [a.offset for a in moving])
    for a, b in itertools.combinations(moving, 2):
        if (a.offset, b.offset) not in together:
            continue
        oa, ob = a.offset, b.offset
        d = {v[oa] - v[ob] for v in states}
        s = {v[oa] + v[ob] for v in states}
        if len(d) == 1:
            k = d.pop()
            add(a.expr == b.expr + k, lambda v, oa=oa, ob=ob, k=k: v[oa] == v[ob] + k)
        if len(s) == 1:
            k = s.pop()
            add(a.expr + b.expr == k, lambda v, oa=oa, ob=ob, k=k: v[oa] + v[ob] == k)
        else:
            top = max(s)
            fa, fb = _field_at(model, oa, fields), _field_at(model, ob, fields)
            if fa.hi is None or fb.hi is None or top < fa.hi + fb.hi:
                add(a.expr + b.expr <= top, lambda v, oa=oa, ob=ob, c=top: v[oa] + v[ob] <= c)
        add(a.expr <= b.expr, lambda v, oa=oa, ob=ob: v[oa] <= v[ob])
        add(b.expr <= a.expr, lambda v, oa=oa, ob=ob: v[ob] <= v[oa])
    players = next(a for a in atoms if a.offset == 0)
    for a in moving:  # against the number of players
        o = a.offset
        d = {v[o] - v[0] for v in states}
        if len(d) == 1:
            k = d.pop()
            add(a.expr == players.expr + k, lambda v, o=o, k=k: v[o] == v[0] + k)
        add(a.expr <= players.expr, lambda v, o=o: v[o] <= v[0])
        add(a.expr < players.expr, lambda v, o=o: v[o] < v[0])
    for e in (a for a in atoms if a.kind == "enum" and _is_flow(model, a, fields)):
        for m in sorted({v[e.offset] for v in states}):
            _phase_facts(e, m, [v for v in states if v[e.offset] == m], atoms, span, add)
    return out


def _phase_facts(e: Atom, m: int, states: list[tuple], atoms: list[Atom],
                 span: dict[int, tuple[int, int]], add: Callable) -> None:
    """Facts of the states where the enum cell ``e`` has member ``m``: a flag's value, a
    counter's range tighter than in every state, an enum cell's one member."""
    when = e.expr == list(e.enum)[m]
    oe = e.offset

    def under(fact: Expr, test: Callable[[tuple], bool]) -> None:
        add(implies(when, fact), lambda v: v[oe] != m or test(v))
    for a in atoms:
        o = a.offset
        seen = {v[o] for v in states}
        if o == oe or not seen:
            continue
        if a.kind == "bool" and len(seen) == 1:
            flag = bool(seen.pop())
            under(a.expr if flag else ~a.expr, lambda v, o=o, f=flag: bool(v[o]) == f)
        elif a.kind == "enum" and len(seen) == 1:
            k = seen.pop()
            under(a.expr == list(a.enum)[k], lambda v, o=o, k=k: v[o] == k)
        elif a.kind == "int":
            lo, hi = min(seen), max(seen)
            glo, ghi = span[o]
            if lo == hi and (glo, ghi) != (lo, hi):
                under(a.expr == lo, lambda v, o=o, c=lo: v[o] == c)
            else:
                if lo > glo:
                    under(a.expr >= lo, lambda v, o=o, c=lo: v[o] >= c)
                if hi < ghi:
                    under(a.expr <= hi, lambda v, o=o, c=hi: v[o] <= c)


def _changing_together(states: Sequence[tuple], offsets: list[int]) -> set[tuple[int, int]]:
    """The pairs of cells (in ``offsets``' order) that some step of play changed both of."""
    out: set[tuple[int, int]] = set()
    for before, after in zip(states, states[1:]):
        changed = [o for o in offsets if before[o] != after[o]]
        if len(changed) < 16:  # a new game's setup changes everything: not one step
            out.update(itertools.combinations(changed, 2))
    return out


def _field_at(model: Model, offset: int, fields: dict[int, Field]) -> Field:
    best = max(o for o in fields if o <= offset)
    return fields[best]


def _is_flow(model: Model, a: Atom, fields: dict[int, Field]) -> bool:
    f = _field_at(model, a.offset, fields)
    return f.flow and not f.dims


# --- Houdini ----------------------------------------------------------------------------
def houdini(model: Model, found: Sequence[Candidate], rlimit: int) -> tuple[list[int], int]:
    """The indices of ``found`` that every step keeps, assuming all of them, the spec's
    invariants and the bounds before it; and the resource units spent. A query that runs
    out of units drops what it asked about (never kept unproved: the lemmas are proved
    again as goals)."""
    spec = attrs.evolve(model.spec, invariants=tuple(model.spec.invariants) + tuple(
        Invariant(f"candidate {i}", c.expr, None, None) for i, c in enumerate(found)))
    first = len(model.spec.invariants)
    alive = list(range(len(found)))
    units = 0
    with own_context():
        smt = compile_smt(spec, model.interpretation)
        s = smt.fresh_state("s")
        given = [smt.bounds(s)] + [
            smt.invariant_checked(k, s).holds() for k, inv in enumerate(model.spec.invariants)
            if inv.name not in model.spec.left_to_play]
        pre = {i: smt.invariant_checked(first + i, s).holds() for i in alive}
        steps = []
        for a in range(len(spec.actions)):
            p = smt.params(a, f"p{a}")
            try:
                after = smt.apply_checked(a, s, p)
            except Unsupported:
                return [], units
            steps.append((smt.legal(a, s, p), after))
        for _ in range(ROUNDS):
            broken: set[int] = set()
            for legal, after in steps:
                post = {i: smt.invariant_checked(first + i, after.value).holds() for i in alive}
                solver = limited(simple_solver(), rlimit)
                solver.add(*given, legal, z3.Not(after.error), *[pre[i] for i in alive])
                asked = [i for i in alive if i not in broken]
                while asked:
                    solver.push()
                    solver.add(z3.Or(*[z3.Not(post[i]) for i in asked]))
                    r = check(solver)
                    units += solver.rulespec_spent
                    if r == z3.sat:
                        m = solver.model()
                        out = {i for i in asked
                               if not z3.is_true(m.eval(post[i], model_completion=True))}
                        broken |= out or set(asked)
                    elif r == z3.unknown:
                        broken |= set(asked)
                    solver.pop()
                    if r != z3.sat:
                        break
                    asked = [i for i in asked if i not in broken]
            if not broken:
                break
            alive = [i for i in alive if i not in broken]
    return alive, units


def infer(model: Model, rlimit: int, seed: int = 0) -> Inference:
    """The lemmas inference keeps for ``model``: candidates from the spec, filtered by
    play, then by Houdini."""
    states = played_states(model, seed)
    found = candidates(model, states)
    alive, units = houdini(model, found, rlimit)
    kept = set(alive)
    return Inference([found[i] for i in alive], len(found), len(states), units,
                     [c.text for i, c in enumerate(found) if i not in kept])


def strengthened(model: Model, lemmas: Iterable[Candidate]) -> Model:
    """``model`` with the lemmas as invariants of its spec (named by their text, marked
    as the prover's), to be proved like the others."""
    extra = tuple(Invariant(c.name, c.expr, SOURCE, None,
                            doc="found by the prover (inferred), not written in the spec",
                            proof_aid=True) for c in lemmas)
    spec = attrs.evolve(model.spec, invariants=tuple(model.spec.invariants) + extra)
    return Model(spec, model.interpretation)


def is_inferred(name: str) -> bool:
    return name.startswith(PREFIX)
