"""Who plays the players' moves in playouts: uniform random, greedy, or MCTS.

A policy is a small object with ``name``, ``describe()`` and
``choose(model, state, legal, rng) -> index into legal``; it is asked only where a player
moves (chance outcomes are drawn by their probabilities, see :func:`chooser`). Every budget
is a count, and every random choice comes from ``rng``: the same seed gives the same games.

* :class:`RandomPolicy` -- uniform over the legal actions (what ``check --random`` and
  ``diff`` always did: the same seed gives the same games as before policies existed).
* :class:`GreedyPolicy` -- one step of look-ahead: the action after which the mover stands
  best (a won game first, then the margin of its score over the best other score); ties
  are broken at random.
* :class:`MctsPolicy` -- OpenSpiel's ``MCTSBot`` on the game as an OpenSpiel game
  (``rulespec.openspiel``), with ``simulations`` simulations per move. Each simulation's
  leaf is valued by a random playout of at most ``rollout`` steps on the compiled rules:
  a finished game by who won, an unfinished one by who leads on the spec's score (as if
  the game ended there). In games with hidden information the bot sees the whole state.

>>> import random, rulespec
>>> game = rulespec.load("tic_tac_toe")
>>> state = game.initial_state()
>>> legal = game.legal_actions(state)
>>> RandomPolicy().choose(game, state, legal, random.Random(0)) in range(9)
True
>>> policy_named("greedy").describe()
'greedy (one step of look-ahead on the score)'
"""

from __future__ import annotations

import random
from typing import Any, Callable, Protocol, Sequence

import attrs

from ..runtime.model import CHANCE, Action, Model, State

NAMES = ("random", "greedy", "mcts")
#: what uniform random play calls itself in results and reports
RANDOM_DESCRIPTION = "random (uniform over the legal actions)"


class Policy(Protocol):
    """What drives the players: ``choose`` returns an index into ``legal``."""

    name: str

    def choose(self, model: Model, state: State, legal: Sequence[Action],
               rng: random.Random) -> int: ...

    def describe(self) -> str: ...


@attrs.frozen
class RandomPolicy:
    """Every legal action equally likely."""

    name: str = attrs.field(default="random", init=False)

    def choose(self, model: Model, state: State, legal: Sequence[Action],
               rng: random.Random) -> int:
        return rng.randrange(len(legal))

    def describe(self) -> str:
        return RANDOM_DESCRIPTION


@attrs.frozen
class GreedyPolicy:
    """The action after which the mover stands best, one step ahead."""

    name: str = attrs.field(default="greedy", init=False)

    def choose(self, model: Model, state: State, legal: Sequence[Action],
               rng: random.Random) -> int:
        mover = model.current_player(state)
        best: list[int] = []
        top: tuple | None = None
        for i, action in enumerate(legal):
            value = standing(model, model.apply(state, action), mover)
            if top is None or value > top:
                top, best = value, [i]
            elif value == top:
                best.append(i)
        return best[0] if len(best) == 1 else best[rng.randrange(len(best))]

    def choose_key(self, model: Model, values: tuple, keys: Sequence[tuple],
                   rng: random.Random) -> int:
        """What ``choose`` decides (the same index, the same draws from ``rng``), on the
        compiled rules and action keys: lockstep games ask it at every step."""
        c = model.compiled
        mover = c.current_player(values)
        best: list[int] = []
        top: tuple | None = None
        for i, key in enumerate(keys):
            after = c.apply[key[0]](values, *key[1:])
            scores = c.scores(after)
            others = [s for p, s in enumerate(scores) if p != mover]
            margin = scores[mover] - (max(others) if others else 0)
            if c.terminal(after):
                value: tuple = (1 if mover in model._ranked(after)[0] else -1, margin)
            else:
                value = (0, margin)
            if top is None or value > top:
                top, best = value, [i]
            elif value == top:
                best.append(i)
        return best[0] if len(best) == 1 else best[rng.randrange(len(best))]

    def describe(self) -> str:
        return "greedy (one step of look-ahead on the score)"


def standing(model: Model, state: State, player: int) -> tuple:
    """How well ``player`` stands: (won, lost) at the end, then the score margin."""
    scores = model.scores(state)
    others = [s for p, s in enumerate(scores) if p != player]
    margin = scores[player] - (max(others) if others else 0)
    if model.is_terminal(state):
        winners = model.winners(state)
        return (1 if player in winners else -1, margin)
    return (0, margin)


@attrs.frozen
class MctsPolicy:
    """OpenSpiel's MCTSBot with a counted budget (see the module docstring)."""

    simulations: int = 16
    rollout: int | None = 10       # steps of random play from a leaf; None: to the end
    uct_c: float = 2.0
    #: where the rollouts are played (None: the default, C); the same values either way
    backend: str | None = attrs.field(default=None, eq=False)
    name: str = attrs.field(default="mcts", init=False)

    def __attrs_post_init__(self) -> None:
        if self.simulations < 1:
            raise ValueError("MCTS needs at least 1 simulation per move")
        if self.rollout is not None and self.rollout < 0:
            raise ValueError("the rollout length must be 0 or more steps")

    def choose(self, model: Model, state: State, legal: Sequence[Action],
               rng: random.Random) -> int:
        from ..openspiel import mcts_choice
        key = mcts_choice(model, state, simulations=self.simulations, rollout=self.rollout,
                          uct_c=self.uct_c, seed=rng.getrandbits(63), backend=self.backend)
        return next(i for i, a in enumerate(legal) if a.key == key)

    def describe(self) -> str:
        leaf = ("random playouts to the end" if self.rollout is None else
                f"leaves valued by {self.rollout}-step random playouts, then the score")
        return f"mcts (OpenSpiel MCTSBot, {self.simulations} simulations per move, {leaf})"


def policy_named(name: str, *, simulations: int | None = None, rollout: int | None = -1,
                 backend: str | None = None) -> Policy:
    """The policy called ``name`` (random, greedy or mcts); the MCTS budget may be given,
    and the backend MCTS plays its rollouts on.

    ``rollout=-1`` keeps the default; None plays rollouts to the end.
    """
    if name == "random":
        return RandomPolicy()
    if name == "greedy":
        return GreedyPolicy()
    if name == "mcts":
        kwargs: dict[str, Any] = {"backend": backend}
        if simulations is not None:
            kwargs["simulations"] = simulations
        if rollout != -1:
            kwargs["rollout"] = rollout
        return MctsPolicy(**kwargs)
    raise ValueError(f"unknown policy {name!r} (choose from {', '.join(NAMES)})")


def chooser(policy: Policy, model: Model, rng: random.Random
            ) -> Callable[[State, list[Action]], int]:
    """A chooser for playout loops: chance outcomes by their probabilities (exactly as
    ``runtime.play.seeded_chooser`` draws them), players by ``policy``."""
    def choose(state: State, legal: list[Action]) -> int:
        if model.current_player(state) == CHANCE:
            outcomes = model.chance_outcomes(state)
            pick = rng.choices(range(len(outcomes)), [p for _, p in outcomes])[0]
            return legal.index(outcomes[pick][0])
        if len(legal) == 1 and not isinstance(policy, RandomPolicy):
            return 0  # nothing to think about (random play still draws, as it always did)
        return policy.choose(model, state, legal, rng)
    return choose


__all__ = ["NAMES", "RANDOM_DESCRIPTION", "GreedyPolicy", "MctsPolicy", "Policy", "RandomPolicy",
           "chooser", "policy_named", "standing"]
