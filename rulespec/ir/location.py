"""Where in a spec file an element was written, so errors can name file and line."""

from __future__ import annotations

import contextlib
import dis
import os
import sys

import attrs

_PACKAGE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@attrs.frozen
class Location:
    """A file and line in a spec (the caller outside the rulespec package)."""

    file: str
    line: int
    #: the column (0-based) of the spec expression that built the element, when known:
    #: several rules written on one line stay apart (``rulespec mutate`` names sites by it)
    column: int | None = attrs.field(default=None, eq=False, repr=False)

    def __str__(self) -> str:
        return f"{self.file}:{self.line}"


_CONTEXTLIB = os.path.abspath(contextlib.__file__)
#: spec code that installs inside the package (the bundled games and their properties)
_SPEC_DIRS = tuple(os.path.join(_PACKAGE_DIR, d) + os.sep for d in ("models", "properties"))


def caller_location() -> Location | None:
    """Return the first stack frame outside the rulespec library: the spec line being run."""
    frame = sys._getframe(1)
    while frame is not None:
        filename = os.path.abspath(frame.f_code.co_filename)
        # skip the library and contextlib (``with rule.when(...)`` enters through it)
        library = (filename.startswith(_PACKAGE_DIR + os.sep)
                   and not filename.startswith(_SPEC_DIRS))
        if not library and filename != _CONTEXTLIB:
            return Location(_short(filename), frame.f_lineno, _column(frame))
        frame = frame.f_back
    return None


#: each code object's instruction positions, read once (spec files run their lines often)
_POSITIONS: dict = {}


def _column(frame) -> int | None:  # noqa: ANN001 - a frame object
    """The column of the instruction a frame is running (Python 3.11 positions)."""
    code = frame.f_code
    positions = _POSITIONS.get(code)
    if positions is None:
        positions = _POSITIONS[code] = list(code.co_positions())
    i = frame.f_lasti // 2
    return positions[i][2] if 0 <= i < len(positions) else None


#: each code object's (offset, operation, argument) list, read once
_INSTRUCTIONS: dict = {}
_STORES = {"STORE_FAST", "STORE_NAME", "STORE_GLOBAL", "STORE_DEREF"}


def with_target() -> str | None:
    """The name after ``as`` in the ``with`` statement that is entering the calling context
    manager (``with rule.for_each(players) as p`` gives ``p``), or None: a loop variable
    keeps the name the spec wrote for it.

    >>> @contextlib.contextmanager
    ... def loop():
    ...     yield with_target()
    >>> with loop() as seat:
    ...     seat
    'seat'
    """
    frame = sys._getframe(2)  # 0: here, 1: the context manager's generator
    while frame is not None and os.path.abspath(frame.f_code.co_filename) == _CONTEXTLIB:
        frame = frame.f_back
    if frame is None:
        return None
    code = frame.f_code
    ops = _INSTRUCTIONS.get(code)
    if ops is None:
        ops = _INSTRUCTIONS[code] = [(i.offset, i.opname, i.argval)
                                     for i in dis.get_instructions(code)]
    after = next((op for op in ops if op[0] > frame.f_lasti), None)
    return after[2] if after is not None and after[1] in _STORES else None


def _short(path: str) -> str:
    try:
        rel = os.path.relpath(path)
    except ValueError:  # another drive on Windows
        return path
    return path if rel.startswith("..") else rel
