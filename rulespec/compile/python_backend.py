"""The Python backend: compile a spec to straight-line Python source, once, at load.

States are flat tuples of ints/bools (see :mod:`layout`). Each action becomes an
``apply`` function and a legal-move enumerator whose guards sit at the outermost loop
that has every parameter they read; small quantifiers are unrolled. Nothing walks the
IR tree while a game is played.
"""

from __future__ import annotations

import itertools
import linecache
from typing import Any, Callable

import attrs

from ..ir.closure import is_connected, largest_group, size_of_component
from ..ir.errors import SpecError
from ..ir.intervals import interval
from ..ir.nodes import BOOL, Domain, Expr
from ..ir.statements import Assign, ForEach, If, Let
from ..ir.walk import params_used
from ..spec.elements import Action, GameSpec
from .layout import Layout

CHANCE = -1
TERMINAL = -4
UNROLL_LIMIT = 8
#: actions with at most this many parameter combinations get one line per combination
UNROLL_COMBOS = 64
#: a constant table longer than this is written once, as a module constant
SHORT_TABLE = 12


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
    preconditions: tuple[tuple[Callable[..., bool], ...], ...]
    terminal: Callable[[tuple], bool]
    scores: Callable[[tuple], list]
    tie_keys: tuple[Callable[[tuple, int], int], ...]
    invariants: tuple[Callable[[tuple], bool], ...]
    conserved: tuple[Callable[[tuple], int], ...]


class _Ctx:
    """Names in scope while emitting code: parameters, bound variables, interpretation."""

    def __init__(self, interp: dict[str, int], subst: dict[str, str] | None = None) -> None:
        self.interp = interp
        self.subst: dict[str, str] = dict(subst or {})

    def bind(self, name: str, code: str) -> "_Ctx":
        c = _Ctx(self.interp, self.subst)
        c.subst[name] = code
        return c


class _Emitter:
    def __init__(self, spec: GameSpec, layout: Layout, interp: dict[str, int]) -> None:
        self.spec = spec
        self.layout = layout
        self.interp = interp
        self.lines: list[str] = []
        self.tables: dict[tuple, str] = {}
        self._n = 0

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
        return EXPR_TABLE[e.op](self, e, ctx)

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
            rng = interval(ix, self.spec.max_players)
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
                ctx = ctx.bind(st.var.args[0], v)
            elif isinstance(st, If):
                self.lines.append(f"{indent}if {self.expr(st.cond, ctx)}:")
                self.stmts(st.then, ctx, indent + "    ")
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


def _binop(sym: str) -> Callable[[_Emitter, Expr, _Ctx], str]:
    return lambda em, e, ctx: f"({em.expr(e.args[0], ctx)} {sym} {em.expr(e.args[1], ctx)})"


def _call(fn: str) -> Callable[[_Emitter, Expr, _Ctx], str]:
    return lambda em, e, ctx: f"{fn}({', '.join(em.expr(a, ctx) for a in e.args)})"


def _nary(sym: str, empty: str) -> Callable[[_Emitter, Expr, _Ctx], str]:
    def emit(em: _Emitter, e: Expr, ctx: _Ctx) -> str:
        if not e.args:
            return empty
        return "(" + f" {sym} ".join(em.expr(a, ctx) for a in e.args) + ")"
    return emit


def _table(em: _Emitter, e: Expr, ctx: _Ctx) -> str:
    values, index = e.args
    code = em.expr(index, ctx)
    rng = interval(index, em.spec.max_players)
    if rng is None or rng[0] < 0 or rng[1] >= len(values):
        code = f"_ck({code}, {len(values)}, 'lookup table')"
    shown = tuple(bool(v) for v in values) if e.type == BOOL else tuple(int(v) for v in values)
    return f"{em.table_name(shown)}[{code}]"


def _binder(kind: str) -> Callable[[_Emitter, Expr, _Ctx], str]:
    def emit(em: _Emitter, e: Expr, ctx: _Ctx) -> str:
        var, d, body = e.args
        name = var.args[0]
        if d.is_static() and d.max_hi - d.lo <= UNROLL_LIMIT:
            parts = [em.expr(body, ctx.bind(name, str(v))) for v in range(d.lo, d.max_hi)]
            if kind == "exists":
                return "(" + " or ".join(parts) + ")"
            if kind == "forall":
                return "(" + " and ".join(parts) + ")"
            if kind == "sum":
                return "(" + " + ".join(parts) + ")"
            return "(" + " + ".join(f"(1 if {p} else 0)" for p in parts) + ")"
        v = em.fresh("q")
        inner = em.expr(body, ctx.bind(name, v))
        rng = em.domain_range(d, ctx)
        if kind == "exists":
            return f"any({inner} for {v} in {rng})"
        if kind == "forall":
            return f"all({inner} for {v} in {rng})"
        if kind == "sum":
            return f"sum({inner} for {v} in {rng})"
        return f"sum(1 for {v} in {rng} if {inner})"
    return emit


