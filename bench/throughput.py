"""Random-playout throughput: rulespec against OpenSpiel, side by side, in one run.

Not a test: it prints a table. Each runner plays random games to the end (choosing with
``random.Random(seed).choice`` among the legal actions, then reading the returns) for about
``--seconds`` of wall time in all, interleaved with the other runners of the same game in
``--rounds`` slices (so that a change in machine load hits them alike), and reports playouts
per second. Our legal-action lists come in the same order as OpenSpiel's, so with one seed
every runner plays the same games (the script checks the first games' outcomes agree).

    python bench/throughput.py [--seconds 2] [--seed 0] [--rounds 4]
                               [--games tic_tac_toe,connect_four]

Runners:
  rulespec API        the public Model API: ``game.legal_actions`` / ``game.apply`` (which
                      re-checks legality and names failed preconditions) / ``game.is_terminal``
  rulespec compiled   the generated code on raw state tuples: ``compiled.legal(values)`` and
                      ``compiled.step[key[0]](values, key)`` (legality re-checked in the same
                      call, which returns None for an illegal key)
  compiled, apply     the same with ``compiled.apply[key[0]](values, *key[1:])`` (effects
                      only, no re-check; the ``*key[1:]`` call costs more than the check)
  OpenSpiel Python    ``pyspiel.load_game("python_tic_tac_toe")`` (tic-tac-toe only)
  OpenSpiel C++       ``pyspiel.load_game(name)``, driven from Python through pybind11
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

Playout = Callable[[random.Random], float]  # returns player 0's return


# --- runners: each plays one random game to the end ------------------------------------
def rulespec_api(name: str, players: int = 2, interpretation: dict | None = None) -> Playout:
    game = rulespec.load(name, interpretation=interpretation)

    def playout(rng: random.Random) -> float:
        s = game.initial_state(players)
        while not game.is_terminal(s):
            s = game.apply(s, rng.choice(game.legal_actions(s)))
        return game.scores(s)[0]
    return playout


def rulespec_compiled(name: str, players: int = 2, interpretation: dict | None = None
                      ) -> Playout:
    c = rulespec.load(name, interpretation=interpretation).compiled
    initial, terminal, legal, step, scores = (c.initial, c.terminal, c.legal, c.step,
                                              c.scores)

    def playout(rng: random.Random) -> float:
        choice = rng.choice
        v = initial(players)
        while not terminal(v):
            key = choice(legal(v))
            v = step[key[0]](v, key)
        return scores(v)[0]
    return playout


def rulespec_compiled_apply(name: str, players: int = 2, interpretation: dict | None = None
                            ) -> Playout:
    c = rulespec.load(name, interpretation=interpretation).compiled
    initial, terminal, legal, apply, scores = (c.initial, c.terminal, c.legal, c.apply,
                                               c.scores)

    def playout(rng: random.Random) -> float:
        choice = rng.choice
        v = initial(players)
        while not terminal(v):
            key = choice(legal(v))
            v = apply[key[0]](v, *key[1:])
        return scores(v)[0]
    return playout


def openspiel(game_name: str, params: dict | None = None) -> Playout:
    import pyspiel
    if game_name.startswith("python_"):
        from open_spiel.python.games import tic_tac_toe  # noqa: F401 - registers it
    game = pyspiel.load_game(game_name, params or {})

    def playout(rng: random.Random) -> float:
        choice = rng.choice
        state = game.new_initial_state()
        while not state.is_terminal():
            state.apply_action(choice(state.legal_actions()))
        return state.returns()[0]
    return playout


C8_READING = {"penalty": "openspiel_code"}
HEX_SIZE = {"board_size": "5"}

# label, factory, reference role ("py" / "cpp" / None)
RUNNERS: dict[str, list[tuple[str, Callable[[], Playout], str | None]]] = {
    "tic_tac_toe": [
        ("rulespec API", lambda: rulespec_api("tic_tac_toe"), None),
        ("rulespec compiled", lambda: rulespec_compiled("tic_tac_toe"), None),
        ("compiled, apply", lambda: rulespec_compiled_apply("tic_tac_toe"), None),
        ("OpenSpiel Python", lambda: openspiel("python_tic_tac_toe"), "py"),
        ("OpenSpiel C++", lambda: openspiel("tic_tac_toe"), "cpp"),
    ],
    "connect_four": [
        ("rulespec API", lambda: rulespec_api("connect_four"), None),
        ("rulespec compiled", lambda: rulespec_compiled("connect_four"), None),
        ("compiled, apply", lambda: rulespec_compiled_apply("connect_four"), None),
        ("OpenSpiel C++", lambda: openspiel("connect_four"), "cpp"),
    ],
    # OpenSpiel's defaults: 5 players; returns as its ScoreUp computes them. Chance outcomes
    # are picked uniformly among the legal ones, like the other moves: every card left in
    # the deck has one copy, so that is also their true distribution.
    "crazy_eights": [
        ("rulespec API", lambda: rulespec_api("crazy_eights", 5, C8_READING), None),
        ("rulespec compiled", lambda: rulespec_compiled("crazy_eights", 5, C8_READING), None),
        ("OpenSpiel C++", lambda: openspiel("crazy_eights"), "cpp"),
    ],
    "hex": [  # a 5x5 board (ours: the default board_size option)
        ("rulespec API", lambda: rulespec_api("hex", 2, HEX_SIZE), None),
        ("rulespec compiled", lambda: rulespec_compiled("hex", 2, HEX_SIZE), None),
        ("OpenSpiel C++", lambda: openspiel("hex", {"board_size": 5}), "cpp"),
    ],
}


SAME_GAMES = 200


def outcomes(playout: Playout, seed: int) -> list[float]:
    """Player 0's returns in the first games from ``random.Random(seed)`` (also a warm-up)."""
    rng = random.Random(seed)
    return [playout(rng) for _ in range(SAME_GAMES)]


