"""A whole spec as one C module: every function of the Python backend's ``CompiledGame``
over a flat state of 64-bit cells, and the table (``rs_game``) that the drivers in
``rulespec_native.c`` call them through.

Each function follows the Python backend's plain code (``python_backend.py`` without
hoisting) in what it evaluates and in which order, so that both fail in the same cases:
the legal-move enumerators test each precondition where the plain code tests it (in the
outermost loop that binds what it reads, or, for an action with few parameter values, all
together once every parameter is bound), and ``step`` makes the plain code's checks in the
plain code's order. Keys come out in the same order as the Python backend's.
"""

from __future__ import annotations

import itertools
from typing import Callable

from ...ir.intervals import interval
from ...ir.nodes import BOOL, Expr
from ...ir.walk import statement_exprs
from ...spec.elements import Action, GameSpec
from ..layout import Layout
from ..plan import CHANCE, TERMINAL, enumerator_plan
from .expressions import CWriter, Env

HEADER = '#include "rulespec_native.h"\n'


def generate(spec: GameSpec) -> tuple[str, CWriter]:
    """The C source of ``spec`` (every reading: the interpretation is read at run time),
    and the writer that made it (its branch counters)."""
    layout = Layout.of(spec)
    w = CWriter(spec, layout)
    w.share(rule_exprs(spec))
    g = _Module(spec, layout, w)
    body = g.functions()
    return (HEADER + "\n".join(w.data) + "\n\n" + "\n".join(w.functions) + "\n\n"
            + "\n".join(body) + "\n", w)


def rule_exprs(spec: GameSpec) -> list[Expr]:
    """Every expression of the spec's rules, flow, scoring, properties and views of
    players (what the module compiles)."""
    exprs: list[Expr] = [spec.terminal.expr, spec.current_player.expr, spec.scoring.score]
    exprs += [spec.chance_node.expr] if spec.chance_node else []
    exprs += [tb.key for tb in spec.tie_breaks] + [i.cond for i in spec.invariants]
    exprs += [c.total for c in spec.conservation] + list(statement_exprs(spec.setup))
    for a in spec.actions:
        exprs += [pre.cond for pre in a.preconditions] + list(statement_exprs(a.effects))
        exprs += [a.weight] if a.weight is not None else []
        exprs += [p.domain.hi for p in a.params]
    for f in spec.fields:
        if isinstance(f.visible, tuple):
            exprs += list(f.visible)
    return exprs


def key_width(spec: GameSpec) -> int:
    return 1 + max((len(a.params) for a in spec.actions), default=0)


def key_capacity(spec: GameSpec) -> int:
    """The most keys one legal list can hold: every parameter combination of every action."""
    total = 0
    for a in spec.actions:
        n = 1
        for p in a.params:
            n *= p.domain.max_hi - p.domain.lo
        total += n
    return total


