"""The rule index: every spec element with a stable id, its source, its English reading.

Elements are actions, their preconditions and effect branches (each side of a
``when``/``otherwise``), the scoring rule and its clauses, tie-breaks and constants. Branch
labels are the spec's names for them or their conditions in English
(``rulespec.ir.branches``), the ones the dead-rule checker names
(``rule_can_apply:<action>:<label>``).
"""

from __future__ import annotations

import hashlib
import re
from typing import Any, Iterator

import attrs

from ..ir.branches import branch_labels, score_clauses
from ..ir.english import definitions, statements_to_english, to_english
from ..ir.location import Location
from ..ir.nodes import BOOL, Expr
from ..ir.statements import If
from ..ir.walk import fields_read, fields_written, statement_exprs, walk_statements
from ..spec.elements import Action, GameSpec

#: an English reading longer than this is cut (the JSON keeps the cut text and says so)
ENGLISH_LIMIT = 600
#: one expression of a rule is summarised past this many characters, pointing at its line
EXPR_LIMIT = 400
#: a branch's id is its label's first characters (made unique)
SLUG_LIMIT = 32


@attrs.frozen
class Branch:
    """One side of a ``when`` in an action's effects."""

    statement: If
    side: bool
    label: str


def branches(action: Action) -> list[Branch]:
    """Each ``when`` (and ``otherwise``) of the action's effects, in order, labelled."""
    labels = branch_labels(action.effects)
    out: list[Branch] = []
    for st in walk_statements(action.effects):
        if isinstance(st, If):
            out.append(Branch(st, True, labels[(id(st), True)]))
            if st.otherwise:
                out.append(Branch(st, False, labels[(id(st), False)]))
    return out


def slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_-]+", "-", text).strip("-")


def source_id(source: str | None) -> str | None:
    """A stable anchor for a source citation."""
    if not source:
        return None
    return "src-" + hashlib.sha1(source.encode()).hexdigest()[:10]


def english(e: Expr | None = None, lines: list[str] | None = None,
            where: Any = None) -> dict[str, Any]:
    """A rule's reading for the index: an expression, or lines of effects; past
    ``ENGLISH_LIMIT`` characters, whole lines are kept and the rest is pointed at."""
    if e is not None:
        text = to_english(e, limit=EXPR_LIMIT, where=where)
        return {"text": text, "truncated": len(text) > ENGLISH_LIMIT}
    lines = list(lines or [])
    text = "\n".join(lines)
    if len(text) <= ENGLISH_LIMIT:
        return {"text": text, "truncated": False}
    kept: list[str] = []
    for line in lines:
        if len("\n".join(kept + [line])) > ENGLISH_LIMIT - 60:
            break
        kept.append(line)
    more = len(lines) - len(kept)
    kept.append(f"  … and {more} more line{'s' if more > 1 else ''}"
                + (f" (in full: {where})" if where else ""))
    return {"text": "\n".join(kept), "truncated": True}


def _where(x: Any) -> str | None:
    w = getattr(x, "where", None)
    return f"{w.file}:{w.line}" if w else None


