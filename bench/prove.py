"""How long ``rulespec prove`` takes on a game, and how much Z3 work it counts.

Not a test: it prints a report. The resource units (Z3's ``rlimit`` count) are the same
on any machine and under any load, so they compare two versions of the prover exactly
(and two runs of one version must agree on them: the verdicts are deterministic); the
wall time is what a user waits, and depends on the machine and its load (printed with
it: compare readings from the same run).

    python bench/prove.py [GAME] [--ruleset NAME | --all-rulesets] [--workers W]
                          [--rlimit N] [--repeat R] [--bar SECONDS]

``--all-rulesets`` proves the defaults, then each ruleset the spec declares, in turn;
``--bar`` marks a reading slower than the bar or with an UNKNOWN or VIOLATED verdict
(exit 1).
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


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("game", nargs="?", default="hawaii")
    ap.add_argument("--ruleset", default=None, help="prove under this ruleset")
    ap.add_argument("--all-rulesets", action="store_true",
                    help="the defaults, then every ruleset the spec declares")
    ap.add_argument("--workers", type=int, default=min(4, os.cpu_count() or 1))
    ap.add_argument("--rlimit", type=int, default=DEFAULT_RLIMIT)
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--bar", type=float, default=None, help="the time bar in seconds")
    ap.add_argument("--jobs", type=int, default=6, help="the costliest jobs to list")
    args = ap.parse_args(argv)
    readings: list[str | None] = [args.ruleset]
    if args.all_rulesets:
        readings = [None] + [r.name for r in rulespec.load_spec(args.game).rulesets]
    print(f"rulespec prove {args.game}: workers {args.workers}, rlimit {args.rlimit:,} per "
          f"query; Python {platform.python_version()}, z3 {z3.get_version_string()}, "
          f"{os.cpu_count()} CPUs")
    failed = False
    for ruleset in readings:
        model = rulespec.load(args.game, ruleset=ruleset)
        print(f"reading: {'ruleset ' + ruleset if ruleset else '(defaults)'}")
        spent = set()
        for k in range(args.repeat):
            before = loadavg()
            cpu = os.times()
            started = time.perf_counter()
            with tempfile.TemporaryDirectory() as traces:
                run = prove(model, rlimit=args.rlimit, workers=args.workers,
                            trace_dir=traces)
            wall = time.perf_counter() - started
            after = os.times()
            used = (after.user + after.children_user) - (cpu.user + cpu.children_user)
            counts = collections.Counter(r.status for r in run.results)
            verdicts = ", ".join(f"{n} {s}" for s, n in sorted(counts.items()))
            bad = counts["UNKNOWN"] + counts["VIOLATED"]
            slow = args.bar is not None and wall > args.bar
            failed = failed or bad > 0 or slow
            spent.add((run.rlimit, tuple(r.status for r in run.results)))
            print(f"  run {k + 1}: {wall:.1f} s wall, {used:.0f} s CPU (this process and its "
                  f"workers), load average {before} -> {loadavg()}"
                  + ("   <- slower than the bar" if slow else ""))
            print(f"    {run.rlimit:,} resource units (~{run.rlimit / RLIMIT_PER_SECOND:.0f} "
                  f"CPU-s at {RLIMIT_PER_SECOND:,}/s) in {run.jobs} jobs; {verdicts}"
                  + (f"; stopped: {run.stopped}" if run.stopped else ""))
            for r in run.results:
                if r.status != "PROVED":
                    print(f"    {r.status} {r.property} ({r.checker}): {r.detail[:120]}")
            for label, units in sorted(run.units.items(), key=lambda x: -x[1])[:args.jobs]:
                print(f"    {units:>14,}  {label}")
            if run.step_stats and k == 0:
                print("    step queries by kind: queries, units, unsat/sat/unknown")
                for kind, (n, units, unsat, sat, unknown) in sorted(
                        run.step_stats.items(), key=lambda x: -x[1][1]):
                    print(f"      {kind:<8} {n:>6} {units:>14,}  {unsat}/{sat}/{unknown}")
        if len(spent) > 1:
            failed = True
            print("  <- the runs differ in verdicts or resource units: not deterministic")
    sys.stdout.flush()
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
