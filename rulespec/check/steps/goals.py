"""What a step proof must preserve: the goals (each field's bounds, the rules' evaluability,
every invariant and conservation law), and what a goal's proof reports."""

from __future__ import annotations

import attrs

from ...compile.smt_backend import SmtGame
from ...ir.nodes import BOOL
from ..results import PROVED

BOUNDS = "fields_within_bounds"
RULE_ERRORS = "rules_evaluate_without_error"
#: an action case's queries stop after this many full query budgets (resource units): its
#: goals still open are UNKNOWN
ACTION_BUDGET = 8


@attrs.frozen
class Goal:
    """One thing a step must preserve: what it is (``kind``) and which one (``index``)."""

    name: str
    source: str | None
    kind: str  # "bounds", "errors", "invariant" or "conserved"
    index: int = -1
    field: str = ""  # for "bounds": the field whose cells it covers

    @property
    def reported_as(self) -> str:
        """The property the result belongs to (the bounds of every field are one)."""
        return BOUNDS if self.kind == "bounds" else self.name


def goals_of(smt: SmtGame) -> list[Goal]:
    """The bounds, the rules' evaluability, every invariant (not laws) and every
    conservation law, in the spec's order."""
    generic = "rulespec generic property (docs/verification.md: Generic properties)"
    # the bounds, one goal per field: one hard field must not hide the easy ones
    out = [Goal(f"{BOUNDS}[{f.name}]", generic, "bounds", field=f.name)
           for f in smt.spec.fields if f.type != BOOL]
    out.append(Goal(RULE_ERRORS, generic, "errors"))
    skip = smt.spec.left_to_play  # the spec leaves these to play: never goals nor premises
    out += [Goal(inv.name, inv.source, "invariant", k)
            for k, inv in enumerate(smt.spec.invariants) if not inv.law and inv.name not in skip]
    out += [Goal(law.name, law.source, "conserved", k)
            for k, law in enumerate(smt.spec.conservation) if law.name not in skip]
    return out

@attrs.define
class Verdict:
    status: str = PROVED
    detail: str = ""
    #: the premises (by origin: ``("bounds", field)``, ``("invariant", k)``,
    #: ``("conserved", k)``)
    #: the proofs of this goal used; None: possibly all of them
    used: set[tuple] | None = attrs.field(factory=set)


#: where a premise comes from, as :class:`Premises` names it
Origin = tuple


def own_origin(g: Goal) -> set[Origin]:
    """The premise that says goal ``g`` held before the step (none for errors)."""
    if g.kind == "bounds":
        return {("bounds", g.field)}
    if g.kind in ("invariant", "conserved"):
        return {(g.kind, g.index)}
    return set()

