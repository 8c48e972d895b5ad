"""The Python backend: compile a spec to straight-line Python source, once, at load.

States are flat tuples of ints/bools (see :mod:`layout`). Each action becomes an
``apply`` function, a ``step`` (legality and effects in one call) and a legal-move
enumerator whose tests sit at the outermost loop that has every parameter they read; small
quantifiers and enumerators are unrolled and constants folded. Nothing walks the IR tree
while a game is played.

Two modules are generated from one emitter: the fast one, where subexpressions used twice
or inside a loop they do not depend on are computed once (:mod:`hoist`), and the plain one,
compiled only when hoisted code raises (it evaluated something a guard would have skipped):
then the plain code runs, so results and errors are always the plain code's.
"""

from __future__ import annotations

import itertools
import linecache
import operator
from typing import Any, Callable

import attrs

from ..ir.closure import is_connected, largest_group, size_of_component
from ..ir.errors import SpecError
from ..ir.intervals import Interval, interval
from ..ir.nodes import BOOL, Domain, Expr
from ..ir.statements import Assign, ForEach, If, Let
from ..ir.walk import params_used
from ..spec.elements import Action, GameSpec
from .hoist import SHARED, Hoist, literal
from .layout import Layout
# where each precondition is tested, shared with the C backend; an action with at most
# UNROLL_COMBOS parameter combinations gets one line per combination
from .plan import CHANCE, TERMINAL, UNROLL_COMBOS, unrolled as _unrolled  # noqa: F401
from .plan import level_of as _level_of

UNROLL_LIMIT = 8
#: lookup tables longer than this become module constants (``_T0``...) instead of literals
SHORT_TABLE = 12
#: an action whose effects take at most this many lines has them copied into its step
#: function (saving a call); longer ones are called
INLINE_EFFECTS = 16
#: an enumerator is written into ``legal`` (not called) when its blocks nest no deeper
#: than this (Python allows 20 nested blocks in a function)
MAX_INLINE_NESTING = 14


class RuleError(Exception):
    """A rule computed something impossible at run time (an index out of range)."""


def _ck(i: int, size: int, what: str) -> int:
    if 0 <= i < size:
        return i
    raise RuleError(f"index {i} out of range 0..{size - 1} in {what}")


@attrs.frozen(eq=False)
class CompiledGame:
    """The functions generated for one spec under one interpretation."""

    layout: Layout
    source: str
    initial: Callable[[int], tuple]
    current_player: Callable[[tuple], int]
    legal: Callable[[tuple], list]
    chance_weights: Callable[[tuple], list]
    apply: tuple[Callable[..., tuple], ...]
    #: per action: ``step[i](values, key)``, the next state for ``key = (i, *params)``, or
    #: None when that action may not be taken there (legality and effects in one call)
    step: tuple[Callable[[tuple, tuple], tuple | None], ...]
    preconditions: tuple[tuple[Callable[..., bool], ...], ...]
    terminal: Callable[[tuple], bool]
    scores: Callable[[tuple], list]
    tie_keys: tuple[Callable[[tuple, int], int], ...]
    invariants: tuple[Callable[[tuple], bool], ...]
    conserved: tuple[Callable[[tuple], int], ...]
    #: ``plain(name)``: the function of that name compiled without hoisting (compiled when
    #: first asked); the fast code falls back to it when a hoisted subexpression raises
    plain: Callable[[str], Callable]


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
        for fact in _conjuncts(cond):
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


