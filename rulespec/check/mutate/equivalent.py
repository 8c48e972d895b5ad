"""Can a mutant change anything at all? Two sound tests, then a search for a witness.

A mutant nothing kills is *equivalent* when its behaviour provably cannot differ from the
spec's; only then is it left out of the score. Two tests show it:

* **as formulas** (Z3): every rule part the mutant changed -- the legality and the effects
  of each changed action, the chance weights, the flow rules, the score, the tie-break
  keys, the setup -- gives the same value (and raises where the spec raises) in *every*
  state within the declared bounds, reachable or not, under every reading of the
  interpretation points those parts read. Unreachable states count, so this may miss an
  equivalence; it never claims a false one. Asked again with the invariants ``prove``
  proved by induction for the spec as premises (:mod:`.invariants`, where it says why
  that is sound), it leaves out the states they rule out, but for the setup's query. Each
  query has a budget of Z3 resource units (``rlimit``), so the answer is the same on any
  machine.
* **by exhaustive play**: both are played in lockstep from every setup, breadth first, over
  every legal action and chance outcome, up to the game's declared length; if every
  reachable state was compared within the node budget and none differs (states, legal
  actions, the end, scores, winners), nothing a player can do tells them apart.

For a survivor the same lockstep search (and a few random games played in lockstep) may
find where it parts from the spec: that situation is what a new scenario should pin.
"""

from __future__ import annotations

import itertools
from typing import Any, Callable, Iterable, Mapping

import attrs
import z3

from ...compile.smt_backend import SmtGame, Unsupported, compile_smt
from ...ir.nodes import Expr
from ...ir.walk import statement_exprs, walk
from ...runtime.model import Model
from ...spec.elements import GameSpec
from .invariants import Proved

#: random games played in lockstep to find where a survivor parts from the spec
WITNESS_GAMES = 3
#: how a mutant was shown equivalent with the spec's proved invariants as premises
BY_PROVED_INVARIANTS = ("Z3: the changed rules agree in every state the proved invariants "
                        "allow")


@attrs.frozen
class Equivalence:
    """``equivalent`` with how it was shown, or where the mutant differs (if found)."""

    equivalent: bool
    how: str | None = None
    witness: str | None = None


@attrs.frozen
class Changed:
    """Which rule parts a mutant changed (by identity: unchanged parts are shared)."""

    setup: bool
    flow: bool
    actions: tuple[int, ...]
    score: bool
    tie_keys: tuple[int, ...]
    tie_directions: tuple[int, ...]
    defaults: tuple[str, ...]

    @property
    def nothing(self) -> bool:
        return not (self.setup or self.flow or self.actions or self.score or self.tie_keys
                    or self.tie_directions or self.defaults)


def changed_parts(orig: GameSpec, mut: GameSpec) -> Changed:
    """What differs between a spec and its mutant; parts that read an interpretation point
    whose default changed count as changed."""
    defaults = tuple(a.name for a, b in zip(orig.interpretations, mut.interpretations)
                     if a.default != b.default)

    def reads(exprs: Iterable[Expr]) -> bool:
        return bool(defaults) and any(n.op == "interp" and n.args[0].name in defaults
                                      for e in exprs for n in walk(e))
    flow = any(getattr(orig, k) is not getattr(mut, k) or (
        getattr(orig, k) is not None and reads([getattr(orig, k).expr]))
        for k in ("current_player", "chance_node", "terminal"))
    actions = tuple(i for i, (a, b) in enumerate(zip(orig.actions, mut.actions))
                    if a is not b or reads(_action_exprs(a)))
    tie_keys = tuple(k for k, (a, b) in enumerate(zip(orig.tie_breaks, mut.tie_breaks))
                     if a.key is not b.key or reads([a.key]))
    tie_dirs = tuple(k for k, (a, b) in enumerate(zip(orig.tie_breaks, mut.tie_breaks))
                     if a.lower_wins != b.lower_wins)
    return Changed(
        setup=orig.setup is not mut.setup or reads(statement_exprs(orig.setup)),
        flow=flow, actions=actions,
        score=orig.scoring.score is not mut.scoring.score or reads([orig.scoring.score]),
        tie_keys=tie_keys, tie_directions=tie_dirs, defaults=defaults)


def _action_exprs(a: Any) -> list[Expr]:
    out = [p.cond for p in a.preconditions] + list(statement_exprs(a.effects))
    return out + ([a.weight] if a.weight is not None else [])


