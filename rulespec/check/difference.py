"""A difference between two readings, in rule terms: the records ``rulespec diff`` answers
with and how a found candidate becomes one.

:func:`describe` replays a candidate (a start, common actions, and the last action or end
where the readings part) and names what differs: the preconditions that refuse the action
under one reading, the effects that read the point and the cells they leave different, or
the scoring and tie-break rules and the two results. :func:`explain` says it in plain
lines.
"""

from __future__ import annotations

import json
from typing import Any, Callable, Iterable, Sequence

import attrs

from ..runtime.model import CHANCE, TERMINAL, Action, Model, State
from .cause import DecidingValue, deciding_values
from .explain import RuleRef, changed_cells, dependent_effects, points_read, refusing_rules


#: what each kind of difference is, in words
KIND_WORDS = {"effect": "the same action has different effects",
              "legality": "an action one reading allows, the other refuses",
              "outcome": "the same end is scored differently"}


@attrs.frozen
class Bound:
    """How far a comparison looked: SAME means no difference within this, nothing more."""

    depth: int                      # actions after each start
    start: str                      # "setup" or the scenario FILE#NAME searched from
    setups: int | None              # setups sampled per player count (None: a scenario)
    players: tuple[int, int]        # the player counts searched, lowest and highest
    nodes: int                      # the search's node budget
    sampled: bool                   # the setup's chance steps were sampled, not all tried
    trimmed: bool                   # a layer kept only its simplest states
    games: int                      # lockstep games played besides, which did not part
    #: every choice and chance outcome expanded within ``depth``: nothing left out
    exhaustive: bool = attrs.field(init=False)

    def __attrs_post_init__(self) -> None:
        object.__setattr__(self, "exhaustive", not (self.sampled or self.trimmed))

    def __str__(self) -> str:
        where = "any setup" if self.start == "setup" else "the scenario's situation"
        players = (f"{self.players[0]} players" if self.players[0] == self.players[1]
                   else f"{self.players[0]}-{self.players[1]} players")
        left_out = ([f"{self.setups} sampled setup(s) per player count"] if self.sampled
                    else []) + (["each layer kept only its simplest states"]
                                if self.trimmed else [])
        how = ("every choice and chance outcome expanded" if self.exhaustive else
               "not exhaustive: " + ", ".join(left_out))
        games = f"; nor in {self.games} lockstep games" if self.games else ""
        return f"within {self.depth} actions of {where}, {players} ({how}){games}"


@attrs.frozen
class PointChange:
    """One interpretation point on which the two readings differ."""

    point: str
    question: str
    a: str
    a_source: str
    b: str
    b_source: str


@attrs.frozen
class Difference:
    """Where the readings part: a start, common actions, and what differs then.

    ``given`` are the actions from setup to the start (the setup's chance steps, or the
    scenario's given actions, then its edits when ``edited``); ``steps`` the actions after
    the start, whose last one is ``action`` (None when the start itself ends differently).
    """

    players: int
    start: str                                  # "setup" or "FILE#NAME"
    given: tuple[str, ...]
    edited: bool
    steps: tuple[str, ...]
    movers: tuple[int | str, ...]               # who took each step ("chance" for chance)
    action: str | None
    kind: str                                   # one of KINDS
    legal_under: tuple[str, ...] = ()           # legality: "a" or "b"
    refused_by: tuple[RuleRef, ...] = ()        # legality: the refusing preconditions
    cells: dict[str, tuple[Any, Any, Any]] = attrs.field(factory=dict)  # before, a, b
    outcome: dict[str, Any] = attrs.field(factory=dict)   # terminal/scores/winners a, b
    rules: tuple[RuleRef, ...] = ()             # rule elements reading the points
    points: tuple[str, ...] = ()                # the differing points those rules read
    complexity: int = 0
    found_by: str = "search"                    # "search" or "random play"
    explanation: tuple[str, ...] = ()
    #: the values the action computes that differ between the readings: the cause
    values: tuple[DecidingValue, ...] = ()

    @property
    def actions(self) -> tuple[str, ...]:
        """Every action from setup: the given actions, then the steps."""
        return self.given + self.steps

    @property
    def setup_steps(self) -> int:
        return len(self.given)


