"""Does a difference between two readings matter? Seeded games in lockstep.

Each game is played by one reading's players (the "driver"; even games reading A, odd
games reading B) while the other reading shadows every choice it can: the same action
when it is legal there too, its own seeded choice otherwise. The players follow a
:mod:`policy <rulespec.check.policy>`: uniform random by default, or greedy or MCTS play
(a difference that random play finds may not matter between competent players, or
the other way round); chance outcomes are always drawn by their probabilities. The
readings *part* in a game when, from the same state, they allow different actions or the
same action leads to different states; the *winner changes* when the final winners
differ. Each rate comes with a 95 % Wilson score interval, the number of games and the
seed.
"""

from __future__ import annotations

import math
import random
from typing import Any

import attrs

from ..runtime.model import CHANCE, TERMINAL, Model, State
from ..runtime.native import native_for
from .impact_store import LockstepStore
from .policy import RANDOM_DESCRIPTION, GreedyPolicy, Policy

Z95 = 1.959963984540054  # the 97.5 % quantile of the standard normal distribution


def wilson(k: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for ``k`` successes in ``n`` trials (95 % by default).

    >>> lo, hi = wilson(0, 20); (lo, round(hi, 3))
    (0.0, 0.161)
    >>> wilson(0, 0)
    (0.0, 1.0)
    """
    if n == 0:
        return 0.0, 1.0
    p = k / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    lo, hi = max(0.0, centre - half), min(1.0, centre + half)
    return (0.0 if k == 0 else lo), (1.0 if k == n else hi)  # exact at the ends


@attrs.frozen
class Rate:
    """``count`` of ``games``, as a fraction with its 95 % Wilson interval."""

    count: int
    games: int
    low: float
    high: float

    @classmethod
    def of(cls, count: int, games: int) -> "Rate":
        lo, hi = wilson(count, games)
        return cls(count, games, round(lo, 4), round(hi, 4))

    def __str__(self) -> str:
        if not self.games:
            return "no games"
        return (f"{self.count}/{self.games} ({100 * self.count / self.games:.0f} %, 95 % CI "
                f"{100 * self.low:.0f}-{100 * self.high:.0f} %)")


@attrs.frozen
class Impact:
    """How often two readings part in seeded games, and how often the winner changes."""

    games: int
    seed: int
    players: tuple[int, ...]       # the player count of each game, in order
    parted: Rate
    winner_changed: Rate
    first_part_step: int | None    # the earliest step (from setup) where a game parted
    policy: str = RANDOM_DESCRIPTION   # who played the players' moves (Policy.describe())

    def to_json(self) -> dict[str, Any]:
        return attrs.asdict(self)


def impact(ma: Model, mb: Model, games: int, seed: int, policy: Policy | None = None,
           backend: str | None = None) -> Impact:
    """Play ``games`` seeded games of the two readings in lockstep (see the module
    docstring), the players following ``policy`` (None: uniform random); player counts
    cycle over the game's range."""
    return lockstep(ma, mb, games, seed, policy=policy, backend=backend)[0]


def lockstep(ma: Model, mb: Model, games: int, seed: int, progress: Any = None,
             policy: Policy | None = None, paths: dict | None = None,
             backend: str | None = None, cluster: Any = None
             ) -> tuple[Impact, tuple[int, tuple] | None]:
    """:func:`impact`, and the earliest parting seen: (players, the action keys from setup
    up to the state where the readings first part), or None.

    ``paths``: a dict kept across calls with the same ``ma``, seed and policy (one reading
    against each of several others): reading A's own games, which do not depend on the
    reading that shadows them, are then played once. On the C backend (``backend``, the
    default) random and greedy games are played in C, each game as here, draw for draw.
    ``cluster``: the games are played there, in tasks of a fixed count of games
    (:mod:`.impact_tasks`; each game is a function of the seed and its number: the same
    figures)."""
    if policy is not None and policy.name == "random":
        policy = None  # the fast path draws exactly as RandomPolicy does
    if cluster is not None and games:
        from .impact_tasks import games_on
        played = games_on(cluster, ma, mb, games, seed, policy, backend, progress)
    else:
        played = play_games(ma, mb, range(games), seed, policy, paths, backend, progress)
    return summarise(played, games, seed, policy)


def play_games(ma: Model, mb: Model, numbers: range, seed: int, policy: Policy | None,
               paths: dict | None = None, backend: str | None = None, progress: Any = None
               ) -> list[tuple[int, tuple | None, bool]]:
    """Lockstep games ``numbers`` of the seed: for each, its player count, the action keys
    up to where the readings parted (None: they never did) and whether the winner
    changed."""
    native = None
    if policy is None or policy.name == "greedy":
        na, nb = native_for(ma, backend), native_for(mb, backend)
        native = (na, nb) if na is not None and nb is not None else None
    span = ma.max_players - ma.min_players + 1
    stored = LockstepStore(ma, mb, seed, policy, native is not None)
    out = []
    for g in numbers:
        if progress is not None:
            progress.note(f"lockstep game {g + 1}/{numbers.stop}")
        n = ma.min_players + g % span
        found = stored.get(g, n)  # played by an earlier run
        played = found or (None if native is None else _native_game(native, g, seed, n, policy))
        if played is not None:
            history, wd, ws = played
        else:
            history, wd, ws = _python_game(ma, mb, g, seed, n, policy, paths)
        if found is None:
            stored.put(g, n, (history, wd, ws))
        out.append((n, history, wd != ws))
    return out


def summarise(played: list[tuple[int, tuple | None, bool]], games: int, seed: int,
              policy: Policy | None) -> tuple[Impact, tuple[int, tuple] | None]:
    """The figures of games played in order (:func:`play_games`), and the earliest
    parting (the first game's, among those that parted soonest)."""
    first: tuple[int, tuple] | None = None
    for n, history, _ in played:
        if history is not None and (first is None or len(history) < len(first[1])):
            first = (n, history)
    parted = sum(1 for _, h, _ in played if h is not None)
    changed = sum(1 for *_, c in played if c)
    return (Impact(games, seed, tuple(n for n, *_ in played), Rate.of(parted, games),
                   Rate.of(changed, games), None if first is None else len(first[1]),
                   RANDOM_DESCRIPTION if policy is None else policy.describe()), first)


def _python_game(ma: Model, mb: Model, g: int, seed: int, n: int, policy: Policy | None,
                 paths: dict | None) -> tuple[tuple | None, list[int], list[int]]:
    rng = random.Random(f"{seed}:{g}")
    own = random.Random(rng.random())   # the shadow's choices once it cannot follow
    driver, shadow = (ma, mb) if g % 2 == 0 else (mb, ma)
    if g % 2 == 0 and paths is not None:
        key = (id(ma), seed, g, n)
        path = paths.get(key)
        if path is None:
            path = paths[key] = _path(driver, n, rng, policy)
    else:
        path = _path(driver, n, rng, policy)
    return _game(driver, shadow, n, path, own, policy)


def _native_game(native: tuple[Any, Any], g: int, seed: int, n: int, policy: Policy | None
                 ) -> tuple[tuple | None, list[int], list[int]] | None:
    """One lockstep game in C (None: the rules raised; it is played in Python)."""
    from ..runtime import native as N
    na, nb = native
    driver, shadow = (na, nb) if g % 2 == 0 else (nb, na)
    rng = N.Rng.seeded(driver, f"{seed}:{g}")
    own = N.Rng.seeded(driver, driver.rt.rs_random(rng.ptr))
    got = N.lockstep_game(driver, shadow, rng, own, n,
                          N.RANDOM if policy is None else N.GREEDY)
    if got is None:
        return None
    return got.history, got.driver_winners, got.shadow_winners


@attrs.frozen
class _Path:
    """The driver's game: at each step its state, its legal actions and the one chosen
    (None where none is legal); then the final state and its winners."""

    steps: list[tuple[tuple, list[tuple], tuple | None]]
    final: tuple
    winners: list[int]


def _path(driver: Model, n: int, rng: random.Random, policy: Policy | None) -> _Path:
    cd = driver.compiled
    vd = cd.initial(n)
    steps: list[tuple[tuple, list[tuple], tuple | None]] = []
    for _ in range(driver.spec.max_steps + 1):
        ld = _legal(cd, vd, rng)
        if not ld:
            steps.append((vd, ld, None))
            break
        key = _choose(driver, vd, ld, rng, policy)
        steps.append((vd, ld, key))
        vd = cd.apply[key[0]](vd, *key[1:])
    return _Path(steps, vd, driver.winners(_state(driver, vd)))


def _game(driver: Model, shadow: Model, n: int, path: _Path, own: random.Random,
          policy: Policy | None) -> tuple[tuple | None, list[int], list[int]]:
    """The shadow follows the driver's game on the compiled functions (no Action
    objects): returns the action keys from setup to where the readings parted (None if
    they never did) and both readings' final winners."""
    cd, cs = driver.compiled, shadow.compiled
    # readings compiled one from the other share the functions a point does not reach:
    # the same functions on the same state give the same moves
    same_moves = cs.legal is cd.legal and cs.terminal is cd.terminal
    vs = cs.initial(n)
    part_at: int | None = None
    history: list[tuple] = []
    for step, (vd, ld, key) in enumerate(path.steps):
        if part_at is None:
            if vd != vs:          # the last action had different effects
                part_at = step - 1
            elif not same_moves and (ld != _legal(cs, vs, None)
                                     or cd.terminal(vd) != cs.terminal(vs)):
                part_at = step
        if key is None:
            break
        if part_at is None:
            history.append(key)
        if cs.terminal(vs) or cs.current_player(vs) == TERMINAL:
            continue
        ls = ld if part_at is None else _legal(cs, vs, None)
        if key in ls:
            vs = cs.apply[key[0]](vs, *key[1:])
        elif ls:
            vs = cs.apply[(k := _choose(shadow, vs, ls, own, policy))[0]](vs, *k[1:])
    vs = _finish(shadow, vs, own, policy)
    vd, wd = path.final, path.winners
    ws = shadow.winners(_state(shadow, vs))
    if part_at is None and (cd.scores(vd) != cs.scores(vs) or wd != ws):
        part_at = len(history)  # the same end, scored or tie-broken differently
    return (None if part_at is None else tuple(history[:part_at])), wd, ws


def _legal(c: Any, values: tuple, _rng: Any) -> list[tuple]:
    if c.terminal(values):
        return []
    return list(c.legal(values))


def _choose(model: Model, values: tuple, legal: list[tuple], rng: random.Random,
            policy: Policy | None) -> tuple:
    c = model.compiled
    if c.current_player(values) == CHANCE:
        weights = dict(c.chance_weights(values))
        return rng.choices(legal, [weights.get(k, 0) for k in legal])[0]
    if policy is None:
        return legal[rng.randrange(len(legal))]
    if len(legal) == 1:
        return legal[0]
    if isinstance(policy, GreedyPolicy):   # the same choice, without Action objects
        return legal[policy.choose_key(model, values, legal, rng)]
    actions = [model._action(k) for k in legal]
    return legal[policy.choose(model, State(values, model), actions, rng)]


def _finish(model: Model, values: tuple, rng: random.Random, policy: Policy | None
            ) -> tuple:
    c = model.compiled
    for _ in range(model.spec.max_steps + 1):
        legal = _legal(c, values, None)
        if not legal:
            break
        key = _choose(model, values, legal, rng, policy)
        values = c.apply[key[0]](values, *key[1:])
    return values


def _state(model: Model, values: tuple) -> State:
    return State(values, model)
