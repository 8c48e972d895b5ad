"""The ``rulespec`` command line. Exit codes: 0 all good, 1 something violated or failed,
2 bad usage or bad input (one clear line on stderr, never a traceback), 130 interrupted.

Human output fits 100 columns and summarises long lists (``--verbose`` shows them whole);
``--json`` prints one document with everything on stdout. Progress goes to stderr
(``--quiet`` turns it off).
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any, Callable, NoReturn, Sequence

import click
from rich.markup import escape

from .check.budget import DEFAULT_RLIMIT, RLIMIT_PER_SECOND
from .check.progress import Progress
from .console import Out, counts, results_table, summarise, width
from .ir.errors import SpecError
from .runtime.model import Model
from .runtime.trace import TraceError

out = Out()
#: how many steps, scenarios or names a summary shows before "... (N more)"
SHOWN = 12


class BadInput(Exception):
    """Bad usage or input: exit 2 with this one line."""


def _load(game: str, interpretation: Sequence[str] = (), ruleset: str | None = None) -> Model:
    from .runtime.registry import load
    chosen = ",".join(interpretation) if interpretation else None
    try:
        return load(game, interpretation=chosen, ruleset=ruleset)
    except (ValueError, TypeError) as e:
        raise BadInput(str(e)) from None


def _ruleset_option(fn: Callable) -> Callable:
    """``--ruleset NAME``: a named bundle of interpretation options the spec declares
    (``rulespec info`` lists them); ``--interpretation`` may add points it leaves open."""
    return click.option("--ruleset", default=None, metavar="NAME",
                        help="A named bundle of interpretation options (see `info`); "
                             "--interpretation may choose the points it leaves open.")(fn)


def _policy_options(fn: Callable) -> Callable:
    """``--policy random|greedy|mcts`` and MCTS's counted budget (``--simulations``,
    ``--rollout``): who plays the players' moves in seeded games."""
    fn = click.option("--rollout", type=click.IntRange(min=0), default=None,
                      help="mcts: random steps from a leaf before the score values it "
                           "(default 10).")(fn)
    fn = click.option("--simulations", type=click.IntRange(min=1), default=None,
                      help="mcts: simulations per move (default 16).")(fn)
    return click.option("--policy", "policy_name",
                        type=click.Choice(["random", "greedy", "mcts"]), default=None,
                        help="Who plays the players' moves: uniform random (the default), "
                             "greedy one-step look-ahead, or OpenSpiel's MCTS bot.")(fn)


def _policy(name: str | None, simulations: int | None, rollout: int | None) -> Any:
    """The policy the options name (None without ``--policy``); MCTS needs OpenSpiel."""
    from .check.policy import policy_named
    if name is None:
        if simulations is not None or rollout is not None:
            raise BadInput("--simulations and --rollout set MCTS's budget: give --policy mcts")
        return None
    if name != "mcts" and (simulations is not None or rollout is not None):
        raise BadInput(f"--simulations and --rollout are for --policy mcts, not {name}")
    if name == "mcts":
        from .openspiel import OpenSpielMissing, pyspiel_module
        try:
            pyspiel_module()
        except OpenSpielMissing as e:
            raise BadInput(f"--policy mcts: {e}") from None
    return policy_named(name, simulations=simulations,
                        rollout=-1 if rollout is None else rollout)


def _reading(model: Model) -> list[str]:
    """The model's whole interpretation as K=V texts (for worker processes)."""
    return [f"{k}={v}" for k, v in model.interpretation.items()]


def _emit_json(doc: Any) -> None:
    click.echo(json.dumps(doc, indent=2, ensure_ascii=False))


def _quiet_option(fn: Callable) -> Callable:
    return click.option("--quiet", "-q", is_flag=True,
                        help="No progress on stderr.")(fn)


def _verbose_option(fn: Callable) -> Callable:
    return click.option("--verbose", "-v", is_flag=True,
                        help="Show long lists whole instead of summarised.")(fn)


def _players_ok(model: Model, players: int | None) -> None:
    if players is not None and not model.min_players <= players <= model.max_players:
        raise BadInput(f"{model.name} is for {model.min_players}-{model.max_players} players, "
                       f"not {players}")


def _steps(texts: Sequence[str], verbose: bool) -> str:
    """Actions as one line; a long trace shows its first 3 and last 9 (where the violation
    is), with a count of the rest."""
    if verbose or len(texts) <= SHOWN:
        return ", ".join(texts) or "(setup)"
    head, tail = list(texts[:3]), list(texts[-(SHOWN - 3):])
    hidden = len(texts) - len(head) - len(tail)
    return (", ".join(head) + f", ... ({hidden} more; --verbose or the trace has them all) "
            "..., " + ", ".join(tail))


