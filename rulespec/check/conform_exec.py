"""``rulespec conform GAME --exec COMMAND``: an implementation in any language, spoken to
over JSON lines on its stdin and stdout.

The protocol is in docs/ecosystem.md and its JSON Schema in
``docs/formats/conform-protocol.schema.json``: rulespec writes one request per line
(``{"id": 3, "op": "legal_actions"}``), the implementation answers each with one line
(``{"id": 3, "ok": ["drop(0)", ...]}`` or ``{"id": 3, "error": "why"}``), in order. rulespec
writes a whole stretch of a game before it reads (the spec's side of the game is known in
advance: it alone chooses the actions), so several steps cost one round trip.

Nothing the process does can end the run or pass for agreement: an error reply, a line that
is not a reply (garbage, a reply to another request), an exit or a crash are findings about
the implementation (:class:`ProcessFailed`, with its last lines on stderr); a reply that
does not come within ``timeout`` seconds stops the process and the run
(:class:`ImplementationHung`: a wall-clock safety limit, never a verdict). Before the first
game the same failures are :class:`AdapterError` (exit 2). Its stderr is read all along
(a chatty process never blocks) and only its last lines are kept.
"""

from __future__ import annotations

import collections
import json
import os
import queue
import shlex
import signal
import subprocess
import threading
from typing import Any, Mapping, Sequence

from .conform_driver import OPTIONAL, AdapterError, ImplementationFailed, ImplementationHung

PROTOCOL = 1
#: seconds to wait for one reply: a safety limit for a hung process, not a budget
DEFAULT_TIMEOUT = 60.0
#: the longest reply line read (a line past it is a protocol failure)
MAX_LINE = 16 * 1024 * 1024
#: seconds a process may take to answer what is left of a finished game before it is
#: restarted instead (only speed depends on it: a restarted process is as good)
DRAIN_SECONDS = 2.0
#: the steps sent in the first batch of a game; each later batch doubles, up to MAX_BATCH
FIRST_BATCH, MAX_BATCH = 8, 64
_EOF = object()


