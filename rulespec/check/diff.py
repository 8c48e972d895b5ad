"""``rulespec diff``: the smallest situation where two interpretations of the rules differ.

Both readings are compiled from the same spec and played in lockstep from the same setup.
A breadth-first search over the actions legal under *both* readings finds the fewest
steps after which they differ in their legal actions, their states, terminal flags,
scores or winners. Chance nodes with few outcomes are expanded completely; larger ones
(shuffles) are sampled with seeds, which makes an "equivalent" verdict a test (PASSED),
not a proof (PROVED).

A second, statistical answer says whether a difference matters: over N seeded random
games played in lockstep, how often the readings part ways, and how often the winners
end up different.
"""

from __future__ import annotations

import json
import random
from collections import deque
from pathlib import Path
from typing import Any, Sequence

import attrs

from ..runtime.model import CHANCE, Model, State
from ..runtime.play import seeded_chooser
from ..runtime.trace import spec_identity, write_atomically
from .progress import QUIET, Progress
from .results import PASSED, PROVED, UNKNOWN, VIOLATED

#: chance nodes with at most this many outcomes are expanded completely
FULL_CHANCE = 12


@attrs.frozen
class Difference:
    """Where two readings part: the common actions from setup, and what differs then."""

    players: int
    actions: tuple[str, ...]
    kind: str              # "legal actions", "state", "terminal", "scores", "winners"
    detail: str
    only_a: tuple[str, ...] = ()
    only_b: tuple[str, ...] = ()
    fields: dict[str, tuple[Any, Any]] = attrs.field(factory=dict)
    setup_steps: int = 0   # leading chance steps (the setup) among ``actions``


@attrs.frozen
class Lockstep:
    """How often the readings part ways, and how often the winners differ, in N games."""

    games: int
    parted: int
    winners_differ: int
    seed: int


@attrs.frozen
class DiffReport:
    """The answer of ``rulespec diff``."""

    game: str
    a: dict[str, str]
    b: dict[str, str]
    status: str            # VIOLATED (they differ), PROVED/PASSED equivalent, UNKNOWN
    detail: str
    difference: Difference | None
    lockstep: Lockstep | None
    scenario_path: str | None = None
    nodes: int = 0
    #: why the scenario file could not be written (the verdict stands without it)
    scenario_error: str | None = None


def compare(ma: Model, mb: Model, sa: State, sb: State) -> tuple[str, str, dict] | None:
    """The first observable difference between two states of the two readings, or None."""
    if sa.values != sb.values:
        da, db = sa.to_dict()["fields"], sb.to_dict()["fields"]
        fields = {k: (da[k], db[k]) for k in da if da[k] != db.get(k)}
        return "state", "the states differ in " + ", ".join(fields), fields
    la = [str(a) for a in ma.legal_actions(sa)]
    lb = [str(a) for a in mb.legal_actions(sb)]
    if la != lb:
        return "legal actions", "different legal actions", {"only_a": tuple(
            x for x in la if x not in lb), "only_b": tuple(x for x in lb if x not in la)}
    if ma.is_terminal(sa) != mb.is_terminal(sb):
        return "terminal", "one reading ends the game, the other does not", {}
    if not ma.is_terminal(sa):  # scores and winners only count once the game is over
        return None
    if ma.scores(sa) != mb.scores(sb):
        return "scores", f"scores {ma.scores(sa)} vs {mb.scores(sb)}", {}
    if ma.winners(sa) != mb.winners(sb):
        return "winners", f"winners {ma.winners(sa)} vs {mb.winners(sb)}", {}
    return None


def smallest_difference(ma: Model, mb: Model, *, depth: int = 6, setups: int = 8,
                        budget: int = 20_000, seed: int = 0, progress: Progress = QUIET
                        ) -> tuple[Difference | None, bool, int]:
    """Breadth-first search for the fewest common steps after which the readings differ.

    Returns (difference or None, exhaustive, nodes visited). ``exhaustive`` is True when
    every chance outcome was expanded and the whole bound was searched within budget.
    """
    exhaustive = True
    nodes = 0
    for n in range(ma.min_players, ma.max_players + 1):
        progress.note(f"search, {n} players")
        starts = _setups(ma, mb, n, setups, seed)
        if len(starts) < _count_setups_bound(ma, n, setups):
            exhaustive = False
        for prefix, sa, sb in starts:
            found = compare(ma, mb, sa, sb)
            if found:
                return _difference(n, prefix, found, len(prefix)), exhaustive, nodes
        queue = deque((prefix, sa, sb, 0) for prefix, sa, sb in starts)
        seen = {(sa.values, sb.values) for _, sa, sb in starts}
        while queue:  # breadth first: the first difference found has the fewest steps
            prefix, sa, sb, d = queue.popleft()
            if d >= depth:
                continue
            legal = ma.legal_actions(sa)
            if ma.current_player(sa) == CHANCE and len(legal) > FULL_CHANCE:
                exhaustive = False
                rng = random.Random(f"{seed}:{n}:{len(prefix)}:{nodes}")
                legal = rng.sample(legal, FULL_CHANCE)
            progress.advance(len(legal))
            for action in legal:
                nodes += 1
                if nodes > budget:
                    return None, False, nodes
                ta = ma.apply(sa, action)
                tb = mb.apply(sb, mb.action_from_str(sb, str(action)))
                key = (ta.values, tb.values)
                if key in seen:
                    continue
                seen.add(key)
                steps = (*prefix, str(action))
                found = compare(ma, mb, ta, tb)
                if found:
                    return _difference(n, steps, found, len(steps) - d - 1), exhaustive, nodes
                queue.append((steps, ta, tb, d + 1))
    return None, exhaustive, nodes


