"""Values while compiling to Z3: a Python int or bool when known, else a Z3 term.

Every builder here has the exact Python semantics of the operation it stands for, and
folds known operands, so that a concrete state evaluates without building a single Z3
node, and a known index picks one cell instead of an If-chain. Folding is only an
optimisation: for known operands the builders return what the Z3 term would simplify to.

Python's ``//`` and ``%`` round towards minus infinity; Z3's integer ``div``/``mod`` are
Euclidean (the remainder is never negative). :func:`floordiv` and :func:`mod` encode the
floor explicitly; a zero divisor gives an unspecified value (the caller flags the error).

>>> import z3
>>> floordiv(-7, 2), mod(-7, 2), floordiv(7, -2), mod(7, -2)
(-4, 1, -4, -1)
>>> x, y = z3.Ints("x y")
>>> [value(z3.substitute(floordiv(x, y), (x, z3.IntVal(a)), (y, z3.IntVal(b))))
...  for a, b in [(7, -2), (-7, -2), (-7, 2), (6, -3)]]
[-4, 3, -4, -2]
>>> and_([True, x > 0]), or_([x > 0, True])
(x > 0, True)
"""

from __future__ import annotations

import contextlib
from typing import Any, Iterable, Iterator, Union

import z3
import z3.z3 as _z3_module

Val = Union[bool, int, z3.ExprRef]
"""A compiled value: a Python bool/int when it is known, else a Z3 term of sort Bool or Int."""


def known(v: Val) -> bool:
    """True for a Python value (not a Z3 term).

    >>> known(3), known(z3.Int("x"))
    (True, False)
    """
    return not isinstance(v, z3.ExprRef)


_LITERALS: dict[Any, z3.ExprRef] = {}
_LITERAL_VALUES: dict[int, int | bool] = {}  # id of a cached literal -> its value


@contextlib.contextmanager
def own_context() -> Iterator[z3.Context]:
    """Build every term inside on a new Z3 context of its own, then return to the
    previous one (terms from outside must not be used inside, nor the other way round).

    Z3 orders much of its work by term ids, which count every term built before in the
    same context: the same query after different work takes different steps. A job run
    in a context of its own spends the same resource units whatever ran before it, so
    its verdict is the same in any process, in any order. (z3py has no public way to
    switch its default context, hence the module attribute.)

    >>> with own_context():
    ...     inner = term(5)
    >>> inner.ctx == z3.main_ctx(), term(5).ctx == z3.main_ctx()
    (False, True)
    """
    global _LITERALS, _LITERAL_VALUES
    saved = (_z3_module._main_ctx, _LITERALS, _LITERAL_VALUES)
    ctx = z3.Context()
    _z3_module._main_ctx, _LITERALS, _LITERAL_VALUES = ctx, {}, {}
    try:
        yield ctx
    finally:
        _z3_module._main_ctx, _LITERALS, _LITERAL_VALUES = saved


def term(v: Val) -> z3.ExprRef:
    """``v`` as a Z3 term (Python bools become Bool literals, ints Int literals).

    >>> term(True).sort(), term(3).sort()
    (Bool, Int)
    """
    if isinstance(v, z3.ExprRef):
        return v
    key = (type(v) is bool, int(v))  # literals are immutable: build each one once
    t = _LITERALS.get(key)
    if t is None:
        t = z3.BoolVal(bool(v)) if key[0] else z3.IntVal(key[1])
        if len(_LITERALS) < 100_000:  # cached terms stay alive, so their ids stay theirs
            _LITERALS[key] = t
            _LITERAL_VALUES[id(t)] = bool(v) if key[0] else key[1]
    return t


