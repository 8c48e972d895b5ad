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


def raised(err: BaseException) -> str:
    """A property or rule that raised, as a one-line finding (the checker goes on)."""
    text = " ".join(str(err).split())
    if len(text) > 300:
        text = text[:297] + "..."
    return f"raised {type(err).__name__}" + (f": {text}" if text else "")


def _run(prop: Property, *args: object) -> str | None:
    """The property's message, or what it raised: an exception is a finding, not a crash."""
    try:
        return prop.check(*args)
    except Exception as err:  # noqa: BLE001 - any error in a property is reported on it
        return raised(err)


def play_checked(model: Model, players: int, choose: Callable[[State, list[Action]], int],
                 properties: Sequence[Property], *,
                 on_step: Callable[[], None] | None = None,
                 rule_errors_end_game: bool = False,
                 on_truncated: Callable[[], None] | None = None) -> int:
    """Play one game to its end (or ``max_steps`` + 1 steps), checking every property.

    A game with a horizon stops after ``horizon`` steps: if it is not over, it is
    *truncated* (``on_truncated`` is called) and end-of-game properties are not checked.

    ``choose(state, legal)`` returns an index into the legal actions (chance outcomes
    included).
    Returns the number of steps; raises :class:`Violation` at the first failure. A
    property that raises is violated with what it raised. When the rules themselves fail
    (setup, ``legal_actions`` or ``apply`` raise) the violation is :data:`RULES_EVALUATE`;
    with ``rule_errors_end_game`` (once that is reported) the game just ends there instead,
    without the end-of-game properties.
    """
    by_kind = {k: [p for p in properties if p.kind == k] for k in (STATE, STEP, END)}
    taken: list[str] = []

    def fail(prop: Property, message: str) -> Violation:
        return Violation(prop.name, message, players, tuple(taken))

    def check_state(s: State) -> None:
        for p in by_kind[STATE]:
            msg = _run(p, model, s)
            if msg:
                raise fail(p, msg)

    try:
        state = model.initial_state(players)
    except Exception as err:  # noqa: BLE001 - a setup that cannot run is the finding
        if rule_errors_end_game:
            return 0
        raise Violation(RULES_EVALUATE, f"setup failed: {raised(err)}", players, ()) from None
    check_state(state)
    horizon = model.spec.horizon
    limit = model.spec.max_steps if horizon is None else horizon - 1
    steps = 0
    while steps <= limit:
        try:
            legal = model.legal_actions(state)
        except Exception as err:  # noqa: BLE001 - a rule error is a finding, not a crash
            if rule_errors_end_game:
                return steps
            raise Violation(RULES_EVALUATE, f"legal_actions failed: {raised(err)}", players,
                            tuple(taken)) from None
        if not legal:
            break
        action = legal[choose(state, legal)]
        taken.append(str(action))
        try:
            after = model.apply(state, action)
        except Exception as err:  # noqa: BLE001
            if rule_errors_end_game:
                return steps
            raise Violation(RULES_EVALUATE, f"applying {action} failed: {raised(err)}",
                            players, tuple(taken)) from None
        steps += 1
        for p in by_kind[STEP]:
            msg = _run(p, model, state, action, after)
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
        msg = _run(p, model, state, steps)
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
        return Violation(RULES_EVALUATE, f"replay failed: {raised(err)}", players,
                         tuple(actions))
    taken: list[str] = []
    by_kind = {k: [p for p in properties if p.kind == k] for k in (STATE, STEP, END)}
    for i, s in enumerate(states):
        if i > 0:
            before = states[i - 1]
            action = model.action_from_str(before, actions[i - 1])
            taken.append(actions[i - 1])
            for p in by_kind[STEP]:
                msg = _run(p, model, before, action, s)
                if msg:
                    return Violation(p.name, msg, players, tuple(taken))
        for p in by_kind[STATE]:
            msg = _run(p, model, s)
            if msg:
                return Violation(p.name, msg, players, tuple(taken))
    last = states[-1]
    try:
        over = not model.legal_actions(last)
    except Exception as err:  # noqa: BLE001
        return Violation(RULES_EVALUATE, f"legal_actions failed: {raised(err)}", players,
                         tuple(taken))
    if over or len(actions) > model.spec.max_steps:
        for p in by_kind[END]:
            msg = _run(p, model, last, len(actions))
            if msg:
                return Violation(p.name, msg, players, tuple(taken))
    return None


def shortest(model: Model, found: Violation, properties: Sequence[Property], *,
             budget: int = 500) -> Violation:
    """A violation of the same property in the fewest steps from setup, if one is within
    reach: a breadth-first search over every legal action (chance outcomes included) of
    at most ``budget`` states, shorter than ``found``. Deterministic: legal actions are
    tried in their stable order. Returns ``found`` when no shorter one is within budget."""
    target = [p for p in properties if p.name == found.property]
    if found.property != RULES_EVALUATE and (not target or target[0].kind == END):
        return found
    prop = target[0] if target else None
    players = found.players

    def fails(before: State | None, action: Action | None, after: State) -> str | None:
        if prop is None:
            return None
        if prop.kind == STATE:
            return _run(prop, model, after)
        if before is None or action is None:
            return None
        return _run(prop, model, before, action, after)

    try:
        start = model.initial_state(players)
    except Exception:  # noqa: BLE001 - the setup itself fails: nothing shorter
        return found
    frontier: list[tuple[State, tuple[str, ...]]] = [(start, ())]
    seen = {start.values}
    visited = 0
    for depth in range(1, len(found.actions)):
        nxt: list[tuple[State, tuple[str, ...]]] = []
        for state, path in frontier:
            try:
                legal = model.legal_actions(state)
            except Exception as err:  # noqa: BLE001
                if prop is None:
                    return Violation(RULES_EVALUATE, f"legal_actions failed: {raised(err)}",
                                     players, path)
                continue
            for action in legal:
                visited += 1
                if visited > budget:
                    return found
                steps = (*path, str(action))
                try:
                    after = model.apply(state, action)
                except Exception as err:  # noqa: BLE001
                    if prop is None:
                        return Violation(RULES_EVALUATE,
                                         f"applying {action} failed: {raised(err)}", players,
                                         steps)
                    continue
                msg = fails(state, action, after)
                if msg:
                    return Violation(found.property, msg, players, steps)
                if after.values not in seen:
                    seen.add(after.values)
                    nxt.append((after, steps))
        frontier = nxt
    return found
