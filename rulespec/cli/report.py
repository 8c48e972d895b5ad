"""`rulespec report`: the rules-clarification report of each game."""

from __future__ import annotations

import os
import sys
from typing import Sequence

import click
from rich.markup import escape

from .options import (BadInput, Command, check_outputs, cluster_from, cluster_option,
                      components_option, fresh_option, load_model, out, policy_from, quiet_option,
                      stored_line)


@click.command(cls=Command)
@click.argument("games", nargs=-1)
@click.option("--all", "all_games", is_flag=True, help="Every bundled game.")
@click.option("-o", "--out-dir", default="reports", show_default=True,
              help="Where GAME.html, GAME.md, GAME.json and index.html are written.")
@click.option("--budget", "budget_name", type=click.Choice(["quick", "full"]), default="quick",
              show_default=True, help="How much checking: counts in docs/reports.md.")
@click.option("--workers", type=click.IntRange(min=1), default=1, show_default=True,
              help="Games reported side by side in this many processes (their proofs "
                   "share the cores).")
@cluster_option
@click.option("--policy", "policy_name", type=click.Choice(["random", "greedy", "mcts"]),
              default="random", show_default=True,
              help="Who plays the interpretation diffs' lockstep games (see `diff`).")
@click.option("--mutate", "with_mutate", is_flag=True,
              help="Add the mutation section: `rulespec mutate` at the same budget (which "
                   "rules nothing pins; it can take far longer than the rest).")
@quiet_option
@components_option
@fresh_option
def report(games: Sequence[str], all_games: bool, out_dir: str, budget_name: str,
           workers: int, cluster: str | None, policy_name: str, with_mutate: bool, quiet: bool,
           fresh: bool) -> None:
    """Write the rules-clarification report of each GAME (HTML, Markdown, JSON)."""
    import time

    from ..report.budget import BUDGETS
    from ..report.progress import ReportProgress
    from ..report.run import report_games
    from ..runtime.registry import available_games, spec_path
    if all_games == bool(games):
        raise BadInput("name the games to report, or give --all (not both)")
    refs = list(available_games()) if all_games else list(games)
    for g in refs:
        try:
            spec_path(g)
        except ValueError as e:
            raise BadInput(str(e)) from None
        load_model(g)  # a malformed spec fails here, with its file and line
    check_outputs("out_dir")
    start = time.perf_counter()
    import attrs
    policy_from(policy_name, None, None)  # MCTS needs OpenSpiel: say so before any work
    budget = attrs.evolve(BUDGETS[budget_name], diff_policy=policy_name,
                          mutate=budget_name if with_mutate else None)
    from ..check.store import opened
    on = cluster_from(cluster)
    with opened(fresh), ReportProgress(refs, quiet=quiet) as progress:
        done = report_games(refs, budget, out_dir, workers, progress=progress, cluster=on)
    for d in done:
        if "error" in d:
            click.echo(f"{d['game']}: the report could not be made: {d['error']}", err=True)
            continue
        found = ", ".join(f"{n} {s}" for s, n in d["counts"].items() if n)
        out.print(escape(f"{d['game']}: {found}"))
    stored = [d["stored"] for d in done if "stored" in d]
    if stored:
        stored_line(sum(s["report"] for s in stored), len(stored), "reports")
        stored_line(sum(s["hits"] for s in stored), sum(s["asked"] for s in stored),
                    "pieces of the other reports (proof jobs, lockstep games, mutant judgements)")
    unwritten = [d for d in done if "write_error" in d]
    for d in unwritten:   # after every verdict: one line each, naming what is missing
        click.echo(f"rulespec: {d['game']}: the report could not be written: "
                   f"{d['write_error']}", err=True)
    index = os.path.join(os.path.abspath(out_dir), "index.html")
    if os.path.isfile(index) and not unwritten:
        out.print(escape(f"reports ({budget_name} budget, {time.perf_counter() - start:.0f} s) "
                         f"in {index}"))
    sys.exit(1 if any("error" in d or "write_error" in d for d in done) else 0)
