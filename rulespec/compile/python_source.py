"""The source of one generated Python module: every function of a spec under one
interpretation (``initial``, ``legal``, ``step_i``, ``scores``...), fast or plain."""

from __future__ import annotations

from typing import Callable

from ..spec.elements import GameSpec
from .layout import Layout
from .plan import CHANCE, TERMINAL
from .python_enumerators import _add, _emit_enumerators, _emit_step, _render, _start
from .python_expressions import _Ctx, _Emitter, _param_ctx


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
