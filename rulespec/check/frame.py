"""What is left to prove after a step, once the cells the step did not touch are set aside.

A step proof asks: from a state ``s`` where the premises hold, does the successor ``t``
satisfy the goal? Most of a goal is about cells the action never writes, and the backend
leaves such cells as the very same Z3 terms (Z3 shares equal terms, so they have equal
ids). Two syntactic rules then shrink the question before any solver sees it:

* **conjuncts** -- a goal is a conjunction; a conjunct of ``goal(t)`` that is also a
  conjunct of a premise (a term with the same id) holds already. Only the others are
  left: for a placement rule over every village, the villages the action may touch.
* **sums** -- a conserved total is a sum; ``total(t) - total(s)`` is the sum of the
  summands of ``total(t)`` minus those of ``total(s)``, and a summand present on both
  sides (same id) cancels. Only the summands over written cells are left: for a tile
  count over every village of every player, the few cells a purchase may write.

* **equations** -- an invariant's conjunct ``a(t) == b(t)`` (a deck's count per card, a
  pile's size) whose premise twin ``a(s) == b(s)`` holds is equivalent to
  ``(a(t) - b(t)) - (a(s) - b(s)) == 0``: the summands the step left alone cancel, as in
  a conserved total (:func:`equation_deltas`).

These rules are exact rewrites (nothing is assumed that the premises do not say), so the
residual obligation is equivalent to the goal under the premises; it is just smaller.
A residual that is still hard often reads a cell used as an index (the card in hand, the
chosen slot): fixed to each value of its bounds, the residual folds to a few summands
(:func:`index_cell`, :func:`fixed_to`); the values together cover the cell's bounds.

>>> import z3
>>> x, y, z = z3.Ints("x y z")
>>> [str(c) for c in residual_conjuncts(z3.And(x > 0, y > 0), {(x > 0).get_id()})]
['y > 0']
>>> sorted((k, str(t)) for k, t in sum_delta(x + y + 3, x + z + 3))
[(-1, 'y'), (1, 'z')]
"""

from __future__ import annotations

import math
from collections import Counter
from typing import Any, Iterable

import z3


def conjuncts(t: Any, out: list | None = None) -> list:
    """The conjuncts of ``t`` (nested ``And`` flattened; ``True`` dropped)."""
    out = [] if out is None else out
    ctx = t.ctx
    ref = ctx.ref()
    stack = [t.as_ast()]  # raw ASTs (Z3's C API): the walk is hot, wrappers are slow
    while stack:
        a = stack.pop()
        op = _op(ref, a)
        if op == z3.Z3_OP_AND:
            stack.extend(z3.Z3_get_app_arg(ref, a, k)
                         for k in range(z3.Z3_get_app_num_args(ref, a) - 1, -1, -1))
        elif op != z3.Z3_OP_TRUE:
            out.append(z3.BoolRef(a, ctx))
    return out


def _op(ref: Any, a: Any) -> int | None:
    """The operator of a raw AST (None unless it is an application)."""
    if z3.Z3_get_ast_kind(ref, a) != z3.Z3_APP_AST:
        return None
    return z3.Z3_get_decl_kind(ref, z3.Z3_get_app_decl(ref, a))


def conjunct_ids(terms: Iterable[Any]) -> set[int]:
    """Ids of every conjunct of ``terms`` (the premises a residual is measured against)."""
    ids: set[int] = set()
    for t in terms:
        ids.update(c.get_id() for c in conjuncts(t))
    return ids


def residual_conjuncts(goal: Any, known: set[int]) -> list:
    """The conjuncts of ``goal`` that are not already among the ``known`` ones."""
    return [c for c in conjuncts(goal) if c.get_id() not in known]


def _summands(t: Any, sign: int, out: list[tuple[int, Any]]) -> None:
    ctx = t.ctx
    ref = ctx.ref()
    stack = [(t.as_ast(), sign)]
    while stack:
        a, sg = stack.pop()
        op = _op(ref, a)
        if op == z3.Z3_OP_ADD or op == z3.Z3_OP_SUB:
            args = [z3.Z3_get_app_arg(ref, a, k) for k in range(z3.Z3_get_app_num_args(ref, a))]
            stack.append((args[0], sg))
            minus = -sg if op == z3.Z3_OP_SUB else sg
            stack.extend((c, minus) for c in args[1:])
        else:
            out.append((sg, z3.ArithRef(a, ctx)))


