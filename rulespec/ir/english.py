"""Print IR as English a rules editor reads: the spec's own names, no index arithmetic.

Every bound value is called by the name the spec gave it (a ``let``'s ``name``, the
parameter of the lambda given to ``exists``/``forall``/``count``/``sum_of``, the variable
after ``with rule.for_each(...) as``), a table by its name, a code by its parts
(``bag[price/mark]``, ``area_tok[cottages_1, 2/plain]``). Expressions are simplified first
(:func:`~rulespec.ir.simplify.tidy`), what a Python loop unrolled is said once
(:mod:`~rulespec.ir.runs`), and a long expression is summarised, pointing at its line in
the spec. The reports, ``rulespec info`` and refusals all print rules through here.

>>> from rulespec.ir.nodes import lift, all_of
>>> to_english(all_of(lift(1) < 2, lift(3) == 3))
'true'
>>> from rulespec.ir.nodes import Enum, Expr, Field, Dim, INT, exists, if_
>>> Dock = Enum("Dock", ["dock_1", "dock_2"], source="t")
>>> docks = Field("docks", INT, 0, 3, (Dim(2, Dock),), 0, None, None)
>>> to_english(exists(Dock, lambda d: docks[d] == 0))
'for some Dock d: docks[d] = 0'
>>> k = Expr("param", ("k", None), INT)
>>> to_english((if_(lift(True), k, 0) + if_(lift(False), k, 0)) * 1 + 0)
'k'
"""

from __future__ import annotations

import re
from typing import Any, Callable, Iterable

import attrs

from .location import Location
from .nodes import BOOL, Domain, Expr, Reading
from .runs import Run, block, expr_shape, find_runs, statement_shape
from .simplify import tidy
from .statements import Assign, ForEach, If, Let
from .walk import walk

#: how tightly each form binds (a looser one inside a tighter one is parenthesised)
LOW, OR, AND, NOT, CMP, ADD, MUL, ATOM = range(8)
_CMP = {"eq": "=", "ne": "≠", "lt": "<", "le": "≤", "gt": ">", "ge": "≥"}
#: a < b is b > a
_MIRROR = {"eq": "eq", "ne": "ne", "lt": "gt", "le": "ge", "gt": "lt", "ge": "le"}
#: more terms or conditions than this are summarised (the first few, …, the last)
_LIST = 8
_LEAVES = {"const", "var", "param", "num_players", "interp"}


