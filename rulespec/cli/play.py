"""`rulespec play`: one seeded random game, as a readable trace."""

from __future__ import annotations

from typing import Sequence

import click
from rich.markup import escape

from .options import Command, emit_json, load_model, out, players_ok, ruleset_option


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
def play(game: str, players: int | None, seed: int, interpretation: Sequence[str],
         ruleset: str | None, as_json: bool, svg_dir: str | None) -> None:
    """Play one seeded random game of GAME and print its trace."""
    from ..runtime.model import CHANCE
    from ..runtime.play import play_random
    model = load_model(game, interpretation, ruleset)
    n = players if players is not None else model.min_players
    players_ok(model, n)
    final, steps = play_random(model, n, seed)
    over = model.is_terminal(final)
    truncated = not over and model.spec.horizon is not None  # cut at the horizon: no winner
    if svg_dir is not None:
        from ..report.run import step_pictures
        drawn = step_pictures(model, n, [str(s.action) for s in steps], svg_dir)
        click.echo(f"{len(drawn)} pictures in {svg_dir}/", err=True)
    doc = {"game": model.name, "players": n, "seed": seed, "ruleset": ruleset,
           "interpretation": dict(model.interpretation),
           "steps": [{"player": "chance" if s.player == CHANCE else s.player,
                      "action": str(s.action)} for s in steps],
           "terminal": over, "truncated": truncated, "scores": model.scores(final),
           "winners": [] if truncated else model.winners(final)}
    if as_json:
        emit_json(doc)
        return
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

