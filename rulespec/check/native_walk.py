"""``check --random`` on the C backend: each seeded game is played inside C, which checks
at every step the generic properties, the spec's invariants and its conservation laws.

C says only "every one of them held" or "stop here". When a game stops -- a property
failed, a rule raised, anything C is not sure of -- that game is played again in Python
(:func:`.walk.play_checked`, the same seed), which finds what went wrong and says it in
its own words: the verdicts and traces are the Python backend's. When every property held
in C, the properties C cannot check (a game's own Python properties, the observation
property of a game with hidden information) run on the states C recorded, in the order
the Python walk would run them; if one fails, the game is played again in Python too.

One generic check is sampled instead of run at every state: the JSON round trip
(``state_json_round_trip``), which is Python code (``json`` and the field codecs); it runs
on every :data:`JSON_EVERY`-th state the search reaches (the first of all included), and
at every state of a game played again in Python. What makes a round trip fail on a state
the rules made -- a cell outside its field's bounds (an enum member, an int range, a
bool) -- C checks at every state, and stops there.
"""

from __future__ import annotations

import random
from typing import Any, Callable, Sequence

from ..runtime import native as N
from ..runtime.model import Model, State
from .property import END, STATE, STEP, Property
from .walk import _run

#: the generic properties C checks at every step (rulespec_native.c: P_...)
C_CHECKS = {
    "legal_actions_nonempty_unless_terminal": 1,
    "legal_actions_are_accepted_and_illegal_refused": 2,
    "fields_within_bounds": 4,
    "chance_outcomes_are_a_distribution": 8,
    "apply_is_deterministic_and_pure": 16,
    "winners_are_total": 32,
    "terminates_within_declared_bound": 64,
}
JSON_ROUND_TRIP = "state_json_round_trip"
#: the JSON round trip runs on one state in this many (counted across a search's games)
JSON_EVERY = 256


def _generic() -> dict[str, Property]:
    from ..properties.generic import GENERIC
    return {p.name: p for p in GENERIC}


class NativeChecker:
    """The properties of one search, split into what C checks and what Python checks on
    the states C records."""

    def __init__(self, model: Model, game: Any, props: Sequence[Property],
                 policy: int) -> None:
        self.model, self.game = model, game
        spec = model.spec
        generic = _generic()
        invariants = {inv.name: k for k, inv in enumerate(spec.invariants)}
        laws = {c.name: k for k, c in enumerate(spec.conservation)}
        bits = 0
        inv = [0] * len(spec.invariants)
        cons = [0] * len(spec.conservation)
        self.json: Property | None = None
        self.python: list[Property] = []
        for p in props:
            if generic.get(p.name) is p and p.name in C_CHECKS:
                bits |= C_CHECKS[p.name]
            elif generic.get(p.name) is p and p.name == JSON_ROUND_TRIP:
                self.json = p
            elif not p.python_only and p.kind == STATE and p.name in invariants:
                inv[invariants[p.name]] = 1
            elif not p.python_only and p.kind == STEP and p.name in laws:
                cons[laws[p.name]] = 1
            else:
                self.python.append(p)
        if self.json is not None:
            # a state C made round-trips through JSON exactly when every cell is within
            # its field's bounds: C stops at one that is not (Python then replays)
            bits |= C_CHECKS["fields_within_bounds"]
        f = game.ffi
        self._inv = f.new("int8_t[]", inv or [0])
        self._cons = f.new("int8_t[]", cons or [0])
        every = [a.key for a in model._every_action().values()]
        self._every = N.key_array(game, every)
        self.opts = f.new("rs_check_opts *", [bits, self._inv, self._cons, policy, 1,
                                               len(every), self._every])
        game.rt.rs_work_record(game.work)
        game.rt.rs_work_set_state_count(game.work, 0)

    def game_ok(self, rng: N.Rng, players: int) -> tuple[bool, int, bool]:
        """Play one game in C: (every property held, steps, truncated)."""
        g = self.game
        rt = g.rt
        before = rt.rs_work_state_count(g.work)
        if rt.rs_check(g.work, g.I, rng.ptr, players, self.opts) != 0:
            return False, 0, False
        steps, truncated = rt.rs_work_steps(g.work), bool(rt.rs_work_truncated(g.work))
        if self.json is not None or self.python:
            if not self._python_ok(players, steps, truncated, before):
                return False, steps, truncated
        return True, steps, truncated

    def _python_ok(self, players: int, steps: int, truncated: bool, before: int) -> bool:
        """The Python properties on the recorded states, in the walk's order; the JSON
        round trip on the sampled ones."""
        g, model = self.game, self.model
        rt, module = g.rt, g.module
        ptr, size = rt.rs_work_states(g.work), module.size
        cache: dict[int, State] = {}

        def state(t: int) -> State:
            got = cache.get(t)
            if got is None:
                got = cache[t] = State(module.values(ptr, t * size), model)
            return got
        if self.json is not None:
            for t in range(steps + 1):
                if (before + t) % JSON_EVERY == 0 and _run(self.json, model, state(t)):
                    return False
        if not self.python:
            return True
        keys = module.keys(rt.rs_work_trace(g.work), steps)
        by_kind = {k: [p for p in self.python if p.kind == k] for k in (STATE, STEP, END)}
        if any(_run(p, model, state(0)) for p in by_kind[STATE]):
            return False
        for t in range(steps):
            action = model._action(keys[t])
            if any(_run(p, model, state(t), action, state(t + 1)) for p in by_kind[STEP]):
                return False
            if any(_run(p, model, state(t + 1)) for p in by_kind[STATE]):
                return False
        if truncated:
            return True
        return not any(_run(p, model, state(steps), steps) for p in by_kind[END])


def native_search(model: Model, game: Any, props: Sequence[Property], examples: int,
                  seed: int, players: int | None, policy: int,
                  replay: Callable[[int, random.Random, int], None], tally: Any,
                  progress: Any) -> None:
    """Play ``examples`` seeded games in C; a game C stops is handed to ``replay(i, rng,
    players)`` (the Python walk: it raises the violation, if any). Each game's generator
    and player count are the Python search's (``random.Random(f"{seed}:{i}")``)."""
    checker = NativeChecker(model, game, props, policy)
    lo, hi = model.min_players, model.max_players
    for i in range(examples):
        rng = N.Rng.seeded(game, f"{seed}:{i}")
        n = players if players is not None else lo + game.rt.rs_randbelow(rng.ptr, hi - lo + 1)
        progress.advance()
        if tally is not None:
            tally.games += 1
            tally.players.add(n)
        ok, steps, truncated = checker.game_ok(rng, n)
        if ok:
            if tally is not None:
                tally.steps += steps
                if truncated:
                    tally.cut()
            continue
        py = random.Random(f"{seed}:{i}")
        if players is None:
            py.randint(lo, hi)
        replay(i, py, n)
