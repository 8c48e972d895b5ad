"""The ``rulespec`` command line, one module per command over the library, the options
they share in :mod:`.options`. Exit codes: 0 all good, 1 something violated or failed,
2 bad usage or bad input (one clear line on stderr, never a traceback), 130 interrupted.

Human output fits 100 columns and summarises long lists (``--verbose`` shows them whole);
``--json`` prints one document with everything on stdout. Progress goes to stderr
(``--quiet`` turns it off).

This module stays light: :func:`main` puts the Ctrl-C handler in place before the
commands, the compiler, Z3 and Hypothesis are imported, so an interrupt at any moment is
one line and exit 130.
"""

from __future__ import annotations

import os
import sys
from typing import Any, NoReturn, Sequence

__all__ = ["cli", "main"]


def main(argv: Sequence[str] | None = None) -> NoReturn:
    """Entry point: run the CLI, turning bad input into one line and exit code 2."""
    global _COMMAND
    try:
        if argv is None:  # the command itself, not a test calling main([...])
            _COMMAND = True
            from ..check.interrupt import interrupt_on_sigint
            interrupt_on_sigint()
        from .app import main as run
    except KeyboardInterrupt:
        interrupted()
    run(argv)


#: whether this process is the ``rulespec`` command (not a test calling :func:`main`)
_COMMAND = False


def interrupted() -> NoReturn:
    """Ctrl-C: one line, exit 130 (workers are killed already: check/workers.py).

    The command leaves at once, without the interpreter's exit handlers: the process
    pool's handler may still be waking its manager thread over a pipe the interrupt has
    closed, and then prints a traceback after our line (seen under load on Python 3.11).
    Nothing is left to write: outputs are written whole or not at all."""
    sys.stderr.write("rulespec: interrupted\n")
    sys.stderr.flush()
    if _COMMAND:
        try:
            sys.stdout.flush()
        except (OSError, ValueError):
            pass
        os._exit(130)
    sys.exit(130)


def __getattr__(name: str) -> Any:
    if name == "cli":
        from .app import cli
        return cli
    raise AttributeError(f"module 'rulespec.cli' has no attribute {name!r}")
