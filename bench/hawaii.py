"""Hawaii: full random games per second, through the public API and the compiled path.

Not a test: it prints a table. Each runner plays random 4-player games of Hawaii from setup
to the end (player actions uniformly at random among the legal ones, chance outcomes by
their weights) for about ``--seconds`` of wall time in all, interleaved with the other
runners in ``--rounds`` time slices so that a change in machine load hits them alike.

    python bench/hawaii.py [--seconds 4] [--seed 0] [--rounds 4] [--players 4] [--against REV]

Runners:
  rulespec API        ``game.legal_actions`` / ``game.chance_outcomes`` / ``game.apply``
                      (which re-checks legality) / ``game.is_terminal`` / ``game.scores``
  API random_action   the public API with ``game.random_action(state, rng)`` instead of
                      choosing among ``game.legal_actions`` (the same draws, so the same
                      games, without making an Action per legal move)
  rulespec compiled   the generated code on raw state tuples: ``compiled.legal(values)``,
                      ``compiled.chance_weights(values)`` (weighted choice at chance nodes),
                      ``compiled.step[key[0]](values, key)`` (legality re-checked in the
                      same call), ``compiled.terminal``, ``compiled.scores``
  API @REV            with ``--against REV``: the "rulespec API" runner of this script, run
                      on rulespec as of git revision REV in a worker process (bench/versus.py)
                      and interleaved with the others, so the ratio is the library's change
All runners use ``random.Random(seed)`` the same way and list actions in the same order,
so with one seed they play the same games; the script checks that the first games' scores
agree (a float rounding in the weighted choice could in principle split them).
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import sys
import time
from typing import Callable

import rulespec
from rulespec import CHANCE

import versus

Playout = Callable[[random.Random], tuple[list[int], int]]   # (scores, steps)


def api_runner(players: int) -> Playout:
    game = rulespec.load("hawaii")

    def playout(rng: random.Random) -> tuple[list[int], int]:
        s = game.initial_state(players)
        steps = 0
        while not game.is_terminal(s):
            if game.current_player(s) == CHANCE:
                outcomes = game.chance_outcomes(s)
                a = rng.choices([a for a, _ in outcomes], [w for _, w in outcomes])[0]
            else:
                a = rng.choice(game.legal_actions(s))
            s = game.apply(s, a)
            steps += 1
        return game.scores(s), steps
    return playout


def sampler_runner(players: int) -> Playout:
    game = rulespec.load("hawaii")

    def playout(rng: random.Random) -> tuple[list[int], int]:
        s = game.initial_state(players)
        steps = 0
        while not game.is_terminal(s):
            s = game.apply(s, game.random_action(s, rng))
            steps += 1
        return game.scores(s), steps
    return playout


def compiled_runner(players: int) -> Playout:
    c = rulespec.load("hawaii").compiled
    initial, terminal, legal, step = c.initial, c.terminal, c.legal, c.step
    weights, current = c.chance_weights, c.current_player

    def playout(rng: random.Random) -> tuple[list[int], int]:
        v = initial(players)
        steps = 0
        while not terminal(v):
            if current(v) == CHANCE:
                cw = weights(v)
                key = rng.choices([k for k, _ in cw], [w for _, w in cw])[0]
            else:
                key = rng.choice(legal(v))
            v = step[key[0]](v, key)
            steps += 1
        return c.scores(v), steps
    return playout


RUNNERS: list[tuple[str, Callable[[int], Playout]]] = [
    ("rulespec API", api_runner),
    ("API random_action", sampler_runner),
    ("rulespec compiled", compiled_runner),
]
SAME_GAMES = 5


def measure(playout: Playout, rng: random.Random, seconds: float) -> tuple[int, int, float]:
    """Play until ``seconds`` pass: (games, steps, elapsed seconds)."""
    clock = time.perf_counter
    games = steps = 0
    start = clock()
    deadline = start + seconds
    while True:
        _, n = playout(rng)
        games += 1
        steps += n
        if clock() >= deadline:
            break
    return games, steps, clock() - start


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=4.0, help="time box per runner (s)")
    ap.add_argument("--seed", type=int, default=0, help="seed of random.Random")
    ap.add_argument("--rounds", type=int, default=4,
                    help="interleave the runners in this many time slices")
    ap.add_argument("--players", type=int, default=4, help="players per game (2-5)")
    ap.add_argument("--against", metavar="REV",
                    help="also run the API runner on rulespec at this git revision")
    ap.add_argument("--serve", metavar="LABEL", help=argparse.SUPPRESS)  # bench/versus.py
    args = ap.parse_args(argv)
    if args.seconds <= 0 or args.rounds < 1 or not 2 <= args.players <= 5:
        print("hawaii bench: --seconds and --rounds must be positive, --players 2..5",
              file=sys.stderr)
        return 2

    def first_games(p: Playout) -> list:   # also a warm-up
        return [p(random.Random(f"{args.seed}:{i}"))[0] for i in range(SAME_GAMES)]

    if args.serve:
        playout = dict(RUNNERS)[args.serve](args.players)
        rng = random.Random(args.seed)
        return versus.serve(first_games(playout), lambda t: measure(playout, rng, t))

    built: list[tuple[str, Callable[[float], tuple[int, int, float]]]] = []
    first = {}
    for label, factory in RUNNERS:
        playout = factory(args.players)
        first[label] = first_games(playout)
        rng = random.Random(args.seed)
        built.append((label, lambda t, p=playout, r=rng: measure(p, r, t)))
    remote = None
    if args.against:
        try:
            remote = versus.Remote(args.against, __file__, "rulespec API",
                                   ["--players", str(args.players), "--seed", str(args.seed)])
        except (ValueError, RuntimeError) as err:
            print(f"hawaii bench: --against {args.against}: {err}", file=sys.stderr)
            return 2
        label = f"API @{args.against}"
        first[label] = remote.first
        built.append((label, remote.measure))
    totals = {label: (0, 0, 0.0) for label, _ in built}
    for _ in range(args.rounds):
        for label, run in built:
            g, s, t = run(args.seconds / args.rounds)
            a = totals[label]
            totals[label] = (a[0] + g, a[1] + s, a[2] + t)
    if remote is not None:
        remote.close()

    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"Hawaii, {args.players} players, random games, {args.seconds:g} s per runner, "
          f"seed {args.seed}, Python {platform.python_version()}, {os.cpu_count()} CPUs, "
          f"load average {load:.2f}")
    head = (f"{'runner':<18} {'games':>6} {'games/s':>8} {'steps/s':>9} {'steps/game':>11} "
            f"{'vs API':>7}")
    print(head)
    print("-" * len(head))
    api_rate = None
    for label, _ in built:
        g, s, t = totals[label]
        rate = g / t
        api_rate = api_rate or rate
        print(f"{label:<18} {g:>6,} {rate:>8.2f} {s / t:>9,.0f} {s / max(g, 1):>11.1f} "
              f"{rate / api_rate:>6.2f}x")
    same = len({repr(v) for v in first.values()}) == 1
    print()
    print(f"check: the first {SAME_GAMES} games of every runner have "
          + ("the same scores (they play the same games)" if same else
             f"DIFFERENT scores: {first}"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
