"""``rulespec diff``: where two readings of the rules part, explained in rule terms.

Both readings are compiled from the same spec and searched in lockstep from a start: the
setup (its chance steps sampled with seeds) or a scenario's given situation (``--from``).
A difference a person understands is preferred:

* **fewest steps** after the start (iterative deepening, at most ``depth`` actions);
* then **the same action with different effects** (or the same end scored differently)
  over an action that one reading allows and the other refuses;
* then **the simplest actions**: every parameter value has a rank (an enum's first member,
  the number nearest zero or the lowest are simplest), and a difference's complexity is
  the sum over its actions. Like Hypothesis, a found difference is then *shrunk*: each
  earlier action is replaced by simpler ones, or dropped, while the difference remains.

The answer names the differing points (each option with its source), the actions, and
the rule that makes the difference: the precondition that refuses the action under one
reading, or the effects that read the point and the cells they leave different. With
``games``, seeded games in lockstep (random players, or a stronger ``policy``) say how
often the readings part and how often the winner changes (``impact.py``). The difference
is saved as a scenario file pinning each reading, with the impact stored in it.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any, Iterable, Sequence

import attrs

from ..runtime.model import CHANCE, TERMINAL, Action, Model, State
from .diff_scenario import game_ref, save_scenario
from .explain import (RuleRef, action_points, changed_cells, dependent_effects, global_points,
                      points_read, refusing_rules)
from .impact import Impact, lockstep
from .policy import Policy
from .progress import QUIET, Progress
from .results import PASSED, PROVED, UNKNOWN, VIOLATED

#: chance nodes with at most this many outcomes are expanded completely
FULL_CHANCE = 12
#: difference kinds, best first: the same action with other effects (or the same end
#: scored otherwise) reads better than an action one reading refuses
KINDS = ("effect", "outcome", "legality")


# =====================================================================================
# Records (all JSON-able through ``to_json``)
# =====================================================================================
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

    @property
    def actions(self) -> tuple[str, ...]:
        """Every action from setup: the given actions, then the steps."""
        return self.given + self.steps

    @property
    def setup_steps(self) -> int:
        return len(self.given)


@attrs.frozen
class DiffReport:
    """The answer of ``rulespec diff``: one clean record, ``to_json()`` has everything."""

    game: str
    a: dict[str, str]               # the options of reading A that differ from B
    b: dict[str, str]
    a_label: str                    # "ruleset rulebook", "beach_return=free", ...
    b_label: str
    points: tuple[PointChange, ...]
    status: str                     # VIOLATED (they differ), PROVED/PASSED equivalent, UNKNOWN
    detail: str
    difference: Difference | None
    impact: Impact | None
    scenario_path: str | None = None
    nodes: int = 0
    depth: int = 0
    seed: int = 0
    start: str = "setup"
    #: why the scenario file could not be written (the verdict stands without it)
    scenario_error: str | None = None

    @property
    def lockstep(self) -> Impact | None:   # the name used before impact had intervals
        return self.impact

    def to_json(self) -> dict[str, Any]:
        return attrs.asdict(self, recurse=True)


# =====================================================================================
# Where a search starts
# =====================================================================================
@attrs.frozen
class Start:
    """Equal states of both readings to search from, and how they were reached."""

    label: str
    players: int
    given: tuple[str, ...]
    edited: bool
    a: State = attrs.field(eq=False, repr=False)
    b: State = attrs.field(eq=False, repr=False)
    edits: tuple[tuple[str, Any], ...] = ()     # a scenario's given.edits (ref, value)


def setup_starts(ma: Model, mb: Model, n: int, samples: int, seed: int
                 ) -> tuple[list[Start], list["_Candidate"], bool]:
    """States after the setup's chance steps, sampled with seeds (when the setup is random).

    A chance outcome that already has different effects under the two readings is
    returned as a candidate difference; ``complete`` is False when setups were sampled.
    """
    starts: list[Start] = []
    found: list[_Candidate] = []
    seen = set()
    complete = True
    for k in range(samples):
        rng = random.Random(f"{seed}:{n}:{k}")
        sa, sb = ma.initial_state(n), mb.initial_state(n)
        steps: list[Action] = []
        while ma.current_player(sa) == CHANCE:
            outcomes = ma.chance_outcomes(sa)
            if len(outcomes) > 1:
                complete = False
            action = outcomes[rng.choices(range(len(outcomes)), [p for _, p in outcomes])[0]][0]
            ta, tb = ma.apply(sa, action), _apply_b(mb, sb, action)
            if ta.values != tb.values:
                start = Start("setup", n, tuple(map(str, steps)), False, sa, sb)
                found.append(_Candidate(start, (), action, "effect", 0))
                break
            steps.append(action)
            sa, sb = ta, tb
        else:
            if sa.values not in seen:
                seen.add(sa.values)
                starts.append(Start("setup", n, tuple(map(str, steps)), False, sa, sb))
        if complete and k == 0 and not steps:
            break  # no chance in the setup: one setup per player count
    return starts, found, complete and samples >= 1


def scenario_start(ma: Model, mb: Model, ref: str) -> Start:
    """The given situation of a scenario (``FILE`` or ``FILE#NAME``) under both readings:
    its given actions and edits are played under reading A, and B starts from that state.

    Raises ValueError (naming the problem) for a missing scenario or a refused action.
    """
    from .scenario import ScenarioFileError, load_game_scenarios, scenario_situation
    path, _, name = ref.rpartition("#") if "#" in ref else (ref, "", "")
    try:   # a scenario of another spec is refused before any of its code runs
        sf = load_game_scenarios(path, game_ref(ma))
    except ScenarioFileError as err:
        raise ValueError(str(err)) from None
    if name:
        chosen = [sc for sc in sf.scenarios if sc.name == name]
        if not chosen:
            names = "; ".join(sc.name for sc in sf.scenarios)
            raise ValueError(f"{path} has no scenario {name!r} (scenarios: {names})")
        sc = chosen[0]
    elif len(sf.scenarios) == 1:
        sc = sf.scenarios[0]
    else:
        raise ValueError(f"{path} holds {len(sf.scenarios)} scenarios: name one as "
                         f"{path}#NAME")
    sa = scenario_situation(sf, sc, ma)
    sb = mb.state_from_json(sa.to_dict())
    return Start(f"{path}#{sc.name}", sc.players, tuple(sc.given.actions),
                 bool(sc.given.edits), sa, sb,
                 tuple((ref_.text, value) for ref_, value in sc.given.edits))


def _apply_b(mb: Model, sb: State, action: Action) -> State:
    """Apply reading A's action to reading B's state (same spec: the same key)."""
    return State(mb.compiled.apply[action.key[0]](sb.values, *action.key[1:]), mb)


# =====================================================================================
# Simplicity
# =====================================================================================
def complexity(model: Model, action: Action) -> int:
    """How far an action's parameters are from the simplest values: an enum member's
    position, an int's distance from 0 (or from its lowest value if 0 is out of range)."""
    spec_action = model.spec.actions[action.key[0]]
    total = 0
    for p, v in zip(spec_action.params, action.key[1:]):
        lo = p.domain.lo
        if p.domain.enum is not None:
            total += v
        elif lo <= 0:
            total += abs(v)
        else:
            total += v - lo
    return total


# =====================================================================================
# The search
# =====================================================================================
@attrs.frozen
class _Candidate:
    start: Start
    prefix: tuple[Action, ...]
    action: Action | None
    kind: str
    complexity: int

    def key(self) -> tuple:
        steps = len(self.prefix) + (self.action is not None)
        acts = self.prefix + ((self.action,) if self.action is not None else ())
        mechanics = sum(len(a.key) - 1 for a in acts)   # parameters: fewer is plainer
        return (steps, KINDS.index(self.kind), self.complexity, mechanics,
                self.start.players, [str(a) for a in self.prefix], str(self.action))


class _Search:
    """Iterative deepening over the actions both readings allow, from one start."""

    def __init__(self, ma: Model, mb: Model, points: set[str], budget: int, width: int,
                 progress: Progress = QUIET):
        self.ma, self.mb = ma, mb
        self.progress = progress
        self.budget, self.width = budget, width
        self.nodes = 0
        self.cut = False            # a layer was trimmed or chance sampled: not exhaustive
        self.readers = {i for i, a in enumerate(ma.spec.actions) if action_points(a) & points}
        self.globals = bool(global_points(ma.spec) & points)
        self._cx: dict[tuple, int] = {}

    def cx(self, action: Action) -> int:
        c = self._cx.get(action.key)
        if c is None:
            c = self._cx[action.key] = complexity(self.ma, action)
        return c

    def out_of_budget(self) -> bool:
        return self.nodes > self.budget

    # --- one state: every difference visible from it ----------------------------------
    def examine(self, start: Start, prefix: tuple[Action, ...], sa: State, sb: State
                ) -> list[_Candidate]:
        ma, mb = self.ma, self.mb
        base = sum(self.cx(a) for a in prefix)
        out: list[_Candidate] = []
        if self.globals and _ends_apart(ma, mb, sa.values, sb.values):
            out.append(_Candidate(start, prefix, None, "outcome", base))
        if ma.is_terminal(sa) or mb.is_terminal(sb):
            return out
        la = ma.compiled.legal(sa.values)
        lb = mb.compiled.legal(sb.values)
        sla, slb = set(la), set(lb)
        for key in la + [k for k in lb if k not in sla]:
            in_a, in_b = key in sla, key in slb
            action = ma._action(key)
            if in_a != in_b:
                out.append(_Candidate(start, prefix, action, "legality", base + self.cx(action)))
                continue
            if key[0] not in self.readers and not self.globals:
                continue
            self.nodes += 1
            ta = ma.compiled.apply[key[0]](sa.values, *key[1:])
            tb = mb.compiled.apply[key[0]](sb.values, *key[1:]) if key[0] in self.readers \
                else ta
            if ta != tb:
                out.append(_Candidate(start, prefix, action, "effect", base + self.cx(action)))
            elif self.globals and _ends_apart(ma, mb, ta, tb):
                out.append(_Candidate(start, prefix, action, "outcome", base + self.cx(action)))
        return out

    # --- the children of a state: common actions that keep the readings equal --------
    def children(self, sa: State, sb: State) -> list[tuple[Action, State, State]]:
        ma, mb = self.ma, self.mb
        if ma.is_terminal(sa):
            return []
        la = ma.compiled.legal(sa.values)
        slb = set(mb.compiled.legal(sb.values))
        keys = [k for k in la if k in slb]
        if ma.current_player(sa) == CHANCE and len(keys) > FULL_CHANCE:
            self.cut = True
            rng = random.Random(f"{len(keys)}:{self.nodes}")
            keys = rng.sample(keys, FULL_CHANCE)
        out = []
        for key in keys:
            self.nodes += 1
            ta = ma.compiled.apply[key[0]](sa.values, *key[1:])
            tb = mb.compiled.apply[key[0]](sb.values, *key[1:]) if key[0] in self.readers \
                else ta
            if ta == tb:
                out.append((ma._action(key), State(ta, ma), State(tb, mb)))
        out.sort(key=lambda c: (self.cx(c[0]), len(c[0].key)))
        return out

    # --- iterative deepening from one start -------------------------------------------
    def run(self, start: Start, depth: int) -> list[_Candidate]:
        layer: list[tuple[tuple[Action, ...], State, State]] = [((), start.a, start.b)]
        seen = {start.a.values}
        for d in range(depth):
            found: list[_Candidate] = []
            self.progress.note(f"search, {start.players} players, {d + 1} action(s) deep")
            for prefix, sa, sb in layer:
                before = self.nodes
                found += self.examine(start, prefix, sa, sb)
                self.progress.advance(self.nodes - before)
                if self.out_of_budget():
                    break
            if found or d == depth - 1 or self.out_of_budget():
                return found
            groups = []
            for prefix, sa, sb in layer:
                before = self.nodes
                kids = [(prefix + (a,), ta, tb) for a, ta, tb in self.children(sa, sb)
                        if ta.values not in seen]
                self.progress.advance(self.nodes - before)
                groups.append(kids)
                if self.out_of_budget():
                    return found
            layer = self._trim(groups, seen)
        return []

    def _trim(self, groups: list[list], seen: set) -> list:
        """Keep at most ``width`` states: each parent's simplest child first, then each
        parent's second simplest, ... (so that every earlier choice stays represented)."""
        out = []
        i = 0
        while len(out) < self.width and any(i < len(g) for g in groups):
            for g in groups:
                if i < len(g) and len(out) < self.width and g[i][1].values not in seen:
                    seen.add(g[i][1].values)
                    out.append(g[i])
            i += 1
        if any(i < len(g) for g in groups):
            self.cut = True   # some states were left out: the search is not exhaustive
        return out

    # --- shrinking: simpler earlier actions, or fewer -----------------------------------
    def shrink(self, best: _Candidate, tries: int = 400) -> _Candidate:
        improved = True
        while improved and tries > 0:
            improved = False
            for i in range(len(best.prefix)):
                for alt in self._alternatives(best, i):
                    tries -= 1
                    cand = self._replay(best, i, alt)
                    if cand is not None and cand.key() < best.key():
                        best, improved = cand, True
                        break
                    if tries <= 0:
                        return best
                if improved:
                    break
        return best

    def _alternatives(self, best: _Candidate, i: int) -> list[Action | None]:
        """Drop action ``i``, or replace it by a simpler action both readings allow."""
        sa, sb = self._walk(best.start, best.prefix[:i])
        current = self.cx(best.prefix[i])
        simpler = [a for a, _, _ in self.children(sa, sb) if self.cx(a) < current]
        return [None] + simpler[:20]

    def _walk(self, start: Start, actions: Sequence[Action]) -> tuple[State, State]:
        sa, sb = start.a, start.b
        for a in actions:
            sa, sb = self.ma.apply(sa, a), _apply_b(self.mb, sb, a)
        return sa, sb

    def _replay(self, best: _Candidate, i: int, alt: Action | None) -> _Candidate | None:
        ma, mb = self.ma, self.mb
        sa, sb = self._walk(best.start, best.prefix[:i])
        new_prefix = list(best.prefix[:i])
        for a in ([alt] if alt is not None else []) + list(best.prefix[i + 1:]):
            legal_a = set(ma.compiled.legal(sa.values))
            if a.key not in legal_a or a.key not in set(mb.compiled.legal(sb.values)):
                return None
            self.nodes += 1
            ta, tb = ma.apply(sa, a), _apply_b(mb, sb, a)
            if ta.values != tb.values:
                return None
            sa, sb = ta, tb
            new_prefix.append(a)
        found = self.examine(best.start, tuple(new_prefix), sa, sb)
        return min(found, key=_Candidate.key) if found else None


def _ends_apart(ma: Model, mb: Model, va: tuple, vb: tuple) -> bool:
    """The same state ends differently: whose turn, the end itself, scores or winners."""
    ca, cb = ma.compiled, mb.compiled
    if ca.current_player(va) != cb.current_player(vb) or ca.terminal(va) != cb.terminal(vb):
        return True
    if not ca.terminal(va):
        return False
    return (ca.scores(va) != cb.scores(vb)
            or ma.winners(State(va, ma)) != mb.winners(State(vb, mb)))


# =====================================================================================
# Describing a candidate
# =====================================================================================
def describe(ma: Model, mb: Model, cand: _Candidate, points: Sequence[PointChange],
             found_by: str = "search") -> Difference:
    """A candidate as a :class:`Difference`, with its explanation in rule terms."""
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
    ta, tb = sa, sb
    if cand.action is not None:
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
            diff = changed_cells(ma, ta.values, tb.values)
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
                   tuple(used), cand.complexity, found_by)
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
    for r in d.rules:
        what = {"effect": f"the effect {r.text}", "scoring": "the scoring rule",
                "tie-break": "the tie-break"}.get(r.kind, r.text)
        lines.append(f"because of {what} [{r.source}], which reads {', '.join(r.points)}")
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


