"""Auxiliary invariants the prover finds itself (issue 28, item 1).

A goal that is true in every reachable state may still fail its step proof: the state the
step starts from satisfies the invariants but is unreachable. The usual cure is a
stronger invariant; rather than ask the spec writer for it, ``prove`` looks for one:

1. **Candidates from the spec**: each counter's range (tighter than declared); linear
   relations between two counters that change together (``x = y + k``, ``x + y = k``,
   ``x + y <= c``, ``x <= y``, a counter against the number of players); facts that
   hold while an enum flow field (the phase) has one value (``phase = P -> x = c``); and,
   for two arrays of one shape, that where a flag of the first is set the second's cell
   is set too, or no longer holds its first value (``revealed[p] -> traveller[p] ≠
   none``: what a player has shown has been dealt).
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

from ..compile.python_backend import RuleError
from ..compile.smt_backend import SmtGame, Unsupported, compile_smt
from ..compile.smt_terms import own_context
from ..ir.english import to_english
from ..ir.nodes import (BOOL, INT, Domain, Expr, Field, Reading, count, forall, implies,
                        lift, sum_of)
from ..runtime.model import Model
from ..spec.elements import Invariant
from ..ir.raising import fields_where_raising
from ..ir.walk import fields_read, statement_exprs
from .results import PROVED, UNKNOWN, Result
from .steps.goals import BOUNDS, RULE_ERRORS
from .solvers import check, limited, simple_solver

#: the provenance every inferred lemma carries (``Result.evidence["provenance"]``)
INFERRED = "inferred"
#: what stands where a rule cites its rulebook: no rulebook states a lemma
SOURCE = "not in the rulebook: true after every setup and kept by every step"
#: what a lemma's name starts with: it is the prover's, not the rulebook's
PREFIX = "inferred: "
#: random games played per player count to filter the candidates, at most, and the
#: steps after which no further game starts
GAMES_PER_COUNT = 8
STATES_PER_COUNT = 2000
#: an array field with at most this many cells gives one counter per cell
SMALL_ARRAY = 8
#: with more moving numbers than this, only the pairs one step changes both of are related
MANY = 40
#: the search spends at most this many queries' resource units in all; past it, it keeps
#: no lemma (the survivors so far are not yet shown to be kept by every step)
SEARCH_QUERIES = 32
#: Houdini rounds at most (each round drops at least one candidate, or stops)
ROUNDS = 30


@attrs.frozen
class Candidate:
    """A fact to try: ``expr`` is the spec's; ``holds`` is how play tested it (on the
    atoms' values, or on a state's cells for facts about two arrays)."""

    expr: Expr = attrs.field(eq=False)
    holds: Callable[[tuple], bool] = attrs.field(eq=False)
    #: ``holds`` reads a state's cells (else the atoms' values: :func:`atoms_of`)
    on_cells: bool = False

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
    #: the candidates every step keeps that the open goals do not need, or that the
    #: kept lemmas imply, by text
    unneeded: list[str] = attrs.field(factory=list)
    #: the candidates play left that name none of the open goals' fields (not tried)
    unfocused: int = 0

    def summary(self) -> dict[str, Any]:
        """As plain data (``prove --json``'s ``inference``)."""
        return {"lemmas": [c.text for c in self.lemmas], "candidates": self.candidates,
                "states_played": self.played, "dropped": self.dropped,
                "unneeded": self.unneeded, "rlimit_spent": self.units,
                "not_about_the_open_goals": self.unfocused}


# --- atoms ------------------------------------------------------------------------------
@attrs.frozen
class Atom:
    """One number a candidate talks about: a cell of the state, or a count over an
    array's cells; how to read it on a state's flat values and how the spec names it."""

    expr: Expr = attrs.field(eq=False)
    read: Callable[[tuple], int] = attrs.field(eq=False)
    kind: str  # "int", "bool" or "enum"
    lo: int | None = None  # declared bounds (None: none known)
    hi: int | None = None
    enum: Any = attrs.field(default=None, eq=False)
    #: a scalar flow field (the phase, the player to move): facts may be conditioned on it
    flow: bool = False


def atoms_of(model: Model) -> list[Atom]:
    """The numbers of the state a candidate may name: every scalar field, each cell of a
    small array (the number of players too), and per array of flags or enum members the
    number of cells that are set, or that hold each member (of an enum of few members) or
    differ from the cells' first value."""
    out = []
    for name, slot in model.layout.slots.items():
        f, off = slot.field, slot.offset
        kind = "bool" if f.type == BOOL else "int" if f.type == INT else "enum"
        if f.size <= SMALL_ARRAY:
            for k, idx in enumerate(itertools.product(*(range(d.size) for d in f.dims))):
                out.append(Atom(_cell(model, f, idx), lambda v, o=off + k: v[o], kind,
                                f.lo, f.hi, f.type.enum, f.flow and not f.dims))
        if not f.dims or kind == "int":
            continue
        cells = slice(off, off + f.size)
        if kind == "bool":
            out.append(Atom(_count(f, lambda c: c, f"{f.name} cells set"),
                            lambda v, c=cells: sum(map(bool, v[c])), "int", 0, f.size))
            continue
        members = list(f.type.enum)
        first = _flatten_first(f.initial)
        wanted = range(len(members)) if len(members) <= SMALL_ARRAY else [first]
        for m in wanted:
            member = f.type.enum.name_of(m)
            if m == first and len(members) > SMALL_ARRAY:
                out.append(Atom(_count(f, lambda c, e=members[m]: c != e,
                                       f"{f.name} cells other than {member}"),
                                lambda v, c=cells, m=m: sum(x != m for x in v[c]),
                                "int", 0, f.size))
            else:
                out.append(Atom(_count(f, lambda c, e=members[m]: c == e,
                                       f"{f.name} cells that are {member}"),
                                lambda v, c=cells, m=m: sum(x == m for x in v[c]),
                                "int", 0, f.size))
    return out


def _flatten_first(v: Any) -> int:
    while isinstance(v, (list, tuple)):
        v = v[0]
    return int(v)


def _count(f: Field, test: Callable[[Expr], Expr], words: str) -> Expr:
    """How many cells of array ``f`` pass ``test``, as the spec would write it."""
    e = _over_cells(f, lambda idx: test(f[idx]), count, sum_of)
    return Expr(e.op, e.args, e.type, e.where, e.label, Reading(f"the number of {words}"))


def _over_cells(f: Field, body: Callable[[tuple], Expr], last: Callable, outer: Callable,
                seated: bool = False) -> Expr:
    """``body`` of each index of array ``f``, bound by ``last`` over the last dimension and
    ``outer`` over the others, each index with a name of its own (the English printer
    reads the lambdas' names); ``seated``: a players dimension ranges over the players of
    the game ("for every player p"), not every seat of the array."""
    doms = [d.enum if d.enum is not None
            else Domain(0, Expr("num_players", (), INT), d.size, None, "players")
            if seated and d.players else range(d.size) for d in f.dims]
    names = [("p" if d.players else d.enum.name[0].lower() if d.enum is not None else "i")
             + (str(k) if len(f.dims) > 1 else "") for k, d in enumerate(f.dims)]

    def over(k: int, idx: list) -> Expr:
        def inner(i: Expr) -> Expr:
            if k == len(doms) - 1:
                return body(tuple(idx + [i]))
            return over(k + 1, idx + [i])
        fn = eval(f"lambda {names[k]}: inner({names[k]})", {"inner": inner})  # noqa: S307
        return (last if k == len(doms) - 1 else outer)(doms[k], fn)
    return over(0, [])


def _shape(f: Field) -> list[tuple]:
    return [(d.size, d.enum, d.players) for d in f.dims]


def _cell_facts(model: Model, games: Sequence[Sequence[tuple]]) -> list[Candidate]:
    """For two arrays of one shape: where the first's flag is set, the second's flag is
    set too, or its cell no longer holds its first value; one fact over every index,
    kept when no played state breaks it in any cell (and some state sets the flag)."""
    states = [v for game in games for v in game]
    slots = [s for s in model.layout.slots.values() if s.field.dims
             and s.field is not model.spec.num_players_field]
    out = []
    for a in slots:
        f = a.field
        if f.type != BOOL:
            continue
        flags = range(a.offset, a.offset + f.size)
        if not any(v[o] for v in states for o in flags):
            continue  # never set in play: said by the flag's own range, if at all
        for b in slots:
            g = b.field
            if g is f or g.type == INT or _shape(g) != _shape(f):
                continue
            # the second cell: set (a flag), or no longer its first value (an enum member)
            if g.type == BOOL:
                keeps: Callable[[int], bool] = bool
                said: Callable[[Expr], Expr] = lambda c: c  # noqa: E731
            else:
                first = _flatten_first(g.initial)
                keeps = lambda x, m=first: x != m  # noqa: E731
                said = lambda c, m=list(g.type.enum)[first]: c != m  # noqa: E731
            holds = (lambda v, r=flags, d=b.offset - a.offset, k=keeps:
                     all(k(v[o + d]) for o in r if v[o]))
            if all(holds(v) for v in states):  # the term only for what play kept
                out.append(Candidate(_over_cells(
                    f, lambda i, f=f, g=g, s=said: implies(f[i], s(g[i])), forall, forall,
                    seated=True), holds, on_cells=True))
    return out


def _player_arrays(model: Model) -> list[Any]:
    """The slots of the arrays of flags or enum members indexed by player."""
    return [s for s in model.layout.slots.values() if len(s.field.dims) == 1
            and s.field.dims[0].players and s.field.type != INT]


def _flow_values(model: Model, states: Sequence[tuple]
                 ) -> list[tuple[Expr, Callable[[tuple], bool]]]:
    """Each flow field (the phase) with each value a played state gives it: "the field
    has it", and the test of a state."""
    return [(lift(fl.field) == list(fl.field.type.enum)[m],
             lambda v, o=fl.offset, m=m: v[o] == m)
            for fl in model.layout.slots.values()
            if fl.field.flow and not fl.field.dims and fl.field.type.enum is not None
            for m in sorted({v[fl.offset] for v in states})]


def _moved_tests(f: Field) -> list[tuple[Callable[[int], bool], Callable[[Expr], Expr]]]:
    """What a cell of ``f`` may be said to hold, as a test of its value and as a fact of
    its term: a flag set (or, second, clear), or an enum cell left its first value."""
    if f.type == BOOL:
        return [(bool, lambda c: c), (lambda x: not x, lambda c: ~c)]
    first = _flatten_first(f.initial)
    return [(lambda x, k=first: x != k, lambda c, e=list(f.type.enum)[first]: c != e)]


def _seated_facts(model: Model, games: Sequence[Sequence[tuple]]) -> list[Candidate]:
    """While a flow field (the phase) has one value: every seated player's flag of a
    per-player array is set (or clear), or every seated player's cell has left its first
    value ('in the traveller phase, each player's traveller has been dealt'); kept when
    every played state of that value shows it, and some state of another value does not
    (else it needs no condition)."""
    states = [v for game in games for v in game]
    seats = model.layout.slots[model.spec.num_players_field.name].offset
    arrays = _player_arrays(model)
    out = []
    for when, test in _flow_values(model, states):
        part = [v for v in states if test(v)]
        for a in arrays:
            f = a.field
            for keeps, said in _moved_tests(f):
                def holds(v: tuple, k: Callable = keeps, o: int = a.offset) -> bool:
                    return all(k(v[o + p]) for p in range(v[seats]))
                if all(holds(v) for v in part) and not all(holds(v) for v in states):
                    fact = _over_cells(f, lambda i, f=f, s=said: s(f[i]), forall, forall,
                                       seated=True)
                    out.append(Candidate(implies(when, fact),
                                         lambda v, h=holds, t=test: not t(v) or h(v),
                                         on_cells=True))
    return out


def _prefix_facts(model: Model, games: Sequence[Sequence[tuple]]) -> list[Candidate]:
    """Over an array indexed by player and a counter: the seats before the counter have
    their flag set (or their cell left its first value), the seats from it on not
    (the first ``dealt`` seats have a card), in every state or while a flow field (the
    phase) has one value; kept when no played state breaks it and the counter parts the
    seated players in some state of that value (where a seat from the counter on has not
    yet had its turn, for the seats before it)."""
    states = [v for game in games for v in game]
    seats = model.layout.slots[model.spec.num_players_field.name].offset
    counters = [s for s in model.layout.slots.values() if not s.field.dims
                and s.field.type == INT and s.field is not model.spec.num_players_field]
    conditions: list[tuple[Expr | None, Callable[[tuple], bool]]] = [(None, lambda v: True)]
    conditions += _flow_values(model, states)
    out = []
    for a in _player_arrays(model):
        f, size = a.field, a.field.size
        keeps, said = _moved_tests(f)[0]   # its negation is the seats from the counter on
        for x in counters:
            always: set[bool] = set()   # held in every state: no condition says more
            for when, test in conditions:
                part = [v for v in states if test(v)]
                # the states where the counter parts the seated players
                parted = [v for v in part if 0 < v[x.offset] < v[seats]]
                if not parted:
                    continue  # a prefix of the seated players says nothing here
                for before in [b for b in (True, False) if b not in always]:
                    if before and not any(not keeps(v[a.offset + p]) for v in parted
                                          for p in range(v[x.offset], v[seats])):
                        continue  # every seat keeps: the fact over the seated says more
                    def holds(v: tuple, o: int = a.offset, c: int = x.offset,
                              b: bool = before, k: Callable = keeps) -> bool:
                        n = min(max(v[c], 0), size)
                        return all(k(v[o + p]) == b for p in (range(n) if b
                                                               else range(n, size)))
                    if not all(holds(v) for v in part):
                        continue
                    if when is None:
                        always.add(before)
                    cnt = lift(x.field)
                    fact = _over_cells(f, lambda i, f=f, s=said, c=cnt, b=before: implies(
                        i[0] < c if b else c <= i[0], s(f[i]) if b else ~s(f[i])),
                        forall, forall)
                    out.append(Candidate(fact if when is None else implies(when, fact),
                                         lambda v, h=holds, t=test: not t(v) or h(v),
                                         on_cells=True))
    return out


def _cell(model: Model, f: Field, idx: tuple) -> Expr:
    if f is model.spec.num_players_field:
        return Expr("num_players", (), INT)
    if not idx:
        return lift(f)
    return f[tuple(list(d.enum)[i] if d.enum is not None else i
                   for d, i in zip(f.dims, idx))]


# --- candidates -------------------------------------------------------------------------
def played_states(model: Model, seed: int = 0) -> list[list[tuple]]:
    """Seeded random games (each its states from the setup on): per player count,
    ``GAMES_PER_COUNT`` whole games, or fewer once they reach ``STATES_PER_COUNT`` steps
    (at least one game, however long)."""
    rng = random.Random(seed)
    out: list[list[tuple]] = []
    for n in range(model.min_players, model.max_players + 1):
        got = 0
        for _ in range(GAMES_PER_COUNT):
            state = model.initial_state(n)
            game = [state.values]
            for _ in range(model.spec.max_steps):
                try:
                    action = model.random_action(state, rng)
                    if action is None:
                        break
                    state = model.apply(state, action)
                except RuleError:
                    break   # the game stops where a rule fails (the errors goal says so)
                game.append(state.values)
            out.append(game)
            got += len(game) - 1
            if got >= STATES_PER_COUNT or len(game) == 1:
                break
    return out


def candidates(model: Model, games: Sequence[Sequence[tuple]]) -> list[Candidate]:
    """Every candidate fact no state of ``games`` breaks, in a fixed order."""
    atoms = atoms_of(model)
    rows = [[tuple(a.read(v) for a in atoms) for v in game] for game in games]
    states = [r for game in rows for r in game]
    out: list[Candidate] = []
    seen: set[str] = set()

    def add(expr: Expr, holds: Callable[[tuple], bool]) -> None:
        c = Candidate(expr, holds)
        if c.text not in seen and c.text != "true" and all(holds(v) for v in states):
            seen.add(c.text)
            out.append(c)
    ints = [i for i, a in enumerate(atoms) if a.kind == "int"]
    span = {i: (min(v[i] for v in states), max(v[i] for v in states)) for i in ints}
    for i in ints:  # ranges, tighter than declared
        lo, hi = span[i]
        a = atoms[i]
        if lo == hi and (a.lo != lo or a.hi != hi):
            add(a.expr == lo, lambda v, i=i, c=lo: v[i] == c)
        else:
            if a.lo is None or lo > a.lo:
                add(a.expr >= lo, lambda v, i=i, c=lo: v[i] >= c)
            if a.hi is None or hi < a.hi:
                add(a.expr <= hi, lambda v, i=i, c=hi: v[i] <= c)
    players = next(i for i, a in enumerate(atoms) if a.expr.op == "num_players")
    moving = [i for i in ints if span[i][0] < span[i][1] and i != players]
    together = (set(itertools.combinations(moving, 2)) if len(moving) <= MANY
                else _changing_together(rows, moving))
    for i, j in itertools.combinations(moving, 2):
        if (i, j) in together:
            _pair_facts(atoms, i, j, states, add)
    pe = atoms[players].expr
    for i in moving:  # against the number of players
        a = atoms[i]
        d = {v[i] - v[players] for v in states}
        if len(d) == 1:
            k = d.pop()
            add(a.expr == pe + k, lambda v, i=i, k=k: v[i] == v[players] + k)
        add(a.expr <= pe, lambda v, i=i: v[i] <= v[players])
        add(a.expr < pe, lambda v, i=i: v[i] < v[players])
    everywhere: dict[int, set] = {}
    for e, a in enumerate(atoms):  # while a flow field has one value
        if not a.flow or a.kind == "bool" or (a.kind == "int" and span[e][1] - span[e][0] > 4):
            continue
        for m in sorted({v[e] for v in states}):
            when = a.expr == (list(a.enum)[m] if a.kind == "enum" else lift(m))
            part = [v for v in states if v[e] == m]
            _phase_facts(atoms, e, m, when, part, span, add, states, everywhere)
            for i, j in itertools.combinations(moving, 2):
                if (i, j) in together and e not in (i, j):
                    d = {v[i] - v[j] for v in part}
                    if len(d) == 1 and len({v[i] - v[j] for v in states}) > 1:
                        k = d.pop()
                        add(implies(when, atoms[i].expr == atoms[j].expr + k),
                            lambda v, e=e, m=m, i=i, j=j, k=k: v[e] != m or v[i] == v[j] + k)
    for c in [*_cell_facts(model, games), *_seated_facts(model, games),
              *_prefix_facts(model, games)]:  # play kept them
        if c.text not in seen:
            seen.add(c.text)
            out.append(c)
    return out


def _pair_facts(atoms: list[Atom], i: int, j: int, states: list[tuple], add: Callable) -> None:
    """Linear relations between two numbers that change together."""
    a, b = atoms[i], atoms[j]
    d = {v[i] - v[j] for v in states}
    s = {v[i] + v[j] for v in states}
    if len(d) == 1:
        k = d.pop()
        add(a.expr == b.expr + k, lambda v, k=k: v[i] == v[j] + k)
    if len(s) == 1:
        k = s.pop()
        add(a.expr + b.expr == k, lambda v, k=k: v[i] + v[j] == k)
    else:
        top = max(s)
        if a.hi is None or b.hi is None or top < a.hi + b.hi:
            add(a.expr + b.expr <= top, lambda v, c=top: v[i] + v[j] <= c)
    add(a.expr <= b.expr, lambda v: v[i] <= v[j])
    add(b.expr <= a.expr, lambda v: v[j] <= v[i])


def _phase_facts(atoms: list[Atom], e: int, m: int, when: Expr, states: list[tuple],
                 span: dict[int, tuple[int, int]], add: Callable, every: list[tuple],
                 everywhere: dict[int, set]) -> None:
    """Facts of the states where the flow number ``e`` has value ``m``: a flag's value,
    a counter's range tighter than in every state, an enum cell's one member."""
    def under(fact: Expr, test: Callable[[tuple], bool]) -> None:
        add(implies(when, fact), lambda v: v[e] != m or test(v))

    def span_of(o: int) -> set:
        return everywhere.setdefault(o, {v[o] for v in every})
    for o, a in enumerate(atoms):
        seen = {v[o] for v in states}
        if o == e or not seen:
            continue
        if a.kind in ("bool", "enum") and span_of(o) == seen:
            continue  # the same in every state: said without the condition, or not at all
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


def _changing_together(games: Sequence[Sequence[tuple]], which: list[int]
                       ) -> set[tuple[int, int]]:
    """The pairs of numbers (in ``which``'s order) that one step of play changed both of."""
    out: set[tuple[int, int]] = set()
    for game in games:
        for before, after in zip(game, game[1:]):
            changed = [o for o in which if before[o] != after[o]]
            out.update(itertools.combinations(changed, 2))
    return out


# --- Houdini ----------------------------------------------------------------------------
def houdini(model: Model, found: Sequence[Candidate], rlimit: int,
            goals: Sequence[str] | None = None) -> tuple[list[int], int, list[int]]:
    """The indices of ``found`` kept, the resource units spent, and the indices every
    step keeps (assuming all of them, the spec's invariants and the bounds before it).
    A query that runs out of units drops what it asked about (never kept unproved: the
    lemmas are proved again as goals). With ``goals`` (names of invariants, conservation
    laws, a field's bounds ``fields_within_bounds[F]`` or the rules' errors), only the
    survivors their step proofs use are kept, and those the kept ones' own steps use,
    less any the other kept ones imply."""
    spec = attrs.evolve(model.spec, invariants=tuple(model.spec.invariants) + tuple(
        Invariant(f"candidate {i}", c.expr, None, None) for i, c in enumerate(found)))
    first = len(model.spec.invariants)
    alive = list(range(len(found)))
    units = 0
    cap = SEARCH_QUERIES * rlimit
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
                return [], units, []
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
                    solver.pop()
                    if r == z3.unknown:  # one by one: only those undecided alone drop
                        for i in asked:
                            solver.push()
                            solver.add(z3.Not(post[i]))
                            r1 = check(solver)
                            units += solver.rulespec_spent
                            solver.pop()
                            if r1 != z3.unsat:
                                broken.add(i)
                            if units > cap:
                                return [], units, []  # out of budget before the fixpoint
                    if units > cap:
                        return [], units, []  # out of budget before the fixpoint
                    if r != z3.sat:
                        break
                    asked = [i for i in asked if i not in broken]
            if not broken:
                break
            alive = [i for i in alive if i not in broken]
        if goals is None or not alive:
            return alive, units, alive
        used, spent = _used(smt, s, given, steps, pre, alive, first, goals, rlimit,
                            cap - units)
        units += spent
        kept, spent = _not_implied(given, pre, used, rlimit, cap - units)
        return kept, units + spent, alive


def _not_implied(given: list, pre: dict[int, Any], used: list[int], rlimit: int, left: int
                 ) -> tuple[list[int], int]:
    """``used`` less each lemma the others left imply (``steps = marks`` makes ``steps ≤
    marks`` say nothing more), tried from the last candidate back, so that of two
    equivalent lemmas the first stays. Past ``left`` units, the rest are kept (a
    redundant lemma is harmless, only longer to read)."""
    kept = list(used)
    units = 0
    for i in reversed(used):
        solver = limited(simple_solver(), rlimit)
        solver.add(*given, *[pre[j] for j in kept if j != i], z3.Not(pre[i]))
        r = check(solver)
        units += solver.rulespec_spent
        if r == z3.unsat:
            kept.remove(i)
        if units > left:
            break
    return kept, units


def _used(smt: SmtGame, s: list, given: list, steps: list, pre: dict[int, Any],
          alive: list[int], first: int, goals: Sequence[str], rlimit: int, left: int
          ) -> tuple[list[int], int]:
    """The lemmas (of ``alive``) the step proofs of ``goals`` rest on, and theirs in turn:
    the unsat cores of one query per goal and action, lemmas as tracked assumptions.
    Past ``left`` units, every survivor is kept (each is kept by every step already)."""
    spec = smt.spec
    wanted = set(goals)
    # (the goal after the step, whether the step is assumed to evaluate without error)
    targets: list[tuple[Callable[[Any], Any], bool]] = []
    # a field's bounds as the step prover states them: its cells within bounds after the
    # step; the bounds named as one (no field said) are every field's, each a goal
    fields = [f.name for f in spec.fields if f.type != BOOL]
    named = [f for f in fields if f"{BOUNDS}[{f}]" in wanted]
    for name in named or (fields if BOUNDS in wanted else []):
        targets.append((lambda after, n=name: smt.field_bounds(n, after.value), True))
    if RULE_ERRORS in wanted:
        targets.append((lambda after: z3.Not(after.error), False))
    for k, inv in enumerate(spec.invariants[:first]):
        if inv.name in wanted and not inv.law:
            targets.append((lambda after, k=k: smt.invariant_checked(k, after.value).holds(),
                            True))
    for k, law in enumerate(spec.conservation):
        if law.name in wanted:
            targets.append((lambda after, k=k: z3.And(
                z3.Not(smt.conserved_checked(k, s).error),
                z3.Not(smt.conserved_checked(k, after.value).error),
                smt.conserved_checked(k, s).value == smt.conserved_checked(k, after.value).value),
                True))
    if not targets:  # no goal named that a step proof states: every survivor may serve
        return alive, 0
    flags = {i: z3.Bool(f"lemma {i}") for i in alive}
    of_flag = {flags[i].get_id(): i for i in alive}
    used: set[int] = set()
    units = 0
    todo = list(targets)
    while todo:
        target, no_error = todo.pop(0)
        for legal, after in steps:
            solver = limited(simple_solver(), rlimit)
            solver.add(*given, legal, *[z3.Implies(flags[i], pre[i]) for i in alive])
            if no_error:
                solver.add(z3.Not(after.error))
            solver.add(z3.Not(target(after)))
            r = check(solver, *flags.values())
            units += solver.rulespec_spent
            if units > left:
                return alive, units
            if r != z3.unsat:
                continue  # the lemmas do not make this step go through: none is needed
            for f in solver.unsat_core():
                i = of_flag[f.get_id()]
                if i not in used:
                    used.add(i)
                    todo.append((lambda after, i=i: smt.invariant_checked(
                        first + i, after.value).holds(), True))
    return sorted(used), units


def infer(model: Model, rlimit: int, goals: Sequence[str] | None = None,
          seed: int = 0, open_steps: Sequence[str] = (),
          error_actions: Sequence[int] = (), ctis: Sequence[tuple[str, tuple]] = ()
          ) -> Inference:
    """The lemmas inference keeps for ``model``: candidates from the spec, filtered by
    play, then by Houdini; with ``goals`` (the goals not proved), only those their step
    proofs use. With ``open_steps`` (the step goals left open: an invariant's name, or
    one field's bounds), only the candidates that name a field one of them reads are
    tried: in a large game the others are thousands, and one Houdini query over all of
    them spends the search's budget before the fixpoint. ``error_actions``: the actions
    (indices) whose step the rules' errors goal is open in; the fields they read stand
    for that goal's (without them, it may read any field: every candidate is tried).
    Those that name an array the open goals read are tried first, alone; the rest join
    them only if no lemma is kept. Before both, with ``ctis`` (the step proofs'
    counterexamples to induction: each goal's name and a state's values), for each goal
    the candidates that name a field it reads and that one of its counterexamples breaks:
    a lemma that excludes a counterexample is what the goal lacked."""
    games = played_states(model, seed)
    found = candidates(model, games)
    about = focus(model, open_steps, error_actions)
    tried = found if about is None else [c for c in found if fields_read([c.expr]) & about]
    # each open field's bounds by name: the bounds goal is one property, proved per field
    wanted = None if goals is None else [*goals, *(
        g for g in open_steps if BOUNDS in goals and g.startswith(f"{BOUNDS}["))]
    # the candidates about the open goals' arrays first (their cells are what a failing
    # read looks at): a few, so Houdini reaches its fixpoint; all of them if that keeps none
    cells = [c for c in tried if about is not None
             and any(f.dims for f in fields_read([c.expr]) & about)]
    blocking = excluding(model, tried, ctis)
    stages = [st for st in (blocking, cells) if 0 < len(st) < len(tried)] + [tried]
    spent = 0
    ids = [[id(c) for c in st] for st in stages]  # (candidates compare by identity)
    for tried in [st for k, st in enumerate(stages) if ids[k] not in ids[:k]]:
        kept, units, survived = houdini(model, tried, rlimit, wanted)
        spent += units
        if kept:
            break
    units = spent
    true = set(survived)
    return Inference([tried[i] for i in kept], len(tried), sum(map(len, games)), units,
                     [c.text for i, c in enumerate(tried) if i not in true],
                     [c.text for i, c in enumerate(tried) if i in true and i not in kept],
                     len(found) - len(tried))


def excluding(model: Model, found: Sequence[Candidate], ctis: Sequence[tuple[str, tuple]]
              ) -> list[Candidate]:
    """The candidates of ``found`` that name only fields some goal of ``ctis`` reads (and
    the flow fields: the phase, whose turn, the number of players) and that one of that
    goal's counterexamples (state values) breaks, in ``found``'s order."""
    atoms = atoms_of(model)
    flow = {f for f in model.spec.fields if f.flow and not f.dims}
    flow.add(model.spec.num_players_field)
    by_goal: dict[str, list[tuple]] = {}
    for goal, v in ctis:
        by_goal.setdefault(goal, []).append((v, tuple(a.read(v) for a in atoms)))
    reads = {id(c): fields_read([c.expr]) for c in found}
    out: set[int] = set()
    for goal, views in by_goal.items():
        about = focus(model, [goal])
        for c in found:
            if id(c) not in out and about is not None and reads[id(c)] & about \
                    and reads[id(c)] <= about | flow and any(
                    not c.holds(cells if c.on_cells else read) for cells, read in views):
                out.add(id(c))
    # a fact of one phase is kept by a step into that phase only with the same fact of
    # the phase before it: each picked fact of one value comes with its siblings
    keys = {id(c): _conditioned(c) for c in found}
    wanted = {keys[i] for i in out} - {None}
    return [c for c in found if id(c) in out or keys[id(c)] in wanted]


def _conditioned(c: Candidate) -> tuple | None:
    """For "if F = m, then X" over one field F: (F, X's reading), else None."""
    r = c.expr.name
    if r is None or getattr(r, "text", None) != "if {0}, then {1}":
        return None
    cond, fact = r.parts
    fields = fields_read([cond])
    if len(fields) != 1:
        return None
    return (next(iter(fields)).name, to_english(fact, cite=False))


def focus(model: Model, open_steps: Sequence[str],
          error_actions: Sequence[int] = ()) -> set[Field] | None:
    """The fields the open step goals read, or None (no goal given, or one that may read
    any field: the rules' errors, unless ``error_actions`` names the actions whose steps
    it is open in: then the fields those actions read)."""
    if not open_steps:
        return None
    spec = model.spec
    by_name = {f.name: f for f in spec.fields}
    facts = {i.name: [i.cond] for i in spec.invariants}
    facts.update({c.name: [c.total] for c in spec.conservation})
    out: set[Field] = set()
    for goal in open_steps:
        if goal.startswith(f"{BOUNDS}[") and goal[len(BOUNDS) + 1:-1] in by_name:
            out.add(by_name[goal[len(BOUNDS) + 1:-1]])
        elif goal in facts:
            out |= fields_read(facts[goal])
        elif goal == RULE_ERRORS and error_actions:
            for a in (spec.actions[i] for i in error_actions):
                for e in [*(p.cond for p in a.preconditions), *(p.domain.hi for p in a.params),
                          *statement_exprs(a.effects)]:
                    out |= fields_where_raising(e, spec.max_players)
        else:
            return None
    return out


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


def open_goals(results: Sequence[Result]) -> set[str]:
    """The goals whose step proof is UNKNOWN (not inductive, or undecided), and not proved
    by induction: those a lemma may help. (A goal whose steps are proved but whose
    induction rests on something else left open is not one: MOTU's bounds.)"""
    stepped = {r.property for r in results if r.checker.startswith("z3-step")
               and r.status == UNKNOWN}
    proved = {r.property for r in results if r.checker == "z3-induction"
              and r.status == PROVED}
    return stepped - proved


def marked(r: Result) -> Result:
    """``r``, its evidence saying it is an inferred lemma's (when it is)."""
    if not is_inferred(r.property):
        return r
    return attrs.evolve(r, evidence={**(r.evidence or {}), "provenance": INFERRED})
