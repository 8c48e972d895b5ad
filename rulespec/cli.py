"""The ``rulespec`` command line. Exit codes: 0 all good, 1 something violated or failed,
2 bad usage or bad input (one clear line on stderr, never a traceback)."""

from __future__ import annotations

import json
import os
import sys
from typing import Any, NoReturn, Sequence

import click
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from .ir.errors import SpecError
from .runtime.model import IllegalAction, Model
from .runtime.trace import TraceError

out = Console(highlight=False, soft_wrap=True)
err = Console(stderr=True, highlight=False)


class BadInput(Exception):
    """Bad usage or input: exit 2 with this one line."""


def _load(game: str, interpretation: Sequence[str] = ()) -> Model:
    from .runtime.registry import load
    chosen = ",".join(interpretation) if interpretation else None
    try:
        return load(game, interpretation=chosen)
    except ValueError as e:
        raise BadInput(str(e)) from None


def _emit_json(doc: Any) -> None:
    click.echo(json.dumps(doc, indent=2, ensure_ascii=False))


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="rulespec")
def cli() -> None:
    """Board-game rules as a checkable spec: list, inspect, play, check, replay."""


# --- list / info ------------------------------------------------------------------------
@cli.command("list")
@click.option("--json", "as_json", is_flag=True, help="One JSON document on stdout.")
@click.option("--names", is_flag=True, help="Only the game names, one per line.")
def list_cmd(as_json: bool, names: bool) -> None:
    """List the bundled games."""
    from .runtime.registry import available_games, load_spec
    games = available_games()
    if names:
        click.echo("\n".join(games))
        return
    specs = [load_spec(g) for g in games]
    if as_json:
        _emit_json([{"name": s.name, "title": s.title, "players": [s.min_players, s.max_players],
                     "actions": len(s.actions), "interpretations": len(s.interpretations),
                     "assumptions": len(s.assumptions)} for s in specs])
        return
    table = Table(title="Bundled games")
    for col in ("game", "title", "players", "actions", "interpretations", "assumptions"):
        table.add_column(col)
    for s in specs:
        players = str(s.min_players) if s.min_players == s.max_players else \
            f"{s.min_players}-{s.max_players}"
        table.add_row(s.name, s.title, players, str(len(s.actions)),
                      str(len(s.interpretations)), str(len(s.assumptions)))
    out.print(table)


@cli.command()
@click.argument("game")
@click.option("--json", "as_json", is_flag=True, help="One JSON document on stdout.")
def info(game: str, as_json: bool) -> None:
    """Players, actions, properties, interpretation points and assumptions of GAME."""
    from .check.property import all_properties
    from .ir.english import to_english
    model = _load(game)
    spec = model.spec
    doc = {
        "name": spec.name, "title": spec.title, "source": spec.source,
        "players": [spec.min_players, spec.max_players], "max_steps": spec.max_steps,
        "horizon": spec.horizon, "horizon_reason": spec.horizon_reason,
        "actions": [{"name": a.name, "chance": a.chance, "source": a.source,
                     "params": {p.name: p.domain.label for p in a.params},
                     "preconditions": [{"text": pre.text, "rule": to_english(pre.cond),
                                        "source": pre.source} for pre in a.preconditions]}
                    for a in spec.actions],
        "properties": [{"name": p.name, "kind": p.kind, "source": p.source,
                        "checked_by": "python" if p.python_only else "python, z3"}
                       for p in all_properties(model)],
        "interpretations": [{"name": i.name, "question": i.question, "default": i.default,
                             "options": [{"name": o, "source": s} for o, s in i.options.items()]}
                            for i in spec.interpretations],
        "assumptions": [{"name": a.name, "value": a.value if isinstance(a.value, (int, str, bool, list, dict)) else repr(a.value),
                         "reason": a.reason, "origin": a.origin} for a in spec.assumptions],
    }
    if as_json:
        _emit_json(doc)
        return
    length = (f"at most {spec.max_steps} steps" if spec.horizon is None else
              f"no bound in the rules, play stops at {spec.horizon} steps")
    out.print(f"[bold]{spec.title}[/bold] ({spec.name}), {spec.min_players}-{spec.max_players} "
              f"players, {length}")
    out.print(f"source: {spec.source}")
    out.print("\n[bold]Actions[/bold]")
    for a in doc["actions"]:
        params = ", ".join(f"{k} in {v}" for k, v in a["params"].items())
        kind = "chance" if a["chance"] else "action"
        out.print(escape(f"  {a['name']}({params}) — {kind}; {a['source']}"))
        for pre in a["preconditions"]:
            out.print(escape(f"    requires: {pre['text']}  [{pre['source']}]"))
    out.print("\n[bold]Properties[/bold]")
    for p in doc["properties"]:
        out.print(f"  {p['name']} ({p['kind']}; {p['checked_by']})")
    out.print("\n[bold]Interpretation points[/bold]" + ("" if doc["interpretations"] else ": none"))
    for i in doc["interpretations"]:
        out.print(escape(f"  {i['name']}: {i['question']} (default: {i['default']})"))
        for o in i["options"]:
            out.print(escape(f"    {o['name']}: {o['source']}"))
    out.print("\n[bold]Assumptions[/bold]" + ("" if doc["assumptions"] else ": none"))
    for a in doc["assumptions"]:
        out.print(escape(f"  {a['name']} = {a['value']}: {a['reason']}"
                         + (f" (origin: {a['origin']})" if a["origin"] else "")))


