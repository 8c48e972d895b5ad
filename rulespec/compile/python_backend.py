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

The backend's parts, imports pointing one way: :mod:`python_expressions` (the table of IR
operations), :mod:`python_enumerators` (legal moves and steps), :mod:`python_source` (a
whole module's source) and this module (compiling and loading it).
"""

from __future__ import annotations

import linecache
from typing import Any, Callable

import attrs

from ..ir.nodes import Expr
from ..spec.elements import GameSpec
from .layout import Layout
from .plan import CHANCE, TERMINAL, UNROLL_COMBOS  # noqa: F401 - imported from here
from .python_expressions import (EXPR_TABLE, HELPERS, RuleError, _ck, _Ctx,  # noqa: F401
                                 _Emitter, _param_ctx)
from .python_source import _generate


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
