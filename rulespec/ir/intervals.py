"""Interval analysis: the range an int expression can take, from field bounds and domains.

Used to prove array indices in range at load time (an index that might fall outside gets
a run-time check in the compiled code instead).

>>> from rulespec.ir.nodes import lift
>>> interval(lift(2) * 3 - 1)
(5, 5)
"""

from __future__ import annotations

from typing import Mapping

from .nodes import Expr

Interval = tuple[int, int]


def interval(e: Expr, max_players: int = 1,
             env: Mapping[str, Interval] | None = None) -> Interval | None:
    """Inclusive (lo, hi) bounds on ``e``, or None when unknown or not an int.

    ``env`` gives (narrower) bounds of named parameters and variables where they are known,
    e.g. a ``let`` from its value or a parameter inside a guard that tests it.

    >>> from rulespec.ir.nodes import Expr, INT
    >>> interval(Expr("var", ("h", None), INT) + 1, env={"h": (0, 5)})
    (1, 6)
    """
    op = e.op
    if op == "const":
        v = e.args[0]
        return (int(v), int(v))
    if op == "field":
        f = e.args[0]
        return None if f.hi is None else (f.lo, f.hi)
    if op in ("param", "var"):
        if env is not None and e.args[0] in env:
            return env[e.args[0]]
        d = e.args[1]
        return None if d is None else (d.lo, d.max_hi - 1)  # a let has no domain
    if op == "num_players":
        return (1, max_players)
    if op == "table":
        vals = [int(v) for v in e.args[0]]
        return (min(vals), max(vals))
    if op == "ordinal":
        return (0, len(e.args[0].type.enum) - 1)
    if op == "enum_table":
        if e.type.kind != "int":
            return None
        t = e.args[0]
        vals = [v for i, v in enumerate(t.values) if t.absent_why(i) is None]
        return (min(vals), max(vals))
    if op == "component_size":
        return (0, e.args[0].size)
    if op == "largest_component":  # nodes, or distinct labels 0..K-1
        return (0, e.args[2] or e.args[0].size)
    if op == "ite":
        a, b = interval(e.args[1], max_players, env), interval(e.args[2], max_players, env)
        if a is None or b is None:
            return None
        return (min(a[0], b[0]), max(a[1], b[1]))
    if op in ("add", "sub", "mul", "min", "max", "mod", "floordiv"):
        a, b = interval(e.args[0], max_players, env), interval(e.args[1], max_players, env)
        if a is None or b is None:
            return None
        if op == "add":
            return (a[0] + b[0], a[1] + b[1])
        if op == "sub":
            return (a[0] - b[1], a[1] - b[0])
        if op == "mul":
            ps = [x * y for x in a for y in b]
            return (min(ps), max(ps))
        if op == "min":
            return (min(a[0], b[0]), min(a[1], b[1]))
        if op == "max":
            return (max(a[0], b[0]), max(a[1], b[1]))
        if op == "mod" and b[0] > 0:
            return (0, b[1] - 1) if a[0] < 0 or a[1] >= b[0] else a
        if op == "floordiv" and b[0] > 0:
            cands = [a[0] // b[0], a[0] // b[1], a[1] // b[0], a[1] // b[1]]
            return (min(cands), max(cands))
        return None
    if op == "abs":
        a = interval(e.args[0], max_players, env)
        if a is None:
            return None
        if a[0] >= 0:
            return a
        if a[1] <= 0:
            return (-a[1], -a[0])
        return (0, max(-a[0], a[1]))
    if op == "let":  # the body, knowing the value's bounds
        var, value, body = e.args
        v = interval(value, max_players, env)
        inner = dict(env or {})
        if v is not None:
            inner[var.args[0]] = v
        return interval(body, max_players, inner)
    if op in ("sum", "count"):
        _, d, body = e.args
        n = d.max_hi - d.lo
        b = (0, 1) if op == "count" else interval(body, max_players, env)
        if b is None:
            return None
        return (min(0, b[0] * n), max(0, b[1] * n))
    return None