class _Printer:
    """One reading of an expression; the nodes in ``elide`` are said as ``…``."""

    def __init__(self, elide: frozenset[int] = frozenset()) -> None:
        self.elide = elide
        #: (length, -order, nesting, node id) of every part said, to choose what to omit
        self.said: list[tuple[int, int, int, int]] = []

    def text(self, e: Expr, need: int = LOW, level: int = 0) -> str:
        if id(e) in self.elide:
            return "…"
        s, prec = self.show(e, level)
        s = f"({s})" if prec < need else s
        if e.op not in _LEAVES:  # the longest first, then the first said: the same every run
            self.said.append((len(s), -len(self.said), level, id(e)))
        return s

    def show(self, e: Expr, level: int) -> tuple[str, int]:
        if isinstance(e.name, Reading):
            return self.reading(e.name, level), LOW if e.name.clause else ATOM
        if isinstance(e.name, str) and e.op not in ("table",):
            return e.name, ATOM  # a value the spec named: its name (its definition is listed)
        return _SHOW[e.op](self, e, level + 1)

    def reading(self, r: Reading, level: int) -> str:
        parts = [self.text(p, LOW, level + 1) for p in r.parts]
        return re.sub(r"\{(\d+)\}", lambda m: parts[int(m.group(1))], r.text)

    # --- leaves and names -------------------------------------------------------------
    def const(self, e: Expr, level: int) -> tuple[str, int]:
        if isinstance(e.name, str):
            return e.name, ATOM
        v = e.args[0]
        if e.type.enum is not None:
            return e.type.enum.name_of(v), ATOM
        if isinstance(v, bool):
            return ("true" if v else "false"), ATOM
        return str(v), ATOM if v >= 0 else ADD

    def field(self, e: Expr, level: int) -> tuple[str, int]:
        f, idx = e.args[0], e.args[1:]
        if not idx:
            return f.name, ATOM
        shown = [self.index(i, d, level) for i, d in zip(idx, f.dims)]
        return f"{f.name}[{', '.join(shown)}]", ATOM

    def index(self, i: Expr, dim: Any, level: int) -> str:
        """An index: a known position of a named dimension by its name."""
        if i.op == "const" and i.name is None and not isinstance(i.args[0], bool):
            names = dim.names() if dim is not None else None
            if names is not None and 0 <= i.args[0] < len(names) and names[i.args[0]]:
                return names[i.args[0]]
        return self.text(i, LOW, level)

    def table(self, e: Expr, level: int) -> tuple[str, int]:
        values, i = e.args
        at = self.text(i, LOW, level)
        if isinstance(e.name, str):
            return f"{e.name}[{at}]", ATOM
        shown = [_value(v, e) for v in values[:6]]
        more = f", … ({len(values)} values)" if len(values) > 6 else ""
        return f"[{', '.join(shown)}{more}][{at}]", ATOM

    # --- arithmetic -------------------------------------------------------------------
    def sum(self, e: Expr, level: int) -> tuple[str, int]:
        terms: list[tuple[int, Expr]] = []
        _terms(e, 1, terms)
        exprs = [t for _, t in terms]
        pieces: list[tuple[int, str]] = []
        for it in find_runs(exprs, expr_shape, widest=1):
            span = range(it.start, it.start + it.count) if isinstance(it, Run) else [it]
            if isinstance(it, Run) and len({terms[j][0] for j in span}) == 1:
                (body,), _ = block(exprs, it, expr_shape)
                if body.op == "ite" and _is_int(body.args[1], 1) and _is_int(body.args[2], 0):
                    said = (f"(the number of {it.values('')} with "
                            f"{self.text(body.args[0], LOW, level)})")
                else:
                    said = f"(the sum of {self.text(body, ADD, level)} over {it.values('every')})"
                pieces.append((terms[it.start][0], said))
                continue
            for j in span:
                sign, t = terms[j]
                if t.op == "const" and t.name is None and t.args[0] < 0:
                    sign, t = -sign, Expr("const", (-t.args[0],), t.type)
                pieces.append((sign, self.text(t, MUL, level)))
        if len(pieces) > 1 and pieces[0] == (1, "0"):  # 0 - x is -x
            pieces = pieces[1:]
        tail = ""
        if len(pieces) > _LIST:
            tail = f" ({len(pieces)} terms)"
            pieces = pieces[:3] + [(1, "…")] + pieces[-1:]
        out = []
        for k, (sign, s) in enumerate(pieces):
            if k == 0:
                out.append(s if sign > 0 else f"-{s}")
            else:
                out.append(f" {'+' if sign > 0 else '-'} {s}")
        return "".join(out) + tail, ADD

    # --- conditions -------------------------------------------------------------------
    def compare(self, e: Expr, level: int) -> tuple[str, int]:
        a, b = e.args
        if a.op == "interp" and b.op == "const" and e.op in ("eq", "ne"):
            said = f"under {a.args[0].name}={a.args[0].enum.name_of(b.args[0])}"
            return (said, CMP) if e.op == "eq" else (f"not {said}", NOT)
        order = self.order(e.op, a, b, level) or self.order(_MIRROR[e.op], b, a, level)
        if order is not None:
            return order, CMP
        return f"{self.text(a, ADD, level)} {_CMP[e.op]} {self.text(b, ADD, level)}", CMP

    def order(self, op: str, a: Expr, b: Expr, level: int) -> str | None:
        """A member's position against a number, as the enum's order: ``effect comes after
        take_back`` for ``ordinal(effect) > 3``."""
        if a.op != "ordinal" or b.op != "const" or a.name is not None:
            return None
        enum, k = a.args[0].type.enum, b.args[0]
        if not 0 <= k < len(enum):
            return None
        x, m = self.text(a.args[0], ADD, level), enum.name_of(k)
        return {"gt": f"{x} comes after {m}", "ge": f"{x} is {m} or after",
                "lt": f"{x} comes before {m}", "le": f"{x} is {m} or before",
                "eq": f"{x} = {m}", "ne": f"{x} ≠ {m}"}[op]

    def negate(self, e: Expr, level: int) -> tuple[str, int]:
        return f"not {self.text(e.args[0], NOT + 1, level)}", NOT

    def junction(self, e: Expr, level: int) -> tuple[str, int]:
        word, prec = ("and", AND) if e.op == "and" else ("or", OR)
        if not e.args:
            return ("true" if e.op == "and" else "false"), ATOM
        flat: list[Expr] = []
        _flatten(e, e.op, flat)
        pieces = []
        items = find_runs(flat, expr_shape, widest=1)
        for it in items:
            if isinstance(it, Run):
                (body,), _ = block(flat, it, expr_shape)
                quant = it.values("every" if e.op == "and" else "some")
                said = f"for {quant}: {self.text(body, LOW, level)}"
                if len(items) == 1:
                    return said, LOW
                pieces.append(f"({said})")
            else:
                pieces.append(self.text(flat[it], NOT, level))
        if len(pieces) > _LIST:
            n = len(pieces)
            pieces = pieces[:3] + ["…", pieces[-1]]
            return f" {word} ".join(pieces) + f" ({n} conditions)", prec
        return f" {word} ".join(pieces), prec

    def choice(self, e: Expr, level: int) -> tuple[str, int]:
        arms = []
        x = e
        while x.op == "ite" and x.name is None:
            c, then, x = x.args
            arms.append(f"{self.text(then, LOW, level)} if {self.text(c, OR, level)}")
        return f"({', '.join(arms)}, else {self.text(x, LOW, level)})", ATOM

    # --- binders ----------------------------------------------------------------------
    def binder(self, e: Expr, level: int) -> tuple[str, int]:
        var, dom, body = e.args
        phrase = self.bound(var, dom, level)
        inner = self.text(body, LOW, level)
        said = {"exists": f"for some {phrase}: {inner}",
                "forall": f"for every {phrase}: {inner}",
                "count": f"the number of {phrase} with {inner}",
                "sum": f"the sum over {phrase} of {inner}"}[e.op]
        return said, LOW

    def bound(self, var: Expr, dom: Domain, level: int) -> str:
        """``Dock d``, ``player p``, ``k in 1..4``: a bound variable with what it ranges over."""
        v = var.name or var.args[0]
        if dom.enum is not None:
            return dom.enum.name if v == dom.enum.name else f"{dom.enum.name} {v}"
        if dom.label == "players":
            return "player" if v == "player" else f"player {v}"
        if dom.hi.op == "const":
            return f"{v} in {dom.lo}..{dom.hi.args[0] - 1}"
        return f"{v} from {dom.lo} to {self.text(dom.hi, ADD, level)} - 1"


