"""What the step proofs of earlier cases taught the later ones (shortcuts, never verdicts)."""

from __future__ import annotations

import weakref
from typing import Any

from .premises import Premises


class Lessons:
    """What the step proofs of earlier cases taught, for the later cases of one run.

    Only shortcuts, never verdicts: which premises showed a goal (its unsat core, tried
    first next time: any subset of the premises is sound), which goals a slice of the
    premises could not show, and which goals an action had to split on a parameter.
    Plain data (premises by key, not by term), so a job can hand what it learned to
    another job, for another number of players (see ``prove``).
    """

    def __init__(self) -> None:
        self.cores: dict[str, set[tuple]] = {}  # goal -> premise keys (Premises.keys)
        #: (action, goal): a slice could not show it in a case of that action: skip the slice
        self.needs_all: set[tuple[int, str]] = set()
        #: (goal kind, parameter name): a goal of that kind was split on that parameter
        self.split_kinds: set[tuple[str, str]] = set()
        #: action -> goals it split down to the player to move: its other cases split them
        #: at once, without the slices that every parameter's split would spend first
        self.to_the_mover: dict[int, set[str]] = {}
        #: (action, goal): goals a case of that action showed conjunct by conjunct only
        self.by_conjunct: set[tuple[int, str]] = set()
        self.by_conjunct_goals: set[str] = set()  # the goals of those, for any action
        #: (action, goal): a case of that action could not show it conjunct by conjunct
        self.not_by_conjunct: set[tuple[int, str]] = set()
        #: (action, goal, the splits set): a case of that action with those parameters (by
        #: index) set had to split the goal further: its other cases at that level (another
        #: player count's at the top, the siblings below) split it at once
        self.split_levels: set[tuple[int, str, frozenset[int]]] = set()
        #: (action, goal): every premise showed it only untracked (the tracked query, on a
        #: solver without preprocessing, spent its budget): its other cases go there at once
        self.untracked: set[tuple[int, str]] = set()
        #: per goal, how often its learned premises fell short and how often they sufficed
        self.misses: dict[str, int] = {}
        self.hits: dict[str, int] = {}
        # per premise set and goal: (how many keys it was mapped for, the indices)
        self._indices: "weakref.WeakKeyDictionary[Premises, dict[str, tuple[int, list[int]]]]" = \
            weakref.WeakKeyDictionary()

    def __getstate__(self) -> dict[str, Any]:
        """Everything but the per-premise-set index cache (weak keys: not data)."""
        state = dict(self.__dict__)
        del state["_indices"]
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._indices = weakref.WeakKeyDictionary()

    def learn(self, p: Premises, goal: str, core: list[int]) -> None:
        """Premises ``core`` of ``p`` showed ``goal`` for one action: the union grows as
        actions need different ones."""
        self.cores.setdefault(goal, set()).update(p.keys[k] for k in core)

    def core(self, p: Premises, goal: str) -> list[int] | None:
        """The premises of ``p`` that showed ``goal`` before (None: nothing learned yet, or
        they fell short more often than not: each action needs its own, say)."""
        keys = self.cores.get(goal)
        if keys is None or self.misses.get(goal, 0) > self.hits.get(goal, 0) + 1:
            return None
        mapped = self._indices.setdefault(p, {})
        seen = mapped.get(goal)
        if seen is None or seen[0] != len(keys):  # the keys only grow: a new count, new keys
            seen = mapped[goal] = (len(keys), p.having(keys))
        return seen[1]


