"""Which rules read which interpretation points, and state differences cell by cell.

``rulespec diff`` states a difference in rule terms: the precondition that refuses an
action under one reading, or the effects (with their sources) whose values depend on the
point, and the cells (``feet[0]``, ``area_tok[fruit_1][3/plain]``) that end up different.
Everything here reads the spec's IR; nothing is specific to a game.
"""

from __future__ import annotations

import weakref
from typing import Any, Iterable

import attrs

from ..ir.nodes import Expr
from ..ir.statements import Assign, ForEach, If, Let
from ..ir.walk import walk
from ..runtime.model import Model
from ..spec.elements import Action, GameSpec


@attrs.frozen
class RuleRef:
    """A rule element in plain terms: what kind, its text, its source, the points it reads."""

    kind: str              # "precondition", "effect", "scoring", "tie-break", "flow"
    text: str
    source: str | None
    points: tuple[str, ...] = ()


def points_read(e: Expr | None) -> set[str]:
    """Names of the interpretation points an expression reads."""
    if e is None:
        return set()
    return {n.args[0].name for n in walk(e) if n.op == "interp"}


def _lets_read(e: Expr) -> set[str]:
    return {n.args[0] for n in walk(e) if n.op == "var"}


def action_points(action: Action) -> set[str]:
    """Every point an action reads: in a precondition, an effect, its weight."""
    found = _ACTION_POINTS.get(action)
    if found is None:   # a diff asks for every action once per option: walked once
        read: set[str] = set()
        for pre in action.preconditions:
            read |= points_read(pre.cond)
        read |= points_read(action.weight)
        for _, ref in dependent_effects(action):
            read |= set(ref.points)
        found = _ACTION_POINTS[action] = frozenset(read)
    return set(found)


_ACTION_POINTS: "weakref.WeakKeyDictionary[Action, frozenset[str]]" = (
    weakref.WeakKeyDictionary())


def global_points(spec: GameSpec) -> set[str]:
    """Points read by the rules that apply to every state: whose turn, chance nodes, the
    end, scores and tie-breaks."""
    found = points_read(spec.current_player.expr) | points_read(spec.terminal.expr)
    if spec.chance_node is not None:
        found |= points_read(spec.chance_node.expr)
    found |= points_read(spec.scoring.score)
    for tb in spec.tie_breaks:
        found |= points_read(tb.key)
    return found


def dependent_effects(action: Action) -> list[tuple[str, RuleRef]]:
    """``(field name, rule)`` for each assignment whose value, target or enclosing
    condition depends on an interpretation point (directly or through a ``let``)."""
    out: list[tuple[str, RuleRef]] = []
    lets: dict[str, set[str]] = {}

    def reads(e: Expr) -> set[str]:
        found = points_read(e)
        for name in _lets_read(e):
            found |= lets.get(name, set())
        return found

    def visit(stmts: Iterable, outer: set[str], source: str | None) -> None:
        for st in stmts:
            if isinstance(st, Let):
                lets[st.var.args[0]] = reads(st.value) | outer
            elif isinstance(st, Assign):
                pts = reads(st.value) | reads(st.target) | outer
                if pts:
                    field = st.target.args[0].name
                    out.append((field, RuleRef("effect", f"on {field}",
                                               st.source or source or action.source,
                                               tuple(sorted(pts)))))
            elif isinstance(st, If):
                inner = outer | reads(st.cond)
                visit(st.then, inner, st.source or source)
                visit(st.otherwise, inner, st.else_source or source)
            elif isinstance(st, ForEach):
                visit(st.body, outer | reads(st.domain.hi), st.source or source)

    visit(action.effects, set(), None)
    return out


def refusing_rules(model: Model, state: Any, action: Any, points: set[str]) -> list[RuleRef]:
    """The preconditions that refuse ``action`` here, those reading ``points`` first."""
    reasons = model.why_illegal(state, action)
    spec_action = model.spec.actions[action.key[0]]
    by_text = {pre.text: pre for pre in spec_action.preconditions}
    refs = []
    for r in reasons:
        pre = by_text.get(r.text)
        pts = tuple(sorted(points_read(pre.cond) & points)) if pre is not None else ()
        refs.append(RuleRef("precondition", r.text, r.source, pts))
    return sorted(refs, key=lambda ref: not ref.points)


def cell_name(model: Model, field: str, index: tuple[int, ...]) -> str:
    """``feet[0]``, ``boats[0][I]``, ``area_tok[fruit_1][3/plain]``: a scenario reference."""
    dims = model.layout.slots[field].field.dims
    parts = []
    for d, i in zip(dims, index):
        names = d.names()
        parts.append(names[i] if names is not None and names[i] is not None else str(i))
    return field + "".join(f"[{p}]" for p in parts)


def changed_cells(model: Model, a: tuple, b: tuple) -> dict[str, tuple[Any, Any]]:
    """Every cell whose value differs between two flat state vectors of ``model``."""
    out: dict[str, tuple[Any, Any]] = {}
    if a == b:
        return out
    for name, slot in model.layout.slots.items():
        f = slot.field
        lo, hi = slot.offset, slot.offset + f.size
        if a[lo:hi] == b[lo:hi]:
            continue
        enum = f.type.enum
        for k in range(lo, hi):
            if a[k] != b[k]:
                index = tuple(((k - lo) // s) % d.size for s, d in zip(slot.strides, f.dims))
                va, vb = a[k], b[k]
                if enum is not None:
                    va, vb = enum.name_of(va), enum.name_of(vb)
                elif f.type.kind == "bool":
                    va, vb = bool(va), bool(vb)
                out[cell_name(model, name, index)] = (va, vb)
    return out
