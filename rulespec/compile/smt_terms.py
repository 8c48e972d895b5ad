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

from typing import Iterable, Union

import z3

Val = Union[bool, int, z3.ExprRef]
"""A compiled value: a Python bool/int when it is known, else a Z3 term of sort Bool or Int."""


def known(v: Val) -> bool:
    """True for a Python value (not a Z3 term).

    >>> known(3), known(z3.Int("x"))
    (True, False)
    """
    return not isinstance(v, z3.ExprRef)


def term(v: Val) -> z3.ExprRef:
    """``v`` as a Z3 term (Python bools become Bool literals, ints Int literals).

    >>> term(True).sort(), term(3).sort()
    (Bool, Int)
    """
    if isinstance(v, z3.ExprRef):
        return v
    if isinstance(v, bool):
        return z3.BoolVal(v)
    return z3.IntVal(int(v))


def lower(v: Val, is_bool: bool) -> Val:
    """A Z3 literal as a Python value (other terms unchanged); checks the sort.

    >>> lower(z3.IntVal(4), False), lower(z3.BoolVal(False), True), lower(1, True)
    (4, False, True)
    """
    if isinstance(v, z3.ExprRef):  # the C API directly: this runs once per cell per query
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
    s = z3.simplify(t)  # type: ignore[arg-type]
    if z3.is_true(s):
        return True
    if z3.is_false(s):
        return False
    if z3.is_int_value(s):
        return s.as_long()
    raise ValueError(f"not a ground value: {s}")


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
    return rest[0] if len(rest) == 1 else z3.And(*rest)


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
    return rest[0] if len(rest) == 1 else z3.Or(*rest)


def not_(x: Val) -> Val:
    """Negation."""
    return (not x) if known(x) else z3.Not(x)


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
    return z3.If(c, term(a), term(b))


# --- comparisons -----------------------------------------------------------------------

def eq(a: Val, b: Val) -> Val:
    """``a == b`` (ints, enum members or bools)."""
    if known(a) and known(b):
        return a == b
    return term(a) == term(b)


def ne(a: Val, b: Val) -> Val:
    """``a != b``."""
    if known(a) and known(b):
        return a != b
    return term(a) != term(b)


def lt(a: Val, b: Val) -> Val:
    """``a < b``."""
    return a < b if known(a) and known(b) else term(a) < term(b)  # type: ignore[operator]


def le(a: Val, b: Val) -> Val:
    """``a <= b``."""
    return a <= b if known(a) and known(b) else term(a) <= term(b)  # type: ignore[operator]


def gt(a: Val, b: Val) -> Val:
    """``a > b``."""
    return a > b if known(a) and known(b) else term(a) > term(b)  # type: ignore[operator]


def ge(a: Val, b: Val) -> Val:
    """``a >= b``."""
    return a >= b if known(a) and known(b) else term(a) >= term(b)  # type: ignore[operator]


# --- arithmetic ------------------------------------------------------------------------

def add(a: Val, b: Val) -> Val:
    """``a + b``."""
    if known(a) and known(b):
        return a + b  # type: ignore[operator]
    if known(a) and a == 0:
        return b
    if known(b) and b == 0:
        return a
    return term(a) + term(b)


def sub(a: Val, b: Val) -> Val:
    """``a - b``."""
    if known(a) and known(b):
        return a - b  # type: ignore[operator]
    if known(b) and b == 0:
        return a
    return term(a) - term(b)


def mul(a: Val, b: Val) -> Val:
    """``a * b``."""
    if known(a) and known(b):
        return a * b  # type: ignore[operator]
    for x, y in ((a, b), (b, a)):
        if known(x) and x == 0:
            return 0
        if known(x) and x == 1:
            return y
    return term(a) * term(b)


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
        rest.append(z3.IntVal(total))
    return rest[0] if len(rest) == 1 else z3.Sum(*rest)


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