class _Module:
    def __init__(self, spec: GameSpec, layout: Layout, w: CWriter) -> None:
        self.spec, self.layout, self.w = spec, layout, w
        self.out: list[str] = []
        self.term = w.expr(spec.terminal.expr, {})
        self.chance = w.expr(spec.chance_node.expr, {}) if spec.chance_node else "0"
        self.width = key_width(spec)

    def fn(self, head: str, lines: list[str]) -> None:
        self.out += [f"static {head} {{", *lines, "}", ""]

    def functions(self) -> list[str]:
        spec, w = self.spec, self.w
        size = self.layout.size
        init = self.layout.initial_vector()
        setup: list[str] = []
        w.stmts(spec.setup, {}, "    ", setup)
        values = ", ".join(str(int(v)) for v in init)
        self.out.append(f"static const V INIT[{size}] = {{{values}}};")
        self.fn("void f_initial(rs_ctx *C, V n, V *s)",
                [f"    memcpy(s, INIT, sizeof INIT);", "    s[0] = n;", *setup])
        self.fn("int f_terminal(rs_ctx *C, const V *s)", [f"    return {self.term} ? 1 : 0;"])
        cp = w.expr(spec.current_player.expr, {})
        lines = [f"    if ({self.term}) return {TERMINAL};"]
        if spec.chance_node is not None:
            lines.append(f"    if ({self.chance}) return {CHANCE};")
        self.fn("V f_current_player(rs_ctx *C, const V *s)", lines + [f"    return {cp};"])

        players = [(i, a) for i, a in enumerate(spec.actions) if not a.chance]
        chances = [(i, a) for i, a in enumerate(spec.actions) if a.chance]
        for i, a in enumerate(spec.actions):
            self.enumerator(i, a)
        lines = ["    out->n = 0;"]
        if chances:
            lines += [f"    if ({self.term} || !({self.chance})) return;"]
            lines += [f"    legal_{i}(C, s, out);" for i, _ in chances]
        self.fn("void f_chance_weights(rs_ctx *C, const V *s, rs_keys *out)", lines)
        lines = ["    out->n = 0;", f"    if ({self.term}) return;"]
        if chances:   # at a chance node: the outcomes of positive weight
            lines += [f"    if ({self.chance}) {{",
                      "        f_chance_weights(C, s, out);",
                      "        int32_t n = 0;",
                      "        for (int32_t k = 0; k < out->n; k++) {",
                      "            if (out->w[k] <= 0) continue;",
                      f"            if (n != k) memcpy(out->k + n * {self.width}, "
                      f"out->k + k * {self.width}, {self.width} * sizeof(int32_t));",
                      "            out->w[n++] = out->w[k];",
                      "        }",
                      "        out->n = n;",
                      "        return;",
                      "    }"]
        lines += [f"    legal_{i}(C, s, out);" for i, _ in players]
        self.fn("void f_legal(rs_ctx *C, const V *s, rs_keys *out)", lines)

        for i, a in enumerate(spec.actions):
            self.apply(i, a)
            self.step(i, a)
            for j, pre in enumerate(a.preconditions):
                env = _params(a)
                self.fn(f"int pre_{i}_{j}(rs_ctx *C, const V *s{_args(a)})",
                        [f"    return {w.expr(pre.cond, env)} ? 1 : 0;"])
        self.dispatchers()
        self.values()
        self.observe()
        self.table()
        return self.out

    # --- legal moves --------------------------------------------------------------------
    def enumerator(self, i: int, a: Action) -> None:
        """``legal_i``: appends every legal instance of action ``i`` (with its weight)."""
        w = self.w
        env = _params(a)
        plan = enumerator_plan(a)
        lines = [f"    if (!{w.expr(pre.cond, env)}) return;" for pre in plan.guards]
        indent = "    "
        for k, p in enumerate(a.params):
            h = w.fresh("h")
            lines.append(f"{indent}for (V p_{p.name} = {p.domain.lo}, {h} = "
                         f"{w.bound(p.domain, env)}; p_{p.name} < {h}; p_{p.name}++) {{")
            indent += "    "
            lines += [f"{indent}if (!{w.expr(pre.cond, env)}) continue;"
                      for pre in plan.at_level[k + 1]]
        emit = [f"{indent}{{ int32_t *k = out->k + out->n * {self.width}; k[0] = {i};"]
        emit += [f"{indent}  k[{j + 1}] = (int32_t)p_{p.name};" for j, p in enumerate(a.params)]
        # the unused places are 0, so that keys compare whole
        emit += [f"{indent}  k[{j}] = 0;" for j in range(len(a.params) + 1, self.width)]
        if a.chance:
            weight = w.expr(a.weight, env) if a.weight is not None else "1"
            emit.append(f"{indent}  out->w[out->n] = {weight};")
        emit.append(f"{indent}  out->n++; }}")
        if plan.innermost:
            cond = " && ".join(w.expr(pre.cond, env) for pre in plan.innermost)
            lines.append(f"{indent}if ({cond}) {{")
            lines += ["    " + x for x in emit]
            lines.append(f"{indent}}}")
        else:
            lines += emit
        for k in range(len(a.params)):
            indent = indent[:-4]
            lines.append(f"{indent}}}")
        self.fn(f"void legal_{i}(rs_ctx *C, const V *s, rs_keys *out)", lines)

    # --- one action ---------------------------------------------------------------------
    def apply(self, i: int, a: Action) -> None:
        lines = [f"    memcpy(s, t, {self.layout.size} * sizeof(V));"]
        self.w.counting = True
        self.w.stmts(a.effects, _params(a), "    ", lines)
        self.w.counting = False
        self.fn(f"void apply_{i}(rs_ctx *C, const V *t, V *s{_args(a)})", lines)

    def step(self, i: int, a: Action) -> None:
        """``step_i``: 1 and the next state when the action may be taken (the plain code's
        checks, in its order), else 0."""
        w, spec = self.w, self.spec
        env = _params(a)
        cp = w.expr(spec.current_player.expr, {})
        rng = interval(spec.current_player.expr, spec.max_players)

        def may_be(v: int) -> bool:
            return rng is None or rng[0] <= v <= rng[1]
        conds = [f"!({self.term})"]
        if a.chance:
            turn = [self.chance] + ([f"({cp} == {CHANCE})"] if may_be(CHANCE) else [])
            conds.append("(" + " || ".join(turn) + ")")
        else:
            conds.append(f"!({self.chance})")
            conds += [f"({cp} != {v})" for v in (CHANCE, TERMINAL) if may_be(v)]
        for p in a.params:
            conds.append(f"({p.domain.lo} <= p_{p.name} && p_{p.name} < "
                         f"{w.expr(p.domain.hi, env)})")
        conds += [w.expr(pre.cond, env) for pre in a.preconditions]
        if a.chance and a.weight is not None:
            conds.append(f"({w.expr(a.weight, env)} > 0)")
        unpack = [f"    V p_{p.name} = key[{j + 1}];" for j, p in enumerate(a.params)]
        call = "".join(f", p_{p.name}" for p in a.params)
        self.fn(f"int step_{i}(rs_ctx *C, const V *s, const int32_t *key, V *out)",
                unpack + [f"    if (!({' && '.join(conds)})) return 0;",
                          f"    apply_{i}(C, s, out{call});", "    return 1;"])

    def dispatchers(self) -> None:
        spec = self.spec
        n = len(spec.actions)
        cases = [f"    case {i}: return step_{i}(C, s, key, out);" for i in range(n)]
        self.fn("int f_step(rs_ctx *C, const V *s, const int32_t *key, V *out)",
                ["    switch (key[0]) {", *cases, "    }", "    RS_ERR(6);", "    return 0;"])
        cases = []
        for i, a in enumerate(spec.actions):
            args = "".join(f", key[{j + 1}]" for j in range(len(a.params)))
            cases.append(f"    case {i}: apply_{i}(C, s, out{args}); return;")
        self.fn("void f_apply(rs_ctx *C, const V *s, const int32_t *key, V *out)",
                ["    switch (key[0]) {", *cases, "    }", "    RS_ERR(6);"])
        cases = []
        for i, a in enumerate(spec.actions):
            args = "".join(f", params[{j}]" for j in range(len(a.params)))
            for j in range(len(a.preconditions)):
                cases.append(f"    if (i == {i} && j == {j}) return pre_{i}_{j}(C, s{args});")
        self.fn("int f_pre(rs_ctx *C, int32_t i, int32_t j, const V *s, const int32_t *params)",
                [*cases, "    RS_ERR(6);", "    return 0;"])

    # --- values of a state --------------------------------------------------------------
    def values(self) -> None:
        spec, w = self.spec, self.w
        var = spec.scoring.var.args[0]
        score = w.expr(spec.scoring.score, {var: "p"})
        self.fn("void f_scores(rs_ctx *C, const V *s, V *out)",
                [f"    for (V p = 0, n = rs_upto(C, s[0], {spec.max_players}); p < n; p++) "
                 f"out[p] = {score};"])
        self._switch("V f_tie(rs_ctx *C, int32_t k, const V *s, V p)",
                     [w.expr(tb.key, {tb.var.args[0]: "p"}) for tb in spec.tie_breaks])
        self._switch("int f_inv(rs_ctx *C, int32_t k, const V *s)",
                     [f"({w.expr(inv.cond, {})} ? 1 : 0)" for inv in spec.invariants])
        self._switch("V f_cons(rs_ctx *C, int32_t k, const V *s)",
                     [w.expr(c.total, {}) for c in spec.conservation])

    def _switch(self, head: str, codes: list[str]) -> None:
        cases = [f"    case {k}: return {code};" for k, code in enumerate(codes)]
        self.fn(head, ["    switch (k) {", *cases, "    }", "    RS_ERR(6);", "    return 0;"])

    def observe(self) -> None:
        """What player ``p`` sees: each cell, or RS_HIDDEN (compile/observation.py)."""
        w = self.w
        lines: list[str] = []
        for slot in self.layout.slots.values():
            f = slot.field
            env = {f.observer.args[0]: "p"} if f.observer is not None else {}
            if f.visible == "all":
                lines.append(f"    memcpy(out + {slot.offset}, s + {slot.offset}, "
                             f"{f.size} * sizeof(V));")
                continue
            for k, index in enumerate(itertools.product(*(range(d.size) for d in f.dims))):
                cell = slot.offset + k
                if f.visible == "nobody":
                    lines.append(f"    out[{cell}] = RS_HIDDEN;")
                elif f.visible == "owner":
                    lines.append(f"    out[{cell}] = p == {index[0]} ? s[{cell}] : RS_HIDDEN;")
                else:
                    cond = w.expr(f.visible[k], env)
                    lines.append(f"    out[{cell}] = {cond} ? s[{cell}] : RS_HIDDEN;")
        self.fn("void f_observe(rs_ctx *C, const V *s, V p, V *out)", lines)

    # --- the table the drivers call -----------------------------------------------------
    def table(self) -> None:
        spec, layout = self.spec, self.layout
        width = self.width
        lo, hi, is_bool = [], [], []
        for slot in layout.slots.values():
            f = slot.field
            for _ in range(f.size):
                is_bool.append(1 if f.type == BOOL else 0)
                lo.append(0 if f.type == BOOL else f.lo)
                hi.append(1 if f.type == BOOL else (f.hi if f.hi is not None else None))
        p_lo, p_hi = [], []
        for a in spec.actions:
            doms = [p.domain for p in a.params]
            p_lo += [d.lo for d in doms] + [0] * (width - 1 - len(doms))
            p_hi += ([d.max_hi if d.is_static() else -1 for d in doms]
                     + [0] * (width - 1 - len(doms)))
        arrays = {
            "n_params": ("int32_t", [len(a.params) for a in spec.actions]),
            "n_pre": ("int32_t", [len(a.preconditions) for a in spec.actions]),
            "chance": ("int8_t", [int(a.chance) for a in spec.actions]),
            "param_lo": ("V", p_lo), "param_hi": ("V", p_hi),
            "tie_lower": ("int8_t", [int(tb.lower_wins) for tb in spec.tie_breaks]),
            "cell_lo": ("V", lo), "cell_hi": ("V", hi), "cell_bool": ("int8_t", is_bool),
        }
        for name, (ctype, values) in arrays.items():
            body = ", ".join("INT64_MAX" if v is None else str(int(v)) for v in values) or "0"
            self.out.append(f"static const {ctype} M_{name}[] = {{{body}}};")
        horizon = spec.horizon if spec.horizon is not None else -1
        fields = [layout.size, width, len(spec.actions), len(spec.invariants),
                  len(spec.conservation), len(spec.tie_breaks), len(spec.interpretations),
                  2 * len(self.w.branches), spec.min_players, spec.max_players,
                  spec.max_steps, horizon, key_capacity(spec),
                  int(spec.shared_ties is not None)]
        self.out.append("static const rs_game GAME = {")
        self.out.append("    " + ", ".join(map(str, fields)) + ",")
        self.out.append("    M_n_params, M_n_pre, M_chance, M_param_lo, M_param_hi, "
                        "M_tie_lower, M_cell_lo, M_cell_hi, M_cell_bool,")
        self.out.append("    f_initial, f_terminal, f_current_player, f_legal, "
                        "f_chance_weights, f_step, f_apply, f_pre, f_scores, f_tie, f_inv, "
                        "f_cons, f_observe")
        self.out.append("};")
        self.out.append("const rs_game *rs_game_table(void) { return &GAME; }")


def _params(a: Action) -> Env:
    return {p.name: f"p_{p.name}" for p in a.params}


def _args(a: Action) -> str:
    return "".join(f", V p_{p.name}" for p in a.params)


__all__ = ["generate", "key_capacity", "key_width"]