# --- play -------------------------------------------------------------------------------
@cli.command()
@click.argument("game")
@click.option("--players", type=int, default=None, help="Number of players (default: minimum).")
@click.option("--seed", type=int, default=0, show_default=True, help="Seed for every choice.")
@click.option("--interpretation", multiple=True, metavar="K=V",
              help="Choose an option of an interpretation point (repeatable).")
@click.option("--json", "as_json", is_flag=True, help="One JSON document on stdout.")
def play(game: str, players: int | None, seed: int, interpretation: Sequence[str],
         as_json: bool) -> None:
    """Play one seeded random game of GAME and print its trace."""
    from .runtime.model import CHANCE
    from .runtime.play import play_random
    model = _load(game, interpretation)
    n = players if players is not None else model.min_players
    if not model.min_players <= n <= model.max_players:
        raise BadInput(f"{model.name} is for {model.min_players}-{model.max_players} players, "
                       f"not {n}")
    final, steps = play_random(model, n, seed)
    over = model.is_terminal(final)
    truncated = not over and model.spec.horizon is not None  # cut at the horizon: no winner
    doc = {"game": model.name, "players": n, "seed": seed,
           "interpretation": dict(model.interpretation),
           "steps": [{"player": "chance" if s.player == CHANCE else s.player,
                      "action": str(s.action)} for s in steps],
           "terminal": over, "truncated": truncated, "scores": model.scores(final),
           "winners": [] if truncated else model.winners(final)}
    if as_json:
        _emit_json(doc)
        return
    out.print(f"[bold]{model.spec.title}[/bold], {n} players, seed {seed}")
    for i, s in enumerate(steps, 1):
        who = "chance" if s.player == CHANCE else f"player {s.player}"
        out.print(escape(f"{i:4d}. {who:>9}: {s.action}"))
    if truncated:
        out.print(f"scores: {doc['scores']}   truncated at the horizon of "
                  f"{model.spec.horizon} steps: no winner")
        return
    out.print(f"scores: {doc['scores']}   winners: {doc['winners']}"
              + ("" if doc["terminal"] else "   (not over: step bound reached)"))


# --- check ------------------------------------------------------------------------------
@cli.command()
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
@click.option("--workers", type=click.IntRange(min=1), default=1, show_default=True,
              help="Processes to spread the properties over.")
@click.option("--interpretation", multiple=True, metavar="K=V")
@click.option("--trace-dir", default="traces", show_default=True,
              help="Where counterexample traces are saved.")
@click.option("--json", "as_json", is_flag=True, help="One JSON document on stdout.")
def check(game: str, props: Sequence[str], examples: int | None, seed: int,
          players: int | None,
          plain_random: bool, workers: int, interpretation: Sequence[str], trace_dir: str,
          as_json: bool) -> None:
    """Check GAME's properties by legal play; a violation is shrunk and saved as a trace."""
    from .check.parallel import check_in_workers
    from .check.results import exit_code
    from .check.runner import HYPOTHESIS, RANDOM, select
    model = _load(game, interpretation)
    if players is not None and not model.min_players <= players <= model.max_players:
        raise BadInput(f"{model.name} is for {model.min_players}-{model.max_players} players, "
                       f"not {players}")
    try:
        names = [p.name for p in select(model, props)]
    except ValueError as e:
        raise BadInput(str(e)) from None
    mode = RANDOM if plain_random else HYPOTHESIS
    if examples is None:
        examples = model.spec.check_examples
    results = check_in_workers(game, list(interpretation), names, examples, seed, players, mode,
                               trace_dir, workers, progress=not as_json)
    code = exit_code(results)
    cut = _truncated(model, results)
    if as_json:
        _emit_json({"game": model.name, "mode": mode, "examples": examples, "seed": seed,
                    **(cut or {}), "results": [r.to_json() for r in results],
                    "exit_code": code})
        sys.exit(code)
    _print_results(model, results, f"{mode}, {examples} examples, seed {seed}")
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


