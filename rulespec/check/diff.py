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

import random
from pathlib import Path
from typing import Any, Sequence

import attrs

from ..runtime.model import CHANCE, Action, Model, State
from .diff_scenario import game_ref, save_scenario
from .difference import (KIND_WORDS, Bound, Difference, PointChange, _apply_b,  # noqa: F401
                         describe, explain, rule_cells)
from .explain import action_points, global_points
from .impact import Impact, lockstep
from .policy import Policy
from .progress import QUIET, Progress
from .results import DIFFER, SAME, UNKNOWN

#: chance nodes with at most this many outcomes are expanded completely
FULL_CHANCE = 12
#: difference kinds, best first: the same action with other effects (or the same end
#: scored otherwise) reads better than an action one reading refuses
KINDS = ("effect", "outcome", "legality")


# =====================================================================================
# Records (all JSON-able through ``to_json``)
# =====================================================================================
@attrs.frozen
class DiffReport:
    """The answer of ``rulespec diff``: one clean record, ``to_json()`` has everything."""

    game: str
    a: dict[str, str]               # the options of reading A that differ from B
    b: dict[str, str]
    a_label: str                    # "ruleset rulebook", "beach_return=free", ...
    b_label: str
    points: tuple[PointChange, ...]
    status: str                     # DIFFER, SAME (within ``bound``) or UNKNOWN (results.py)
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
    #: how far the search looked: what SAME is said within
    bound: Bound | None = None

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
    rules = rule_cells(ma)
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
            if rules(ta.values) != rules(tb.values):
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
        self.rules = rule_cells(ma)  # states compared without their bookkeeping fields

    def cx(self, action: Action) -> int:
        c = self._cx.get(action.key)
        if c is None:
            c = self._cx[action.key] = complexity(self.ma, action)
        return c

    def out_of_budget(self) -> bool:
        return self.nodes > self.budget

    def _step(self, key: tuple, sa: State, sb: State) -> tuple[tuple, tuple]:
        """Both readings' successors; B's is A's when the action reads no differing point
        and the two states are the same (they may differ in bookkeeping fields only)."""
        ta = self.ma.compiled.apply[key[0]](sa.values, *key[1:])
        if key[0] in self.readers or sa.values != sb.values:
            return ta, self.mb.compiled.apply[key[0]](sb.values, *key[1:])
        return ta, ta

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
            ta, tb = self._step(key, sa, sb)
            if ta != tb and self.rules(ta) != self.rules(tb):
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
            ta, tb = self._step(key, sa, sb)
            if ta == tb or self.rules(ta) == self.rules(tb):
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
            if self.rules(ta.values) != self.rules(tb.values):
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
    bound = Bound(depth, start_label, None if start is not None else setups,
                  (ma.min_players, ma.max_players) if start is None else (st.players,) * 2,
                  budget, not complete, search.cut, games)
    if best is None:
        if search.out_of_budget():
            status, detail = UNKNOWN, (f"undecided: the search's budget of {budget} nodes ran "
                                       f"out within {depth} actions, before any difference")
        else:
            status, detail = SAME, f"no difference {bound}"
        return DiffReport(ma.name, _opts(points, "a"), _opts(points, "b"), la, lb, points,
                          status, detail, None, stats, None, search.nodes, depth, seed,
                          start_label, bound=bound)
    d = describe(ma, mb, best, points, found_by)
    n_steps = len(d.steps)
    detail = (f"the readings differ {n_steps} action(s) after "
              f"{'setup' if d.start == 'setup' else 'the scenario'}: {KIND_WORDS[d.kind]}")
    if found_by != "search":
        detail += f" (none within {depth} actions; found by random play, not the smallest)"
    report = DiffReport(ma.name, _opts(points, "a"), _opts(points, "b"), la, lb, points,
                        DIFFER, detail, d, stats, None, search.nodes, depth, seed,
                        start_label, bound=bound)
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
