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


def _load(game: str, interpretation: Sequence[str] = (), ruleset: str | None = None) -> Model:
    from .runtime.registry import load
    chosen = ",".join(interpretation) if interpretation else None
    try:
        return load(game, interpretation=chosen, ruleset=ruleset)
    except ValueError as e:
        raise BadInput(str(e)) from None


def _ruleset_option(fn: Any) -> Any:
    """``--ruleset NAME``: a named bundle of interpretation options the spec declares
    (``rulespec info`` lists them); ``--interpretation`` may add points it leaves open."""
    return click.option("--ruleset", default=None, metavar="NAME",
                        help="A named bundle of interpretation options (see `info`); "
                             "--interpretation may choose the points it leaves open.")(fn)


def _reading(model: Model) -> list[str]:
    """The model's whole interpretation as K=V texts (for worker processes)."""
    return [f"{k}={v}" for k, v in model.interpretation.items()]


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
        "actions": [{"name": a.name, "chance": a.chance, "source": a.source,
                     "params": {p.name: p.domain.label for p in a.params},
                     "preconditions": [{"text": pre.text, "rule": to_english(pre.cond),
                                        "source": pre.source} for pre in a.preconditions]}
                    for a in spec.actions],
        "properties": [{"name": p.name, "kind": p.kind, "source": p.source,
                        "checked_by": "python" if p.python_only else "python, z3"}
                       for p in all_properties(model)],
        "interpretations": [{"name": i.name, "question": i.question, "default": i.default,
                             "reason": i.reason,
                             "options": [{"name": o, "source": s} for o, s in i.options.items()]}
                            for i in spec.interpretations],
        "rulesets": [{"name": r.name, "source": r.source, "doc": r.doc,
                      "options": dict(r.options)} for r in spec.rulesets],
        "assumptions": [{"name": a.name, "value": a.value if isinstance(a.value, (int, str, bool, list, dict)) else repr(a.value),
                         "reason": a.reason, "origin": a.origin} for a in spec.assumptions],
    }
    if as_json:
        _emit_json(doc)
        return
    out.print(f"[bold]{spec.title}[/bold] ({spec.name}), {spec.min_players}-{spec.max_players} "
              f"players, at most {spec.max_steps} steps")
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
        if i["reason"]:
            out.print(escape(f"    why {i['default']} by default: {i['reason']}"))
    out.print("\n[bold]Rulesets[/bold]" + ("" if doc["rulesets"] else ": none"))
    for r in doc["rulesets"]:
        opts = ", ".join(f"{k}={v}" for k, v in r["options"].items())
        out.print(escape(f"  {r['name']}: {opts}"))
        out.print(escape(f"    {r['doc']} [{r['source']}]" if r["doc"] else f"    [{r['source']}]"))
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
@_ruleset_option
@click.option("--json", "as_json", is_flag=True, help="One JSON document on stdout.")
def play(game: str, players: int | None, seed: int, interpretation: Sequence[str],
         ruleset: str | None, as_json: bool) -> None:
    """Play one seeded random game of GAME and print its trace."""
    from .runtime.model import CHANCE
    from .runtime.play import play_random
    model = _load(game, interpretation, ruleset)
    n = players if players is not None else model.min_players
    if not model.min_players <= n <= model.max_players:
        raise BadInput(f"{model.name} is for {model.min_players}-{model.max_players} players, "
                       f"not {n}")
    final, steps = play_random(model, n, seed)
    doc = {"game": model.name, "players": n, "seed": seed, "ruleset": ruleset,
           "interpretation": dict(model.interpretation),
           "steps": [{"player": "chance" if s.player == CHANCE else s.player,
                      "action": str(s.action)} for s in steps],
           "terminal": model.is_terminal(final), "scores": model.scores(final),
           "winners": model.winners(final)}
    if as_json:
        _emit_json(doc)
        return
    out.print(f"[bold]{model.spec.title}[/bold], {n} players, seed {seed}")
    for i, s in enumerate(steps, 1):
        who = "chance" if s.player == CHANCE else f"player {s.player}"
        out.print(escape(f"{i:4d}. {who:>9}: {s.action}"))
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
@_ruleset_option
@click.option("--trace-dir", default="traces", show_default=True,
              help="Where counterexample traces are saved.")
