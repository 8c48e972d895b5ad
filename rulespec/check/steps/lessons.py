"""What the step proofs of earlier cases taught the later ones (shortcuts, never verdicts):
one store, keyed by action, goal and level (the parameters a case has set)."""

from __future__ import annotations

import weakref
from typing import Any

from .premises import Premises

#: in a key: a lesson for every action, or for every level of one action's cases
ANY = None

#: what a lesson may say, with the key it is learned under (``a``: an action; ``level``:
#: the parameters, by index, that a case of it has set)
#:
#: - ``(ANY, goal, ANY)``: ``CORE`` the premises (by :attr:`.Premises.keys`) that showed
#:   the goal in some case, tried first next time (any subset of the premises is sound);
#:   ``HITS`` and ``MISSES`` how often they sufficed and fell short; ``BY_CONJUNCT`` some
#:   action showed it conjunct by conjunct only.
#: - ``(a, goal, ANY)``: ``NEEDS_ALL`` a slice could not show it in a case of that action
#:   (skip the slice); ``TO_THE_MOVER`` it was split down to the player to move (its other
#:   cases split it at once, without the slices every parameter's split would spend first);
#:   ``BY_CONJUNCT`` / ``NOT_BY_CONJUNCT`` a case showed it conjunct by conjunct only /
#:   could not; ``UNTRACKED`` every premise showed it only on the solver with Z3's
#:   preprocessing (the tracked query spent its budget): its other cases go there at once.
#: - ``(a, goal, level)``: ``SPLIT_FURTHER`` a case at that level had to split it: its other
#:   cases at that level (another player count's at the top, the siblings below) split it at
#:   once; and at the top (level ``frozenset()``) ``SPLIT_ON`` the (goal kind, parameter
#:   name) it was split on: a goal of that kind with nothing learned, in an action that would
#:   split on that parameter, is split at once.
CORE, HITS, MISSES = "core", "hits", "misses"
NEEDS_ALL, TO_THE_MOVER, UNTRACKED = "needs every premise", "to the mover", "untracked"
BY_CONJUNCT, NOT_BY_CONJUNCT = "by conjunct", "not by conjunct"
SPLIT_FURTHER, SPLIT_ON = "split further", "split on"

Key = tuple[int | None, str, frozenset[int] | None]


class Lessons:
    """What the step proofs of earlier cases taught, for the later cases of one run.

    Only shortcuts, never verdicts. Plain data (premises by key, not by term), so a job
    can hand what it learned to another job, for another number of players (see
    ``prove``).
    """

    def __init__(self) -> None:
        #: (action, goal, level) -> what was learned there (see the module's names)
        self.learned: dict[Key, dict[str, Any]] = {}
        # derived from ``learned``, not data: (goal kind, parameter) pairs split on
        self._split_kinds: set[tuple[str, str]] = set()
        # per premise set and goal: (how many keys it was mapped for, the indices)
        self._indices: "weakref.WeakKeyDictionary[Premises, dict[str, tuple[int, list[int]]]]" = \
            weakref.WeakKeyDictionary()

    def __getstate__(self) -> dict[str, Any]:
        """The store alone (the caches and the index are made again from it)."""
        return {"learned": self.learned}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.learned = state["learned"]
        self._split_kinds = {kind for lesson in self.learned.values()
                             for kind in lesson.get(SPLIT_ON, ())}
        self._indices = weakref.WeakKeyDictionary()

    # --- yes-or-no lessons ---------------------------------------------------------------
    def has(self, what: str, action: int | None, goal: str,
            level: frozenset[int] | None = ANY) -> bool:
        """Whether ``what`` was learned for (action, goal, level)."""
        lesson = self.learned.get((action, goal, level))
        return lesson is not None and what in lesson

    def note(self, what: str, action: int | None, goal: str,
             level: frozenset[int] | None = ANY) -> None:
        """Learn ``what`` for (action, goal, level)."""
        self.learned.setdefault((action, goal, level), {})[what] = True

    # --- what a goal was split on ----------------------------------------------------------
    def split_on(self, action: int, goal: str, kind: str, parameter: str) -> None:
        """At the top of an action's cases, goal ``goal`` (of kind ``kind``) was split on
        ``parameter``."""
        lesson = self.learned.setdefault((action, goal, frozenset()), {})
        lesson.setdefault(SPLIT_ON, set()).add((kind, parameter))
        self._split_kinds.add((kind, parameter))

    def split_kind(self, kind: str, parameter: str) -> bool:
        """Some action split a goal of kind ``kind`` on ``parameter`` at the top."""
        return (kind, parameter) in self._split_kinds

    # --- the premises that showed a goal ---------------------------------------------------
    def learn(self, p: Premises, goal: str, core: list[int]) -> None:
        """Premises ``core`` of ``p`` showed ``goal`` for one action: the union grows as
        actions need different ones."""
        lesson = self.learned.setdefault((ANY, goal, ANY), {})
        lesson.setdefault(CORE, set()).update(p.keys[k] for k in core)

    def tally(self, goal: str, shown: bool) -> None:
        """The learned premises of ``goal`` sufficed (``shown``) or fell short once more."""
        lesson = self.learned.setdefault((ANY, goal, ANY), {})
        what = HITS if shown else MISSES
        lesson[what] = lesson.get(what, 0) + 1

    def cores(self, goal: str) -> set[tuple]:
        """The premise keys learned for ``goal`` (empty: none yet)."""
        return self.learned.get((ANY, goal, ANY), {}).get(CORE, set())

    def core(self, p: Premises, goal: str) -> list[int] | None:
        """The premises of ``p`` that showed ``goal`` before (None: nothing learned yet, or
        they fell short more often than not: each action needs its own, say)."""
        lesson = self.learned.get((ANY, goal, ANY))
        keys = None if lesson is None else lesson.get(CORE)
        if keys is None or lesson.get(MISSES, 0) > lesson.get(HITS, 0) + 1:
            return None
        mapped = self._indices.setdefault(p, {})
        seen = mapped.get(goal)
        if seen is None or seen[0] != len(keys):  # the keys only grow: a new count, new keys
            seen = mapped[goal] = (len(keys), p.having(keys))
        return seen[1]
