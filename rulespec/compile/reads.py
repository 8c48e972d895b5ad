"""What a refused action's failed precondition found in the state: the cells it reads,
with their values (``board[0][0] is x``), so that a refusal says the fact that broke the
rule as well as the rule.

Compiled from the plain code the first time a precondition fails (only refusals need it),
one function per precondition: ``f(state values, *params) -> [(text, value), ...]`` over the
field reads that do not depend on a bound variable. Of an ``and``, only the parts that are
false are read.
"""

from __future__ import annotations

import linecache
from typing import Any, Callable

from ..ir.nodes import BOOL, Expr
from ..ir.walk import conjuncts, walk
from ..spec.elements import Action, GameSpec
from .layout import Layout
from .python_expressions import HELPERS, _ck, _Ctx, _Emitter, _param_ctx

#: at most this many cells are named in one refusal
MOST = 4


def _bound_free(e: Expr) -> bool:
    return not any(n.op == "var" for n in walk(e))


def field_reads(cond: Expr) -> list[Expr]:
    """The field reads in ``cond`` (parents first, each once) that bound variables do not
    index."""
    out: list[Expr] = []
    for node in walk(cond):
        if node.op == "field" and _bound_free(node) and not any(node.same_as(o) for o in out):
            out.append(node)
    return out


class Facts:
    """``facts(i, j, values, params)``: the cells precondition ``j`` of action ``i`` reads,
    as ``[(text, shown value)]``; compiled on first use, per precondition."""

    def __init__(self, spec: GameSpec, layout: Layout, interp: dict[str, int]) -> None:
        self._spec, self._layout, self._interp = spec, layout, interp
        self._made: dict[tuple[int, int], tuple[Callable, list]] = {}

    def __call__(self, i: int, j: int, values: tuple, params: tuple) -> list[tuple[str, str]]:
        key = (i, j)
        if key not in self._made:
            self._made[key] = self._compile(i, j)
        fn, plan = self._made[key]
        try:
            got = fn(values, *params)
        except Exception:  # noqa: BLE001 - a cell that cannot be read is left out
            return []
        out: list[tuple[str, str]] = []
        for part_ok, reads in zip(got[0], got[1]):
            if part_ok:
                continue
            for (field, dims), (idx, value) in reads:
                text = field.name + "".join(f"[{_name(d, k)}]" for d, k in zip(dims, idx))
                if all(t != text for t, _ in out):
                    out.append((text, _shown(field.type, value)))
        return out[:MOST]

    def _compile(self, i: int, j: int) -> tuple[Callable, list]:
        a: Action = self._spec.actions[i]
        cond = a.preconditions[j].cond
        em = _Emitter(self._spec, self._layout, self._interp)
        ctx: _Ctx = _param_ctx(a, self._interp)
        parts = conjuncts(cond) if cond.type == BOOL else [cond]
        oks, reads, plan = [], [], []
        for part in parts:
            fields = field_reads(part)
            plan.append([(n.args[0], n.args[0].dims) for n in fields])
            oks.append(em.expr(part, ctx))
            reads.append("[" + ", ".join(
                "((" + "".join(f"{em.expr(ix, ctx)}, " for ix in n.args[1:])
                + f"), {em.expr(n, ctx)})" for n in fields) + "]")
        args = "".join(f", p_{p.name}" for p in a.params)
        lines = em.table_lines() + [
            f"def facts(s{args}):",
            f"    return ([{', '.join(f'_ok(lambda: {c})' for c in oks)}], "
            f"[{', '.join(f'_read(lambda: {r})' for r in reads)}])"]
        source = "\n".join(lines) + "\n"
        name = f"<rulespec:{self._spec.name}:facts_{i}_{j}>"
        linecache.cache[name] = (len(source), None, source.splitlines(True), name)
        ns: dict[str, Any] = {"_ck": _ck, "_ok": _ok, "_read": _read, **HELPERS}
        exec(compile(source, name, "exec"), ns)  # noqa: S102 - our own generated code
        fn = ns["facts"]

        def run(values: tuple, *params: int) -> tuple[list, list]:
            oks_, reads_ = fn(values, *params)
            return oks_, [list(zip(p, r)) for p, r in zip(plan, reads_)]
        return run, plan


def _ok(thunk: Callable[[], Any]) -> bool:
    try:
        return bool(thunk())
    except Exception:  # noqa: BLE001 - a part that cannot be evaluated is not satisfied
        return False


def _read(thunk: Callable[[], Any]) -> list:
    try:
        return thunk()
    except Exception:  # noqa: BLE001 - an index out of range: nothing to show
        return []


def _name(dim: Any, k: int) -> str:
    names = dim.names()
    if names is not None and 0 <= k < len(names) and names[k] is not None:
        return str(names[k])
    return str(k)


def _shown(tp: Any, value: Any) -> str:
    if tp.enum is not None:
        try:
            return tp.enum.name_of(value)
        except (IndexError, TypeError):
            return str(value)
    if tp == BOOL:
        return "true" if value else "false"
    return str(value)
