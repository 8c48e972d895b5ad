"""`prove GAME` under every ruleset: the verdict bar (no UNKNOWN, no VIOLATED) and the time.

Not a test: it prints a table. Each reading (the defaults, then each ruleset the spec
declares) runs the whole ``prove_game`` once, in turn, with the same workers and timeout;
the verdicts are deterministic, the times are wall-clock (note the load average printed
with them, and compare readings from the same run). The default reading is also held to
the verdict bar by ``tests/test_hawaii_proofs.py``.

    python bench/prove_rulesets.py [--game hawaii] [--workers 2] [--timeout 10] [--bar 120]
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from collections import Counter

import rulespec
from rulespec.check.prove import prove_game


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="hawaii")
    ap.add_argument("--workers", type=int, default=min(4, os.cpu_count() or 1))
    ap.add_argument("--timeout", type=float, default=10.0, help="seconds per solver query")
    ap.add_argument("--bar", type=float, default=120.0, help="the time bar in seconds")
    args = ap.parse_args()
    spec = rulespec.load_spec(args.game)
    readings: list[tuple[str, str | None]] = [("(defaults)", None)]
    readings += [(f"ruleset {r.name}", r.name) for r in spec.rulesets]
    print(f"prove {args.game}: workers {args.workers}, {args.timeout:g} s per query, "
          f"bar {args.bar:g} s, load average {os.getloadavg()[0]:.1f}")
    print(f"{'reading':<22} {'seconds':>8} {'load':>5}  verdicts")
    failed = False
    for label, ruleset in readings:
        model = rulespec.load(args.game, ruleset=ruleset)
        load = os.getloadavg()[0]
        start = time.perf_counter()
        with tempfile.TemporaryDirectory() as traces:
            results = prove_game(model, timeout=args.timeout, trace_dir=traces,
                                 workers=args.workers)
        took = time.perf_counter() - start
        counts = Counter(r.status for r in results)
        bad = counts["UNKNOWN"] + counts["VIOLATED"]
        ok = bad == 0 and took <= args.bar
        failed = failed or not ok
        shown = ", ".join(f"{n} {s}" for s, n in sorted(counts.items()))
        print(f"{label:<22} {took:>8.1f} {load:>5.1f}  {shown}"
              + ("" if ok else "   <- misses the bar"))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
