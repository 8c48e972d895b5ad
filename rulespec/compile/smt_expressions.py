"""The Z3 backend's expressions: one encoder per IR operation (:data:`SMT_TABLE`), keyed
like the Python backend's ``EXPR_TABLE`` and the C backend's ``C_TABLE``."""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable, Sequence

from ..ir.errors import SpecError
from ..ir.intervals import interval
from ..ir.nodes import BOOL, Expr
from . import smt_terms as T
from .smt_closure import _component_size, _connected, _largest_component
from .smt_scope import _Scope, _select
from .smt_terms import Val

if TYPE_CHECKING:
    from .smt_backend import SmtGame

Encoder = Callable[["SmtGame", Expr, _Scope], Val]


def _const(g: SmtGame, e: Expr, sc: _Scope) -> Val:
    v = e.args[0]
    return bool(v) if e.type == BOOL else int(v)


def _field(g: SmtGame, e: Expr, sc: _Scope) -> Val:
    pinned = g._pinned
    if pinned is not None and e is pinned[0]:
        return sc.state[pinned[1]]  # the cell being assigned (see _assign_each)
    pure = g._pure
    if pure is not None and len(e.args) > 1:  # the cells do not change: a read is a read
        return pure.read(g, e, sc)
    base, choices = g._dims(e, sc)

    return _select(sc.state, choices, base)


def _name(g: SmtGame, e: Expr, sc: _Scope) -> Val:
    try:
        return sc.names[e.args[0]]
    except KeyError:
        raise SpecError(f"{e.args[0]!r} is used outside the block that defines it",
                        where=e.where) from None


def _interp(g: SmtGame, e: Expr, sc: _Scope) -> Val:
    return g.interp[e.args[0].name]


def _binop(fn: Callable[[Val, Val], Val]) -> Encoder:
    return lambda g, e, sc: fn(g._expr(e.args[0], sc), g._expr(e.args[1], sc))


def _division(fn: Callable[[Val, Val], Val]) -> Encoder:
    def enc(g: SmtGame, e: Expr, sc: _Scope) -> Val:
        a, b = g._expr(e.args[0], sc), g._expr(e.args[1], sc)
        sc.fail(T.eq(b, 0))  # ZeroDivisionError
        return fn(a, b)
    return enc


def _and(g: SmtGame, e: Expr, sc: _Scope) -> Val:
    acc: Val = True
    for a in e.args:  # each conjunct is evaluated only if the ones before hold
        acc = T.and_([acc, g._expr(a, sc.under(acc))])
        if T.known(acc) and not acc:
            return False
    return acc


def _or(g: SmtGame, e: Expr, sc: _Scope) -> Val:
    acc: Val = False
    for a in e.args:
        acc = T.or_([acc, g._expr(a, sc.under(T.not_(acc)))])
        if T.known(acc) and acc:
            return True
    return acc


def _ite(g: SmtGame, e: Expr, sc: _Scope) -> Val:
    c = g._expr(e.args[0], sc)
    if T.known(c):
        return g._expr(e.args[1] if c else e.args[2], sc)
    return T.ite(c, g._expr(e.args[1], sc.under(c)), g._expr(e.args[2], sc.under(T.not_(c))))


def _table(g: SmtGame, e: Expr, sc: _Scope) -> Val:
    values, index = e.args
    cast = bool if e.type == BOOL else int
    vals = [cast(v) for v in values]
    i = g._expr(index, sc)
    if T.known(i):
        if 0 <= i < len(vals):  # type: ignore[operator]
            return vals[i]  # type: ignore[index]
        sc.fail(True)
        return vals[-1]
    sc.fail(T.or_([T.lt(i, 0), T.ge(i, len(vals))]))
    acc: Val = vals[-1]
    for k in range(len(vals) - 2, -1, -1):
        acc = T.ite(T.eq(i, k), vals[k], acc)
    return acc


def _runs(values: Sequence[int], linear: bool) -> list[tuple[int, int, int]]:
    """Maximal runs ``(lo, a, b)``: ``values[i] == a * i + b`` from ``lo`` to the next run's
    ``lo`` (constant runs only, ``a == 0``, unless ``linear``).

    >>> _runs([2, 3, 4, 50, 50, 9], True)
    [(0, 1, 2), (3, 0, 50), (5, 0, 9)]
    """
    out: list[tuple[int, int, int]] = []
    i, n = 0, len(values)
    while i < n:
        step = values[i + 1] - values[i] if i + 1 < n and linear else 0
        j = i
        while j + 1 < n and values[j + 1] - values[j] == step:
            j += 1
        out.append((i, step, values[i] - step * i))
        i = j + 1
    return out