def rule_cells(model: Model) -> Callable[[tuple], tuple]:
    """A state vector without its bookkeeping fields (``field(..., bookkeeping=True)``):
    two readings whose states differ only there have not parted yet."""
    kept = [k for slot in model.layout.slots.values() if not slot.field.bookkeeping
            for k in range(slot.offset, slot.offset + slot.field.size)]
    if len(kept) == model.layout.size:
        return lambda values: values
    return lambda values: tuple(values[k] for k in kept)


def _apply_b(mb: Model, sb: State, action: Action) -> State:
    """Apply reading A's action to reading B's state (same spec: the same key)."""
    return State(mb.compiled.apply[action.key[0]](sb.values, *action.key[1:]), mb)


# =====================================================================================
# Describing a candidate
# =====================================================================================
def describe(ma: Model, mb: Model, cand: Any, points: Sequence[PointChange],
             found_by: str = "search") -> Difference:
    """A candidate of the search (its ``start``, ``prefix``, ``action``, ``kind`` and
    ``complexity``) as a :class:`Difference`, with its explanation in rule terms."""
    start = cand.start
    sa, sb = start.a, start.b
    movers: list[int | str] = []
    for a in cand.prefix:
        movers.append(_mover(ma, sa))
        sa, sb = ma.apply(sa, a), _apply_b(mb, sb, a)
    names = {p.point for p in points}
    steps = tuple(str(a) for a in cand.prefix)
    fields: dict[str, Any] = {}
    legal_under: tuple[str, ...] = ()
    refused: tuple[RuleRef, ...] = ()
    rules: list[RuleRef] = []
    outcome: dict[str, Any] = {}
    values: tuple[DecidingValue, ...] = ()
    ta, tb = sa, sb
    if cand.action is not None:
        values = tuple(deciding_values(ma, mb, sa, sb, cand.action, names))
        movers.append(_mover(ma, sa))
        steps += (str(cand.action),)
        spec_action = ma.spec.actions[cand.action.key[0]]
        if cand.kind == "legality":
            in_a = cand.action.key in set(ma.compiled.legal(sa.values))
            legal_under = ("a",) if in_a else ("b",)
            refuser, state = (mb, sb) if in_a else (ma, sa)
            refused = tuple(refusing_rules(refuser, state, cand.action, names))
        else:
            ta = State(ma.compiled.apply[cand.action.key[0]](sa.values, *cand.action.key[1:]), ma)
            tb = _apply_b(mb, sb, cand.action)
            kept = {f.name for f in ma.spec.fields if not f.bookkeeping}
            diff = {cell: values for cell, values in changed_cells(ma, ta.values, tb.values)
                    .items() if cell.split("[")[0] in kept}  # not the bookkeeping's
            before = changed_cells(ma, sa.values, ta.values)
            before_b = changed_cells(ma, sa.values, tb.values)
            for cell, (va, vb) in diff.items():
                old = (before.get(cell) or before_b.get(cell) or (va, None))[0]
                fields[cell] = (old, va, vb)
            written = {c.split("[")[0] for c in diff}
            rules = [r for f, r in dependent_effects(spec_action)
                     if f in written and set(r.points) & names]
    if cand.kind == "outcome":
        outcome = {"a": _end(ma, ta), "b": _end(mb, tb)}
        rules += _end_rules(ma, names)
    used = sorted({p for r in (*refused, *rules) for p in r.points} & names) or sorted(names)
    d = Difference(start.players, start.label, start.given, start.edited, steps,
                   tuple(movers), str(cand.action) if cand.action is not None else None,
                   cand.kind, legal_under, refused, fields, outcome, tuple(_unique(rules)),
                   tuple(used), cand.complexity, found_by, values=values)
    return attrs.evolve(d, explanation=tuple(explain(d, points)))


def _mover(model: Model, state: State) -> int | str:
    p = model.current_player(state)
    return "chance" if p == CHANCE else p


def _end(model: Model, state: State) -> dict[str, Any]:
    over = model.is_terminal(state)
    return {"terminal": over, "scores": model.scores(state) if over else None,
            "winners": model.winners(state) if over else None,
            "current_player": _who(model.current_player(state))}


