"""The IR's expressions and statements as C, one table entry per operation (``C_TABLE``).

The C code means what the Python backend's *plain* code means (without hoisting): the same
operands are evaluated in the same cases (``&&``, ``||`` and ``?:`` short-circuit where
Python's ``and``, ``or`` and ``if else`` do, quantifiers stop where ``any`` and ``all``
stop), so that it fails exactly where the plain code raises. Values are 64-bit ints
(bools 0 or 1); arithmetic that would overflow them, a division by zero and an index out
of range jump to the caller's recovery point (``rulespec_native.h``), and the Python backend
then gives the answer. Interpretation points are read from the reading's array ``C->I``,
so one compiled module serves every reading of a spec.
"""

from __future__ import annotations

from typing import Any, Callable

from ...ir.closure import Graph
from ...ir.errors import SpecError
from ...ir.intervals import interval
from ...ir.nodes import BOOL, Domain, Expr
from ...ir.statements import Assign, ForEach, If, Let
from ...ir.walk import children, walk
from ...spec.elements import GameSpec
from ..layout import Layout

Env = dict[str, str]
#: a node used more than once that has at least this many nodes becomes a C function
SHARED_SIZE = 12


class CWriter:
    """Writes C for one spec: expressions, statements, and the constant data they use
    (lookup tables, graphs), emitted once at the top of the module."""

    def __init__(self, spec: GameSpec, layout: Layout) -> None:
        self.spec = spec
        self.layout = layout
        self.interp = {p.name: k for k, p in enumerate(spec.interpretations)}
        self.data: list[str] = []
        self._tables: dict[tuple, str] = {}
        self._graphs: dict[int, str] = {}
        self._nodes: dict[tuple, str] = {}
        self._n = 0
        #: nodes written as functions of their own (see :meth:`share`), and those functions
        self.shared: set[int] = set()
        self._functions: dict[int, tuple[str, list[str]]] = {}
        self.functions: list[str] = []
        #: each action effect's ``If``, by identity: its counter number (coverage)
        self.branches: dict[int, int] = {}
        #: the ``If`` statements in counter order
        self.branch_statements: list[If] = []
        #: whether the statements being written are an action's effects (then counted)
        self.counting = False

    def fresh(self, base: str) -> str:
        self._n += 1
        return f"{base}{self._n}"

    # --- constant data ------------------------------------------------------------------
    def table(self, values: tuple) -> str:
        name = self._tables.get(values)
        if name is None:
            name = self._tables[values] = f"T{len(self._tables)}"
            body = ", ".join(str(int(v)) for v in values)
            self.data.append(f"static const V {name}[{len(values)}] = {{{body}}};")
        return name

    def graph(self, g: Graph) -> str:
        name = self._graphs.get(id(g))
        if name is None:
            name = self._graphs[id(g)] = f"G{len(self._graphs)}"
            start, nbr = [0], []
            for ns in g.neighbours:
                nbr.extend(ns)
                start.append(len(nbr))
            self.data.append(f"static const int32_t {name}_start[] = {{{_ints(start)}}};")
            self.data.append(f"static const int32_t {name}_nbr[] = {{{_ints(nbr) or '0'}}};")
            self.data.append(f"static const rs_graph {name} = {{{g.size}, {name}_start, "
                             f"{name}_nbr}};")
        return name

    def nodes(self, values: tuple[int, ...]) -> str:
        name = self._nodes.get(values)
        if name is None:
            name = self._nodes[values] = f"N{len(self._nodes)}"
            self.data.append(f"static const int32_t {name}[] = {{{_ints(values)}}};")
        return name

    # --- expressions --------------------------------------------------------------------
    def expr(self, e: Expr, env: Env) -> str:
        if id(e) in self.shared:
            return self._call(e, env)
        return C_TABLE[e.op](self, e, env)

    def share(self, exprs: list[Expr], least: int = SHARED_SIZE) -> None:
        """Make each node of at least ``least`` nodes that ``exprs`` use more than once (the
        same node object: a rule part the spec names and reuses) a function of its own,
        called where it is used: the module stays small, the meaning is the same (a call
        evaluates what the text in place would, when it would)."""
        uses: dict[int, int] = {}
        size: dict[int, int] = {}
        for root in exprs:
            for n in walk(root):
                uses[id(n)] = uses.get(id(n), 0) + 1
        for root in exprs:
            _sizes(root, size)
        self.shared = {k for k, n in uses.items() if n > 1 and size.get(k, 0) >= least}

    def _call(self, e: Expr, env: Env) -> str:
        made = self._functions.get(id(e))
        if made is None:
            free = sorted(_free_names(e))
            name = f"x{len(self._functions)}"
            made = self._functions[id(e)] = (name, free)
            inner_env = {v: f"a{k}" for k, v in enumerate(free)}
            self.shared.discard(id(e))       # the body is the node itself
            body = C_TABLE[e.op](self, e, inner_env)
            self.shared.add(id(e))
            args = "".join(f", V a{k}" for k in range(len(free)))
            self.functions.append(f"static V {name}(rs_ctx *C, const V *s{args}) "
                                  f"{{ return {body}; }}")
        name, free = made
        try:
            args = "".join(f", {env[v]}" for v in free)
        except KeyError as err:
            raise SpecError(f"{err.args[0]!r} is used outside the block that defines it",
                            where=e.where) from None
        return f"{name}(C, s{args})"

    def index(self, ix: Expr, size: int, env: Env) -> str:
        """An index in ``0 .. size - 1``: checked at run time unless it is a constant in
        range or is proven in range from constants, parameters and bound variables alone
        (a field's declared bounds are not trusted: a bug may break them)."""
        if ix.op == "const":
            v = int(ix.args[0])
            return str(v) if 0 <= v < size else f"rs_ck(C, {v}, {size})"
        code = self.expr(ix, env)
        if not any(n.op == "field" for n in walk(ix)):
            rng = interval(ix, self.spec.max_players)
            if rng is not None and 0 <= rng[0] and rng[1] < size:
                return f"({code})"
        return f"rs_ck(C, {code}, {size})"

    def cell(self, e: Expr, env: Env) -> str:
        """The flat offset of a field node's cell."""
        f = e.args[0]
        slot = self.layout.slots[f.name]
        fixed = slot.offset
        parts: list[str] = []
        for d, stride, ix in zip(f.dims, slot.strides, e.args[1:]):
            code = self.index(ix, d.size, env)
            if code.isdigit():
                fixed += int(code) * stride
            else:
                parts.append(code if stride == 1 else f"{code} * {stride}")
        return " + ".join(([str(fixed)] if fixed or not parts else []) + parts)

    def bound(self, d: Domain, env: Env) -> str:
        """A domain's upper bound (exclusive); one that depends on the state may not pass
        the largest the spec declares."""
        if d.is_static():
            return str(d.max_hi)
        return f"rs_upto(C, {self.expr(d.hi, env)}, {d.max_hi})"

    # --- statements ---------------------------------------------------------------------
    def stmts(self, stmts: tuple, env: Env, indent: str, out: list[str]) -> None:
        """``stmts`` on the state ``s`` (changed in place: each statement sees what the
        ones before it did, as in every backend)."""
        for st in stmts:   # a Let binds its name for the statements after it
            env = C_STATEMENTS[type(st)](self, st, env, indent, out)

    def _assign(self, st: Assign, env: Env, indent: str, out: list[str]) -> Env:
        v = self.fresh("a")
        out.append(f"{indent}{{ V {v} = {self.expr(st.value, env)}; "
                   f"s[{self.cell(st.target, env)}] = {v}; }}")
        return env

    def _let(self, st: Let, env: Env, indent: str, out: list[str]) -> Env:
        v = self.fresh("l")
        out.append(f"{indent}V {v} = {self.expr(st.value, env)};")
        return {**env, st.var.args[0]: v}

    def _if(self, st: If, env: Env, indent: str, out: list[str]) -> Env:
        out.append(f"{indent}if ({self.expr(st.cond, env)}) {{")
        k = self._counter(st)
        self._count(k, 0, indent + "    ", out)
        self.stmts(st.then, env, indent + "    ", out)
        out.append(f"{indent}}} else {{")
        self._count(k, 1, indent + "    ", out)
        self.stmts(st.otherwise, env, indent + "    ", out)
        out.append(f"{indent}}}")
        return env

    def _for_each(self, st: ForEach, env: Env, indent: str, out: list[str]) -> Env:
        v, h = self.fresh("i"), self.fresh("h")
        out.append(f"{indent}for (V {v} = {st.domain.lo}, {h} = "
                   f"{self.bound(st.domain, env)}; {v} < {h}; {v}++) {{")
        self.stmts(st.body, {**env, st.var.args[0]: v}, indent + "    ", out)
        out.append(f"{indent}}}")
        return env

    def _counter(self, st: If) -> int | None:
        if not self.counting:
            return None
        k = self.branches.get(id(st))
        if k is None:
            k = self.branches[id(st)] = len(self.branch_statements)
            self.branch_statements.append(st)
        return k

    @staticmethod
    def _count(k: int | None, side: int, indent: str, out: list[str]) -> None:
        """Coverage counts each run of a branch (``C->branch`` is NULL when not asked):
        counter ``2k`` for the ``then`` side of ``If`` number ``k``, ``2k + 1`` for the
        other."""
        if k is not None:
            out.append(f"{indent}if (C->branch) C->branch[{2 * k + side}]++;")