def measure(playout: Playout, rng: random.Random, seconds: float) -> tuple[int, float]:
    """Play with ``rng`` until ``seconds`` pass: (playouts, elapsed seconds)."""
    clock = time.perf_counter
    n = 0
    start = clock()
    deadline = start + seconds
    while True:
        playout(rng)
        n += 1
        if n % 16 == 0 and clock() >= deadline:
            break
    return n, clock() - start


def measure_game(runners: list[tuple[str, Playout]], seconds: float, seed: int,
                 rounds: int) -> dict[str, tuple[int, float]]:
    """Time every runner for ``seconds`` in all, interleaved in ``rounds`` slices so that a
    change in machine load hits them alike. Each runner keeps its own ``Random(seed)``."""
    rngs = {label: random.Random(seed) for label, _ in runners}
    total = {label: (0, 0.0) for label, _ in runners}
    for _ in range(rounds):
        for label, playout in runners:
            n, t = measure(playout, rngs[label], seconds / rounds)
            total[label] = (total[label][0] + n, total[label][1] + t)
    return total


def ratio(a: float, b: float | None) -> str:
    return "-" if not b else f"{a / b:.2f}x"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=2.0, help="time box per runner (s)")
    ap.add_argument("--seed", type=int, default=0, help="seed of random.Random")
    ap.add_argument("--rounds", type=int, default=4,
                    help="interleave the runners in this many time slices")
    ap.add_argument("--games", default=",".join(RUNNERS),
                    help=f"comma-separated, from {', '.join(RUNNERS)}")
    args = ap.parse_args(argv)
    games = [g.strip() for g in args.games.split(",") if g.strip()]
    unknown = [g for g in games if g not in RUNNERS]
    if unknown or args.seconds <= 0 or args.rounds < 1:
        print(f"throughput: unknown game(s) {unknown}" if unknown else
              "throughput: --seconds and --rounds must be positive", file=sys.stderr)
        return 2
    try:
        import pyspiel  # noqa: F401
    except ImportError:
        print("throughput: OpenSpiel is not installed (pip install open-spiel)", file=sys.stderr)
        return 2

    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"random playouts/s, {args.seconds:g} s per runner, seed {args.seed}, "
          f"Python {platform.python_version()} on {platform.machine()}, "
          f"{os.cpu_count()} CPUs, load average {load:.2f} (a busy machine skews the ratios)")
    head = (f"{'game':<13} {'implementation':<18} {'playouts':>9} {'playouts/s':>11} "
            f"{'vs OS Python':>13} {'vs OS C++':>10}")
    print(head)
    print("-" * len(head))
    rows = []
    checks: list[str] = []
    for g in games:
        rates: list[tuple[str, int, float, str | None]] = []
        seen: dict[str, list[float]] = {}
        built: list[tuple[str, Playout]] = []
        for label, factory, _ in RUNNERS[g]:
            playout = factory()
            seen[label] = outcomes(playout, args.seed)
            built.append((label, playout))
        print(f"  measuring {g} ...", file=sys.stderr)
        totals = measure_game(built, args.seconds, args.seed, args.rounds)
        for label, _, role in RUNNERS[g]:
            n, elapsed = totals[label]
            rates.append((label, n, n / elapsed, role))
        same = len({tuple(o) for o in seen.values()}) == 1
        checks.append(f"{g}: the first {SAME_GAMES} games of every runner have "
                      + ("the same outcomes (consistent with playing the same games)" if same else
                         "DIFFERENT outcomes: " + ", ".join(
                             f"{k} x-wins {o.count(1)}" for k, o in seen.items())))
        ref_py = next((r for _, _, r, role in rates if role == "py"), None)
        ref_cpp = next((r for _, _, r, role in rates if role == "cpp"), None)
        for label, n, rate, role in rates:
            print(f"{g:<13} {label:<18} {n:>9,} {rate:>11,.0f} "
                  f"{ratio(rate, ref_py) if role != 'py' else '1.00x':>13} "
                  f"{ratio(rate, ref_cpp) if role != 'cpp' else '1.00x':>10}")
            rows.append((g, label, rate, ref_py, ref_cpp))
    print()
    for line in checks:
        print("check:", line)
    # issue 9: API >= 8x OpenSpiel Python; compiled >= 16x OpenSpiel Python, >= 0.6x C++
    targets = {"rulespec API": [("py", 8.0)],
               "rulespec compiled": [("py", 16.0), ("cpp", 0.6)]}
    for g, label, rate, ref_py, ref_cpp in rows:
        for role, want in targets.get(label, []) if g == "tic_tac_toe" else []:
            ref = ref_py if role == "py" else ref_cpp
            if ref:
                name = "OpenSpiel Python" if role == "py" else "OpenSpiel C++"
                verdict = "meets" if rate >= want * ref else "is BELOW"
                print(f"target: {label} {verdict} {want:g}x {name} tic-tac-toe "
                      f"({rate / ref:.2f}x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