def lower(v: Val, is_bool: bool) -> Val:
    """A Z3 literal as a Python value (other terms unchanged); checks the sort.

    >>> lower(z3.IntVal(4), False), lower(z3.BoolVal(False), True), lower(1, True)
    (4, False, True)
    """
    if isinstance(v, z3.ExprRef):  # the C API directly: this runs once per cell per query
        cached = _LITERAL_VALUES.get(id(v))
        if cached is not None and (type(cached) is bool) == is_bool:
            return cached
        ctx, a = v.ctx_ref(), v.as_ast()
        kind = z3.Z3_get_sort_kind(ctx, z3.Z3_get_sort(ctx, a))
        if is_bool:
            if kind != z3.Z3_BOOL_SORT:
                raise TypeError(f"expected a Bool term, got {v} of sort {v.sort()}")
            lb = z3.Z3_get_bool_value(ctx, a)
            return True if lb == z3.Z3_L_TRUE else False if lb == z3.Z3_L_FALSE else v
        if kind != z3.Z3_INT_SORT:
            raise TypeError(f"expected an Int term, got {v} of sort {v.sort()}")
        if z3.Z3_is_numeral_ast(ctx, a):
            return int(z3.Z3_get_numeral_string(ctx, a))
        return v
    if is_bool:
        return bool(v)
    if not isinstance(v, int):
        raise TypeError(f"expected an int, got {v!r}")
    return int(v)


def value(t: Val) -> int | bool:
    """The Python value of a ground term (after ``simplify``); raises if it is not ground.

    >>> value(z3.IntVal(2) + 3), value(z3.Not(z3.BoolVal(True)))
    (5, False)
    """
    if known(t):
        return t  # type: ignore[return-value]
    got = _LITERAL_VALUES.get(id(t))
    if got is None:
        got = _literal(t)  # type: ignore[arg-type]
    if got is None:
        got = _literal(z3.simplify(t))
    if got is None:
        raise ValueError(f"not a ground value: {z3.simplify(t)}")
    return got


def _literal(t: z3.ExprRef) -> int | bool | None:
    """The value of a Bool or Int literal, else None (the C API: this runs per cell)."""
    return _literal_ast(t.ctx_ref(), t.as_ast())


def _literal_ast(ctx: Any, a: Any) -> int | bool | None:
    kind = z3.Z3_get_sort_kind(ctx, z3.Z3_get_sort(ctx, a))
    if kind == z3.Z3_BOOL_SORT:
        lb = z3.Z3_get_bool_value(ctx, a)
        return True if lb == z3.Z3_L_TRUE else False if lb == z3.Z3_L_FALSE else None
    if kind == z3.Z3_INT_SORT and z3.Z3_is_numeral_ast(ctx, a):
        return int(z3.Z3_get_numeral_string(ctx, a))
    return None


# --- node builders through the C API ---------------------------------------------------
# z3py's operators re-check and coerce their operands on every call, which dominates the
# time to encode a large game; the IR's types already guarantee matching sorts (Z3 still
# checks them and raises on a mismatch).

def _mk1(mk: Any, a: z3.ExprRef) -> z3.BoolRef:
    return z3.BoolRef(mk(a.ctx.ref(), a.as_ast()), a.ctx)


def _mk2(mk: Any, a: z3.ExprRef, b: z3.ExprRef) -> z3.BoolRef:
    """A predicate (comparison or equality) of two terms."""
    return z3.BoolRef(mk(a.ctx.ref(), a.as_ast(), b.as_ast()), a.ctx)


def _mkn(mk: Any, ts: list[z3.ExprRef], cls: type = z3.BoolRef) -> z3.ExprRef:
    arr = (z3.Ast * len(ts))(*[t.as_ast() for t in ts])
    return cls(mk(ts[0].ctx.ref(), len(ts), arr), ts[0].ctx)


def _if(c: z3.ExprRef, a: z3.ExprRef, b: z3.ExprRef) -> z3.ExprRef:
    cls = z3.BoolRef if isinstance(a, z3.BoolRef) else z3.ArithRef
    return cls(z3.Z3_mk_ite(c.ctx.ref(), c.as_ast(), a.as_ast(), b.as_ast()), c.ctx)


