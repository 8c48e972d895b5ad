"""Find runs in what a spec unrolled with a Python loop, so that English says it once.

A spec often writes ``for c in CODES: rule.set(bag[c], 0)``: the IR then holds ten
statements (or ten terms of a sum) that differ only in a constant that counts up. A *run*
is three or more such items (or blocks of up to four statements); the printer says it
once, for each value, with the constant replaced by a variable named after what it
indexes (``TokenCode``, ``Dock``, ``player``).

>>> from rulespec.ir.nodes import Expr, Field, INT, Dim
>>> seen = Field("seen", INT, -1, 9, (Dim(4),), 0, None, None)
>>> items = [seen[k] for k in range(4)]
>>> [(r.start, r.count) for r in find_runs(items, expr_shape)]
[(0, 4)]
>>> find_runs(items[:2], expr_shape)
[0, 1]
"""

from __future__ import annotations

from typing import Any, Callable, Sequence

import attrs

from .nodes import INT, Dim, Domain, Enum, Expr, Reading
from .statements import Assign, ForEach, If, Let


@attrs.frozen
class Hole:
    """An int or enum constant of an item: its value, its enum, the dimension it indexes."""

    value: int
    enum: Enum | None = None
    dim: Dim | None = None


@attrs.frozen
class Run:
    """Items ``start .. start + count * period - 1``: ``count`` blocks of ``period`` items,
    the same but for the holes at ``varying``, which count up by one from block to block."""

    start: int
    period: int
    count: int
    varying: tuple[int, ...]
    holes: tuple[Hole, ...]          # the first block's

    @property
    def first(self) -> Hole:
        return self.holes[self.varying[0]]

    def variable(self) -> Expr:
        """The variable that stands for the varying constant, named after what it indexes."""
        h = self.first
        word = _word(h)
        typ = h.enum.type if h.enum is not None else INT
        return Expr("var", (f"run:{word}", None), typ, None, None, word)

    def replacements(self, var: Expr) -> dict[int, Expr]:
        """What each varying hole of the first block becomes: the variable, plus an offset."""
        base = self.first.value
        out = {}
        for p in self.varying:
            off = self.holes[p].value - base
            out[p] = var if off == 0 else (var + off if off > 0 else var - (-off))
        return out

    def values(self, quantifier: str = "each") -> str:
        """The values the variable takes, in words: ``every TokenCode``, ``each k from 0
        to 9`` (``quantifier`` is ``every``, ``each``, ``some`` or empty); the whole of an
        enum or of a dimension's names is said by its name alone."""
        h, last = self.first, self.first.value + self.count - 1
        names = (h.enum.members if h.enum is not None else
                 h.dim.names() if h.dim is not None else None)
        word = _word(h)
        if names is not None and 0 <= h.value and last < len(names):
            shown = [n for n in names if n is not None]
            lo, hi = names[h.value], names[last]
            if lo is not None and hi is not None:
                whole = (lo == shown[0] and hi == shown[-1]
                         and all(names[v] is not None for v in range(h.value, last + 1)))
                said = word + ("" if whole else f" from {lo} to {hi}")
                return f"{quantifier} {said}".lstrip()
        return f"{quantifier} {word} from {h.value} to {last}".lstrip()


def _word(h: Hole) -> str:
    if h.enum is not None:
        return h.enum.name
    if h.dim is not None and h.dim.labels is not None:
        return h.dim.labels.name
    if h.dim is not None and h.dim.players:
        return "player"
    return "k"


Shape = Callable[[Any, list, "dict[int, Expr] | None"], tuple[Any, Any]]


def find_runs(items: Sequence[Any], shape: Shape, *, least: int = 3,
              widest: int = 4) -> list["Run | int"]:
    """``items`` in order, as the index of each item outside a run and a :class:`Run` for
    each run; ``shape(item, holes, None)`` gives an item's key and appends its holes."""
    keys: list[tuple[Any, list[Hole]]] = []
    for it in items:
        holes: list[Hole] = []
        key, _ = shape(it, holes, None)
        keys.append((key, holes))
    out: list[Any] = []
    i, n = 0, len(items)
    while i < n:
        best: Run | None = None
        for q in range(1, widest + 1):
            run = _run_at(keys, i, q, least)
            if run is not None and (best is None or run.count * q > best.count * best.period):
                best = run
        if best is None:
            out.append(i)
            i += 1
        else:
            out.append(best)
            i += best.count * best.period
    return out


def _block(keys: list, i: int, q: int) -> tuple[Any, list[Hole]] | None:
    if i + q > len(keys) or any(keys[j][0] is None for j in range(i, i + q)):
        return None
    return (tuple(keys[j][0] for j in range(i, i + q)),
            [h for j in range(i, i + q) for h in keys[j][1]])


