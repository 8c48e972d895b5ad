"""``diff --games`` on a cluster: the lockstep games in tasks of :data:`GAMES_PER_TASK`.

A game is a function of the two readings, the seed and its number (its player count, its
random draws: :mod:`.impact`), so the tasks may run anywhere, in any order; the parent
puts their games back in order and sums them as if it had played them itself.
"""

from __future__ import annotations

from concurrent.futures import FIRST_COMPLETED, wait
from typing import Any

from ..runtime.gameref import GameRef
from ..runtime.model import Model
from .impact import play_games
from .policy import Policy

#: games per task: a count fixed here, so the tasks never depend on the cluster's size
GAMES_PER_TASK = 8


def _games_task(a: GameRef, b: GameRef, lo: int, hi: int, seed: int,
                policy: Policy | None, backend: str | None
                ) -> list[tuple[int, tuple | None, bool]]:
    """A task: lockstep games ``lo`` to ``hi - 1``."""
    return play_games(a.load(), b.load(), range(lo, hi), seed, policy, None, backend)


def games_on(cluster: Any, ma: Model, mb: Model, games: int, seed: int,
             policy: Policy | None, backend: str | None, progress: Any = None
             ) -> list[tuple[int, tuple | None, bool]]:
    """Every game of :func:`.impact.play_games` for ``range(games)``, played on
    ``cluster``, in game order."""
    from .executor import campaign_executor
    a, b = GameRef.of(ma), GameRef.of(mb)
    chunks = [(lo, min(games, lo + GAMES_PER_TASK)) for lo in range(0, games, GAMES_PER_TASK)]
    got: dict[int, list] = {}
    with campaign_executor(1, cluster) as pool:
        pending = {pool.submit(_games_task, a, b, lo, hi, seed, policy, backend): lo
                   for lo, hi in chunks}
        while pending:
            done, _ = wait(pending, timeout=0.5, return_when=FIRST_COMPLETED)
            for f in done:
                got[pending.pop(f)] = f.result()
            if progress is not None and done:
                progress.note(f"lockstep games: {len(chunks) - len(pending)}/{len(chunks)} "
                              "tasks done")
    return [game for lo, _ in chunks for game in got[lo]]
