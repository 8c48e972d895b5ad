"""Find and load specs: the bundled games in ``models/`` or a user's spec file or folder."""

from __future__ import annotations

import contextlib
import hashlib
import importlib.util
import os
import sys
import traceback
from pathlib import Path
from typing import Mapping

import attrs

from ..compile.python_backend import compile_python
from ..compile.reuse import functions_reading
from ..ir.errors import SpecError
from ..ir.location import Location
from ..spec.components import check_override_used, reading
from ..spec.elements import GameSpec
from .folder import Parts, identity, is_game_folder_spec, snapshot
from .model import Model

_SPEC_CACHE: dict[str, GameSpec] = {}
_MODEL_CACHE: dict[tuple, Model] = {}
#: where each loaded spec came from, by id (the specs themselves stay in _SPEC_CACHE)
_ORIGINS: dict[int, "SpecOrigin"] = {}


@attrs.frozen
class SpecOrigin:
    """Where a loaded spec came from, so that a trace names exactly that spec.

    ``bundled`` is the game's name when the file is a bundled game's own spec (a copy of it
    elsewhere, even under the same game name, is not bundled); ``sha256`` is the spec's
    identity when it was loaded: the spec file's content hash, or, for a game folder whose
    spec reads other files (parts, component data, a ``--components`` file), the hash of
    all of them (:func:`rulespec.runtime.folder.identity`).
    """

    path: Path
    bundled: str | None
    sha256: str
    #: the ``--components`` file that replaced catalogues of the spec (its bytes are in
    #: ``sha256``), or None
    components: Path | None = None


class SpecChanged(ValueError):
    """A spec's bytes (its file, or its game folder's files) are not those a trace or
    scenario vouched for (by SHA-256)."""


#: spec path -> the --components file every load of it uses unless told otherwise (set by
#: the command line for the whole command, its forked workers included)
_DEFAULT_COMPONENTS: dict[str, Path] = {}


def use_components(name_or_path: str | os.PathLike, components: str | os.PathLike | None
                   ) -> Path | None:
    """From now on, load ``name_or_path`` with the catalogues of ``components`` (the
    ``--components`` option: every load of the command, its workers' too); None: its own.
    A file that cannot be read is a ValueError (one line)."""
    key = str(spec_path(name_or_path))
    if components is None:
        _DEFAULT_COMPONENTS.pop(key, None)
        return None
    path = _components_file(components)
    _DEFAULT_COMPONENTS[key] = path
    return path


def _components_file(components: str | os.PathLike) -> Path:
    text = os.fspath(components)
    try:
        p = Path(text).resolve()
        ok = p.is_file()
    except (OSError, ValueError):
        ok = False
    if not ok:
        raise ValueError(f"--components {_shown(text)}: no such file (give a components "
                         "TOML file: docs/formats/components.md)")
    return p


def origin(spec: GameSpec) -> SpecOrigin | None:
    """Where ``spec`` was loaded from (None for a spec built without the registry)."""
    return _ORIGINS.get(id(spec))


def file_sha256(path: str | os.PathLike) -> str:
    """The SHA-256 of a file's bytes, in hex."""
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def _shown(text: str, limit: int = 80) -> str:
    """A name for an error line: long ones cut, with their length."""
    return repr(text) if len(text) <= limit else f"{text[:limit]!r}... ({len(text)} characters)"


def models_dir() -> Path:
    """The folder of bundled games (shipped with the package as ``models``)."""
    from .. import models
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
    try:
        p = Path(text)
        if p.is_dir() and (p / "spec.py").is_file():
            return (p / "spec.py").resolve()
        if p.is_file() and p.suffix == ".py":
            return p.resolve()
        exists = p.exists()
    except (OSError, ValueError):  # a name too long for a path, a NUL byte...: not a path
        exists = False
    if exists:
        raise ValueError(not_a_spec(p, text))
    known = ", ".join(available_games())
    raise ValueError(f"unknown game {_shown(text)} (bundled: {known}; or give a spec .py "
                     "file or folder)")