def _enum_table(em: _Emitter, e: Expr, ctx: _Ctx) -> str:
    table, index = e.args
    code = em.expr(index, ctx)
    cast = bool if e.type == BOOL else int
    if code.isdigit() and int(code) < len(table.values):  # a known member: its value
        return repr(cast(table.values[int(code)]))
    rng = interval(index, em.spec.max_players)
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
    rng = interval(start, em.spec.max_players)
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
    "not": lambda em, e, ctx: f"(not {em.expr(e.args[0], ctx)})",
    "ite": lambda em, e, ctx: (f"({em.expr(e.args[1], ctx)} if {em.expr(e.args[0], ctx)} "
                               f"else {em.expr(e.args[2], ctx)})"),
    "table": lambda em, e, ctx: _table(em, e, ctx),
    "exists": _binder("exists"), "forall": _binder("forall"), "sum": _binder("sum"),
    "count": _binder("count"),
    "ordinal": lambda em, e, ctx: em.expr(e.args[0], ctx),  # a member is its position
    "enum_table": _enum_table,
    "connected": _connected,
    "component_size": _component_size,
    "largest_component": _largest_component,
}


def _param_ctx(action: Action, interp: dict[str, int]) -> _Ctx:
    return _Ctx(interp, {p.name: f"p_{p.name}" for p in action.params})


def _emit_enumerator(em: _Emitter, i: int, a: Action) -> None:
    """``legal_i(s, out)``: append every legal instance of action ``i``, guards hoisted."""
    ctx = _param_ctx(a, em.interp)
    order = [p.name for p in a.params]
    level_of = []
    for pre in a.preconditions:
        used = params_used(pre.cond)
        level_of.append(max((order.index(n) + 1 for n in used), default=0))
    weight = a.weight
    em.lines.append(f"def legal_{i}(s, out):")
    for pre, lvl in zip(a.preconditions, level_of):
        if lvl == 0:
            em.lines.append(f"    if not {em.expr(pre.cond, ctx)}: return")
    combos = 1
    for p in a.params:
        combos *= p.domain.max_hi - p.domain.lo if p.domain.is_static() else UNROLL_COMBOS + 1
    if a.params and combos <= UNROLL_COMBOS:
        _emit_unrolled(em, i, a, level_of)
        return
    indent = "    "
    for k, p in enumerate(a.params, start=1):
        em.lines.append(f"{indent}for p_{p.name} in {em.domain_range(p.domain, ctx)}:")
        indent += "    "
        for pre, lvl in zip(a.preconditions, level_of):
            if lvl == k:
                em.lines.append(f"{indent}if not {em.expr(pre.cond, ctx)}: continue")
    tup = ", ".join([str(i)] + [f"p_{p.name}" for p in a.params])
    item = f"({tup},)"
    if a.chance:
        w = em.expr(weight, ctx) if weight is not None else "1"
        em.lines.append(f"{indent}out.append(({item}, {w}))")
    else:
        em.lines.append(f"{indent}out.append({item})")
    em.lines.append("")


def _emit_unrolled(em: _Emitter, i: int, a: Action, level_of: list[int]) -> None:
    """One line per parameter combination: constant indices, a constant key."""
    for combo in itertools.product(*(range(p.domain.lo, p.domain.max_hi) for p in a.params)):
        ctx = _Ctx(em.interp, {p.name: str(v) for p, v in zip(a.params, combo)})
        conds = [em.expr(pre.cond, ctx) for pre, lvl in zip(a.preconditions, level_of) if lvl]
        key = f"({', '.join(map(str, (i, *combo)))},)"
        if a.chance:
            w = em.expr(a.weight, ctx) if a.weight is not None else "1"
            item = f"({key}, {w})"
        else:
            item = key
        if conds:
            em.lines.append(f"    if {' and '.join(conds)}: out.append({item})")
        else:
            em.lines.append(f"    out.append({item})")
    em.lines.append("")