def _parts_exprs(spec: GameSpec, ch: Changed) -> list[Expr]:
    out: list[Expr] = []
    if ch.setup:
        out += statement_exprs(spec.setup)
    if ch.flow:
        out += [r.expr for r in (spec.current_player, spec.chance_node, spec.terminal) if r]
    for i in ch.actions:
        out += _action_exprs(spec.actions[i])
    if ch.score:
        out.append(spec.scoring.score)
    for k in set(ch.tie_keys) | set(ch.tie_directions):
        out.append(spec.tie_breaks[k].key)
    return out


def readings(orig: GameSpec, mut: GameSpec, ch: Changed
             ) -> list[tuple[dict[str, str], dict[str, str]]]:
    """The pairs of readings to compare: every combination of the options of the points
    the changed parts read (a point whose default changed keeps each spec's default)."""
    read = {n.args[0].name for e in _parts_exprs(orig, ch) for n in walk(e) if n.op == "interp"}
    free = [p for p in orig.interpretations if p.name in read and p.name not in ch.defaults]
    base_o = {p.name: p.default for p in orig.interpretations}
    base_m = {p.name: p.default for p in mut.interpretations}
    out = []
    for combo in itertools.product(*(list(p.options) for p in free)):
        pick = {p.name: o for p, o in zip(free, combo)}
        out.append(({**base_o, **pick}, {**base_m, **pick}))
    return out


# --- as formulas --------------------------------------------------------------------------
def formula_equivalent(orig: GameSpec, mut: GameSpec, ch: Changed, rlimit: int,
                       invariants: Callable[[Mapping[str, str]], Proved] | None = None
                       ) -> bool | None:
    """True: the changed parts agree in every state within bounds, under every reading
    they read; False: Z3 found a state (within bounds, maybe unreachable) where they
    differ; None: undecided within ``rlimit`` resource units, or no Z3 encoding.

    ``invariants`` gives, for a reading of the spec, the invariants proved by induction
    for the spec under it: then only the states within bounds where they hold count
    (but for the setup, compared as it is)."""
    for ia, ib in readings(orig, mut, ch):
        try:
            proved = invariants(ia) if invariants is not None else None
            lemmas = proved.indices if proved is not None else ()
            g = compile_smt(orig if proved is None else proved.spec_with_lemmas(orig), ia)
            h = compile_smt(mut, ib)
            for query in _queries(g, h, ch, lemmas):
                found = _decide(query, rlimit)
                if found is not True:  # one part that may differ settles it
                    return found
        except Unsupported:
            return None
    return True


def _decide(query: tuple[list[Any], list[Any]], rlimit: int) -> bool | None:
    premises, differences = query
    differences = [d for d in (z3.simplify(d) for d in differences) if not z3.is_false(d)]
    if not differences:
        return True
    solver = z3.Solver()
    solver.set("rlimit", rlimit)
    solver.add(*premises, z3.Or(*differences))
    r = solver.check()
    return True if r == z3.unsat else False if r == z3.sat else None


def _differs(a: Any, b: Any) -> Any:
    """Two checked values differ: one raises and the other not, or both give values and
    the values are not equal (a cell list is compared cell by cell)."""
    errors = a.error != b.error if not z3.eq(a.error, b.error) else z3.BoolVal(False)
    if isinstance(a.value, list):
        cells = [x != y for x, y in zip(a.value, b.value) if not z3.eq(x, y)]
        value = z3.Or(*cells) if cells else z3.BoolVal(False)
    else:
        value = (a.value != b.value) if not z3.eq(a.value, b.value) else z3.BoolVal(False)
    return z3.Or(errors, z3.And(z3.Not(a.error), value))


def _queries(g: SmtGame, h: SmtGame, ch: Changed, lemmas: Iterable[int] = ()
             ) -> Iterable[tuple[list[Any], list[Any]]]:
    """One query per changed part: (premises, the ways the two can differ); ``lemmas``
    (invariants of the spec, by index, proved by induction) are premises of all but the
    setup's."""
    spec = g.spec
    if ch.setup:
        yield [], [_differs(g.initial_checked(n), h.initial_checked(n))
                   for n in range(spec.min_players, spec.max_players + 1)]
    s = g.fresh_state("s")
    within = [g.bounds(s), *(g.invariant_checked(k, s).holds() for k in lemmas)]
    if ch.flow:
        yield within, [_differs(g.current_player_checked(s), h.current_player_checked(s)),
                       _differs(g.terminal_checked(s), h.terminal_checked(s))]
    actions = set(ch.actions) | (set(range(len(spec.actions))) if ch.flow else set())
    for i in sorted(actions):
        x = g.params(i, prefix=f"a{i}")
        domain = [g.param_domain(i, s, x)]
        lg, lh = g.legal(i, s, x), h.legal(i, s, x)
        diffs = [lg != lh] if not z3.eq(lg, lh) else []
        if i in ch.actions:
            diffs.append(z3.And(lg, _differs(g.apply_checked(i, s, x),
                                             h.apply_checked(i, s, x))))
            if spec.actions[i].chance:
                diffs.append(z3.And(lg, _differs(g.weight_checked(i, s, x),
                                                  h.weight_checked(i, s, x))))
        yield within + domain, diffs
    p, q = z3.Int("player"), z3.Int("other")
    players = [0 <= p, p < s[0], 0 <= q, q < s[0]]
    if ch.score:
        yield within + players, [_differs(g.score_checked(s, p), h.score_checked(s, p))]
    for k in ch.tie_keys:
        yield within + players, [_differs(g.tie_key_checked(k, s, p),
                                          h.tie_key_checked(k, s, p))]
    for k in ch.tie_directions:  # a key that never tells two players apart breaks no tie
        a, b = g.tie_key_checked(k, s, p), g.tie_key_checked(k, s, q)
        yield within + players, [z3.And(z3.Not(a.error), z3.Not(b.error), a.value != b.value)]