def _sizes(e: Expr, size: dict[int, int]) -> int:
    got = size.get(id(e))
    if got is None:
        got = size[id(e)] = 1 + sum(_sizes(c, size) for c in children(e))
    return got


def _free_names(e: Expr) -> set[str]:
    """The parameters and variables ``e`` reads that it does not bind itself."""
    found: set[str] = set()
    bound: set[str] = set()
    for n in walk(e):
        if n.op in ("param", "var"):
            found.add(n.args[0])
        elif n.op in ("exists", "forall", "sum", "count", "let"):
            bound.add(n.args[0].args[0])
    return found - bound


def _ints(values: Any) -> str:
    return ", ".join(str(int(v)) for v in values)


def _const(w: CWriter, e: Expr, env: Env) -> str:
    v = e.args[0]
    if e.type == BOOL:
        return "1" if v else "0"
    v = int(v)
    if v == -(2 ** 63):
        return "INT64_MIN"
    text = str(v) if -(2 ** 31) < v < 2 ** 31 else f"{v}LL"
    return text if v >= 0 else f"({text})"


def _field(w: CWriter, e: Expr, env: Env) -> str:
    return f"s[{w.cell(e, env)}]"


def _name(w: CWriter, e: Expr, env: Env) -> str:
    try:
        return env[e.args[0]]
    except KeyError:
        raise SpecError(f"{e.args[0]!r} is used outside the block that defines it",
                        where=e.where) from None