Show = Callable[[_Printer, Expr, int], tuple[str, int]]


def _binary(sym: str, prec: int) -> Show:
    def show(p: _Printer, e: Expr, level: int) -> tuple[str, int]:
        a, b = e.args
        return f"{p.text(a, prec, level)} {sym} {p.text(b, prec + 1, level)}", prec
    return show


def _call(word: str) -> Show:
    def show(p: _Printer, e: Expr, level: int) -> tuple[str, int]:
        return f"{word}({', '.join(p.text(a, LOW, level) for a in e.args)})", ATOM
    return show


def _is_int(e: Expr, v: int) -> bool:
    return e.op == "const" and e.name is None and e.args[0] == v and not isinstance(v, bool)


def _value(v: Any, e: Expr) -> str:
    if e.type.enum is not None:
        return e.type.enum.name_of(v)
    if isinstance(v, bool):
        return "true" if v else "false"
    return str(v)


def _terms(e: Expr, sign: int, out: list[tuple[int, Expr]]) -> None:
    if e.op in ("add", "sub") and e.name is None:
        _terms(e.args[0], sign, out)
        _terms(e.args[1], sign if e.op == "add" else -sign, out)
    else:
        out.append((sign, e))


def _flatten(e: Expr, op: str, out: list[Expr]) -> None:
    if e.op == op and e.name is None:
        for a in e.args:
            _flatten(a, op, out)
    else:
        out.append(e)


