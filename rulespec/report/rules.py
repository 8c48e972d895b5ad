"""The rule index: every spec element with a stable id, its source, its English reading.

Elements are actions, their preconditions and effect branches (each side of a
``when``/``otherwise``), the scoring rule and its clauses, tie-breaks and constants. Branch
labels (``when@LINE``, ``otherwise@LINE``, ``#k`` for a helper's repeat on one line) are
the ones the dead-rule checker names (``rule_can_apply:<action>:<label>``).
"""

from __future__ import annotations

import hashlib
import re
from typing import Any, Iterator

import attrs

from ..ir.english import statements_to_english, to_english
from ..ir.nodes import Expr
from ..ir.statements import If
from ..ir.walk import fields_read, fields_written, walk, walk_statements
from ..spec.elements import Action, GameSpec

#: an English reading longer than this is cut (the JSON keeps the cut text and says so)
ENGLISH_LIMIT = 600


@attrs.frozen
class Branch:
    """One side of a ``when`` in an action's effects."""

    statement: If
    side: bool
    label: str


def branches(action: Action) -> list[Branch]:
    """Each ``when`` (and ``otherwise``) of the action's effects, in order, labelled."""
    out: list[Branch] = []
    seen: dict[Any, int] = {}
    for st in walk_statements(action.effects):
        if not isinstance(st, If):
            continue
        line = st.where.line if st.where else "?"
        seen[line] = seen.get(line, 0) + 1
        at = f"{line}" if seen[line] == 1 else f"{line}#{seen[line]}"
        out.append(Branch(st, True, f"when@{at}"))
        if st.otherwise:
            out.append(Branch(st, False, f"otherwise@{at}"))
    return out


def score_clauses(spec: GameSpec) -> dict[Any, list[Expr]]:
    """The conditionals of the scoring rule by source line (as the dead-rule checker
    groups them): a rule written once for every village is one clause."""
    by_line: dict[Any, list[Expr]] = {}
    score = spec.scoring.score
    bound = {id(n) for b in walk(score) if b.op in ("exists", "forall", "sum", "count")
             for n in walk(b.args[2])}
    for e in walk(score):
        if e.op == "ite" and id(e) not in bound:
            by_line.setdefault(e.where.line if e.where else "?", []).append(e)
    return by_line


def slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_-]+", "-", text).strip("-")


def source_id(source: str | None) -> str | None:
    """A stable anchor for a source citation."""
    if not source:
        return None
    return "src-" + hashlib.sha1(source.encode()).hexdigest()[:10]


def english(e: Expr | None = None, lines: list[str] | None = None) -> dict[str, Any]:
    text = to_english(e) if e is not None else "\n".join(lines or [])
    cut = len(text) > ENGLISH_LIMIT
    return {"text": text[:ENGLISH_LIMIT] + ("…" if cut else ""), "truncated": cut}


def _where(x: Any) -> str | None:
    w = getattr(x, "where", None)
    return f"{w.file}:{w.line}" if w else None


def rule_entries(spec: GameSpec) -> Iterator[dict[str, Any]]:
    """Every element of the rule index as a JSON-ready dict (flags filled in later)."""
    for a in spec.actions:
        aid = f"a-{slug(a.name)}"
        params = ", ".join(f"{p.name} in {p.domain.label or p.domain.type}" for p in a.params)
        yield _entry(aid, "chance" if a.chance else "action", a.name, None, a.source,
                     _where(a), english(lines=[a.doc] if a.doc else [f"{a.name}({params})"]),
                     params=params, writes=sorted(f.name for f in fields_written(a.effects)))
        for k, pre in enumerate(a.preconditions):
            yield _entry(f"{aid}-pre-{k}", "precondition", pre.text, aid, pre.source,
                         _where(pre), english(pre.cond),
                         reads=sorted(f.name for f in fields_read([pre.cond])))
        for b in branches(a):
            body = b.statement.then if b.side else b.statement.otherwise
            cond = to_english(b.statement.cond)
            lines = [f"{'when' if b.side else 'unless'} {cond}:",
                     *statements_to_english(body, "  ")]
            yield _entry(f"{aid}-{slug(b.label)}", "branch", b.label, aid,
                         b.statement.source or a.source, _where(b.statement),
                         english(lines=lines),
                         writes=sorted(f.name for f in fields_written(body)))
    sc = spec.scoring
    yield _entry("score", "scoring", "score", None, sc.source, _where(sc), english(sc.score))
    for line, conds in score_clauses(spec).items():
        for side in ("then", "else"):
            word = "when" if side == "then" else "unless"
            yield _entry(f"score-{slug(str(line))}-{side}", "scoring clause",
                         f"score@{line}:{side}", "score", sc.source,
                         f"{sc.where.file}:{line}" if sc.where else None,
                         english(lines=[f"{word} {to_english(conds[0].args[0])}"]))
    for k, tb in enumerate(spec.tie_breaks):
        order = "lower" if tb.lower_wins else "higher"
        yield _entry(f"tie-{k}", "tie-break", f"tie-break {k + 1}", None, tb.source,
                     _where(tb), english(lines=[f"among tied players, the {order} "
                                                f"{to_english(tb.key)} wins"]))
    if spec.shared_ties is not None:
        yield _entry("shared-ties", "tie-break", "shared ties", None, spec.shared_ties.source,
                     _where(spec.shared_ties),
                     english(lines=["players still tied share the victory"]))
    for c in spec.constants:
        yield _entry(f"c-{slug(c.name)}", "constant", c.name, None, c.source, _where(c),
                     english(lines=[f"{c.name} = {c.value}"]), value=c.value)


def _entry(rid: str, kind: str, name: str, parent: str | None, source: str | None,
           where: str | None, eng: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {"id": rid, "kind": kind, "name": name, "parent": parent, "source": source,
            "source_id": source_id(source), "where": where, "english": eng["text"],
            "english_truncated": eng["truncated"], **extra}
