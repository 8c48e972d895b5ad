"""`rulespec list`: the bundled games."""

from __future__ import annotations

import click
from rich.markup import escape

from .options import Command, emit_json, out


@click.command("list", cls=Command)
@click.option("--json", "as_json", is_flag=True, help="One JSON document on stdout.")
@click.option("--names", is_flag=True, help="Only the game names, one per line.")
def list_cmd(as_json: bool, names: bool) -> None:
    """List the bundled games."""
    from rich.table import Table

    from ..runtime.registry import available_games, load_spec
    games = available_games()
    if names:
        click.echo("\n".join(games))
        return
    specs = [load_spec(g) for g in games]
    if as_json:
        emit_json([{"name": s.name, "title": s.title, "players": [s.min_players, s.max_players],
                     "actions": len(s.actions), "interpretations": len(s.interpretations),
                     "assumptions": len(s.assumptions)} for s in specs])
        return
    table = Table(title="Bundled games", title_justify="left")
    for col in ("game", "title", "players", "actions", "interpretations", "assumptions"):
        table.add_column(col, overflow="fold")
    for s in specs:
        players = str(s.min_players) if s.min_players == s.max_players else \
            f"{s.min_players}-{s.max_players}"
        table.add_row(escape(s.name), escape(s.title), players, str(len(s.actions)),
                      str(len(s.interpretations)), str(len(s.assumptions)))
    out.table(table)