class Batch:
    """Many ground-able terms, evaluated together under substitutions.

    The terms become the arguments of one uninterpreted application, so one substitution
    and one ``simplify`` evaluate them all and their shared sub-terms once.

    >>> x, b = z3.Int("x"), z3.Bool("b")
    >>> batch = Batch([x + 1, z3.And(b, x > 0), x * x])
    >>> batch.at([(x, z3.IntVal(3)), (b, z3.BoolVal(True))])
    [4, True, 9]
    """

    def __init__(self, terms: list[z3.ExprRef]) -> None:
        ts = [term(t) for t in terms] or [z3.BoolVal(True)]
        self.size = len(terms)
        f = z3.Function(f"batch!{id(self)}", *[t.sort() for t in ts], z3.BoolSort())
        self.packed = f(*ts)

    def at(self, pairs: list[tuple[z3.ExprRef, z3.ExprRef]]) -> list[int | bool]:
        """Each term's value with ``pairs`` substituted (raises if one is not ground)."""
        ctx = self.packed.ctx
        src, dst = (z3.Ast * len(pairs))(), (z3.Ast * len(pairs))()
        for k, (a, b) in enumerate(pairs):
            src[k], dst[k] = a.as_ast(), b.as_ast()
        sub = z3.Z3_substitute(ctx.ref(), self.packed.as_ast(), len(pairs), src, dst)
        done = z3.Z3_simplify(ctx.ref(), sub)
        keep = z3.BoolRef(done, ctx)  # holds a reference while the arguments are read
        out = []
        for k in range(self.size):
            got = _literal_ast(ctx.ref(), z3.Z3_get_app_arg(ctx.ref(), keep.as_ast(), k))
            if got is None:
                raise ValueError(f"term {k} is not ground: {keep.arg(k)}")
            out.append(got)
        return out


# --- booleans ------------------------------------------------------------------------

def and_(xs: Iterable[Val]) -> Val:
    """Conjunction, folding known conjuncts (``and_([])`` is True)."""
    rest = []
    for x in xs:
        if known(x):
            if not x:
                return False
            continue
        rest.append(x)
    if not rest:
        return True
    return rest[0] if len(rest) == 1 else _mkn(z3.Z3_mk_and, rest)


def or_(xs: Iterable[Val]) -> Val:
    """Disjunction, folding known disjuncts (``or_([])`` is False)."""
    rest = []
    for x in xs:
        if known(x):
            if x:
                return True
            continue
        rest.append(x)
    if not rest:
        return False
    return rest[0] if len(rest) == 1 else _mkn(z3.Z3_mk_or, rest)


def not_(x: Val) -> Val:
    """Negation."""
    return (not x) if known(x) else _mk1(z3.Z3_mk_not, x)  # type: ignore[arg-type]


def ite(c: Val, a: Val, b: Val) -> Val:
    """``a if c else b``; equal branches fold to one.

    >>> ite(True, 1, 2), ite(z3.Bool("c"), 5, 5)
    (1, 5)
    """
    if known(c):
        return a if c else b
    if known(a) and known(b) and a == b:
        return a
    if not known(a) and not known(b) and a.eq(b):  # type: ignore[union-attr]
        return a
    if a is True and b is False:
        return c
    if a is False and b is True:
        return not_(c)
    return _if(c, term(a), term(b))  # type: ignore[arg-type]


# --- comparisons -----------------------------------------------------------------------

def eq(a: Val, b: Val) -> Val:
    """``a == b`` (ints, enum members or bools)."""
    if known(a) and known(b):
        return a == b
    return _mk2(z3.Z3_mk_eq, term(a), term(b))


def ne(a: Val, b: Val) -> Val:
    """``a != b``."""
    if known(a) and known(b):
        return a != b
    return not_(eq(a, b))


def lt(a: Val, b: Val) -> Val:
    """``a < b``."""
    if known(a) and known(b):
        return a < b  # type: ignore[operator]
    return _mk2(z3.Z3_mk_lt, term(a), term(b))


def le(a: Val, b: Val) -> Val:
    """``a <= b``."""
    if known(a) and known(b):
        return a <= b  # type: ignore[operator]
    return _mk2(z3.Z3_mk_le, term(a), term(b))


