"""The Python backend's expressions: one table entry per IR operation (``EXPR_TABLE``),
each writing the operation's code, with constants folded and index checks only where
bounds do not prove an index in range; and the statements of setup and effects.

Each entry returns code text, which the hoister (:mod:`hoist`) reads to name common and
loop-invariant subexpressions once."""

from __future__ import annotations

import operator
from typing import Any, Callable

from ..ir.closure import is_connected, largest_group, size_of_component
from ..ir.errors import SpecError
from ..ir.intervals import Interval, interval
from ..ir.nodes import BOOL, Domain, Expr
from ..ir.statements import Assign, ForEach, If, Let
from ..ir.walk import conjuncts
from ..spec.elements import Action, GameSpec
from .hoist import Hoist, literal
from .layout import Layout

#: a quantifier over a constant domain of at most this many values is written out
UNROLL_LIMIT = 8
#: lookup tables longer than this become module constants (``_T0``...) instead of literals
SHORT_TABLE = 12


class RuleError(Exception):
    """A rule computed something impossible at run time (an index out of range)."""


def _ck(i: int, size: int, what: str) -> int:
    if 0 <= i < size:
        return i
    raise RuleError(f"index {i} out of range 0..{size - 1} in {what}")


def _no(i: int, absent: tuple) -> int:
    """``i``, unless the table read has no value there (``absent[i]`` says why)."""
    if absent[i] is None:
        return i
    raise RuleError(absent[i])


class _Ctx:
    """Names in scope while emitting code: parameters, bound variables, interpretation.

    ``depth`` counts the run-time loops (generator expressions) around the code being
    emitted, so that the hoister knows what would be evaluated more than once."""

    def __init__(self, interp: dict[str, int], subst: dict[str, str] | None = None,
                 depth: int = 0, ranges: dict[str, Interval] | None = None) -> None:
        self.interp = interp
        self.subst: dict[str, str] = dict(subst or {})
        self.depth = depth
        #: narrower bounds of parameters and bound variables where a guard has tested them
        self.ranges: dict[str, Interval] = dict(ranges or {})

    def bind(self, name: str, code: str) -> "_Ctx":
        c = _Ctx(self.interp, self.subst, self.depth, self.ranges)
        c.subst[name] = code
        c.ranges.pop(name, None)
        return c

    def deeper(self) -> "_Ctx":
        return _Ctx(self.interp, self.subst, self.depth + 1, self.ranges)

    def knowing(self, cond: Expr, max_players: int) -> "_Ctx":
        """This context where ``cond`` is known to hold: a parameter or variable compared
        with a constant (``c + 3 < 7``, ``r - 1 >= 0``, conjunctions of them) gets
        narrower bounds, so that indices it proves in range need no run-time check."""
        facts: dict[str, Interval] = {}
        for fact in conjuncts(cond):
            if fact.op not in _FLIP:
                continue
            a, b = fact.args
            op = fact.op
            if a.op == "const":
                a, b, op = b, a, _FLIP[op]
            if b.op != "const" or not isinstance(b.args[0], int) or isinstance(b.args[0], bool):
                continue
            x, k = _offset(a)
            if x is None:
                continue
            env = {**self.ranges, **facts}
            now = interval(x, max_players, env)
            if now is None:
                continue
            n = b.args[0] - k           # the test is x OP n
            lo, hi = {"lt": (now[0], n - 1), "le": (now[0], n), "gt": (n + 1, now[1]),
                      "ge": (n, now[1]), "eq": (n, n)}[op]
            lo, hi = max(lo, now[0]), min(hi, now[1])
            if lo <= hi:
                facts[x.args[0]] = (lo, hi)
        if not facts:
            return self
        return _Ctx(self.interp, self.subst, self.depth, {**self.ranges, **facts})


#: a comparison, and the same test with its sides swapped
_FLIP = {"lt": "gt", "le": "ge", "gt": "lt", "ge": "le", "eq": "eq"}


