"""The premises of a step proof: a symbolic state within bounds where every invariant and
law holds and every conserved total has its value after setup; and the solver that asks
small queries about them, naming the premises each proof used (its unsat core)."""

from __future__ import annotations

import math
import weakref
from typing import Any, Sequence, overload

import z3

from ...compile.smt_backend import SmtGame
from ...ir.nodes import BOOL
from ...runtime.model import Model
from ..frame import conjuncts, const_name, free_constants
from ..solvers import check, limited, simple_solver
from .goals import Goal


# per spec and interpretation (plain numbers: they serve every Z3 context; weak keys: a
# spec loaded later never sees another's entries)
_TOTALS: "weakref.WeakKeyDictionary[Any, dict[tuple, list[dict[int, int]]]]" = \
    weakref.WeakKeyDictionary()


def initial_totals(smt: SmtGame, k: int) -> dict[int, int]:
    """Conserved total ``k`` after setup, for each number of players (Python backend)."""
    per_spec = _TOTALS.get(smt.spec, {})
    key = tuple(sorted(smt.interpretation.items()))
    if key not in per_spec:
        remember_totals(Model(smt.spec, smt.interpretation))
    return _TOTALS[smt.spec][key][k]


def remember_totals(model: Model) -> None:
    """Compute the conserved totals after setup with an already compiled ``model`` (the
    parent of forked workers calls it, so that no job compiles the game again for them)."""
    spec = model.spec
    per_spec = _TOTALS.setdefault(spec, {})
    key = tuple(sorted(model.interpretation.items()))
    if key not in per_spec:
        states = {n: model.initial_state(n).values
                  for n in range(spec.min_players, spec.max_players + 1)}
        per_spec[key] = [{n: fn(v) for n, v in states.items()}
                         for fn in model.compiled.conserved]


class Premises:
    """A symbolic state within bounds where every invariant and law holds and every
    conserved total has its value after setup (for the state's number of players).

    Conservation laws are premises too: they are proved together with the invariants (a
    mutual induction whose base case is the setup), so assuming them is sound exactly when
    the induction succeeds -- which is when ``prove_game`` reports z3-induction.
    """

    def __init__(self, smt: SmtGame, fixed: dict[int, int] | None = None) -> None:
        s = smt.fresh_state("s")
        for i, v in (fixed or {}).items():  # cells given a value: a case of the proof
            s[i] = z3.IntVal(v)
        bounds: list[Any] = []
        bound_origins: list[tuple] = []
        for f in smt.spec.fields:  # each field's bounds: a premise of its own origin
            if f.type != BOOL:
                conjuncts(smt.field_bounds(f.name, s), bounds)
                bound_origins += [("bounds", f.name)] * (len(bounds) - len(bound_origins))
        skip = smt.spec.left_to_play  # not proved, so never assumed
        invariants = [smt.invariant_checked(k, s).holds() for k in range(len(smt.spec.invariants))]
        terms = [(("invariant", k), t) for k, t in enumerate(invariants)
                 if smt.spec.invariants[k].name not in skip]
        players = s[0].as_long() if z3.is_int_value(s[0]) else None
        self._conserved = [smt.conserved_checked(k, s) for k in range(len(smt.spec.conservation))]
        for k in range(len(smt.spec.conservation)):
            if smt.spec.conservation[k].name in skip:
                continue
            value = self._conserved[k].value
            for n, total in initial_totals(smt, k).items():
                if players is None:
                    terms.append((("conserved", k), z3.Implies(s[0] == n, value == total)))
                elif n == players:
                    terms.append((("conserved", k), value == total))
        self.state = s
        self.smt = smt
        self._reads: dict[str, frozenset[str]] = {}
        self._invariants = invariants
        self.terms: list[Any] = list(bounds)
        origins: list[tuple] = list(bound_origins)
        for origin, t in terms:
            conjuncts(t, self.terms)
            origins += [origin] * (len(self.terms) - len(origins))
        self._tracked: dict[int, tuple[Any, Any]] = {}  # premise -> (flag, flag => premise)
        self._flagged: dict[int, int] = {}  # a flag's term id -> its premise
        self._mentions: dict[str, list[int]] = {}  # constant name -> premises using it
        self._bounds: dict[str, list[int]] = {}  # constant name -> its bounds
        self._names = [frozenset(free_constants(t)) for t in self.terms]
        #: each premise by where it comes from and the cells it mentions: the same key
        #: names the same premise in a case with another number of players (a conserved
        #: total is one premise whatever cells its sum has)
        self.keys = [(o, frozenset() if o[0] == "conserved" else names)
                     for o, names in zip(origins, self._names)]
        #: where each premise conjunct comes from, by term id (several origins may share one)
        self.origins: dict[int, set[tuple]] = {}
        for t, origin in zip(self.terms, origins):
            self.origins.setdefault(t.get_id(), set()).add(origin)
        self._by_key: dict[tuple, list[int]] = {}
        for k, key in enumerate(self.keys):
            self._by_key.setdefault(key, []).append(k)
        for k, names in enumerate(self._names):
            for name in names:
                self._mentions.setdefault(name, []).append(k)
                if k < len(bounds):
                    self._bounds.setdefault(name, []).append(k)
        #: the declared bounds of each int cell (by term id), for interval reasoning
        self.intervals: dict[int, tuple[float, float]] = {}
        for f in smt.spec.fields:
            if f.type == BOOL:
                continue
            slot = smt.layout.slots[f.name]
            hi = math.inf if f.hi is None else f.hi
            for t in s[slot.offset:slot.offset + f.size]:
                if not z3.is_int_value(t):
                    self.intervals[t.get_id()] = (f.lo, hi)

    def invariant(self, k: int) -> Any:
        """Invariant ``k`` on this state (a premise unless left to play)."""
        return self._invariants[k]

    def reads(self, g: "Goal") -> frozenset[str]:
        """The cells (constant names) goal ``g`` reads in this state."""
        got = self._reads.get(g.name)
        if got is None:
            smt, s = self.smt, self.state
            if g.kind == "bounds":
                t = smt.field_bounds(g.field, s)
            elif g.kind == "invariant":
                t = self._invariants[g.index]  # built once, with the premises
            else:
                c = self._conserved[g.index]
                t = z3.And(c.value == 0, z3.Not(c.error))
            got = self._reads[g.name] = frozenset(free_constants(t))
        return got

    def about(self, t: Any, names: set[str] | None = None) -> list[int]:
        """The premises (by index) that share a constant with ``t`` (one step of the cone
        of influence), and the bounds of every constant those premises mention
        (``names``: the constants of ``t``, if known)."""
        picked: set[int] = set()
        for name in free_constants(t) if names is None else names:
            picked.update(self._mentions.get(name, ()))
        for k in list(picked):
            for name in self._names[k]:
                picked.update(self._bounds.get(name, ()))
        return sorted(picked)

    def mentioned_beyond(self, cell: Any, origin: tuple) -> bool:
        """Whether a premise not from ``origin`` mentions the cell (a constant)."""
        return any(self.keys[k][0] != origin for k in self._mentions.get(const_name(cell), ()))

    def bounds_of(self, terms: Sequence[Any]) -> set[tuple]:
        """The origins of the declared bounds of every cell in ``terms`` (what interval
        reasoning about them relies on)."""
        names = free_constants(*terms) if terms else set()
        return {self.keys[k][0] for n in names for k in self._bounds.get(n, ())}

    def having(self, keys: set[tuple]) -> list[int]:
        """The premises (by index) with these keys (see ``keys``)."""
        return sorted(k for key in keys for k in self._by_key.get(key, ()))

    def tracked(self, i: int) -> tuple[Any, Any]:
        """Premise ``i`` tracked in unsat cores: a Boolean flag, and the premise asserted
        only when the flag is assumed."""
        got = self._tracked.get(i)
        if got is None:
            flag = z3.Bool(f"premise!{i}")
            self._flagged[flag.get_id()] = i
            ctx = flag.ctx
            implied = z3.BoolRef(z3.Z3_mk_implies(ctx.ref(), flag.as_ast(),
                                                  self.terms[i].as_ast()), ctx)
            got = self._tracked[i] = (flag, implied)
        return got

    def flagged(self, core: Sequence[Any]) -> list[int]:
        """The premises (by index) whose flags an unsat core names."""
        return sorted(self._flagged[f.get_id()] for f in core)