class _Command(click.Command):
    """A command that refuses an option given twice with different values (click would
    silently keep the last): ``--players 2 --players 3`` is an error, not 3 players."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        for param in self.params:
            if not isinstance(param, click.Option) or param.multiple or param.is_flag:
                continue
            seen: list[str] = []
            for i, arg in enumerate(args):
                if arg == "--":
                    break
                for opt in param.opts:
                    if arg == opt and i + 1 < len(args):
                        seen.append(args[i + 1])
                    elif arg.startswith(opt + "=") and opt.startswith("--"):
                        seen.append(arg[len(opt) + 1:])
            if len(set(seen)) > 1:
                raise click.UsageError(f"{param.opts[0]} is given {len(seen)} times "
                                       f"({', '.join(seen)}): give it once", ctx=ctx)
        return super().parse_args(ctx, args)


class _Group(click.Group):
    command_class = _Command


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"],
                                           "max_content_width": 100})
@click.version_option(package_name="rulespec")
def cli() -> None:
    """Board-game rules as a checkable spec: list, inspect, play, check, replay."""


# --- list / info ------------------------------------------------------------------------
@cli.command("list")
@click.option("--json", "as_json", is_flag=True, help="One JSON document on stdout.")
@click.option("--names", is_flag=True, help="Only the game names, one per line.")
def list_cmd(as_json: bool, names: bool) -> None:
    """List the bundled games."""
    from rich.table import Table

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
    table = Table(title="Bundled games", title_justify="left")
    for col in ("game", "title", "players", "actions", "interpretations", "assumptions"):
        table.add_column(col, overflow="fold")
    for s in specs:
        players = str(s.min_players) if s.min_players == s.max_players else \
            f"{s.min_players}-{s.max_players}"
        table.add_row(escape(s.name), escape(s.title), players, str(len(s.actions)),
                      str(len(s.interpretations)), str(len(s.assumptions)))
    out.table(table)


def _value(v: Any) -> Any:
    return v if isinstance(v, (int, str, bool, list, dict, type(None))) else repr(v)


def _info_doc(model: Model) -> dict[str, Any]:
    from .check.property import all_properties
    from .ir.english import to_english
    spec = model.spec
    return {
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
                             "default_reason": i.default_reason, "english": i.english,
                             "options": [{"name": o, "source": s} for o, s in i.options.items()]}
                            for i in spec.interpretations],
        "rulesets": [{"name": r.name, "source": r.source, "doc": r.doc,
                      "options": dict(r.options)} for r in spec.rulesets],
        "assumptions": [{"name": a.name, "value": _value(a.value), "reason": a.reason,
                         "origin": a.origin} for a in spec.assumptions],
    }


@cli.command()
@click.argument("game")
@click.option("--action", "action_names", multiple=True, metavar="NAME",
              help="Everything about this action: parameters, preconditions and sources.")
@click.option("--assumptions", "show_assumptions", is_flag=True,
              help="Every assumption with its value, reason and origin.")
@click.option("--all", "show_all", is_flag=True, help="Every detail of every part.")
@click.option("--json", "as_json", is_flag=True, help="Everything, as one JSON document.")
def info(game: str, action_names: Sequence[str], show_assumptions: bool, show_all: bool,
         as_json: bool) -> None:
    """An overview of GAME: players, actions, properties, interpretation points and
    assumptions (one screen; --action, --assumptions and --all give the details)."""
    model = _load(game)
    doc = _info_doc(model)
    if as_json:
        _emit_json(doc)
        return
    known = {a["name"]: a for a in doc["actions"]}
    unknown = [n for n in action_names if n not in known]
    if unknown:
        raise BadInput(f"{model.name} has no action {', '.join(map(repr, unknown))} "
                       f"(actions: {', '.join(known)})")
    if action_names and not show_all:
        for name in action_names:
            _print_action(known[name], full=True)
        if show_assumptions:
            _print_assumptions(doc, full=True)
        return
    if show_assumptions and not show_all:
        _print_assumptions(doc, full=True)
        return
    spec = model.spec
    players = (str(spec.min_players) if spec.min_players == spec.max_players
               else f"{spec.min_players}-{spec.max_players}")
    length = (f"at most {spec.max_steps} steps" if spec.horizon is None else
              f"no bound in the rules, play stops at {spec.horizon} steps")
    out.print(f"[bold]{escape(spec.title)}[/bold] ({escape(spec.name)}): {players} players, "
              f"{length}")
    out.para(f"source: {spec.source}", hang=2)
    out.print(f"\n[bold]Actions[/bold] ({len(doc['actions'])})")
    for a in doc["actions"]:
        _print_action(a, full=show_all)
    props = doc["properties"]
    kinds: dict[str, int] = {}
    for p in props:
        kinds[p["kind"]] = kinds.get(p["kind"], 0) + 1
    out.print(f"\n[bold]Properties[/bold] ({len(props)}: "
              + ", ".join(f"{v} on {'every ' if k != 'end' else 'the '}{k}" for k, v in kinds.items())
              + ")")
    names = [p["name"] for p in props]
    if show_all:
        for p in props:
            out.para(f"{p['name']} ({p['kind']}; checked by {p['checked_by']}): {p['source']}",
                     indent=2)
    else:
        out.para(summarise(names, SHOWN, more="--all lists them"), indent=2, hang=2)
    out.print("\n[bold]Interpretation points[/bold]"
              + (f" ({len(doc['interpretations'])})" if doc["interpretations"] else ": none"))
    if not show_all and len(doc["interpretations"]) > 4:   # one screen: names and options
        out.para(", ".join(f"{i['name']} ({'/'.join(o['name'] for o in i['options'])})"
                           for i in doc["interpretations"]) + " (default first)",
                 indent=2, hang=2)
    for i in doc["interpretations"] if show_all or len(doc["interpretations"]) <= 4 else ():
        opts = ", ".join(o["name"] for o in i["options"])
        out.para(f"{i['name']}: {i['question']} ({opts}; default {i['default']})", indent=2)
        if show_all:
            for o in i["options"]:
                out.para(f"{o['name']}: {o['source']}", indent=6)
            if i["default_reason"]:
                out.para(f"why {i['default']} by default: {i['default_reason']}", indent=6)
    rulesets = [(r, ", ".join(f"{k}={v}" for k, v in r["options"].items()))
                for r in doc["rulesets"]]
    if rulesets and not show_all:
        out.para("rulesets: " + "; ".join(f"{r['name']} ({opts})" for r, opts in rulesets),
                 indent=2, hang=2)
    elif rulesets:
        out.print(f"\n[bold]Rulesets[/bold] ({len(rulesets)})")
        for r, opts in rulesets:
            out.para(f"{r['name']}: {opts}", indent=2)
            if r["doc"]:
                out.para(r["doc"], indent=6)
            out.para(f"source: {r['source']}", indent=6)
    if show_all:
        _print_assumptions(doc, full=True)
    else:
        _print_assumptions(doc, full=False)
        out.para(f"details: rulespec info {game} --action NAME | --assumptions | --all | --json")


def _print_action(a: dict[str, Any], full: bool) -> None:
    kind = "chance outcome" if a["chance"] else "action"
    params = ", ".join(f"{k} in {v}" for k, v in a["params"].items())
    n = len(a["preconditions"])
    if not full:
        head = f"  {a['name']}({params})"
        tail = f" — {kind}, {n} precondition{'s' if n != 1 else ''}"
        room = width() - len(tail)
        if len(head) > room:
            head = head[:room - 4] + "...)"
        out.print(escape(head + tail))
        return
    out.para(f"{a['name']}({params}) — {kind}", indent=2)
    out.para(f"source: {a['source']}", indent=4)
    for pre in a["preconditions"]:
        out.para(f"requires: {pre['text']} [{pre['source']}]", indent=4)
        out.para(f"means: {pre['rule']}", indent=8)


def _print_assumptions(doc: dict[str, Any], full: bool) -> None:
    items = doc["assumptions"]
    out.print("\n[bold]Assumptions[/bold]" + (f" ({len(items)})" if items else ": none"))
    if not full:
        if items:
            out.para(", ".join(a["name"] for a in items), indent=2, hang=2)
        return
    for a in items:
        value = json.dumps(a["value"], ensure_ascii=False)
        out.para(f"{a['name']} = {value}", indent=2)
        out.para(f"why: {a['reason']}", indent=6)
        if a["origin"]:
            out.para(f"origin: {a['origin']}", indent=6)


# --- play -------------------------------------------------------------------------------
@cli.command()
@click.argument("game")
@click.option("--players", type=int, default=None, help="Number of players (default: minimum).")
@click.option("--seed", type=int, default=0, show_default=True, help="Seed for every choice.")
@click.option("--interpretation", multiple=True, metavar="K=V",
              help="Choose an option of an interpretation point (repeatable).")
@_ruleset_option
@click.option("--json", "as_json", is_flag=True, help="One JSON document on stdout.")
@click.option("--svg", "svg_dir", default=None, metavar="DIR",
              help="Also draw the state after each step: DIR/step-NNN.svg.")
def play(game: str, players: int | None, seed: int, interpretation: Sequence[str],
         ruleset: str | None, as_json: bool, svg_dir: str | None) -> None:
    """Play one seeded random game of GAME and print its trace."""
    from .runtime.model import CHANCE
    from .runtime.play import play_random
    model = _load(game, interpretation, ruleset)
    n = players if players is not None else model.min_players
    _players_ok(model, n)
    final, steps = play_random(model, n, seed)
    over = model.is_terminal(final)
    truncated = not over and model.spec.horizon is not None  # cut at the horizon: no winner
    if svg_dir is not None:
        from .report.run import step_pictures
        drawn = step_pictures(model, n, [str(s.action) for s in steps], svg_dir)
        click.echo(f"{len(drawn)} pictures in {svg_dir}/", err=True)
    doc = {"game": model.name, "players": n, "seed": seed, "ruleset": ruleset,
           "interpretation": dict(model.interpretation),
           "steps": [{"player": "chance" if s.player == CHANCE else s.player,
                      "action": str(s.action)} for s in steps],
           "terminal": over, "truncated": truncated, "scores": model.scores(final),
           "winners": [] if truncated else model.winners(final)}
    if as_json:
        _emit_json(doc)
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
@_policy_options
@click.option("--workers", type=click.IntRange(min=1), default=1, show_default=True,
              help="Processes to spread the properties over.")
@click.option("--shrink-budget", type=click.IntRange(min=0), default=None,
              help="Test runs Hypothesis may spend shrinking each violation (default 500); "
                   "past it the shortest trace seen is reported.")
@click.option("--interpretation", multiple=True, metavar="K=V")
@_ruleset_option
@click.option("--trace-dir", default="traces", show_default=True,
              help="Where counterexample traces are saved.")
@click.option("--json", "as_json", is_flag=True, help="One JSON document on stdout.")
@_quiet_option
@_verbose_option
def check(game: str, props: Sequence[str], examples: int | None, seed: int,
          players: int | None, plain_random: bool, policy_name: str | None,
          simulations: int | None, rollout: int | None, workers: int,
          shrink_budget: int | None, interpretation: Sequence[str], ruleset: str | None,
          trace_dir: str, as_json: bool, quiet: bool, verbose: bool) -> None:
    """Check GAME's properties by legal play; a violation is shrunk and saved as a trace.

    With --policy the playouts' players follow that policy (implies --random)."""
    from .check.parallel import check_in_workers
    from .check.policy import RANDOM_DESCRIPTION
    from .check.results import exit_code
    from .check.runner import HYPOTHESIS, RANDOM, SHRINK_BUDGET, select
    model = _load(game, interpretation, ruleset)
    _players_ok(model, players)
    try:
        names = [p.name for p in select(model, props)]
    except ValueError as e:
        raise BadInput(str(e)) from None
    policy = _policy(policy_name, simulations, rollout)
    mode = RANDOM if plain_random or policy is not None else HYPOTHESIS
    if examples is None:
        examples = model.spec.check_examples
    with Progress(f"checking {model.name}", quiet=quiet) as progress:
        results = check_in_workers(game, _reading(model), names, examples, seed, players,
                                   mode, trace_dir, workers, progress,
                                   SHRINK_BUDGET if shrink_budget is None else shrink_budget,
                                   policy)
    code = exit_code(results)
    cut = _truncated(model, results)
    played_by = None if mode != RANDOM else (policy.describe() if policy is not None
                                             else RANDOM_DESCRIPTION)
    if as_json:
        _emit_json({"game": model.name, "mode": mode, "policy": played_by,
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
                     f"{_steps(r.trace, verbose)}", style="bold red")
            if r.trace_path:
                out.para(f"saved to {r.trace_path}; replay with: rulespec replay "
                         f"{r.trace_path}", indent=2)
        if getattr(r, "trace_error", None):
            out.para(f"trace not saved: {r.trace_error}", indent=2, style="yellow")
    out.print(counts(results))


# --- prove ------------------------------------------------------------------------------
@cli.command()
@click.argument("game")
@click.option("--property", "props", multiple=True, metavar="P",
              help="Prove only this property (repeatable).")
@click.option("--rlimit", type=click.IntRange(min=1), default=DEFAULT_RLIMIT, show_default=True,
              help="Z3 resource units each solver query may spend; one that spends them "
                   "undecided is UNKNOWN. A count, not a time: the same verdicts on any "
                   f"machine (about {RLIMIT_PER_SECOND // 1_000_000} million per second "
                   "of CPU here).")
@click.option("--timeout", type=click.FloatRange(min=0.001), default=None,
              help="Safety limit in seconds for the whole run (default: none). Reaching it "
                   "stops the run; what is left undecided is UNKNOWN, saying so.")
@click.option("--depth", type=click.IntRange(min=0), default=None,
              help="Bounded model checking depth, for what induction does not prove "
                   "(default: the game's bmc_depth).")
@click.option("--workers", type=click.IntRange(min=1), default=None,
              help="Processes for the proofs (default: the machine's CPUs, at most 4). "
                   "The verdicts do not depend on it.")
@click.option("--interpretation", multiple=True, metavar="K=V")
@_ruleset_option
@click.option("--trace-dir", default="traces", show_default=True)
@click.option("--json", "as_json", is_flag=True, help="One JSON document on stdout.")
@_quiet_option
@_verbose_option
def prove(game: str, props: Sequence[str], rlimit: int, timeout: float | None,
          depth: int | None, workers: int | None, interpretation: Sequence[str],
          ruleset: str | None, trace_dir: str, as_json: bool, quiet: bool,
          verbose: bool) -> None:
    """Prove GAME's invariants, conservation laws and laws with Z3 (step proofs,
    induction, bounded model checking, dead rules)."""
    from .check.prove import prove as prove_run
    from .check.prove_text import lines
    from .check.results import exit_code
    model = _load(game, interpretation, ruleset)
    try:
        with Progress(f"proving {model.name}", quiet=quiet) as progress:
            run = prove_run(model, property_names=props or None, rlimit=rlimit,
                            timeout=timeout, depth=depth, trace_dir=trace_dir,
                            workers=workers or min(4, os.cpu_count() or 1),
                            progress=progress, processes=True)
    except ValueError as e:
        raise BadInput(str(e)) from None
    results = run.results
    code = exit_code(results)
    if as_json:
        _emit_json({"game": model.name, "rlimit": rlimit, "timeout": timeout,
                    "ruleset": ruleset, "interpretation": dict(model.interpretation),
                    "rlimit_spent": run.rlimit, "jobs": run.jobs, "stopped": run.stopped,
                    "results": [r.to_json() for r in results], "exit_code": code})
        sys.exit(code)
    title = (f"{model.spec.title}: Z3, {rlimit:,} resource units per query; "
             f"{run.rlimit:,} spent in {run.jobs} jobs")
    for style, line in lines(title, results, verbose):
        out.print(f"[{style}]{escape(line)}[/]" if style else escape(line))
    if run.stopped:
        click.echo(f"rulespec: {run.stopped}", err=True)
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
              help="Seeded games in lockstep: how often the readings part and the winner "
                   "changes (95 % intervals).")