def _difference(n: int, steps: Sequence[str], found: tuple[str, str, dict],
                setup_steps: int) -> Difference:
    kind, detail, extra = found
    return Difference(n, tuple(steps), kind, detail, tuple(extra.get("only_a", ())),
                      tuple(extra.get("only_b", ())),
                      {k: v for k, v in extra.items() if k not in ("only_a", "only_b")}
                      if kind == "state" else {}, setup_steps)


def _setups(ma: Model, mb: Model, n: int, samples: int, seed: int
            ) -> list[tuple[tuple[str, ...], State, State]]:
    """States after the setup's chance steps (sampled when there are many outcomes)."""
    out = []
    seen = set()
    for k in range(samples):
        rng = random.Random(f"{seed}:{n}:{k}")
        sa, sb = ma.initial_state(n), mb.initial_state(n)
        steps: list[str] = []
        while ma.current_player(sa) == CHANCE and sa.values == sb.values:
            outcomes = ma.chance_outcomes(sa)
            action = outcomes[rng.choices(range(len(outcomes)), [p for _, p in outcomes])[0]][0]
            steps.append(str(action))
            sa, sb = ma.apply(sa, action), mb.apply(sb, mb.action_from_str(sb, str(action)))
        if (sa.values, sb.values) not in seen:
            seen.add((sa.values, sb.values))
            out.append((tuple(steps), sa, sb))
        if not steps:  # no chance in the setup: one setup per player count
            break
    return out


def _count_setups_bound(model: Model, n: int, samples: int) -> int:
    """1 when the setup has no chance step (then the single setup is all of them)."""
    s = model.initial_state(n)
    return 1 if model.current_player(s) != CHANCE else samples + 1


def lockstep(ma: Model, mb: Model, games: int, seed: int, progress: Progress = QUIET
             ) -> tuple[Lockstep, Difference | None]:
    """Play ``games`` seeded random games under both readings with the same choices while
    they agree; also return the earliest place where one of them parted ways."""
    parted = winners_differ = 0
    first: Difference | None = None
    for g in range(games):
        progress.note(f"lockstep game {g + 1}/{games}")
        n = ma.min_players + g % (ma.max_players - ma.min_players + 1)
        part, wa, wb = _lockstep_game(ma, mb, n, random.Random(f"{seed}:{g}"))
        if part is not None:
            parted += 1
            if first is None or len(part.actions) < len(first.actions):
                first = part
        if wa != wb:
            winners_differ += 1
    return Lockstep(games, parted, winners_differ, seed), first


def _lockstep_game(ma: Model, mb: Model, n: int, rng: random.Random
                   ) -> tuple[Difference | None, list[int], list[int]]:
    """One game: B shadows A's choices until the readings differ, then each plays on."""
    sa, sb = ma.initial_state(n), mb.initial_state(n)
    steps: list[str] = []
    part = None
    choose_a = seeded_chooser(ma, rng)
    for _ in range(ma.spec.max_steps + 1):
        found = compare(ma, mb, sa, sb)
        if found is not None:
            setup = _setup_length(ma, n, steps)
            part = _difference(n, steps, found, setup)
            break
        legal = ma.legal_actions(sa)
        if not legal:
            break
        action = legal[choose_a(sa, legal)]
        steps.append(str(action))
        sa, sb = ma.apply(sa, action), mb.apply(sb, mb.action_from_str(sb, str(action)))
    if part is not None:  # the readings went separate ways: finish each game on its own
        sa = _play_on(ma, sa, rng.random())
        sb = _play_on(mb, sb, rng.random())
    return part, ma.winners(sa), mb.winners(sb)


def _play_on(model: Model, state: State, seed: float) -> State:
    choose = seeded_chooser(model, random.Random(seed))
    for _ in range(model.spec.max_steps + 1):
        legal = model.legal_actions(state)
        if not legal:
            break
        state = model.apply(state, legal[choose(state, legal)])
    return state


def _setup_length(model: Model, n: int, steps: Sequence[str]) -> int:
    """How many of ``steps`` are the setup's leading chance steps."""
    state = model.initial_state(n)
    k = 0
    for text in steps:
        if model.current_player(state) != CHANCE:
            break
        state = model.apply(state, model.action_from_str(state, text))
        k += 1
    return k