def _print_results(model: Model, results: list, how: str, with_checker: bool = False) -> None:
    style = {"PASSED": "green", "PROVED": "green", "VIOLATED": "bold red", "UNKNOWN": "yellow",
             "SKIPPED": "dim"}
    table = Table(title=f"{model.spec.title}: {how}")
    table.add_column("property")
    if with_checker:
        table.add_column("how")
    table.add_column("result")
    table.add_column("detail")
    for r in results:
        cells = [r.property] + ([r.checker] if with_checker else [])
        table.add_row(*map(escape, cells), f"[{style[r.status]}]{r.status}[/]", escape(r.detail))
    out.print(table)
    for r in results:
        if r.trace is not None:
            out.print(f"[bold red]{escape(r.property)}[/] minimal counterexample "
                      f"({len(r.trace)} step(s)): {escape(', '.join(r.trace) or '(setup)')}")
            out.print(escape(f"  saved to {r.trace_path}; replay with: rulespec replay "
                             f"{r.trace_path}"))
    counts: dict[str, int] = {}
    for r in results:
        counts[r.status] = counts.get(r.status, 0) + 1
    out.print("summary: " + ", ".join(f"{v} {k}" for k, v in counts.items()))


# --- prove ------------------------------------------------------------------------------
@cli.command()
@click.argument("game")
@click.option("--property", "props", multiple=True, metavar="P",
              help="Prove only this property (repeatable).")
@click.option("--timeout", type=click.FloatRange(min=0.001), default=10.0, show_default=True,
              help="Seconds per solver query; a query that runs out is UNKNOWN.")
@click.option("--depth", type=click.IntRange(min=0), default=None,
              help="Bounded model checking depth (default: the game's bmc_depth).")
@click.option("--workers", type=click.IntRange(min=1), default=None,
              help="Processes for the step proofs; above 1, bounded model checking and "
                   "dead rules get one more (default: the machine's CPUs, at most 4).")
@click.option("--interpretation", multiple=True, metavar="K=V")
@click.option("--trace-dir", default="traces", show_default=True)
@click.option("--json", "as_json", is_flag=True, help="One JSON document on stdout.")
def prove(game: str, props: Sequence[str], timeout: float, depth: int | None,
          workers: int | None, interpretation: Sequence[str], trace_dir: str,
          as_json: bool) -> None:
    """Prove GAME's invariants, conservation laws and laws with Z3 (step proofs,
    induction, bounded model checking)."""
    from .check.prove import prove_game
    from .check.results import exit_code
    model = _load(game, interpretation)
    try:
        results = prove_game(model, property_names=props or None, timeout=timeout,
                             depth=depth, trace_dir=trace_dir,
                             workers=workers or min(4, os.cpu_count() or 1))
    except ValueError as e:
        raise BadInput(str(e)) from None
    code = exit_code(results)
    if as_json:
        _emit_json({"game": model.name, "timeout": timeout,
                    "results": [r.to_json() for r in results], "exit_code": code})
        sys.exit(code)
    _print_results(model, results, f"Z3, {timeout:g} s per query", with_checker=True)
    sys.exit(code)


# --- diff -------------------------------------------------------------------------------
@cli.command("diff")
@click.argument("game")
@click.option("--interpretation", "reading_a", multiple=True, required=True, metavar="K=A",
              help="The first reading (repeatable).")
@click.option("--against", "reading_b", multiple=True, required=True, metavar="K=B",
              help="The second reading (repeatable).")
@click.option("--depth", type=click.IntRange(min=1), default=6, show_default=True,
              help="Most steps after setup to search.")
@click.option("--setups", type=click.IntRange(min=1), default=8, show_default=True,
              help="Setups sampled per player count when the setup is random.")
@click.option("--games", type=click.IntRange(min=0), default=50, show_default=True,
              help="Random games played in lockstep to measure whether it matters.")
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--out-dir", default="traces", show_default=True,
              help="Where the difference is saved as a scenario file.")
