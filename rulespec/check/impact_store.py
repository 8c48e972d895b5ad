"""Lockstep games (:mod:`.impact`) through the verdict store (:mod:`.store`).

Each seeded game of two readings is its own entry: a pure function of both readings'
whole specs (a game may run any rule), the game's number and player count, the seed, who
plays (the policy with its budget) and where it is played (C or Python: the same games by
design, kept apart all the same). Kept as each game ends, so an interrupted ``diff
--games`` run again plays only the games it had not played.
"""

from __future__ import annotations

from typing import Any

from ..runtime.model import Model
from .fingerprint import SpecPrint, _Hasher
from .store import MISSING, current

KIND = "lockstep-game"


class LockstepStore:
    """One ``lockstep`` call's view of the store (does nothing when no store is open)."""

    def __init__(self, ma: Model, mb: Model, seed: int, policy: Any, native: bool) -> None:
        self.store = current()
        if self.store is None:
            return
        self.base = {"a": SpecPrint.of(ma.spec).whole(ma.interpretation),
                     "b": SpecPrint.of(mb.spec).whole(mb.interpretation), "seed": seed,
                     "policy": _Hasher().of(policy), "native": native}

    def get(self, g: int, n: int) -> tuple | None:
        if self.store is None:
            return None
        got = self.store.get(KIND, {**self.base, "game": g, "players": n})
        return got if isinstance(got, tuple) and len(got) == 3 else None

    def put(self, g: int, n: int, played: tuple) -> None:
        if self.store is not None:
            self.store.put(KIND, {**self.base, "game": g, "players": n}, played)
