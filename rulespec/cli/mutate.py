"""`rulespec mutate`: which rules nothing pins, by changing them one at a time."""

from __future__ import annotations

import sys
from typing import Any, Sequence

import click

from ..check.progress import Progress
from ..runtime.model import Model
from ..console import summarise
from .options import (SHOWN, BadInput, Command, cluster_from, cluster_option, components_option,
                      emit_json, fresh_option, load_model, out, quiet_option, stored_line,
                      verbose_option)


@click.command(cls=Command)
@click.argument("game")
@click.option("--operators", multiple=True, metavar="OP[,OP]",
              help="Only these mutation operators or groups (repeatable; default all; "
                   "--list-operators names them).")
@click.option("--budget", "budget_name", type=click.Choice(["quick", "full"]), default="quick",
              show_default=True, help="How hard each mutant is judged: counts in "
                                      "docs/mutation.md.")
@click.option("--workers", type=click.IntRange(min=1), default=1, show_default=True,
              help="Processes judging mutants side by side.")
@cluster_option
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--prove", "with_prove", is_flag=True,
              help="Also run `prove` on each survivor that is not equivalent.")
@click.option("--mutant", "only", multiple=True, metavar="ID",
              help="Judge only this mutant (repeatable; ids as --list shows them).")
@click.option("--list", "list_only", is_flag=True,
              help="List the mutants (id and change) without judging them.")
@click.option("--list-operators", is_flag=True, help="List the operators and groups.")
@click.option("--json", "as_json", is_flag=True, help="One JSON document on stdout.")
@quiet_option
@verbose_option
@components_option
@fresh_option
def mutate(game: str, operators: Sequence[str], budget_name: str, workers: int,
           cluster: str | None, seed: int, with_prove: bool, only: Sequence[str],
           list_only: bool, list_operators: bool, as_json: bool, quiet: bool, verbose: bool,
           fresh: bool) -> None:
    """Which rules does nothing pin? Change GAME's rules one at a time (on the IR) and see
    whether its scenarios, `check` or `prove` notice; list the survivors in rule terms."""
    from ..check.mutate import GROUPS, OPERATORS, BaselineError, mutants, mutate_game
    from ..check.mutate import select_operators
    from ..check.scenario import ScenarioFileError
    if list_operators:
        if as_json:
            emit_json({"operators": OPERATORS, "groups": {k: list(v)
                                                           for k, v in GROUPS.items()}})
        else:
            for name, what in OPERATORS.items():
                out.para(f"{name}: {what}", hang=4)
            for name, ops in GROUPS.items():
                out.para(f"{name} (group): {', '.join(ops)}", hang=4)
        sys.exit(0)
    model = load_model(game)
    try:
        ops = select_operators(operators)
    except ValueError as e:
        raise BadInput(str(e)) from None
    if list_only:
        found = mutants(model.spec, ops)
        if as_json:
            emit_json({"game": model.name, "mutants": [m.to_json() for m in found]})
        else:
            for m in found:
                out.para(f"{m.id}: {m.description}", hang=4)
            out.print(f"{len(found)} mutants")
        sys.exit(0)
    if only:   # an id no mutant has is refused before the baseline is judged
        from ..check.mutate.run import select_mutants
        try:
            select_mutants(mutants(model.spec, ops), only)
        except ValueError as e:
            raise BadInput(str(e)) from None
    on = cluster_from(cluster)
    try:
        from ..check.store import opened
        with opened(fresh), Progress(f"mutating {model.name}", quiet=quiet) as progress:
            report = mutate_game(game, operators=ops, budget=budget_name, workers=workers,
                                 seed=seed, prove=with_prove, only=only or None,
                                 progress=progress, cluster=on)
    except (ValueError, ScenarioFileError) as e:
        raise BadInput(str(e)) from None
    except BaselineError as e:
        click.echo(f"rulespec: {e}; fix the spec or its scenarios before mutating",
                   err=True)
        sys.exit(1)
    code = 1 if report.survivors else 0
    if report.stored:
        stored_line(*report.stored, "mutant judgements")
    if as_json:
        emit_json({**report.to_json(), "exit_code": code})
        sys.exit(code)
    _print_mutation(model, report, verbose)
    sys.exit(code)


NBSP = "\u00a0"   # "0 %" stays on one line


def _percent(score: float | None) -> str:
    return "-" if score is None else f"{100 * score:.0f} %"


def _print_mutation(model: Model, report: Any, verbose: bool) -> None:
    from rich.table import Table

    from ..check.mutate.equivalent import BY_PROVED_INVARIANTS
    t = Table(title=f"{model.spec.title}: {len(report.results)} mutants, {report.budget} "
                    f"budget ({report.examples} examples each), seed {report.seed}",
              title_justify="left")
    for col in ("operator", "mutants", "killed", "equivalent", "survived", "score"):
        t.add_column(col, justify="left" if col == "operator" else "right")
    for op, c in report.by_operator().items():
        t.add_row(op, str(c["mutants"]), str(c["killed"]), str(c["equivalent"]),
                  str(c["survived"]), _percent(c["score"]))
    out.table(t)
    killers = report.killed_by()
    out.para(f"score {_percent(report.score())}: {report.count('KILLED')} killed ("
             + ", ".join(f"{n} by {k}" for k, n in killers.items())
             + f"), {report.count('EQUIVALENT')} equivalent, "
             f"{report.count('SURVIVED')} survived", style="bold")
    by_invariants = sum(1 for r in report.results if r.equivalence == BY_PROVED_INVARIANTS)
    if by_invariants or report.proof_units():
        out.para(f"{by_invariants} shown equivalent only with the invariants prove proves for "
                 f"the spec (that proof: {report.proof_units():,} Z3 resource units here)",
                 hang=4)
    data = report.constructed_values()
    if data["mutants"]:
        score = _percent(data["score"]).replace(" ", NBSP)
        out.para(f"constructed component values, counted apart: {data['mutants']} mutants, "
                 f"{data['killed']} killed, {data['equivalent']} equivalent, "
                 f"{data['survived']} survived, score {score}"
                 + (f"; no test pins {summarise(data['unpinned_entries'], SHOWN)}"
                    if data["unpinned_entries"] else ""), hang=4)
    if verbose:
        for r in report.results:
            if r.status == "KILLED":
                out.para(f"killed {r.id}: {r.description}", hang=4)
                out.para(f"by {r.killer}: {r.detail}", indent=4)
            elif r.status == "EQUIVALENT":
                out.para(f"equivalent {r.id}: {r.description}", hang=4)
                out.para(f"{r.equivalence}", indent=4)
    survivors = report.survivors
    if survivors:
        out.para(f"{len(survivors)} surviving mutant(s): rules nothing pins (add a scenario "
                 "or a property that tells them apart; docs/mutation.md)", style="bold red")
    shown = survivors if verbose else survivors[:SHOWN]
    for r in shown:
        out.para(f"{r.id}{' (constructed value)' if r.constructed else ''}: "
                 f"{r.description}", hang=4)
        if r.source:
            out.para(f"source: {r.source}", indent=4)
        if r.where:
            out.para(f"spec: {r.where}", indent=4)
        if r.witness:
            out.para(f"differs: {r.witness}", indent=4)
    if len(shown) < len(survivors):
        out.para(f"... ({len(survivors) - len(shown)} more; --verbose or --json has them all)")
