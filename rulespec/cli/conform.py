"""`rulespec conform`: an outside implementation played in lockstep with the spec."""

from __future__ import annotations

import contextlib
import sys
from typing import Any, Iterator, Sequence

import click

from ..check.progress import Progress
from .options import (BadInput, Command, check_outputs, components_option, emit_json, load_model,
                      out, players_ok, quiet_option, ruleset_option, stdout_to_stderr, steps_line,
                      verbose_option)


@click.command(cls=Command)
@click.argument("game")
@click.option("--impl", "impl_ref", default=None, metavar="MODULE:FACTORY",
              help="A Python implementation: FACTORY(players) returns an adapter "
                   "(legal_actions, apply, current_player, returns; see docs/ecosystem.md). "
                   "MODULE is an importable module or a .py file.")
@click.option("--exec", "exec_command", default=None, metavar="COMMAND",
              help='An implementation in any language, run as COMMAND ("node impl.js") '
                   "and spoken to in JSON lines on its stdin and stdout (the protocol: "
                   "docs/ecosystem.md).")
@click.option("--timeout", type=click.FloatRange(min=0, min_open=True), default=None,
              metavar="SECONDS",
              help="--exec: seconds to wait for one reply before the process is stopped "
                   "(default 60): a safety limit, never a verdict (UNKNOWN).")
@click.option("--readings", "which_reading", is_flag=True,
              help="Which reading it follows: play it against each ruleset and each option "
                   "of each interpretation point, and say per point the options consistent "
                   "with every game and the smallest situation that excludes each other.")
@click.option("--point", "points", multiple=True, metavar="NAME",
              help="--readings: try only this interpretation point (repeatable; no "
                   "ruleset is tried then).")
@click.option("--examples", type=click.IntRange(min=1), default=100, show_default=True,
              help="Games played in lockstep (with --readings: per reading).")
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--players", type=int, default=None,
              help="Fix the number of players (default: drawn from the game's range).")
@click.option("--random", "plain_random", is_flag=True,
              help="Seeded uniform random games (longer games, no shrinking) instead of "
                   "Hypothesis.")
@click.option("--shrink-budget", type=click.IntRange(min=0), default=None,
              help="Test runs Hypothesis may spend shrinking a disagreement (default 500).")
@click.option("--interpretation", multiple=True, metavar="K=V",
              help="The reading of the spec (repeatable); with --readings, the base the "
                   "points are tried under.")
@ruleset_option
@click.option("--trace-dir", default="traces", show_default=True,
              help="Where the minimal disagreement is saved as a trace.")
@click.option("--json", "as_json", is_flag=True, help="One JSON document on stdout.")
@quiet_option
@verbose_option
@components_option
def conform(game: str, impl_ref: str | None, exec_command: str | None,
            timeout: float | None, which_reading: bool, points: Sequence[str],
            examples: int, seed: int, players: int | None,
            plain_random: bool, shrink_budget: int | None, interpretation: Sequence[str],
            ruleset: str | None, trace_dir: str, as_json: bool, quiet: bool,
            verbose: bool) -> None:
    """Play an implementation written elsewhere (Python with --impl, any language with
    --exec) in lockstep with GAME's spec; a disagreement is shrunk to the fewest steps and
    told in rule terms. --readings: which reading of each open point it follows."""
    from ..check.conform import ConformError
    if (impl_ref is None) == (exec_command is None):
        raise BadInput("conform needs one implementation: --impl MODULE:FACTORY or --exec "
                       "COMMAND")
    if timeout is not None and exec_command is None:
        raise BadInput("--timeout is for --exec: a Python implementation runs in this "
                       "process")
    if points and not which_reading:
        raise BadInput("--point chooses the points --readings tries: give --readings")
    model = load_model(game, interpretation, ruleset)
    players_ok(model, players)
    if which_reading:
        from ..check.readings import check_points
        try:
            check_points(model, points)
        except ValueError as e:
            raise BadInput(str(e)) from None
    check_outputs("trace_dir")
    name = impl_ref or exec_command or ""
    try:
        with stdout_to_stderr(), _implementation(model, impl_ref, exec_command, seed,
                                                  timeout, players) as factory:
            if which_reading:
                report = _readings(game, model, factory, name, bool(interpretation or ruleset),
                                   points, examples, seed, players, plain_random,
                                   shrink_budget, quiet)
            else:
                report = _run(model, factory, name, examples, seed, players, plain_random,
                              shrink_budget, trace_dir, quiet)
    except ConformError as e:
        raise BadInput(str(e)) from None
    code = 0 if report.status == "PASSED" else 1
    if which_reading:
        if as_json:
            emit_json({**report.to_json(), "exit_code": code})
        else:
            _show_readings(model, report, verbose)
        sys.exit(code)
    if as_json:
        emit_json({**report.to_json(), "exit_code": code})
        sys.exit(code)
    out.para(f"{model.spec.title} against {name}: {report.mode}, {report.examples} "
             f"games, seed {report.seed}")
    colour = "green" if report.status == "PASSED" else "bold red"
    out.para(f"{report.status}: {report.detail}", style=colour)
    d = report.disagreement
    if d is not None:
        out.para(f"minimal trace ({d.players} players, {len(d.actions)} step(s)): "
                 f"{steps_line(d.actions, verbose)}", indent=2)
        if report.trace_path:
            out.para(f"saved to {report.trace_path}; replay the spec's side with: rulespec "
                     f"replay {report.trace_path}", indent=2)
        if report.trace_error:
            out.para(f"trace not saved: {report.trace_error}", indent=2, style="yellow")
    sys.exit(code)


