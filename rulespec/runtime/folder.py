"""A game folder: its spec.py, the parts spec.py imports, its component data, and the one
SHA-256 that names them all (the spec's identity).

A spec file named ``spec.py`` in a folder is a **game folder**: its parts are the other
``.py`` files directly in that folder (``properties.py`` excepted: the game's Python
properties, loaded apart), its data the ``.toml`` and ``.csv`` files directly in it.
:func:`snapshot` reads all of them once; the spec's identity is computed from those bytes
(:func:`identity`), and exactly those bytes run (:class:`Parts` serves the parts spec.py
imports with ``from . import view`` or ``from .readings import ...``; the data reaches
``game.components`` through :func:`rulespec.spec.components.reading`). A spec file of any
other name stands alone: it has no parts and no data files.
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import sys
import types
from pathlib import Path
from typing import Mapping

#: files of a game folder that are no part of its spec
NOT_PARTS = ("properties.py",)
#: the suffixes of a game folder's files the spec may read
SPEC_SUFFIXES = (".py", ".toml", ".csv")


def is_game_folder_spec(path: Path) -> bool:
    """A ``spec.py``: the folder around it is a game folder."""
    return path.name == "spec.py"


def snapshot(path: Path) -> dict[str, bytes]:
    """The bytes of every file the spec at ``path`` may read, by name: the spec file alone,
    or, for a game folder's spec.py, every part and data file directly in the folder."""
    if not is_game_folder_spec(path):
        return {path.name: path.read_bytes()}
    files: dict[str, bytes] = {}
    for p in sorted(path.parent.iterdir()):
        if (p.suffix in SPEC_SUFFIXES and p.name not in NOT_PARTS
                and not p.name.startswith(".") and p.is_file()):
            files[p.name] = p.read_bytes()
    files.setdefault(path.name, path.read_bytes())
    return files


def identity(path: Path, files: Mapping[str, bytes], components: bytes | None = None) -> str:
    """The spec's SHA-256: of the spec file's bytes when it reads nothing else (a trace
    written before game folders had parts keeps its hash), else of a manifest naming each
    file's hash (and the ``--components`` file's, by its bytes)."""
    if set(files) == {path.name} and components is None:
        return hashlib.sha256(files[path.name]).hexdigest()
    lines = ["rulespec game folder"]
    lines += [f"{hashlib.sha256(raw).hexdigest()}  {name}" for name, raw in sorted(files.items())]
    if components is not None:
        lines.append(f"{hashlib.sha256(components).hexdigest()}  --components")
    return hashlib.sha256("\n".join(lines).encode()).hexdigest()


class Parts(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Serves ``PACKAGE.NAME`` from the snapshot's ``NAME.py``: the parts a game folder's
    spec.py imports, run from exactly the bytes its identity hashed. Only while the spec
    loads (:meth:`installed`)."""

    def __init__(self, package: str, folder: Path, files: Mapping[str, bytes]) -> None:
        self.package, self.folder, self.files = package, folder, files

    def find_spec(self, fullname: str, path: object = None, target: object = None
                  ) -> importlib.machinery.ModuleSpec | None:
        prefix = self.package + "."
        if not fullname.startswith(prefix):
            return None
        part = fullname[len(prefix):]
        if "." in part or f"{part}.py" not in self.files or part == "spec":
            return None
        return importlib.util.spec_from_loader(fullname, self,
                                               origin=str(self.folder / f"{part}.py"))

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> None:
        return None

    def exec_module(self, module: types.ModuleType) -> None:
        part = module.__name__.rsplit(".", 1)[1]
        path = self.folder / f"{part}.py"
        module.__file__ = str(path)
        exec(compile(self.files[f"{part}.py"], str(path), "exec"), module.__dict__)  # noqa: S102

    def package_module(self) -> types.ModuleType:
        """The package the spec and its parts sit in (its path is empty: nothing but the
        snapshot can be imported from it)."""
        pkg = types.ModuleType(self.package)
        pkg.__path__ = []
        pkg.__package__ = self.package
        pkg.__file__ = None
        return pkg

    def install(self) -> None:
        sys.meta_path.insert(0, self)
        sys.modules[self.package] = self.package_module()

    def uninstall(self) -> None:
        if self in sys.meta_path:
            sys.meta_path.remove(self)
        for name in [n for n in sys.modules if n == self.package
                     or n.startswith(self.package + ".")]:
            sys.modules.pop(name, None)
