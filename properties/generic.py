"""Properties every game must have (docs/architecture.md, "Properties"). Python-checked."""

from __future__ import annotations

import itertools
from typing import Any

from rulespec import CHANCE, TERMINAL, IllegalAction
from rulespec.check.property import Property, end_property, state_property, step_property

GENERIC_SOURCE = "rulespec generic property (BRIEF.md: Properties)"
#: how many non-legal action instances are tried per state
ILLEGAL_SAMPLES = 4
#: how many legal actions are re-checked against the preconditions per state
LEGAL_SAMPLES = 8


@state_property("legal_actions_nonempty_unless_terminal", source=GENERIC_SOURCE,
                reads=("legal_actions", "terminal", "current_player"))
def legal_actions_nonempty_unless_terminal(model: Any, state: Any) -> str | None:
    """A state that is not terminal offers at least one legal action (or chance outcome)."""
    terminal = model.is_terminal(state)
    legal = model.legal_actions(state)
    if not terminal and not legal:
        return "no legal action in a non-terminal state (the game is stuck)"
    if terminal and legal:
        return f"the game is over but {len(legal)} action(s) are still legal"
    cp = model.current_player(state)
    if terminal != (cp == TERMINAL):
        return f"current_player is {cp} but is_terminal is {terminal}"
    return None


@state_property("legal_actions_are_accepted_and_illegal_refused", source=GENERIC_SOURCE,
                reads=("legal_actions", "effects"))
def legal_accepted_illegal_refused(model: Any, state: Any) -> str | None:
    """Legal actions satisfy every precondition (the enumerator and the guards agree) and
    are accepted; actions outside the legal list are refused, each with at least one failed
    precondition that names its source. Per state, up to 8 legal and 4 other actions are
    tried, chosen by the state's hash so that different states try different ones."""
    legal = model.legal_actions(state)
    first = hash(state.values) % len(legal) if legal else 0
    for a in (legal[(first + k) % len(legal)] for k in range(min(len(legal), LEGAL_SAMPLES))):
        if model._quick_legal(state.values, a.key):
            continue
        why = model.why_illegal(state, a)
        if why:
            return f"legal action {a} is refused: {'; '.join(map(str, why))}"
    legal_set = set(legal)
    every = list(model._every_action().values())
    if not every:
        return None
    start = hash(state.values) % len(every)
    tried = 0
    for k in range(len(every)):
        a = every[(start + k) % len(every)]
        if a in legal_set:
            continue
        try:
            model.apply(state, a)
        except IllegalAction as err:
            if not err.reasons:
                return f"{a} refused without a reason"
        else:
            return f"{a} is not in legal_actions but apply accepted it"
        tried += 1
        if tried >= ILLEGAL_SAMPLES:
            break
    return None


@state_property("fields_within_bounds", source=GENERIC_SOURCE, reads=("fields",))
def fields_within_bounds(model: Any, state: Any) -> str | None:
    """Every field stays within its declared range (the TypeOK of the spec)."""
    bad = model.out_of_bounds(state)
    return f"out of bounds: {', '.join(bad[:5])}" if bad else None


@state_property("state_json_round_trip", source=GENERIC_SOURCE, reads=("fields",))
def state_json_round_trip(model: Any, state: Any) -> str | None:
    """``state_from_json(state.to_json())`` gives back the same state."""
    text = state.to_json()
    back = model.state_from_json(text)
    if back != state or back.to_json() != text:
        return "the JSON round trip changed the state"
    return None


@state_property("chance_outcomes_are_a_distribution", source=GENERIC_SOURCE,
                reads=("chance", "current_player"))
def chance_outcomes_are_a_distribution(model: Any, state: Any) -> str | None:
    """At a chance node the outcomes are the legal actions and their probabilities sum to 1."""
    if model.current_player(state) != CHANCE:
        return None if not model.chance_outcomes(state) else "chance outcomes off a chance node"
    outcomes = model.chance_outcomes(state)
    if not outcomes:
        return "a chance node without outcomes"
    total = sum(p for _, p in outcomes)
    if abs(total - 1.0) > 1e-9:
        return f"chance probabilities sum to {total}"
    if [a for a, _ in outcomes] != model.legal_actions(state):
        return "chance outcomes differ from the legal actions"
    return None


@step_property("apply_is_deterministic_and_pure", source=GENERIC_SOURCE, reads=("effects",))
def apply_is_deterministic_and_pure(model: Any, before: Any, action: Any, after: Any) -> str | None:
    """Applying the same action to the same state gives the same state; the old state is
    unchanged (no side effects)."""
    snapshot = before.values
    again = model.apply(before, action)
    if again != after:
        return f"applying {action} twice gave different states"
    if before.values != snapshot:
        return f"applying {action} changed the old state"
    return None