@click.option("--json", "as_json", is_flag=True, help="One JSON document on stdout.")
def check(game: str, props: Sequence[str], examples: int | None, seed: int,
          players: int | None,
          plain_random: bool, workers: int, interpretation: Sequence[str], ruleset: str | None,
          trace_dir: str, as_json: bool) -> None:
    """Check GAME's properties by legal play; a violation is shrunk and saved as a trace."""
    from .check.parallel import check_in_workers
    from .check.results import exit_code
    from .check.runner import HYPOTHESIS, RANDOM, select
    model = _load(game, interpretation, ruleset)
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
    results = check_in_workers(game, _reading(model), names, examples, seed, players, mode,
                               trace_dir, workers, progress=not as_json)
    code = exit_code(results)
    if as_json:
        _emit_json({"game": model.name, "mode": mode, "examples": examples, "seed": seed,
                    "ruleset": ruleset, "interpretation": dict(model.interpretation),
                    "results": [r.to_json() for r in results], "exit_code": code})
        sys.exit(code)
    _print_results(model, results, f"{mode}, {examples} examples, seed {seed}")
    sys.exit(code)


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
@_ruleset_option
@click.option("--trace-dir", default="traces", show_default=True)
@click.option("--json", "as_json", is_flag=True, help="One JSON document on stdout.")
def prove(game: str, props: Sequence[str], timeout: float, depth: int | None,
          workers: int | None, interpretation: Sequence[str], ruleset: str | None,
          trace_dir: str, as_json: bool) -> None:
    """Prove GAME's invariants, conservation laws and laws with Z3 (step proofs,
    induction, bounded model checking)."""
    from .check.prove import prove_game
    from .check.results import exit_code
    model = _load(game, interpretation, ruleset)
    try:
        results = prove_game(model, property_names=props or None, timeout=timeout,
                             depth=depth, trace_dir=trace_dir,
                             workers=workers or min(4, os.cpu_count() or 1))
    except ValueError as e:
        raise BadInput(str(e)) from None
    code = exit_code(results)
    if as_json:
        _emit_json({"game": model.name, "timeout": timeout, "ruleset": ruleset,
                    "interpretation": dict(model.interpretation),
                    "results": [r.to_json() for r in results], "exit_code": code})
        sys.exit(code)
    _print_results(model, results, f"Z3, {timeout:g} s per query", with_checker=True)
    sys.exit(code)


# --- diff -------------------------------------------------------------------------------
@cli.command("diff")
@click.argument("game")
@click.option("--interpretation", "reading_a", multiple=True, metavar="K=A",
              help="Reading A: an option of a point (repeatable), over --ruleset if given.")
@_ruleset_option
@click.option("--against", "reading_b", multiple=True, required=True, metavar="NAME|K=B",
              help="Reading B: a ruleset NAME, and/or K=B options over reading A (repeatable).")
@click.option("--from", "start", default=None, metavar="FILE[#NAME]",
              help="Start from a scenario's given situation instead of the setup.")
@click.option("--depth", type=click.IntRange(min=1), default=3, show_default=True,
              help="Most actions after the start to search.")
@click.option("--setups", type=click.IntRange(min=1), default=2, show_default=True,
              help="Setups sampled per player count when the setup is random.")
@click.option("--games", type=click.IntRange(min=0), default=50, show_default=True,
              help="Random games in lockstep: how often the readings part and the winner "
                   "changes (95 % intervals).")
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--out-dir", default="traces", show_default=True,
              help="Where the difference is saved as a scenario file.")
