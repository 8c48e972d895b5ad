"""Connectivity over a small fixed graph: "a chain of my stones joins two edges", "the
largest group of beach spaces I hold", "my longest beach, counted in cards".

A :class:`Graph` is data (nodes 0..n-1 and their neighbours: board cells, map spaces).
Which nodes take part is a bool expression per node (``member``), read from the state, so
the rule says what connects, and each backend decides how: breadth-first search in the
Python backend, an unrolled reachability (relaxation rounds, or a Warshall closure when
the start node is not known; rounds of "take the smallest node number of a member
neighbour" for the largest group) in the Z3 backend. ``tests/test_closure.py`` holds the two to
the same answers.

>>> g = Graph.line(4)
>>> g.neighbours
((1,), (0, 2), (1, 3), (2,))
>>> from rulespec.ir.nodes import lift
>>> e = connected(g, lambda i: lift(i != 2), sources=[0], targets=[3])
>>> e.op, e.type.kind, len(e.args)
('connected', 'bool', 8)
"""

from __future__ import annotations

from typing import Any, Callable, Iterable, Sequence

import attrs

from .errors import SpecError
from .location import caller_location
from .nodes import BOOL, INT, Expr, lift


@attrs.frozen(eq=False)
class Graph:
    """A fixed undirected graph on nodes ``0 .. size - 1``, each with a label."""

    name: str
    neighbours: tuple[tuple[int, ...], ...]
    labels: tuple[str, ...]

    @property
    def size(self) -> int:
        return len(self.neighbours)

    @classmethod
    def from_edges(cls, name: str, size: int, edges: Iterable[tuple[int, int]],
                   labels: Sequence[str] | None = None) -> "Graph":
        """A graph from its edges (each given once, in either direction).

        >>> Graph.from_edges("triangle", 3, [(0, 1), (1, 2), (2, 0)]).neighbours
        ((1, 2), (0, 2), (0, 1))
        """
        if size <= 0:
            raise SpecError(f"graph {name} needs at least one node")
        adj: list[set[int]] = [set() for _ in range(size)]
        for a, b in edges:
            if not (0 <= a < size and 0 <= b < size) or a == b:
                raise SpecError(f"graph {name}: bad edge ({a}, {b}) for {size} nodes")
            adj[a].add(b)
            adj[b].add(a)
        names = tuple(labels) if labels is not None else tuple(str(i) for i in range(size))
        if len(names) != size:
            raise SpecError(f"graph {name}: {len(names)} labels for {size} nodes")
        return cls(name, tuple(tuple(sorted(a)) for a in adj), names)

    @classmethod
    def line(cls, n: int) -> "Graph":
        """Nodes in a row, each joined to the next."""
        return cls.from_edges(f"line of {n}", n, [(i, i + 1) for i in range(n - 1)])

    @classmethod
    def grid(cls, rows: int, cols: int) -> "Graph":
        """A square grid, node ``r * cols + c``, joined to its orthogonal neighbours."""
        edges = [(r * cols + c, r * cols + c + 1) for r in range(rows) for c in range(cols - 1)]
        edges += [(r * cols + c, (r + 1) * cols + c) for r in range(rows - 1) for c in range(cols)]
        return cls.from_edges(f"{rows}x{cols} grid", rows * cols, edges,
                              [f"({r},{c})" for r in range(rows) for c in range(cols)])

    @classmethod
    def hex_grid(cls, rows: int, cols: int) -> "Graph":
        """A rhombus of hexagons (the Hex board), node ``r * cols + c``: the six neighbours
        are (r-1, c), (r-1, c+1), (r, c+1), (r+1, c), (r+1, c-1) and (r, c-1).

        >>> Graph.hex_grid(2, 2).neighbours
        ((1, 2), (0, 2, 3), (0, 1, 3), (1, 2))
        """
        edges = []
        for r in range(rows):
            for c in range(cols):
                i = r * cols + c
                if c + 1 < cols:
                    edges.append((i, i + 1))
                if r + 1 < rows:
                    edges.append((i, i + cols))
                    if c > 0:
                        edges.append((i, i + cols - 1))
        return cls.from_edges(f"{rows}x{cols} hex grid", rows * cols, edges,
                              [f"({r},{c})" for r in range(rows) for c in range(cols)])

    def __repr__(self) -> str:
        return f"Graph({self.name})"


def _members(graph: Graph, member: Callable[[int], Any] | Sequence[Any]) -> tuple[Expr, ...]:
    raw = [member(i) for i in range(graph.size)] if callable(member) else list(member)
    if len(raw) != graph.size:
        raise SpecError(f"{len(raw)} member conditions for the {graph.size} nodes of "
                        f"{graph.name}")
    out = tuple(lift(m) for m in raw)
    for m in out:
        if m.type != BOOL:
            raise SpecError(f"a member condition must be a bool, got {m.type}")
    return out


def _nodes(graph: Graph, nodes: Iterable[int], what: str) -> tuple[int, ...]:
    out = tuple(sorted(set(int(n) for n in nodes)))
    if not out:
        raise SpecError(f"connected needs at least one {what} node")
    bad = [n for n in out if not 0 <= n < graph.size]
    if bad:
        raise SpecError(f"{what} nodes {bad} are not nodes of {graph.name} (0..{graph.size - 1})")
    return out