def _interp(w: CWriter, e: Expr, env: Env) -> str:
    return f"C->I[{w.interp[e.args[0].name]}]"


def _checked(fn: str) -> Callable[[CWriter, Expr, Env], str]:
    def emit(w: CWriter, e: Expr, env: Env) -> str:
        a, b = (w.expr(x, env) for x in e.args)
        return f"{fn}(C, {a}, {b})"
    return emit


def _pure(fn: str) -> Callable[[CWriter, Expr, Env], str]:
    def emit(w: CWriter, e: Expr, env: Env) -> str:
        return f"{fn}({', '.join(w.expr(x, env) for x in e.args)})"
    return emit


def _compare(sym: str) -> Callable[[CWriter, Expr, Env], str]:
    def emit(w: CWriter, e: Expr, env: Env) -> str:
        a, b = (w.expr(x, env) for x in e.args)
        return f"({a} {sym} {b})"
    return emit


def _nary(sym: str, empty: str) -> Callable[[CWriter, Expr, Env], str]:
    def emit(w: CWriter, e: Expr, env: Env) -> str:
        if not e.args:
            return empty
        return "(" + f" {sym} ".join(w.expr(x, env) for x in e.args) + ")"
    return emit


def _not(w: CWriter, e: Expr, env: Env) -> str:
    return f"(!{w.expr(e.args[0], env)})"


def _ite(w: CWriter, e: Expr, env: Env) -> str:
    c, t, f = (w.expr(x, env) for x in e.args)
    return f"({c} ? {t} : {f})"


def _table(w: CWriter, e: Expr, env: Env) -> str:
    values, index = e.args
    shown = tuple(int(bool(v)) if e.type == BOOL else int(v) for v in values)
    return f"{w.table(shown)}[{w.index(index, len(values), env)}]"


def _enum_table(w: CWriter, e: Expr, env: Env) -> str:
    table, index = e.args
    shown = tuple(int(bool(v)) if e.type == BOOL else int(v) for v in table.values)
    at = w.index(index, len(shown), env)
    if table.absent:   # a member with no value: reading it raises (Python says which)
        k = w.fresh("k")
        test = " || ".join(f"{k} == {i}" for i, _ in table.absent)
        at = f"({{ V {k} = {at}; if ({test}) RS_ERR(1); {k}; }})"
    return f"{w.table(shown)}[{at}]"