def _enum_table(g: SmtGame, e: Expr, sc: _Scope) -> Val:
    """A table as runs of equal (or evenly stepped) values, chosen by a balanced tree of
    ``index < boundary`` tests: a 52-card penalty table with four runs is three tests deep,
    not a 52-deep If-chain, and a table that is one run is plain arithmetic."""
    table, index = e.args
    is_bool = e.type == BOOL
    values = [int(v) for v in table.values]
    i = g._expr(index, sc)
    rng = interval(index, g.spec.max_players)
    if rng is None or rng[0] < 0 or rng[1] >= len(values):
        sc.fail(T.or_([T.lt(i, 0), T.ge(i, len(values))]))
    if table.absent:   # a member with no value: reading it is a rule error
        sc.fail(T.or_([T.eq(i, k) for k, _ in table.absent]))
    if T.known(i):
        v = values[min(max(i, 0), len(values) - 1)]  # type: ignore[type-var, call-overload]
        return bool(v) if is_bool else v
    runs = _runs(values, linear=not is_bool)

    def tree(lo: int, hi: int) -> Val:  # runs[lo:hi]
        if hi - lo == 1:
            _, a, b = runs[lo]
            return bool(b) if is_bool else T.add(T.mul(a, i), b)
        mid = (lo + hi) // 2
        return T.ite(T.lt(i, runs[mid][0]), tree(lo, mid), tree(mid, hi))
    return tree(0, len(runs))


def _binder(kind: str) -> Encoder:
    """Unroll over ``lo .. max_hi - 1``; a value ``v`` counts only where ``v < hi``."""
    def enc(g: SmtGame, e: Expr, sc: _Scope) -> Val:
        var, d, body = e.args
        name = var.args[0]
        hi = g._expr(d.hi, sc)
        acc: Val = {"exists": False, "forall": True}.get(kind, 0)
        parts: list[Val] = []
        for v in range(d.lo, d.max_hi):
            inside = T.lt(v, hi)
            if T.known(inside) and not inside:
                break
            at = sc.bind(name, v).under(inside)
            if kind == "exists":  # any(): stops at the first true body
                b = g._expr(body, at.under(T.not_(acc)))
                acc = T.or_([acc, T.and_([inside, b])])
                if T.known(acc) and acc:
                    return True
            elif kind == "forall":  # all(): stops at the first false body
                b = g._expr(body, at.under(acc))
                acc = T.and_([acc, T.or_([T.not_(inside), b])])
                if T.known(acc) and not acc:
                    return False
            elif kind == "sum":
                parts.append(T.ite(inside, g._expr(body, at), 0))
            else:
                parts.append(T.ite(T.and_([inside, g._expr(body, at)]), 1, 0))
        return acc if kind in ("exists", "forall") else T.sum_(parts)
    return enc


def _let(g: SmtGame, e: Expr, sc: _Scope) -> Val:
    """The value's term, once, named for the body (evaluated where the let is, as Python
    does: its error flag is raised there)."""
    var, value, body = e.args
    return g._expr(body, sc.bind(var.args[0], g._expr(value, sc)))


SMT_TABLE: dict[str, Encoder] = {
    "const": _const,
    "field": _field,
    "param": _name,
    "var": _name,
    "num_players": lambda g, e, sc: sc.state[0],
    "interp": _interp,
    "add": _binop(T.add), "sub": _binop(T.sub), "mul": _binop(T.mul),
    "floordiv": _division(T.floordiv), "mod": _division(T.mod),
    "min": _binop(T.min_), "max": _binop(T.max_),
    "abs": lambda g, e, sc: T.abs_(g._expr(e.args[0], sc)),
    "eq": _binop(T.eq), "ne": _binop(T.ne), "lt": _binop(T.lt), "le": _binop(T.le),
    "gt": _binop(T.gt), "ge": _binop(T.ge),
    "and": _and, "or": _or,
    "not": lambda g, e, sc: T.not_(g._expr(e.args[0], sc)),
    "ite": _ite,
    "table": _table,
    "exists": _binder("exists"), "forall": _binder("forall"), "sum": _binder("sum"),
    "count": _binder("count"),
    "let": _let,
    "ordinal": lambda g, e, sc: g._expr(e.args[0], sc),  # a member is its position
    "enum_table": _enum_table,
    "connected": _connected,
    "component_size": _component_size,
    "largest_component": _largest_component,
}
"""Every IR operation's encoding; a test holds it to ``OPERATIONS`` and the other tables."""
