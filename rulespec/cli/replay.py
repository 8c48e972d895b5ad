"""`rulespec replay`: a saved trace replayed and its properties re-checked."""

from __future__ import annotations

import sys

import click

from ..check.progress import Progress
from .options import (SHOWN, BadInput, Command, check_outputs, draw_steps, emit_json, out,
                      quiet_option, report_pictures, trace_and_model, verbose_option)


@click.command(cls=Command)
@click.argument("trace_file", metavar="TRACE.json", type=click.Path())
@click.option("--json", "as_json", is_flag=True, help="One JSON document on stdout.")
@quiet_option
@verbose_option
@click.option("--svg", "svg_dir", default=None, metavar="DIR",
              help="Also draw the state after each step: DIR/step-NNN.svg.")
def replay(trace_file: str, as_json: bool, quiet: bool, verbose: bool,
           svg_dir: str | None) -> None:
    """Replay a saved trace step by step and re-check the properties on it (with the spec
    that produced it: a spec that changed since is refused)."""
    from ..check.property import all_properties
    from ..check.walk import recheck
    from ..runtime.model import CHANCE, IllegalAction
    trace, model = trace_and_model(trace_file)
    check_outputs("svg_dir")
    if not model.min_players <= trace.players <= model.max_players:
        raise BadInput(f"{trace_file}: {trace.players} players is outside "
                       f"{model.min_players}-{model.max_players}")
    lines = []
    with Progress(f"replaying {model.name}", total=len(trace.actions), quiet=quiet) as progress:
        state = model.initial_state(trace.players)
        for i, text in enumerate(trace.actions, 1):
            try:
                action = model.action_from_str(state, text)
            except ValueError as e:
                raise BadInput(f"{trace_file}: step {i}: {e}") from None
            who = model.current_player(state)
            lines.append({"step": i, "player": "chance" if who == CHANCE else who,
                          "action": text})
            try:
                state = model.apply(state, action)
            except IllegalAction as e:
                raise BadInput(f"{trace_file}: step {i}: {e}") from None
            except Exception:  # noqa: BLE001 - a rule error: recheck reports it
                break
            progress.advance()
        progress.note("checking the properties")
        v = recheck(model, trace.players, trace.actions, all_properties(model))
    drawn = draw_steps(model, trace.players, trace.actions, svg_dir)
    doc = {"game": model.name, "players": trace.players, "spec_path": trace.spec_path,
           "steps": lines,
           "violation": None if v is None else {"property": v.property, "message": v.message,
                                                "after_steps": len(v.actions)}}
    code = 1 if v is not None else 0
    if as_json:
        emit_json(doc)
        sys.exit(max(code, report_pictures(svg_dir, *drawn)))
    shown = lines if verbose or len(lines) <= 3 * SHOWN else lines[-2 * SHOWN:]
    if len(shown) < len(lines):
        out.print(f"  ... {len(lines) - len(shown)} earlier step(s) (--verbose shows them)")
    for line in shown:
        who = line["player"] if line["player"] == "chance" else f"player {line['player']}"
        out.para(f"{line['step']:4d}. {who:>9}: {line['action']}", hang=17)
    if v is None:
        out.print("[green]no property is violated on this trace[/]")
    else:
        out.para(f"VIOLATED {v.property}: {v.message} (after step {len(v.actions)})",
                 style="bold red")
    sys.exit(max(code, report_pictures(svg_dir, *drawn)))
