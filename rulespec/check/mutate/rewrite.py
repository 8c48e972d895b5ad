"""Copies of a spec with some IR nodes, statements or preconditions changed.

Everything a spec is made of is immutable, so a mutant is a new :class:`GameSpec` that
shares every part the change does not reach (``attrs.evolve`` on the records, new
:class:`Expr` nodes only along the path to a changed node). The rule parts are rewritten;
the properties (invariants, conservation laws) and the view are kept as they are: they
are what judges a mutant.

>>> from rulespec.ir.nodes import lift
>>> e = lift(1) < 2
>>> flipped = map_expr(e, lambda n: Expr("ge", n.args, n.type) if n.op == "lt" else None, {})
>>> flipped.op, flipped.args[0] is e.args[0]
('ge', True)
"""

from __future__ import annotations

from typing import Any, Callable, Iterator

import attrs

from ...ir.nodes import Domain, Expr
from ...ir.statements import Assign, ForEach, If, Let
from ...spec.elements import Action, GameSpec, Precondition

#: ``fn(node)``: the node to put instead (its children already rewritten), or None
ExprFn = Callable[[Expr], "Expr | None"]
#: ``fn(original, rewritten)``: the statements to put instead (``[]`` drops it), or None
StmtFn = Callable[[Any, Any], "list | None"]
#: ``fn(action, precondition)``: False drops the precondition
PreFn = Callable[[Action, Precondition], bool]


def map_expr(e: Expr, fn: ExprFn, memo: dict[int, Expr]) -> Expr:
    """``e`` with ``fn`` applied bottom-up; unchanged subtrees are the same objects.

    ``memo`` (by node id) keeps a node shared by several parents shared in the copy.
    """
    hit = memo.get(id(e))
    if hit is not None:
        return hit
    args = []
    changed = False
    for a in e.args:
        if isinstance(a, Expr):
            b: Any = map_expr(a, fn, memo)
        elif isinstance(a, Domain):
            b = _map_domain(a, fn, memo)
        else:
            b = a
        changed = changed or b is not a
        args.append(b)
    # a variable's or a table's name still says what it is; a name or a reading that
    # stands for the whole node (``called``, a code by its parts) no longer does
    name = e.name if e.op == "var" or (e.op == "table" and isinstance(e.name, str)) else None
    node = Expr(e.op, tuple(args), e.type, e.where, e.label, name, e.assumed) if changed else e
    replaced = fn(node)
    out = node if replaced is None else replaced
    memo[id(e)] = out
    return out


def _map_domain(d: Domain, fn: ExprFn, memo: dict[int, Expr]) -> Domain:
    hi = map_expr(d.hi, fn, memo)
    return d if hi is d.hi else attrs.evolve(d, hi=hi)


def map_statements(stmts: tuple, efn: ExprFn | None, sfn: StmtFn | None,
                   memo: dict[int, Expr]) -> tuple:
    """A statement block with every expression mapped by ``efn`` and every statement
    (nested ones first) offered to ``sfn``; the same tuple when nothing changed."""
    out: list = []
    changed = False
    for st in stmts:
        new = _map_statement(st, efn, sfn, memo)
        replaced = sfn(st, new) if sfn is not None else None
        items = [new] if replaced is None else replaced
        changed = changed or len(items) != 1 or items[0] is not st
        out.extend(items)
    return tuple(out) if changed else stmts


def _map_statement(st: Any, efn: ExprFn | None, sfn: StmtFn | None,
                   memo: dict[int, Expr]) -> Any:
    def ex(e: Expr) -> Expr:
        return map_expr(e, efn, memo) if efn is not None else e

    def block(b: tuple) -> tuple:
        return map_statements(b, efn, sfn, memo)

    if isinstance(st, Assign):
        target, value = ex(st.target), ex(st.value)
        if target is st.target and value is st.value:
            return st
        return attrs.evolve(st, target=target, value=value)
    if isinstance(st, Let):
        value = ex(st.value)
        return st if value is st.value else attrs.evolve(st, value=value)
    if isinstance(st, If):
        cond, then, otherwise = ex(st.cond), block(st.then), block(st.otherwise)
        if cond is st.cond and then is st.then and otherwise is st.otherwise:
            return st
        return attrs.evolve(st, cond=cond, then=then, otherwise=otherwise)
    if isinstance(st, ForEach):
        body = block(st.body)
        domain = _map_domain(st.domain, efn, memo) if efn is not None else st.domain
        if body is st.body and domain is st.domain:
            return st
        return attrs.evolve(st, body=body, domain=domain)
    raise TypeError(f"not a statement: {st!r}")  # pragma: no cover - a closed set


