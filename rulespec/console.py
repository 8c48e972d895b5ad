"""Human output of the command line: at most 100 columns, long lists summarised.

``--json`` gives everything; what is printed for people is wrapped to the terminal (never
wider than :data:`MAX_WIDTH`) and long lists show their first items and a count.
"""

from __future__ import annotations

import shutil
import sys
from typing import Any, Iterable, Sequence

from rich.cells import cell_len
from rich.console import Console
from rich.markup import escape
from rich.table import Table

MAX_WIDTH = 100
STYLE = {"PASSED": "green", "PROVED": "green", "VIOLATED": "bold red", "UNKNOWN": "yellow",
         "SKIPPED": "dim"}


def width() -> int:
    """The width to print to: the terminal's, at most 100 (100 when not a terminal)."""
    if sys.stdout.isatty():
        return max(40, min(MAX_WIDTH, shutil.get_terminal_size((MAX_WIDTH, 24)).columns))
    return MAX_WIDTH


class Out:
    """stdout for people: rich markup off by default, every line wrapped to :func:`width`."""

    def __init__(self) -> None:
        self._console: Console | None = None

    @property
    def console(self) -> Console:
        # built on first use so it writes to the sys.stdout of that moment (tests capture it)
        if self._console is None or self._console.file is not sys.stdout:
            self._console = Console(file=sys.stdout, width=width(), highlight=False,
                                    soft_wrap=False)
        return self._console

    def print(self, markup: str = "") -> None:
        """One line of rich markup (the caller escapes what it quotes)."""
        self.console.print(markup, overflow="fold")

    def para(self, text: str, indent: int = 0, hang: int = 4, style: str | None = None) -> None:
        """Plain text (no markup), wrapped: continuation lines indented ``hang`` more."""
        for line in wrap(text, width(), indent, hang):
            self.console.print(f"[{style}]{escape(line)}[/]" if style else escape(line),
                               overflow="fold")

    def table(self, table: Table) -> None:
        self.console.print(table)


def wrap(text: str, columns: int, indent: int = 0, hang: int = 4) -> list[str]:
    """Lines of at most ``columns`` terminal cells (a CJK character takes two), breaking at
    spaces where there are any and inside a word (or a run of CJK text) where not."""
    lines: list[str] = []
    line, used = " " * indent, indent
    start = True
    for word in text.split():
        w = cell_len(word)
        gap = 0 if start else 1
        if used + gap + w <= columns:
            line, used, start = line + (" " if gap else "") + word, used + gap + w, False
            continue
        if not start and indent + hang + w <= columns:  # the word fits on a line of its own
            lines.append(line)
            line, used = " " * (indent + hang) + word, indent + hang + w
            continue
        for ch in (" " if gap else "") + word:  # too long for any line: break inside it
            c = cell_len(ch)
            if used + c > columns:
                lines.append(line)
                line, used = " " * (indent + hang), indent + hang
                if ch == " ":
                    continue
            line, used = line + ch, used + c
        start = False
    lines.append(line)
    return lines


def summarise(items: Sequence[str], limit: int, *, more: str = "use --verbose for all"
              ) -> str:
    """``a, b, c, ... (N more; ...)``: the first ``limit`` items and a count of the rest."""
    if len(items) <= limit:
        return ", ".join(items)
    return ", ".join(items[:limit]) + f", ... ({len(items) - limit} more; {more})"


def results_table(title: str, results: Iterable[Any], *, with_checker: bool = False) -> Table:
    """The verdicts as a table: property names whole (never cut), the detail wrapped.

    ``results`` are :class:`rulespec.check.results.Result` records.
    """
    rows = list(results)
    table = Table(title=title, width=width(), title_justify="left", expand=False)
    longest = max((len(r.property) for r in rows), default=8)
    table.add_column("property", no_wrap=True, overflow="fold", min_width=min(longest, 60))
    if with_checker:
        table.add_column("how", no_wrap=True)
    table.add_column("result", no_wrap=True)
    table.add_column("detail", overflow="fold", ratio=1)
    for r in rows:
        cells = [escape(r.property)] + ([escape(r.checker)] if with_checker else [])
        table.add_row(*cells, f"[{STYLE.get(r.status, '')}]{r.status}[/]", escape(r.detail))
    return table


def counts(results: Iterable[Any]) -> str:
    """``summary: 9 PASSED, 1 VIOLATED``."""
    found: dict[str, int] = {}
    for r in results:
        found[r.status] = found.get(r.status, 0) + 1
    return "summary: " + ", ".join(f"{v} {k}" for k, v in found.items())
