"""The C backend against OpenSpiel's C++ and today's API, side by side, in one run (issue 30).

Not a test: it prints tables. Four parts, in this order, each timed on this machine:

1. random playouts/s of tic-tac-toe, Connect Four, Crazy Eights (5 players) and Hex 11x11:
   whole games played inside C (``rulespec.runtime.native.play``, one call per game), the
   generated Python code (``bench/throughput.py``'s "rulespec compiled") and OpenSpiel's
   C++ driven from Python; the runners are interleaved in ``--rounds`` slices;
2. random 4-player Hawaii, Aquatica and MOTU games/s: in C against today's API (``play_random``'s
   loop: ``model.random_action`` and ``model.apply``); each pair plays the same seeded
   games, which the script checks (the final states agree);
3. ``rulespec check connect_four --random --examples N`` (default 20000) run as a command:
   games per CPU-second of the whole command (start-up included), against part 1's bare
   OpenSpiel C++ random Connect Four games per second;
4. the wall time of ``rulespec diff hawaii --interpretation beach_return=free --against
   beach_return=forbidden --policy mcts --games G`` (default 200; ``--mcts-games 0``
   skips it).

    python bench/native.py [--seconds 4] [--rounds 8] [--seed 0] [--examples 20000]
                           [--mcts-games 200]
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import resource
import subprocess
import sys
import time
from pathlib import Path
from typing import Callable

sys.path.insert(0, str(Path(__file__).resolve().parent))

import rulespec  # noqa: E402
from rulespec.runtime import native as N  # noqa: E402
from throughput import (C8_READING, Playout, measure_game, openspiel,  # noqa: E402
                        rulespec_compiled)

ROOT = Path(__file__).resolve().parent.parent
HEX_11 = {"board_size": "11"}


def rulespec_c(name: str, players: int = 2, interpretation: dict | None = None) -> Playout:
    """Whole random games in C: one ``native.play`` call per game. The C generator takes
    over the Python one's state the first time it is handed one (and keeps its own after),
    so a runner's games are those of ``random.Random(seed)``'s draws."""
    model = rulespec.load(name, interpretation=interpretation)
    game = N.native_for(model, "c")
    if game is None:
        raise SystemExit("native: no C module (no C compiler?)")
    limit = model.spec.max_steps + 1
    last: list = [None, None]   # the Python generator last handed over, and its C twin

    def playout(rng: random.Random) -> float:
        if last[0] is not rng:
            last[:] = [rng, N.Rng.of(game, rng)]
        played = N.play(game, last[1], players, limit=limit, keys=False)
        return game.scores(played.final)[0]
    return playout


RUNNERS: dict[str, tuple[str, list[tuple[str, Callable[[], Playout], bool]]]] = {
    "tic_tac_toe": ("tic-tac-toe", [
        ("rulespec C", lambda: rulespec_c("tic_tac_toe"), False),
        ("rulespec compiled", lambda: rulespec_compiled("tic_tac_toe"), False),
        ("OpenSpiel C++", lambda: openspiel("tic_tac_toe"), True)]),
    "connect_four": ("Connect Four", [
        ("rulespec C", lambda: rulespec_c("connect_four"), False),
        ("rulespec compiled", lambda: rulespec_compiled("connect_four"), False),
        ("OpenSpiel C++", lambda: openspiel("connect_four"), True)]),
    "crazy_eights": ("Crazy Eights, 5 players", [
        ("rulespec C", lambda: rulespec_c("crazy_eights", 5, C8_READING), False),
        ("rulespec compiled", lambda: rulespec_compiled("crazy_eights", 5, C8_READING), False),
        ("OpenSpiel C++", lambda: openspiel("crazy_eights"), True)]),
    "hex": ("Hex 11x11", [
        ("rulespec C", lambda: rulespec_c("hex", 2, HEX_11), False),
        ("rulespec compiled", lambda: rulespec_compiled("hex", 2, HEX_11), False),
        ("OpenSpiel C++", lambda: openspiel("hex", {"board_size": 11}), True)]),
}
BIG_GAMES = ("hawaii", "aquatica", "motu")


def drawn_as_the_api_draws(name: str, players: int = 2, interpretation: dict | None = None
                           ) -> Playout:
    """Player 0's return after a game drawn as ``play_random`` draws (chance outcomes by
    their probabilities, where the compiled runner picks among them uniformly): the games
    C must play, draw for draw."""
    model = rulespec.load(name, interpretation=interpretation)

    def playout(rng: random.Random) -> float:
        state = model.initial_state(players)
        for _ in range(model.spec.max_steps + 1):
            action = model.random_action(state, rng)
            if action is None:
                break
            state = model.apply(state, action)
        return model.scores(state)[0]
    return playout


SAME_AS = {"tic_tac_toe": ("tic_tac_toe",), "connect_four": ("connect_four",),
           "crazy_eights": ("crazy_eights", 5, C8_READING), "hex": ("hex", 2, HEX_11)}


def part_playouts(seconds: float, rounds: int, seed: int) -> dict[str, float]:
    """Part 1; returns OpenSpiel C++'s rate per game."""
    print(f"\n1. random playouts/s ({seconds:g} s per runner in {rounds} slices, seed {seed})")
    head = f"{'game':<24} {'runner':<18} {'playouts':>9} {'playouts/s':>11} {'vs OS C++':>10}"
    print(head + "\n" + "-" * len(head))
    cpp: dict[str, float] = {}
    verdicts = []
    for name, (title, runners) in RUNNERS.items():
        built = [(label, factory()) for label, factory, _ in runners]
        c_runner = dict(built)["rulespec C"]
        api = drawn_as_the_api_draws(*SAME_AS[name])
        same = ([c_runner(random.Random(seed + k)) for k in range(50)]
                == [api(random.Random(seed + k)) for k in range(50)])
        totals = measure_game(built, seconds, seed, rounds)
        rates = {label: n / t for label, (n, t) in totals.items()}
        ref = next(rates[label] for label, _, is_ref in runners if is_ref)
        cpp[name] = ref
        for label, _, _ in runners:
            print(f"{title:<24} {label:<18} {totals[label][0]:>9,} {rates[label]:>11,.0f} "
                  f"{rates[label] / ref:>9.2f}x")
        c = rates["rulespec C"] / ref
        verdicts.append(f"{title}: C {c:.2f}x OpenSpiel C++ -- target 1x "
                        f"{'MET' if c >= 1 else 'NOT met'}, moonshot 3x "
                        f"{'MET' if c >= 3 else 'not met'}; the first 50 seeded games' outcomes: "
                        f"C {'=' if same else '!='} Python's")
    for line in verdicts:
        print("  " + line)
    return cpp