def sum_delta(before: Any, after: Any) -> list[tuple[int, Any]]:
    """``after - before`` as (coefficient, summand) pairs, equal summands cancelled,
    in a stable order (by term id)."""
    parts: list[tuple[int, Any]] = []
    _summands(after, 1, parts)
    _summands(z3.IntVal(0) if isinstance(before, int) else before, -1, parts)
    return _cancel(parts)


def _cancel(parts: list[tuple[int, Any]]) -> list[tuple[int, Any]]:
    """Signed summands added up by term: (coefficient, summand), none zero, by term id."""
    coeff: Counter[int] = Counter()
    term: dict[int, Any] = {}
    for sg, u in parts:
        i = u.get_id()
        coeff[i] += sg
        term[i] = u
    return [(coeff[i], term[i]) for i in sorted(coeff) if coeff[i]]


def _is_int_eq(ref: Any, a: Any) -> bool:
    if _op(ref, a) != z3.Z3_OP_EQ:
        return False
    lhs = z3.Z3_get_app_arg(ref, a, 0)
    return z3.Z3_get_sort_kind(ref, z3.Z3_get_sort(ref, lhs)) == z3.Z3_INT_SORT


def equation_deltas(after: list, before: list) -> list:
    """``after`` (a goal's conjuncts after the step), each Int equation ``a == b`` whose
    twin at the same place of ``before`` (the same goal's conjuncts before the step, which
    the premises assert) is one too, written as ``a - b - (a' - b') == 0`` over the
    summands that do not cancel (``True`` if all do). Exact whenever the ``before``
    conjunct holds, whichever it is; the twin only makes the summands cancel. Conjunct
    lists of different lengths are returned as they are.

    >>> x, y, n, m = z3.Ints("x y n m")
    >>> [str(c) for c in equation_deltas([n + 1 == x + y + 1], [n == x + y])]
    ['True']
    >>> (c,) = equation_deltas([m == x + y], [n == x + y])
    >>> sorted(free_constants(c))   # x and y cancel (the summands' order follows term ids)
    ['m', 'n']
    >>> z3.prove(c == (m == n))
    proved
    """
    if len(after) != len(before):
        return list(after)
    out = []
    for t, s in zip(after, before):
        ref = t.ctx_ref()
        if t.get_id() == s.get_id() or not (_is_int_eq(ref, t.as_ast())
                                            and _is_int_eq(ref, s.as_ast())):
            out.append(t)
            continue
        parts: list[tuple[int, Any]] = []
        for term, sign in ((t.arg(0), 1), (t.arg(1), -1), (s.arg(0), -1), (s.arg(1), 1)):
            _summands(term, sign, parts)
        out.append(_sum_zero(parts))
    return out


def _sum_zero(parts: list[tuple[int, Any]]) -> Any:
    delta = _cancel(parts)
    if not delta:
        return z3.BoolVal(True)
    return z3.Sum([k * u for k, u in delta]) == 0


#: a cell is split on (one case per value) only if its bounds have at most this many values
SPLIT_VALUES = 64


def fixed_to(t: Any, cell: Any, value: int) -> Any:
    """``t`` with ``cell`` (a constant) replaced by ``value``, folded by Z3's simplifier
    (like summands cancel: a residual over 59 cards leaves the one in hand)."""
    return z3.simplify(z3.substitute(t, (cell, z3.IntVal(value))))


def term_size(t: Any) -> int:
    """Distinct nodes of ``t`` (a DAG walk)."""
    ref = t.ctx_ref()
    seen: set[int] = set()
    stack = [t.as_ast()]
    while stack:
        a = stack.pop()
        i = z3.Z3_get_ast_id(ref, a)
        if i in seen:
            continue
        seen.add(i)
        if z3.Z3_get_ast_kind(ref, a) == z3.Z3_APP_AST:
            stack.extend(z3.Z3_get_app_arg(ref, a, k)
                         for k in range(z3.Z3_get_app_num_args(ref, a)))
    return len(seen)