def _offset(e: Expr) -> tuple[Expr | None, int]:
    """``(x, k)`` when ``e`` is ``x + k`` (or ``x - k``, ``k + x``, ``x``) for a parameter or
    bound variable ``x`` and a constant ``k``."""
    if e.op in ("param", "var"):
        return e, 0
    if e.op in ("add", "sub") and len(e.args) == 2:
        a, b = e.args
        if b.op == "const" and a.op in ("param", "var") and not isinstance(b.args[0], bool):
            return a, (b.args[0] if e.op == "add" else -b.args[0])
        if e.op == "add" and a.op == "const" and b.op in ("param", "var") \
                and not isinstance(a.args[0], bool):
            return b, a.args[0]
    return None, 0


class _Emitter:
    def __init__(self, spec: GameSpec, layout: Layout, interp: dict[str, int]) -> None:
        self.spec = spec
        self.layout = layout
        self.interp = interp
        self.lines: list[str] = []
        self._n = 0
        self.hoist: Hoist | None = None
        self.tables: dict[tuple, str] = {}

    def table_name(self, values: tuple) -> str:
        """A constant table, written once at the top of the module when it is long."""
        if len(values) <= SHORT_TABLE:
            return repr(values)
        name = self.tables.get(values)
        if name is None:
            name = self.tables[values] = f"_T{len(self.tables)}"
        return name

    def table_lines(self) -> list[str]:
        """The module constants for the long tables used so far."""
        return [f"{name} = {values!r}" for values, name in self.tables.items()]

    def fresh(self, base: str) -> str:
        self._n += 1
        return f"{base}{self._n}"

    # --- expressions --------------------------------------------------------------------
    def expr(self, e: Expr, ctx: _Ctx) -> str:
        code = EXPR_TABLE[e.op](self, e, ctx)
        if self.hoist is not None:
            code = self.hoist.offer(code, ctx.depth)
        return code

    def field_index(self, e: Expr, ctx: _Ctx) -> str:
        f = e.args[0]
        slot = self.layout.slots[f.name]
        const_part = slot.offset
        dyn: list[str] = []
        for d, stride, ix in zip(f.dims, slot.strides, e.args[1:]):
            code = str(ix.args[0]) if ix.op == "const" else self.expr(ix, ctx)
            if code.lstrip("-").isdigit():
                v = int(code)
                if 0 <= v < d.size:
                    const_part += v * stride
                    continue
                # out of range, but perhaps guarded: fail only if this read is reached
                code = f"_ck({v}, {d.size}, {f.name!r})"
                dyn.append(code if stride == 1 else f"({code})*{stride}")
                continue
            rng = interval(ix, self.spec.max_players, ctx.ranges)
            if rng is None or rng[0] < 0 or rng[1] >= d.size:
                code = f"_ck({code}, {d.size}, {f.name!r})"
            dyn.append(code if stride == 1 else f"({code})*{stride}")
        if not dyn:
            return str(const_part)
        parts = ([str(const_part)] if const_part else []) + dyn
        return " + ".join(parts)

    def domain_range(self, d: Domain, ctx: _Ctx) -> str:
        hi = self.expr(d.hi, ctx)
        return f"range({d.lo}, {hi})"

    # --- statements ---------------------------------------------------------------------
    def stmts(self, stmts: tuple, ctx: _Ctx, indent: str) -> None:
        if not stmts:
            self.lines.append(f"{indent}pass")
            return
        for st in stmts:   # a Let binds its name for the statements after it
            ctx = STMT_TABLE[type(st)](self, st, ctx, indent)


def _assign(em: _Emitter, st: Assign, ctx: _Ctx, indent: str) -> _Ctx:
    idx = em.field_index(st.target, ctx)
    val = em.expr(st.value, ctx)
    em.lines.append(f"{indent}s[{idx}] = {val}")
    return ctx


def _let_statement(em: _Emitter, st: Let, ctx: _Ctx, indent: str) -> _Ctx:
    v = em.fresh("l")
    em.lines.append(f"{indent}{v} = {em.expr(st.value, ctx)}")
    bounds = interval(st.value, em.spec.max_players, ctx.ranges)
    ctx = ctx.bind(st.var.args[0], v)
    if bounds is not None:  # what its value can be (as for a field read in place)
        ctx.ranges[st.var.args[0]] = bounds
    return ctx


