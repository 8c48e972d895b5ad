"""Simplify an expression before a person reads it: fold constants, drop identities.

Only the English printer uses this; backends compile the IR as written (their own folding
is theirs). What comes out means the same as what went in, for every state, within the
rules' bounds: ``x * 0`` becomes ``0`` even where ``x`` would raise, which the printer
may say and a backend may not.

>>> from rulespec.ir.nodes import Expr, INT, if_, lift
>>> x = Expr("field", (None,), INT)
>>> tidy(if_(lift(True), x, 0) + if_(lift(False), x, 0)) is x
True
"""

from __future__ import annotations

import operator
from typing import Any, Callable

from .intervals import interval
from .nodes import BOOL, INT, Expr, Reading

_ARITH: dict[str, Callable[[int, int], int]] = {
    "add": operator.add, "sub": operator.sub, "mul": operator.mul, "min": min, "max": max}
_COMPARE: dict[str, Callable[[Any, Any], bool]] = {
    "eq": operator.eq, "ne": operator.ne, "lt": operator.lt, "le": operator.le,
    "gt": operator.gt, "ge": operator.ge}
#: not (a < b) is a >= b, and so on
_NEGATED = {"eq": "ne", "ne": "eq", "lt": "ge", "ge": "lt", "le": "gt", "gt": "le"}


def _is(e: Expr, value: Any) -> bool:
    return (e.op == "const" and e.name is None and type(e.args[0]) is type(value)
            and e.args[0] == value)


def _const(value: Any, like: Expr) -> Expr:
    typ = BOOL if isinstance(value, bool) else (like.type if like.type.enum else INT)
    return Expr("const", (value,), typ)


def _known(e: Expr) -> bool:
    return e.op == "const"


def tidy(e: Expr) -> Expr:
    """``e`` with constants folded and identities dropped (``x + 0``, ``if true then a else
    b``, ``not (a < b)``...); a node the spec named keeps its name.

    >>> from rulespec.ir.nodes import Enum, if_, lift, not_
    >>> Mark = Enum("Mark", ["plain", "spear"], source="t")
    >>> tidy(lift(2) + if_(Mark.plain == Mark.spear, 1, 0)).args
    (2,)
    >>> p = Expr("param", ("price", None), INT)
    >>> tidy(not_(p < 3)).op, tidy(p * 1 + 0) is p
    ('ge', True)
    >>> from rulespec.ir.nodes import exists
    >>> tidy(exists(range(5), lambda j: j >= 0)).args[2].args  # j >= 0 for j in 0..4
    (True,)
    """
    return _tidy(e, {})


def _tidy(e: Expr, memo: dict[int, Expr]) -> Expr:
    done = memo.get(id(e))
    if done is not None:
        return done
    out = _rebuild(e, memo)
    memo[id(e)] = out
    return out


def _rebuild(e: Expr, memo: dict[int, Expr]) -> Expr:
    if isinstance(e.name, str) and e.op != "table":
        return e  # said by its name
    args = tuple(_tidy(a, memo) if isinstance(a, Expr) else a for a in e.args)
    same = all(a is b for a, b in zip(args, e.args))
    plain = e.name if not isinstance(e.name, Reading) else None
    node = (e if same and plain is e.name
            else Expr(e.op, args, e.type, e.where, e.label, plain, e.assumed))
    fold = _FOLD.get(e.op)
    out = fold(node) if fold is not None else node
    if isinstance(e.name, Reading) and out.op == e.op and len(out.args) == len(e.args) \
            and not any(_known(a) and not _known(b) for a, b in zip(args, e.args)
                        if isinstance(a, Expr)):
        # still the node read by its parts (a code, ``if A, then B``): tidy those
        parts = tuple(_tidy(p, memo) for p in e.name.parts)
        return Expr(out.op, out.args, out.type, out.where, out.label,
                    Reading(e.name.text, parts, e.name.clause))
    return out


def _arith(e: Expr) -> Expr:
    a, b = e.args
    if _known(a) and _known(b):
        return _const(_ARITH[e.op](a.args[0], b.args[0]), e)
    op = e.op
    if op == "add":
        if _is(a, 0):
            return b
        if _is(b, 0):
            return a
        if b.op == "sub" and _is(b.args[0], 0):  # a + (0 - x) is a - x
            return Expr("sub", (a, b.args[1]), INT, e.where)
    if op == "sub":
        if _is(b, 0):
            return a
        if b.op == "sub" and _is(b.args[0], 0):  # a - (0 - x) is a + x
            return Expr("add", (a, b.args[1]), INT, e.where)
    if op == "mul":
        for x, y in ((a, b), (b, a)):
            if _is(x, 1):
                return y
            if _is(x, 0):
                return x
    return e


