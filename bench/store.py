"""The verdict store (docs/store.md): `make run`'s report step three times, on a copy of a
revision with a verdict store of its own.

1. from nothing (the store fills),
2. again, unchanged (what a second `make run` costs),
3. after one rule of Hawaii is edited in the copy (``--edit OLD NEW``: one line of
   models/hawaii/spec.py replaced in place; by default `fish`'s "at least one foot is
   paid" reads `due > 0` instead of `due >= 1`: the same rule, another IR).

Each run prints its wall time, the CPU seconds of the command and its workers, the load
average before and after, and the lines that say what came from the store. Usage:

    .venv/bin/python bench/store.py [--rev HEAD] [--workers 2] [--edit OLD NEW] [--game G]

``--game hawaii`` reports that game alone instead of ``--all`` (the edited one: what an
edit costs, in a fifth of the time, on a machine too loaded for three ``--all`` runs).
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from versus import checkout  # noqa: E402

#: a rule of Hawaii changed in place (the line keeps its number): see --edit
EDIT = ('rule.require(due >= 1, "at least one foot is paid",',
        'rule.require(due > 0, "at least one foot is paid",')


def run(tree: Path, cache: Path, out: Path, workers: int, label: str,
        games: list[str]) -> None:
    env = dict(os.environ, PYTHONPATH=str(tree), RULESPEC_CACHE=str(cache))
    env.pop("RULESPEC_STORE", None)
    load = os.getloadavg()[0]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "rulespec.cli", "report", *games, "-o",
                           str(out), "--budget", "quick", "--workers", str(workers), "-q"],
                          env=env, capture_output=True, text=True,
                          cwd=tree)   # not the caller's folder: `-m` imports from there first
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    print(f"{label}: {wall:.1f} s wall, {cpu:.1f} CPU-s (command and workers), load "
          f"{load:.1f} -> {os.getloadavg()[0]:.1f}, exit {done.returncode}")
    for line in (done.stdout + done.stderr).splitlines():
        if "from the verdict store" in line or ": " in line and line.split(":")[0] in (
                "hawaii", "aquatica", "motu"):
            print(f"  {line}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rev", default="HEAD")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--game", default=None, help="one game's report instead of --all")
    ap.add_argument("--edit", nargs=2, metavar=("OLD", "NEW"), default=None,
                    help="the text of one line of models/hawaii/spec.py, and what it becomes")
    args = ap.parse_args()
    tree = checkout(args.rev)
    games = [args.game] if args.game else ["--all"]
    with tempfile.TemporaryDirectory(prefix="rulespec-store-bench-") as tmp:
        cache, out = Path(tmp) / "cache", Path(tmp) / "reports"
        run(tree, cache, out, args.workers, "1. from nothing", games)
        run(tree, cache, out, args.workers, "2. again, unchanged", games)
        spec = tree / "models" / "hawaii" / "spec.py"
        old, new = args.edit or EDIT
        text = spec.read_text(encoding="utf-8")
        if text.count(old) != 1:
            sys.exit(f"bench/store.py: {old!r} is not on exactly one line of {spec}")
        spec.write_text(text.replace(old, new), encoding="utf-8")
        run(tree, cache, out, args.workers, "3. after one rule of Hawaii edited", games)


if __name__ == "__main__":
    main()
