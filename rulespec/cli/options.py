"""What the commands share: the options several take, loading a game or a trace (bad input
becomes :class:`BadInput`: one line, exit 2), and the command class that refuses an option
given twice."""

from __future__ import annotations

import contextlib
import json
import os
import sys
from typing import Any, Callable, Iterator, Sequence

import click

from ..console import Out
from ..runtime.model import Model
from ..runtime.trace import TraceError

out = Out()
#: how many steps, scenarios or names a summary shows before "... (N more)"
SHOWN = 12


class BadInput(Exception):
    """Bad usage or input: exit 2 with this one line."""


def load_model(game: str, interpretation: Sequence[str] = (),
               ruleset: str | None = None) -> Model:
    """The game under a reading; with the command's ``--components FILE``, every load of
    the game in this command (its workers' too) uses that file's catalogues."""
    from ..runtime.registry import load
    chosen = ",".join(interpretation) if interpretation else None
    try:
        components_for(game)
        return load(game, interpretation=chosen, ruleset=ruleset)
    except (ValueError, TypeError) as e:
        raise BadInput(str(e)) from None


def components_for(game: str) -> None:
    """Apply the command's ``--components FILE`` (if any) to ``game``: from now on every
    load of it in this process reads that file's catalogues (ValueError: one line)."""
    from ..runtime.registry import use_components
    ctx = click.get_current_context(silent=True)
    path = ctx.meta.get("rulespec.components") if ctx is not None else None
    if path is not None and ctx is not None:
        use_components(game, path)
        # for this command only: a program calling main() twice starts afresh
        ctx.call_on_close(lambda: use_components(game, None))


def components_option(fn: Callable) -> Callable:
    """``--components FILE``: the same rules with another list of components (a
    publisher's real cards): the file's catalogues replace the spec's own
    (docs/formats/components.md)."""
    def remember(ctx: click.Context, _param: click.Parameter, value: str | None) -> None:
        if value is not None:
            ctx.meta["rulespec.components"] = value
    return click.option("--components", metavar="FILE", default=None, expose_value=False,
                        callback=remember,
                        help="A components TOML file whose catalogues replace the spec's "
                             "own: the same rules with another list of cards.")(fn)


def ruleset_option(fn: Callable) -> Callable:
    """``--ruleset NAME``: a named bundle of interpretation options the spec declares
    (``rulespec info`` lists them); ``--interpretation`` may add points it leaves open."""
    return click.option("--ruleset", default=None, metavar="NAME",
                        help="A named bundle of interpretation options (see `info`); "
                             "--interpretation may choose the points it leaves open.")(fn)


def policy_options(fn: Callable) -> Callable:
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


def backend_option(fn: Callable) -> Callable:
    """``--backend c|python``: where seeded games are played (the same games and results
    either way; docs/architecture.md, "The C backend")."""
    return click.option("--backend", type=click.Choice(["c", "python"]), default="c",
                        show_default=True,
                        help="Play seeded games compiled to C (built once per spec with "
                             "the machine's C compiler, then cached; without one, Python "
                             "with a note) or on the Python backend: the same games and "
                             "results.")(fn)


def policy_from(name: str | None, simulations: int | None, rollout: int | None,
                backend: str | None = None) -> Any:
    """The policy the options name (None without ``--policy``); MCTS needs OpenSpiel."""
    from ..check.policy import policy_named
    if name is None:
        if simulations is not None or rollout is not None:
            raise BadInput("--simulations and --rollout set MCTS's budget: give --policy mcts")
        return None
    if name != "mcts" and (simulations is not None or rollout is not None):
        raise BadInput(f"--simulations and --rollout are for --policy mcts, not {name}")
    if name == "mcts":
        from ..openspiel import OpenSpielMissing, pyspiel_module
        try:
            pyspiel_module()
        except OpenSpielMissing as e:
            raise BadInput(f"--policy mcts: {e}") from None
    return policy_named(name, simulations=simulations,
                        rollout=-1 if rollout is None else rollout, backend=backend)


def reading(model: Model) -> list[str]:
    """The model's whole interpretation as K=V texts (for worker processes)."""
    return [f"{k}={v}" for k, v in model.interpretation.items()]


def emit_json(doc: Any) -> None:
    click.echo(json.dumps(doc, indent=2, ensure_ascii=False))


def quiet_option(fn: Callable) -> Callable:
    return click.option("--quiet", "-q", is_flag=True,
                        help="No progress on stderr.")(fn)


def verbose_option(fn: Callable) -> Callable:
    return click.option("--verbose", "-v", is_flag=True,
                        help="Show long lists whole instead of summarised.")(fn)