class Refuter:
    """One solver for a case's small queries, with no preprocessing (fastest on them).

    The action's legality is asserted once; each query adds premises by index, each
    tracked, so an unsat answer also names the premises it needed (its unsat core).
    """

    def __init__(self, premises: Premises, legal: Any) -> None:
        self.p = premises
        self.solver = simple_solver()
        self.solver.add(legal)

    @overload
    def refute(self, picked: Sequence[int], extra: Sequence[Any], rlimit: int
               ) -> tuple[Any, list[int] | None]: ...

    @overload
    def refute(self, picked: Sequence[int], extra: Sequence[Any], rlimit: int,
               show: Sequence[Any]) -> tuple[Any, list[int] | None, list[bool]]: ...

    def refute(self, picked: Sequence[int], extra: Sequence[Any], rlimit: int,
               show: Sequence[Any] | None = None) -> Any:
        """Check the premises ``picked`` with ``extra`` within ``rlimit`` resource units:
        the verdict, and the core if unsat (and with ``show``: whether each of those
        Boolean terms is true in the model, if sat)."""
        solver, p = self.solver, self.p
        limited(solver, rlimit)
        solver.push()
        try:
            ctx, ref = solver.ctx.ref(), solver.solver
            flags = []
            for i in picked:
                flag, premise = p.tracked(i)
                flags.append(flag)
                z3.Z3_solver_assert(ctx, ref, premise.as_ast())
            for t in extra:
                z3.Z3_solver_assert(ctx, ref, t.as_ast())
            verdict = check(solver, *flags)
            if show is not None:
                held = []
                if verdict == z3.sat:
                    m = solver.model()
                    held = [z3.is_true(m.eval(t, model_completion=True)) for t in show]
                core = p.flagged(solver.unsat_core()) if verdict == z3.unsat else None
                return verdict, core, held
            if verdict != z3.unsat:
                return verdict, None
            return verdict, p.flagged(solver.unsat_core())
        finally:
            solver.pop()


