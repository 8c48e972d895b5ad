"""The C backend where play is the cost: whole games played inside C, drawing exactly as
the Python drivers draw, so that one seed gives the same game on either backend.

``backend`` is ``"c"`` (the default) or ``"python"``. :func:`native_for` gives a model's
C module under its reading, or None -- with the Python backend, or when no C module can
be built (no compiler: then one line on stderr says so, once, and play goes on in
Python). Every game function here returns None when the rules raised (or refused a move)
in C: the caller then plays that game with the Python backend, whose result (or error)
is the one that counts.

Random draws: the C runtime implements CPython's Mersenne Twister and the draws
``random.Random`` makes (``randrange``, ``choices`` with probabilities or integer weights,
``random``); a generator's state moves between Python and C with ``getstate`` /
``setstate`` (or, for a fresh ``random.Random(seed)``, by seeding C from the same seed).
"""

from __future__ import annotations

import hashlib
import random
import sys
from typing import Any, Sequence

import attrs

from .model import Model

BACKENDS = ("c", "python")
DEFAULT_BACKEND = "c"

#: the policies C plays (rulespec_native.c)
RANDOM, GREEDY, RULE_FIRST = 0, 1, 2

_SAID: set[str] = set()


def resolve(backend: str | None) -> str:
    if backend is None:
        return DEFAULT_BACKEND
    if backend not in BACKENDS:
        raise ValueError(f"unknown backend {backend!r} (choose from {', '.join(BACKENDS)})")
    return backend


def native_for(model: Model, backend: str | None = None) -> Any:
    """The model's C module under its reading (a ``NativeGame``), or None: with
    ``backend="python"``, or when the C backend is unavailable (said once on stderr)."""
    if resolve(backend) != "c":
        return None
    found = model.__dict__.get("_native")
    if found is not None:
        return found or None
    from ..compile.native.build import NativeUnavailable
    from ..compile.native.game import NativeGame, native_module
    try:
        module = native_module(model.spec)
    except NativeUnavailable as err:
        reason = str(err)
        if reason not in _SAID:
            _SAID.add(reason)
            print(f"rulespec: {reason}; using the Python backend (slower)", file=sys.stderr)
        model.__dict__["_native"] = False
        return None
    interp = [p.enum.index_of(model.interpretation[p.name]) for p in model.spec.interpretations]
    game = NativeGame(module, interp, lambda: model.compiled)
    game.work = game.ffi.gc(game.rt.rs_work_new(game.table), game.rt.rs_work_free)
    model.__dict__["_native"] = game
    return game


def native_model(model: Model, backend: str | None = "c") -> Model:
    """``model`` stepping on its C module (``rulespec.load(..., backend="c")``); ``model``
    itself with the Python backend or when no C module can be built."""
    game = native_for(model, backend)
    if game is None:
        return model
    found = model.__dict__.get("_stepping_in_c")
    if found is None:
        from ..compile.native.compiled import compiled_game
        found = Model(model.spec, model.interpretation, compiled=compiled_game(game))
        found.__dict__["_native"] = game
        model.__dict__["_stepping_in_c"] = found
    return found