@_policy_options
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--out-dir", default="traces", show_default=True,
              help="Where the difference is saved as a scenario file.")
@click.option("--json", "as_json", is_flag=True, help="One JSON document on stdout.")
@_quiet_option
@_verbose_option
def diff_cmd(game: str, reading_a: Sequence[str], ruleset: str | None,
             reading_b: Sequence[str], start: str | None, depth: int, setups: int,
             games: int, policy_name: str | None, simulations: int | None,
             rollout: int | None, seed: int, out_dir: str, as_json: bool, quiet: bool,
             verbose: bool) -> None:
    """Where two readings of GAME part: the simplest difference, explained in rule terms,
    and how much it matters (with --policy, between stronger players than random)."""
    from .check.diff import diff
    policy = _policy(policy_name, simulations, rollout)
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
            if k.strip() not in over:
                _load(game, [x])  # the same one-line error as for reading A
            over[k.strip()] = v.strip()
        mb = _load(game, [f"{k}={v}" for k, v in over.items()])
    if ma.interpretation == mb.interpretation:
        raise BadInput("the two readings are the same: --against must change an "
                       "interpretation point")
    label_a = " + ".join(([f"ruleset {ruleset}"] if ruleset else []) + list(reading_a))
    label_b = " + ".join([f"ruleset {b}" for b in b_rulesets] + b_options)
    try:
        with Progress(f"diff {ma.name}", quiet=quiet or as_json) as progress:
            report = diff(ma, mb, depth=depth, setups=setups, games=games, seed=seed,
                          scenario_dir=out_dir, start=start, labels=(label_a, label_b),
                          progress=progress, policy=policy)
    except ValueError as e:
        raise BadInput(str(e)) from None
    code = 0 if report.status in ("PROVED", "PASSED") else 1  # like diff(1): 1 = differ
    if as_json:
        _emit_json(report.to_json())
        sys.exit(code)
    _print_diff(report, verbose)
    sys.exit(code)


