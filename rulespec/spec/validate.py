"""Static validation at load: every problem names the spec file, the line and the element."""

from __future__ import annotations

import warnings
from typing import Iterable

from ..ir.errors import SpecError, SpecWarning
from ..ir.location import Location
from ..ir.nodes import Expr, Field
from ..ir.walk import statement_exprs, walk_distinct, written_out
from .elements import GameSpec

#: an expression whose tree (what every backend compiles) has more nodes than this, and
#: many times more than it has distinct ones, is a value a helper repeated inside itself
WRITTEN_OUT_LIMIT = 100_000


def validate(spec: GameSpec) -> None:
    """Raise :class:`SpecError` for the first problem found."""
    own_fields = set(spec.fields)
    own_points = set(spec.interpretations)

    def check_exprs(exprs: Iterable[Expr], element: str, where: Location | None,
                    params: set[str], bound: set[str]) -> None:
        for e in exprs:
            _check_expr(e, element, where, own_fields, own_points, params, set(bound))
            _warn_written_out(e, element, where)

    for f in spec.fields:
        _check_initial(f)
        if isinstance(f.visible, tuple):
            check_exprs(f.visible, f"field {f.name}", f.where, set(), set())
    check_exprs(statement_exprs(spec.setup), "setup", None, set(), set())
    for a in spec.actions:
        names = {p.name for p in a.params}
        element = f"action {a.name}"
        for pre in a.preconditions:
            check_exprs([pre.cond], element, pre.where, names, set())
        check_exprs(statement_exprs(a.effects), element, a.where, names, set())
        if a.weight is not None:
            check_exprs([a.weight], element, a.where, names, set())
    for what, rule in (("current_player", spec.current_player), ("chance_node", spec.chance_node),
                       ("terminal", spec.terminal)):
        if rule is not None:
            check_exprs([rule.expr], f"rule {what}", rule.where, set(), set())
    check_exprs([spec.scoring.score], "rule score", spec.scoring.where, set(),
                {spec.scoring.var.args[0]})
    for tb in spec.tie_breaks:
        check_exprs([tb.key], "rule tie_break", tb.where, set(), {tb.var.args[0]})
    for inv in spec.invariants:
        check_exprs([inv.cond], f"invariant {inv.name}", inv.where, set(), set())
    for c in spec.conservation:
        check_exprs([c.total], f"conservation {c.name}", c.where, set(), set())
    if spec.chance_node is None and any(a.chance for a in spec.actions):
        a = next(a for a in spec.actions if a.chance)
        raise SpecError("chance outcomes are declared but no chance_node rule says when they "
                        "happen", element=f"action {a.name}", where=a.where)
    if not any(not a.chance for a in spec.actions):
        raise SpecError("the game has no player action", element=f"game {spec.name}",
                        where=None)


def _check_expr(e: Expr, element: str, where: Location | None, fields: set[Field],
                points: set, params: set[str], bound: set[str]) -> None:
    for node in walk_distinct(e):  # a shared node once: a helper's value used twice
        at = node.where or where
        if node.op == "field" and node.args[0] not in fields:
            raise SpecError(f"unknown field {node.args[0].name!r} (not declared in this game)",
                            element=element, where=at)
        if node.op == "interp" and node.args[0] not in points:
            raise SpecError(f"unknown interpretation point {node.args[0].name!r}",
                            element=element, where=at)
        if node.op == "param" and node.args[0] not in params:
            raise SpecError(f"parameter {node.args[0]!r} does not belong to this element "
                            f"(its parameters: {sorted(params) or 'none'})",
                            element=element, where=at)
        if node.op in ("exists", "forall", "sum", "count"):
            bound.add(node.args[0].args[0])
    # Bound variables must be used inside their binder only; loop variables of effects are
    # collected by statement_exprs as 'var' nodes, so only binders' vars are checked here.


def _check_initial(f: Field) -> None:
    def shape_of(v: object) -> tuple[int, ...]:
        if isinstance(v, list):
            inner = {shape_of(x) for x in v}
            if len(inner) != 1:
                raise SpecError("ragged initial value", element=f"field {f.name}", where=f.where)
            return (len(v), *inner.pop())
        return ()
    got = shape_of(f.initial)
    if got and got != tuple(d.size for d in f.dims):
        raise SpecError(f"initial value has shape {got}, the field has "
                        f"{tuple(d.size for d in f.dims)}", element=f"field {f.name}",
                        where=f.where)


def _warn_written_out(e: Expr, element: str, where: Location | None) -> None:
    """Warn (once per expression) when the backends would write ``e`` out far larger than
    the spec wrote it: loading, compiling and proving then take seconds to minutes."""
    tree, distinct = written_out(e)
    if tree <= WRITTEN_OUT_LIMIT or tree < 10 * distinct:
        return
    at = e.where or where
    message = (f"in {element}: written out, this expression has {tree:,} nodes but only "
               f"{distinct:,} distinct ones: a value a helper built is used twice inside the "
               "next one (b = if_(x > b, x, b) in a loop), and every backend compiles each use "
               "in full, so loading and checking are slow. Name the value once with "
               "let_(value, lambda v: ...), or build it without the repeat (max_, min_, "
               "sum_of, count) (docs/spec-language.md, 'Things newcomers trip over')")
    if at is not None:
        warnings.warn_explicit(message, SpecWarning, at.file, at.line)
    else:
        warnings.warn(message, SpecWarning, stacklevel=2)