@click.option("--json", "as_json", is_flag=True, help="One JSON document on stdout.")
def diff_cmd(game: str, reading_a: Sequence[str], ruleset: str | None,
             reading_b: Sequence[str], start: str | None, depth: int, setups: int,
             games: int, seed: int, out_dir: str, as_json: bool) -> None:
    """Where two readings of GAME part: the simplest difference, explained in rule terms,
    and how much it matters."""
    from .check.diff import diff
    if not reading_a and ruleset is None:
        raise BadInput("name reading A with --ruleset NAME and/or --interpretation K=A")
    ma = _load(game, reading_a, ruleset)
    b_rulesets = [x for x in reading_b if "=" not in x]
    b_options = [x for x in reading_b if "=" in x]
    if len(b_rulesets) > 1:
        raise BadInput(f"--against names more than one ruleset: {', '.join(b_rulesets)}")
    if b_rulesets:   # B is that ruleset, with its own K=B options
        mb = _load(game, b_options, b_rulesets[0])
    else:            # B is reading A with the K=B options changed
        over = dict(ma.interpretation)
        for x in b_options:
            k, v = x.split("=", 1)
            over[k.strip()] = v.strip()
        mb = _load(game, [f"{k}={v}" for k, v in over.items()])
    if ma.interpretation == mb.interpretation:
        raise BadInput("the two readings are the same: --against must change an "
                       "interpretation point")
    label_a = " + ".join(([f"ruleset {ruleset}"] if ruleset else []) + list(reading_a))
    label_b = " + ".join([f"ruleset {b}" for b in b_rulesets] + b_options)
    progress = err if not as_json else None
    if progress is not None:
        progress.print(f"diff: searching {depth} action(s) deep, then {games} random games",
                       highlight=False)
    try:
        report = diff(ma, mb, depth=depth, setups=setups, games=games, seed=seed,
                      scenario_dir=out_dir, start=start, labels=(label_a, label_b))
    except ValueError as e:
        raise BadInput(str(e)) from None
    if as_json:
        _emit_json(report.to_json())
        sys.exit(0 if report.status in ("PROVED", "PASSED") else 1)
    _print_diff(report)
    sys.exit(0 if report.status in ("PROVED", "PASSED") else 1)  # like diff(1): 1 = differ


def _wrap(text: str, width: int) -> list[str]:
    """Break ``text`` into lines of at most ``width`` terminal cells (Japanese characters
    take two), at spaces where it can, anywhere inside a long run without spaces."""
    from rich.cells import cell_len
    lines: list[str] = []
    line = ""
    for word in text.split(" "):
        candidate = f"{line} {word}" if line else word
        if cell_len(candidate) <= width:
            line = candidate
            continue
        if line:
            lines.append(line)
        line = ""
        for ch in word:
            if cell_len(line + ch) > width:
                lines.append(line)
                line = ""
            line += ch
    if line or not lines:
        lines.append(line)
    return lines


def _print_diff(report: Any) -> None:
    style = {"PASSED": "green", "PROVED": "green", "VIOLATED": "bold red", "UNKNOWN": "yellow"}

    def say(text: str, indent: str = "") -> None:
        lead = indent + " " * (len(text) - len(text.lstrip(" ")))
        for line in _wrap(text.strip(), 100 - len(lead) - 4):
            out.print(escape(lead + line))
            lead = indent + " " * (len(text) - len(text.lstrip(" "))) + "    "
    out.print(f"[bold]{escape(report.a_label)}[/] against [bold]{escape(report.b_label)}[/]: "
              f"[{style.get(report.status, 'bold')}]{report.status}[/]", overflow="fold")
    say(report.detail)
    out.print(f"the readings part on {len(report.points)} point(s):")
    for p in report.points:
        say(f"  {p.point}: {p.question}")
        say(f"    {p.a} (A): {p.a_source}")
        say(f"    {p.b} (B): {p.b_source}")
    d = report.difference
    if d is not None:
        out.print("[bold]the difference[/]")
        for line in d.explanation:
            if not line.startswith(tuple(f"{p.point}:" for p in report.points)) and \
                    not any(line.startswith(f"  {p.a}: ") or line.startswith(f"  {p.b}: ")
                            for p in report.points):
                say(line, "  ")
        out.print("  saved as a scenario (run it with `rulespec scenario`):")
        out.print(escape(f"    {report.scenario_path}"), overflow="ignore", crop=False)
    im = report.impact
    if im is not None:
        out.print(f"[bold]does it matter?[/] {im.games} random games in lockstep "
                  f"(seed {im.seed}, {min(im.players)}-{max(im.players)} players):")
        out.print(f"  the readings parted in {im.parted}")
        out.print(f"  the winner changed in {im.winner_changed}")


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