def _print_diff(report: Any, verbose: bool) -> None:
    colour = "bold red" if report.status == "VIOLATED" else "green"
    verdict = "DIFFER" if report.status == "VIOLATED" else report.status
    out.para(f"{report.a_label}  against  {report.b_label}")
    out.para(f"{verdict}: {report.detail}", style=colour)
    out.para(f"the readings part on {len(report.points)} point(s):")
    for p in report.points:
        out.para(f"{p.point}: {p.question}", indent=2)
        out.para(f"{p.a} (A): {p.a_source}", indent=4)
        out.para(f"{p.b} (B): {p.b_source}", indent=4)
    d = report.difference
    if d is not None:
        out.print("[bold]the difference[/bold]")
        own = {f"{p.point}:" for p in report.points}
        sources = {f"{x}: " for p in report.points for x in (p.a, p.b)}
        for line in d.explanation:   # the points were listed above
            if line.split(" ")[0] in own or line.strip().startswith(tuple(sources)):
                continue
            if d.given and not verbose and "setup step(s)" in line:
                out.para(line, indent=2)
                out.para(f"setup: {_steps(list(d.given), verbose)}", indent=4)
                continue
            body = line.lstrip(" ")
            out.para(body, indent=2 + len(line) - len(body))
        if report.scenario_path:
            out.para("saved as a scenario (run it with `rulespec scenario`):", indent=2)
            out.para(report.scenario_path, indent=4)
        if report.scenario_error:
            out.para(f"scenario not saved: {report.scenario_error}", indent=2, style="yellow")
    im = report.impact
    if im is not None:
        out.para(f"does it matter? {im.games} games in lockstep (seed {im.seed}, "
                 f"{min(im.players)}-{max(im.players)} players), played by {im.policy}:")
        out.para(f"the readings parted in {im.parted}", indent=2)
        out.para(f"the winner changed in {im.winner_changed}", indent=2)