@click.option("--json", "as_json", is_flag=True, help="One JSON document on stdout.")
def diff_cmd(game: str, reading_a: Sequence[str], reading_b: Sequence[str], depth: int,
             setups: int, games: int, seed: int, out_dir: str, as_json: bool) -> None:
    """The smallest situation where two interpretations of GAME differ."""
    from .check.diff import diff
    ma, mb = _load(game, reading_a), _load(game, reading_b)
    if ma.interpretation == mb.interpretation:
        raise BadInput("the two readings are the same: --against must change an "
                       "interpretation point")
    report = diff(ma, mb, depth=depth, setups=setups, games=games, seed=seed,
                  scenario_dir=out_dir)
    d, ls = report.difference, report.lockstep
    doc = {"game": report.game, "a": report.a, "b": report.b, "status": report.status,
           "detail": report.detail, "nodes": report.nodes,
           "difference": None if d is None else {
               "players": d.players, "actions": list(d.actions), "setup_steps": d.setup_steps,
               "kind": d.kind, "only_a": list(d.only_a), "only_b": list(d.only_b),
               "fields": {k: list(v) for k, v in d.fields.items()}},
           "scenario": report.scenario_path,
           "lockstep": None if ls is None else {"games": ls.games, "parted": ls.parted,
                                                "winners_differ": ls.winners_differ,
                                                "seed": ls.seed}}
    if as_json:
        _emit_json(doc)
    else:
        a = ", ".join(f"{k}={v}" for k, v in report.a.items())
        b = ", ".join(f"{k}={v}" for k, v in report.b.items())
        out.print(f"[bold]{ma.spec.title}[/bold]: {a}  vs  {b}")
        colour = "bold red" if report.status == "VIOLATED" else "green"
        verdict = "DIFFER" if report.status == "VIOLATED" else report.status
        out.print(f"[{colour}]{verdict}[/]: {escape(report.detail)}")
        if d is not None:
            out.print(f"  {d.players} players; setup: {d.setup_steps} chance step(s)")
            for i, text in enumerate(d.actions, 1):
                mark = "setup" if i <= d.setup_steps else f"{i - d.setup_steps}"
                out.print(escape(f"  {mark:>6}. {text}"))
            if d.only_a:
                out.print(escape(f"  legal only under {a}: {', '.join(d.only_a)}"))
            if d.only_b:
                out.print(escape(f"  legal only under {b}: {', '.join(d.only_b)}"))
            for k, (va, vb) in d.fields.items():
                out.print(escape(f"  {k}: {va} under {a}, {vb} under {b}"))
            out.print(f"  saved as a scenario: {report.scenario_path}")
        if ls is not None:
            out.print(f"does it matter? in {ls.games} random games played in lockstep the "
                      f"readings parted in {ls.parted} and the winners differed in "
                      f"{ls.winners_differ}")
    sys.exit(0 if report.status in ("PROVED", "PASSED") else 1)  # like diff(1): 1 = differ


# --- scenario / replay ------------------------------------------------------------------
@cli.command()
@click.argument("files", nargs=-1, required=True, type=click.Path())
@click.option("--trace-dir", default="traces", show_default=True,
              help="Where a failed scenario's actions are saved as a trace.")
