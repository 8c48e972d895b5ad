"""Ctrl-C a running command, as a terminal does, and count what it spends afterwards.

Shared by test_interrupt.py and test_prove_interrupt.py. Nothing here decides a verdict by
the wall clock: the command is interrupted once an *event* shows it at work (its progress
bar has counted a step, its workers have started solving), and "it stops at once" is
counted in CPU seconds spent after the signal, by the command and each worker (from
``/proc``; a process that finishes its work instead of stopping spends far more). The only
clock is a hang detector (:data:`HANG`): a command is taken to hang when none of its
processes spent CPU for that long (a loaded machine slows it down, it does not stop it),
so that a broken command fails instead of blocking the suite.
"""

from __future__ import annotations

import os
import pty
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Callable

#: seconds without progress before a wait is taken for a hang (a detector, never a
#: verdict): for a command, seconds in which none of its processes spent CPU
HANG = 300.0
#: seconds in all a wait on a command may take though its processes spend CPU
BACKSTOP = 1800.0
#: CPU seconds a process may spend after Ctrl-C: stopping takes a fraction of one; the work
#: the tests interrupt would take minutes
STOP_CPU = 3.0

_TICKS = os.sysconf("SC_CLK_TCK")
_ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\r")


def stat(pid: int) -> tuple[str, float] | None:
    """(state, CPU seconds) of ``pid`` from /proc (a zombie keeps its final CPU time), or
    None once it is gone."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None
    # after the command name: state ppid pgrp session ... utime (12) stime (13)
    return fields[0], (int(fields[11]) + int(fields[12])) / _TICKS


def _alive() -> list[tuple[int, list[str]]]:
    """Every process not a zombie, with the fields of /proc/PID/stat after its name
    (state ppid pgrp session ...)."""
    out = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if fields[0] != "Z":
                out.append((int(entry.name), fields))
    return out


def in_session(sid: int) -> list[int]:
    """Processes still alive (not zombies) in session ``sid``."""
    return [pid for pid, fields in _alive() if int(fields[3]) == sid]


def children(pid: int) -> list[int]:
    """Live child processes of ``pid``."""
    return [child for child, fields in _alive() if int(fields[1]) == pid]


def session_cpu(sid: int) -> float:
    """CPU seconds spent so far by the processes of session ``sid`` still in /proc."""
    return sum((stat(pid) or ("", 0.0))[1]
               for pid, fields in _alive() if int(fields[3]) == sid)


def wait_until(condition: Callable[[], bool], what: str, session: int | None = None) -> None:
    """Poll ``condition`` until it holds. A hang fails, naming ``what``: with ``session``,
    :data:`HANG` seconds in which no process of that session spent CPU (a loaded machine
    slows a run down, it does not stop it) or :data:`BACKSTOP` seconds in all (a process
    that spins); else :data:`HANG` seconds."""
    start = last_change = sampled = time.monotonic()
    spent = session_cpu(session) if session is not None else 0.0
    while not condition():
        now = time.monotonic()
        if session is not None and now - sampled >= 1.0:
            sampled, cpu = now, session_cpu(session)
            if cpu != spent:
                spent, last_change = cpu, now
        if now - start > BACKSTOP:
            raise AssertionError(f"hang: {what}: not seen within {BACKSTOP:.0f} s")
        if now - last_change > HANG:
            idle = "no process of the command spent CPU for" if session is not None else \
                "not seen within"
            raise AssertionError(f"hang: {what}: {idle} {HANG:.0f} s")
        time.sleep(0.05)


class Running:
    """A command in a session of its own, stdout on a pipe, stderr on a terminal (a pty, so
    that its progress shows live)."""

    def __init__(self, argv: list[str], cwd: Path) -> None:
        master, slave = pty.openpty()
        env = {**os.environ, "TERM": "xterm", "COLUMNS": "100"}
        self.proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=slave,
                                     stdin=subprocess.DEVNULL, cwd=cwd, env=env,
                                     start_new_session=True)
        os.close(slave)
        self._out = bytearray()
        self._err = bytearray()
        self._readers = [threading.Thread(target=self._read, args=(master, self._err),
                                          daemon=True),
                         threading.Thread(target=self._read,
                                          args=(self.proc.stdout.fileno(), self._out),
                                          daemon=True)]
        for r in self._readers:
            r.start()
        self.watched: list[int] = []
        self.cpu_at_signal: dict[int, float] = {}
        self.cpu_after: dict[int, float] = {}

    @staticmethod
    def _read(fd: int, into: bytearray) -> None:
        while True:
            try:
                chunk = os.read(fd, 65536)
            except OSError:  # the pty's other end closed
                return
            if not chunk:
                return
            into.extend(chunk)

    @property
    def pid(self) -> int:
        return self.proc.pid

    def stderr(self) -> str:
        """What the command wrote to its terminal, without the terminal's control codes."""
        return _ANSI.sub("", bytes(self._err).decode("utf-8", "replace"))

    def stdout(self) -> str:
        return bytes(self._out).decode("utf-8", "replace")

    def counted(self) -> int:
        """The highest count ``N/TOTAL`` its progress has shown (0 before any)."""
        found = re.findall(r"\b(\d+)/\d+\b", self.stderr())
        return max(map(int, found), default=0)

    def wait_for(self, condition: Callable[[], bool], what: str) -> None:
        """Until ``condition`` holds while the command runs (it must not end first)."""
        def seen() -> bool:
            assert self.proc.poll() is None, (f"ended before {what}: exit {self.proc.returncode}"
                                              f"\n{self.stderr()[-2000:]}")
            return condition()
        wait_until(seen, what, session=self.pid)

    def interrupt(self, to_group: bool = True, workers: list[int] | None = None) -> None:
        """Ctrl-C: SIGINT to the whole process group (as a terminal sends it) or to the
        command alone; the CPU time of the command and of ``workers`` is noted first."""
        self.watched = [self.pid, *(workers or [])]
        for pid in self.watched:
            got = stat(pid)
            self.cpu_at_signal[pid] = got[1] if got else 0.0
        if to_group:
            os.killpg(self.pid, signal.SIGINT)
        else:
            os.kill(self.pid, signal.SIGINT)

    def finish(self) -> int:
        """Wait for the command to exit; note each watched process's CPU time after the
        signal (read until it is a zombie or gone); return the exit code."""
        last = dict(self.cpu_at_signal)

        def ended() -> bool:
            done = True
            for pid in self.watched:
                got = stat(pid)
                if got is None:
                    continue
                last[pid] = max(last.get(pid, 0.0), got[1])
                done = done and got[0] == "Z"
            return done
        try:
            wait_until(ended, "the command and its workers ending after Ctrl-C",
                       session=self.pid)
            code = self.proc.wait(timeout=HANG)
        finally:
            self.kill()
        for r in self._readers:
            r.join(timeout=HANG)
        self.cpu_after = {pid: round(last[pid] - self.cpu_at_signal[pid], 2)
                          for pid in self.watched}
        return code

    def left_behind(self) -> list[int]:
        """Processes of its session still alive (polled until none, within :data:`HANG`)."""
        try:
            wait_until(lambda: not in_session(self.pid), "every process of the session gone")
        except AssertionError:
            return in_session(self.pid)
        return []

    def kill(self) -> None:
        if self.proc.poll() is None:
            os.killpg(self.pid, signal.SIGKILL)
            self.proc.wait()


def rulespec(*args: str) -> list[str]:
    """The argv of ``rulespec ARGS`` run by this Python."""
    return [sys.executable, "-m", "rulespec.cli", *args]
