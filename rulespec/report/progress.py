"""Progress of ``rulespec report``: each game's phase, its count and what is left, on stderr.

A game's checkers report to a :class:`GameProgress` (a :class:`~rulespec.check.progress.
Progress` that knows its phase: check, diff, scenarios, coverage, prove, mutate); it sends
every change as a plain tuple to a sink, in this process or, from a worker, through a
queue. :class:`ReportProgress` shows them: a live bar per game on a terminal, otherwise one
line per running game every ``interval`` seconds. What is left is estimated from counted
work only (examples, options compared, proof jobs done out of those to do) and the time
the phase has taken so far, never from past runs; verdicts never read it.

>>> seen = []
>>> p = GameProgress("nim", seen.append)
>>> p.phase("check", 1, 5); p.set_total(4); p.advance(); p.note("half way")
>>> seen[-1]
('nim', 'check', 1, 5, 1, 4, 'half way')
>>> left_text(done=1, total=4, elapsed=30.0)
'about 2 min left'
"""

from __future__ import annotations

import sys
import textwrap
import time
from typing import IO, Any, Callable, Sequence

from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress as RichProgress, TextColumn

from ..check.progress import Progress, _check_interrupted

#: (game, phase, phase number, phases, done, total or None, status)
Event = tuple[str, str, int, int, int, "int | None", str]

#: what a phase counts, for the one-line form
UNITS = {"check": "examples", "diff": "options", "prove": "jobs"}
#: the one-line form's width (human output fits 100 columns)
WIDTH = 100


class GameProgress(Progress):
    """One game's progress through its phases; every change goes to ``sink``."""

    def __init__(self, game: str, sink: Callable[[Event], None] | None = None) -> None:
        super().__init__(game, quiet=True)
        self.game = game
        self.sink = sink
        self.current = ""
        self.number = 0
        self.phases = 0

    def phase(self, name: str, number: int, phases: int) -> None:
        """Phase ``number`` of ``phases`` begins: its count starts afresh."""
        self.current, self.number, self.phases = name, number, phases
        self.done, self.total, self.status = 0, None, ""
        self._send()

    def advance(self, n: int = 1) -> None:
        self.done += n
        self._send()

    def set_total(self, total: int | None) -> None:
        self.total = total
        self._send()

    def note(self, status: str) -> None:
        self.status = status
        self._send()

    def _send(self) -> None:
        _check_interrupted()
        if self.sink is not None:
            self.sink((self.game, self.current, self.number, self.phases, self.done,
                       self.total, self.status))


def left_text(done: int, total: int | None, elapsed: float) -> str:
    """What is left of a phase, from its count and the time it has taken so far."""
    if not total or not done or done >= total:
        return ""
    left = elapsed * (total - done) / done
    return f"about {left:.0f} s left" if left < 90 else f"about {left / 60:.0f} min left"


class ReportProgress:
    """The display of a report run: ``update`` takes a game's events, ``finished`` a game's
    end. A context manager (the live bars run inside it)."""

    def __init__(self, games: Sequence[str], *, quiet: bool = False, interval: float = 10.0,
                 stream: IO[str] | None = None, live: bool | None = None) -> None:
        self.games = list(games)
        self.quiet = quiet
        self.interval = interval
        self._console = Console(file=stream or sys.stderr, highlight=False)
        self._live_wanted = live
        self._live: RichProgress | None = None
        self._tasks: dict[str, Any] = {}
        self._events: dict[str, Event] = {}
        self._phase_started: dict[str, float] = {}
        self._started = time.monotonic()
        self._last_lines = self._started
        self.ended: list[str] = []

    def __enter__(self) -> "ReportProgress":
        live = self._console.is_terminal if self._live_wanted is None else self._live_wanted
        if not self.quiet and live:
            self._live = RichProgress(TextColumn("{task.description}"), BarColumn(),
                                      MofNCompleteColumn(), TextColumn("{task.fields[left]}"),
                                      console=self._console, transient=True)
            self._live.start()
        elif not self.quiet:
            self._console.print(escape(f"rulespec: reporting {len(self.games)} game(s); "
                                       f"a line every {self.interval:.0f} s"), soft_wrap=True)
        return self

    def __exit__(self, *exc: object) -> None:
        if self._live is not None:
            self._live.stop()
            self._live = None

    def update(self, event: Event) -> None:
        game, phase, number, phases, done, total, status = event
        previous = self._events.get(game)
        if previous is None or previous[1:3] != (phase, number):
            self._phase_started[game] = time.monotonic()
        self._events[game] = event
        _check_interrupted()
        if self.quiet:
            return
        if self._live is not None:
            self._show_live(game)
        elif time.monotonic() - self._last_lines >= self.interval:
            self._last_lines = time.monotonic()
            for g in self.games:
                if g in self._events and g not in self.ended:
                    self._console.print(escape(self.line(g)), soft_wrap=True)

    def finished(self, game: str) -> None:
        """``game``'s report is written (or could not be made: its line says so later)."""
        self.ended.append(game)
        if game in self._tasks and self._live is not None:
            self._live.remove_task(self._tasks.pop(game))
        if not self.quiet:
            self._console.print(escape(f"rulespec: {game} done ({len(self.ended)}/"
                                       f"{len(self.games)} games, "
                                       f"{time.monotonic() - self._started:.0f} s)"),
                                soft_wrap=True)

    def line(self, game: str) -> str:
        """The one-line form, at most :data:`WIDTH` characters: ``rulespec: GAME: PHASE
        (k/n): done/total units, what is left, what it is on``."""
        _, phase, number, phases, done, total, status = self._events[game]
        count = (f": {done}/{total} {UNITS.get(phase, 'steps')}" if total
                 else f": {done} {UNITS.get(phase, 'steps')}" if done else "")
        left = self._left(game)
        line = f"rulespec: {game}: {phase} ({number}/{phases}){count}" + (
            f", {left}" if left else "")
        room = WIDTH - len(line) - 2
        if status and room >= 10:
            line += ", " + textwrap.shorten(status, room, placeholder="…")
        return line

    def _left(self, game: str) -> str:
        _, _, _, _, done, total, _ = self._events[game]
        return left_text(done, total, time.monotonic() - self._phase_started[game])

    def _show_live(self, game: str) -> None:
        assert self._live is not None
        _, phase, number, phases, done, total, _ = self._events[game]
        what = f"{game}: {phase} ({number}/{phases})"
        if game not in self._tasks:
            self._tasks[game] = self._live.add_task(what, total=total, left="")
        self._live.update(self._tasks[game], description=what, completed=done, total=total,
                          left=self._left(game))