def _labels(graph, nodes) -> str:  # noqa: ANN001
    names = [graph.labels[n] for n in nodes]
    return ", ".join(names) if len(names) <= 4 else f"{', '.join(names[:3])}, ... {names[-1]}"


def _connected(p: _Printer, e: Expr, level: int) -> tuple[str, int]:
    graph, sources, targets, text = e.args[:4]
    if text:
        return text, ATOM
    return (f"a path in {graph.name} joins {{{_labels(graph, sources)}}} to "
            f"{{{_labels(graph, targets)}}} through nodes where, for node 0, "
            f"{p.text(e.args[4], LOW, level)}"), LOW


def _component(p: _Printer, e: Expr, level: int) -> tuple[str, int]:
    graph, text, start = e.args[:3]
    what = text or f"the group of {graph.name} around node {p.text(start, LOW, level)}"
    return f"the size of {what}", LOW


def _largest(p: _Printer, e: Expr, level: int) -> tuple[str, int]:
    graph, text, labels = e.args[:3]
    what = text or f"the largest group of member nodes of {graph.name}"
    return f"the size of {what}" + (" (in distinct labels)" if labels else ""), LOW


_P = _Printer
_SHOW: dict[str, Show] = {
    "const": _P.const, "field": _P.field, "table": _P.table,
    "param": lambda p, e, level: (e.args[0], ATOM),
    "var": lambda p, e, level: (e.name or e.args[0], ATOM),
    "num_players": lambda p, e, level: ("the number of players", ATOM),
    "interp": lambda p, e, level: (f"the reading of {e.args[0].name}", ATOM),
    "add": _P.sum, "sub": _P.sum,
    "mul": _binary("×", MUL), "floordiv": _binary("div", MUL), "mod": _binary("mod", MUL),
    "min": _call("min"), "max": _call("max"),
    "abs": lambda p, e, level: (f"|{p.text(e.args[0], LOW, level)}|", ATOM),
    "eq": _P.compare, "ne": _P.compare, "lt": _P.compare, "le": _P.compare,
    "gt": _P.compare, "ge": _P.compare,
    "and": _P.junction, "or": _P.junction, "not": _P.negate, "ite": _P.choice,
    "exists": _P.binder, "forall": _P.binder, "sum": _P.binder, "count": _P.binder,
    "ordinal": lambda p, e, level: (f"the position of {p.text(e.args[0], ATOM, level)}",
                                    ATOM),
    "enum_table": lambda p, e, level: (f"{e.args[0].name}[{p.text(e.args[1], LOW, level)}]",
                                       ATOM),
    "connected": _connected, "component_size": _component, "largest_component": _largest,
    "let": lambda p, e, level: (f"{p.text(e.args[2], LOW, level)}, where {e.args[0].name} = "
                                f"{p.text(e.args[1], LOW, level)}", LOW),
}
#: the operations the printer reads (a test holds every backend's table to the same set)
ENGLISH = _SHOW