def players_ok(model: Model, players: int | None) -> None:
    if players is not None and not model.min_players <= players <= model.max_players:
        raise BadInput(f"{model.name} is for {model.min_players}-{model.max_players} players, "
                       f"not {players}")


def steps_line(texts: Sequence[str], verbose: bool) -> str:
    """Actions as one line; a long trace shows its first 3 and last 9 (where the violation
    is), with a count of the rest."""
    if verbose or len(texts) <= SHOWN:
        return ", ".join(texts) or "(setup)"
    head, tail = list(texts[:3]), list(texts[-(SHOWN - 3):])
    hidden = len(texts) - len(head) - len(tail)
    return (", ".join(head) + f", ... ({hidden} more; --verbose or the trace has them all) "
            "..., " + ", ".join(tail))


class Command(click.Command):
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


class Interrupted(BaseException):
    """Ctrl-C while a command runs, carried past click (which prints an empty line for a
    KeyboardInterrupt before it gives up): the entry point says one line, exit 130."""


class Group(click.Group):
    command_class = Command

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt:
            raise Interrupted from None

def trace_and_model(trace_file: str) -> tuple[Any, Any]:
    """A trace file and the model that produced it (bad input: one line, exit 2)."""
    from ..runtime.trace import load_trace, trace_model
    trace = load_trace(trace_file)
    try:
        return trace, trace_model(trace, trace_file)
    except (ValueError, TypeError) as e:
        if isinstance(e, TraceError):
            raise
        raise BadInput(f"{trace_file}: {e}") from None



#: output options that name a file (the others name a folder)
FILE_OUTPUTS = {"output", "save_to"}


def check_outputs(*names: str) -> None:
    """The command's output options (by parameter name) checked before any work: a path
    that cannot be a folder (or a file, for ``output``) is one line and exit 2; one the user
    gave is also tried with a one-byte write. A default that cannot be written only fails
    later, when (and if) something is written there, after the verdicts."""
    from click.core import ParameterSource

    from ..formats.files import OutputError, check_output_dir, check_output_file
    ctx = click.get_current_context()
    for name in names:
        value = ctx.params.get(name)
        if value is None:
            continue
        param = next(p for p in ctx.command.params if p.name == name)
        option = max(getattr(param, "opts", [name]), key=len)
        given = ctx.get_parameter_source(name) is not ParameterSource.DEFAULT
        check = check_output_file if name in FILE_OUTPUTS else check_output_dir
        try:
            check(value, option, probe=given)
        except OutputError as err:
            raise BadInput(str(err)) from None


def write_failed(what: str, err: OSError) -> None:
    """One line on stderr for an output that could not be written after the work (the
    verdicts are printed already)."""
    from ..formats.files import why
    click.echo(f"rulespec: could not write {what}: {why(err)}", err=True)


def draw_steps(model: Model, players: int, actions: Sequence[str], svg_dir: str | None
               ) -> tuple[str | None, OSError | None]:
    """``--svg DIR``: a picture of each step. Returns (what was written, or None; the write
    error, or None): the caller prints its verdict first, then this."""
    if svg_dir is None:
        return None, None
    from ..report.run import step_pictures
    from ..runtime.model import IllegalAction
    try:
        drawn = step_pictures(model, players, actions, svg_dir)
    except (ValueError, IllegalAction) as e:
        raise BadInput(f"cannot draw the steps: {e}") from None
    except OSError as err:
        return None, err
    return f"{len(drawn)} pictures in {svg_dir}/", None


def report_pictures(svg_dir: str | None, done: str | None, err: OSError | None) -> int:
    """Print what :func:`draw_steps` did (after the verdicts); 1 if it failed."""
    if done:
        click.echo(done, err=True)
    if err is not None:
        write_failed(f"the pictures in {svg_dir}/", err)
        return 1
    return 0


@contextlib.contextmanager
def stdout_to_stderr() -> Iterator[None]:
    """While outside code runs (an implementation under ``conform``), whatever it writes to
    stdout, from Python or below it, goes to stderr: stdout stays for rulespec's own
    output (one JSON document with ``--json``)."""
    sys.stdout.flush()
    try:
        saved = os.dup(1)
    except OSError:   # no file descriptor 1: only Python's stdout to redirect
        saved = None
    if saved is not None:
        os.dup2(2, 1)
    try:
        with contextlib.redirect_stdout(sys.stderr):
            yield
    finally:
        if saved is not None:
            sys.stdout.flush()
            os.dup2(saved, 1)
            os.close(saved)
