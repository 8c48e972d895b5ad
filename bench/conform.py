"""Conformance throughput: ``rulespec conform connect_four`` against the JavaScript Connect
Four (``--exec "node tests/fixtures/conform/connect_four.js"``), and against the Python one
in this process for comparison.

Not a test: it prints a table. Each runner runs ``conform`` for ``--games`` games (seeded
random games to the end, ``mode="random"``, or Hypothesis's games, ``--hypothesis``) in
each of ``--rounds`` rounds, the runners interleaved so that a change in machine load hits
them alike, and reports games and compared states per second of wall time, with the CPU
seconds of rulespec and of the node process (on a loaded machine the wall time is mostly
waiting to be scheduled: each round trip waits for two processes; games per CPU second of
both moves less with the load). Every game compares, at each state, who
moves, the legal actions and the snapshot (and the returns at the end).

    python bench/conform.py [--games 300] [--rounds 3] [--seed 0] [--hypothesis]

Runners:
  node, batched     --exec, several steps per round trip (the default: 8 steps, doubling)
  node, one step    --exec with one step per round trip (batching off), to show its worth
  python in-process --impl tests/fixtures/conform/connect_four_impl.py:connect_four
"""

from __future__ import annotations

import argparse
import os
import platform
import resource
import shutil
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import rulespec  # noqa: E402
from rulespec.check import conform_exec  # noqa: E402
from rulespec.check.conform import conform, load_factory  # noqa: E402
from rulespec.check.results import PASSED  # noqa: E402

NODE = f"node {ROOT / 'tests/fixtures/conform/connect_four.js'}"
PYTHON = f"{ROOT / 'tests/fixtures/conform/connect_four_impl.py'}:connect_four"


def child_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run(runner: str, games: int, seed: int, mode: str) -> tuple[float, float, float, int, int]:
    """(wall s, rulespec CPU s, node CPU s, games, states compared) of one conform run."""
    model = rulespec.load("connect_four")
    first, most = conform_exec.FIRST_BATCH, conform_exec.MAX_BATCH
    if runner == "node, one step":
        conform_exec.FIRST_BATCH = conform_exec.MAX_BATCH = 1
    try:
        wall, cpu, child = time.perf_counter(), time.process_time(), child_cpu()
        if runner == "python in-process":
            report = conform(model, load_factory(PYTHON), examples=games, seed=seed,
                             mode=mode)
        else:
            with conform_exec.ExecDriver(NODE, game="connect_four", seed=seed) as driver:
                report = conform(model, driver, examples=games, seed=seed, mode=mode)
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        child = child_cpu() - child      # the node process, once it has exited
    finally:
        conform_exec.FIRST_BATCH, conform_exec.MAX_BATCH = first, most
    assert report.status == PASSED, report.detail
    return wall, cpu, child, report.games, report.steps


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--hypothesis", action="store_true",
                        help="Hypothesis's games instead of seeded random ones")
    args = parser.parse_args()
    if shutil.which("node") is None:
        sys.exit("node is not installed (make test installs it)")
    mode = "hypothesis" if args.hypothesis else "random"
    runners = ["node, batched", "node, one step", "python in-process"]
    totals = {r: [0.0, 0.0, 0.0, 0, 0] for r in runners}
    load = os.getloadavg()[0]
    print(f"conform connect_four, {mode} games, {args.games} games x {args.rounds} rounds per "
          f"runner; Python {platform.python_version()}, {os.cpu_count()} CPUs, load average "
          f"{load:.1f} at the start")
    for _ in range(args.rounds):
        for r in runners:
            for i, v in enumerate(run(r, args.games, args.seed, mode)):
                totals[r][i] += v
    print(f"load average {os.getloadavg()[0]:.1f} at the end\n")
    print("| runner | games/s | states/s | rulespec CPU s | node CPU s | wall s | games per "
          "CPU s |")
    print("|---|---|---|---|---|---|---|")
    for r in runners:
        wall, cpu, child, games, steps = totals[r]
        print(f"| {r} | {games / wall:,.0f} | {steps / wall:,.0f} | {cpu:.2f} | "
              f"{child:.2f} | {wall:.2f} | {games / (cpu + child):,.0f} |")


if __name__ == "__main__":
    main()
