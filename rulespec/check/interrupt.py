"""Ctrl-C for the command line: the SIGINT handler and the flag it sets.

Kept free of heavy imports (no rich, no Z3, no Hypothesis): ``rulespec`` puts the handler in
place before it imports anything else, so an interrupt at any moment is one line and exit
130.
"""

from __future__ import annotations

from typing import Any

#: set by the command line's SIGINT handler (see :func:`interrupt_on_sigint`)
_interrupted = False


def interrupt_on_sigint() -> None:
    """Ctrl-C raises KeyboardInterrupt as usual, and is also remembered.

    Python swallows (and prints) an exception raised inside a finaliser — a ``__del__``, a
    weakref or garbage-collector callback such as Hypothesis's ``gc_callback`` — so when
    the signal lands in one, it is only remembered; every progress report raises it again
    until the command is out.
    """
    import signal

    def handler(signum: int, frame: Any) -> None:
        global _interrupted
        _interrupted = True
        if not _in_finaliser(frame):
            raise KeyboardInterrupt

    signal.signal(signal.SIGINT, handler)


_FINALISERS = {"__del__", "gc_callback", "_remove_dead_weakref", "remove"}


def _in_finaliser(frame: Any) -> bool:
    while frame is not None:
        code = frame.f_code
        if code.co_name in _FINALISERS and (code.co_name != "remove"
                                            or code.co_filename.endswith("weakref.py")):
            return True
        frame = frame.f_back
    return False


def _check_interrupted() -> None:
    if _interrupted:
        raise KeyboardInterrupt


def was_interrupted() -> bool:
    """Whether the user pressed Ctrl-C (not a KeyboardInterrupt raised by other code)."""
    return _interrupted
