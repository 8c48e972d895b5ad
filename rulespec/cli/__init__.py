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

import sys
from typing import Any, NoReturn, Sequence

__all__ = ["cli", "main"]


def main(argv: Sequence[str] | None = None) -> NoReturn:
    """Entry point: run the CLI, turning bad input into one line and exit code 2."""
    try:
        if argv is None:  # the command itself, not a test calling main([...])
            from ..check.interrupt import interrupt_on_sigint
            interrupt_on_sigint()
        from .app import main as run
    except KeyboardInterrupt:
        interrupted()
    run(argv)


def interrupted() -> NoReturn:
    """Ctrl-C: one line, exit 130 (workers are killed already: check/workers.py)."""
    sys.stderr.write("rulespec: interrupted\n")
    sys.stderr.flush()
    sys.exit(130)


def __getattr__(name: str) -> Any:
    if name == "cli":
        from .app import cli
        return cli
    raise AttributeError(f"module 'rulespec.cli' has no attribute {name!r}")