# =====================================================================================
# The entry point
# =====================================================================================
def point_changes(ma: Model, mb: Model) -> tuple[PointChange, ...]:
    """Every interpretation point on which the two readings differ, with the sources."""
    out = []
    for p in ma.spec.interpretations:
        a, b = ma.interpretation[p.name], mb.interpretation[p.name]
        if a != b:
            out.append(PointChange(p.name, p.question, a, p.options[a], b, p.options[b]))
    return tuple(out)


def diff(ma: Model, mb: Model, *, depth: int = 3, setups: int = 2, games: int = 50,
         seed: int = 0, budget: int = 200_000, width: int = 300,
         scenario_dir: str | Path | None = "traces", start: str | None = None,
         labels: tuple[str, str] | None = None, progress: Progress = QUIET,
         policy: Policy | None = None,
         played: tuple[Impact, tuple[int, tuple] | None] | None = None,
         backend: str | None = None) -> DiffReport:
    """Find the simplest difference between two readings, explain it, measure its impact
    and save it as a scenario file (unless ``scenario_dir`` is None; a file that cannot
    be written leaves the verdict standing, with ``scenario_error`` saying why).

    ``start`` is None (from setup, ``setups`` sampled setups per player count) or a
    scenario reference ``FILE[#NAME]`` (raises ValueError if it names nothing usable).
    ``policy`` plays the players' moves in the ``games`` lockstep games (None: uniform
    random; see :mod:`rulespec.check.policy`). ``played`` is what :func:`lockstep` returned
    for these models, games, seed and policy when the caller has played them already: they
    do not depend on ``start``, so a caller trying several starts plays them once.
    ``backend`` plays them (:func:`lockstep`: C by default, the same games either way).
    """
    points = point_changes(ma, mb)
    names = {p.point for p in points}
    la, lb = labels or (_label(points, "a"), _label(points, "b"))
    progress.set_total(budget)
    search = _Search(ma, mb, names, budget, width, progress)
    candidates: list[_Candidate] = []
    complete = True
    if start is not None:
        st = scenario_start(ma, mb, start)
        candidates = search.run(st, depth)
        start_label = st.label
    else:
        start_label = "setup"
        best_steps = depth
        for n in range(ma.min_players, ma.max_players + 1):
            starts, early, ok = setup_starts(ma, mb, n, setups, seed)
            complete = complete and ok
            candidates += early
            if candidates:  # more players is only simpler with fewer steps
                best_steps = min(best_steps, min(c.key()[0] for c in candidates) - 1)
            for st in starts:
                if search.out_of_budget() or best_steps < 1:
                    break
                found = search.run(st, best_steps)
                if found:
                    candidates += found
                    best_steps = min(best_steps, min(c.key()[0] for c in found))
    best = min(candidates, key=_Candidate.key) if candidates else None
    if best is not None and best.prefix:
        best = search.shrink(best)
    if best is not None and best.prefix:
        progress.note("shrinking the difference")
    stats, parting = (played if played is not None
                      else lockstep(ma, mb, games, seed, progress, policy, backend=backend)
                      if games
                      else (None, None))
    found_by = "search"
    if best is None and parting is not None and start is None:
        # beyond the search bound, random play found a real parting point: explain the
        # simplest difference visible there (reachable, but not necessarily the smallest)
        best = _from_parting(search, ma, mb, parting)
        found_by = "random play"
    if best is None:
        if search.out_of_budget():
            status, detail = UNKNOWN, f"search budget of {budget} nodes exhausted"
        elif complete and not search.cut:
            status, detail = PROVED, (f"equivalent: no difference within {depth} actions of "
                                      f"{'the scenario' if start else 'any setup'} (every "
                                      "choice and chance outcome expanded)")
        else:
            status, detail = PASSED, (f"no difference within {depth} actions of the "
                                      f"{'scenario' if start else 'sampled setups'} (not "
                                      "exhaustive)" + (f", nor in {games} random games"
                                                       if games else ""))
        return DiffReport(ma.name, _opts(points, "a"), _opts(points, "b"), la, lb, points,
                          status, detail, None, stats, None, search.nodes, depth, seed,
                          start_label)
    d = describe(ma, mb, best, points, found_by)
    n_steps = len(d.steps)
    detail = (f"{d.kind} difference {n_steps} action(s) after "
              f"{'setup' if d.start == 'setup' else 'the scenario'}")
    if found_by != "search":
        detail += f" (none within {depth} actions; found by random play, not the smallest)"
    report = DiffReport(ma.name, _opts(points, "a"), _opts(points, "b"), la, lb, points,
                        VIOLATED, detail, d, stats, None, search.nodes, depth, seed,
                        start_label)
    if scenario_dir is None:
        return report
    try:
        path = save_scenario(ma, mb, report, best.start, Path(scenario_dir))
    except OSError as err:
        return attrs.evolve(report, scenario_error=f"cannot write the scenario to "
                                                   f"{scenario_dir}: {err.strerror or err}")
    return attrs.evolve(report, scenario_path=str(path))


def _from_parting(search: _Search, ma: Model, mb: Model, parting: tuple[int, tuple]
                  ) -> _Candidate | None:
    n, keys = parting
    sa, sb = ma.initial_state(n), mb.initial_state(n)
    given = []
    for key in keys:
        action = ma._action(key)
        given.append(str(action))
        sa, sb = ma.apply(sa, action), _apply_b(mb, sb, action)
    st = Start("random play", n, tuple(given), False, sa, sb)
    found = search.examine(st, (), sa, sb)
    return min(found, key=_Candidate.key) if found else None


def _opts(points: Sequence[PointChange], side: str) -> dict[str, str]:
    return {p.point: getattr(p, side) for p in points}


def _label(points: Sequence[PointChange], side: str) -> str:
    return ", ".join(f"{p.point}={getattr(p, side)}" for p in points)
