"""Connectivity: breadth-first search (Python backend) and the unrolled Z3 encodings agree.

On random small graphs with random member nodes, sources and targets: ``connected``,
``component_size`` (a known start and a symbolic one) and ``largest_component`` (in nodes
and in distinct labels) computed by ``ir/closure.py``'s search equal the Z3 terms with the
member flags (and labels) left symbolic and substituted afterwards, and the same holds end
to end through a compiled spec (both backends).
"""

from __future__ import annotations

import itertools

import z3
from hypothesis import given, settings
from hypothesis import strategies as st

import rulespec
from rulespec.compile import smt_terms as T
from rulespec.compile.smt_backend import compile_smt
from rulespec.compile.smt_closure import _closure, _relax
from rulespec.ir.closure import Graph, is_connected, largest_group, size_of_component
from rulespec.spec import Game, component_size, connected, largest_component


@st.composite
def graphs(draw, max_nodes: int = 9):
    n = draw(st.integers(1, max_nodes))
    pairs = [(a, b) for a in range(n) for b in range(a + 1, n)]
    edges = draw(st.lists(st.sampled_from(pairs), unique=True)) if pairs else []
    return Graph.from_edges("random", n, edges)


def _ground(term, flags, values):
    return T.value(z3.substitute(T.term(term), *zip(flags, map(z3.BoolVal, values))))


@settings(max_examples=200)
@given(data=st.data(), graph=graphs())
def test_connected_search_and_z3_relaxation_agree(data, graph):
    n = graph.size
    members = data.draw(st.lists(st.booleans(), min_size=n, max_size=n), label="members")
    sources = data.draw(st.sets(st.integers(0, n - 1), min_size=1), label="sources")
    targets = data.draw(st.sets(st.integers(0, n - 1), min_size=1), label="targets")
    flags = [z3.Bool(f"m{i}") for i in range(n)]
    reached = _relax(graph.neighbours, list(flags), sorted(sources))
    symbolic = _ground(T.or_([reached[t] for t in sorted(targets)]), flags, members)
    assert symbolic == is_connected(graph.neighbours, sorted(sources), sorted(targets), members)


@settings(max_examples=200)
@given(data=st.data(), graph=graphs(max_nodes=7))
def test_component_size_search_and_warshall_closure_agree(data, graph):
    n = graph.size
    members = data.draw(st.lists(st.booleans(), min_size=n, max_size=n), label="members")
    flags = [z3.Bool(f"m{i}") for i in range(n)]
    closure = _closure(graph.neighbours, list(flags))
    for start in range(n):
        expected = size_of_component(graph.neighbours, start, members)
        warshall = _ground(T.sum_([T.ite(c, 1, 0) for c in closure[start]]), flags, members)
        relaxed = _ground(T.sum_([T.ite(r, 1, 0) for r in
                                  _relax(graph.neighbours, list(flags), (start,))]), flags, members)
        assert warshall == relaxed == expected, start


@settings(max_examples=200)
@given(data=st.data(), graph=graphs(max_nodes=8), n_labels=st.integers(1, 4))
def test_largest_component_search_and_z3_group_labels_agree(data, graph, n_labels):
    n = graph.size
    members = data.draw(st.lists(st.booleans(), min_size=n, max_size=n), label="members")
    labels = data.draw(st.lists(st.integers(0, n_labels - 1), min_size=n, max_size=n),
                       label="labels")
    src = "rulespec test: the largest group, symbolic"
    game = Game("largest", title="largest", players=1, source=src)
    on = game.field("on", bool, shape=(n,), source=src)
    tag = game.field("tag", range(0, n_labels), shape=(n,), source=src)

    @game.action(source=src)
    def noop(rule):
        rule.set(on[0], on[0])
    game.current_player(0, source=src)
    game.terminal(on[0] == on[0], source=src)
    game.max_steps(1, source=src)
    game.score(lambda p: 0, source=src)
    game.conservation("nodes", largest_component(graph, lambda i: on[i]), source=src)
    game.conservation("labels", largest_component(graph, lambda i: on[i],
                                                  label=lambda i: tag[i], labels=n_labels),
                      source=src)
    smt = compile_smt(game.build())
    sym = smt.fresh_state("s")
    cells = (1, *members, *labels)
    pairs = list(zip(sym, smt.concrete_state(cells)))
    by_nodes, by_labels = smt.conserved_checked(0, sym), smt.conserved_checked(1, sym)
    got = [T.value(z3.substitute(t, *pairs)) for t in
           (by_nodes.value, by_nodes.error, by_labels.value, by_labels.error)]
    assert got == [largest_group(graph.neighbours, members), False,
                   largest_group(graph.neighbours, members, labels, n_labels), False]


def test_largest_component_counts_each_label_once_per_group():
    g = Graph.grid(2, 3)  # 0 1 2 / 3 4 5
    members = [True, True, False, True, False, True]  # groups {0, 1, 3} and {5}
    assert largest_group(g.neighbours, members) == 3
    assert largest_group(g.neighbours, members, [2, 2, 0, 2, 0, 1], 3) == 1
    assert largest_group(g.neighbours, members, [0, 1, 0, 2, 0, 1], 3) == 3
    assert largest_group(g.neighbours, [False] * 6) == 0


def _spec(graph: Graph, sources, targets):
    src = "rulespec test: connectivity on a random graph"
    game = Game("closure", title="closure", players=1, source=src)
    on = game.field("on", bool, shape=(graph.size,), source=src)
    start = game.field("start", range(0, graph.size), source=src)

    @game.action(source=src)
    def noop(rule):
        rule.set(start, start)
    game.current_player(0, source=src)
    game.terminal(on[0] == on[0], source=src)
    game.max_steps(1, source=src)
    game.score(lambda p: 0, source=src)
    game.invariant("joined", connected(graph, lambda i: on[i], sources=sources,
                                       targets=targets), source=src)
    game.conservation("size", component_size(graph, lambda i: on[i], start), source=src)
    return game.build()


@settings(max_examples=60)
@given(data=st.data(), graph=graphs(max_nodes=6))
def test_both_backends_agree_end_to_end(data, graph):
    n = graph.size
    sources = sorted(data.draw(st.sets(st.integers(0, n - 1), min_size=1), label="sources"))
    targets = sorted(data.draw(st.sets(st.integers(0, n - 1), min_size=1), label="targets"))
    spec = _spec(graph, sources, targets)
    model = rulespec.Model(spec)
    smt = compile_smt(spec)
    sym = smt.fresh_state("s")
    joined, size = smt.invariant_checked(0, sym), smt.conserved_checked(0, sym)
    for values in itertools.islice(itertools.product([False, True], repeat=n), 0, 64):
        for s in {0, n - 1}:
            cells = (1, *values, s)
            pairs = list(zip(sym, smt.concrete_state(cells)))
            got = [T.value(z3.substitute(t, *pairs)) for t in
                   (joined.value, joined.error, size.value, size.error)]
            assert got == [model.compiled.invariants[0](cells), False,
                           model.compiled.conserved[0](cells), False]