def _if(em: _Emitter, st: If, ctx: _Ctx, indent: str) -> _Ctx:
    em.lines.append(f"{indent}if {em.expr(st.cond, ctx)}:")
    em.stmts(st.then, ctx.knowing(st.cond, em.spec.max_players), indent + "    ")
    if st.otherwise:
        em.lines.append(f"{indent}else:")
        em.stmts(st.otherwise, ctx, indent + "    ")
    return ctx


def _for_each(em: _Emitter, st: ForEach, ctx: _Ctx, indent: str) -> _Ctx:
    v = em.fresh("i")
    em.lines.append(f"{indent}for {v} in {em.domain_range(st.domain, ctx)}:")
    em.stmts(st.body, ctx.bind(st.var.args[0], v), indent + "    ")
    return ctx


#: every statement kind's code (a test holds it to ``STATEMENTS`` and the other tables);
#: each entry writes its lines and returns the scope of the statements after it
STMT_TABLE: dict[type, Callable[[_Emitter, Any, _Ctx, str], _Ctx]] = {
    Assign: _assign, Let: _let_statement, If: _if, ForEach: _for_each,
}


def _const(em: _Emitter, e: Expr, ctx: _Ctx) -> str:
    v = e.args[0]
    return repr(bool(v)) if e.type == BOOL else repr(int(v))


def _field(em: _Emitter, e: Expr, ctx: _Ctx) -> str:
    return f"s[{em.field_index(e, ctx)}]"


def _name(em: _Emitter, e: Expr, ctx: _Ctx) -> str:
    try:
        return ctx.subst[e.args[0]]
    except KeyError:
        raise SpecError(f"{e.args[0]!r} is used outside the block that defines it",
                        where=e.where) from None


def _interp(em: _Emitter, e: Expr, ctx: _Ctx) -> str:
    return str(em.interp[e.args[0].name])


# Folding: an operation whose operands are all literals (parameters bound to constants in an
# unrolled enumerator, interpretation points, enum members) is computed here, with the very
# Python operator the generated code would run, so the value and its type are unchanged.
_OPERATORS: dict[str, Callable[[Any, Any], Any]] = {
    "+": operator.add, "-": operator.sub, "*": operator.mul, "//": operator.floordiv,
    "%": operator.mod, "==": operator.eq, "!=": operator.ne, "<": operator.lt,
    "<=": operator.le, ">": operator.gt, ">=": operator.ge,
}


def _binop(sym: str) -> Callable[[_Emitter, Expr, _Ctx], str]:
    fn = _OPERATORS[sym]

    def emit(em: _Emitter, e: Expr, ctx: _Ctx) -> str:
        a, b = em.expr(e.args[0], ctx), em.expr(e.args[1], ctx)
        (la, va), (lb, vb) = literal(a), literal(b)
        if la and lb and not (sym in ("//", "%") and vb == 0):  # x // 0 raises when reached
            return repr(fn(va, vb))
        return f"({a} {sym} {b})"
    return emit


def _call(name: str) -> Callable[[_Emitter, Expr, _Ctx], str]:
    fn = {"min": min, "max": max, "abs": abs}[name]

    def emit(em: _Emitter, e: Expr, ctx: _Ctx) -> str:
        codes = [em.expr(a, ctx) for a in e.args]
        lits = [literal(c) for c in codes]
        if all(ok for ok, _ in lits):
            return repr(fn(*(v for _, v in lits)))
        return f"{name}({', '.join(codes)})"
    return emit


def _chain(codes: list[str], sym: str, empty: str) -> str:
    """``a and b and ...`` (or ``or``) with literal operands folded exactly: a neutral one
    (True in ``and``) is dropped unless it is last (it would be the value); an absorbing one
    ends the chain (nothing after it is evaluated)."""
    neutral = sym == "and"
    kept: list[str] = []
    for c in codes:
        lit, v = literal(c)
        kept.append(c)
        if lit and bool(v) != neutral:
            break
    kept = [c for k, c in enumerate(kept)
            if k == len(kept) - 1 or not (literal(c)[0] and bool(literal(c)[1]) == neutral)]
    if not kept:
        return empty
    if len(kept) == 1:
        return kept[0]
    return "(" + f" {sym} ".join(kept) + ")"