def _who(p: int) -> int | str:
    return {CHANCE: "chance", TERMINAL: "nobody"}.get(p, p)


def _end_rules(model: Model, names: set[str]) -> list[RuleRef]:
    spec = model.spec
    out = []
    if points_read(spec.scoring.score) & names:
        out.append(RuleRef("scoring", "the final score", spec.scoring.source,
                           tuple(sorted(points_read(spec.scoring.score) & names))))
    for tb in spec.tie_breaks:
        if points_read(tb.key) & names:
            out.append(RuleRef("tie-break", "a tie-break", tb.source,
                               tuple(sorted(points_read(tb.key) & names))))
    for what, rule in (("the end of the game", spec.terminal),
                       ("whose turn it is", spec.current_player)):
        if points_read(rule.expr) & names:
            out.append(RuleRef("flow", what, rule.source,
                               tuple(sorted(points_read(rule.expr) & names))))
    return out


def _unique(refs: Iterable[RuleRef]) -> list[RuleRef]:
    seen, out = set(), []
    for r in refs:
        k = (r.kind, r.text, r.source)
        if k not in seen:
            seen.add(k)
            out.append(r)
    return out


def explain(d: Difference, points: Sequence[PointChange]) -> list[str]:
    """The difference in plain lines: the situation, the actions, what differs and the
    rule (with its source) that makes it differ."""
    by = {p.point: p for p in points}
    la = ", ".join(f"{p.point}={p.a}" for p in points)
    lb = ", ".join(f"{p.point}={p.b}" for p in points)
    where = {"setup": "from setup",
             "random play": f"from a state of a random game ({len(d.given)} steps from setup)",
             }.get(d.start, f"from the situation of {d.start}")
    lines = [f"{where}, {d.players} players"
             + (f" (after {len(d.given)} setup step(s))" if d.start == "setup" and d.given
                else "")]
    shown = d.steps if d.action is None else d.steps[:-1]
    for i, (text, who) in enumerate(zip(shown, d.movers), 1):
        lines.append(f"  {i}. {_who_text(who)}: {text}")
    if d.action is not None:
        who = _who_text(d.movers[-1])
        n = len(d.steps)
        if d.kind == "legality":
            ok, no = (la, lb) if d.legal_under == ("a",) else (lb, la)
            lines.append(f"  {n}. {who}: {d.action}")
            lines.append(f"is allowed under {ok} but refused under {no}:")
            for r in d.refused_by:
                lines.append(f"  {r.text} [{r.source}]")
        else:
            lines.append(f"then the same action, {n}. {who}: {d.action}")
            if d.kind == "effect":
                lines.append("has different effects:")
                for cell, (old, va, vb) in d.cells.items():
                    lines.append(f"  {cell}: {_v(old)} -> {_v(va)} under {la}; "
                                 f"{_v(old)} -> {_v(vb)} under {lb}")
            else:
                lines.append("ends the same way but is scored differently:")
    elif d.kind == "outcome":
        lines.append("this same situation is scored differently:")
    if d.kind == "outcome":
        for tag, label in (("a", la), ("b", lb)):
            o = d.outcome.get(tag, {})
            lines.append(f"  under {label}: scores {o.get('scores')}, winners "
                         f"{o.get('winners')}" + ("" if o.get("terminal") else " (not over)"))
    for v in d.values:
        lines.append(f"because {v.name} [{v.where}] is {_v(v.a)} under {la} and {_v(v.b)} "
                     f"under {lb}")
    for r in d.rules:
        what = {"effect": f"the effect {r.text}", "scoring": "the scoring rule",
                "tie-break": "the tie-break"}.get(r.kind, r.text)
        lines.append(f"{'through' if d.values else 'because of'} {what} [{r.source}], which "
                     f"reads {', '.join(r.points)}")
    for name in d.points:
        p = by.get(name)
        if p is not None:
            lines.append(f"{p.point}: {p.question}")
            lines.append(f"  {p.a}: {p.a_source}")
            lines.append(f"  {p.b}: {p.b_source}")
    return lines


def _who_text(who: int | str) -> str:
    return "chance" if who == "chance" else f"player {who}"


def _v(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)