def _conjuncts(cond: Expr) -> list[Expr]:
    if cond.op == "and":
        return [c for a in cond.args for c in _conjuncts(a)]
    return [cond]


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
        for st in stmts:
            if isinstance(st, Assign):
                idx = self.field_index(st.target, ctx)
                val = self.expr(st.value, ctx)
                self.lines.append(f"{indent}s[{idx}] = {val}")
            elif isinstance(st, Let):
                v = self.fresh("l")
                self.lines.append(f"{indent}{v} = {self.expr(st.value, ctx)}")
                bounds = interval(st.value, self.spec.max_players, ctx.ranges)
                ctx = ctx.bind(st.var.args[0], v)
                if bounds is not None:  # what its value can be (as for a field read in place)
                    ctx.ranges[st.var.args[0]] = bounds
            elif isinstance(st, If):
                self.lines.append(f"{indent}if {self.expr(st.cond, ctx)}:")
                self.stmts(st.then, ctx.knowing(st.cond, self.spec.max_players), indent + "    ")
                if st.otherwise:
                    self.lines.append(f"{indent}else:")
                    self.stmts(st.otherwise, ctx, indent + "    ")
            elif isinstance(st, ForEach):
                v = self.fresh("i")
                self.lines.append(f"{indent}for {v} in {self.domain_range(st.domain, ctx)}:")
                self.stmts(st.body, ctx.bind(st.var.args[0], v), indent + "    ")
            else:  # pragma: no cover - statements are a closed set
                raise TypeError(st)


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
    if code.isdigit() and int(code) < len(table.values):  # a known member: its value
        return repr(cast(table.values[int(code)]))
    rng = interval(index, em.spec.max_players, ctx.ranges)
    if rng is None or rng[0] < 0 or rng[1] >= len(table.values):
        code = f"_ck({code}, {len(table.values)}, {('table ' + table.name)!r})"
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
HELPERS: dict[str, Callable[..., Any]] = {"_connected": is_connected,
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


def _start(em: _Emitter, levels: dict[str, int], nblocks: int, fast: bool) -> list[list]:
    blocks: list[list] = [[] for _ in range(nblocks)]
    em.hoist = Hoist(levels, blocks) if fast else None
    return blocks


def _add(em: _Emitter, blocks: list[list], level: int, make: Callable[[], str | None]) -> None:
    """Emit one line at loop ``level`` (``make`` may return None: nothing to emit)."""
    if em.hoist is not None:
        em.hoist.site = level
    line = make()
    if line is not None:
        blocks[level].append(line)


def _render(em: _Emitter, blocks: list[list], level: int, indent: str) -> list[str]:
    if em.hoist is not None:
        return em.hoist.lines(level, indent)
    return [indent + line for line in blocks[level]]


def _emit_enumerators(em: _Emitter, actions: list[tuple[int, Action]], fast: bool) -> list[str]:
    """Emit ``legal_i`` for each of ``actions``; return the lines that call them in turn.

    With ``fast``, a run of consecutive actions whose first guard is the same (the phase
    they belong to) becomes a group: the group's calls run under that guard, after the
    subexpressions of the state alone that its enumerators share are computed once, and
    passed to each enumerator that reads them."""
    runs: list[tuple[str | None, list[tuple[int, Action]]]] = []
    for i, a in actions:
        ctx = _param_ctx(a, em.interp)
        first = next((pre for pre, lvl in zip(a.preconditions, _level_of(a)) if lvl == 0), None)
        key = em.expr(first.cond, ctx) if fast and first is not None else None
        if runs and key is not None and runs[-1][0] == key:
            runs[-1][1].append((i, a))
        else:
            runs.append((key, [(i, a)]))
    calls: list[str] = []
    for key, group in runs:
        shared = Hoist({}, [[]], "_g") if len(group) > 1 else None
        bodies = [(i, _emit_enumerator(em, i, a, fast, shared)) for i, a in group]
        indent = "    "
        if shared is not None:
            calls.append(f"{indent}if {key}:")
            indent += "    "
            calls += shared.lines(0, indent)
        for i, body in bodies:
            lines = body()
            if fast and _nesting(lines) <= MAX_INLINE_NESTING and not _closures(lines):
                calls += _inline(lines, indent)
                continue
            names = sorted({n for n in SHARED.findall("\n".join(lines))
                            if shared is not None and shared.by_name[n].placed() is None},
                           key=lambda n: int(n[2:]))
            args = "".join(", " + n for n in names)
            em.lines.append(f"def legal_{i}(s, out{args}):")
            em.lines += lines
            em.lines.append("")
            calls.append(f"{indent}legal_{i}(s, out{args})")
    return calls


def _is_exit(line: str) -> bool:
    """An enumerator's ``if not G: return`` (a guard before its first loop)."""
    return line.startswith("    if not ") and not line.startswith("     ", 4) \
        and line.endswith(": return")


def _closures(lines: list[str]) -> bool:
    """Whether a comprehension or generator reads the function's variables (inlined into
    ``legal`` it would turn them into slower closure cells there)."""
    return any(" for " in line and not line.lstrip().startswith("for ") for line in lines)


def _nesting(lines: list[str]) -> int:
    return sum(map(_is_exit, lines)) + max((len(x) - len(x.lstrip())) // 4 for x in lines)


def _inline(lines: list[str], indent: str) -> list[str]:
    """An enumerator's body written into the caller: each ``if not G: return`` becomes
    ``if G:`` around the rest (saving a call per enumerator per ``legal``)."""
    out = []
    extra = indent[4:]
    for line in lines:
        if _is_exit(line):
            out.append(f"{extra}    if {line[len('    if not '):-len(': return')]}:")
            extra += "    "
        else:
            out.append(extra + line)
    if out and out[-1].strip().startswith("if ") and out[-1].rstrip().endswith(":"):
        out.append(extra + "    pass")   # every test failed before any line: a block still
    return out


def _emit_enumerator(em: _Emitter, i: int, a: Action, fast: bool,
                     shared: Hoist | None) -> Callable[[], list[str]]:
    """The body of ``legal_i(s, out)``, which appends every legal instance of action ``i``.
    Each guard sits in the outermost loop that binds every parameter it reads; with
    ``fast``, subexpressions that a loop does not change are computed before it (see
    :class:`Hoist`). Returns a function that writes the body out once every enumerator
    sharing ``shared`` has been emitted."""
    ctx = _param_ctx(a, em.interp)
    level_of = _level_of(a)
    unrolled = _unrolled(a)
    nblocks = 1 if unrolled else len(a.params) + 1
    blocks = _start(em, {f"p_{p.name}": k for k, p in enumerate(a.params, start=1)},
                    nblocks, fast)
    if em.hoist is not None:
        em.hoist.shared, em.hoist.member = shared, i
        em.hoist.prefix = f"_h{i}_"   # unique in ``legal``, where enumerators are inlined
    mp = em.spec.max_players
    order = [p.name for p in a.params]

    def level(cond: Expr, without: str | None = None) -> int:
        return max((order.index(n) + 1 for n in params_used(cond) if n != without), default=0)

    # The tests, in order. In fast loops each precondition's conjuncts are tests of their
    # own, so a conjunct sits in the outermost loop that binds what it reads.
    split = fast and not unrolled
    tests = [(c, level(c)) for pre in a.preconditions
             for c in (_conjuncts(pre.cond) if split else [pre.cond])]
    after = [ctx]   # per loop level: what the tests evaluated there (and outside) tell
    for c, lvl in tests:
        if lvl == 0:
            _add(em, blocks, 0, lambda: f"if not {em.expr(c, after[0])}: return")
            after[0] = after[0].knowing(c, mp)

    def item(c: _Ctx, key: str) -> str:
        if a.chance:
            return f"(({key}), {em.expr(a.weight, c) if a.weight is not None else '1'})"
        return f"({key})"

    headers = []
    if unrolled:
        for combo in itertools.product(*(range(p.domain.lo, p.domain.max_hi) for p in a.params)):
            c = _Ctx(em.interp, {p.name: str(v) for p, v in zip(a.params, combo)})
            key = f"{', '.join(map(str, (i, *combo)))},"

            def line(c: _Ctx = c, key: str = key) -> str | None:
                cond = _chain([em.expr(pre.cond, c) for pre, lvl in zip(a.preconditions,
                                                                        level_of) if lvl],
                              "and", "True")
                if cond == "False":
                    return None
                append = f"out.append({item(c, key)})"
                return append if cond == "True" else f"if {cond}: {append}"
            _add(em, blocks, 0, line)
    else:
        hoist, em.hoist = em.hoist, None   # loop bounds are constants or the player count
        ranges = [em.domain_range(p.domain, ctx) for p in a.params]
        em.hoist = hoist
        headers = [f"for p_{p.name} in {r}:" for p, r in zip(a.params, ranges)]
        for k in range(1, len(a.params) + 1):
            name = order[k - 1]
            here = [c for c, lvl in tests if lvl == k]
            inside = after[k - 1]
            if hoist is not None and k > 1:
                # A test of the k-th parameter that reads no parameter of the loop just
                # outside it filters the same values every time round: filter them once,
                # in the outermost loop that binds what it reads.
                fixed = [c for c in here if level(c, name) < k - 1]
                values, done = ranges[k - 1], []
                for at in sorted({level(c, name) for c in fixed}):   # each as far out as it goes
                    hoist.site, hoist.barrier = at, f"p_{name}"
                    known = after[at].deeper()
                    for c in done:
                        known = known.knowing(c, mp)
                    codes = []
                    for c in (c for c in fixed if level(c, name) == at):
                        codes.append(em.expr(c, known))
                        known = known.knowing(c, mp)
                        done.append(c)
                    hoist.barrier = None
                    blocks[at].append(f"_f{i}_{k}_{at} = [p_{name} for p_{name} in {values} "
                                      f"if {_chain(codes, 'and', 'True')}]")
                    values = f"_f{i}_{k}_{at}"
                headers[k - 1] = f"for p_{name} in {values}:"
                here = [c for c in here if not any(c is f for f in fixed)]
                for c in fixed:
                    inside = inside.knowing(c, mp)
            for c in here:
                _add(em, blocks, k, lambda: f"if not {em.expr(c, inside)}: continue")
                inside = inside.knowing(c, mp)
            after.append(inside)
        key = ", ".join([str(i)] + [f"p_{p.name}" for p in a.params]) + ","
        _add(em, blocks, len(a.params), lambda: f"out.append({item(after[-1], key)})")
    hoist, em.hoist = em.hoist, None

    def body() -> list[str]:
        out = []
        indent = "    "
        for k in range(nblocks):
            if k:
                out.append(indent + headers[k - 1])
                indent += "    "
            out += (hoist.lines(k, indent) if hoist is not None
                    else [indent + line for line in blocks[k]])
        return out
    return body


def _emit_step(em: _Emitter, i: int, a: Action, term: str, chance: str,
               effects: list[str]) -> None:
    """``step_i(t, key)``: the state after action ``key = (i, *params)``, or None when it
    may not be taken (exactly when ``Model.why_illegal`` would give reasons): legality in one
    check. It takes the key whole: unpacking it is cheaper than a call with ``*key[1:]``."""
    ctx = _param_ctx(a, em.interp)
    base = _Ctx(em.interp)
    cp = em.spec.current_player.expr
    rng = interval(cp, em.spec.max_players)
    cp_may_be = (lambda v: rng is None or rng[0] <= v <= rng[1])
    blocks = _start(em, {f"p_{p.name}": 0 for p in a.params}, 1, True)

    def check() -> str:
        conds = [_negate(term)]
        if a.chance:
            turn = [chance]
            if cp_may_be(CHANCE):
                turn.append(f"({em.expr(cp, base)} == {CHANCE})")
            conds.append(_chain(turn, "or", "False"))
        else:
            conds.append(_negate(chance))
            for v in (CHANCE, TERMINAL):
                if cp_may_be(v):
                    conds.append(f"({em.expr(cp, base)} != {v})")
        for p in a.params:
            conds.append(f"({p.domain.lo} <= p_{p.name} < {em.expr(p.domain.hi, ctx)})")
        conds += [em.expr(pre.cond, ctx) for pre in a.preconditions]
        if a.chance and a.weight is not None:
            conds.append(f"({em.expr(a.weight, ctx)} > 0)")
        return f"if not {_chain(conds, 'and', 'True')}: return None"
    _add(em, blocks, 0, check)
    body = _render(em, blocks, 0, "    ")
    args = "".join(f", p_{p.name}" for p in a.params)
    em.lines.append(f"def step_{i}(s, key):")
    # a key of another length raises: it is not this action
    em.lines.append(f"    _{args or ','} = key")
    if len(body) == 1:  # nothing hoisted
        em.lines += body
    else:  # a hoisted subexpression may be one a guard skips (an index off the board)
        plain = _start(em, {}, 1, False)
        _add(em, plain, 0, check)
        em.lines.append("    try:")
        em.lines += ["    " + line for line in body]
        em.lines.append("    except Exception:  # the plain check decides, and raises as it does")
        em.lines += _render(em, plain, 0, "        ")
    em.hoist = None
    if len(effects) <= INLINE_EFFECTS:   # ``effects`` is apply_i's body, from ``s = list(t)``
        em.lines += ["    s = list(s)"] + effects[1:]
    else:
        em.lines.append(f"    return apply_{i}(s{args})")
    em.lines.append("")


def _generate(spec: GameSpec, interpretation: dict[str, str], layout: Layout,
              fast: bool, only: frozenset[str] | None = None) -> str:
    """The module's source. ``fast`` hoists subexpressions in the legal-move enumerators
    (the module then falls back to the plain one, ``_plain``, when they raise) and adds the
    fused ``step_i`` functions. ``only``: just the functions of these names (see
    :func:`compile_python`)."""
    def want(name: str) -> bool:
        return only is None or name in only

    interp = {p.name: p.enum.index_of(interpretation[p.name]) for p in spec.interpretations}
    em = _Emitter(spec, layout, interp)
    L = em.lines
    base = _Ctx(interp)

    if want("initial"):
        init = layout.initial_vector()
        L.append("def initial(n):")
        L.append(f"    s = {init!r}")
        L.append("    s[0] = n")
        em.stmts(spec.setup, base, "    ")
        L.append("    return tuple(s)")
        L.append("")

    term = em.expr(spec.terminal.expr, base)
    chance = em.expr(spec.chance_node.expr, base) if spec.chance_node else "False"
    if want("terminal"):
        L.append("def terminal(s):")
        L.append(f"    if {term}: return True")   # a bool, as bool() gives, without a call
        L.append("    return False")
        L.append("")
    if want("current_player"):
        L.append("def current_player(s):")
        L.append(f"    if {term}: return {TERMINAL}")
        if chance != "False":
            L.append(f"    if {chance}: return {CHANCE}")
        L.append(f"    return {em.expr(spec.current_player.expr, base)}")
        L.append("")

    player_actions = [(i, a) for i, a in enumerate(spec.actions) if not a.chance]
    chance_actions = [(i, a) for i, a in enumerate(spec.actions) if a.chance]
    player_calls = _emit_enumerators(em, player_actions, fast) if want("legal") else []
    chance_calls = (_emit_enumerators(em, chance_actions, fast) if want("chance_weights")
                    else [])

    def calls(actions: list, fallback: str) -> None:
        lines = player_calls if actions is player_actions else chance_calls
        if not fast:
            L.extend(lines)
            return
        L.append("    try:")
        L.extend("    " + line for line in lines)
        L.append("    except Exception:  # a hoisted subexpression raised: run the plain code")
        L.append(f"        return _plain({fallback!r})(s)")

    if want("legal"):
        L.append("def legal(s):")
        L.append(f"    if {term}: return []")
        if chance_actions:
            L.append(f"    if {chance}: return [a for a, w in chance_weights(s) if w > 0]")
        L.append("    out = []")
        calls(player_actions, "legal")
        L.append("    return out")
        L.append("")
    elif only is not None and want("chance_weights") and chance_actions:
        # like's legal would call like's chance_weights: this one lists this module's
        # outcomes at a chance node and runs like's player enumerators elsewhere
        L.append("def legal(s):")
        L.append(f"    if {term}: return []")
        L.append(f"    if {chance}: return [a for a, w in chance_weights(s) if w > 0]")
        L.append("    return _like_legal(s)")
        L.append("")
    if want("chance_weights"):
        L.append("def chance_weights(s):")
        L.append("    out = []")
        if chance_actions:
            L.append(f"    if {term} or not ({chance}): return out")
            calls(chance_actions, "chance_weights")
        L.append("    return out")
        L.append("")

    for i, a in enumerate(spec.actions):
        if not (want(f"apply_{i}") or want(f"step_{i}")):
            continue
        ctx = _param_ctx(a, interp)
        args = "".join(f", p_{p.name}" for p in a.params)
        start = len(L)
        L.append(f"def apply_{i}(t{args}):")
        L.append("    s = list(t)")
        em.stmts(a.effects, ctx, "    ")
        L.append("    return tuple(s)")
        L.append("")
        if fast:
            _emit_step(em, i, a, term, chance, L[start + 1:-1])
        else:  # the fast module compiles each precondition when first asked (_Precondition)
            for j, pre in enumerate(a.preconditions):
                L.append(f"def pre_{i}_{j}(s{args}):")
                L.append(f"    return {em.expr(pre.cond, ctx)}")
                L.append("")

    pvar = spec.scoring.var.args[0]
    if want("scores"):
        _emit_value(em, "scores", "", {}, fast, lambda: "[{} for p in range(s[0])]".format(
            em.expr(spec.scoring.score, base.bind(pvar, "p").deeper())))
    for k, tb in enumerate(spec.tie_breaks):
        if want(f"tie_{k}"):
            _emit_value(em, f"tie_{k}", ", p", {"p": 0}, fast,
                        lambda: em.expr(tb.key, base.bind(tb.var.args[0], "p")))
    for k, inv in enumerate(spec.invariants):
        if want(f"inv_{k}"):
            _emit_value(em, f"inv_{k}", "", {}, fast, lambda: em.expr(inv.cond, base))
    for k, c in enumerate(spec.conservation):
        if want(f"cons_{k}"):
            _emit_value(em, f"cons_{k}", "", {}, fast, lambda: em.expr(c.total, base))
    tables = [f"{name} = {values!r}" for values, name in em.tables.items()]
    return "\n".join(tables + [""] + L) + "\n"


def _emit_value(em: _Emitter, name: str, args: str, levels: dict[str, int], fast: bool,
                make: Callable[[], str]) -> None:
    """``def name(s, ...): return <make()>``; with ``fast``, subexpressions used more than
    once are named once, and the plain function runs instead if one of them raises."""
    blocks = _start(em, levels, 1, fast)
    _add(em, blocks, 0, lambda: f"return {make()}")
    body = _render(em, blocks, 0, "    ")
    em.hoist = None
    em.lines.append(f"def {name}(s{args}):")
    if len(body) == 1:  # nothing hoisted: the plain code
        em.lines += body
    else:
        em.lines.append("    try:")
        em.lines += ["    " + line for line in body]
        em.lines.append("    except Exception:  # a hoisted subexpression raised")
        em.lines.append(f"        return _plain({name!r})(s{args})")
    em.lines.append("")


def _load(spec: GameSpec, interpretation: dict[str, str], source: str,
          plain: Callable[[str], Callable] | None,
          given: dict[str, Callable] | None = None) -> dict[str, Any]:
    tag = ",".join(f"{k}={v}" for k, v in sorted(interpretation.items()))
    filename = f"<rulespec:{spec.name}:{tag}{'' if plain else ':plain'}>"
    if given is not None:   # a partial module (one name for all: linecache keeps one)
        filename = f"<rulespec:{spec.name}:{tag}:partial>"
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    ns: dict[str, Any] = {"_ck": _ck, "_plain": plain, **HELPERS, **(given or {})}
    exec(compile(source, filename, "exec"), ns)  # noqa: S102 - our own generated code
    return ns


class _Precondition:
    """``pre_i_j(s, *params)``, compiled from plain code the first time it is called: only
    ``Model.why_illegal`` (explaining a refusal) and the tests call them."""

    def __init__(self, spec: GameSpec, layout: Layout, interp: dict[str, int], i: int,
                 j: int) -> None:
        self._spec, self._layout, self._interp, self._i, self._j = spec, layout, interp, i, j
        self._fn: Callable[..., bool] | None = None

    def __call__(self, s: tuple, *params: int) -> bool:
        if self._fn is None:
            a = self._spec.actions[self._i]
            em = _Emitter(self._spec, self._layout, self._interp)
            code = em.expr(a.preconditions[self._j].cond, _param_ctx(a, self._interp))
            args = "".join(f", p_{p.name}" for p in a.params)
            lines = [f"{name} = {values!r}" for values, name in em.tables.items()]
            lines += [f"def pre(s{args}):", f"    return {code}"]
            ns: dict[str, Any] = {"_ck": _ck, **HELPERS}
            name = f"<rulespec:{self._spec.name}:pre_{self._i}_{self._j}>"
            source = "\n".join(lines) + "\n"
            linecache.cache[name] = (len(source), None, source.splitlines(True), name)
            exec(compile(source, name, "exec"), ns)  # noqa: S102 - our own generated code
            self._fn = ns["pre"]
        return self._fn(s, *params)


def compile_python(spec: GameSpec, interpretation: dict[str, str], *,
                   like: CompiledGame | None = None,
                   only: frozenset[str] | None = None) -> CompiledGame:
    """Generate, compile and return the functions of ``spec`` under ``interpretation``.

    With ``like`` and ``only`` (mutation testing: a spec that differs from another in a
    few rule parts), only the functions named in ``only`` are generated and compiled;
    every other is ``like``'s, which must be compiled from a spec with the same layout,
    under the same interpretation, and whose other functions' code is the same. The caller
    names every function whose code changes, and every one that writes it inline:
    ``legal`` (with the enumerators of the player actions), ``chance_weights`` (those of
    the chance actions; without ``legal``, a ``legal`` that calls it at a chance node and
    ``like``'s elsewhere is made), ``apply_i`` and ``step_i`` (made together), ``initial``,
    ``terminal``, ``current_player``, ``scores``, ``tie_k``, ``inv_k``, ``cons_k``. Every
    action's ``step_i`` writes the flow rules inline. ``source`` is then the part
    generated."""
    if (like is None) != (only is None):
        raise ValueError("compile_python: give both like and only, or neither")
    layout = Layout.of(spec)
    plain_ns: dict[str, Any] = {}

    def plain(name: str) -> Callable:
        """A function of the plain module (nothing hoisted), compiled when first needed."""
        if not plain_ns:
            plain_ns.update(_load(spec, interpretation,
                                  _generate(spec, interpretation, layout, False), None))
        return plain_ns[name]

    interp = {p.name: p.enum.index_of(interpretation[p.name]) for p in spec.interpretations}
    source = _generate(spec, interpretation, layout, True, only)
    ns = _load(spec, interpretation, source, plain,
               None if like is None else {**_functions(like), "_like_legal": like.legal})
    n = len(spec.actions)
    return CompiledGame(
        layout=layout, source=source, initial=ns["initial"],
        current_player=ns["current_player"], legal=ns["legal"],
        chance_weights=ns["chance_weights"],
        apply=tuple(ns[f"apply_{i}"] for i in range(n)),
        step=tuple(ns[f"step_{i}"] for i in range(n)),
        preconditions=tuple(tuple(_Precondition(spec, layout, interp, i, j)
                                  for j in range(len(a.preconditions)))
                            for i, a in enumerate(spec.actions)),
        terminal=ns["terminal"], scores=ns["scores"],
        tie_keys=tuple(ns[f"tie_{k}"] for k in range(len(spec.tie_breaks))),
        invariants=tuple(ns[f"inv_{k}"] for k in range(len(spec.invariants))),
        conserved=tuple(ns[f"cons_{k}"] for k in range(len(spec.conservation))),
        plain=plain,
    )


def _functions(c: CompiledGame) -> dict[str, Callable]:
    """A compiled game's functions by the names its module gives them."""
    out = {"initial": c.initial, "current_player": c.current_player, "legal": c.legal,
           "chance_weights": c.chance_weights, "terminal": c.terminal, "scores": c.scores}
    for name, fns in (("apply", c.apply), ("step", c.step), ("tie", c.tie_keys),
                      ("inv", c.invariants), ("cons", c.conserved)):
        out.update((f"{name}_{k}", fn) for k, fn in enumerate(fns))
    return out


def compile_values(spec: GameSpec, interpretation: dict[str, str],
                   exprs: list[Expr]) -> tuple[Callable[[tuple], Any], ...]:
    """One function per expression over a state's cells (what a view reads to draw it).

    The expressions may read fields and the interpretation, not action parameters.
    """
    layout = Layout.of(spec)
    interp = {p.name: p.enum.index_of(interpretation[p.name]) for p in spec.interpretations}
    em = _Emitter(spec, layout, interp)
    base = _Ctx(interp)
    for k, e in enumerate(exprs):
        em.lines.append(f"def v_{k}(s):")
        em.lines.append(f"    return {em.expr(e, base)}")
    tables = [f"{name} = {values!r}" for values, name in em.tables.items()]
    source = "\n".join(tables + em.lines) + "\n"
    ns: dict[str, Any] = {"_ck": _ck, **HELPERS}
    exec(compile(source, f"<rulespec:{spec.name}:values>", "exec"), ns)  # noqa: S102
    return tuple(ns[f"v_{k}"] for k in range(len(exprs)))
