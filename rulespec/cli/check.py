"""`rulespec check`: properties checked by legal play."""

from __future__ import annotations

import sys
from typing import Sequence

import click

from ..check.progress import Progress
from ..console import counts, results_table
from ..runtime.model import Model
from .options import (BadInput, Command, backend_option, check_outputs, components_option,
                      emit_json, load_model, out, players_ok, policy_from, policy_options,
                      quiet_option, reading, ruleset_option, steps_line, verbose_option)


@click.command(cls=Command)
@click.argument("game")
@click.option("--property", "props", multiple=True, metavar="P",
              help="Check only this property (repeatable).")
@click.option("--examples", type=click.IntRange(min=1), default=None,
              help="Hypothesis examples, or playouts with --random (default: the game's "
                   "check_examples, 100 unless the spec says otherwise).")
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--players", type=int, default=None,
              help="Fix the number of players (default: drawn from the game's range).")
@click.option("--random", "plain_random", is_flag=True,
              help="Plain seeded random playouts (fast, no shrinking) instead of Hypothesis.")
@policy_options
@backend_option
@click.option("--workers", type=click.IntRange(min=1), default=1, show_default=True,
              help="Processes to spread the properties over.")
@click.option("--shrink-budget", type=click.IntRange(min=0), default=None,
              help="Test runs Hypothesis may spend shrinking each violation (default 500); "
                   "past it the shortest trace seen is reported.")
@click.option("--interpretation", multiple=True, metavar="K=V")
@ruleset_option
@click.option("--trace-dir", default="traces", show_default=True,
              help="Where counterexample traces are saved.")
@click.option("--json", "as_json", is_flag=True, help="One JSON document on stdout.")
@quiet_option
@verbose_option
@components_option
def check(game: str, props: Sequence[str], examples: int | None, seed: int,
          players: int | None, plain_random: bool, policy_name: str | None,
          simulations: int | None, rollout: int | None, backend: str, workers: int,
          shrink_budget: int | None, interpretation: Sequence[str], ruleset: str | None,
          trace_dir: str, as_json: bool, quiet: bool, verbose: bool) -> None:
    """Check GAME's properties by legal play; a violation is shrunk and saved as a trace.

    With --policy the playouts' players follow that policy (implies --random)."""
    from ..check.parallel import check_in_workers
    from ..check.policy import RANDOM_DESCRIPTION
    from ..check.results import exit_code
    from ..check.runner import HYPOTHESIS, RANDOM, SHRINK_BUDGET, select
    model = load_model(game, interpretation, ruleset)
    players_ok(model, players)
    try:
        names = [p.name for p in select(model, props)]
    except ValueError as e:
        raise BadInput(str(e)) from None
    policy = policy_from(policy_name, simulations, rollout, backend)
    check_outputs("trace_dir")
    mode = RANDOM if plain_random or policy is not None else HYPOTHESIS
    if examples is None:
        examples = model.spec.check_examples
    with Progress(f"checking {model.name}", quiet=quiet) as progress:
        results = check_in_workers(game, reading(model), names, examples, seed, players,
                                   mode, trace_dir, workers, progress,
                                   SHRINK_BUDGET if shrink_budget is None else shrink_budget,
                                   policy, backend)
    code = exit_code(results)
    cut = _truncated(model, results)
    played_by = None if mode != RANDOM else (policy.describe() if policy is not None
                                             else RANDOM_DESCRIPTION)
    if as_json:
        emit_json({"game": model.name, "mode": mode, "policy": played_by,
                    "examples": examples, "seed": seed,
                    "ruleset": ruleset, "interpretation": dict(model.interpretation),
                    **(cut or {}), "results": [r.to_json() for r in results],
                    "exit_code": code})
        sys.exit(code)
    how = (f"{mode}, {examples} examples, seed {seed}" if played_by is None else
           f"{examples} playouts, seed {seed}, players: {played_by}")
    _print_results(model, results, how, verbose=verbose)
    if cut is not None:
        out.print(f"truncated: {cut['truncated']} of {cut['games']} games cut at the horizon "
                  f"({cut['horizon']} steps): not over, no winner")
    sys.exit(code)


def _truncated(model: Model, results: list) -> dict[str, int] | None:
    """Games cut at the spec's horizon (the search that played the most games), if any."""
    if model.spec.horizon is None:
        return None
    counted = [r for r in results if r.games is not None]
    top = max(counted, key=lambda r: r.games, default=None)
    return {"horizon": model.spec.horizon, "games": top.games if top else 0,
            "truncated": top.truncated if top else 0}


def _print_results(model: Model, results: list, how: str, with_checker: bool = False,
                   verbose: bool = False) -> None:
    out.table(results_table(f"{model.spec.title}: {how}", results, with_checker=with_checker))
    for r in results:
        if r.trace is not None:
            out.para(f"{r.property}: counterexample of {len(r.trace)} step(s): "
                     f"{steps_line(r.trace, verbose)}", style="bold red")
            if r.trace_path:
                out.para(f"saved to {r.trace_path}; replay with: rulespec replay "
                         f"{r.trace_path}", indent=2)
        if getattr(r, "trace_error", None):
            out.para(f"trace not saved: {r.trace_error}", indent=2, style="yellow")
    out.print(counts(results))

