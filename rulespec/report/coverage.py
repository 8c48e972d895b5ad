"""Coverage: how often seeded random play reaches each action and each effect branch.

Each player's move picks a rule first, then one of its moves (so rare rules, an island
gift say, are played about as often as common ones); chance outcomes follow their odds.
Branches are observed by evaluating every step on the Z3 backend with the concrete state
(every condition is then decided), the same way the dead-rule checker finds witnesses.
"""

from __future__ import annotations

import random
from typing import Any, Callable, Sequence

import attrs

from ..compile.smt_backend import compile_smt
from ..runtime.model import CHANCE, Model, State
from ..runtime.native import native_for
from ..runtime.play import seeded_chooser
from .rules import branches


@attrs.frozen
class Coverage:
    """Counts from ``games`` seeded games: steps per action, runs per branch label."""

    games: int
    seed: int
    steps: int
    actions: dict[str, int]
    branches: dict[str, dict[str, int]]   # action -> branch label -> runs


def play_coverage(model: Model, games: int, seed: int, backend: str | None = None
                  ) -> Coverage:
    """Play ``games`` seeded games, counting actions taken and branches run (on the C
    backend, the default, the games are played and counted in C: the same games, the same
    counts)."""
    game = native_for(model, backend)
    if game is not None:
        found = _native_coverage(model, game, games, seed)
        if found is not None:
            return found
    smt = compile_smt(model.spec, model.interpretation)
    runs: dict[tuple[int, bool], int] = {}
    smt.branch_seen = lambda st, side: runs.__setitem__((id(st), side),
                                                         runs.get((id(st), side), 0) + 1)
    taken = [0] * len(model.spec.actions)
    steps = 0
    try:
        for g in range(games):
            rng = random.Random(f"coverage:{seed}:{g}")
            n = model.min_players + g % (model.max_players - model.min_players + 1)
            steps += _play(model, n, rng, lambda a, s: _observe(smt, taken, a, s))
    finally:
        smt.branch_seen = None
    return Coverage(games, seed, steps,
                    {a.name: taken[i] for i, a in enumerate(model.spec.actions)},
                    {a.name: {b.label: runs.get((id(b.statement), b.side), 0)
                              for b in branches(a)} for a in model.spec.actions})


def _native_coverage(model: Model, game: Any, games: int, seed: int) -> Coverage | None:
    """:func:`play_coverage` in C; None when the rules raise in a game (Python then plays
    them all, and raises what they raise)."""
    from ..runtime import native as N
    module = game.module
    counts = game.ffi.new("int64_t[]", max(1, 2 * len(module.branch_statements)))
    taken = game.ffi.new("int64_t[]", len(model.spec.actions))
    steps = 0
    for g in range(games):
        rng = N.Rng.seeded(game, f"coverage:{seed}:{g}")
        n = model.min_players + g % (model.max_players - model.min_players + 1)
        played = N.play(game, rng, n, limit=model.spec.max_steps + 1, policy=N.RULE_FIRST,
                        branches=counts, taken=taken, keys=False)
        if played is None:
            return None
        steps += played.steps
    runs = {(id(st), side): counts[2 * k + (0 if side else 1)]
            for k, st in enumerate(module.branch_statements) for side in (True, False)}
    return Coverage(games, seed, steps,
                    {a.name: taken[i] for i, a in enumerate(model.spec.actions)},
                    {a.name: {b.label: runs.get((id(b.statement), b.side), 0)
                              for b in branches(a)} for a in model.spec.actions})


def branch_runs(model: Model, start: State, actions: Sequence[str]) -> set[tuple[str, str]]:
    """The (action, branch label) pairs run by playing ``actions`` from ``start``."""
    smt = compile_smt(model.spec, model.interpretation)
    seen: set[tuple[int, bool]] = set()
    smt.branch_seen = lambda st, side: seen.add((id(st), side))
    state = start
    try:
        for text in actions:
            action = model.action_from_str(state, text)
            smt.run_concrete(action.key[0], state.values, action.key[1:])
            state = model.apply(state, action)
    finally:
        smt.branch_seen = None
    return {(a.name, b.label) for a in model.spec.actions for b in branches(a)
            if (id(b.statement), b.side) in seen}


def _observe(smt: Any, taken: list[int], action: Any, state: State) -> None:
    taken[action.key[0]] += 1
    smt.run_concrete(action.key[0], state.values, action.key[1:])


def _play(model: Model, n: int, rng: random.Random,
          observe: Callable[[Any, State], None]) -> int:
    chance = seeded_chooser(model, rng)
    state = model.initial_state(n)
    steps = 0
    for _ in range(model.spec.max_steps + 1):
        legal = model.legal_actions(state)
        if not legal:
            break
        if model.current_player(state) == CHANCE:
            action = legal[chance(state, legal)]
        else:
            rule = rng.choice(sorted({a.key[0] for a in legal}))
            action = rng.choice([a for a in legal if a.key[0] == rule])
        observe(action, state)
        state = model.apply(state, action)
        steps += 1
    return steps