# --- by play ----------------------------------------------------------------------------
def lockstep_equivalent(orig: GameSpec, mut: GameSpec, ch: Changed, nodes: int,
                        models: Callable[[GameSpec, Mapping[str, str]], Model],
                        witness_games: int = WITNESS_GAMES) -> tuple[bool, str | None]:
    """(True, None) when exhaustive lockstep play compared every reachable state of every
    reading and found no difference; else (False, where they differ, if found).

    Without a search budget (``nodes`` 0: a game too large to exhaust) only the spec's
    own reading is played, ``witness_games`` random games, for a witness: every other
    reading would cost two compilations and prove nothing."""
    from .lockstep import random_witness, search
    exhaustive_all = orig.horizon_reason is None and nodes > 0
    defaults = {p.name: p.default for p in orig.interpretations}
    pairs = readings(orig, mut, ch)
    for ia, ib in (pairs if nodes > 0 else pairs[:1]):
        ma, mb = models(orig, ia), models(mut, ib)
        label = _reading(ia, defaults)
        found, exhaustive = None, False
        try:
            if nodes > 0:
                found, exhaustive, _ = search(ma, mb, orig.max_steps + 1, nodes)
            if found is None and witness_games:
                found = random_witness(ma, mb, witness_games, 0)
        except Exception as err:  # noqa: BLE001 - the mutant's rules raise somewhere
            return False, f"{label}the mutant's rules raise: {type(err).__name__}: {err}"
        if found is not None:
            return False, label + found.text()
        exhaustive_all = exhaustive_all and exhaustive
    return exhaustive_all, None


def _reading(chosen: Mapping[str, str], defaults: Mapping[str, str]) -> str:
    """"reading k=v: " for the points not at their default, else nothing."""
    shown = ", ".join(f"{k}={v}" for k, v in chosen.items() if defaults.get(k) != v)
    return f"reading {shown}: " if shown else ""


def equivalence(orig: GameSpec, mut: GameSpec, rlimit: int, nodes: int, *,
                witness_games: int = WITNESS_GAMES,
                models: Callable[[GameSpec, Mapping[str, str]], Model] | None = None,
                invariants: Callable[[Mapping[str, str]], Proved] | None = None,
                invariant_readings: int = 8, invariant_rlimit: int | None = None
                ) -> Equivalence:
    """Whether a mutant can change anything (see the module docstring). ``nodes`` is the
    lockstep search's budget (0: no search, only ``witness_games`` random games played in
    lockstep for a witness); ``invariants``, the spec's invariants proved by induction
    per reading (:class:`.invariants.ProvedInvariants`), asked only when the formulas
    alone do not show it and the change reads at most ``invariant_readings`` readings
    (each may cost a proof of the spec); those queries, whose premises are the proof's,
    may spend ``invariant_rlimit`` units each (default ``rlimit``)."""
    ch = changed_parts(orig, mut)
    if ch.nothing:
        return Equivalence(True, "the change reaches no rule")
    # play first: a difference found in play settles it (and is the witness to show)
    same, witness = lockstep_equivalent(orig, mut, ch, nodes, models or Model, witness_games)
    if same:
        return Equivalence(True, "every reachable state compared in lockstep play: no "
                                 "difference")
    if witness is not None:
        return Equivalence(False, witness=witness)
    if formula_equivalent(orig, mut, ch, rlimit):
        return Equivalence(True, "Z3: the changed rules agree in every state within the "
                                 "declared bounds")
    if (invariants is not None and len(readings(orig, mut, ch)) <= invariant_readings
            and formula_equivalent(orig, mut, ch, invariant_rlimit or rlimit, invariants)):
        return Equivalence(True, BY_PROVED_INVARIANTS)
    return Equivalence(False)