@click.option("--json", "as_json", is_flag=True, help="One JSON document on stdout.")
def scenario(files: Sequence[str], trace_dir: str, as_json: bool) -> None:
    """Run given/when/then scenario files (TOML; see docs/scenarios.md). A bundled game's
    name stands for all of its scenario files."""
    from pathlib import Path

    from .check.scenario import ScenarioFileError, run_scenario_file
    from .runtime.registry import available_games, models_dir
    from .runtime.trace import save_trace
    all_results = []
    expanded: list[str] = []
    for f in files:
        if not Path(f).exists() and f in available_games():
            expanded += sorted(str(p) for p in (models_dir() / f / "scenarios").glob("*.toml"))
        else:
            expanded.append(f)
    for f in expanded:
        try:
            all_results.append((f, run_scenario_file(f)))
        except ScenarioFileError as e:
            raise BadInput(str(e)) from None
    saved: dict[int, str] = {}
    for _, rs in all_results:
        for r in rs:
            trace = r.to_trace() if r.status != "PASSED" else None
            if trace is not None:
                slug = "".join(ch if ch.isalnum() else "-" for ch in r.name)[:60]
                saved[id(r)] = str(save_trace(trace, Path(trace_dir) / f"{r.game}-scenario-{slug}.json"))
    failed = sum(1 for _, rs in all_results for r in rs if r.status != "PASSED")
    if as_json:
        _emit_json({"files": [{"file": f, "scenarios": [
            {**r.to_dict(), "trace_path": saved.get(id(r))} for r in rs]}
            for f, rs in all_results], "failed": failed})
        sys.exit(1 if failed else 0)
    for f, rs in all_results:
        out.print(f"[bold]{f}[/bold]")
        for r in rs:
            colour = "green" if r.status == "PASSED" else "bold red"
            out.print(f"  [{colour}]{r.status}[/] {escape(r.name)}")
            for msg in r.failures:
                out.print(escape(f"      {msg}"))
            if id(r) in saved:
                out.print(f"      trace saved to {saved[id(r)]}")
    total = sum(len(rs) for _, rs in all_results)
    out.print(f"{total - failed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


@cli.command()
@click.argument("trace_file", metavar="TRACE.json", type=click.Path())
@click.option("--json", "as_json", is_flag=True, help="One JSON document on stdout.")
def replay(trace_file: str, as_json: bool) -> None:
    """Replay a saved trace step by step and re-check the properties on it."""
    from .check.property import all_properties
    from .check.walk import recheck
    from .runtime.model import CHANCE
    from .runtime.trace import load_trace
    trace = load_trace(trace_file)
    model = _load(trace.spec_path or trace.game,
                  [f"{k}={v}" for k, v in trace.interpretation.items()])
    if not model.min_players <= trace.players <= model.max_players:
        raise BadInput(f"{trace_file}: {trace.players} players is outside "
                       f"{model.min_players}-{model.max_players}")
    state = model.initial_state(trace.players)
    lines = []
    for i, text in enumerate(trace.actions, 1):
        try:
            action = model.action_from_str(state, text)
        except ValueError as e:
            raise BadInput(f"{trace_file}: step {i}: {e}") from None
        who = model.current_player(state)
        try:
            state = model.apply(state, action)
        except IllegalAction as e:
            raise BadInput(f"{trace_file}: step {i}: {e}") from None
        lines.append({"step": i, "player": "chance" if who == CHANCE else who, "action": text})
    v = recheck(model, trace.players, trace.actions, all_properties(model))
    doc = {"game": model.name, "players": trace.players, "steps": lines,
           "violation": None if v is None else {"property": v.property, "message": v.message,
                                                "after_steps": len(v.actions)}}
    if as_json:
        _emit_json(doc)
    else:
        for line in lines:
            who = line["player"] if line["player"] == "chance" else f"player {line['player']}"
            out.print(escape(f"{line['step']:4d}. {who:>9}: {line['action']}"))
        if v is None:
            out.print("[green]no property is violated on this trace[/]")
        else:
            out.print(f"[bold red]VIOLATED[/] {escape(v.property)}: {escape(v.message)} "
                      f"(after step {len(v.actions)})")
    sys.exit(1 if v is not None else 0)


_NO_ARGS_IS_HELP = getattr(click.exceptions, "NoArgsIsHelpError", None) or getattr(
    click.exceptions, "NoArgsIsHelp", ())


def main(argv: Sequence[str] | None = None) -> NoReturn:
    """Entry point: run the CLI, turning bad input into one line and exit code 2."""
    try:
        cli.main(args=list(argv) if argv is not None else None, prog_name="rulespec",
                 standalone_mode=False)
    except _NO_ARGS_IS_HELP as e:  # bare `rulespec`: show the help, exit 0
        click.echo(e.ctx.get_help() if e.ctx else "")
        sys.exit(0)
    except click.UsageError as e:
        _fail(e.format_message().splitlines()[0] if e.format_message() else str(e))
    except click.ClickException as e:
        _fail(e.format_message())
    except (click.exceptions.Abort, KeyboardInterrupt):
        # Ctrl-C: workers are already killed (check/workers.py); nothing is half-written
        click.echo("rulespec: interrupted", err=True)
        sys.exit(130)
    except (BadInput, SpecError, TraceError) as e:
        _fail(str(e))
    except click.exceptions.Exit as e:
        sys.exit(e.exit_code)
    sys.exit(0)


def _fail(message: str) -> NoReturn:
    click.echo(f"rulespec: error: {message}", err=True)
    sys.exit(2)


if __name__ == "__main__":  # pragma: no cover
    main()