def part_big_games(seconds: float, rounds: int, seed: int) -> None:
    print(f"\n2. random 4-player games/s, C against today's API "
          f"({seconds:g} s per runner)")
    head = f"{'game':<14} {'API games/s':>8} {'C games/s':>11} {'C / API':>9}  same games"
    print(head + "\n" + "-" * len(head))
    for name in BIG_GAMES:
        model = rulespec.load(name)
        game = N.native_for(model, "c")
        n = min(4, model.max_players)   # 4 players, as bench/hawaii.py plays Hawaii
        limit = model.spec.max_steps + 1

        def api(k: int) -> tuple:
            rng, state = random.Random(k), model.initial_state(n)
            for _ in range(limit):
                action = model.random_action(state, rng)
                if action is None:
                    break
                state = model.apply(state, action)
            return state.values

        def c(k: int) -> tuple:
            return N.play(game, N.Rng.seeded(game, k), n, limit=limit, keys=False).final
        same = all(api(seed + k) == c(seed + k) for k in range(3))
        counts = {"api": [0, 0.0], "c": [0, 0.0]}
        for _ in range(rounds):
            for label, run in (("api", api), ("c", c)):
                start = time.perf_counter()
                while time.perf_counter() - start < seconds / rounds:
                    run(seed + counts[label][0])
                    counts[label][0] += 1
                counts[label][1] += time.perf_counter() - start
        a, b = (counts[k][0] / counts[k][1] for k in ("api", "c"))
        print(f"{name + f' ({n}p)':<14} {a:>8,.1f} {b:>11,.1f} {b / a:>8.1f}x  {'yes' if same else 'NO'}"
              f"   target 10x {'MET' if b >= 10 * a else 'NOT met'}")


