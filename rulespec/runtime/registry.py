"""Find and load specs: the bundled games in ``models/`` or a user's spec file or folder."""

from __future__ import annotations

import importlib.util
import os
import sys
import traceback
from pathlib import Path
from typing import Mapping

from ..ir.errors import SpecError
from ..ir.location import Location
from ..spec.elements import GameSpec
from .model import Model

_SPEC_CACHE: dict[str, GameSpec] = {}
_MODEL_CACHE: dict[tuple, Model] = {}


def models_dir() -> Path:
    """The folder of bundled games (shipped with the package as ``models``)."""
    import models
    return Path(models.__file__).resolve().parent


def available_games() -> list[str]:
    """Names of the bundled games, sorted."""
    root = models_dir()
    return sorted(p.name for p in root.iterdir() if (p / "spec.py").is_file())


def spec_path(name_or_path: str | os.PathLike) -> Path:
    """The spec file for a bundled game name, a spec folder, or a spec ``.py`` file."""
    text = os.fspath(name_or_path)
    if text in available_games():
        return models_dir() / text / "spec.py"
    p = Path(text)
    if p.is_dir() and (p / "spec.py").is_file():
        return (p / "spec.py").resolve()
    if p.is_file() and p.suffix == ".py":
        return p.resolve()
    known = ", ".join(available_games())
    raise ValueError(f"unknown game {text!r} (bundled: {known}; or give a spec .py file or folder)")


def load_spec(name_or_path: str | os.PathLike) -> GameSpec:
    """Import a spec module and return its validated ``SPEC`` (errors name file and line)."""
    path = spec_path(name_or_path)
    key = str(path)
    if key in _SPEC_CACHE:
        return _SPEC_CACHE[key]
    mod_name = f"_rulespec_spec_{abs(hash(key))}"
    loader_spec = importlib.util.spec_from_file_location(mod_name, path)
    assert loader_spec and loader_spec.loader
    module = importlib.util.module_from_spec(loader_spec)
    sys.modules[mod_name] = module
    try:
        loader_spec.loader.exec_module(module)
    except SpecError:
        raise
    except Exception as err:  # a Python error in a spec file: point at the spec line
        frames = [f for f in traceback.extract_tb(err.__traceback__)
                  if os.path.abspath(f.filename) == str(path)]
        where = Location(_rel(str(path)), frames[-1].lineno or 0) if frames else Location(
            _rel(str(path)), 0)
        line = (frames[-1].line or "").strip() if frames else ""
        raise SpecError(f"{type(err).__name__}: {err}", element=line or None,
                        where=where) from None
    finally:
        sys.modules.pop(mod_name, None)
    spec = getattr(module, "SPEC", None)
    if not isinstance(spec, GameSpec):
        raise SpecError("a spec module must end with SPEC = game.build()",
                        element=f"module {path.name}", where=Location(_rel(str(path)), 1))
    _SPEC_CACHE[key] = spec
    return spec


def load(name_or_path: str | os.PathLike, interpretation: Mapping[str, str] | str | None = None,
         ruleset: str | None = None) -> Model:
    """Load a game (bundled name or spec path) compiled under an interpretation.

    ``interpretation`` is None for the rulebook's defaults, a mapping ``{point: option}``, or
    a string ``"point=option,..."``. ``ruleset`` names a bundle of options the spec declares
    (``rulespec.load("hawaii", ruleset="bga")``); ``interpretation`` may add points it leaves
    open, and a point it fixes to another option is a ValueError.
    """
    spec = load_spec(name_or_path)
    from .model import resolve_interpretation
    chosen = resolve_interpretation(spec, interpretation, ruleset)
    key = (str(spec_path(name_or_path)), tuple(sorted(chosen.items())))
    model = _MODEL_CACHE.get(key)
    if model is None:
        model = Model(spec, chosen)
        _MODEL_CACHE[key] = model
    return model


def _rel(path: str) -> str:
    rel = os.path.relpath(path)
    return path if rel.startswith("..") else rel