def map_spec(spec: GameSpec, *, efn: ExprFn | None = None, sfn: StmtFn | None = None,
             pfn: PreFn | None = None) -> GameSpec:
    """The spec with its rules rewritten: setup, actions (preconditions, effects, chance
    weights), the flow rules, the score and the tie-break keys."""
    memo: dict[int, Expr] = {}

    def ex(e: Expr | None) -> Expr | None:
        return map_expr(e, efn, memo) if e is not None and efn is not None else e

    def rule(r: Any) -> Any:
        if r is None:
            return None
        e = ex(r.expr)
        return r if e is r.expr else attrs.evolve(r, expr=e)

    actions = []
    for a in spec.actions:
        pres = []
        for p in a.preconditions:
            if pfn is not None and not pfn(a, p):
                continue
            cond = ex(p.cond)
            pres.append(p if cond is p.cond else attrs.evolve(p, cond=cond))
        effects = map_statements(a.effects, efn, sfn, memo)
        weight = ex(a.weight)
        same = (len(pres) == len(a.preconditions)
                and all(x is y for x, y in zip(pres, a.preconditions))
                and effects is a.effects and weight is a.weight)
        actions.append(a if same else attrs.evolve(a, preconditions=tuple(pres),
                                                   effects=effects, weight=weight))
    score = ex(spec.scoring.score)
    tie_breaks = []
    for tb in spec.tie_breaks:
        key = ex(tb.key)
        tie_breaks.append(tb if key is tb.key else attrs.evolve(tb, key=key))
    return attrs.evolve(
        spec, setup=map_statements(spec.setup, efn, sfn, memo), actions=tuple(actions),
        current_player=rule(spec.current_player), chance_node=rule(spec.chance_node),
        terminal=rule(spec.terminal),
        scoring=(spec.scoring if score is spec.scoring.score
                 else attrs.evolve(spec.scoring, score=score)),
        tie_breaks=tuple(tie_breaks))


# --- reading the rules: every place a mutation can reach --------------------------------
@attrs.frozen
class Place:
    """Where in the rules a node or statement sits, in words a rules editor reads."""

    #: "precondition", "effect", "setup", "weight", "current_player", "chance_node",
    #: "terminal", "score", "tie_break"
    part: str
    #: the action's name (None outside actions)
    action: str | None
    #: the citation of the closest enclosing element that has one
    source: str | None
    #: the precondition's text, or the statement in English
    text: str | None = None


def rule_exprs(spec: GameSpec) -> Iterator[tuple[Expr, Place]]:
    """Every top-level expression of the rules, with its place (statements' expressions
    come through :func:`rule_statements`)."""
    for a in spec.actions:
        for p in a.preconditions:
            yield p.cond, Place("precondition", a.name, p.source or a.source, p.text)
        if a.weight is not None:
            yield a.weight, Place("weight", a.name, a.source)
    for part in ("current_player", "chance_node", "terminal"):
        r = getattr(spec, part)
        if r is not None:
            yield r.expr, Place(part, None, r.source)
    yield spec.scoring.score, Place("score", None, spec.scoring.source)
    for k, tb in enumerate(spec.tie_breaks):
        yield tb.key, Place("tie_break", None, tb.source, f"tie-break {k + 1}")


def rule_statements(spec: GameSpec) -> Iterator[tuple[Any, Place]]:
    """Every statement of the setup and of the actions' effects, nested ones included,
    with its place (the source is the closest one given on it or around it)."""
    yield from _statements(spec.setup, "setup", None, spec.setup_source)
    for a in spec.actions:
        yield from _statements(a.effects, "effect", a.name, a.source)


def _statements(stmts: tuple, part: str, action: str | None, source: str | None
                ) -> Iterator[tuple[Any, Place]]:
    for st in stmts:
        here = getattr(st, "source", None) or source
        yield st, Place(part, action, here)
        if isinstance(st, If):
            yield from _statements(st.then, part, action, here)
            yield from _statements(st.otherwise, part, action, here)
        elif isinstance(st, ForEach):
            yield from _statements(st.body, part, action, here)


def statement_exprs_of(st: Any) -> list[Expr]:
    """The expressions a statement itself holds (not those of nested statements)."""
    if isinstance(st, Assign):
        return [st.target, st.value]
    if isinstance(st, Let):
        return [st.value]
    if isinstance(st, If):
        return [st.cond]
    if isinstance(st, ForEach):
        return [st.domain.hi]
    return []