def _run_at(keys: list, i: int, q: int, least: int) -> Run | None:
    first, second = _block(keys, i, q), _block(keys, i + q, q)
    if first is None or second is None or first[0] != second[0]:
        return None
    h0 = first[1]
    varying = tuple(p for p, (a, b) in enumerate(zip(h0, second[1])) if a.value != b.value)
    if not varying or any(second[1][p].value - h0[p].value != 1 for p in varying):
        return None
    lead = h0[varying[0]]
    if any(h0[p].enum is not lead.enum or (lead.enum is not None and h0[p].value != lead.value)
           for p in varying):
        return None  # one variable stands for them all; an enum member has no offset
    count = 2
    while True:
        nxt = _block(keys, i + count * q, q)
        if nxt is None or nxt[0] != first[0] or not all(
                nxt[1][p].value == h0[p].value + (count if p in varying else 0)
                for p in range(len(h0))):
            break
        count += 1
    if count < least:
        return None
    last = h0[varying[0]].value + count - 1
    if h0[varying[0]].enum is not None and last >= len(h0[varying[0]].enum):
        return None
    return Run(i, q, count, varying, tuple(h0))


# --- shapes: an item's structure with its int and enum constants taken out ----------------

def expr_shape(e: Expr, holes: list, repl: dict[int, Expr] | None,
               dim: Dim | None = None) -> tuple[Any, Expr]:
    """The key of ``e`` (its structure without its constants), appending its holes; with
    ``repl`` (hole number -> expression), also ``e`` with those holes replaced."""
    if e.op == "const" and not isinstance(e.args[0], bool) and (
            e.type == INT or e.type.enum is not None):
        k = len(holes)
        holes.append(Hole(e.args[0], e.type.enum, dim))
        return ("#", e.type), (repl.get(k, e) if repl else e)
    if isinstance(e.name, Reading):
        parts = [expr_shape(p, holes, repl) for p in e.name.parts]
        node = e if not repl else Expr(e.op, e.args, e.type, e.where, e.label,
                                       Reading(e.name.text, tuple(p for _, p in parts)))
        return ("reading", e.name.text, e.type, tuple(k for k, _ in parts)), node
    if e.op == "var":
        return ("var", e.name or e.args[0], e.type), e
    key: list[Any] = [e.op, e.type, e.name if isinstance(e.name, str) else None]
    args: list[Any] = []
    dims = e.args[0].dims if e.op == "field" else ()
    for k, a in enumerate(e.args):
        if isinstance(a, Expr):
            d = dims[k - 1] if e.op == "field" and 0 < k <= len(dims) else None
            sub, new = expr_shape(a, holes, repl, d)
            key.append(sub)
            args.append(new)
        else:
            key.append(_atom(a))
            args.append(a)
    node = e if not repl else Expr(e.op, tuple(args), e.type, e.where, e.label, e.name, e.assumed)
    return tuple(key), node


def _atom(a: Any) -> Any:
    if isinstance(a, Domain):
        return ("domain", a.lo, a.max_hi, id(a.enum) if a.enum else None, a.label)
    if isinstance(a, (int, str, bool, type(None))):
        return a
    if isinstance(a, tuple) and all(isinstance(x, (int, bool)) for x in a):
        return a
    return ("object", id(a))


def statement_shape(st: Any, holes: list, repl: dict[int, Expr] | None) -> tuple[Any, Any]:
    """Like :func:`expr_shape`, for a statement; a ``let`` or a loop never joins a run
    (its key is None)."""
    if isinstance(st, Assign):
        kt, t = expr_shape(st.target, holes, repl)
        kv, v = expr_shape(st.value, holes, repl)
        return ("set", kt, kv), (Assign(t, v, st.where, st.source) if repl else st)
    if isinstance(st, If):
        kc, c = expr_shape(st.cond, holes, repl)
        then = [statement_shape(s, holes, repl) for s in st.then]
        other = [statement_shape(s, holes, repl) for s in st.otherwise]
        if any(k is None for k, _ in then + other):
            return None, st
        key = ("if", kc, st.name, tuple(k for k, _ in then), tuple(k for k, _ in other))
        node = (attrs.evolve(st, cond=c, then=tuple(s for _, s in then),
                             otherwise=tuple(s for _, s in other)) if repl else st)
        return key, node
    if isinstance(st, (Let, ForEach)):
        return None, st
    return None, st


def block(items: Sequence[Any], run: Run, shape: Shape) -> tuple[list[Any], Expr]:
    """The run's first block, its varying constants replaced by the run's variable (hole
    numbers count across the block's items)."""
    var = run.variable()
    repl = run.replacements(var)
    out, seen = [], 0
    for it in items[run.start:run.start + run.period]:
        holes: list[Hole] = []
        shape(it, holes, None)
        local = {k - seen: v for k, v in repl.items() if seen <= k < seen + len(holes)}
        _, node = shape(it, [], local or None)
        out.append(node if local else it)
        seen += len(holes)
    return out, var

