"""Ctrl-C on a running ``rulespec prove``: exit 130 at once, no worker left behind.

A terminal sends SIGINT to the whole process group; ``kill -INT`` reaches the parent only.
Both must stop the run (Z3 used to catch the signal inside a query and carry on).
"""

import contextlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

#: how long the exit may take after SIGINT (measured: under 1 s, also on a loaded machine)
PROMPT = 3.0


def _children(pid):
    out = subprocess.run(["ps", "-o", "pid=", "--ppid", str(pid)], capture_output=True,
                         text=True).stdout
    return [int(x) for x in out.split()]


def _alive(pid):
    try:
        state = Path(f"/proc/{pid}/stat").read_text().split()[2]
    except OSError:
        return False
    return state != "Z"


def _interrupt(tmp_path, to_group, workers):
    rulespec = Path(sys.executable).with_name("rulespec")
    p = subprocess.Popen([str(rulespec), "prove", "hawaii", "-q", "--workers", str(workers),
                          "--trace-dir", str(tmp_path)], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        deadline = time.monotonic() + 60
        while len(_children(p.pid)) < workers and time.monotonic() < deadline:
            time.sleep(0.2)  # wait until the workers solve
        workers_seen = _children(p.pid)
        assert len(workers_seen) >= workers, "the workers never started"
        time.sleep(1.0)
        assert p.poll() is None, "prove hawaii ended before it could be interrupted"
        sent = time.monotonic()
        if to_group:
            os.killpg(p.pid, signal.SIGINT)
        else:
            os.kill(p.pid, signal.SIGINT)
        out, err = p.communicate(timeout=30)
        took = time.monotonic() - sent
    finally:
        if p.poll() is None:
            os.killpg(p.pid, signal.SIGKILL)
            p.wait()
    time.sleep(0.5)
    return p.returncode, took, err, [w for w in workers_seen if _alive(w)]


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
@pytest.mark.parametrize("to_group,workers", [(True, 2), (False, 2), (False, 1)])
def test_ctrl_c_stops_prove_at_once_and_leaves_no_worker(tmp_path, to_group, workers):
    code, took, err, left = _interrupt(tmp_path, to_group, workers)
    assert code == 130, err
    assert took < PROMPT
    assert "Traceback" not in err
    assert left == []


def test_ctrl_c_within_a_proof_in_this_process_is_raised_not_lost():
    # Python would raise it inside whatever runs (often one of z3py's finalizers, where it
    # is printed and dropped); interruptible() keeps it for the next query instead
    import z3

    from rulespec.check.solvers import check, interruptible, limited, simple_solver
    # the case under test is Ctrl-C with Python's usual handler: another test of the same
    # run may have left its own (the whole suite failed here once, the file alone never)
    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    with pytest.raises(KeyboardInterrupt), contextlib.ExitStack() as restore:
        restore.callback(signal.signal, signal.SIGINT,
                         signal.default_int_handler if before is None else before)
        with interruptible():
            os.kill(os.getpid(), signal.SIGINT)
            x = z3.Int("x")
            for _ in range(100):
                del x  # finalizers run: the signal must survive them
                x = z3.Int("x")
            solver = limited(simple_solver(), 10_000)
            solver.add(x > 0)
            check(solver)  # raises here
            pytest.fail("the interrupt was lost")
