"""Run a benchmark's runner on another git revision of rulespec, interleaved with this tree's.

A worker process imports ``rulespec`` (and the bundled games) from a copy of that revision
(``git archive``) and runs the *same* benchmark script's runner there, one time slice at a
time, on request: so the bench code is identical, only the library differs, and the slices
alternate with this tree's runners as the in-process ones do.

The script must accept ``--serve LABEL`` (build that runner, print its first outcomes as a
JSON line, then answer each line ``SECONDS`` with a JSON line ``[games, steps, elapsed]``).
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path
from typing import Any

_TREES: dict[str, Path] = {}
_KEEP: list[tempfile.TemporaryDirectory] = []   # removed when Python exits


def checkout(rev: str) -> Path:
    """A temporary copy of the repository's files at ``rev`` (removed when Python exits)."""
    if rev not in _TREES:
        repo = Path(__file__).resolve().parent.parent
        tar = subprocess.run(["git", "-C", str(repo), "archive", "--format=tar", rev],
                             capture_output=True, check=False)
        if tar.returncode != 0:
            raise ValueError(f"git archive {rev}: {tar.stderr.decode(errors='replace').strip()}")
        tmp = tempfile.TemporaryDirectory(prefix="rulespec-versus-")
        with tarfile.open(fileobj=io.BytesIO(tar.stdout)) as t:
            t.extractall(tmp.name, filter="data")
        root = Path(tmp.name)
        for folder in ("models", "properties"):   # installed as rulespec.<folder> (setup.py)
            inside = root / "rulespec" / folder
            if (root / folder).is_dir() and not inside.exists():
                inside.symlink_to(root / folder, target_is_directory=True)
        _KEEP.append(tmp)
        _TREES[rev] = Path(tmp.name)
    return _TREES[rev]


class Remote:
    """``script``'s runner ``label`` in a worker using rulespec at ``rev``."""

    def __init__(self, rev: str, script: str, label: str, extra: list[str]) -> None:
        tree = checkout(rev)
        env = dict(os.environ, PYTHONPATH=str(tree))
        self.proc = subprocess.Popen([sys.executable, script, "--serve", label, *extra],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env,
                                     text=True, bufsize=1)
        self.first: Any = self._read()

    def _read(self) -> Any:
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError(f"the worker stopped (exit {self.proc.wait()})")
        return json.loads(line)

    def measure(self, seconds: float) -> tuple[int, int, float]:
        assert self.proc.stdin is not None
        self.proc.stdin.write(f"{seconds}\n")
        games, steps, elapsed = self._read()
        return games, steps, elapsed

    def close(self) -> None:
        if self.proc.stdin is not None:
            self.proc.stdin.close()
        self.proc.wait(timeout=30)


def serve(first: Any, measure: Any) -> int:
    """The worker's side: print ``first``, then answer each ``SECONDS`` line."""
    print(json.dumps(first), flush=True)
    for line in sys.stdin:
        print(json.dumps(list(measure(float(line)))), flush=True)
    return 0
