"""`rulespec conform`: an outside implementation played in lockstep with the spec."""

from __future__ import annotations

import contextlib
import sys
from typing import Any, Iterator, Sequence

import click

from ..check.progress import Progress
from .options import (BadInput, Command, check_outputs, emit_json, load_model, out, players_ok,
                      quiet_option, ruleset_option, steps_line, stdout_to_stderr,
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
@ruleset_option
@click.option("--trace-dir", default="traces", show_default=True,
              help="Where the minimal disagreement is saved as a trace.")
@click.option("--json", "as_json", is_flag=True, help="One JSON document on stdout.")
@quiet_option
@verbose_option
def conform(game: str, impl_ref: str | None, exec_command: str | None,
            timeout: float | None, examples: int, seed: int, players: int | None,
            plain_random: bool, shrink_budget: int | None, interpretation: Sequence[str],
            ruleset: str | None, trace_dir: str, as_json: bool, quiet: bool,
            verbose: bool) -> None:
    """Play an implementation written elsewhere in lockstep with GAME's spec; a
    disagreement is shrunk to the fewest steps and told in rule terms."""
    from ..check.conform import ConformError
    if (impl_ref is None) == (exec_command is None):
        raise BadInput("conform needs one implementation: --impl MODULE:FACTORY or --exec "
                       "COMMAND")
    if timeout is not None and exec_command is None:
        raise BadInput("--timeout is for --exec: a Python implementation runs in this "
                       "process")
    model = load_model(game, interpretation, ruleset)
    players_ok(model, players)
    check_outputs("trace_dir")
    name = impl_ref or exec_command or ""
    try:
        with stdout_to_stderr(), _implementation(model, impl_ref, exec_command, seed,
                                                  timeout) as factory:
            report = _run(model, factory, name, examples, seed, players, plain_random,
                          shrink_budget, trace_dir, quiet)
    except ConformError as e:
        raise BadInput(str(e)) from None
    code = 0 if report.status == "PASSED" else 1
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
                    timeout: float | None) -> Iterator[Any]:
    """The implementation's factory or driver; a process is stopped however the run ends.
    Its prints never reach the --json document (the caller sends stdout to stderr)."""
    from ..check.conform import ConformError, load_factory
    if impl_ref is not None:
        yield load_factory(impl_ref)
        return
    from ..check.conform_driver import AdapterError
    from ..check.conform_exec import DEFAULT_TIMEOUT, ExecDriver
    try:
        driver = ExecDriver(exec_command or "", game=model.name, seed=seed,
                            timeout=DEFAULT_TIMEOUT if timeout is None else timeout)
    except AdapterError as e:
        raise ConformError(str(e)) from None
    try:
        yield driver
    finally:
        driver.close()


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
