"""Connectivity in Z3 terms: ``connected``, ``component_size`` and ``largest_component``
unrolled over a fixed graph (rounds of "a member next to a reached node is reached", or
Warshall's closure when the start node is not known; groups named by their smallest node).
The encoders of :data:`rulespec.compile.smt_backend.SMT_TABLE` for those operations."""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterable, Sequence

from ..ir.closure import is_connected, largest_group, size_of_component
from ..ir.intervals import interval
from ..ir.nodes import Expr
from . import smt_terms as T
from .smt_terms import Val

if TYPE_CHECKING:
    from .smt_backend import SmtGame
    from .smt_scope import _Scope


def _members(g: SmtGame, e: Expr, first: int, sc: _Scope) -> list[Val]:
    return [g._expr(m, sc) for m in e.args[first:]]


def _relax(neighbours: Sequence[Sequence[int]], ms: list[Val], sources: Iterable[int]
           ) -> list[Val]:
    """Reachable from the sources through member nodes, as one term per node: rounds of
    "a member next to a reached node is reached", as many as a path can need."""
    n = len(ms)
    srcs = set(sources)
    reached: list[Val] = [ms[i] if i in srcs else False for i in range(n)]
    rounds = sum(1 for m in ms if not (T.known(m) and not m)) - 1
    for _ in range(max(rounds, 0)):
        reached = [T.or_([reached[i], T.and_([ms[i], T.or_([reached[j] for j in neighbours[i]])])])
                   for i in range(n)]
    return reached


def _connected(g: SmtGame, e: Expr, sc: _Scope) -> Val:
    graph, sources, targets, _ = e.args[:4]
    ms = _members(g, e, 4, sc)
    if all(T.known(m) for m in ms):
        return is_connected(graph.neighbours, sources, targets, [bool(m) for m in ms])
    reached = _relax(graph.neighbours, ms, sources)
    return T.or_([reached[t] for t in targets])


def _closure(neighbours: Sequence[Sequence[int]], ms: list[Val]) -> list[list[Val]]:
    """Warshall's transitive closure of "neighbouring members", unrolled: ``c[i][j]`` holds
    when a path of member nodes joins ``i`` to ``j`` (``c[i][i]``: ``i`` is a member)."""
    n = len(ms)
    c: list[list[Val]] = [[False] * n for _ in range(n)]
    for i in range(n):
        c[i][i] = ms[i]
        for j in neighbours[i]:
            c[i][j] = T.and_([ms[i], ms[j]])
    for k in range(n):
        for i in range(n):
            if T.known(c[i][k]) and not c[i][k]:
                continue
            for j in range(n):
                c[i][j] = T.or_([c[i][j], T.and_([c[i][k], c[k][j]])])
    return c


def _component_size(g: SmtGame, e: Expr, sc: _Scope) -> Val:
    graph, _, start = e.args[:3]
    n = graph.size
    s = g._expr(start, sc)
    rng = interval(start, g.spec.max_players)
    if rng is None or rng[0] < 0 or rng[1] >= n:
        sc.fail(T.or_([T.lt(s, 0), T.ge(s, n)]))
    ms = _members(g, e, 3, sc)
    if T.known(s):
        k = min(max(s, 0), n - 1)  # type: ignore[type-var, call-overload]
        if all(T.known(m) for m in ms):
            return size_of_component(graph.neighbours, k, [bool(m) for m in ms])
        return T.sum_([T.ite(r, 1, 0) for r in _relax(graph.neighbours, ms, (k,))])
    c = _closure(graph.neighbours, ms)
    acc: Val = T.sum_([T.ite(r, 1, 0) for r in c[n - 1]])  # also what a bad start reads
    for k in range(n - 2, -1, -1):
        acc = T.ite(T.eq(s, k), T.sum_([T.ite(r, 1, 0) for r in c[k]]), acc)
    return acc


def _group_labels(neighbours: Sequence[Sequence[int]], ms: list[Val]) -> list[Val]:
    """Each member node's group, named by its smallest node number (non-members: ``n``):
    rounds of "take the smallest group number of a member neighbour", as many as a path
    can need. One pass names every group, so the largest costs n^2 terms, not n^3."""
    n = len(ms)
    lab: list[Val] = [T.ite(m, i, n) for i, m in enumerate(ms)]
    rounds = sum(1 for m in ms if not (T.known(m) and not m)) - 1
    for _ in range(max(rounds, 0)):
        nxt: list[Val] = []
        for i in range(n):
            if T.known(ms[i]) and not ms[i]:
                nxt.append(n)
                continue
            low = lab[i]
            for j in neighbours[i]:
                low = T.min_(low, lab[j])
            nxt.append(T.ite(ms[i], low, n))
        lab = nxt
    return lab


def _largest_component(g: SmtGame, e: Expr, sc: _Scope) -> Val:
    graph, _, n_labels = e.args[:3]
    n = graph.size
    ms = [g._expr(m, sc) for m in e.args[3:3 + n]]
    ls = [g._expr(x, sc) for x in e.args[3 + n:]]
    if ls:  # Python raises for a member's label outside 0..K-1
        sc.fail(T.or_([T.and_([m, T.or_([T.lt(x, 0), T.ge(x, n_labels)])])
                       for m, x in zip(ms, ls)]))
    if all(T.known(m) for m in ms) and all(T.known(x) for x in ls):
        flags = [bool(m) for m in ms]
        if any(f and not 0 <= x < n_labels for f, x in zip(flags, ls)):  # type: ignore[operator]
            return 0  # the error flag above is set: the value does not matter
        return largest_group(graph.neighbours, flags, ls or None,  # type: ignore[arg-type]
                             n_labels)
    lab = _group_labels(graph.neighbours, ms)
    best: Val = 0
    for r in range(n):
        if T.known(ms[r]) and not ms[r]:
            continue  # a group is named by one of its members
        inside = [T.eq(lab[i], r) for i in range(r, n)]  # a group's name is its smallest node
        if not ls:
            size = T.sum_([T.ite(c, 1, 0) for c in inside])
        else:
            size = T.sum_([T.ite(T.or_([T.and_([c, T.eq(ls[i], v)])
                                        for c, i in zip(inside, range(r, n))]), 1, 0)
                           for v in range(n_labels)])
        best = T.max_(best, size)
    return best