def not_a_spec(p: Path, text: str) -> str:
    """Why an existing path is not a spec: a folder without spec.py, a file not ``.py``.
    The path exists, so it is shown whole (a name that is nothing is cut: :func:`_shown`)."""
    text = repr(text)
    if p.is_dir():
        return (f"{text} is a folder without a spec.py: not a spec (give a spec .py "
                "file, a folder holding spec.py, or a bundled game's name)")
    return (f"{text} exists but is not a spec: a spec is a Python file ending in .py "
            "(or a folder holding spec.py)")


def load_spec(name_or_path: str | os.PathLike, *, sha256: str | None = None,
              components: str | os.PathLike | None = None) -> GameSpec:
    """Import a spec module and return its validated ``SPEC`` (errors name file and line).

    With ``sha256``, the spec's files are read and hashed first and run only if they match,
    exactly those bytes (what a trace or scenario vouches for); :class:`SpecChanged`
    otherwise. A game folder's spec.py may import its parts and read its component data:
    all of them are in the hash (:mod:`rulespec.runtime.folder`). ``components``: a TOML
    file whose catalogues replace the spec's own (docs/formats/components.md); its bytes
    are in the hash too. Without it, the file :func:`use_components` set, if any.
    """
    path = spec_path(name_or_path)
    comp = (_components_file(components) if components is not None
            else _DEFAULT_COMPONENTS.get(str(path)))
    key = f"{path}\0{comp or ''}"
    if sha256 is None and key in _SPEC_CACHE:
        return _SPEC_CACHE[key]
    try:
        files = snapshot(path)
        comp_bytes = comp.read_bytes() if comp is not None else None
    except OSError as err:
        if sha256 is not None:
            raise SpecChanged(f"cannot read {path}: {err.strerror or err}") from None
        raise ValueError(f"cannot read {err.filename or path}: {err.strerror or err}") from None
    digest = identity(path, files, comp_bytes)
    if sha256 is not None and digest != sha256:
        raise SpecChanged(f"{path} has changed since (its SHA-256 differs)")
    cached = _SPEC_CACHE.get(key)
    if cached is not None and _ORIGINS[id(cached)].sha256 == digest:
        return cached
    folder = path.parent if is_game_folder_spec(path) else None
    override = (str(comp), comp_bytes) if comp is not None and comp_bytes is not None \
        else None
    with reading(folder, files, override) as r:
        module = import_file(path, "spec", files[path.name],
                             parts=files if folder is not None else None)
        spec = getattr(module, "SPEC", None)
        if not isinstance(spec, GameSpec):
            raise SpecError("a spec module must end with SPEC = game.build()",
                            element=f"module {path.name}", where=Location(_rel(str(path)), 1))
        check_override_used(r)
    _SPEC_CACHE[key] = spec
    bundled = path.parent.name if path.parent.parent == models_dir() else None
    _ORIGINS[id(spec)] = SpecOrigin(path, bundled, digest, comp)
    return spec


def import_file(path: Path, kind: str, source: bytes | None = None,
                parts: Mapping[str, bytes] | None = None) -> object:
    """Run a spec's Python file as a module (``source``: exactly these bytes of it);
    whatever it raises (an exit too) becomes a :class:`SpecError` naming the file and line.
    Its prints go to stderr (stdout may be a ``--json`` document). ``parts``: the game
    folder's files by name; the module is then ``spec`` of a package its parts are
    imported from (``from . import view``), served from these bytes only."""
    if parts is not None:
        package = f"_rulespec_game_{abs(hash(str(path.parent)))}"
        mod_name = f"{package}.{path.stem}"
        finder: Parts | None = Parts(package, path.parent, parts)
    else:
        mod_name, finder = f"_rulespec_{kind}_{abs(hash(str(path)))}", None
    loader_spec = importlib.util.spec_from_file_location(mod_name, path)
    assert loader_spec and loader_spec.loader
    module = importlib.util.module_from_spec(loader_spec)
    sys.modules[mod_name] = module
    if finder is not None:
        finder.install()
        sys.modules[mod_name] = module
        module.__package__ = finder.package
    ours = {str(path)} | {str(path.parent / n) for n in parts or ()}
    try:
        with contextlib.redirect_stdout(sys.stderr):
            if source is None:
                loader_spec.loader.exec_module(module)
            else:
                exec(compile(source, str(path), "exec"), module.__dict__)  # noqa: S102
    except (SpecError, KeyboardInterrupt):
        raise
    except SyntaxError as err:  # the file (or one it imports) does not parse
        where = Location(_rel(err.filename or str(path)), err.lineno or 1)
        raise SpecError(f"SyntaxError: {err.msg}", where=where) from None
    except ModuleNotFoundError as err:
        if finder is None or not (err.name or "").startswith(finder.package + "."):
            raise _spec_failed(path, err, ours) from None
        part = (err.name or "").split(".", 1)[1]   # the name, never the package made for it
        failed = _spec_failed(path, err, ours)
        raise SpecError(f"imports {part}, which is no file of its game folder ({part}.py)",
                        element=failed.element, where=failed.where) from None
    except BaseException as err:  # noqa: BLE001 - whatever a spec raises (sys.exit too)
        raise _spec_failed(path, err, ours) from None
    finally:
        sys.modules.pop(mod_name, None)
        if finder is not None:
            finder.uninstall()
    return module


