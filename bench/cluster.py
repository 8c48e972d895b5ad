"""``rulespec mutate`` on 2 local workers against a 2-worker local Dask cluster (issue 29).

    .venv/bin/python bench/cluster.py [GAME] [--budget quick] [--operators OP,...]
                                      [--workers 2] [--cluster tcp://HOST:PORT]

Runs the same campaign twice: in ``--workers`` local processes, then on a Dask cluster (a
``dask scheduler`` and ``--workers`` ``dask worker`` processes, one thread each, started
here on 127.0.0.1, or the scheduler ``--cluster`` names). Checks that the two JSON
documents are the same, prints both wall times and the overhead, and each task's compute
time as the scheduler recorded it, from which it estimates the wall time on more workers:
the parent's own part (loading, the mutants, the baseline judgement) plus the tasks shared
out, never less than the longest task.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _start_cluster(workers: int) -> tuple[str, list[subprocess.Popen]]:
    address = f"tcp://127.0.0.1:{_free_port()}"
    run = dict(cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
               start_new_session=True)
    procs = [subprocess.Popen([str(BIN / "dask"), "scheduler", "--host", "127.0.0.1",
                               "--port", address.rsplit(":", 1)[1], "--no-dashboard"], **run)]
    procs += [subprocess.Popen([str(BIN / "dask"), "worker", address, "--nthreads", "1",
                                "--no-dashboard"], **run) for _ in range(workers)]
    from distributed import Client
    for _ in range(120):
        try:
            with Client(address, timeout="5s") as c:
                c.wait_for_workers(workers, timeout=120)
            return address, procs
        except OSError:
            time.sleep(1)
    raise SystemExit("the cluster did not start")


class _Timed:
    """Progress that notes when the parent's own part (the baseline) ends."""

    def __init__(self) -> None:
        from rulespec.check.progress import Progress
        self.start = time.perf_counter()
        self.baseline_done: float | None = None
        outer = self

        class P(Progress):
            def set_total(self, total: int | None) -> None:
                if outer.baseline_done is None:
                    outer.baseline_done = time.perf_counter() - outer.start
                super().set_total(total)
        self.progress = P("mutate", quiet=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("game", nargs="?", default="hawaii")
    ap.add_argument("--budget", default="quick", choices=["quick", "full"])
    ap.add_argument("--operators", default="drop_precondition,constant")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--cluster", default=None)
    args = ap.parse_args()
    os.chdir(ROOT)
    from distributed import get_task_stream

    from rulespec.check.cluster import Cluster
    from rulespec.check.mutate import mutate_game
    ops = args.operators.split(",") if args.operators else None
    print(f"{args.game}, {args.budget} budget, operators {args.operators or 'all'}, "
          f"{args.workers} workers; load before: {os.getloadavg()}")
    t = _Timed()
    local = mutate_game(args.game, budget=args.budget, operators=ops, workers=args.workers,
                        progress=t.progress).to_json()
    local_wall = time.perf_counter() - t.start
    print(f"local: {local_wall:.1f} s wall ({t.baseline_done:.1f} s before the first task), "
          f"{local['mutants']} mutants, score {local['score']}; load {os.getloadavg()}")
    from rulespec.check.executor import _forget_loaded
    _forget_loaded()   # the second run loads the game and judges the baseline again too
    procs: list[subprocess.Popen] = []
    address = args.cluster
    if address is None:
        address, procs = _start_cluster(args.workers)
    try:
        with Cluster.connect(address) as cluster:
            t = _Timed()
            with get_task_stream(client=cluster.client) as stream:
                dask = mutate_game(args.game, budget=args.budget, operators=ops,
                                   cluster=cluster, progress=t.progress).to_json()
            dask_wall = time.perf_counter() - t.start
            records = stream.data
    finally:
        for p in procs:
            os.killpg(p.pid, signal.SIGKILL)
    same = json.dumps(local, sort_keys=True) == json.dumps(dask, sort_keys=True)
    if not same:   # keep both to see where they part
        for name, doc in (("local", local), ("dask", dask)):
            Path(f"cluster-bench-{name}.json").write_text(json.dumps(doc, indent=1))
    print(f"dask:  {dask_wall:.1f} s wall ({t.baseline_done:.1f} s before the first task); "
          f"the same JSON: {same}; load {os.getloadavg()}")
    print(f"overhead: {dask_wall - local_wall:+.1f} s ({100 * (dask_wall / local_wall - 1):+.0f} %)")
    times = sorted((sum(s["stop"] - s["start"] for s in r["startstops"]
                        if s["action"] == "compute") for r in records), reverse=True)
    by_worker: dict[str, int] = {}
    for r in records:
        by_worker[r["worker"]] = by_worker.get(r["worker"], 0) + 1
    total = sum(times)
    print(f"tasks: {len(times)}, compute {total:.1f} s in all, mean {total / len(times):.2f} s, "
          f"median {statistics.median(times):.2f} s, longest {', '.join(f'{x:.1f}' for x in times[:5])} s; "
          f"per worker: {sorted(by_worker.values())}")
    serial = t.baseline_done or 0.0
    rest = dask_wall - serial - total / args.workers   # scheduling, transfers, waiting
    print("estimated wall time on N idle workers: parent part + max(longest task, compute / N)")
    for n in (1, 2, 4, 8, 16, 32, 64):
        print(f"  N={n:3}: {serial + max(times[0], total / n):7.1f} s")
    print(f"(measured on {args.workers}: {dask_wall:.1f} s; the estimate for {args.workers} "
          f"is {serial + max(times[0], total / args.workers):.1f} s, the rest {rest:.1f} s)")


if __name__ == "__main__":
    main()
