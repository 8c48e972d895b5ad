"""Where one part of a quick report spends its CPU: a step-proof job, or the diffs phase.

Not a test: it prints the CPU seconds (and a job's resource units) and writes a
pyinstrument profile. Profiles on a shared machine record wall time, so read the shares,
not the seconds; the CPU seconds printed are the process's own (a C compiler the diffs
run is a child process, not counted).

    python bench/report_profile.py steps motu 3      # the 4th step job of prove's plan
    python bench/report_profile.py diffs motu        # the report's diff phase (quick budget)

``steps GAME K`` runs step job ``K`` (``prove``'s own grouping, largest first) in this
process the way a proof worker does (:func:`rulespec.check.jobs.run_job`, the conserved
totals computed first, as ``prove`` does before its workers start). ``diffs GAME`` runs
the report's ``_diffs`` (every non-default option, the scenario files read first).
The profile goes to ``/tmp/report-profile-MODE-GAME.txt``. Needs ``pip install
pyinstrument``.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path


def main(argv: list[str]) -> None:
    from pyinstrument import Profiler

    import rulespec
    mode, game = argv[0], argv[1]
    model = rulespec.load(game)
    if mode == "steps":
        from rulespec.check.budget import Budget
        from rulespec.check.jobs import run_job
        from rulespec.check.prove import _step_groups, _steps_job
        from rulespec.check.steps import remember_totals, step_cases
        from rulespec.compile.smt_backend import compile_smt
        from rulespec.compile.smt_terms import own_context
        with own_context():
            cases = step_cases(compile_smt(model.spec, model.interpretation))
        remember_totals(model)
        groups = _step_groups(model, cases)
        group = groups[int(argv[2])]

        def run() -> str:
            _, units = run_job(model, _steps_job, (group, Budget(10_000_000), None, None))
            return f"{len(groups)} step jobs; job {argv[2]}: {len(group)} cases, {units:,} units"
    elif mode == "diffs":
        from rulespec.report.budget import QUICK
        from rulespec.report.collect import _diffs

        def run() -> str:
            out = _diffs(model, game, QUICK, Path("/tmp/report-profile-traces"), {})
            return f"{len(out)} diffs"
    else:
        raise SystemExit(f"unknown mode {mode!r}: steps or diffs")
    profiler = Profiler(interval=0.002)
    start = time.process_time()
    profiler.start()
    said = run()
    profiler.stop()
    print(f"{game} {mode}: {said}; {time.process_time() - start:.1f} CPU-s")
    Path(f"/tmp/report-profile-{mode}-{game}.txt").write_text(
        profiler.output_text(unicode=False, color=False))


if __name__ == "__main__":
    main(sys.argv[1:])
