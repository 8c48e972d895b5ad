"""Where one part of a quick report spends its CPU: a step-proof job, or the diffs phase.

Not a test: it prints one line of CPU seconds (this process's; a C compiler the diffs run
is a child, counted apart). With ``--profile`` it also writes a pyinstrument profile to
``/tmp/report-profile-MODE-GAME.txt``; read it for *where*, not for how much: the
profiler's own cost falls on Python calls, and under it a job's resource units move a
little (bench/README.md, "Issue 27 again").

    python bench/report_profile.py steps motu 3      # the 4th step job of prove's plan
    python bench/report_profile.py diffs motu [--profile]

``steps GAME K`` runs step job ``K`` (``prove``'s own grouping, largest first) in this
process the way a proof worker does (:func:`rulespec.check.jobs.run_job`, the conserved
totals computed first, as ``prove`` does before its workers start), and times every
solver check (``Z3_solver_check_assumptions`` and ``Solver.check``): their CPU seconds
are Z3's search, the rest is building and walking terms. The timing leaves the units as
they are (the same 34,384,165 units for MOTU's 9th job with it and without).
``diffs GAME`` runs the report's ``_diffs`` (every non-default option): first reading
the scenario files (which compiles each reading they name), then the diffs themselves.
``--profile`` needs ``pip install pyinstrument``.
"""

from __future__ import annotations

import contextlib
import resource
import sys
import time
from pathlib import Path
from typing import Any, Callable, Iterator


def _cpu() -> tuple[float, float]:
    """User + system CPU seconds of this process, and of its finished children."""
    me = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime, kids.ru_utime + kids.ru_stime


def _timed_checks() -> list[float]:
    """Count the CPU seconds and calls of every solver check from now on."""
    import z3
    spent = [0.0, 0]

    def timed(fn: Callable[..., Any]) -> Callable[..., Any]:
        def run(*args: Any) -> Any:
            start = time.process_time()
            try:
                return fn(*args)
            finally:
                spent[0] += time.process_time() - start
                spent[1] += 1
        return run
    z3.Z3_solver_check_assumptions = timed(z3.Z3_solver_check_assumptions)
    z3.Solver.check = timed(z3.Solver.check)
    return spent


@contextlib.contextmanager
def _profiled(on: bool, mode: str, game: str) -> Iterator[None]:
    if not on:
        yield
        return
    from pyinstrument import Profiler
    profiler = Profiler(interval=0.002)
    profiler.start()
    try:
        yield
    finally:
        profiler.stop()
        Path(f"/tmp/report-profile-{mode}-{game}.txt").write_text(
            profiler.output_text(unicode=False, color=False))


def steps(game: str, k: int, profile: bool) -> str:
    import rulespec
    from rulespec.check.budget import Budget
    from rulespec.check.jobs import run_job
    from rulespec.check.prove import _step_groups, _steps_job
    from rulespec.check.steps import remember_totals, step_cases
    from rulespec.compile.smt_backend import compile_smt
    from rulespec.compile.smt_terms import own_context
    model = rulespec.load(game)
    with own_context():
        cases = step_cases(compile_smt(model.spec, model.interpretation))
    remember_totals(model)
    groups = _step_groups(model, cases)
    checks = _timed_checks()
    start = _cpu()[0]
    with _profiled(profile, "steps", game):
        _, units = run_job(model, _steps_job, (groups[k], Budget(10_000_000), None, None))
    total = _cpu()[0] - start
    return (f"{game} step job {k} of {len(groups)} ({len(groups[k])} cases): {total:.1f} "
            f"CPU-s, {units:,} units; {checks[1]} solver checks {checks[0]:.1f} CPU-s "
            f"({100 * checks[0] / total:.0f} %), the rest {total - checks[0]:.1f} CPU-s")


def diffs(game: str, profile: bool) -> str:
    import rulespec
    from rulespec.report import collect
    from rulespec.report.budget import QUICK
    model = rulespec.load(game)
    t0 = _cpu()
    with _profiled(profile, "diffs", game):
        collect._scenario_files_parsed(model, game)
        t1 = _cpu()
        out = collect._diffs(model, game, QUICK, Path("/tmp/report-profile-traces"), {})
    t2 = _cpu()
    return (f"{game}: reading the scenario files (each reading they name compiled) "
            f"{t1[0] - t0[0]:.1f} CPU-s; then {len(out)} diffs {t2[0] - t1[0]:.1f} CPU-s "
            f"here and {t2[1] - t1[1]:.1f} CPU-s in children (the C compiler)")


def main(argv: list[str]) -> None:
    profile = "--profile" in argv
    args = [a for a in argv if a != "--profile"]
    if args[:1] == ["steps"] and len(args) == 3:
        print(steps(args[1], int(args[2]), profile))
    elif args[:1] == ["diffs"] and len(args) == 2:
        print(diffs(args[1], profile))
    else:
        raise SystemExit(__doc__)


if __name__ == "__main__":
    main(sys.argv[1:])
