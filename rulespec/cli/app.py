"""The command group and the entry point: bad input becomes one line and exit code 2,
Ctrl-C exit 130."""

from __future__ import annotations

import os
import sys
from typing import NoReturn, Sequence

import click

from ..ir.errors import SpecError
from ..runtime.trace import TraceError
from . import (check, conform, diff, info, list_games, mutate, play, prove, replay, report,
               scenario, show)
from . import interrupted
from .options import BadInput, Group, Interrupted


@click.group(cls=Group, context_settings={"help_option_names": ["-h", "--help"],
                                           "max_content_width": 100})
@click.version_option(package_name="rulespec")
def cli() -> None:
    """Board-game rules as a checkable spec: list, inspect, play, check, replay."""


for _command in (list_games.list_cmd, info.info, play.play, check.check, prove.prove,
                 diff.diff_cmd, conform.conform, scenario.scenario, replay.replay, show.show,
                 mutate.mutate, report.report):
    cli.add_command(_command)


_NO_ARGS_IS_HELP = getattr(click.exceptions, "NoArgsIsHelpError", None) or getattr(
    click.exceptions, "NoArgsIsHelp", ())


def main(argv: Sequence[str] | None = None) -> NoReturn:
    """Run the CLI (the Ctrl-C handler is in place already: ``rulespec.cli.main``),
    turning bad input into one line and exit code 2."""
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
    except (click.exceptions.Abort, KeyboardInterrupt, Interrupted):
        # Ctrl-C: workers are already killed (check/workers.py); nothing is half-written
        interrupted()
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