def diff(ma: Model, mb: Model, *, depth: int = 6, setups: int = 8, games: int = 50,
         seed: int = 0, budget: int = 20_000, scenario_dir: str | Path | None = "traces",
         progress: Progress = QUIET) -> DiffReport:
    """Find and explain the smallest difference; save it as a scenario file (unless
    ``scenario_dir`` is None; a file that cannot be written leaves the verdict standing,
    with ``scenario_error`` saying why)."""
    progress.set_total(budget)
    found, exhaustive, nodes = smallest_difference(ma, mb, depth=depth, setups=setups,
                                                   budget=budget, seed=seed, progress=progress)
    stats, parting = lockstep(ma, mb, games, seed, progress) if games else (None, None)
    a, b = _changed(ma, mb)
    searched = f"within {depth} steps"
    if found is None and parting is not None:
        # beyond the breadth-first bound, random play still found a real parting point:
        # report it (reachable from a real setup), though it need not be the smallest
        found = parting
        searched = (f"none within {depth} steps of the sampled setups; found by random "
                    "play, so not necessarily the smallest")
    if found is None:
        if nodes > budget:
            status, detail = UNKNOWN, f"search budget of {budget} nodes exhausted"
        elif exhaustive:
            status, detail = PROVED, (f"equivalent: no difference within {depth} steps of any "
                                      "setup (every chance outcome expanded)")
        else:
            status, detail = PASSED, (f"no difference within {depth} steps of {setups} sampled "
                                      f"setups per player count, nor in {games} random games "
                                      "(not exhaustive)")
        return DiffReport(ma.name, a, b, status, detail, None, stats, None, nodes)
    after = len(found.actions) - found.setup_steps
    detail = f"{found.detail} after {after} step(s) from setup"
    if found is parting:
        detail += f" ({searched})"
    path = error = None
    if scenario_dir is not None:
        try:
            path = str(_save_scenario(ma, mb, found, Path(scenario_dir)))
        except OSError as err:
            error = f"cannot write the scenario to {scenario_dir}: {err.strerror or err}"
    return DiffReport(ma.name, a, b, VIOLATED, detail, found, stats, path, nodes, error)


def _changed(ma: Model, mb: Model) -> tuple[dict[str, str], dict[str, str]]:
    keys = [k for k in ma.interpretation if ma.interpretation[k] != mb.interpretation[k]]
    return ({k: ma.interpretation[k] for k in keys}, {k: mb.interpretation[k] for k in keys})


def _save_scenario(ma: Model, mb: Model, d: Difference, folder: Path) -> Path:
    """The difference as a scenario file: the same actions, one expectation per reading."""
    a, b = _changed(ma, mb)
    tag = "-".join(f"{k}-{v}" for k, v in a.items()) + "-vs-" + "-".join(
        f"{v}" for v in b.values())
    lines = [f"# Smallest difference found by `rulespec diff` between {a} and {b}.",
             f"# {d.detail}.", f"game = {json.dumps(_game_ref(ma), ensure_ascii=False)}",
             f"players = {d.players}", ""]
    for label, interp, own, other, idx in (("a", a, d.only_a, d.only_b, 0),
                                           ("b", b, d.only_b, d.only_a, 1)):
        opts = ", ".join(f'{k} = "{v}"' for k, v in interp.items())
        lines += ["[[scenario]]", f'name = "{_reading(interp)}: {d.kind}"',
                  f'source = "rulespec diff: interpretation {_reading(interp)}"',
                  f"interpretation = {{ {opts} }}", "[scenario.when]",
                  f"actions = {json.dumps(list(d.actions), ensure_ascii=False)}",
                  "[scenario.then]"]
        if d.kind == "legal actions":
            if own:
                lines.append(f"legal = {json.dumps(list(own), ensure_ascii=False)}")
            if other:
                lines.append(f"illegal = {json.dumps(list(other), ensure_ascii=False)}")
        elif d.kind == "state":
            values = {k: v[idx] for k, v in d.fields.items()}
            lines.append("[scenario.then.fields]")
            lines += [f'"{k}" = {json.dumps(v, ensure_ascii=False)}' for k, v in values.items()]
        else:
            model = ma if idx == 0 else mb
            state = model.initial_state(d.players)
            for text in d.actions:
                state = model.apply(state, model.action_from_str(state, text))
            lines.append(f"terminal = {'true' if model.is_terminal(state) else 'false'}")
            lines.append(f"scores = {json.dumps(model.scores(state))}")
            lines.append(f"winners = {json.dumps(model.winners(state))}")
        lines.append("")
    path = folder / f"{ma.name}-diff-{tag}.toml"
    write_atomically(path, "\n".join(lines))
    return path


def _reading(interp: dict[str, str]) -> str:
    return ", ".join(f"{k}={v}" for k, v in interp.items())


def _game_ref(model: Model) -> str:
    """What the scenario's ``game`` says: a bundled game's name, else its spec's path (a
    copy of a bundled game is not the bundled game)."""
    path, _ = spec_identity(model)
    return model.name if path is None else path
