"""One generic traversal of expressions and statements; small queries built on it."""

from __future__ import annotations

from typing import Iterable, Iterator

import attrs

from .nodes import Domain, Expr, Field
from .statements import Assign, ForEach, If, Let


def children(e: Expr) -> Iterator[Expr]:
    """The sub-expressions of ``e`` (including a binder's domain bound)."""
    for a in e.args:
        if isinstance(a, Expr):
            yield a
        elif isinstance(a, Domain):
            yield a.hi


def walk(e: Expr) -> Iterator[Expr]:
    """``e`` and all its descendants, parents first."""
    stack = [e]
    while stack:
        node = stack.pop()
        yield node
        stack.extend(children(node))


def walk_distinct(e: Expr) -> Iterator[Expr]:
    """``e`` and its descendants, each node once however often it is shared (a value a
    helper built once and used twice is one node: its parts are visited once)."""
    seen: set[int] = set()
    stack = [e]
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        yield node
        stack.extend(children(node))


def conjuncts(cond: Expr) -> list[Expr]:
    """The parts of a conjunction (nested ones flattened); ``[cond]`` for anything else."""
    if cond.op == "and":
        return [p for a in cond.args if isinstance(a, Expr) for p in conjuncts(a)]
    return [cond]


def written_out(e: Expr) -> tuple[int, int]:
    """How many nodes ``e`` has written out as a tree (what the backends compile), and how
    many distinct ones: a value used twice inside itself (``b = if_(x > b, x, b)`` in a
    loop) doubles the first at every step.

    >>> from rulespec.ir.nodes import INT, if_
    >>> b = x = Expr("param", ("x", None), INT)
    >>> for _ in range(10):
    ...     b = if_(x > b, x, b)
    >>> written_out(b)
    (5116, 21)
    """
    size: dict[int, int] = {}
    stack: list[tuple[Expr, bool]] = [(e, False)]
    while stack:  # post-order: a node's size once its children's are known
        node, ready = stack.pop()
        if id(node) in size:
            continue
        kids = list(children(node))
        if ready:
            size[id(node)] = 1 + sum(size[id(c)] for c in kids)
        else:
            stack.append((node, True))
            stack.extend((c, False) for c in kids if id(c) not in size)
    return size[id(e)], len(size)


def with_params(e: Expr, values: dict[str, Expr]) -> Expr:
    """``e`` with the action parameters named in ``values`` replaced (a parameter becomes a
    quantifier's variable, say); shared nodes stay shared."""
    memo: dict[int, Expr] = {}

    def go(x: Expr) -> Expr:
        done = memo.get(id(x))
        if done is not None:
            return done
        if x.op == "param" and x.args[0] in values:
            out = values[x.args[0]]
        else:
            args = tuple(go(a) if isinstance(a, Expr) else
                         attrs.evolve(a, hi=go(a.hi)) if isinstance(a, Domain) else a
                         for a in x.args)
            same = all(a is b for a, b in zip(args, x.args))
            out = x if same else Expr(x.op, args, x.type, x.where, x.label, x.name, x.assumed)
        memo[id(x)] = out
        return out
    return go(e)


def statement_exprs(stmts: Iterable) -> Iterator[Expr]:
    """Every expression that appears in a statement list (targets, values, conditions)."""
    for st in stmts:
        if isinstance(st, Assign):
            yield st.target
            yield st.value
        elif isinstance(st, Let):
            yield st.var
            yield st.value
        elif isinstance(st, If):
            yield st.cond
            yield from statement_exprs(st.then)
            yield from statement_exprs(st.otherwise)
        elif isinstance(st, ForEach):
            yield st.var
            yield st.domain.hi
            yield from statement_exprs(st.body)


def walk_statements(stmts: Iterable) -> Iterator:
    """Every statement, nested ones included."""
    for st in stmts:
        yield st
        if isinstance(st, If):
            yield from walk_statements(st.then)
            yield from walk_statements(st.otherwise)
        elif isinstance(st, ForEach):
            yield from walk_statements(st.body)


def params_used(e: Expr) -> set[str]:
    """Names of the action parameters ``e`` reads."""
    return {n.args[0] for n in walk(e) if n.op == "param"}


def fields_read(exprs: Iterable[Expr]) -> set[Field]:
    """Fields read anywhere in ``exprs``."""
    return {n.args[0] for e in exprs for n in walk(e) if n.op == "field"}


def fields_written(stmts: Iterable) -> set[Field]:
    """Fields assigned anywhere in ``stmts``."""
    return {st.target.args[0] for st in walk_statements(stmts) if isinstance(st, Assign)}
