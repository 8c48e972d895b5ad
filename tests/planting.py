"""A bundled game's folder copied with one planted change in its spec.py (the tests that
show a checker catches a planted bug): the folder's parts and data come along."""

import shutil
from pathlib import Path

from rulespec.runtime.registry import models_dir


def planted_spec(tmp_path: Path, game: str, old: str, new: str) -> Path:
    """The copied folder's spec.py, with ``old`` (which must be in it exactly once)
    replaced by ``new``; the scenarios are left behind."""
    folder = tmp_path / game
    shutil.copytree(models_dir() / game, folder, ignore=shutil.ignore_patterns("scenarios"))
    path = folder / "spec.py"
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1
    path.write_text(text.replace(old, new), encoding="utf-8")
    return path