def _nary(sym: str, empty: str) -> Callable[[_Emitter, Expr, _Ctx], str]:
    def emit(em: _Emitter, e: Expr, ctx: _Ctx) -> str:
        codes = []
        for a in e.args:
            codes.append(em.expr(a, ctx))
            if sym == "and":   # each conjunct is evaluated only where the ones before hold
                ctx = ctx.knowing(a, em.spec.max_players)
        return _chain(codes, sym, empty)
    return emit


def _not(em: _Emitter, e: Expr, ctx: _Ctx) -> str:
    code = em.expr(e.args[0], ctx)
    lit, v = literal(code)
    return repr(not v) if lit else f"(not {code})"


def _ite(em: _Emitter, e: Expr, ctx: _Ctx) -> str:
    cond = em.expr(e.args[0], ctx)
    lit, v = literal(cond)
    if lit:
        return em.expr(e.args[1] if v else e.args[2], ctx)
    then = em.expr(e.args[1], ctx.knowing(e.args[0], em.spec.max_players))
    return f"({then} if {cond} else {em.expr(e.args[2], ctx)})"


def _table(em: _Emitter, e: Expr, ctx: _Ctx) -> str:
    values, index = e.args
    shown = tuple(bool(v) for v in values) if e.type == BOOL else tuple(int(v) for v in values)
    code = em.expr(index, ctx)
    lit, v = literal(code)
    if lit and 0 <= v < len(values):
        return repr(shown[v])
    rng = interval(index, em.spec.max_players, ctx.ranges)
    if lit or rng is None or rng[0] < 0 or rng[1] >= len(values):
        code = f"_ck({code}, {len(values)}, 'lookup table')"
    return f"{em.table_name(shown)}[{code}]"


def _sum_terms(parts: list[str]) -> str:
    lits = [literal(p) for p in parts]
    if all(ok for ok, _ in lits):
        return repr(sum(v for _, v in lits))
    return "(" + " + ".join(parts) + ")"


def _binder(kind: str) -> Callable[[_Emitter, Expr, _Ctx], str]:
    def emit(em: _Emitter, e: Expr, ctx: _Ctx) -> str:
        var, d, body = e.args
        name = var.args[0]
        if d.is_static() and d.max_hi - d.lo <= UNROLL_LIMIT:
            parts = [em.expr(body, ctx.bind(name, str(v))) for v in range(d.lo, d.max_hi)]
            if kind == "exists":
                return _chain(parts, "or", "False")
            if kind == "forall":
                return _chain(parts, "and", "True")
            if kind == "sum":
                return _sum_terms(parts) if parts else "0"
            terms = []
            for p in parts:  # count: each term is 1 or 0, so literal zeros can go
                lit, v = literal(p)
                if lit and not v:
                    continue
                terms.append("1" if lit else f"(1 if {p} else 0)")
            return _sum_terms(terms) if len(terms) > 1 else (terms[0] if terms else "0")
        v = em.fresh("q")
        inner = em.expr(body, ctx.bind(name, v).deeper())
        rng = em.domain_range(d, ctx)
        if kind == "exists":
            return f"any({inner} for {v} in {rng})"
        if kind == "forall":
            return f"all({inner} for {v} in {rng})"
        if kind == "sum":
            return f"sum({inner} for {v} in {rng})"
        return f"sum(1 for {v} in {rng} if {inner})"
    return emit


def _let(em: _Emitter, e: Expr, ctx: _Ctx) -> str:
    """The value computed once and passed to the body (whose code reads it by a name the
    hoister leaves in place: it does not start with ``_``)."""
    var, value, body = e.args
    v = em.fresh("let")
    return f"(lambda {v}: {em.expr(body, ctx.bind(var.args[0], v))})({em.expr(value, ctx)})"


