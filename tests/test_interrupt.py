"""Ctrl-C stops a long command at once: exit 130, one line, no process left (issue 9).

The terminal sends SIGINT to the whole foreground process group; these tests do the same
to a command started in its own session (its stderr on a terminal, so that its progress
shows), once its progress has counted a step, then look for any process left in that
session. "At once" is counted, not timed: neither the command nor a worker spends more than
``STOP_CPU`` CPU seconds after the signal, where the work interrupted would take minutes
(``tests/interrupting.py``).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from interrupting import STOP_CPU, Running, children, rulespec, stat

#: more examples, games and mutants than any run finishes: the command can only stop early
ENDLESS = 100_000


def _interrupt(argv: list[str], tmp_path: Path, *, counted: bool = True,
               workers: int = 0) -> tuple[int, str, str, dict[int, float], list[int]]:
    """Run ``rulespec ARGV``; once its ``workers`` are busy and (``counted``) its progress
    has counted a step, Ctrl-C. Returns the exit code, stdout, stderr, the CPU seconds each
    process spent after the signal and the processes left."""
    run = Running(rulespec(*argv), tmp_path)
    try:
        if workers:
            run.wait_for(lambda: len(children(run.pid)) >= workers, f"{workers} workers")
            pool = children(run.pid)
            # busy: each has spent a tenth of a CPU second (a count, not a wait)
            run.wait_for(lambda: all((stat(w) or ("", 1.0))[1] >= 0.1 for w in pool),
                         "the workers at work")
        else:
            pool = []
        if counted:
            run.wait_for(lambda: run.counted() >= 1, "a step counted by the progress bar")
        run.interrupt(workers=pool)
        code = run.finish()
        return code, run.stdout(), run.stderr(), run.cpu_after, run.left_behind()
    finally:
        run.kill()


pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"),
                                reason="reads /proc to find processes left behind")


def _stopped_at_once(cpu_after: dict[int, float]) -> bool:
    return all(s <= STOP_CPU for s in cpu_after.values())


@pytest.mark.slow
def test_ctrl_c_stops_check_hawaii(tmp_path):
    code, out, err, cpu, left = _interrupt(["check", "hawaii", "--examples", str(ENDLESS),
                                            "--trace-dir", str(tmp_path)], tmp_path)
    assert code == 130, err
    assert err.strip().splitlines()[-1] == "rulespec: interrupted"
    assert "Traceback" not in err
    assert _stopped_at_once(cpu), cpu
    assert left == []
    assert not list(tmp_path.glob("*.json"))  # nothing half-written
    assert "PASSED" not in out  # it stopped: no verdicts


@pytest.mark.slow
def test_ctrl_c_stops_check_hawaii_with_workers_and_kills_them(tmp_path):
    code, out, err, cpu, left = _interrupt(["check", "hawaii", "--examples", str(ENDLESS),
                                            "--workers", "2", "--trace-dir", str(tmp_path)],
                                           tmp_path, workers=2)
    assert code == 130, err
    assert "Traceback" not in err
    assert len(cpu) == 3 and _stopped_at_once(cpu), cpu  # the command and both workers
    assert left == []


@pytest.mark.slow
def test_ctrl_c_stops_diff_hawaii(tmp_path):
    code, out, err, cpu, left = _interrupt(["diff", "hawaii", "--interpretation",
                                            "beach_return=free", "--against",
                                            "beach_return=forbidden", "--games", str(ENDLESS),
                                            "--out-dir", str(tmp_path)], tmp_path)
    assert code == 130, err
    assert err.strip().splitlines()[-1] == "rulespec: interrupted"
    assert "Traceback" not in err
    assert _stopped_at_once(cpu), cpu
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
    code, out, err, cpu, left = _interrupt(["mutate", "hawaii", "--workers", "2"], tmp_path,
                                           counted=False, workers=2)
    assert code == 130, err
    assert err.strip().splitlines()[-1] == "rulespec: interrupted"
    assert "Traceback" not in err
    assert len(cpu) == 3 and _stopped_at_once(cpu), cpu
    assert left == []


@pytest.mark.parametrize("program,seen", [
    ("import time; time.sleep(600)", "no process of the command spent CPU for 2 s"),
    ("while True: pass", "not seen within 4 s")])
def test_the_hang_detector_fails_a_wait_on_an_idle_or_a_spinning_command(
        program, seen, tmp_path, monkeypatch):
    """A wait on a command fails once none of its processes spent CPU for ``HANG`` seconds
    (a load slows CPU down, it does not stop it), or after ``BACKSTOP`` seconds however
    busy it is: a broken command cannot block the suite."""
    import interrupting
    monkeypatch.setattr(interrupting, "HANG", 2.0)
    monkeypatch.setattr(interrupting, "BACKSTOP", 4.0)
    run = Running([sys.executable, "-c", program], tmp_path)
    try:
        with pytest.raises(AssertionError, match=seen):
            run.wait_for(lambda: False, "what never comes")
    finally:
        run.kill()