def _binder(kind: str) -> Callable[[CWriter, Expr, Env], str]:
    """A quantifier as a GNU statement expression: a loop that stops where Python's
    ``any``/``all`` stop; sums and counts run over the whole domain."""
    def emit(w: CWriter, e: Expr, env: Env) -> str:
        var, d, body = e.args
        v, h, r = w.fresh("q"), w.fresh("h"), w.fresh("r")
        inner = w.expr(body, {**env, var.args[0]: v})
        step = {"exists": f"if ({inner}) {{ {r} = 1; break; }}",
                "forall": f"if (!{inner}) {{ {r} = 0; break; }}",
                "sum": f"{r} = rs_add(C, {r}, {inner});",
                "count": f"if ({inner}) {r}++;"}[kind]
        start = "1" if kind == "forall" else "0"
        return (f"({{ V {r} = {start}; for (V {v} = {d.lo}, {h} = {w.bound(d, env)}; "
                f"{v} < {h}; {v}++) {{ {step} }} {r}; }})")
    return emit


def _let(w: CWriter, e: Expr, env: Env) -> str:
    """The value computed once into a local, then the body (a GNU statement expression)."""
    var, value, body = e.args
    v = w.fresh("l")
    return f"({{ V {v} = {w.expr(value, env)}; {w.expr(body, {**env, var.args[0]: v})}; }})"


def _members(w: CWriter, ms: tuple, env: Env, name: str, ctype: str = "unsigned char") -> str:
    """Every node's condition (or label), evaluated in order into a local array."""
    sets = "".join(f" {name}[{i}] = {w.expr(m, env)};" for i, m in enumerate(ms))
    return f"{ctype} {name}[{len(ms)}];{sets}"


def _connected(w: CWriter, e: Expr, env: Env) -> str:
    graph, sources, targets, _ = e.args[:4]
    m = w.fresh("m")
    return (f"({{ {_members(w, e.args[4:], env, m)} rs_connected(&{w.graph(graph)}, {m}, "
            f"{w.nodes(sources)}, {len(sources)}, {w.nodes(targets)}, {len(targets)}); }})")


def _component_size(w: CWriter, e: Expr, env: Env) -> str:
    graph, _, start = e.args[:3]
    m, st = w.fresh("m"), w.fresh("st")
    # Python evaluates the start node (and checks it) before the members
    return (f"({{ V {st} = {w.index(start, graph.size, env)}; "
            f"{_members(w, e.args[3:], env, m)} rs_component(&{w.graph(graph)}, {m}, {st}); }})")


def _largest_component(w: CWriter, e: Expr, env: Env) -> str:
    graph, _, labels = e.args[:3]
    n = graph.size
    m = w.fresh("m")
    members = _members(w, e.args[3:3 + n], env, m)
    if not labels:
        return f"({{ {members} rs_largest(C, &{w.graph(graph)}, {m}, 0, 0); }})"
    lab = w.fresh("lb")
    return (f"({{ {members} {_members(w, e.args[3 + n:], env, lab, 'V')} "
            f"rs_largest(C, &{w.graph(graph)}, {m}, {lab}, {labels}); }})")


#: every IR operation's C; a test holds it to the catalogue (rulespec/ir/nodes.py)
C_TABLE: dict[str, Callable[[CWriter, Expr, Env], str]] = {
    "const": _const,
    "field": _field,
    "param": _name,
    "var": _name,
    "num_players": lambda w, e, env: "s[0]",
    "interp": _interp,
    "add": _checked("rs_add"), "sub": _checked("rs_sub"), "mul": _checked("rs_mul"),
    "floordiv": _checked("rs_floordiv"), "mod": _checked("rs_mod"),
    "min": _pure("rs_min"), "max": _pure("rs_max"),
    "abs": lambda w, e, env: f"rs_abs(C, {w.expr(e.args[0], env)})",
    "eq": _compare("=="), "ne": _compare("!="), "lt": _compare("<"), "le": _compare("<="),
    "gt": _compare(">"), "ge": _compare(">="),
    "and": _nary("&&", "1"), "or": _nary("||", "0"),
    "not": _not,
    "ite": _ite,
    "table": _table,
    "exists": _binder("exists"), "forall": _binder("forall"), "sum": _binder("sum"),
    "count": _binder("count"),
    "let": _let,
    "ordinal": lambda w, e, env: w.expr(e.args[0], env),  # a member is its position
    "enum_table": _enum_table,
    "connected": _connected,
    "component_size": _component_size,
    "largest_component": _largest_component,
}

#: every statement kind as C (a test holds it to ``STATEMENTS`` and the other tables); each
#: entry writes its lines and returns the names in scope for the statements after it
C_STATEMENTS: dict[type, Callable[[CWriter, Any, Env, str, list[str]], Env]] = {
    Assign: CWriter._assign, Let: CWriter._let, If: CWriter._if, ForEach: CWriter._for_each,
}