def index_cell(t: Any, bounds: dict[int, tuple[float, float]], barred: set[str] = frozenset()
               ) -> tuple[Any, int, int] | None:
    """The cell to split ``t`` on, with its bounds: of the constants ``t`` compares with a
    number by ``==`` (an index: a write at the card in hand tests ``taken == c`` for every
    card), with at most :data:`SPLIT_VALUES` values in ``bounds`` (by id) and not named in
    ``barred``, the one that leaves the smallest term when fixed to its middle value.
    None when there is none, or fixing none of them makes ``t`` smaller.

    >>> x, k, a = z3.Ints("x k a")
    >>> t = z3.If(k == 1, a, 0) + z3.If(k == 2, a, 0) + z3.If(x == 0, 1, 0) == a
    >>> str(index_cell(t, {x.get_id(): (0, 1), k.get_id(): (0, 3)})[0])
    'k'
    """
    ref = t.ctx_ref()
    seen: set[int] = set()
    found: dict[int, Any] = {}
    stack = [t.as_ast()]
    while stack:
        a = stack.pop()
        i = z3.Z3_get_ast_id(ref, a)
        if i in seen or z3.Z3_get_ast_kind(ref, a) != z3.Z3_APP_AST:
            continue
        seen.add(i)
        n = z3.Z3_get_app_num_args(ref, a)
        if _op(ref, a) == z3.Z3_OP_EQ and n == 2:
            x, k = z3.Z3_get_app_arg(ref, a, 0), z3.Z3_get_app_arg(ref, a, 1)
            if z3.Z3_get_ast_kind(ref, x) == z3.Z3_NUMERAL_AST:
                x, k = k, x
            if (z3.Z3_get_ast_kind(ref, k) == z3.Z3_NUMERAL_AST
                    and z3.Z3_get_ast_kind(ref, x) == z3.Z3_APP_AST
                    and z3.Z3_get_app_num_args(ref, x) == 0):
                found.setdefault(z3.Z3_get_ast_id(ref, x), x)
        stack.extend(z3.Z3_get_app_arg(ref, a, j) for j in range(n))
    size = term_size(t)
    best: tuple[int, int, Any, int, int] | None = None
    for key in sorted(found):
        lo, hi = bounds.get(key, (-math.inf, math.inf))
        if not (math.isfinite(lo) and math.isfinite(hi)) or hi - lo + 1 > SPLIT_VALUES:
            continue
        cell = z3.ArithRef(found[key], t.ctx)
        if const_name(cell) in barred:
            continue
        left = term_size(fixed_to(t, cell, int(lo + hi) // 2))
        if left < size and (best is None or (left, key) < best[:2]):
            best = (left, key, cell, int(lo), int(hi))
    return None if best is None else best[2:]


def unchanged(before: Any, after: Any) -> Any:
    """``before == after`` reduced to the summands that do not cancel (True if none)."""
    delta = sum_delta(before, after)
    if not delta:
        return z3.BoolVal(True)
    return z3.Sum([k * u for k, u in delta]) == 0


def const_name(t: Any) -> str:
    """The name of an uninterpreted constant (``str(t)`` without Z3's pretty printer,
    which is slow).

    >>> const_name(z3.Int("s.round[2]"))
    's.round[2]'
    """
    ctx = t.ctx_ref()
    decl = z3.Z3_get_app_decl(ctx, t.as_ast())
    return z3.Z3_get_symbol_string(ctx, z3.Z3_get_decl_name(ctx, decl))


def free_constants(t: Any, *more: Any) -> set[str]:
    """Names of the uninterpreted constants in ``t`` and ``more`` (one DAG walk over them
    all, each node once: terms that share parts are cheaper together)."""
    ctx = t.ctx_ref()
    seen: set[int] = set()
    names: set[str] = set()
    stack = [t.as_ast(), *(m.as_ast() for m in more)]
    while stack:
        a = stack.pop()
        i = z3.Z3_get_ast_id(ctx, a)
        if i in seen:
            continue
        seen.add(i)
        if z3.Z3_get_ast_kind(ctx, a) != z3.Z3_APP_AST:
            continue
        n = z3.Z3_get_app_num_args(ctx, a)
        if n == 0:
            d = z3.Z3_get_app_decl(ctx, a)
            if z3.Z3_get_decl_kind(ctx, d) == z3.Z3_OP_UNINTERPRETED:
                names.add(z3.Z3_get_symbol_string(ctx, z3.Z3_get_decl_name(ctx, d)))
            continue
        stack.extend(z3.Z3_get_app_arg(ctx, a, k) for k in range(n))
    return names


def term_interval(t: Any, bounds: dict[int, tuple[float, float]],
                  memo: dict[int, tuple[float, float] | None] | None = None
                  ) -> tuple[float, float] | None:
    """Inclusive bounds on an Int term, from ``bounds`` on its constants (by id; a side may
    be infinite), or None when some part is not understood. Sound, not tight: an ``If``
    takes the hull of its branches whatever the condition.

    >>> x = z3.Int("x")
    >>> term_interval(z3.If(x > 2, x + 1, 0) * 2, {x.get_id(): (0, 5)})
    (0, 12)

    A comparison of a constant with a number narrows it in each branch (a table lookup
    compiles to such pieces): ``6x - 42`` only for ``x`` in 7..8.

    >>> term_interval(z3.If(x < 7, 0, z3.If(x < 9, 6 * x - 42, 2)), {x.get_id(): (0, 57)})
    (0, 6)
    """
    memo = {} if memo is None else memo
    return _interval(t.ctx_ref(), t.as_ast(), bounds, memo)


def _interval(ref: Any, a: Any, bounds: dict[int, tuple[float, float]],
              memo: dict[int, tuple[float, float] | None],
              over: dict[int, tuple[float, float]] | None = None) -> tuple[float, float] | None:
    """``term_interval`` on a raw AST (Z3's C API: the walk is hot, wrappers are slow).
    ``over``: narrower bounds of some constants inside a branch (see :func:`_narrowed`)."""
    key = z3.Z3_get_ast_id(ref, a)
    if key in memo:
        return memo[key]
    out: tuple[float, float] | None = None
    kind = z3.Z3_get_ast_kind(ref, a)
    if kind == z3.Z3_NUMERAL_AST:
        v = int(z3.Z3_get_numeral_string(ref, a))
        out = (v, v)
    elif kind == z3.Z3_APP_AST:
        n = z3.Z3_get_app_num_args(ref, a)
        op = z3.Z3_get_decl_kind(ref, z3.Z3_get_app_decl(ref, a))
        if n == 0:
            out = over[key] if over and key in over else bounds.get(key)
        elif op == z3.Z3_OP_ITE:
            branches = _narrowed(ref, z3.Z3_get_app_arg(ref, a, 0), bounds, over)
            parts = []
            for k, narrow in ((1, branches[0]), (2, branches[1])) if branches else (
                    (1, None), (2, None)):
                if narrow is not None and narrow[1][0] > narrow[1][1]:
                    continue  # the branch cannot be taken
                sub = memo if narrow is None else {}  # a narrower constant: its own memo
                parts.append(_interval(ref, z3.Z3_get_app_arg(ref, a, k), bounds, sub,
                                       over if narrow is None else {**(over or {}),
                                                                    narrow[0]: narrow[1]}))
            if parts and all(p is not None for p in parts):
                out = (min(p[0] for p in parts), max(p[1] for p in parts))  # type: ignore
        elif op in (z3.Z3_OP_ADD, z3.Z3_OP_SUB, z3.Z3_OP_MUL, z3.Z3_OP_UMINUS):
            parts = [_interval(ref, z3.Z3_get_app_arg(ref, a, k), bounds, memo, over)
                     for k in range(n)]
            if all(p is not None for p in parts):
                out = _combine(op, parts)  # type: ignore[arg-type]
    memo[key] = out
    return out


_FLIP = {z3.Z3_OP_LT: z3.Z3_OP_GT, z3.Z3_OP_LE: z3.Z3_OP_GE, z3.Z3_OP_GT: z3.Z3_OP_LT,
         z3.Z3_OP_GE: z3.Z3_OP_LE}


def _narrowed(ref: Any, cond: Any, bounds: dict[int, tuple[float, float]],
              over: dict[int, tuple[float, float]] | None) -> tuple | None:
    """For an ``If`` whose condition compares a constant with a number (``x < 7``, as a
    table lookup compiles to): (x's id, its bounds) in the then branch and in the else
    branch. Sound: inside a branch its condition holds. None for any other condition."""
    negated = False
    op = _op(ref, cond)
    while op == z3.Z3_OP_NOT:
        cond = z3.Z3_get_app_arg(ref, cond, 0)
        negated, op = not negated, _op(ref, cond)
    if op not in _FLIP or z3.Z3_get_app_num_args(ref, cond) != 2:
        return None
    x, k = z3.Z3_get_app_arg(ref, cond, 0), z3.Z3_get_app_arg(ref, cond, 1)
    if z3.Z3_get_ast_kind(ref, x) == z3.Z3_NUMERAL_AST:
        x, k, op = k, x, _FLIP[op]  # 7 > x is x < 7
    if (z3.Z3_get_ast_kind(ref, k) != z3.Z3_NUMERAL_AST
            or z3.Z3_get_ast_kind(ref, x) != z3.Z3_APP_AST
            or z3.Z3_get_app_num_args(ref, x) != 0):
        return None
    key = z3.Z3_get_ast_id(ref, x)
    have = over[key] if over and key in over else bounds.get(key)
    if have is None:
        return None
    v, (lo, hi) = int(z3.Z3_get_numeral_string(ref, k)), have
    below, above = {z3.Z3_OP_LT: (v - 1, v), z3.Z3_OP_LE: (v, v + 1),
                    z3.Z3_OP_GT: (v, v + 1), z3.Z3_OP_GE: (v - 1, v)}[op]
    low, high = (lo, min(hi, below)), (max(lo, above), hi)  # x <= below, x >= above
    then, other = (low, high) if op in (z3.Z3_OP_LT, z3.Z3_OP_LE) else (high, low)
    if negated:
        then, other = other, then
    return (key, then), (key, other)


def _combine(kind: int, parts: list[tuple[float, float]]) -> tuple[float, float]:
    if kind == z3.Z3_OP_UMINUS:
        return (-parts[0][1], -parts[0][0])
    lo, hi = parts[0]
    for a, b in parts[1:]:
        if kind == z3.Z3_OP_ADD:
            lo, hi = lo + a, hi + b
        elif kind == z3.Z3_OP_SUB:
            lo, hi = lo - b, hi - a
        else:
            corners = (_mul(lo, a), _mul(lo, b), _mul(hi, a), _mul(hi, b))
            lo, hi = min(corners), max(corners)
    return lo, hi


def _mul(x: float, y: float) -> float:
    return 0 if x == 0 or y == 0 else x * y  # 0 * inf is 0 for a bound


def holds_by_intervals(c: Any, bounds: dict[int, tuple[float, float]],
                       memo: dict[int, tuple[float, float] | None]) -> bool:
    """True if the comparison ``c`` (``a <= b``, ``a >= b``, ``a < b``, ``a > b``) holds for
    every value the intervals allow (False: not shown, which is not a counterexample)."""
    ref, ast = c.ctx_ref(), c.as_ast()
    kind = _op(ref, ast)
    if kind is None or z3.Z3_get_app_num_args(ref, ast) != 2:
        return False
    a = _interval(ref, z3.Z3_get_app_arg(ref, ast, 0), bounds, memo)
    b = _interval(ref, z3.Z3_get_app_arg(ref, ast, 1), bounds, memo)
    if a is None or b is None:
        return False
    if kind == z3.Z3_OP_LE:
        return a[1] <= b[0]
    if kind == z3.Z3_OP_GE:
        return a[0] >= b[1]
    if kind == z3.Z3_OP_LT:
        return a[1] < b[0]
    if kind == z3.Z3_OP_GT:
        return a[0] > b[1]
    return False