def gt(a: Val, b: Val) -> Val:
    """``a > b``."""
    if known(a) and known(b):
        return a > b  # type: ignore[operator]
    return _mk2(z3.Z3_mk_gt, term(a), term(b))


def ge(a: Val, b: Val) -> Val:
    """``a >= b``."""
    if known(a) and known(b):
        return a >= b  # type: ignore[operator]
    return _mk2(z3.Z3_mk_ge, term(a), term(b))


# --- arithmetic ------------------------------------------------------------------------

def add(a: Val, b: Val) -> Val:
    """``a + b``."""
    if known(a) and known(b):
        return a + b  # type: ignore[operator]
    if known(a) and a == 0:
        return b
    if known(b) and b == 0:
        return a
    return _mkn(z3.Z3_mk_add, [term(a), term(b)], z3.ArithRef)


def sub(a: Val, b: Val) -> Val:
    """``a - b``."""
    if known(a) and known(b):
        return a - b  # type: ignore[operator]
    if known(b) and b == 0:
        return a
    return _mkn(z3.Z3_mk_sub, [term(a), term(b)], z3.ArithRef)


def mul(a: Val, b: Val) -> Val:
    """``a * b``."""
    if known(a) and known(b):
        return a * b  # type: ignore[operator]
    for x, y in ((a, b), (b, a)):
        if known(x) and x == 0:
            return 0
        if known(x) and x == 1:
            return y
    return _mkn(z3.Z3_mk_mul, [term(a), term(b)], z3.ArithRef)


def sum_(xs: Iterable[Val]) -> Val:
    """The sum of ``xs``, known parts added up first."""
    total = 0
    rest = []
    for x in xs:
        if known(x):
            total += x  # type: ignore[operator]
        else:
            rest.append(x)
    if not rest:
        return total
    if total:
        rest.append(term(total))
    return rest[0] if len(rest) == 1 else _mkn(z3.Z3_mk_add, rest, z3.ArithRef)


def floordiv(a: Val, b: Val) -> Val:
    """Python's ``a // b`` (floor). Unspecified when ``b == 0`` (the caller flags it)."""
    if known(a) and known(b):
        return a // b if b != 0 else 0  # type: ignore[operator]
    ta, tb = term(a), term(b)
    q = ta / tb  # Euclidean: a == b*q + r with 0 <= r < |b|
    if known(b) and b > 0:  # type: ignore[operator]
        return q  # for a positive divisor Euclidean and floor division agree
    # for b < 0 and r != 0, the floor quotient is one less than the Euclidean one
    exact = ta % tb == 0
    if known(b):
        return z3.If(exact, q, q - 1)
    return z3.If(z3.Or(tb > 0, exact), q, q - 1)


def mod(a: Val, b: Val) -> Val:
    """Python's ``a % b`` (sign of ``b``). Unspecified when ``b == 0`` (the caller flags it)."""
    if known(a) and known(b):
        return a % b if b != 0 else 0  # type: ignore[operator]
    ta, tb = term(a), term(b)
    r = ta % tb
    if known(b) and b > 0:  # type: ignore[operator]
        return r
    if known(b):
        return z3.If(r == 0, r, r + tb)
    return z3.If(z3.Or(tb > 0, r == 0), r, r + tb)


def min_(a: Val, b: Val) -> Val:
    """``min(a, b)``."""
    if known(a) and known(b):
        return min(a, b)  # type: ignore[type-var]
    return z3.If(term(a) <= term(b), term(a), term(b))


def max_(a: Val, b: Val) -> Val:
    """``max(a, b)``."""
    if known(a) and known(b):
        return max(a, b)  # type: ignore[type-var]
    return z3.If(term(a) >= term(b), term(a), term(b))


def abs_(a: Val) -> Val:
    """``abs(a)``."""
    if known(a):
        return abs(a)  # type: ignore[arg-type]
    return z3.If(a >= 0, a, -a)  # type: ignore[operator]
