"""Seeded random play: chance outcomes by their probabilities, players uniformly."""

from __future__ import annotations

import random
from typing import Callable

import attrs

from .model import CHANCE, Action, Model, State


def seeded_chooser(model: Model, rng: random.Random) -> Callable[[State, list[Action]], int]:
    """A chooser for ``play_checked``-style loops: an index into the legal actions."""
    def choose(state: State, legal: list[Action]) -> int:
        if model.current_player(state) == CHANCE:
            outcomes = model.chance_outcomes(state)
            pick = rng.choices(range(len(outcomes)), [p for _, p in outcomes])[0]
            return legal.index(outcomes[pick][0])
        return rng.randrange(len(legal))
    return choose


@attrs.frozen
class Step:
    """One step of a played game: who acted (CHANCE for a random event) and what."""

    player: int
    action: Action
    state: State


def play_random(model: Model, players: int, seed: int) -> tuple[State, list[Step]]:
    """Play one whole game; the same seed gives the same game, every time."""
    rng = random.Random(seed)
    state = model.initial_state(players)
    steps: list[Step] = []
    horizon = model.spec.horizon  # a game the rules do not bound stops there (truncated)
    for _ in range(model.spec.max_steps + 1 if horizon is None else horizon):
        action = model.random_action(state, rng)  # draws as seeded_chooser does
        if action is None:
            break
        player = model.current_player(state)
        state = model.apply(state, action)
        steps.append(Step(player, action, state))
    return state, steps
