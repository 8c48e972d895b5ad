"""Progress of a long command, on stderr: live on a terminal, a line now and then elsewhere.

Progress is for people, so it may read the clock; verdicts never do. Commands take a
:class:`Progress` (or :data:`QUIET`) and call :meth:`Progress.advance` / :meth:`Progress.note`;
on a terminal a ``rich`` display shows a bar, otherwise one line is printed at most every
``interval`` seconds (so a CI log shows the command is alive without flooding it).

>>> with Progress("demo", total=3, quiet=True) as p:
...     p.advance(); p.note("half way"); p.advance(2)
>>> (p.done, p.total, p.status)
(3, 3, 'half way')
"""

from __future__ import annotations

import sys
import time
from typing import IO, Any

from rich.console import Console
from rich.progress import (BarColumn, MofNCompleteColumn, Progress as RichProgress, TextColumn,
                           TimeElapsedColumn)


from .interrupt import _check_interrupted, interrupt_on_sigint  # noqa: F401 - re-exported


class Progress:
    """One task's progress: ``done`` of ``total`` steps (``total`` may be unknown) and a
    short status text."""

    def __init__(self, what: str, total: int | None = None, *, quiet: bool = False,
                 interval: float = 10.0, stream: IO[str] | None = None,
                 live: bool | None = None) -> None:
        self.what = what
        self.total = total
        self.done = 0
        self.status = ""
        self.quiet = quiet
        self.interval = interval
        self._stream = stream
        self._live_wanted = live
        self._live: RichProgress | None = None
        self._task: Any = None
        self._started = time.monotonic()
        self._last_line = self._started

    # --- context -----------------------------------------------------------------------
    def __enter__(self) -> "Progress":
        if self.quiet:
            return self
        console = Console(file=self._stream or sys.stderr, highlight=False)
        live = console.is_terminal if self._live_wanted is None else self._live_wanted
        if live:
            self._live = RichProgress(TextColumn("{task.description}"), BarColumn(),
                                      MofNCompleteColumn(), TimeElapsedColumn(),
                                      TextColumn("{task.fields[status]}"), console=console,
                                      transient=True)
            self._live.start()
            self._task = self._live.add_task(self.what, total=self.total, status="")
        return self

    def __exit__(self, *exc: object) -> None:
        if self._live is not None:
            self._live.stop()
            self._live = None

    # --- reporting ---------------------------------------------------------------------
    def advance(self, n: int = 1) -> None:
        """``n`` more steps are done. A total is what the work expected: Hypothesis may
        call a test more often than its example budget (replays, rejected draws), and
        a count is never shown past its total ("28/20"): the total grows with it."""
        self.done += n
        if self.total is not None and self.done > self.total:
            self.set_total(self.done)
        self._show()

    def set_total(self, total: int | None) -> None:
        """The number of steps, once known."""
        self.total = total
        if self._live is not None:
            self._live.update(self._task, total=total)

    def note(self, status: str) -> None:
        """What is being worked on now (one short phrase)."""
        self.status = status
        self._show()

    def line(self) -> str:
        """The one-line form: ``what: done/total, status, elapsed``."""
        count = f"{self.done}/{self.total}" if self.total is not None else str(self.done)
        elapsed = time.monotonic() - self._started
        status = f", {self.status}" if self.status else ""
        return f"rulespec: {self.what}: {count}{status} ({elapsed:.0f} s)"

    def _show(self) -> None:
        _check_interrupted()
        if self.quiet:
            return
        if self._live is not None:
            self._live.update(self._task, completed=self.done, status=self.status[:40])
            return
        now = time.monotonic()
        if now - self._last_line >= self.interval:
            self._last_line = now
            stream = self._stream or sys.stderr
            print(self.line(), file=stream, flush=True)


#: a progress that shows nothing (for library calls and ``--quiet``)
QUIET = Progress("quiet", quiet=True)
