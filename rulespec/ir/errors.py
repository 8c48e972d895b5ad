"""The one error a malformed spec raises: it names the file, the line and the element."""

from __future__ import annotations

from .location import Location, caller_location


class SpecError(Exception):
    """A spec is malformed: unknown name, type error, unbounded domain, missing source...

    The message reads ``file:line: in <element>: <problem>`` so an editor can jump to it.
    """

    def __init__(self, problem: str, *, element: str | None = None,
                 where: Location | None = None) -> None:
        self.problem = problem
        self.element = element
        self.where = where if where is not None else caller_location()
        super().__init__(self._format())

    def _format(self) -> str:
        parts = []
        if self.where is not None:
            parts.append(f"{self.where}:")
        if self.element:
            parts.append(f"in {self.element}:")
        parts.append(self.problem)
        return " ".join(parts)


class SpecWarning(UserWarning):
    """A spec that loads but will be slow or surprising (an expression that every backend
    writes out far larger than the spec wrote it); the message names file, line and element."""
