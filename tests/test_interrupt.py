"""Ctrl-C stops a long command at once: exit 130, one line, no process left (issue 9).

The terminal sends SIGINT to the whole foreground process group; these tests do the same
to a command started in its own session, then look for any process left in that session.
The time to exit is asserted loosely (the machine may be loaded); `rulespec` itself
reacts within a moment (workers are killed, not waited for).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

#: seconds from SIGINT to exit that the test accepts (2 s is the goal on an idle machine)
PATIENCE = 10.0


def _session(sid: int) -> list[int]:
    """Processes still alive in session ``sid``."""
    alive = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        # after the command name: state ppid pgrp session ...
        if int(fields[3]) == sid and fields[0] != "Z":
            alive.append(int(entry.name))
    return alive


def _interrupt(argv: list[str], tmp_path: Path, *, wait_for_children: int = 0,
               settle: float = 4.0) -> tuple[int, str, float, list[int]]:
    proc = subprocess.Popen([sys.executable, "-m", "rulespec.cli", *argv],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            cwd=tmp_path, start_new_session=True)
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and proc.poll() is None:
            if len(_session(proc.pid)) > wait_for_children:
                break
            time.sleep(0.1)
        time.sleep(settle)  # let it get into its long loop
        assert proc.poll() is None, proc.communicate()
        start = time.monotonic()
        os.killpg(proc.pid, signal.SIGINT)
        _, err = proc.communicate(timeout=60)
        took = time.monotonic() - start
        time.sleep(0.5)
        return proc.returncode, err, took, _session(proc.pid)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"),
                                reason="reads /proc to find processes left behind")


@pytest.mark.slow
def test_ctrl_c_stops_check_hawaii(tmp_path):
    code, err, took, left = _interrupt(["check", "hawaii", "--examples", "1000",
                                        "--trace-dir", str(tmp_path)], tmp_path)
    assert code == 130, err
    assert err.strip().splitlines()[-1] == "rulespec: interrupted"
    assert "Traceback" not in err
    assert took < PATIENCE
    assert left == []
    assert not list(tmp_path.glob("*.json"))  # nothing half-written


@pytest.mark.slow
def test_ctrl_c_stops_check_hawaii_with_workers_and_kills_them(tmp_path):
    code, err, took, left = _interrupt(["check", "hawaii", "--examples", "1000", "--workers",
                                        "2", "--trace-dir", str(tmp_path)], tmp_path,
                                       wait_for_children=2)
    assert code == 130, err
    assert "Traceback" not in err
    assert took < PATIENCE
    assert left == []


@pytest.mark.slow
def test_ctrl_c_stops_diff_hawaii(tmp_path):
    code, err, took, left = _interrupt(["diff", "hawaii", "--interpretation",
                                        "beach_return=free", "--against",
                                        "beach_return=forbidden", "--games", "1000",
                                        "--out-dir", str(tmp_path)], tmp_path)
    assert code == 130, err
    assert err.strip().splitlines()[-1] == "rulespec: interrupted"
    assert "Traceback" not in err
    assert took < PATIENCE
    assert left == []


def test_ctrl_c_inside_a_gc_callback_is_remembered_not_swallowed(tmp_path):
    """Python swallows an exception raised in a garbage-collector callback (Hypothesis has
    one): the interrupt is remembered there and raised by the next progress report."""
    script = tmp_path / "gc_interrupt.py"
    script.write_text(
        "import gc, os, signal, sys\n"
        "from rulespec.check.progress import Progress, interrupt_on_sigint\n"
        "interrupt_on_sigint()\n"
        "def gc_callback(phase, info):\n"
        "    if phase == 'start':\n"
        "        os.kill(os.getpid(), signal.SIGINT)\n"
        "        for _ in range(1000): pass  # the handler runs here, inside the callback\n"
        "gc.callbacks.append(gc_callback)\n"
        "gc.collect()\n"
        "gc.callbacks.remove(gc_callback)\n"
        "print('survived the callback', flush=True)\n"
        "try:\n"
        "    Progress('x', quiet=True).advance()\n"
        "except KeyboardInterrupt:\n"
        "    print('raised by the next progress report')\n")
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                          timeout=60)
    assert done.stdout.splitlines() == ["survived the callback",
                                        "raised by the next progress report"], done.stderr
    assert "Exception ignored" not in done.stderr


@pytest.mark.slow
def test_ctrl_c_stops_mutate_hawaii_with_workers_and_kills_them(tmp_path):
    code, err, took, left = _interrupt(["mutate", "hawaii", "--workers", "2"], tmp_path,
                                       settle=20.0)
    assert code == 130, err
    assert err.strip().splitlines()[-1] == "rulespec: interrupted"
    assert "Traceback" not in err
    assert took < PATIENCE
    assert left == []
