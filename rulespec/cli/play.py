"""`rulespec play`: one seeded random game, as a readable trace."""

from __future__ import annotations

import sys
from typing import Any, Sequence

import click
from rich.markup import escape

from .options import (Command, check_outputs, components_option, draw_steps, emit_json, load_model,
                      out, players_ok, report_pictures, ruleset_option, write_failed)


@click.command(cls=Command)
@click.argument("game")
@click.option("--players", type=int, default=None, help="Number of players (default: minimum).")
@click.option("--seed", type=int, default=0, show_default=True, help="Seed for every choice.")
@click.option("--interpretation", multiple=True, metavar="K=V",
              help="Choose an option of an interpretation point (repeatable).")
@ruleset_option
@click.option("--json", "as_json", is_flag=True, help="One JSON document on stdout.")
@click.option("--svg", "svg_dir", default=None, metavar="DIR",
              help="Also draw the state after each step: DIR/step-NNN.svg.")
@click.option("--save", "save_to", default=None, metavar="TRACE.json",
              help="Also save the game as a trace file, for `rulespec replay` and `show`.")
@components_option
def play(game: str, players: int | None, seed: int, interpretation: Sequence[str],
         ruleset: str | None, as_json: bool, svg_dir: str | None, save_to: str | None) -> None:
    """Play one seeded random game of GAME and print its trace (--save writes it as a
    trace file that `rulespec replay` reads)."""
    from ..runtime.model import CHANCE
    from ..runtime.play import play_random
    from ..runtime.trace import Trace, save_trace
    model = load_model(game, interpretation, ruleset)
    n = players if players is not None else model.min_players
    players_ok(model, n)
    check_outputs("svg_dir", "save_to")
    final, steps = play_random(model, n, seed)
    over = model.is_terminal(final)
    truncated = not over and model.spec.horizon is not None  # cut at the horizon: no winner
    texts = [str(s.action) for s in steps]
    trace = Trace.of(model, n, texts)
    drawn = draw_steps(model, n, texts, svg_dir)
    saved, save_error = None, None
    if save_to is not None:
        try:
            saved = str(save_trace(trace, save_to))
        except OSError as err:
            save_error = err
    doc = {"game": model.name, "players": n, "seed": seed, "ruleset": ruleset,
           "interpretation": dict(model.interpretation),
           "steps": [{"player": "chance" if s.player == CHANCE else s.player,
                      "action": str(s.action)} for s in steps],
           "terminal": over, "truncated": truncated, "scores": model.scores(final),
           "winners": [] if truncated else model.winners(final),
           # the same game as a trace file's document: `--save FILE` writes it
           "trace": trace.to_json(), "trace_path": saved}
    if as_json:
        emit_json(doc)
    else:
        _print(model, doc, steps, n, seed, truncated)
    code = report_pictures(svg_dir, *drawn)
    if saved:
        click.echo(f"trace saved to {saved}; replay it with: rulespec replay {saved}", err=True)
    if save_error is not None:
        write_failed(f"the trace {save_to}", save_error)
        code = 1
    sys.exit(code)


def _print(model: Any, doc: dict, steps: Sequence[Any], n: int, seed: int,
           truncated: bool) -> None:
    from ..runtime.model import CHANCE
    out.print(f"[bold]{escape(model.spec.title)}[/bold], {n} players, seed {seed}")
    for i, s in enumerate(steps, 1):
        who = "chance" if s.player == CHANCE else f"player {s.player}"
        out.para(f"{i:4d}. {who:>9}: {s.action}", hang=17)
    if truncated:
        out.print(f"scores: {doc['scores']}   truncated at the horizon of "
                  f"{model.spec.horizon} steps: no winner")
        return
    out.print(f"scores: {doc['scores']}   winners: {doc['winners']}"
              + ("" if doc["terminal"] else "   (not over: step bound reached)"))

