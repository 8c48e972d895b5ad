"""The one error of a data file: which file, which line (when known), what is wrong."""

from __future__ import annotations

import os


def one_line(text: str) -> str:
    """``text`` on one line (a message is one line, whatever a file put in it)."""
    return " ".join(str(text).split())


class FormatError(ValueError):
    """A data file is missing, unreadable or malformed. ``str()`` is one line:
    ``path:line: problem``, or ``path: problem`` when no line is known."""

    def __init__(self, path: str | os.PathLike, problem: str, *, line: int | None = None,
                 about: str = "") -> None:
        self.path = os.fspath(path)
        self.line = line
        self.problem = one_line(problem)
        where = f"{self.path}:{line}" if line else self.path
        super().__init__(f"{where}: {about}{self.problem}")
