"""`rulespec conform`: an outside implementation played in lockstep with the spec."""

from __future__ import annotations

import sys
from typing import Any, Sequence

import click

from ..check.progress import Progress
from .options import (BadInput, Command, check_outputs, emit_json, load_model, out, players_ok,
                      quiet_option, ruleset_option, steps_line, stdout_to_stderr,
                      verbose_option)


@click.command(cls=Command)
@click.argument("game")
@click.option("--impl", "impl_ref", required=True, metavar="MODULE:FACTORY",
              help="The implementation: FACTORY(players) returns an adapter (legal_actions, "
                   "apply, current_player, returns; see docs/ecosystem.md). MODULE is an "
                   "importable module or a .py file.")
@click.option("--examples", type=click.IntRange(min=1), default=100, show_default=True,
              help="Games played in lockstep.")
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--players", type=int, default=None,
              help="Fix the number of players (default: drawn from the game's range).")
@click.option("--random", "plain_random", is_flag=True,
              help="Seeded uniform random games (longer games, no shrinking) instead of "
                   "Hypothesis.")
@click.option("--shrink-budget", type=click.IntRange(min=0), default=None,
              help="Test runs Hypothesis may spend shrinking a disagreement (default 500).")
@click.option("--interpretation", multiple=True, metavar="K=V")
@ruleset_option
@click.option("--trace-dir", default="traces", show_default=True,
              help="Where the minimal disagreement is saved as a trace.")
@click.option("--json", "as_json", is_flag=True, help="One JSON document on stdout.")
@quiet_option
@verbose_option
def conform(game: str, impl_ref: str, examples: int, seed: int, players: int | None,
            plain_random: bool, shrink_budget: int | None, interpretation: Sequence[str],
            ruleset: str | None, trace_dir: str, as_json: bool, quiet: bool,
            verbose: bool) -> None:
    """Play an implementation written elsewhere in lockstep with GAME's spec; a
    disagreement is shrunk to the fewest steps and told in rule terms."""
    from ..check.conform import ConformError, load_factory
    model = load_model(game, interpretation, ruleset)
    players_ok(model, players)
    check_outputs("trace_dir")
    try:
        with stdout_to_stderr():   # its prints never reach the --json document
            factory = load_factory(impl_ref)
            report = _run(model, factory, impl_ref, examples, seed, players, plain_random,
                          shrink_budget, trace_dir, quiet)
    except ConformError as e:
        raise BadInput(str(e)) from None
    code = 0 if report.status == "PASSED" else 1
    if as_json:
        emit_json({**report.to_json(), "exit_code": code})
        sys.exit(code)
    out.para(f"{model.spec.title} against {impl_ref}: {report.mode}, {report.examples} "
             f"games, seed {report.seed}")
    colour = "green" if report.status == "PASSED" else "bold red"
    out.para(f"{report.status}: {report.detail}", style=colour)
    d = report.disagreement
    if d is not None:
        out.para(f"minimal trace ({d.players} players, {len(d.actions)} step(s)): "
                 f"{steps_line(d.actions, verbose)}", indent=2)
        if report.trace_path:
            out.para(f"saved to {report.trace_path}; replay the spec's side with: rulespec "
                     f"replay {report.trace_path}", indent=2)
        if report.trace_error:
            out.para(f"trace not saved: {report.trace_error}", indent=2, style="yellow")
    sys.exit(code)


def _run(model: Any, factory: Any, impl_ref: str, examples: int, seed: int,
         players: int | None, plain_random: bool, shrink_budget: int | None, trace_dir: str,
         quiet: bool) -> Any:
    from ..check.conform import HYPOTHESIS, RANDOM, conform as run
    from ..check.runner import SHRINK_BUDGET
    with Progress(f"conform {model.name}", quiet=quiet) as progress:
        return run(model, factory, name=impl_ref, examples=examples, seed=seed,
                   players=players, mode=RANDOM if plain_random else HYPOTHESIS,
                   shrink_budget=SHRINK_BUDGET if shrink_budget is None else shrink_budget,
                   trace_dir=trace_dir, progress=progress)