def to_english(e: Expr, *, limit: int | None = None, where: Location | None = None,
               cite: bool = True, literal: bool = False) -> str:
    """A one-line reading of ``e``, simplified first (``literal``: as written, for a
    change to one comparison). With ``limit``, a longer reading leaves out its largest
    deep parts (``…``) until it fits, and (with ``cite``) points at ``where`` (or the line
    that built ``e``) for the whole.

    >>> from rulespec.ir.nodes import Expr, INT, lift
    >>> x = Expr("param", ("price", None), INT)
    >>> to_english((x - 2) * 2 + 1 + (lift(0) - x))
    '(price - 2) × 2 + 1 - price'
    >>> from rulespec.ir.nodes import max_, min_
    >>> y = Expr("param", ("swap", None), INT)
    >>> e = max_(0, min_(x * 2 - y, y * 3 + x)) + min_(x, y * (x - 1))
    >>> to_english(e)
    'max(0, min(price × 2 - swap, swap × 3 + price)) + min(price, swap × (price - 1))'
    >>> to_english(e, limit=64, where=Location("spec.py", 7))
    'max(0, …) + min(price, swap × (price - 1)) (in full: spec.py:7)'
    """
    e = e if literal else tidy(e)
    p = _Printer()
    text = p.text(e)
    if limit is None or len(text) <= limit:
        return text
    where = where or e.where
    tail = f" (in full: {where})" if where and cite else ""
    elide: set[int] = set()
    while len(text) + len(tail) > limit:
        # leave out the deepest part that is enough alone (the structure above it stays);
        # if none is, the largest, and again
        excess = len(text) + len(tail) - limit
        parts = [x for x in p.said if x[2] >= 1 and x[3] not in elide and x[0] > 1]
        if not parts:
            break
        enough = [x for x in parts if x[0] - 1 >= excess]
        pick = (min(enough, key=lambda x: (-x[2], x[0], -x[1])) if enough else max(parts))
        elide.add(pick[3])
        p = _Printer(frozenset(elide))
        text = p.text(e)
    return text + tail


def definitions(exprs: Iterable[Expr]) -> list[tuple[str, Expr]]:
    """Each value the spec named (``called``) that ``exprs`` read, nested ones included,
    in the order they are first read: ``(name, what it stands for)``; the printer says
    the name, so a reader needs these beside it.

    >>> from rulespec.ir.nodes import Expr, INT, called
    >>> x = Expr("param", ("price", None), INT)
    >>> due = called(x * 2, "shells_due")
    >>> [(n, to_english(e)) for n, e in definitions([due + called(due + 1, "total")])]
    [('total', 'shells_due + 1'), ('shells_due', 'price × 2')]
    """
    out: list[tuple[str, Expr]] = []
    for e in exprs:
        for n in walk(e):
            if isinstance(n.name, str) and n.op not in ("var", "table", "const", "param"):
                plain = Expr(n.op, n.args, n.type, n.where, n.label)
                if not any(name == n.name and d.same_as(plain) for name, d in out):
                    out.append((n.name, plain))
    return out


def statements_to_english(stmts: Any, indent: str = "", *, limit: int | None = None
                          ) -> list[str]:
    """One line per statement, nested blocks indented; statements that a Python loop
    unrolled are said once, ``for each ...``. ``limit`` caps each expression.

    >>> from rulespec.ir.nodes import Expr, Field, Dim, INT, lift
    >>> from rulespec.ir.statements import Assign
    >>> seen = Field("seen", INT, -1, 9, (Dim(100),), 0, None, None)
    >>> statements_to_english([Assign(seen[k], lift(-1)) for k in range(100)])
    ['set seen[k] to -1, for each k from 0 to 99']
    >>> bag = Field("bag", INT, 0, 9, (), 0, None, None)
    >>> statements_to_english([Assign(lift(bag), lift(bag) + -2)])
    ['take 2 from bag']
    """
    return _Effects(limit).lines(tuple(stmts), indent)