def _divide(e: Expr) -> Expr:
    a, b = e.args
    if _known(a) and _known(b) and b.args[0] != 0:
        fn = operator.floordiv if e.op == "floordiv" else operator.mod
        return _const(fn(a.args[0], b.args[0]), e)
    if e.op == "floordiv" and _is(b, 1):
        return a
    return e


def _compare(e: Expr) -> Expr:
    a, b = e.args
    if _known(a) and _known(b):
        return _const(_COMPARE[e.op](a.args[0], b.args[0]), e)
    if a.type == INT and b.type == INT:  # decided by the bounds (``j >= 0`` for j in 0..4)
        decided = _by_bounds(e.op, interval(a, _ANY_PLAYERS), interval(b, _ANY_PLAYERS))
        if decided is not None:
            return _const(decided, e)
    if a.type == BOOL and e.op in ("eq", "ne"):  # x = true is x
        for x, y in ((a, b), (b, a)):
            if _known(y):
                keep = y.args[0] == (e.op == "eq")
                return x if keep else _not(Expr("not", (x,), BOOL, e.where))
    return e


#: no bound on the number of players: a rule that reads it is never decided by bounds
_ANY_PLAYERS = 10 ** 9


def _by_bounds(op: str, a: tuple[int, int] | None, b: tuple[int, int] | None) -> bool | None:
    """The comparison's value if the operands' ranges decide it, else None."""
    if a is None or b is None:
        return None
    if op in ("gt", "ge"):
        op, a, b = {"gt": "lt", "ge": "le"}[op], b, a
    if op == "lt":
        return True if a[1] < b[0] else False if a[0] >= b[1] else None
    if op == "le":
        return True if a[1] <= b[0] else False if a[0] > b[1] else None
    if a[1] < b[0] or b[1] < a[0]:  # eq, ne: ranges apart
        return op == "ne"
    return None


def _not(e: Expr) -> Expr:
    (a,) = e.args
    if _known(a):
        return _const(not a.args[0], e)
    if a.op == "not":
        return a.args[0]
    if a.op in _NEGATED:
        return Expr(_NEGATED[a.op], a.args, BOOL, a.where)
    return e


def _junction(e: Expr) -> Expr:
    unit = e.op == "and"  # and: true drops out, false decides; or: the other way round
    kept = []
    for a in e.args:
        if _known(a):
            if a.args[0] == unit:
                continue
            return _const(not unit, e)
        kept.extend(a.args if a.op == e.op and a.name is None else (a,))
    if not kept:
        return _const(unit, e)
    if len(kept) == 1:
        return kept[0]
    return Expr(e.op, tuple(kept), BOOL, e.where)


def _choice(e: Expr) -> Expr:
    c, a, b = e.args
    if _known(c):
        return a if c.args[0] else b
    if a.same_as(b):
        return a
    if a.type == BOOL and _known(a) and _known(b):  # if c then true else false is c
        return c if a.args[0] else _not(Expr("not", (c,), BOOL, e.where))
    return e


def _small(e: Expr) -> Expr:
    (a,) = e.args
    if e.op == "abs" and _known(a):
        return _const(abs(a.args[0]), e)
    if e.op == "ordinal" and _known(a):
        return _const(a.args[0], Expr("const", (0,), INT))
    return e


def _table(e: Expr) -> Expr:
    values, i = e.args
    if e.name is None and _known(i) and 0 <= i.args[0] < len(values):
        return _const(values[i.args[0]], e)  # an unnamed table at a known index: its value
    return e


_FOLD: dict[str, Callable[[Expr], Expr]] = {
    "add": _arith, "sub": _arith, "mul": _arith, "min": _arith, "max": _arith,
    "floordiv": _divide, "mod": _divide,
    "eq": _compare, "ne": _compare, "lt": _compare, "le": _compare, "gt": _compare,
    "ge": _compare,
    "not": _not, "and": _junction, "or": _junction, "ite": _choice,
    "abs": _small, "ordinal": _small, "table": _table,
}