def connected(graph: Graph, member: Callable[[int], Any] | Sequence[Any], *,
              sources: Iterable[int], targets: Iterable[int], text: str = "") -> Expr:
    """True when a path of member nodes (neighbour to neighbour) joins some source node
    to some target node (a member node that is both counts).

    ``member(i)`` is node ``i``'s condition (evaluated for every node); ``text`` says it
    in words for messages ("a chain of black stones joins north to south").

    >>> g = Graph.line(3)
    >>> connected(g, [lift(True), lift(False), lift(True)], sources=[0], targets=[2]).op
    'connected'
    """
    ms = _members(graph, member)
    return Expr("connected", (graph, _nodes(graph, sources, "source"),
                              _nodes(graph, targets, "target"), text, *ms), BOOL,
                caller_location())


def component_size(graph: Graph, member: Callable[[int], Any] | Sequence[Any], start: Any, *,
                   text: str = "") -> Expr:
    """How many member nodes are joined to node ``start`` by paths of member nodes
    (``start`` included; 0 when ``start`` is not a member). ``start`` is an int expression;
    outside ``0 .. size - 1`` it is a rule error.

    >>> component_size(Graph.line(3), [lift(True)] * 3, 1).type.kind
    'int'
    """
    ms = _members(graph, member)
    s = lift(start)
    if s.type != INT:
        raise SpecError(f"component_size needs an int start node, got {s.type}")
    return Expr("component_size", (graph, text, s, *ms), INT, caller_location())


def largest_component(graph: Graph, member: Callable[[int], Any] | Sequence[Any], *,
                      label: Callable[[int], Any] | Sequence[Any] | None = None,
                      labels: int = 0, text: str = "") -> Expr:
    """The size of the largest group of member nodes joined by paths of member nodes (0
    when no node is a member): Cascadia's largest habitat corridor, MOTU's longest beach.

    With ``label``, a group counts the *distinct* values of ``label(i)`` among its nodes
    instead of its nodes -- a road measured in the tiles it crosses, a beach in the cards
    that show it. Labels are ints in ``0 .. labels - 1`` (``labels`` is required with
    ``label``); a member's label outside that range is a rule error.

    >>> g = Graph.line(4)
    >>> largest_component(g, [lift(True)] * 4).type.kind
    'int'
    >>> largest_component(g, [lift(True)] * 4, label=[lift(0), lift(0), lift(1), lift(1)],
    ...                   labels=2).args[2]
    2
    """
    ms = _members(graph, member)
    if label is None:
        if labels:
            raise SpecError("largest_component: labels= without label=")
        return Expr("largest_component", (graph, text, 0, *ms), INT, caller_location())
    if not isinstance(labels, int) or isinstance(labels, bool) or labels < 1:
        raise SpecError(f"largest_component: label= needs labels=K (labels 0..K-1), got "
                        f"{labels!r}")
    raw = [label(i) for i in range(graph.size)] if callable(label) else list(label)
    if len(raw) != graph.size:
        raise SpecError(f"{len(raw)} labels for the {graph.size} nodes of {graph.name}")
    ls = tuple(lift(x) for x in raw)
    for x in ls:
        if x.type != INT:
            raise SpecError(f"a node label must be an int, got {x.type}")
    return Expr("largest_component", (graph, text, labels, *ms, *ls), INT, caller_location())


# --- the reference semantics (the Python backend calls these) ---------------------------

def reach(neighbours: Sequence[Sequence[int]], members: Sequence[bool],
          sources: Iterable[int]) -> list[bool]:
    """Which nodes a breadth-first search reaches from the member sources."""
    seen = [False] * len(members)
    todo = [i for i in sources if members[i]]
    for i in todo:
        seen[i] = True
    while todo:
        i = todo.pop()
        for j in neighbours[i]:
            if members[j] and not seen[j]:
                seen[j] = True
                todo.append(j)
    return seen


def is_connected(neighbours: Sequence[Sequence[int]], sources: Sequence[int],
                 targets: Sequence[int], members: Sequence[bool]) -> bool:
    """``connected`` on concrete member flags.

    >>> is_connected(((1,), (0, 2), (1,)), (0,), (2,), (True, True, True))
    True
    """
    seen = reach(neighbours, members, sources)
    return any(seen[t] for t in targets)


def size_of_component(neighbours: Sequence[Sequence[int]], start: int,
                      members: Sequence[bool]) -> int:
    """``component_size`` on concrete member flags (``start`` is checked by the caller).

    >>> size_of_component(((1,), (0, 2), (1,)), 2, (True, False, True))
    1
    """
    return sum(reach(neighbours, members, (start,)))


def largest_group(neighbours: Sequence[Sequence[int]], members: Sequence[bool],
                  labels: Sequence[int] | None = None, n_labels: int = 0) -> int:
    """``largest_component`` on concrete flags (and labels): the most nodes, or distinct
    labels, in one group of member nodes. A member's label outside ``0 .. n_labels - 1``
    raises ``ValueError`` (the caller turns it into a rule error).

    >>> largest_group(((1,), (0, 2), (1,)), (True, True, False))
    2
    >>> largest_group(((1,), (0, 2), (1,)), (True, True, True), (4, 4, 1), 5)
    2
    """
    seen = [False] * len(members)
    best = 0
    for start, m in enumerate(members):
        if not m or seen[start]:
            continue
        group = [i for i, r in enumerate(reach(neighbours, members, (start,))) if r]
        for i in group:
            seen[i] = True
        if labels is None:
            size = len(group)
        else:
            bad = [labels[i] for i in group if not 0 <= labels[i] < n_labels]
            if bad:
                raise ValueError(f"label {bad[0]} outside 0..{n_labels - 1}")
            size = len({labels[i] for i in group})
        best = max(best, size)
    return best