# --- conform ----------------------------------------------------------------------------
@cli.command()
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
@_ruleset_option
@click.option("--trace-dir", default="traces", show_default=True,
              help="Where the minimal disagreement is saved as a trace.")
@click.option("--json", "as_json", is_flag=True, help="One JSON document on stdout.")
@_quiet_option
@_verbose_option
def conform(game: str, impl_ref: str, examples: int, seed: int, players: int | None,
            plain_random: bool, shrink_budget: int | None, interpretation: Sequence[str],
            ruleset: str | None, trace_dir: str, as_json: bool, quiet: bool,
            verbose: bool) -> None:
    """Play an implementation written elsewhere in lockstep with GAME's spec; a
    disagreement is shrunk to the fewest steps and told in rule terms."""
    from .check.conform import HYPOTHESIS, RANDOM, ConformError, conform as run, load_factory
    from .check.runner import SHRINK_BUDGET
    model = _load(game, interpretation, ruleset)
    _players_ok(model, players)
    try:
        factory = load_factory(impl_ref)
        with Progress(f"conform {model.name}", quiet=quiet) as progress:
            report = run(model, factory, name=impl_ref, examples=examples, seed=seed,
                         players=players, mode=RANDOM if plain_random else HYPOTHESIS,
                         shrink_budget=SHRINK_BUDGET if shrink_budget is None
                         else shrink_budget, trace_dir=trace_dir, progress=progress)
    except ConformError as e:
        raise BadInput(str(e)) from None
    code = 0 if report.status == "PASSED" else 1
    if as_json:
        _emit_json({**report.to_json(), "exit_code": code})
        sys.exit(code)
    out.para(f"{model.spec.title} against {impl_ref}: {report.mode}, {report.examples} "
             f"games, seed {report.seed}")
    colour = "green" if report.status == "PASSED" else "bold red"
    out.para(f"{report.status}: {report.detail}", style=colour)
    d = report.disagreement
    if d is not None:
        out.para(f"minimal trace ({d.players} players, {len(d.actions)} step(s)): "
                 f"{_steps(d.actions, verbose)}", indent=2)
        if report.trace_path:
            out.para(f"saved to {report.trace_path}; replay the spec's side with: rulespec "
                     f"replay {report.trace_path}", indent=2)
        if report.trace_error:
            out.para(f"trace not saved: {report.trace_error}", indent=2, style="yellow")
    sys.exit(code)


