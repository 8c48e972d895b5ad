"""How long ``rulespec prove`` takes on a game, and how much Z3 work it counts.

Not a test: it prints a report. The resource units (Z3's ``rlimit`` count) are the same
on any machine and under any load, so they compare two versions of the prover exactly;
the wall time is what a user waits, and depends on the machine and its load (printed
with it).

    python bench/prove.py [GAME] [--workers W] [--rlimit N] [--repeat R]
"""

from __future__ import annotations

import argparse
import collections
import os
import platform
import sys
import tempfile
import time

import z3

import rulespec
from rulespec.check.budget import DEFAULT_RLIMIT, RLIMIT_PER_SECOND
from rulespec.check.prove import prove


def loadavg() -> str:
    try:
        return " ".join(open("/proc/loadavg").read().split()[:3])
    except OSError:
        return "n/a"


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("game", nargs="?", default="hawaii")
    ap.add_argument("--workers", type=int, default=min(4, os.cpu_count() or 1))
    ap.add_argument("--rlimit", type=int, default=DEFAULT_RLIMIT)
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=8, help="the costliest jobs to list")
    args = ap.parse_args(argv)
    model = rulespec.load(args.game)
    print(f"rulespec prove {args.game}: workers {args.workers}, rlimit {args.rlimit:,} per "
          f"query; Python {platform.python_version()}, z3 {z3.get_version_string()}, "
          f"{os.cpu_count()} CPUs")
    for k in range(args.repeat):
        before = loadavg()
        cpu = os.times()
        started = time.perf_counter()
        with tempfile.TemporaryDirectory() as traces:
            run = prove(model, rlimit=args.rlimit, workers=args.workers, trace_dir=traces)
        wall = time.perf_counter() - started
        after = os.times()
        used = (after.user + after.children_user) - (cpu.user + cpu.children_user)
        counts = collections.Counter(r.status for r in run.results)
        verdicts = ", ".join(f"{n} {s}" for s, n in sorted(counts.items()))
        print(f"run {k + 1}: {wall:.1f} s wall, {used:.0f} s CPU (this process and its "
              f"workers), load average {before} -> {loadavg()}")
        print(f"  {run.rlimit:,} resource units (~{run.rlimit / RLIMIT_PER_SECOND:.0f} CPU-s "
              f"at {RLIMIT_PER_SECOND:,}/s) in {run.jobs} jobs; {verdicts}"
              + (f"; stopped: {run.stopped}" if run.stopped else ""))
        for label, units in sorted(run.units.items(), key=lambda x: -x[1])[:args.jobs]:
            print(f"  {units:>14,}  {label}")
        if run.step_stats:
            print("  step queries by kind: queries, units, unsat/sat/unknown")
            for kind, (n, units, unsat, sat, unknown) in sorted(run.step_stats.items(),
                                                                key=lambda x: -x[1][1]):
                print(f"    {kind:<8} {n:>6} {units:>14,}  {unsat}/{sat}/{unknown}")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
