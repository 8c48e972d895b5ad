"""The step proofs as independent cases: each action for each number of players, with the
flow fields its preconditions pin set; and the cell of the player to move."""

from __future__ import annotations

import weakref
from typing import Any, Sequence

import z3

from ...compile.smt_backend import SmtGame
from ...ir.nodes import BOOL
from ...ir.walk import fields_read

Case = tuple[int, tuple[tuple[int, int], ...]]  # (action, ((cell, value), ...))


_CASES: "weakref.WeakKeyDictionary[SmtGame, list[Case]]" = weakref.WeakKeyDictionary()


def step_cases(smt: SmtGame) -> list[Case]:
    """The step proofs as independent cases: each action for each number of players (a
    known count folds every "for each player"), with each scalar flow field the action's
    preconditions pin to one value (the phase, say) set to that value.

    Together the cases cover every state within bounds: the player count ranges over its
    bounds, and in a state where a pinned field has another value the action is illegal.
    """
    cached = _CASES.get(smt)
    if cached is not None:
        return cached
    names = smt.cell_names()
    flow = [f for f in smt.spec.fields
            if f.flow and not f.dims and f.type.enum is not None]
    actions = range(len(smt.spec.actions))
    possible: dict[tuple[int, int], list[int]] = {}  # (action, cell) -> values
    for f in flow:
        cell = names.index(f.name)
        # only a precondition that reads the field can fold to False once it is known
        reading = {a: [j for j, pre in enumerate(smt.spec.actions[a].preconditions)
                       if f in fields_read([pre.cond])] for a in actions}
        for v in range(f.lo, (f.hi if f.hi is not None else f.lo) + 1):
            s = smt.fresh_state("pin")  # one state per value, shared by every action
            s[cell] = z3.IntVal(v)
            for a in actions:
                if not _ruled_out(smt, a, s, reading[a]):
                    possible.setdefault((a, cell), []).append(v)
    # most players first: the largest case needs the most premises, and what it learns
    # (Lessons) serves the smaller ones
    counts = range(smt.spec.max_players, smt.spec.min_players - 1, -1)
    out: list[Case] = []
    for a in actions:
        pins = [(names.index(f.name), vs[0]) for f in flow
                for vs in [possible.get((a, names.index(f.name)), [])] if len(vs) == 1]
        out += [(a, ((0, n), *pins)) for n in counts]
    _CASES[smt] = out
    return out


def _ruled_out(smt: SmtGame, a: int, s: list, preconditions: list[int]) -> bool:
    """One of the given preconditions of action ``a`` folds to False on ``s`` (a state
    where one cell is known): the action is illegal whenever that cell has that value."""
    params = smt.params(a, "pin")
    return any(z3.is_false(smt.precondition_checked(a, j, s, params).value)
               for j in preconditions)


def mover_cell(smt: SmtGame, state: Sequence[Any]) -> tuple[str, Any, int, int] | None:
    """The cell of the player to move, if a case may be split on it: the one scalar
    bounded int field the current-player rule reads (``to_move``), still open in
    ``state``. As its field, its term, its lowest and highest value; None otherwise."""
    fields = [f for f in fields_read([smt.spec.current_player.expr])
              if not f.dims and f.type != BOOL and f.hi is not None]
    if len(fields) != 1:
        return None
    f = fields[0]
    cell = state[smt.layout.slots[f.name].offset]
    return None if z3.is_int_value(cell) else (f.name, cell, f.lo, f.hi)