# --- scenario / replay ------------------------------------------------------------------
def _scenario_files(files: Sequence[str]) -> list[str]:
    """The files to run: a bundled game's name stands for all of its scenario files."""
    from .runtime.registry import available_games, models_dir
    expanded: list[str] = []
    for f in files:
        if f in available_games() and not Path(f).exists():
            found = sorted(str(p) for p in (models_dir() / f / "scenarios").glob("*.toml"))
            if not found:
                raise BadInput(f"{f} has no scenario files (none in its scenarios/ folder); "
                               "give scenario .toml files")
            expanded += found
        else:
            expanded.append(f)
    return expanded


@cli.command()
@click.argument("files", nargs=-1, required=True, type=click.Path())
@click.option("--trace-dir", default="traces", show_default=True,
              help="Where a failed scenario's actions are saved as a trace.")
@click.option("--states", is_flag=True,
              help="With --json: include each scenario's start and final states.")
@click.option("--json", "as_json", is_flag=True, help="One JSON document on stdout.")
@_quiet_option
@_verbose_option
def scenario(files: Sequence[str], trace_dir: str, states: bool, as_json: bool, quiet: bool,
             verbose: bool) -> None:
    """Run given/when/then scenario files (TOML; see docs/scenarios.md). A bundled game's
    name stands for all of its scenario files."""
    from .check.scenario import ScenarioFileError, load_scenario_file, run_scenario
    from .runtime.trace import TraceWriteError, save_trace
    expanded = _scenario_files(files)
    loaded = []
    for f in expanded:
        try:
            loaded.append(load_scenario_file(f))
        except ScenarioFileError as e:
            raise BadInput(str(e)) from None
    all_results = []
    total = sum(len(sf.scenarios) for sf in loaded)
    with Progress("scenarios", total=total, quiet=quiet) as progress:
        for f, sf in zip(expanded, loaded):
            rs = []
            for sc in sf.scenarios:
                progress.note(sc.name[:40])
                try:
                    rs.append(run_scenario(sf, sc))
                except ScenarioFileError as e:
                    raise BadInput(str(e)) from None
                progress.advance()
            all_results.append((f, rs))
    saved: dict[int, str] = {}
    unsaved: dict[int, str] = {}
    for _, rs in all_results:
        for r in rs:
            trace = r.to_trace() if r.status != "PASSED" else None
            if trace is not None:
                slug = "".join(ch if ch.isalnum() else "-" for ch in r.name)[:60]
                try:
                    saved[id(r)] = str(save_trace(
                        trace, Path(trace_dir) / f"{r.game}-scenario-{slug}.json"))
                except TraceWriteError as e:
                    unsaved[id(r)] = str(e)
    failed = sum(1 for _, rs in all_results for r in rs if r.status != "PASSED")
    code = 1 if failed else 0
    if as_json:
        _emit_json({"files": [{"file": f, "scenarios": [
            {**r.to_dict(states=states), "trace_path": saved.get(id(r)),
             **({"trace_error": unsaved[id(r)]} if id(r) in unsaved else {})} for r in rs]}
            for f, rs in all_results], "passed": total - failed, "failed": failed})
        sys.exit(code)
    for f, rs in all_results:
        bad = [r for r in rs if r.status != "PASSED"]
        out.para(f"{f}: {len(rs) - len(bad)} passed, {len(bad)} failed", style="bold")
        for r in rs:
            if r.status == "PASSED" and not verbose:
                continue
            colour = "green" if r.status == "PASSED" else "bold red"
            out.print(f"  [{colour}]{r.status}[/] {escape(r.name)}")
            for msg in r.failures:
                out.para(msg, indent=6)
            if id(r) in saved:
                out.para(f"trace saved to {saved[id(r)]}", indent=6)
            if id(r) in unsaved:
                out.para(f"trace not saved: {unsaved[id(r)]}", indent=6, style="yellow")
    out.print(f"{total - failed} passed, {failed} failed")
    sys.exit(code)


