"""Walk one game from setup, choosing each step with a chooser, checking properties."""

from __future__ import annotations

from typing import Callable, Sequence

import attrs

from ..runtime.model import Action, Model, State
from .property import END, STATE, STEP, Property


@attrs.frozen
class Violation(Exception):
    """A property failed: which, why, and the actions from setup that lead there."""

    property: str
    message: str
    players: int
    actions: tuple[str, ...]

    def __str__(self) -> str:
        return f"{self.property}: {self.message} (after {len(self.actions)} step(s))"


#: the pseudo-property reported when a rule cannot be evaluated (e.g. an index out of range)
RULES_EVALUATE = "rules_evaluate_without_error"


def play_checked(model: Model, players: int, choose: Callable[[State, list[Action]], int],
                 properties: Sequence[Property], *,
                 on_step: Callable[[], None] | None = None,
                 on_truncated: Callable[[], None] | None = None) -> int:
    """Play one game to its end (or ``max_steps`` + 1 steps), checking every property.

    A game with a horizon stops after ``horizon`` steps: if it is not over, it is
    *truncated* (``on_truncated`` is called) and end-of-game properties are not checked.

    ``choose(state, legal)`` returns an index into the legal actions (chance outcomes
    included).
    Returns the number of steps; raises :class:`Violation` at the first failure.
    """
    by_kind = {k: [p for p in properties if p.kind == k] for k in (STATE, STEP, END)}
    state = model.initial_state(players)
    taken: list[str] = []

    def fail(prop: Property, message: str) -> Violation:
        return Violation(prop.name, message, players, tuple(taken))

    def check_state(s: State) -> None:
        for p in by_kind[STATE]:
            msg = p.check(model, s)
            if msg:
                raise fail(p, msg)

    check_state(state)
    horizon = model.spec.horizon
    limit = model.spec.max_steps if horizon is None else horizon - 1
    steps = 0
    while steps <= limit:
        try:
            legal = model.legal_actions(state)
        except Exception as err:  # noqa: BLE001 - a rule error is a finding, not a crash
            raise Violation(RULES_EVALUATE, f"legal_actions failed: {err}", players,
                            tuple(taken)) from None
        if not legal:
            break
        action = legal[choose(state, legal)]
        taken.append(str(action))
        try:
            after = model.apply(state, action)
        except Exception as err:  # noqa: BLE001
            raise Violation(RULES_EVALUATE, f"applying {action} failed: {err}", players,
                            tuple(taken)) from None
        steps += 1
        for p in by_kind[STEP]:
            msg = p.check(model, state, action, after)
            if msg:
                raise fail(p, msg)
        state = after
        check_state(state)
        if on_step is not None:
            on_step()
    if horizon is not None and steps >= horizon and not model.is_terminal(state):
        if on_truncated is not None:
            on_truncated()
        return steps
    for p in by_kind[END]:
        msg = p.check(model, state, steps)
        if msg:
            raise fail(p, msg)
    return steps


def replay(model: Model, players: int, actions: Sequence[str]) -> tuple[State, list[State]]:
    """Apply ``actions`` (by text) from setup; returns the last state and all states."""
    state = model.initial_state(players)
    states = [state]
    for text in actions:
        state = model.apply(state, model.action_from_str(state, text))
        states.append(state)
    return state, states


def recheck(model: Model, players: int, actions: Sequence[str],
            properties: Sequence[Property]) -> Violation | None:
    """Replay a trace and check the properties on it: the violation found, or None."""
    try:
        _, states = replay(model, players, actions)
    except Exception as err:  # noqa: BLE001 - a rule that cannot run is the finding
        return Violation(RULES_EVALUATE, f"replay failed: {err}", players, tuple(actions))
    taken: list[str] = []
    by_kind = {k: [p for p in properties if p.kind == k] for k in (STATE, STEP, END)}
    for i, s in enumerate(states):
        if i > 0:
            before = states[i - 1]
            action = model.action_from_str(before, actions[i - 1])
            taken.append(actions[i - 1])
            for p in by_kind[STEP]:
                msg = p.check(model, before, action, s)
                if msg:
                    return Violation(p.name, msg, players, tuple(taken))
        for p in by_kind[STATE]:
            msg = p.check(model, s)
            if msg:
                return Violation(p.name, msg, players, tuple(taken))
    last = states[-1]
    if not model.legal_actions(last) or len(actions) > model.spec.max_steps:
        for p in by_kind[END]:
            msg = p.check(model, last, len(actions))
            if msg:
                return Violation(p.name, msg, players, tuple(taken))
    return None
