"""The Python backend's legal-move enumerators (``legal_i``) and fused steps (``step_i``).

Each guard sits in the outermost loop that binds every parameter it reads (:mod:`plan`,
shared with the C backend); small enumerators are unrolled, one line per parameter
combination; in the fast code, loop-invariant and common subexpressions are named once
(:mod:`hoist`)."""

from __future__ import annotations

import itertools
from typing import Callable

from ..ir.intervals import interval
from ..ir.nodes import Expr
from ..ir.walk import conjuncts, params_used
from ..spec.elements import Action
from .hoist import SHARED, Hoist
# where each precondition is tested, shared with the C backend
from .plan import CHANCE, TERMINAL
from .plan import level_of as _level_of
from .plan import unrolled as _unrolled
from .python_expressions import _chain, _Ctx, _Emitter, _negate, _param_ctx

#: an action whose effects take at most this many lines has them copied into its step
#: function (saving a call); longer ones are called
INLINE_EFFECTS = 16
#: an enumerator is written into ``legal`` (not called) when its blocks nest no deeper
#: than this (Python allows 20 nested blocks in a function)
MAX_INLINE_NESTING = 14


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
             for c in (conjuncts(pre.cond) if split else [pre.cond])]
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
