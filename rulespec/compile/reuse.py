"""Which generated functions read which interpretation points, so that a spec already
compiled under one reading serves another: only the functions that read a point the two
readings set differently are generated again (``compile_python(like=, only=)``). A report
or a test suite loads a game under a dozen readings; most of a load is generating code.
"""

from __future__ import annotations

import weakref
from typing import Iterable

from ..ir.nodes import Expr
from ..ir.walk import children, statement_exprs
from ..spec.elements import GameSpec

#: per spec: the points each generated function reads; "flow" for the turn and end rules,
#: which the legal-move, chance and step functions write inline
_READS: "weakref.WeakKeyDictionary[GameSpec, dict[str, frozenset[str]]]" = (
    weakref.WeakKeyDictionary())


def functions_reading(spec: GameSpec, points: Iterable[str]) -> frozenset[str] | None:
    """The names (``compile_python``'s) of the functions whose code reads one of
    ``points``; None when the turn or end rules read one (every function writes those
    inline: compile it all)."""
    points = set(points)
    reads = _reads(spec)
    if reads["flow"] & points:
        return None
    return frozenset(name for name, read in reads.items() if name != "flow" and read & points)


def _reads(spec: GameSpec) -> dict[str, frozenset[str]]:
    found = _READS.get(spec)
    if found is None:
        found = _READS[spec] = _points_by_function(spec)
    return found


def _points_by_function(spec: GameSpec) -> dict[str, frozenset[str]]:
    out: dict[str, set[str]] = {"flow": _points([r.expr for r in (
        spec.current_player, spec.chance_node, spec.terminal) if r is not None])}
    out["initial"] = _points(statement_exprs(spec.setup))
    out["legal"], out["chance_weights"] = set(), set()
    for i, a in enumerate(spec.actions):
        legality = _points([p.cond for p in a.preconditions] + [p.domain.hi for p in a.params]
                           + ([a.weight] if a.weight is not None else []))
        out["chance_weights" if a.chance else "legal"] |= legality
        # step_i checks legality and writes apply_i's effects inline: made together
        out[f"apply_{i}"] = out[f"step_{i}"] = legality | _points(statement_exprs(a.effects))
    out["scores"] = _points([spec.scoring.score])
    for k, tb in enumerate(spec.tie_breaks):
        out[f"tie_{k}"] = _points([tb.key])
    for k, inv in enumerate(spec.invariants):
        out[f"inv_{k}"] = _points([inv.cond])
    for k, c in enumerate(spec.conservation):
        out[f"cons_{k}"] = _points([c.total])
    return {name: frozenset(read) for name, read in out.items()}


def _points(exprs: Iterable[Expr]) -> set[str]:
    """The interpretation points read anywhere in ``exprs`` (each shared node visited once:
    the IR is a graph)."""
    seen: set[int] = set()
    found: set[str] = set()
    stack = list(exprs)
    while stack:
        e = stack.pop()
        if id(e) in seen:
            continue
        seen.add(id(e))
        if e.op == "interp":
            found.add(e.args[0].name)
        stack.extend(children(e))
    return found