def compile_python(spec: GameSpec, interpretation: dict[str, str]) -> CompiledGame:
    """Generate, compile and return the functions of ``spec`` under ``interpretation``."""
    layout = Layout.of(spec)
    interp = {p.name: p.enum.index_of(interpretation[p.name]) for p in spec.interpretations}
    em = _Emitter(spec, layout, interp)
    L = em.lines
    base = _Ctx(interp)

    init = layout.initial_vector()
    L.append("def initial(n):")
    L.append(f"    s = {init!r}")
    L.append("    s[0] = n")
    em.stmts(spec.setup, base, "    ")
    L.append("    return tuple(s)")
    L.append("")

    term = em.expr(spec.terminal.expr, base)
    L.append("def terminal(s):")
    L.append(f"    return {term}")
    L.append("")
    chance = em.expr(spec.chance_node.expr, base) if spec.chance_node else "False"
    L.append("def current_player(s):")
    L.append(f"    if {term}: return {TERMINAL}")
    L.append(f"    if {chance}: return {CHANCE}")
    L.append(f"    return {em.expr(spec.current_player.expr, base)}")
    L.append("")

    player_actions = [(i, a) for i, a in enumerate(spec.actions) if not a.chance]
    chance_actions = [(i, a) for i, a in enumerate(spec.actions) if a.chance]
    for i, a in enumerate(spec.actions):
        _emit_enumerator(em, i, a)
    L.append("def legal(s):")
    L.append(f"    if {term}: return []")
    L.append("    out = []")
    if chance_actions:
        L.append(f"    if {chance}: return [a for a, w in chance_weights(s) if w > 0]")
    for i, _ in player_actions:
        L.append(f"    legal_{i}(s, out)")
    L.append("    return out")
    L.append("")
    L.append("def chance_weights(s):")
    L.append("    out = []")
    if chance_actions:
        L.append(f"    if {term} or not ({chance}): return out")
        for i, _ in chance_actions:
            L.append(f"    legal_{i}(s, out)")
    L.append("    return out")
    L.append("")

    for i, a in enumerate(spec.actions):
        ctx = _param_ctx(a, interp)
        args = "".join(f", p_{p.name}" for p in a.params)
        L.append(f"def apply_{i}(t{args}):")
        L.append("    s = list(t)")
        em.stmts(a.effects, ctx, "    ")
        L.append("    return tuple(s)")
        L.append("")
        for j, pre in enumerate(a.preconditions):
            L.append(f"def pre_{i}_{j}(s{args}):")
            L.append(f"    return {em.expr(pre.cond, ctx)}")
            L.append("")

    pvar = spec.scoring.var.args[0]
    score = em.expr(spec.scoring.score, base.bind(pvar, "p"))
    L.append("def scores(s):")
    L.append(f"    return [{score} for p in range(s[0])]")
    L.append("")
    for k, tb in enumerate(spec.tie_breaks):
        key = em.expr(tb.key, base.bind(tb.var.args[0], "p"))
        L.append(f"def tie_{k}(s, p):")
        L.append(f"    return {key}")
        L.append("")
    for k, inv in enumerate(spec.invariants):
        L.append(f"def inv_{k}(s):")
        L.append(f"    return {em.expr(inv.cond, base)}")
        L.append("")
    for k, c in enumerate(spec.conservation):
        L.append(f"def cons_{k}(s):")
        L.append(f"    return {em.expr(c.total, base)}")
        L.append("")

    source = "\n".join(em.table_lines() + L) + "\n"
    filename = f"<rulespec:{spec.name}:{','.join(f'{k}={v}' for k, v in sorted(interpretation.items()))}>"
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    ns: dict[str, Any] = {"_ck": _ck, **HELPERS}
    exec(compile(source, filename, "exec"), ns)  # noqa: S102 - our own generated code
    return CompiledGame(
        layout=layout, source=source, initial=ns["initial"],
        current_player=ns["current_player"], legal=ns["legal"],
        chance_weights=ns["chance_weights"],
        apply=tuple(ns[f"apply_{i}"] for i in range(len(spec.actions))),
        preconditions=tuple(tuple(ns[f"pre_{i}_{j}"] for j in range(len(a.preconditions)))
                            for i, a in enumerate(spec.actions)),
        terminal=ns["terminal"], scores=ns["scores"],
        tie_keys=tuple(ns[f"tie_{k}"] for k in range(len(spec.tie_breaks))),
        invariants=tuple(ns[f"inv_{k}"] for k in range(len(spec.invariants))),
        conserved=tuple(ns[f"cons_{k}"] for k in range(len(spec.conservation))),
    )


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
    source = "\n".join(em.lines) + "\n"
    ns: dict[str, Any] = {"_ck": _ck}
    exec(compile(source, f"<rulespec:{spec.name}:values>", "exec"), ns)  # noqa: S102
    return tuple(ns[f"v_{k}"] for k in range(len(exprs)))