class _Effects:
    def __init__(self, limit: int | None) -> None:
        self.limit = limit

    def say(self, e: Expr, where: Location | None) -> str:
        return to_english(e, limit=self.limit, where=where)

    def lines(self, stmts: tuple, indent: str) -> list[str]:
        tidied = [s for st in stmts for s in _tidy_statement(st)]
        out: list[str] = []
        for it in find_runs(tidied, statement_shape):
            if isinstance(it, int):
                out.extend(self.statement(tidied[it], indent))
                continue
            body, _ = block(tidied, it, statement_shape)
            each = it.values("each")
            inner = self.lines(tuple(body), indent + "  ")
            if len(inner) == 1:  # one effect, for each value: one line
                out.append(f"{indent}{inner[0].lstrip()}, for {each}")
            else:
                out.append(f"{indent}for {each}:")
                out.extend(inner)
        return out

    def statement(self, st: Any, indent: str) -> list[str]:
        say = ENGLISH_STATEMENTS.get(type(st))
        return say(self, st, indent) if say is not None else [f"{indent}{st!r}"]

    def assignment(self, st: Assign, indent: str) -> list[str]:
        return [indent + self.assign(st)]

    def naming(self, st: Let, indent: str) -> list[str]:
        return [f"{indent}let {st.var.name or st.var.args[0]} be "
                f"{self.say(st.value, st.where)}"]

    def loop(self, st: ForEach, indent: str) -> list[str]:
        phrase = _Printer().bound(st.var, st.domain, 0)
        return [f"{indent}for each {phrase}:", *self.lines(st.body, indent + "  ")]

    def branch(self, st: If, indent: str, word: str) -> list[str]:
        cond = self.say(st.cond, st.where)
        if not st.then:
            return [f"{indent}{'unless' if word == 'if' else 'otherwise, unless'} {cond}:",
                    *self.lines(st.otherwise, indent + "  ")]
        out = [f"{indent}{word} {cond}:", *self.lines(st.then, indent + "  ")]
        rest = st.otherwise
        if len(rest) == 1 and isinstance(rest[0], If):
            return out + self.branch(rest[0], indent, "otherwise, if")
        if rest:
            out += [f"{indent}otherwise:", *self.lines(rest, indent + "  ")]
        return out

    def assign(self, st: Assign) -> str:
        t, v = st.target, st.value
        target = self.say(t, st.where)
        if v.op in ("add", "sub") and v.args[0].same_as(t) and v.name is None:
            d = v.args[1]
            up = v.op == "add"
            if d.op == "const" and d.name is None and not isinstance(d.args[0], bool) \
                    and d.args[0] < 0:
                d, up = Expr("const", (-d.args[0],), d.type), not up
            amount = self.say(d, st.where)
            return f"add {amount} to {target}" if up else f"take {amount} from {target}"
        value = self.say(v, st.where)
        if v.type == BOOL and v.op not in ("const", "field", "var", "param", "ite"):
            value = f"({value})"  # set x to (a = b), not "set x to a = b"
        return f"set {target} to {value}"


#: every statement kind's reading (a test holds it to ``STATEMENTS`` and the other tables)
ENGLISH_STATEMENTS: dict[type, Callable[[_Effects, Any, str], list[str]]] = {
    Assign: _Effects.assignment, Let: _Effects.naming, ForEach: _Effects.loop,
    If: lambda effects, st, indent: effects.branch(st, indent, "if"),
}


def _tidy_statement(st: Any) -> list[Any]:
    """A statement simplified for reading (a branch on a known condition is its side)."""
    if isinstance(st, Assign):
        return [Assign(tidy(st.target), tidy(st.value), st.where, st.source)]
    if isinstance(st, Let):
        return [Let(st.var, tidy(st.value), st.where, st.source)]
    if isinstance(st, If):
        c = tidy(st.cond)
        if c.op == "const" and c.type == BOOL:
            side = st.then if c.args[0] else st.otherwise
            return [s for x in side for s in _tidy_statement(x)]
        return [attrs.evolve(st, cond=c)]
    return [st]