def _trace_and_model(trace_file: str) -> tuple[Any, Any]:
    """A trace file and the model that produced it (bad input: one line, exit 2)."""
    from .runtime.trace import load_trace, trace_model
    trace = load_trace(trace_file)
    try:
        return trace, trace_model(trace, trace_file)
    except (ValueError, TypeError) as e:
        if isinstance(e, TraceError):
            raise
        raise BadInput(f"{trace_file}: {e}") from None


@cli.command()
@click.argument("trace_file", metavar="TRACE.json", type=click.Path())
@click.option("--json", "as_json", is_flag=True, help="One JSON document on stdout.")
@_quiet_option
@_verbose_option
@click.option("--svg", "svg_dir", default=None, metavar="DIR",
              help="Also draw the state after each step: DIR/step-NNN.svg.")
def replay(trace_file: str, as_json: bool, quiet: bool, verbose: bool,
           svg_dir: str | None) -> None:
    """Replay a saved trace step by step and re-check the properties on it (with the spec
    that produced it: a spec that changed since is refused)."""
    from .check.property import all_properties
    from .check.walk import recheck
    from .runtime.model import CHANCE, IllegalAction
    trace, model = _trace_and_model(trace_file)
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
    if svg_dir is not None:
        from .report.run import step_pictures
        try:
            drawn = step_pictures(model, trace.players, trace.actions, svg_dir)
        except (ValueError, IllegalAction) as e:
            raise BadInput(f"{trace_file}: {e}") from None
        click.echo(f"{len(drawn)} pictures in {svg_dir}/", err=True)
    doc = {"game": model.name, "players": trace.players, "spec_path": trace.spec_path,
           "steps": lines,
           "violation": None if v is None else {"property": v.property, "message": v.message,
                                                "after_steps": len(v.actions)}}
    code = 1 if v is not None else 0
    if as_json:
        _emit_json(doc)
        sys.exit(code)
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
    sys.exit(code)


@cli.command()
@click.argument("trace_file", metavar="TRACE.json", type=click.Path())
@click.option("--step", "step", type=click.IntRange(min=0), default=None,
              help="Draw the state after this step (0: the setup; default: the last).")
@click.option("-o", "--output", default=None, metavar="FILE.svg",
              help="Write the picture here (default: print it on stdout).")
def show(trace_file: str, step: int | None, output: str | None) -> None:
    """Draw one state of a trace as SVG, from the game's declared view."""
    from .report.run import picture_after
    from .runtime.model import IllegalAction
    trace, model = _trace_and_model(trace_file)
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
        from .report.render import write_atomically
        write_atomically(output, svg)
        click.echo(f"wrote {output}", err=True)


# --- mutate -----------------------------------------------------------------------------
@cli.command()
@click.argument("game")
@click.option("--operators", multiple=True, metavar="OP[,OP]",
              help="Only these mutation operators or groups (repeatable; default all; "
                   "--list-operators names them).")
@click.option("--budget", "budget_name", type=click.Choice(["quick", "full"]), default="quick",
              show_default=True, help="How hard each mutant is judged: counts in "
                                      "docs/mutation.md.")
@click.option("--workers", type=click.IntRange(min=1), default=1, show_default=True,
              help="Processes judging mutants side by side.")
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--prove", "with_prove", is_flag=True,
              help="Also run `prove` on each survivor that is not equivalent.")
@click.option("--mutant", "only", multiple=True, metavar="ID",
              help="Judge only this mutant (repeatable; ids as --list shows them).")
@click.option("--list", "list_only", is_flag=True,
              help="List the mutants (id and change) without judging them.")
@click.option("--list-operators", is_flag=True, help="List the operators and groups.")
@click.option("--json", "as_json", is_flag=True, help="One JSON document on stdout.")
@_quiet_option
@_verbose_option
def mutate(game: str, operators: Sequence[str], budget_name: str, workers: int, seed: int,
           with_prove: bool, only: Sequence[str], list_only: bool, list_operators: bool,
           as_json: bool, quiet: bool, verbose: bool) -> None:
    """Which rules does nothing pin? Change GAME's rules one at a time (on the IR) and see
    whether its scenarios, `check` or `prove` notice; list the survivors in rule terms."""
    from .check.mutate import GROUPS, OPERATORS, BaselineError, mutants, mutate_game
    from .check.mutate import select_operators
    from .check.scenario import ScenarioFileError
    if list_operators:
        if as_json:
            _emit_json({"operators": OPERATORS, "groups": {k: list(v)
                                                           for k, v in GROUPS.items()}})
        else:
            for name, what in OPERATORS.items():
                out.para(f"{name}: {what}", hang=4)
            for name, ops in GROUPS.items():
                out.para(f"{name} (group): {', '.join(ops)}", hang=4)
        sys.exit(0)
    model = _load(game)
    try:
        ops = select_operators(operators)
    except ValueError as e:
        raise BadInput(str(e)) from None
    if list_only:
        found = mutants(model.spec, ops)
        if as_json:
            _emit_json({"game": model.name, "mutants": [m.to_json() for m in found]})
        else:
            for m in found:
                out.para(f"{m.id}: {m.description}", hang=4)
            out.print(f"{len(found)} mutants")
        sys.exit(0)
    try:
        with Progress(f"mutating {model.name}", quiet=quiet) as progress:
            report = mutate_game(game, operators=ops, budget=budget_name, workers=workers,
                                 seed=seed, prove=with_prove, only=only or None,
                                 progress=progress)
    except (ValueError, ScenarioFileError) as e:
        raise BadInput(str(e)) from None
    except BaselineError as e:
        click.echo(f"rulespec: {e}; fix the spec or its scenarios before mutating",
                   err=True)
        sys.exit(1)
    code = 1 if report.survivors else 0
    if as_json:
        _emit_json({**report.to_json(), "exit_code": code})
        sys.exit(code)
    _print_mutation(model, report, verbose)
    sys.exit(code)


