"""Whether evaluating an expression can raise, in a state within the declared bounds: an
array index or a table's index that interval analysis cannot show in range, a table entry
with no value, a division by what may be zero, a connectivity primitive. A superset: an
expression it calls safe raises in no backend; one it does not call safe may still never
raise (the prover then asks Z3).

>>> from rulespec.ir.nodes import lift
>>> may_raise(lift(7) // 2), may_raise(lift(7) // (lift(2) - 2))
(False, True)
"""

from __future__ import annotations

from .intervals import interval
from .nodes import Expr
from .walk import fields_read, walk, walk_distinct

#: operations that raise for no operand within the bounds
_SAFE = frozenset({
    "const", "param", "var", "num_players", "interp", "add", "sub", "mul", "min", "max",
    "abs", "eq", "ne", "lt", "le", "gt", "ge", "and", "or", "not", "ite", "exists",
    "forall", "sum", "count", "let", "ordinal"})


def may_raise(e: Expr, max_players: int = 1) -> bool:
    """Some node of ``e`` may raise in a state within the declared bounds."""
    return any(_node_may_raise(n, max_players) for n in walk(e))


def fields_where_raising(e: Expr, max_players: int = 1) -> set:
    """The fields read by what decides whether ``e`` raises: the index of each table or
    array read that may be out of range or have no value, each divisor that may be zero
    (a connectivity primitive: all it reads). What a fact must speak of to show that
    ``e`` does not raise in a reachable state."""
    out: set = set()
    for n in walk_distinct(e):
        if not _node_may_raise(n, max_players):
            continue
        if n.op == "field":
            out |= fields_read(n.args[1:])
        elif n.op in ("table", "enum_table", "floordiv", "mod"):
            out |= fields_read([n.args[1]])
        else:
            out |= fields_read([n])
    return out


def _within(ix: Expr, size: int, max_players: int) -> bool:
    rng = interval(ix, max_players)
    return rng is not None and 0 <= rng[0] and rng[1] < size


def _node_may_raise(n: Expr, max_players: int) -> bool:
    op = n.op
    if op in _SAFE:
        return False
    if op == "field":
        f = n.args[0]
        return not all(_within(ix, d.size, max_players) for d, ix in zip(f.dims, n.args[1:]))
    if op == "table":
        return not _within(n.args[1], len(n.args[0]), max_players)
    if op == "enum_table":
        t = n.args[0]
        return bool(t.absent) or not _within(n.args[1], len(t.values), max_players)
    if op in ("floordiv", "mod"):
        rng = interval(n.args[1], max_players)
        return rng is None or rng[0] <= 0 <= rng[1]
    return True   # connectivity and anything new: not known to be safe


__all__ = ["fields_where_raising", "may_raise"]
