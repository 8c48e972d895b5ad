"""Seat lemmas: a number that picks a seat stays below the number of players (issue 28).

A turn counter is declared for the largest table (``range(0, 5)``), and the rules only
ever set it to a seated player's position: ``turn_pos < N`` is true in every game, yet a
step proof that starts from any state within the declared bounds may start from
``turn_pos = 3`` with two players, and the goals that read the array it indexes
(``order[turn_pos]``) fail from there. Rather than ask the spec writer for that fact, the
prover tries it first: for each scalar number the rules use as an index into an array of
one cell per seat, the lemma "it is below the number of players", kept when every played
state shows it and the spec does not state it already. The lemmas join the goals of the
first proof and are proved like any other (:func:`.prove.prove` proves without them when
one is not).
"""

from __future__ import annotations

from typing import Callable, Iterator, Sequence

from ..ir.english import to_english
from ..ir.nodes import INT, Expr, Field, lift
from ..ir.walk import conjuncts, statement_exprs, walk_distinct
from ..runtime.model import Model
from .infer import Candidate, played_states, strengthened


def seat_indices(model: Model) -> list[Field]:
    """The scalar int fields the rules index a seat-sized dimension with (a players
    dimension, or one of ``max_players`` cells), whose declared range reaches the number
    of players (else the bounds say it already), in the spec's order."""
    spec = model.spec
    found: set[int] = set()
    for e in _rule_exprs(model):
        for node in walk_distinct(e):
            if node.op != "field" or len(node.args) < 2:
                continue
            array: Field = node.args[0]
            for d, idx in zip(array.dims, node.args[1:]):
                if (d.players or d.size == spec.max_players) and d.enum is None \
                        and idx.op == "field" and len(idx.args) == 1:
                    found.add(id(idx.args[0]))
    return [f for f in spec.fields if id(f) in found and f.type == INT and not f.dims
            and f is not spec.num_players_field and f.hi is not None
            and f.hi >= spec.min_players]


def _rule_exprs(model: Model) -> Iterator[Expr]:
    for a in model.spec.actions:
        yield from (p.cond for p in a.preconditions)
        yield from statement_exprs(a.effects)


def seat_lemmas(model: Model, play: Callable[[Model], Sequence[Sequence[tuple]]] = played_states
                ) -> list[Candidate]:
    """For each of :func:`seat_indices`, "it is below the number of players", kept when
    no invariant of the spec says it (as one of its conjuncts) and no state of the games
    ``play`` plays breaks it (played only when some field is left to test)."""
    spec = model.spec
    seats = model.layout.slots[spec.num_players_field.name].offset
    stated = {to_english(c, cite=False) for inv in spec.invariants
              for c in conjuncts(inv.cond)}
    facts = [(f, lift(f) < Expr("num_players", (), INT)) for f in seat_indices(model)]
    facts = [(f, fact) for f, fact in facts if to_english(fact, cite=False) not in stated]
    if not facts:
        return []
    states = [v for game in play(model) for v in game]
    out = []
    for f, fact in facts:
        o = model.layout.slots[f.name].offset
        holds = (lambda v, o=o: v[o] < v[seats])
        if all(holds(v) for v in states):
            out.append(Candidate(fact, holds, on_cells=True))
    return out


def with_seat_lemmas(model: Model) -> Model:
    """``model`` with its seat lemmas among its invariants: what the first run of
    :func:`.prove.prove` proves, for a caller that proves step cases itself."""
    lemmas = seat_lemmas(model)
    return strengthened(model, lemmas) if lemmas else model