def _percent(score: float | None) -> str:
    return "-" if score is None else f"{100 * score:.0f} %"


def _print_mutation(model: Model, report: Any, verbose: bool) -> None:
    from rich.table import Table
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
        out.para(f"{r.id}: {r.description}", hang=4)
        if r.source:
            out.para(f"source: {r.source}", indent=4)
        if r.where:
            out.para(f"spec: {r.where}", indent=4)
        if r.witness:
            out.para(f"differs: {r.witness}", indent=4)
    if len(shown) < len(survivors):
        out.para(f"... ({len(survivors) - len(shown)} more; --verbose or --json has them all)")


# --- report -----------------------------------------------------------------------------
@cli.command()
@click.argument("games", nargs=-1)
@click.option("--all", "all_games", is_flag=True, help="Every bundled game.")
@click.option("-o", "--out-dir", default="reports", show_default=True,
              help="Where GAME.html, GAME.md, GAME.json and index.html are written.")
@click.option("--budget", "budget_name", type=click.Choice(["quick", "full"]), default="quick",
              show_default=True, help="How much checking: counts in docs/reports.md.")
@click.option("--workers", type=click.IntRange(min=1), default=1, show_default=True,
              help="Games reported side by side in this many processes.")
@click.option("--policy", "policy_name", type=click.Choice(["random", "greedy", "mcts"]),
              default="random", show_default=True,
              help="Who plays the interpretation diffs' lockstep games (see `diff`).")
@click.option("--mutate", "with_mutate", is_flag=True,
              help="Add the mutation section: `rulespec mutate` at the same budget (which "
                   "rules nothing pins; it can take far longer than the rest).")
@_quiet_option
def report(games: Sequence[str], all_games: bool, out_dir: str, budget_name: str,
           workers: int, policy_name: str, with_mutate: bool, quiet: bool) -> None:
    """Write the rules-clarification report of each GAME (HTML, Markdown, JSON)."""
    import time

    from .report.budget import BUDGETS
    from .report.run import report_games
    from .runtime.registry import available_games, spec_path
    if all_games == bool(games):
        raise BadInput("name the games to report, or give --all (not both)")
    refs = list(available_games()) if all_games else list(games)
    for g in refs:
        try:
            spec_path(g)
        except ValueError as e:
            raise BadInput(str(e)) from None
        _load(g)  # a malformed spec fails here, with its file and line
    start = time.perf_counter()
    import attrs
    _policy(policy_name, None, None)  # MCTS needs OpenSpiel: say so before any work
    budget = attrs.evolve(BUDGETS[budget_name], diff_policy=policy_name,
                          mutate=budget_name if with_mutate else None)
    done = report_games(refs, budget, out_dir, workers,
                        progress=lambda msg: None if quiet else click.echo(msg, err=True))
    for d in done:
        if "error" in d:
            click.echo(f"{d['game']}: the report could not be made: {d['error']}", err=True)
            continue
        found = ", ".join(f"{n} {s}" for s, n in d["counts"].items() if n)
        out.print(escape(f"{d['game']}: {found}"))
    out.print(escape(f"reports ({budget_name} budget, {time.perf_counter() - start:.0f} s) "
                     f"in {os.path.abspath(out_dir)}/index.html"))
    sys.exit(1 if any("error" in d for d in done) else 0)


_NO_ARGS_IS_HELP = getattr(click.exceptions, "NoArgsIsHelpError", None) or getattr(
    click.exceptions, "NoArgsIsHelp", ())


def main(argv: Sequence[str] | None = None) -> NoReturn:
    """Entry point: run the CLI, turning bad input into one line and exit code 2."""
    from .check.progress import interrupt_on_sigint
    if argv is None:  # the command itself, not a test calling main([...])
        interrupt_on_sigint()
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
    except BrokenPipeError:  # `rulespec ... | head`: the reader left; say nothing more
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(1)
    sys.exit(0)


def _fail(message: str) -> NoReturn:
    lines = message.splitlines() or [""]
    text = " ".join(line.strip() for line in lines)
    if len(text) > 2000:
        text = text[:1997] + "..."
    click.echo(f"rulespec: error: {text}", err=True)
    sys.exit(2)


if __name__ == "__main__":  # pragma: no cover
    main()
