"""`rulespec prove`: Z3 proofs of a game's properties."""

from __future__ import annotations

import os
import sys
from typing import Sequence

import click
from rich.markup import escape

from ..check.budget import DEFAULT_RLIMIT, RLIMIT_PER_SECOND
from ..check.progress import Progress
from .options import (BadInput, Command, check_outputs, cluster_from, cluster_option,
                      components_option, emit_json, fresh_option, load_model, out, quiet_option,
                      ruleset_option, stored_line, verbose_option)


@click.command(cls=Command)
@click.argument("game")
@click.option("--property", "props", multiple=True, metavar="P",
              help="Prove only this property (repeatable).")
@click.option("--rlimit", type=click.IntRange(min=1), default=DEFAULT_RLIMIT, show_default=True,
              help="Z3 resource units each solver query may spend; one that spends them "
                   "undecided is UNKNOWN. A count, not a time: the same verdicts on any "
                   f"machine (about {RLIMIT_PER_SECOND // 1_000_000} million per second "
                   "of CPU here).")
@click.option("--retry-rlimit", type=click.IntRange(min=1), default=None, metavar="N",
              help="Where a goal's step proof is undecided within --rlimit in a few step "
                   "cases (at most 16), try those cases again with N units a query; the "
                   "report's quick budget does this with the default budget (default: "
                   "no retry).")
@click.option("--timeout", type=click.FloatRange(min=0.001), default=None,
              help="Safety limit in seconds for the whole run (default: none). Reaching it "
                   "stops the run; what is left undecided is UNKNOWN, saying so.")
@click.option("--depth", type=click.IntRange(min=0), default=None,
              help="Bounded model checking depth, for what induction does not prove "
                   "(default: the game's bmc_depth).")
@click.option("--workers", type=click.IntRange(min=1), default=None,
              help="Processes for the proofs (default: the machine's CPUs, at most 4). "
                   "The verdicts do not depend on it.")
@click.option("--no-infer", "no_infer", is_flag=True,
              help="Do not look for auxiliary invariants where a step proof is UNKNOWN "
                   "(by default the prover infers them, proves them and lists them).")
@cluster_option
@click.option("--interpretation", multiple=True, metavar="K=V")
@ruleset_option
@click.option("--trace-dir", default="traces", show_default=True)
@click.option("--json", "as_json", is_flag=True, help="One JSON document on stdout.")
@quiet_option
@verbose_option
@components_option
@fresh_option
def prove(game: str, props: Sequence[str], rlimit: int, retry_rlimit: int | None,
          timeout: float | None,
          depth: int | None, workers: int | None, no_infer: bool, cluster: str | None,
          interpretation: Sequence[str],
          ruleset: str | None, trace_dir: str, as_json: bool, quiet: bool,
          verbose: bool, fresh: bool) -> None:
    """Prove GAME's invariants, conservation laws and laws with Z3 (step proofs,
    induction, bounded model checking, dead rules)."""
    from ..check.prove import prove as prove_run
    from ..check.prove_text import inference_line, lines, retry_line
    from ..check.results import exit_code
    from ..check.prove import check_provable
    from ..check.store import opened
    model = load_model(game, interpretation, ruleset)
    try:
        check_provable(model, props)
    except ValueError as e:
        raise BadInput(str(e)) from None
    check_outputs("trace_dir")
    on = cluster_from(cluster)
    try:
        with opened(fresh), Progress(f"proving {model.name}", quiet=quiet) as progress:
            run = prove_run(model, property_names=props or None, rlimit=rlimit,
                            timeout=timeout, depth=depth, trace_dir=trace_dir,
                            workers=workers or min(4, os.cpu_count() or 1),
                            progress=progress, processes=True, cluster=on,
                            infer=not no_infer, retry_rlimit=retry_rlimit)
    except ValueError as e:
        raise BadInput(str(e)) from None
    results = run.results
    code = exit_code(results)
    if as_json:
        emit_json({"game": model.name, "rlimit": rlimit, "timeout": timeout,
                    "ruleset": ruleset, "interpretation": dict(model.interpretation),
                    "rlimit_spent": run.rlimit, "jobs": run.jobs, "stopped": run.stopped,
                    "stored_jobs": run.stored[0] if run.stored else None,
                    "inference": run.inference, "infer": not no_infer,
                    "retry_rlimit": retry_rlimit, "retry": run.retry,
                    "results": [r.to_json() for r in results], "exit_code": code})
        sys.exit(code)
    title = (f"{model.spec.title}: Z3, {rlimit:,} resource units per query; "
             f"{run.rlimit:,} spent in {run.jobs} jobs")
    for style, line in lines(title, results, verbose):
        out.print(f"[{style}]{escape(line)}[/]" if style else escape(line))
    if run.retry is not None:
        out.print(escape(retry_line(run.retry, rlimit)))
    if run.inference is not None:
        out.print(escape(inference_line(run.inference)))
    if run.stopped:
        click.echo(f"rulespec: {run.stopped}", err=True)
    if run.stored:
        stored_line(*run.stored, "proof jobs")
    sys.exit(code)