# --- random generators ------------------------------------------------------------------
def seed_words(seed: Any) -> bytes | None:
    """The 32-bit words CPython's ``random.Random(seed)`` seeds its generator with (least
    significant first, as little-endian bytes), for an int, str or bytes seed; None for
    another kind of seed."""
    if isinstance(seed, bool) or not isinstance(seed, (int, str, bytes, bytearray)):
        return None
    if isinstance(seed, int):
        a = abs(seed)
    else:
        raw = seed.encode() if isinstance(seed, str) else bytes(seed)
        a = int.from_bytes(raw + hashlib.sha512(raw).digest(), "big")
    raw = a.to_bytes(max(1, (a.bit_length() + 31) // 32) * 4, "little")
    if sys.byteorder != "little":   # the words in the machine's order
        raw = b"".join(raw[i:i + 4][::-1] for i in range(0, len(raw), 4))
    return raw


class Rng:
    """A CPython Mersenne Twister in C, made from a Python generator's state or a seed."""

    def __init__(self, game: Any) -> None:
        self.ffi, self.rt = game.ffi, game.rt
        self.ptr = self.ffi.gc(self.rt.rs_rng_new(), self.rt.rs_rng_free)

    @classmethod
    def seeded(cls, game: Any, seed: Any) -> "Rng":
        """The generator of ``random.Random(seed)``."""
        words = seed_words(seed)
        if words is None:
            r = cls(game)
            r.load(random.Random(seed))
            return r
        r = cls(game)
        r.rt.rs_rng_seed(r.ptr, r.ffi.from_buffer("uint32_t[]", words), len(words) // 4)
        return r

    @classmethod
    def of(cls, game: Any, rng: random.Random) -> "Rng":
        r = cls(game)
        r.load(rng)
        return r

    def load(self, rng: random.Random) -> None:
        self.rt.rs_rng_set(self.ptr, self.ffi.new("uint32_t[]", rng.getstate()[1]))

    def copy(self) -> "Rng":
        other = Rng.__new__(Rng)
        other.ffi, other.rt = self.ffi, self.rt
        other.ptr = self.ffi.gc(self.rt.rs_rng_new(), self.rt.rs_rng_free)
        self.rt.rs_rng_copy(other.ptr, self.ptr)
        return other

    def store(self, rng: random.Random) -> None:
        """Leave ``rng`` where this generator is (so Python draws on from there)."""
        buf = self.ffi.new("uint32_t[625]")
        self.rt.rs_rng_get(self.ptr, buf)
        version, _, gauss = rng.getstate()
        rng.setstate((version, tuple(self.ffi.unpack(buf, 625)), gauss))


# --- whole games ----------------------------------------------------------------------
@attrs.frozen
class Played:
    """A game played in C: its steps, last state and the action keys taken."""

    steps: int
    final: tuple
    keys: tuple[tuple, ...]


def play(game: Any, rng: Rng, players: int, *, limit: int, policy: int = RANDOM,
         by_weight: bool = False, until_over: bool = False, start: tuple | None = None,
         branches: Any = None, taken: Any = None, keys: bool = True) -> Played | None:
    """One game: at most ``limit`` steps from setup (or ``start``); players by
    ``policy``, chance outcomes by their probabilities (``by_weight``: by
    ``rng.choices`` over the integer weights); ``until_over``: stop at the end of the game
    before asking for moves. None when the rules raised."""
    f, rt = game.ffi, game.rt
    opts = f.new("rs_play_opts *", [policy, int(by_weight), limit, int(until_over),
                                    int(branches is not None)])
    begin = game._state(start) if start is not None else f.NULL
    if rt.rs_play(game.work, game.I, rng.ptr, players, begin, opts,
                  branches if branches is not None else f.NULL,
                  taken if taken is not None else f.NULL) < 0:
        return None
    final = game.module.values(rt.rs_work_final(game.work))
    n = rt.rs_work_trace_len(game.work) if keys else 0
    played = tuple(game.module.keys(rt.rs_work_trace(game.work), n)) if n else ()
    return Played(rt.rs_work_steps(game.work), final, played)


def leaf(game: Any, values: tuple, steps: int) -> tuple[int, list[int]] | None:
    """``(kind, players)`` of a state reached after ``steps`` steps: (1, its winners) when
    the game is over, (2, []) when it is cut at the horizon, (3, the leaders on the score)
    otherwise; None when the rules raised."""
    got = game.rt.rs_leaf(game.work, game.I, game._state(values), steps)
    if got < 0:
        return None
    return got, winners(game, 0) if got != 2 else []


def winners(game: Any, which: int) -> list[int]:
    buf = game.ffi.new("int32_t[]", game.module.spec.max_players + 1)
    n = game.rt.rs_work_winners(game.work, which, buf)
    return list(game.ffi.unpack(buf, n))


class NativeLeaves:
    """``openspiel.leaf_value`` in C: one generator for all the leaves of a search, as the
    Python evaluator keeps one ``random.Random``."""

    def __init__(self, game: Any, rng: random.Random) -> None:
        self.game = game
        self.py = rng
        self.rng = Rng.of(game, rng)

    @classmethod
    def of(cls, model: Model, rng: random.Random, backend: str | None) -> "NativeLeaves | None":
        game = native_for(model, backend)
        return None if game is None else cls(game, rng)

    def value(self, model: Model, values: tuple, steps: int, rollout: int | None
              ) -> list[float]:
        from ..openspiel import leaf_value, win_returns
        game = self.game   # the search's game: one model, one reading
        horizon = model.spec.horizon
        limit = 2 ** 31 - 1 if rollout is None else rollout
        if horizon is not None:
            limit = min(limit, max(0, horizon - steps))
        before = self.rng.copy()
        played = play(game, self.rng, values[0], limit=limit, by_weight=True,
                      until_over=True, start=values, keys=False)
        got = None if played is None else leaf(game, played.final, steps + played.steps)
        if got is None:   # the rules raised: Python values this leaf, from the same draws
            before.store(self.py)
            value = leaf_value(model, values, steps, rollout, self.py)
            self.rng.load(self.py)
            return value
        kind, who = got
        return [0.0] * values[0] if kind == 2 else win_returns(values[0], who)


@attrs.frozen
class Lockstep:
    """One lockstep game in C: the driver's keys up to where the readings part (None if
    they never do), and each reading's final winners."""

    history: tuple[tuple, ...] | None
    driver_winners: list[int]
    shadow_winners: list[int]


def lockstep_game(driver: Any, shadow: Any, rng: Rng, own: Rng, players: int,
                  policy: int = RANDOM) -> Lockstep | None:
    got = driver.rt.rs_lockstep(driver.work, driver.I, shadow.work, shadow.I, rng.ptr,
                                own.ptr, players, policy)
    if got < 0:
        return None
    rt = driver.rt
    history = None
    if got == 1:
        n = rt.rs_work_trace_len(driver.work)
        history = tuple(driver.module.keys(rt.rs_work_trace(driver.work), n)) if n else ()
    return Lockstep(history, winners(driver, 0), winners(driver, 1))


def key_array(game: Any, keys: Sequence[tuple]) -> Any:
    """Action keys as the C drivers read them (``width`` ints each)."""
    w = game.module.width
    flat = []
    for k in keys:
        flat.extend(k)
        flat.extend([0] * (w - len(k)))
    return game.ffi.new("int32_t[]", flat or [0])


__all__ = ["BACKENDS", "DEFAULT_BACKEND", "GREEDY", "RANDOM", "RULE_FIRST", "Lockstep",
           "Played", "Rng", "key_array", "leaf", "lockstep_game", "native_for", "play",
           "resolve", "seed_words"]
