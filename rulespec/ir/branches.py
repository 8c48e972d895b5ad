"""What the rules' branches are called: each side of a ``when`` in an action's effects, and
each clause of the scoring rule, by the name the spec gave it or by its condition in
English (``when deal_step < 19``, ``unless docks[dock_1] = none``). The report, coverage
and the dead-rule checker (``rule_can_apply:<action>:<label>``) all use these labels.

>>> from rulespec.ir.nodes import Expr, Field, INT, lift
>>> from rulespec.ir.statements import Assign, If
>>> step = Field("step", INT, 0, 30, (), 0, None, None)
>>> st = If(lift(step) < 19, (Assign(lift(step), lift(step) + 1),),
...         (Assign(lift(step), lift(0)),))
>>> sorted(branch_labels([st]).values())
['unless step < 19', 'when step < 19']
>>> named = If(lift(step) < 19, (), (), name="the deal goes on")
>>> branch_labels([named])[(id(named), True)]
'the deal goes on'
>>> known = If(lift(3) > 4, (Assign(lift(step), lift(0)),))   # a Python loop wrote 3 > 4
>>> branch_labels([known])[(id(known), True)]
'never: set step to 0'
"""

from __future__ import annotations

from typing import Any, Iterable

import attrs

from .english import statements_to_english, to_english
from .nodes import Expr
from .statements import If
from .walk import walk, walk_statements

#: what the dead-rule checker calls the scoring rule (``rule_can_apply:the score:<label>``;
#: no action can be called so)
SCORE = "the score"
#: a label longer than this is summarised (its condition cut at a shallower nesting)
LABEL_LIMIT = 80


def _unique(label: str, used: dict[str, int]) -> str:
    used[label] = used.get(label, 0) + 1
    return label if used[label] == 1 else f"{label} ({used[label]})"


def condition_label(cond: Expr, then: bool, name: str | None = None,
                    body: tuple = ()) -> str:
    """``when C`` / ``unless C`` for a condition, or the spec's name for it; a condition
    known when the spec loads (a Python loop wrote it) says ``always`` or ``never`` and
    what the branch does."""
    if name is not None:
        return name if then else f"unless {name}"
    said = to_english(cond)
    if said in ("true", "false"):
        runs = (said == "true") == then
        first = statements_to_english(body)[:1] if body else []
        what = f": {first[0].strip().rstrip(':')}" if first else ""
        return ("always" if runs else "never") + what
    if len(said) > LABEL_LIMIT:  # a name, not the rule: its start says which one
        said = said[:said.rfind(" ", 0, LABEL_LIMIT)] + " …"
    return f"{'when' if then else 'unless'} {said}"


def branch_labels(effects: Iterable[Any]) -> dict[tuple[int, bool], str]:
    """``(id(when statement), side) -> label`` for every branch of ``effects``, in
    order; labels are unique within the effects (a repeated one is numbered)."""
    used: dict[str, int] = {}
    out: dict[tuple[int, bool], str] = {}
    for st in walk_statements(effects):
        if isinstance(st, If):
            out[(id(st), True)] = _unique(condition_label(st.cond, True, st.name, st.then),
                                          used)
            if st.otherwise:
                out[(id(st), False)] = _unique(
                    condition_label(st.cond, False, st.name, st.otherwise), used)
    return out


@attrs.frozen
class Clause:
    """A conditional of the scoring rule, with its two sides' labels and its line."""

    then: str
    otherwise: str
    conds: tuple[Expr, ...]
    line: Any


def score_clauses(score: Expr) -> list[Clause]:
    """The conditionals of a scoring rule outside its quantifiers, one clause per source
    line (a rule written once for every village is one clause), labelled by the first
    one's condition."""
    bound = {id(n) for b in walk(score) if b.op in ("exists", "forall", "sum", "count", "let")
             for n in walk(b.args[2])}
    by_line: dict[Any, list[Expr]] = {}
    for e in walk(score):
        if e.op == "ite" and id(e) not in bound:
            by_line.setdefault(e.where.line if e.where else "?", []).append(e)
    used: dict[str, int] = {}
    out = []
    for line, conds in by_line.items():
        c = conds[0].args[0]
        out.append(Clause(_unique(condition_label(c, True), used),
                          _unique(condition_label(c, False), used), tuple(conds), line))
    return out
