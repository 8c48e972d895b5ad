"""Play a spec and its mutant side by side: where do they part, if anywhere?

Both are compiled from specs with the same state layout and the same action parameters,
so one action key means the same move in both. :func:`search` visits every state both
reach by the same actions, breadth first, within a node budget: when it finishes without
a difference, no sequence of moves tells the two apart (for a game without chance, that is
every game). :func:`random_witness` plays seeded random games in lockstep (main's
:func:`~rulespec.check.impact.lockstep`) to find where a survivor parts from the spec.
"""

from __future__ import annotations

from collections import deque
from typing import Any

import attrs

from ...runtime.model import CHANCE, Model, State


@attrs.frozen
class Parting:
    """Where the mutant first behaves otherwise: the actions from setup, and how."""

    players: int
    actions: tuple[str, ...]
    detail: str

    def text(self) -> str:
        steps = ", ".join(self.actions) if self.actions else "(setup)"
        if len(self.actions) > 12:
            steps = (", ".join(self.actions[:3]) + f", ... ({len(self.actions) - 12} more) "
                     "..., " + ", ".join(self.actions[-9:]))
        return f"with {self.players} players, after {steps}: {self.detail}"


def compare(ma: Model, mb: Model, va: tuple, vb: tuple) -> str | None:
    """How two states of the spec and the mutant differ to a player, or None."""
    ca, cb = ma.compiled, mb.compiled
    if va != vb:
        da, db = State(va, ma).to_dict()["fields"], State(vb, mb).to_dict()["fields"]
        return "the states differ in " + ", ".join(k for k in da if da[k] != db.get(k))
    ta, tb = ca.terminal(va), cb.terminal(vb)
    if ta != tb:
        return "one ends the game, the other does not"
    if ta:
        if ca.scores(va) != cb.scores(vb):
            return f"scores {ca.scores(va)} vs {cb.scores(vb)}"
        wa, wb = ma.winners(State(va, ma)), mb.winners(State(vb, mb))
        return f"winners {wa} vs {wb}" if wa != wb else None
    if ca.current_player(va) != cb.current_player(vb):
        return (f"player {ca.current_player(va)} moves in the spec, "
                f"{cb.current_player(vb)} in the mutant")
    la, lb = ca.legal(va), cb.legal(vb)
    if la != lb:
        sa, sb = set(la), set(lb)
        only_a = [str(ma._action(k)) for k in la if k not in sb][:3]
        only_b = [str(ma._action(k)) for k in lb if k not in sa][:3]
        parts = ([f"only the spec allows {', '.join(only_a)}"] if only_a else []) + (
            [f"only the mutant allows {', '.join(only_b)}"] if only_b else [])
        return "; ".join(parts) or "the legal actions come in another order"
    if ca.current_player(va) == CHANCE and ca.chance_weights(va) != cb.chance_weights(vb):
        return "the chance weights differ"
    return None


def search(ma: Model, mb: Model, depth: int, budget: int
           ) -> tuple[Parting | None, bool, int]:
    """Breadth first over the actions legal in both, from each player count's setup.

    Returns (the first parting or None, exhaustive, nodes visited). ``exhaustive`` is
    True when every reachable pair of states within ``depth`` actions was compared within
    ``budget`` nodes."""
    nodes = 0
    for n in range(ma.min_players, ma.max_players + 1):
        va, vb = ma.compiled.initial(n), mb.compiled.initial(n)
        found = compare(ma, mb, va, vb)
        if found:
            return Parting(n, (), found), True, nodes
        queue: deque[tuple[tuple, tuple, int]] = deque([(va, (), 0)])
        seen = {va}
        while queue:
            v, path, d = queue.popleft()
            if d >= depth or ma.compiled.terminal(v):
                continue
            for key in ma.compiled.legal(v):
                nodes += 1
                if nodes > budget:
                    return None, False, nodes
                ta = ma.compiled.apply[key[0]](v, *key[1:])
                tb = mb.compiled.apply[key[0]](v, *key[1:])
                steps = (*path, key)
                found = compare(ma, mb, ta, tb)
                if found:
                    return Parting(n, _texts(ma, n, steps), found), True, nodes
                if ta not in seen:
                    seen.add(ta)
                    queue.append((ta, steps, d + 1))
    return None, True, nodes


def exhaustible(model: Model, budget: int) -> bool:
    """Whether :func:`search` can visit every reachable state of this game within
    ``budget`` nodes (tried on the game against itself); a game with chance or a horizon
    never counts as exhaustible."""
    spec = model.spec
    if spec.chance_node is not None or spec.horizon_reason is not None:
        return False
    _, exhaustive, _ = search(model, model, spec.max_steps + 1, budget)
    return exhaustive


def random_witness(ma: Model, mb: Model, games: int, seed: int) -> Parting | None:
    """The earliest parting in ``games`` seeded random games played in lockstep.

    They are played in Python: a mutant's C module would be compiled for a few games (on
    MOTU about 16 CPU s in the C compiler, most of what a survivor cost), and one seed
    plays the same games on either backend."""
    from ..impact import lockstep
    _, first = lockstep(ma, mb, games, seed, backend="python")
    if first is None:
        return None
    n, keys = first
    va, vb = ma.compiled.initial(n), mb.compiled.initial(n)
    for key in keys:
        va = ma.compiled.apply[key[0]](va, *key[1:])
        vb = mb.compiled.apply[key[0]](vb, *key[1:])
    detail = compare(ma, mb, va, vb)
    if detail is None and not ma.compiled.terminal(va):
        # they part in the effects of the next action: name the first that shows it
        for key in ma.compiled.legal(va):
            ta = ma.compiled.apply[key[0]](va, *key[1:])
            detail = compare(ma, mb, ta, mb.compiled.apply[key[0]](vb, *key[1:]))
            if detail is not None:
                keys = (*keys, key)
                break
    return Parting(n, _texts(ma, n, keys), detail or "they play on differently from here")


def _texts(model: Model, n: int, keys: Any) -> tuple[str, ...]:
    return tuple(str(model._action(k)) for k in keys)