def rule_entries(spec: GameSpec) -> Iterator[dict[str, Any]]:
    """Every element of the rule index as a JSON-ready dict (flags filled in later)."""
    ids: dict[str, int] = {}

    def unique(rid: str) -> str:  # two labels may slug alike ("x < 1", "x > 1")
        ids[rid] = ids.get(rid, 0) + 1
        return rid if ids[rid] == 1 else f"{rid}-{ids[rid]}"

    shared = _shared_definitions(spec)
    for a in spec.actions:
        aid = f"a-{slug(a.name)}"
        params = ", ".join(f"{p.name} in {p.domain.label or p.domain.type}" for p in a.params)
        yield _entry(aid, "chance" if a.chance else "action", a.name, None, a.source,
                     _where(a), english(lines=[" ".join(a.doc.split()) if a.doc
                                               else f"{a.name}({params})"]),
                     params=params, writes=sorted(f.name for f in fields_written(a.effects)))
        for k, pre in enumerate(a.preconditions):
            yield _entry(f"{aid}-pre-{k}", "precondition", pre.text, aid, pre.source,
                         _where(pre), english(pre.cond, where=pre.where),
                         reads=sorted(f.name for f in fields_read([pre.cond])))
        used = [pre.cond for pre in a.preconditions] + list(statement_exprs(a.effects))
        yield from _definitions(definitions(used), aid, unique, shared)
        for b in branches(a):
            st = b.statement
            body = st.then if b.side else st.otherwise
            cond = to_english(st.cond, limit=EXPR_LIMIT, where=st.where)
            head = (f"{'when' if b.side else 'unless'} {cond}:" if cond not in ("true", "false")
                    else ("always:" if (cond == "true") == b.side else "never:"))
            lines = [head,
                     *statements_to_english(body, "  ", limit=EXPR_LIMIT)]
            yield _entry(unique(f"{aid}-{slug(b.label)[:SLUG_LIMIT].rstrip('-')}"), "branch",
                         b.label, aid,
                         (st.source if b.side else st.else_source) or a.source, _where(st),
                         english(lines=lines, where=_where(st)),
                         writes=sorted(f.name for f in fields_written(body)))
    sc = spec.scoring
    yield _entry("score", "scoring", "score", None, sc.source, _where(sc),
                 english(sc.score, where=sc.where))
    for clause in score_clauses(sc.score):
        cond = to_english(clause.conds[0].args[0], limit=EXPR_LIMIT, where=sc.where)
        for label, side in ((clause.then, True), (clause.otherwise, False)):
            where = f"{sc.where.file}:{clause.line}" if sc.where else None
            yield _entry(unique(f"score-{slug(label)[:SLUG_LIMIT].rstrip('-')}"),
                         "scoring clause", label, "score",
                         sc.source, where,
                         english(lines=[f"{'when' if side else 'unless'} {cond}"]))
    for k, tb in enumerate(spec.tie_breaks):
        order = "lower" if tb.lower_wins else "higher"
        key = to_english(tb.key, limit=EXPR_LIMIT, where=tb.where)
        yield _entry(f"tie-{k}", "tie-break", f"tie-break {k + 1}", None, tb.source,
                     _where(tb), english(lines=[f"among tied players, the {order} "
                                                f"{key} wins"]))
    if spec.shared_ties is not None:
        yield _entry("shared-ties", "tie-break", "shared ties", None, spec.shared_ties.source,
                     _where(spec.shared_ties),
                     english(lines=["players still tied share the victory"]))
    rest = [spec.current_player.expr, spec.terminal.expr, sc.score,
            *(r.expr for r in (spec.chance_node,) if r is not None),
            *(tb.key for tb in spec.tie_breaks), *(i.cond for i in spec.invariants),
            *(c.total for c in spec.conservation)]
    yield from _definitions(shared + [d for d in definitions(rest)
                                      if not any(_same(d, x) for x in shared)], None, unique, [])
    for c in spec.constants:
        yield _entry(f"c-{slug(c.name)}", "constant", c.name, None, c.source, _where(c),
                     english(lines=[f"{c.name} = {c.value}"]), value=c.value)


def _same(a: tuple[str, Expr], b: tuple[str, Expr]) -> bool:
    return a[0] == b[0] and a[1].same_as(b[1])


def _shared_definitions(spec: GameSpec) -> list[tuple[str, Expr]]:
    """The named values (``called``) that more than one action reads: listed once, for
    the game, not under each action."""
    seen: list[tuple[tuple[str, Expr], int]] = []
    for a in spec.actions:
        used = [pre.cond for pre in a.preconditions] + list(statement_exprs(a.effects))
        for d in definitions(used):
            k = next((i for i, (x, _) in enumerate(seen) if _same(x, d)), None)
            if k is None:
                seen.append((d, 1))
            else:
                seen[k] = (seen[k][0], seen[k][1] + 1)
    return [d for d, n in seen if n > 1]


def _definitions(found: list[tuple[str, Expr]], parent: str | None, unique: Any,
                 shared: list[tuple[str, Expr]]) -> Iterator[dict[str, Any]]:
    """A row for each value the spec named (``called``) that these rules read, but for
    those listed for the whole game: the rules say the name, the row what it stands for
    (no source of its own: the rules that read it cite theirs)."""
    for name, value in found:
        if any(_same((name, value), x) for x in shared):
            continue
        said = to_english(value, limit=EXPR_LIMIT)
        verb = "means" if value.type == BOOL else "is"
        yield _entry(unique(f"{parent or 'game'}-def-{slug(name)}"), "definition", name, parent,
                     None, f"{value.where.file}:{value.where.line}" if value.where else None,
                     english(lines=[f"{name} {verb} {said}"]))


def _entry(rid: str, kind: str, name: str, parent: str | None, source: str | None,
           where: str | None, eng: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {"id": rid, "kind": kind, "name": name, "parent": parent, "source": source,
            "source_id": source_id(source), "where": where, "english": eng["text"],
            "english_truncated": eng["truncated"], **extra}
