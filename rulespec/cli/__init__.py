"""The ``rulespec`` command line, one module per command over the library, the options
they share in :mod:`.options`. Exit codes: 0 all good, 1 something violated or failed,
2 bad usage or bad input (one clear line on stderr, never a traceback), 130 interrupted.

Human output fits 100 columns and summarises long lists (``--verbose`` shows them whole);
``--json`` prints one document with everything on stdout. Progress goes to stderr
(``--quiet`` turns it off).
"""

from .main import cli, main

__all__ = ["cli", "main"]