@contextlib.contextmanager
def _implementation(model: Any, impl_ref: str | None, exec_command: str | None, seed: int,
                    timeout: float | None, players: int | None) -> Iterator[Any]:
    """The implementation's driver, checked on one game's setup before any work (an
    adapter without its methods, a program that cannot start: exit 2); a process is stopped
    however the run ends. Its prints never reach the --json document (the caller sends
    stdout to stderr)."""
    from ..check.conform import ConformError, load_factory
    from ..check.conform_driver import AdapterError, as_driver
    try:
        if impl_ref is not None:
            driver = as_driver(load_factory(impl_ref), impl_ref)
        else:
            from ..check.conform_exec import DEFAULT_TIMEOUT, ExecDriver
            driver = ExecDriver(exec_command or "", game=model.name, seed=seed,
                                timeout=DEFAULT_TIMEOUT if timeout is None else timeout)
    except AdapterError as e:
        raise ConformError(str(e)) from None
    try:
        try:
            driver.check(players if players is not None else model.min_players)
        except AdapterError as e:
            raise ConformError(str(e)) from None
        yield driver
    finally:
        getattr(driver, "close", lambda: None)()


def _readings(game: str, model: Any, driver: Any, name: str, chosen: bool,
              points: Sequence[str], examples: int, seed: int, players: int | None,
              plain_random: bool, shrink_budget: int | None, quiet: bool) -> Any:
    from ..check.conform import HYPOTHESIS, RANDOM
    from ..check.conform_driver import as_driver
    from ..check.readings import readings
    from ..check.runner import SHRINK_BUDGET
    from ..runtime.registry import load
    with Progress(f"conform --readings {model.name}", quiet=quiet) as progress:
        try:
            return readings(model, as_driver(driver, name), points=list(points) or None,
                            load=lambda options: load(game, interpretation=options),
                            name=name, chosen=chosen, examples=examples, seed=seed,
                            players=players, mode=RANDOM if plain_random else HYPOTHESIS,
                            shrink_budget=SHRINK_BUDGET if shrink_budget is None
                            else shrink_budget, progress=progress)
        except ValueError as e:   # a point the spec lacks, a spec without points
            raise BadInput(str(e)) from None


def _show_readings(model: Any, report: Any, verbose: bool) -> None:
    out.para(f"{model.spec.title} against {report.implementation}: which reading it follows "
             f"({report.mode}, up to {report.examples} games per reading, seed "
             f"{report.seed}; {report.games} games, {report.steps} states compared in all)")
    if report.rulesets:
        out.para("rulesets (each as a whole):")
        for v in report.rulesets:
            _show_verdict(v, "", verbose)
    for p in report.points:
        out.para(f"{p.point}: {p.question} (other points: {p.base_label})")
        for v in p.options:
            _show_verdict(v, " (default)" if v.option == p.default else "", verbose)
    colour = "green" if report.status == "PASSED" else "bold red"
    out.para(f"{report.status}: {report.detail}", style=colour)


def _show_verdict(v: Any, mark: str, verbose: bool) -> None:
    games = f"{v.games} game{'s' if v.games != 1 else ''}, {v.steps} states compared"
    if v.excluded_by is None:
        said = {"consistent": "no difference", "unknown": v.detail}.get(v.status, v.detail)
        out.para(f"{v.option}{mark}: {v.status} ({games}): {said}", indent=2)
        return
    d = v.excluded_by
    where = f", found in {v.found_in}" if v.found_in != "its own games" else ""
    out.para(f"{v.option}{mark}: {v.status} ({games}{where}): {d}", indent=2)
    out.para(f"smallest situation ({d.players} players, {len(d.actions)} step(s)): "
             f"{steps_line(d.actions, verbose)}", indent=4)


def _run(model: Any, factory: Any, impl_ref: str, examples: int, seed: int,
         players: int | None, plain_random: bool, shrink_budget: int | None, trace_dir: str,
         quiet: bool) -> Any:
    from ..check.conform import HYPOTHESIS, RANDOM, conform as run
    from ..check.runner import SHRINK_BUDGET
    with Progress(f"conform {model.name}", quiet=quiet) as progress:
        return run(model, factory, name=impl_ref, examples=examples, seed=seed,
                   players=players, mode=RANDOM if plain_random else HYPOTHESIS,
                   shrink_budget=SHRINK_BUDGET if shrink_budget is None else shrink_budget,
                   trace_dir=trace_dir, progress=progress)