def _command(argv: list[str]) -> tuple[float, float, int]:
    """(wall s, CPU s of the child, exit code) of one rulespec command."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "rulespec.cli", *argv], cwd=ROOT,
                          capture_output=True, text=True, check=False)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if done.returncode not in (0, 1):
        print(done.stderr.strip()[-500:], file=sys.stderr)
    return wall, cpu, done.returncode


def part_check(examples: int, cpp_rate: float, tmp: Path) -> None:
    print(f"\n3. rulespec check connect_four --random --examples {examples}")
    def check(n: int) -> tuple[float, float, int]:
        return _command(["check", "connect_four", "--random", "--examples", str(n),
                         "--quiet", "--trace-dir", str(tmp)])
    _, start_cpu, _ = check(1)   # start-up: imports, loading the spec and its C module
    wall, cpu, code = check(examples)
    print(f"   exit {code}, {wall:.1f} s wall, {cpu:.2f} s CPU ({start_cpu:.2f} s of it the "
          f"start-up of a 1-game run); OpenSpiel C++ bare random games: {cpp_rate:,.0f}/s")
    for what, rate in (("whole command", examples / cpu),
                       ("without start-up", (examples - 1) / max(cpu - start_cpu, 1e-9))):
        print(f"   {what}: {rate:,.0f} checked games per CPU-second -> {rate / cpp_rate:.2f}x "
              f"(target 0.5x {'MET' if rate >= 0.5 * cpp_rate else 'NOT met'}, moonshot 1x "
              f"{'MET' if rate >= cpp_rate else 'not met'})")


def part_mcts(games: int, tmp: Path) -> None:
    print(f"\n4. rulespec diff hawaii --interpretation beach_return=free --against "
          f"beach_return=forbidden --policy mcts --games {games}")
    wall, cpu, code = _command(["diff", "hawaii", "--interpretation", "beach_return=free",
                                "--against", "beach_return=forbidden", "--policy", "mcts",
                                "--games", str(games), "--quiet", "--out-dir", str(tmp)])
    print(f"   exit {code}, {wall:.0f} s wall ({wall / 60:.1f} min), {cpu:.0f} s CPU; "
          f"target < 5 min {'MET' if wall < 300 else 'NOT met'}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=4.0, help="time per runner (s)")
    ap.add_argument("--rounds", type=int, default=8, help="slices the runners share")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--examples", type=int, default=20000, help="part 3's --examples")
    ap.add_argument("--mcts-games", type=int, default=200, help="part 4's --games (0: skip)")
    args = ap.parse_args(argv)
    if args.seconds <= 0 or args.rounds < 1 or args.examples < 1 or args.mcts_games < 0:
        print("native: --seconds, --rounds and --examples must be positive", file=sys.stderr)
        return 2
    try:
        import pyspiel  # noqa: F401
    except ImportError:
        print("native: OpenSpiel is not installed (pip install open-spiel)", file=sys.stderr)
        return 2
    load = os.getloadavg()
    print(f"rulespec C backend vs OpenSpiel C++, Python {platform.python_version()} on "
          f"{platform.machine()}, {os.cpu_count()} CPUs, load average "
          f"{load[0]:.2f} {load[1]:.2f} {load[2]:.2f} at the start")
    tmp = Path(os.environ.get("TMPDIR", "/tmp")) / f"rulespec-bench-{os.getpid()}"
    cpp = part_playouts(args.seconds, args.rounds, args.seed)
    part_big_games(args.seconds, args.rounds, args.seed)
    part_check(args.examples, cpp["connect_four"], tmp)
    if args.mcts_games:
        part_mcts(args.mcts_games, tmp)
    load = os.getloadavg()
    print(f"\nload average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} at the end")
    return 0


if __name__ == "__main__":
    sys.exit(main())
