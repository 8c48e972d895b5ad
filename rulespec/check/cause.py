"""Why an action's effects differ between two readings: the values the rule computes.

A spec names what an action computes before it changes anything (``rule.let(value,
name="feet_due")``). Where two readings give the same action different effects, the
cause is usually one of those values: Hawaii's move costs ``feet_due`` 1 foot when the
beach is free to return to, 3 when it is not. :func:`deciding_values` evaluates, in the
state the action is taken in, each named value that reads a point the readings set
differently (directly or through another value), under both readings, and returns those
that differ, with the spec line that names them.

Only values computed before the action's first change of the state are evaluated (later
ones see a state part-changed), and a value inside a ``when`` only when its condition
holds; a value inside a loop is left out (it has one value per turn of the loop).
"""

from __future__ import annotations

import re
from typing import Any, Iterable

import attrs

from ..compile.python_backend import compile_values
from ..ir.nodes import Expr
from ..ir.statements import Assign, ForEach, If, Let
from ..ir.walk import walk
from ..runtime.model import Action, Model, State
from .mutate.rewrite import map_expr

#: ``rule.let`` without a name calls its value ``t``: nothing a reader can use
UNNAMED = "t"


@attrs.frozen
class DecidingValue:
    """A value an action computes that differs between the readings."""

    name: str            # the spec's name for it (``rule.let(..., name=...)``)
    a: Any
    b: Any
    where: str | None    # the spec line that computes it ("spec.py:1110")


def let_name(var: Expr) -> str:
    """The spec's name of a ``let`` (the IR adds a number to keep names apart)."""
    return re.sub(r"\d+$", "", str(var.args[0])) or str(var.args[0])


def _early_lets(model: Model, state: State, action: Action
                ) -> list[tuple[Let, Expr]]:
    """The lets before the action's first assignment, each with its value written over
    the state alone (parameters and earlier lets put in), on the branches taken."""
    spec_action = model.spec.actions[action.key[0]]
    params = {p.name: Expr("const", (v,), p.node.type)
              for p, v in zip(spec_action.params, action.key[1:])}
    known: dict[str, Expr] = {}
    out: list[tuple[Let, Expr]] = []

    def inline(e: Expr) -> Expr | None:
        bad = False

        def put(n: Expr) -> Expr | None:
            nonlocal bad
            if n.op == "param":
                return params.get(n.args[0])
            if n.op == "var" and n.args[1] is None:  # a let; a binder's own var has a domain
                hit = known.get(n.args[0])
                bad = bad or hit is None
                return hit
            return None
        result = map_expr(e, put, {})
        return None if bad else result

    def visit(stmts: Iterable) -> bool:
        """False once an assignment is met: what follows sees a changed state."""
        for st in stmts:
            if isinstance(st, Let):
                value = inline(st.value)
                if value is not None:
                    known[st.var.args[0]] = value
                    out.append((st, value))
            elif isinstance(st, Assign) or isinstance(st, ForEach):
                return False
            elif isinstance(st, If):
                cond = inline(st.cond)
                if cond is None:
                    return False
                holds = _evaluate(model, state, [cond])[0]
                if holds is None or not visit(st.then if holds else st.otherwise):
                    return False
        return True

    visit(spec_action.effects)
    return out


def _evaluate(model: Model, state: State, exprs: list[Expr]) -> list[Any]:
    out = []
    for fn in compile_values(model.spec, dict(model.interpretation), exprs):
        try:
            out.append(fn(state.values))
        except Exception:  # noqa: BLE001 - a value that cannot be read is left out
            out.append(None)
    return out


def _reads_points(e: Expr, points: set[str], lets: dict[str, bool]) -> bool:
    for n in walk(e):
        if n.op == "interp" and n.args[0].name in points:
            return True
        if n.op == "var" and lets.get(n.args[0]):
            return True
    return False


def deciding_values(ma: Model, mb: Model, sa: State, sb: State, action: Action,
                    points: set[str]) -> list[DecidingValue]:
    """The named values ``action`` computes in ``sa`` (reading A) and ``sb`` (reading B)
    that read one of ``points`` and differ between the readings (see the module)."""
    lets_a, lets_b = _early_lets(ma, sa, action), _early_lets(mb, sb, action)
    by_b = {st.var.args[0]: value for st, value in lets_b}
    reading: dict[str, bool] = {}
    chosen: list[tuple[Let, Expr, Expr]] = []
    for st, value in lets_a:
        name = st.var.args[0]
        reading[name] = _reads_points(st.value, points, reading)
        if reading[name] and name in by_b and let_name(st.var) != UNNAMED:
            chosen.append((st, value, by_b[name]))
    if not chosen:
        return []
    va = _evaluate(ma, sa, [a for _, a, _ in chosen])
    vb = _evaluate(mb, sb, [b for _, _, b in chosen])
    out = []
    for (st, _, _), x, y in zip(chosen, va, vb):
        if x is not None and y is not None and x != y:
            where = f"{st.where.file}:{st.where.line}" if st.where else None
            out.append(DecidingValue(let_name(st.var), _plain(st.value, x),
                                     _plain(st.value, y), where))
    return out


def _plain(e: Expr, v: Any) -> Any:
    if e.type.enum is not None:
        return e.type.enum.name_of(v)
    return bool(v) if e.type.kind == "bool" else v