def _enum_table(em: _Emitter, e: Expr, ctx: _Ctx) -> str:
    table, index = e.args
    code = em.expr(index, ctx)
    cast = bool if e.type == BOOL else int
    known = code.isdigit() and int(code) < len(table.values)
    if known and table.absent_why(int(code)) is None:  # a known member: its value
        return repr(cast(table.values[int(code)]))
    rng = interval(index, em.spec.max_players, ctx.ranges)
    if not known and (rng is None or rng[0] < 0 or rng[1] >= len(table.values)):
        code = f"_ck({code}, {len(table.values)}, {('table ' + table.name)!r})"
    if table.absent:   # a member with no value: reading it raises (a rule error)
        said = tuple(None if table.absent_why(i) is None else
                     f"{table.no_value_message(i)}, and a rule read it"
                     for i in range(len(table.values)))
        code = f"_no({code}, {em.table_name(said)})"
    return f"{em.table_name(tuple(cast(v) for v in table.values))}[{code}]"


def _members(em: _Emitter, members: tuple, ctx: _Ctx) -> str:
    return "(" + "".join(f"{em.expr(m, ctx)}, " for m in members) + ")"


def _connected(em: _Emitter, e: Expr, ctx: _Ctx) -> str:
    graph, sources, targets, _ = e.args[:4]
    return (f"_connected({graph.neighbours!r}, {sources!r}, {targets!r}, "
            f"{_members(em, e.args[4:], ctx)})")


def _component_size(em: _Emitter, e: Expr, ctx: _Ctx) -> str:
    graph, _, start = e.args[:3]
    code = em.expr(start, ctx)
    rng = interval(start, em.spec.max_players, ctx.ranges)
    if rng is None or rng[0] < 0 or rng[1] >= graph.size:
        code = f"_ck({code}, {graph.size}, {('nodes of ' + graph.name)!r})"
    return f"_component({graph.neighbours!r}, {code}, {_members(em, e.args[3:], ctx)})"


def _largest_component(em: _Emitter, e: Expr, ctx: _Ctx) -> str:
    graph, _, labels = e.args[:3]
    n = graph.size
    ms = _members(em, e.args[3:3 + n], ctx)
    if not labels:
        return f"_largest({graph.neighbours!r}, {ms})"
    return (f"_largest_labelled({graph.neighbours!r}, {ms}, "
            f"{_members(em, e.args[3 + n:], ctx)}, {labels})")


def _largest_labelled(neighbours: Any, members: Any, labels: Any, n_labels: int) -> int:
    try:
        return largest_group(neighbours, members, labels, n_labels)
    except ValueError as err:  # a label out of range: a rule error, as an index would be
        raise RuleError(f"largest_component: {err}") from None


#: functions the generated code calls besides ``_ck`` (connectivity, see ir/closure.py)
HELPERS: dict[str, Callable[..., Any]] = {"_no": _no, "_connected": is_connected,
                                          "_component": size_of_component,
                                          "_largest": largest_group,
                                          "_largest_labelled": _largest_labelled}


EXPR_TABLE: dict[str, Callable[[_Emitter, Expr, _Ctx], str]] = {
    "const": _const,
    "field": _field,
    "param": _name,
    "var": _name,
    "num_players": lambda em, e, ctx: "s[0]",
    "interp": _interp,
    "add": _binop("+"), "sub": _binop("-"), "mul": _binop("*"), "floordiv": _binop("//"),
    "mod": _binop("%"),
    "min": _call("min"), "max": _call("max"), "abs": _call("abs"),
    "eq": _binop("=="), "ne": _binop("!="), "lt": _binop("<"), "le": _binop("<="),
    "gt": _binop(">"), "ge": _binop(">="),
    "and": _nary("and", "True"), "or": _nary("or", "False"),
    "not": _not,
    "ite": _ite,
    "table": _table,
    "exists": _binder("exists"), "forall": _binder("forall"), "sum": _binder("sum"),
    "count": _binder("count"),
    "let": _let,
    "ordinal": lambda em, e, ctx: em.expr(e.args[0], ctx),  # a member is its position
    "enum_table": _enum_table,
    "connected": _connected,
    "component_size": _component_size,
    "largest_component": _largest_component,
}


def _param_ctx(action: Action, interp: dict[str, int]) -> _Ctx:
    return _Ctx(interp, {p.name: f"p_{p.name}" for p in action.params})


def _negate(code: str) -> str:
    lit, v = literal(code)
    return repr(not v) if lit else f"(not {code})"