def _spec_failed(path: Path, err: BaseException, ours: set[str] | None = None) -> SpecError:
    """A Python error (or exit) while running a spec file, pointing at the spec line (or
    the line of the game folder's part that raised it)."""
    ours = ours or {str(path)}
    frames = [f for f in traceback.extract_tb(err.__traceback__)
              if os.path.abspath(f.filename) in ours]
    at = os.path.abspath(frames[-1].filename) if frames else str(path)
    where = Location(_rel(at), (frames[-1].lineno or 1) if frames else 1)
    line = (frames[-1].line or "").strip() if frames else ""
    if isinstance(err, SystemExit):
        problem = f"the spec called exit({err.code!r}) while loading; a spec only describes a game"
    else:
        text = " ".join(str(err).split())
        problem = f"{type(err).__name__}: {text[:300]}" if text else type(err).__name__
    return SpecError(problem, element=line or None, where=where)


def load(name_or_path: str | os.PathLike, interpretation: Mapping[str, str] | str | None = None,
         ruleset: str | None = None, *, sha256: str | None = None,
         backend: str = "python", components: str | os.PathLike | None = None) -> Model:
    """Load a game (bundled name or spec path) compiled under an interpretation.

    ``interpretation`` is None for the rulebook's defaults, a mapping ``{point: option}``, or
    a string ``"point=option,..."``. ``ruleset`` names a bundle of options the spec declares
    (``rulespec.load("hawaii", ruleset="bga")``); ``interpretation`` may add points it leaves
    open, and a point it fixes to another option is a ValueError. ``sha256``: run the spec
    only if its files' bytes have this hash (:func:`load_spec`). ``components``: a TOML file
    whose catalogues replace the spec's own (the same rules with another list of cards;
    docs/formats/components.md).

    ``backend="c"``: the model plays step by step on the spec compiled to C (the same
    answers, states and errors; docs/architecture.md, "The C backend"), or on the Python
    backend, with one line on stderr, where no C compiler is found. The commands that play
    whole games play them in C whichever backend the model steps on.
    """
    spec = load_spec(name_or_path, sha256=sha256, components=components)
    from .model import resolve_interpretation
    chosen = resolve_interpretation(spec, interpretation, ruleset)
    found = origin(spec)
    key = (f"{spec_path(name_or_path)}\0{found.components if found and found.components else ''}",
           tuple(sorted(chosen.items())))
    model = _MODEL_CACHE.get(key)
    if model is None or model.spec is not spec:
        model = _MODEL_CACHE[key] = _compile(spec, chosen, key[0])
    if backend == "python":
        return model
    from .native import native_model
    return native_model(model, backend)


def _compile(spec: GameSpec, chosen: dict[str, str], path: str) -> Model:
    """The spec under ``chosen``; from the closest reading already compiled when there is
    one: only the functions that read a point the two set differently are generated."""
    best = None
    for (p, items), other in _MODEL_CACHE.items():
        if p != path or other.spec is not spec:
            continue
        differ = [k for k, v in items if chosen[k] != v]
        if best is None or len(differ) < len(best[1]):
            best = (other, differ)
    only = None if best is None else functions_reading(spec, best[1])
    if best is None or only is None:
        return Model(spec, chosen)
    return Model(spec, chosen, compile_python(spec, chosen, like=best[0].compiled, only=only))


def _rel(path: str) -> str:
    rel = os.path.relpath(path)
    return path if rel.startswith("..") else rel
