"""Instructions per playout of one benchmark runner, counted by valgrind (callgrind).

Not a test: it prints one line. Wall-clock rates on a shared machine move with its load;
instruction counts do not, so this is how two versions of one runner are compared
precisely. The runner plays ``--few`` and then ``--many`` seeded playouts in two runs under
``valgrind --tool=callgrind``; the difference divided by the extra playouts leaves out
start-up and compilation. The same seed plays the same games in every version.

    python bench/instructions.py tic_tac_toe "rulespec API" [--few 50] [--many 550]
    python bench/instructions.py hawaii "rulespec API" --few 1 --many 3 [--rev 1ea0e40]

GAME is a game of bench/throughput.py or ``hawaii`` (bench/hawaii.py, 4 players); RUNNER
is one of its runner labels. ``--rev`` counts rulespec as of that git revision instead
(the runner code is this tree's, so it must only use what that revision has).
"""

from __future__ import annotations

import argparse
import os
import random
import re
import shutil
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def play(game: str, runner: str, n: int) -> None:
    """The measured program: ``n`` playouts of the runner, from ``random.Random(0)``."""
    sys.path.insert(0, str(HERE))
    if game == "hawaii":
        import hawaii
        playout = dict(hawaii.RUNNERS)[runner](4)
    else:
        import throughput
        playout = {label: f for label, f, _ in throughput.RUNNERS[game]}[runner]()
    rng = random.Random(0)
    for _ in range(n):
        playout(rng)


def count(game: str, runner: str, n: int, tree: Path | None) -> int:
    env = dict(os.environ, PYTHONHASHSEED="0")
    if tree is not None:
        env["PYTHONPATH"] = str(tree)
    out = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
                          sys.executable, __file__, "--play", game, runner, str(n)],
                         capture_output=True, text=True, env=env, check=False)
    found = re.search(r"Collected : (\d+)", out.stderr)
    if out.returncode != 0 or found is None:
        raise RuntimeError(out.stderr.strip().splitlines()[-1] if out.stderr else "valgrind")
    return int(found.group(1))


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--play"]:
        play(argv[1], argv[2], int(argv[3]))
        return 0
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("game")
    ap.add_argument("runner")
    ap.add_argument("--few", type=int, default=50, help="playouts in the first run")
    ap.add_argument("--many", type=int, default=550, help="playouts in the second run")
    ap.add_argument("--rev", help="count rulespec as of this git revision")
    args = ap.parse_args(argv)
    if shutil.which("valgrind") is None:
        print("instructions: valgrind is not installed", file=sys.stderr)
        return 2
    if not 0 <= args.few < args.many:
        print("instructions: need 0 <= --few < --many", file=sys.stderr)
        return 2
    tree = None
    if args.rev:
        sys.path.insert(0, str(HERE))
        import versus
        tree = versus.checkout(args.rev)
    try:
        few = count(args.game, args.runner, args.few, tree)
        many = count(args.game, args.runner, args.many, tree)
    except RuntimeError as err:
        print(f"instructions: {err}", file=sys.stderr)
        return 2
    per = (many - few) / (args.many - args.few)
    print(f"{args.game} {args.runner!r}{' @' + args.rev if args.rev else ''}: "
          f"{per:,.0f} instructions per playout")
    return 0


if __name__ == "__main__":
    sys.exit(main())
