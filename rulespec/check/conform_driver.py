"""How ``rulespec conform`` talks to an implementation: a driver starts games, a session
answers for one game. Every answer passes through here, so an implementation cannot end
the run (``sys.exit``, a stray ``KeyboardInterrupt``), print into the ``--json`` document,
or lack a method without it being said.

:class:`InProcessDriver` runs a Python adapter in this process;
:class:`rulespec.check.conform_exec.ExecDriver` runs an implementation in any language as
another process, spoken to over JSON lines. A driver needs :meth:`check` and
:meth:`new_game` (and may have ``close``); its sessions answer the same calls, and may
``prefetch`` the questions of several steps at once (``batch_steps`` of them).
"""

from __future__ import annotations

import contextlib
import sys
from typing import Any, Callable, Protocol, Sequence

#: what every adapter answers (docs/ecosystem.md)
REQUIRED = ("legal_actions", "apply", "current_player", "returns")
#: what an adapter may answer, compared when it does
OPTIONAL = ("snapshot", "observation", "chance_outcomes")


class AdapterError(ValueError):
    """The implementation cannot be used at all (exit 2): one line saying why."""


class ImplementationFailed(Exception):
    """The implementation stopped instead of answering: an exit, an interrupt it raised
    itself. A finding about it, never a success."""


class ImplementationHung(BaseException):
    """The implementation did not answer within a wall-clock safety limit. A BaseException,
    so that it passes through Hypothesis (a timeout is no failure to shrink, and each retry
    would wait again) to :func:`rulespec.check.conform.conform`, which reports UNKNOWN:
    never a pass, never a verdict on the rules. ``players`` and ``actions`` say where."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message
        self.actions: tuple[str, ...] = ()
        self.players = 0


class Session(Protocol):
    """One game of the implementation."""

    def supports(self, method: str) -> bool: ...

    def legal_actions(self) -> Sequence[str]: ...

    def apply(self, action: str) -> None: ...

    def current_player(self) -> Any: ...

    def returns(self) -> Sequence[float]: ...

    def snapshot(self) -> Any: ...

    def observation(self, player: int) -> Any: ...

    def chance_outcomes(self) -> Sequence[tuple[str, float]]: ...


class Driver(Protocol):
    """Starts games of an implementation."""

    name: str

    def check(self, players: int) -> None:
        """Raise :class:`AdapterError` naming what is missing, before the first game."""

    def new_game(self, players: int) -> Session: ...


def _user_interrupted() -> bool:
    from .interrupt import was_interrupted
    return was_interrupted()


@contextlib.contextmanager
def guarded(what: str):
    """Run the implementation's code: its prints go to stderr; an exit or an interrupt it
    raises becomes :class:`ImplementationFailed` (a real Ctrl-C still stops the run)."""
    try:
        with contextlib.redirect_stdout(sys.stderr):
            yield
    except SystemExit as err:
        raise ImplementationFailed(f"called exit({err.code!r}) {what}") from None
    except KeyboardInterrupt:
        if _user_interrupted():
            raise
        raise ImplementationFailed(f"raised KeyboardInterrupt {what}") from None


class InProcessSession:
    """A Python adapter's game, every call guarded."""

    def __init__(self, adapter: Any) -> None:
        self._adapter = adapter

    def supports(self, method: str) -> bool:
        return callable(getattr(self._adapter, method, None))

    def _call(self, method: str, *args: Any) -> Any:
        with guarded(f"in {method}()"):
            return getattr(self._adapter, method)(*args)

    def legal_actions(self) -> Sequence[str]:
        return self._call("legal_actions")

    def apply(self, action: str) -> None:
        self._call("apply", action)

    def current_player(self) -> Any:
        return self._call("current_player")

    def returns(self) -> Sequence[float]:
        return self._call("returns")

    def snapshot(self) -> Any:
        return self._call("snapshot")

    def observation(self, player: int) -> Any:
        return self._call("observation", player)

    def chance_outcomes(self) -> Sequence[tuple[str, float]]:
        return self._call("chance_outcomes")


class InProcessDriver:
    """A factory ``FACTORY(players) -> adapter`` in this process."""

    def __init__(self, factory: Callable[[int], Any], name: str = "implementation") -> None:
        self.factory = factory
        self.name = name

    def new_game(self, players: int) -> InProcessSession:
        with guarded(f"while setting up {players} players"):
            return InProcessSession(self.factory(players))

    def check(self, players: int) -> None:
        try:
            session = self.new_game(players)
        except ImplementationFailed as err:
            raise AdapterError(f"{self.name}: the implementation {err}") from None
        except Exception as err:  # noqa: BLE001 - said in one line
            raise AdapterError(f"{self.name}: the factory failed for {players} players: "
                               f"{type(err).__name__}: {err}") from None
        missing = [m for m in REQUIRED if not session.supports(m)]
        if missing:
            raise AdapterError(
                f"{self.name}: the adapter has no {', '.join(f'{m}()' for m in missing)} (an "
                f"adapter needs {', '.join(f'{m}()' for m in REQUIRED)}; docs/ecosystem.md)")


def as_driver(impl: Any, name: str = "implementation") -> Driver:
    """A driver as given, or an in-process one around a factory."""
    return impl if hasattr(impl, "new_game") else InProcessDriver(impl, name)
