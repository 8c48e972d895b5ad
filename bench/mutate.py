"""How long ``rulespec mutate`` takes on a game, and where the time goes.

    .venv/bin/python bench/mutate.py [GAME] [--budget quick|full] [--workers N] [--sample K]

Prints the load average before and after, the wall time, the CPU seconds of this process and
its workers (counted: unlike wall time they barely move with the machine's load), the CPU
seconds per mutant, and the score. ``--sample K`` judges every K-th mutant in this process
only and prints each one's CPU time, status and killer (where the time goes).
"""

from __future__ import annotations

import argparse
import os
import resource
import time
from collections import Counter


def _cpu() -> tuple[float, float]:
    """CPU seconds (user + system) of this process and of its finished workers."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime, kids.ru_utime + kids.ru_stime


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("game", nargs="?", default="hawaii")
    ap.add_argument("--budget", default="quick", choices=["quick", "full"])
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--sample", type=int, default=0)
    args = ap.parse_args()
    print(f"load before: {os.getloadavg()}")
    if args.sample:
        import rulespec
        from rulespec.check.mutate import mutants
        from rulespec.check.mutate.judge import BUDGETS, Judges, load_scenarios
        model = rulespec.load(args.game)
        found = mutants(model.spec)
        judges = Judges(model.spec, model, load_scenarios(args.game), BUDGETS[args.budget])
        t = time.process_time()
        judges.baseline()   # as in a whole run: it compiles the spec under every reading
        print(f"baseline: {time.process_time() - t:.1f} CPU s")
        total, seen = 0.0, Counter()
        picked = found[::args.sample]
        for m in picked:
            t = time.process_time()
            r = judges.judge(m)
            dt = time.process_time() - t
            total += dt
            seen[(r.status, r.by)] += 1
            print(f"{dt:7.2f} s  {r.status:10} {r.by or '':8} {m.id}")
        print(f"{len(picked)} of {len(found)} mutants: {total / len(picked):.2f} CPU s each; "
              f"{dict(seen)}")
    else:
        from rulespec.check.mutate import mutate_game
        wall, (own, kids) = time.perf_counter(), _cpu()
        report = mutate_game(args.game, budget=args.budget, workers=args.workers)
        wall = time.perf_counter() - wall
        own, kids = _cpu()[0] - own, _cpu()[1] - kids
        cpu, n = own + kids, len(report.results)
        print(f"{report.game}: {n} mutants, {args.budget} budget, {args.workers} workers: "
              f"{wall:.0f} s wall, {cpu:.0f} CPU s ({cpu / n:.2f} per mutant; this process "
              f"{own:.0f}, its workers {kids:.0f}: on {args.workers} idle CPUs about "
              f"{own + kids / args.workers:.0f} s); score {report.score():.1%}, killed by "
              f"{report.killed_by()}, {report.count('EQUIVALENT')} equivalent, "
              f"{report.count('SURVIVED')} survived")
    print(f"load after: {os.getloadavg()}")


if __name__ == "__main__":
    main()