@step_property("winners_are_total", source=GENERIC_SOURCE,
               reads=("scoring", "tie_breaks", "terminal"))
def winners_are_total(model: Any, before: Any, action: Any, after: Any) -> str | None:
    """At the end there is at least one winner, every tie is resolved by a declared
    tie-break or declared shared, and scores are one per player."""
    if not model.is_terminal(after):
        return None
    n = after["num_players"]
    scores = model.scores(after)
    if len(scores) != n:
        return f"{len(scores)} scores for {n} players"
    winners = model.winners(after)
    if not winners or any(not 0 <= w < n for w in winners):
        return f"winners {winners} are not a non-empty set of players"
    if model.unresolved_tie(after):
        return (f"players {winners} are still tied after every tie-break and the rules do "
                "not say they share the win")
    return None


def _unbounded(model: Any) -> str | None:
    spec = model.spec
    if spec.horizon is None:
        return None
    return (f"the rules do not bound the game ({spec.horizon_reason}); play stops at the "
            f"horizon of {spec.horizon} steps and reports such games as truncated")


@end_property("terminates_within_declared_bound", source=GENERIC_SOURCE, skip=_unbounded,
              reads=("terminal",))
def terminates_within_declared_bound(model: Any, state: Any, steps: int) -> str | None:
    """Every game ends within the spec's ``max_steps`` (chance steps included)."""
    if not model.is_terminal(state):
        return f"not over after {steps} steps (max_steps is {model.spec.max_steps})"
    return None


OBSERVATION_SOURCE = ("rulespec generic property: a player's information state is a function "
                      "of what they saw (OpenSpiel's information states; BRIEF.md: observation)")


def _perfect_information(model: Any) -> str | None:
    if model.spec.hidden_information:
        return None
    return ("perfect information: every field is visible to every player, so two states "
            "look the same to the mover only if they are the same")


def legal_actions_follow_observation() -> Property:
    """A new instance of the observation property (it remembers what it saw: one per check).

    The legal actions of the player to move depend only on what that player sees
    (``visible=`` on each field): two states that look the same to the mover offer the same
    actions. States are collected as play reaches them, across games; a state that looks
    like an earlier one but offers other actions is a violation (a rule reads hidden
    information: another player's hand, the order of the deck).
    """
    seen: dict[tuple, tuple[frozenset, tuple]] = {}

    @state_property("legal_actions_follow_observation", source=OBSERVATION_SOURCE,
                    skip=_perfect_information, reads=("legal_actions", "fields"))
    def check(model: Any, state: Any) -> str | None:
        """The legal actions of the player to move are a function of their observation:
        two reached states that look the same to the mover offer the same actions."""
        player = model.current_player(state)
        if player < 0:  # chance node or over: nobody chooses
            return None
        legal = frozenset(a.key for a in model.legal_actions(state))
        key = (model.key, player, model.observation_key(state, player))
        first = seen.setdefault(key, (legal, state.values))
        if first[0] == legal:
            return None
        return _leak_message(model, player, legal, first[0], state.values, first[1])
    return check


def _leak_message(model: Any, player: int, here: frozenset, there: frozenset, values: tuple,
                  other: tuple) -> str:
    def show(keys: frozenset) -> str:
        texts = sorted(str(model._action(k)) for k in keys)
        return ", ".join(texts[:4]) + (" ..." if len(texts) > 4 else "") or "nothing"
    def value(f: Any, v: Any) -> str:
        return f.type.enum.name_of(v) if f.type.enum is not None else str(v)
    names = []
    for name, slot in model.layout.slots.items():
        f = slot.field
        for k, index in enumerate(itertools.product(*(range(d.size) for d in f.dims))):
            i = slot.offset + k
            if values[i] != other[i]:
                at = ",".join(d.enum.name_of(x) if d.enum is not None else str(x)
                              for d, x in zip(f.dims, index))
                names.append(f"{name}[{at}]" if f.dims else name)
                names[-1] += f" is {value(f, values[i])} here, {value(f, other[i])} there"
    return (f"player {player} sees the same in two reached states but may take different "
            f"actions: only here {show(here - there)}; only in the other {show(there - here)} "
            f"(cells hidden from them that differ: {'; '.join(names[:4])})")


GENERIC = [
    legal_actions_nonempty_unless_terminal,
    legal_accepted_illegal_refused,
    fields_within_bounds,
    state_json_round_trip,
    chance_outcomes_are_a_distribution,
    apply_is_deterministic_and_pure,
    winners_are_total,
    terminates_within_declared_bound,
]


def generic_properties() -> list[Property]:
    """The generic properties, with a fresh observation property (it keeps state)."""
    return [*GENERIC, legal_actions_follow_observation()]