class ProcessFailed(ImplementationFailed):
    """The process answered in a way the protocol does not allow, or stopped answering.
    ``kind`` is the disagreement's kind: "protocol" or "exited"."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind


class ErrorReply(ImplementationFailed):
    """The implementation answered a request with ``{"error": ...}``."""

    kind = "raised"


def _clip(text: str, limit: int = 120) -> str:
    return text if len(text) <= limit else text[:limit - 3] + "..."


class _Process:
    """One running implementation: its pipes, a thread per pipe, the requests in flight."""

    def __init__(self, argv: Sequence[str], name: str, transcript: list | None = None
                 ) -> None:
        self.name = name
        self.transcript = transcript
        try:
            self.proc = subprocess.Popen(list(argv), stdin=subprocess.PIPE,
                                         stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                         start_new_session=True)  # Ctrl-C is rulespec's
        except OSError as err:
            raise ProcessFailed("exited", f"cannot be run: {argv[0]}: "
                                          f"{err.strerror or err}") from None
        self.lines: queue.SimpleQueue = queue.SimpleQueue()
        self.outbox: queue.SimpleQueue = queue.SimpleQueue()
        self.stderr_tail: collections.deque[str] = collections.deque(maxlen=8)
        self.pending: collections.deque[tuple[int, str, tuple]] = collections.deque()
        self.next_id = 0
        self.dead: ProcessFailed | None = None
        self._threads = [threading.Thread(target=t, daemon=True)
                         for t in (self._read, self._read_stderr, self._write)]
        for thread in self._threads:
            thread.start()

    # --- the threads: they only move bytes --------------------------------------------
    def _read(self) -> None:
        out = self.proc.stdout
        assert out is not None
        try:
            while True:
                line = out.readline(MAX_LINE + 1)
                if not line:
                    break
                self.lines.put(line)
        except (OSError, ValueError):
            pass
        self.lines.put(_EOF)

    def _read_stderr(self) -> None:
        err = self.proc.stderr
        assert err is not None
        try:
            for line in err:
                text = line.decode("utf-8", "replace").rstrip()
                if text:
                    self.stderr_tail.append(_clip(text, 200))
        except (OSError, ValueError):
            pass

    def _write(self) -> None:
        pipe = self.proc.stdin
        assert pipe is not None
        while True:
            chunk = self.outbox.get()
            if chunk is None:
                break
            try:
                pipe.write(chunk)
                pipe.flush()
            except (OSError, ValueError):  # it exited: the reader sees the end of its stdout
                break
        try:
            pipe.close()
        except OSError:
            pass

    # --- requests and replies ---------------------------------------------------------
    def send(self, requests: Sequence[tuple[str, Mapping[str, Any]]]) -> None:
        """Write requests (op, arguments) in one go; their replies are read later."""
        lines = []
        for op, args in requests:
            self.pending.append((self.next_id, op, tuple(sorted(args.items()))))
            request = {"id": self.next_id, "op": op, **args}
            lines.append(json.dumps(request, separators=(",", ":")))
            if self.transcript is not None:
                self.transcript.append(("request", request))
            self.next_id += 1
        self.outbox.put(("\n".join(lines) + "\n").encode())

    def receive(self, timeout: float) -> tuple[str, tuple, Any]:
        """The reply to the oldest request in flight: (op, arguments, its reply object).
        Raises ProcessFailed when the stream is broken, ImplementationHung on timeout."""
        if self.dead is not None:
            raise self.dead
        rid, op, args = self.pending.popleft()
        what = _request_text(op, args)
        try:
            line = self.lines.get(timeout=timeout)
        except queue.Empty:
            self.kill()
            self.dead = ProcessFailed("exited", "was stopped: it had hung")
            raise ImplementationHung(
                f"did not answer {what} within {timeout:g} s (the safety limit, --timeout) "
                "and was stopped. Does it write each reply as one line and flush it?"
                + self.last_words()) from None
        if line is _EOF:
            self.dead = ProcessFailed("exited", f"{self.exit_text()} before answering "
                                                f"{what}{self.last_words()}")
            raise self.dead
        reply = self._parse(line, what)
        if self.transcript is not None:
            self.transcript.append(("reply", reply, op))
        if type(reply.get("id")) is not int or reply["id"] != rid:   # true is no id
            self._broken(f"answered {what} (request {rid}) with a reply to request "
                         f"{reply.get('id')!r}")
        return op, args, reply

    def _parse(self, line: bytes, what: str) -> dict[str, Any]:
        if len(line) > MAX_LINE:
            self._broken(f"answered {what} with a line over {MAX_LINE // (1024 * 1024)} MiB")
        try:
            reply = json.loads(line.decode("utf-8"))
        except (UnicodeDecodeError, ValueError):
            text = line.decode("utf-8", "replace").strip()
            self._broken(f"wrote {_clip(text, 60)!r} instead of a JSON reply to {what} "
                         "(stdout carries replies only: write anything else to stderr)")
        if not isinstance(reply, dict) or set(reply) - {"id", "ok", "error"} \
                or ("ok" in reply) == ("error" in reply):
            self._broken(f"answered {what} with {_clip(json.dumps(reply), 80)}, which is no "
                         'reply (a reply is {"id": N, "ok": VALUE} or {"id": N, "error": '
                         '"TEXT"})')
        return reply

    def _broken(self, message: str) -> None:
        self.dead = ProcessFailed("protocol", message)
        self.kill()
        raise self.dead

    def exit_text(self) -> str:
        try:
            code = self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            return "closed its stdout"
        if code < 0:
            try:
                return f"was killed by {signal.Signals(-code).name}"
            except ValueError:
                return f"was killed by signal {-code}"
        return f"exited with code {code}"

    def last_words(self) -> str:
        """The last line it wrote on stderr, if any."""
        self._settle()
        return f"; its stderr ends: {self.stderr_tail[-1]}" if self.stderr_tail else ""

    def _settle(self) -> None:
        """Let the stderr thread take in what a process that ended wrote last."""
        if self.proc.poll() is not None:
            self._threads[1].join(timeout=1)

    def drain(self) -> bool:
        """Read the replies still owed (a game ended early); False if it cannot be reused."""
        try:
            while self.pending:
                self.receive(DRAIN_SECONDS)
        except (ImplementationFailed, ImplementationHung):
            return False
        return self.dead is None

    def kill(self) -> None:
        if self.proc.poll() is None:
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)  # its own session: it and its children
            except OSError:
                self.proc.kill()
        self.outbox.put(None)
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            pass


def _request_text(op: str, args: tuple) -> str:
    shown = dict(args)
    if op == "apply":
        return f"apply {shown.get('action')}"
    if op == "observation":
        return f"observation of player {shown.get('player')}"
    if op == "new_game":
        return f"new_game ({shown.get('players')} players)"
    return op


class ExecSession:
    """One game of a process; the same calls as a Python adapter's. ``prefetch`` sends
    the questions of several steps at once; a call then reads its reply."""

    batch_steps = FIRST_BATCH

    def __init__(self, driver: "ExecDriver", process: _Process, players: int) -> None:
        self._driver = driver
        self._process = process
        self._players = players
        self.batch_steps = FIRST_BATCH

    def supports(self, method: str) -> bool:
        return method not in OPTIONAL or method in self._driver.supports

    def prefetch(self, requests: Sequence[tuple[str, Mapping[str, Any]]]) -> None:
        """Send requests now; each call later reads its reply. Stops before an action the
        declared mapping lacks (its call says so)."""
        out = []
        for op, args in requests:
            if op == "apply" and self._driver.to_theirs is not None \
                    and args["action"] not in self._driver.to_theirs:
                break
            out.append(self._outgoing(op, args))
        if out:
            self._process.send(out)
        self.batch_steps = min(MAX_BATCH, self.batch_steps * 2)

    def _outgoing(self, op: str, args: Mapping[str, Any]) -> tuple[str, Mapping[str, Any]]:
        if op == "apply" and self._driver.to_theirs is not None:
            text = args["action"]
            if text not in self._driver.to_theirs:
                raise ProcessFailed("protocol", f"declares no action for {text} (its "
                                                "\"actions\" mapping)")
            return op, {"action": self._driver.to_theirs[text]}
        return op, args

    def _ask(self, op: str, **args: Any) -> Any:
        op, sent = self._outgoing(op, args)
        key = tuple(sorted(sent.items()))
        process = self._process
        while process.pending:
            got_op, got_args, reply = process.receive(self._driver.timeout)
            if (got_op, got_args) == (op, key):
                return self._value(op, got_args, reply)
        process.send([(op, sent)])
        got_op, got_args, reply = process.receive(self._driver.timeout)
        return self._value(op, got_args, reply)

    def _value(self, op: str, args: tuple, reply: Mapping[str, Any]) -> Any:
        what = _request_text(op, args)
        if "error" in reply:
            raise ErrorReply(f"answered {what} with the error {_clip(str(reply['error']))!r}")
        return check_value(op, reply["ok"], what, self._players, self._driver.to_ours)

    def legal_actions(self) -> list[str]:
        return self._ask("legal_actions")

    def apply(self, action: str) -> None:
        self._ask("apply", action=action)

    def current_player(self) -> Any:
        return self._ask("current_player")

    def returns(self) -> list[float]:
        return self._ask("returns")

    def snapshot(self) -> Any:
        return self._ask("snapshot")

    def observation(self, player: int) -> Any:
        return self._ask("observation", player=player)

    def chance_outcomes(self) -> list[tuple[str, float]]:
        return self._ask("chance_outcomes")


def _wrong(what: str, value: Any, expected: str) -> ProcessFailed:
    return ProcessFailed("protocol", f"answered {what} with {_clip(json.dumps(value), 80)}, "
                                     f"which is not {expected}")


def _number(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def check_value(op: str, value: Any, what: str, players: int,
                to_ours: Mapping[str, str] | None) -> Any:
    """A reply's value as the Python adapter would give it (actions as the spec's texts);
    a value of the wrong shape is a protocol failure."""
    def ours(action: Any) -> str:
        if to_ours is None:
            if not isinstance(action, str):
                raise _wrong(what, value, "a list of action texts")
            return action
        if isinstance(action, bool) or not isinstance(action, (str, int)):
            raise _wrong(what, value, "a list of actions (strings or integers)")
        if str(action) not in to_ours:
            raise ProcessFailed("protocol", f"answered {what} with the action "
                                            f"{json.dumps(action)}, which its \"actions\" "
                                            "mapping does not name")
        return to_ours[str(action)]

    if op in ("new_game", "apply"):
        return None
    if op == "current_player":
        if value in ("chance", "terminal") or (isinstance(value, int) and not isinstance(
                value, bool) and (0 <= value < players or value in (-1, -4))):
            return value
        raise _wrong(what, value, f'a player (0 to {players - 1}, "chance" or "terminal")')
    if op == "legal_actions":
        if not isinstance(value, list):
            raise _wrong(what, value, "a list of actions")
        return [ours(a) for a in value]
    if op == "returns":
        if not isinstance(value, list) or not all(_number(v) for v in value):
            raise _wrong(what, value, "a list of numbers, one per player")
        return value
    if op in ("snapshot", "observation"):
        if not isinstance(value, dict):
            raise _wrong(what, value, "an object of field values")
        return value
    if op == "chance_outcomes":
        if not isinstance(value, list) or not all(
                isinstance(p, list) and len(p) == 2 and _number(p[1]) for p in value):
            raise _wrong(what, value, "a list of [outcome, probability] pairs")
        return [(ours(a), float(p)) for a, p in value]
    raise AssertionError(op)


class ExecDriver:
    """Games of an implementation run as ``command`` (split like a shell would, but no
    shell runs it). One process plays game after game (``new_game`` starts each); one that
    broke the protocol, crashed or exited is started again for the next game."""

    def __init__(self, command: str, *, game: str, seed: int = 0,
                 timeout: float = DEFAULT_TIMEOUT, name: str | None = None,
                 transcript: list | None = None) -> None:
        #: ``transcript``: when a list, every request sent and reply read is appended to
        #: it, ("request", obj) and ("reply", obj, the request's op)
        self.transcript = transcript
        try:
            self.argv = shlex.split(command)
        except ValueError as err:
            raise AdapterError(f"--exec {command!r}: {err}") from None
        if not self.argv:
            raise AdapterError("--exec needs a command")
        self.command = command
        self.name = name or command
        self.game = game
        self.seed = seed
        self.timeout = timeout
        self.supports: tuple[str, ...] = ()
        self.to_ours: dict[str, str] | None = None
        self.to_theirs: dict[str, Any] | None = None
        self.processes_started = 0
        self._process: _Process | None = None

    # --- the process ------------------------------------------------------------------
    def _start(self) -> _Process:
        """A new process that has said hello; ProcessFailed (or ImplementationHung) if not."""
        process = _Process(self.argv, self.name, self.transcript)
        self.processes_started += 1
        try:
            process.send([("hello", {"protocol": PROTOCOL, "game": self.game})])
            _, _, reply = process.receive(self.timeout)
            if "error" in reply:
                raise ProcessFailed("protocol", f"answered hello with the error "
                                                f"{_clip(str(reply['error']))!r}")
            self._hello(reply["ok"])
        except BaseException:
            process.kill()
            raise
        return process

    def _hello(self, info: Any) -> None:
        def bad(why: str) -> ProcessFailed:
            return ProcessFailed("protocol", f"answered hello with a reply that {why} "
                                             "(docs/ecosystem.md)")
        if not isinstance(info, dict) or set(info) - {"protocol", "name", "supports",
                                                      "actions"}:
            raise bad('is not an object of "protocol" and optionally "name", "supports" '
                      'and "actions"')
        if info.get("protocol") != PROTOCOL:
            raise bad(f"names protocol {info.get('protocol')!r}; rulespec speaks {PROTOCOL}")
        supports = info.get("supports", [])
        if not isinstance(supports, list) or any(s not in OPTIONAL for s in supports):
            raise bad(f"lists the optional requests {_clip(json.dumps(supports))}; they "
                      f"are {', '.join(OPTIONAL)}")
        actions = info.get("actions")
        if actions is None:
            self.supports, self.to_ours, self.to_theirs = tuple(supports), None, None
            return
        if isinstance(actions, list):
            pairs = [(i, text) for i, text in enumerate(actions)]
        elif isinstance(actions, dict):
            pairs = list(actions.items())
        else:
            raise bad('has "actions" that is neither a list nor an object')
        if not all(isinstance(text, str) for _, text in pairs):
            raise bad('has "actions" whose values are not all action texts')
        theirs = {text: key for key, text in pairs}
        if len(theirs) != len(pairs):
            raise bad("maps two of its actions to one action text of the spec")
        self.supports = tuple(supports)
        self.to_ours = {str(key): text for key, text in pairs}
        self.to_theirs = theirs

    def _alive(self) -> _Process:
        process = self._process
        if process is not None and (process.dead is not None or not process.drain()):
            process.kill()
            process = None
        if process is None:
            self._process = None
            process = self._process = self._start()
        return process

    # --- the driver's calls -----------------------------------------------------------
    def new_game(self, players: int) -> ExecSession:
        session = ExecSession(self, self._alive(), players)
        session._ask("new_game", players=players, seed=self.seed)
        return session

    def check(self, players: int) -> None:
        """Start the process and set up one game before any is judged: a process that
        cannot is no implementation to test (AdapterError: exit 2)."""
        try:
            session = self.new_game(players)
            session.current_player()
        except (ImplementationHung, ImplementationFailed) as err:
            self.close()
            said = err.message if isinstance(err, ImplementationHung) else str(err)
            raise AdapterError(f"{self.name}: before the first game, the implementation "
                               f"{said}") from None

    def close(self) -> None:
        """Stop the process (the driver starts another if it is used again)."""
        if self._process is not None:
            self._process.kill()
            self._process = None

    def __enter__(self) -> "ExecDriver":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


__all__ = ["DEFAULT_TIMEOUT", "ErrorReply", "ExecDriver", "ExecSession", "ImplementationHung",
           "PROTOCOL", "ProcessFailed", "check_value"]
