"""The commands where play is the cost give, on the C backend, the output the Python
backend gives for one seed -- every byte of ``--json`` -- and the C build cache can be
filled by two builders at once (two pytest-xdist workers, two threads) without either
seeing a partial library."""

from __future__ import annotations

import os
import threading

import pytest

import rulespec
from rulespec.cli import main
from rulespec.compile.native import build as B
from rulespec.runtime.native import native_for


def _run(capsys, *argv: str) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as done:
        main(list(argv))
    cap = capsys.readouterr()
    return done.value.code, cap.out, cap.err


def _on_both(capsys, *argv: str) -> str:
    """The command's stdout on each backend: asserted equal; C must really be in use."""
    outs = []
    for backend in ("c", "python"):
        code, out, err = _run(capsys, *argv, "--backend", backend, "--json", "--quiet")
        assert code in (0, 1), err
        assert err.strip() == ""   # no fallback note: C was built and used
        outs.append(out)
    assert outs[0] == outs[1]
    return outs[0]


def test_check_random_json_is_the_same_on_both_backends(capsys, tmp_path):
    assert native_for(rulespec.load("connect_four")) is not None
    out = _on_both(capsys, "check", "connect_four", "--random", "--examples", "60",
                   "--seed", "3", "--trace-dir", str(tmp_path))
    assert '"games": 60' in out and '"PASSED"' in out


def test_check_random_finds_the_same_planted_bug_on_both_backends(capsys, tmp_path):
    out = _on_both(capsys, "check", "tests/fixtures/occupied_cell_tic_tac_toe", "--random",
                   "--examples", "50", "--trace-dir", str(tmp_path))
    assert '"VIOLATED"' in out


@pytest.mark.parametrize("argv", [
    ("crazy_eights", "--interpretation", "penalty=face_value", "--against",
     "penalty=openspiel_code", "--games", "40"),
    ("hex", "--interpretation", "board_size=3", "--against", "board_size=4", "--games", "30",
     "--policy", "greedy"),
])
def test_diff_games_json_is_the_same_on_both_backends(capsys, tmp_path, argv):
    out = _on_both(capsys, "diff", *argv, "--seed", "2", "--out-dir", str(tmp_path))
    assert '"winner_changed"' in out


def test_two_builders_of_one_module_at_once_both_get_a_whole_library(tmp_path, monkeypatch):
    """Both builders compile, then both wait until the other has staged its copy before
    renaming it into place: with one staging name per process this failed (the second
    rename found its file gone)."""
    monkeypatch.setenv("RULESPEC_CACHE", str(tmp_path))
    source = "int rs_two_builders(void) { return 42; }\n"
    both_staged = threading.Barrier(2, timeout=120)
    real_replace = os.replace

    def replace(src, dst):
        if str(dst).endswith(".so") and "two_builders" in str(dst):
            both_staged.wait()
        return real_replace(src, dst)
    monkeypatch.setattr(B.os, "replace", replace)
    got: list = []

    def builder():
        try:
            got.append(B.build(source, "two_builders"))
        except BaseException as err:  # noqa: BLE001 - the assertion below names it
            got.append(err)
    threads = [threading.Thread(target=builder) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(got) == 2 and got[0] == got[1], got
    folder = B.cache_dir()
    assert [p.name for p in folder.iterdir()] == [got[0].name]   # nothing staged is left
    assert got[0].read_bytes()[:4] == b"\x7fELF"
    assert B.ffi().dlopen(str(got[0])) is not None   # loads
