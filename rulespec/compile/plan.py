"""What every backend that plays agrees on: the flow values and where an action's
legal-move enumerator tests each precondition.

The Python backend's plain code and the C backend test the preconditions in the same
places and order, so that a rule that cannot be evaluated fails in both for the same
states: a precondition that reads no parameter guards the whole enumerator; one that reads
parameters sits in the outermost loop that binds them all, unless the action has at most
``UNROLL_COMBOS`` parameter combinations -- then they are all tested together, in their
declared order, once every parameter is bound (the Python backend writes one line per
combination).
"""

from __future__ import annotations

import weakref

import attrs

from ..ir.walk import params_used
from ..spec.elements import Action, Precondition

#: ``current_player`` at a chance node and at the end of the game
CHANCE = -1
TERMINAL = -4
#: actions with at most this many parameter combinations are enumerated combination by
#: combination (all preconditions tested together)
UNROLL_COMBOS = 64


def level_of(a: Action) -> list[int]:
    """Per precondition: how many parameters (in declaration order) it needs bound."""
    levels = _LEVELS.get(a)
    if levels is None:
        order = [p.name for p in a.params]
        levels = _LEVELS[a] = [max((order.index(n) + 1 for n in params_used(pre.cond)),
                                   default=0) for pre in a.preconditions]
    return levels


_LEVELS: "weakref.WeakKeyDictionary[Action, list[int]]" = weakref.WeakKeyDictionary()


def combinations(a: Action) -> int:
    """Parameter combinations of ``a`` (past ``UNROLL_COMBOS`` when a domain depends on
    the state)."""
    combos = 1
    for p in a.params:
        combos *= p.domain.max_hi - p.domain.lo if p.domain.is_static() else UNROLL_COMBOS + 1
    return combos


def unrolled(a: Action) -> bool:
    """Whether ``a``'s enumerator goes combination by combination."""
    return bool(a.params) and combinations(a) <= UNROLL_COMBOS


@attrs.frozen
class EnumeratorPlan:
    """Where ``legal_i`` tests each precondition: ``guards`` before any loop,
    ``at_level[k]`` inside the loop of the k-th parameter (1-based), ``innermost`` all
    together once every parameter is bound (an unrolled action)."""

    guards: tuple[Precondition, ...]
    at_level: tuple[tuple[Precondition, ...], ...]
    innermost: tuple[Precondition, ...]


def enumerator_plan(a: Action) -> EnumeratorPlan:
    levels = level_of(a)
    guards = tuple(p for p, lvl in zip(a.preconditions, levels) if lvl == 0)
    if unrolled(a):
        inner = tuple(p for p, lvl in zip(a.preconditions, levels) if lvl)
        return EnumeratorPlan(guards, ((),) * (len(a.params) + 1), inner)
    at = tuple(tuple(p for p, lvl in zip(a.preconditions, levels) if lvl == k)
               for k in range(len(a.params) + 1))
    return EnumeratorPlan(guards, at, ())
