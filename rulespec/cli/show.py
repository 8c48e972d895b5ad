"""`rulespec show`: one state of a trace, drawn as SVG."""

from __future__ import annotations

import sys

import click

from .options import BadInput, Command, check_outputs, trace_and_model, write_failed


@click.command(cls=Command)
@click.argument("trace_file", metavar="TRACE.json", type=click.Path())
@click.option("--step", "step", type=click.IntRange(min=0), default=None,
              help="Draw the state after this step (0: the setup; default: the last).")
@click.option("-o", "--output", default=None, metavar="FILE.svg",
              help="Write the picture here (default: print it on stdout).")
def show(trace_file: str, step: int | None, output: str | None) -> None:
    """Draw one state of a trace as SVG, from the game's declared view."""
    from ..report.run import picture_after
    from ..runtime.model import IllegalAction
    trace, model = trace_and_model(trace_file)
    check_outputs("output")
    n = len(trace.actions) if step is None else step
    if n > len(trace.actions):
        raise BadInput(f"{trace_file}: step {n} is past the end ({len(trace.actions)} steps)")
    if not model.min_players <= trace.players <= model.max_players:
        raise BadInput(f"{trace_file}: {trace.players} players is outside "
                       f"{model.min_players}-{model.max_players}")
    try:
        svg = picture_after(model, trace.players, trace.actions, n)
    except (ValueError, IllegalAction) as e:
        raise BadInput(f"{trace_file}: {e}") from None
    if output is None:
        click.echo(svg, nl=False)
    else:
        from ..report.render import write_atomically
        try:
            write_atomically(output, svg)
        except OSError as err:
            write_failed(output, err)
            sys.exit(1)
        click.echo(f"wrote {output}", err=True)
