"""What a verdict reads, as hashes: the IR of a spec in parts, and the tools' versions.

A spec splits into its *actions* and the *rest* (fields, enums, constants, tables, the
setup, whose move it is, the end, chance, scoring, tie-breaks, invariants, laws,
conservation laws, interpretation points, rulesets...). Each part's hash is a Merkle hash
of its IR, with the line and column each element was written on (the dead-rule verdicts
name branches by line) but not the file's path. A verdict that reads some actions is
keyed by the rest and those actions (:meth:`SpecPrint.of_actions`); one that may read
anything, by every part and the spec's files (:meth:`SpecPrint.whole`).

>>> import rulespec
>>> p = SpecPrint.of(rulespec.load("tic_tac_toe").spec)
>>> p.of_actions(["mark"]) == p.of_actions([0]), p.of_actions([]) != p.of_actions([0])
(True, True)
"""

from __future__ import annotations

import functools
import hashlib
import json
import platform
import sys
import weakref
from pathlib import Path
from typing import Any, Iterable, Mapping

import attrs

from ..ir.location import Location
from ..ir.nodes import Enum, Expr, Named, Type
from ..spec.elements import GameSpec

#: attributes that say where a copy of the data sits, not what it is: a copy of a game
#: folder elsewhere is the same rules and the same data (its bytes are in the value)
_WHERE_IT_IS = {("Components", "file")}
#: GameSpec attributes not part of "the rest": the actions (hashed one by one) and where
#: the file is (a copy of a spec elsewhere is the same IR)
_NOT_REST = ("actions", "file")


def _digest(parts: Any) -> str:
    return hashlib.sha256(json.dumps(parts, sort_keys=True, default=str).encode()).hexdigest()


class _Hasher:
    """Merkle hashes of IR objects, each object hashed once (by identity)."""

    def __init__(self, shared: dict[int, str] | None = None) -> None:
        #: hashes of what holds no bound variable (the same in any part): may be shared
        self._memo: dict[int, str] = {} if shared is None else shared
        #: hashes of what holds one (they depend on this part's numbering)
        self._local: dict[int, str] = {}
        self._keep: list[Any] = []  # the objects memoised: their ids stay theirs
        #: a bound variable's name, numbered in the order it is met in this part: the
        #: spec's own numbers come from a counter of every spec the process loaded
        self._vars: dict[str, str] = {}
        self._used = False  # the object being hashed holds a bound variable

    def of(self, x: Any) -> str:
        if x is None or isinstance(x, (bool, str, float)):
            return _digest(["v", type(x).__name__, x])
        if isinstance(x, int):
            printed = getattr(x, "printed", None) if isinstance(x, Named) else None
            return _digest(["i", int(x), str(printed) if printed else None])
        key = id(x)
        if key in self._memo:
            return self._memo[key]
        if key in self._local:
            self._used = True
            return self._local[key]
        outer, self._used = self._used, False
        self._local[key] = "cycle"  # a reference back to an object being hashed
        out = _digest(self._parts(x))
        del self._local[key]
        (self._local if self._used else self._memo)[key] = out
        self._keep.append(x)
        self._used = outer or self._used
        return out

    def _parts(self, x: Any) -> Any:
        if isinstance(x, Expr):
            args = list(x.args)
            if x.op == "var" and args and isinstance(args[0], str):
                args[0] = self._vars.setdefault(args[0], f"var#{len(self._vars)}")
                self._used = True
            return ["E", x.op, [self.of(a) for a in args], self.of(x.type), self.of(x.where),
                    self.of(x.label), self.of(x.name), self.of(x.assumed)]
        if isinstance(x, Type):
            return ["T", x.kind, x.enum.name if x.enum is not None else None]
        if isinstance(x, Enum):
            return ["Enum", x.name, list(x.members), dict(x.docs), x.source, self.of(x.where)]
        if isinstance(x, Location):
            return ["L", x.line, x.column]
        if isinstance(x, (tuple, list)):
            return [type(x).__name__, [self.of(a) for a in x]]
        if isinstance(x, (set, frozenset)):
            return ["set", sorted(self.of(a) for a in x)]
        if isinstance(x, dict):
            return ["dict", sorted([self.of(k), self.of(v)] for k, v in x.items())]
        if isinstance(x, range):
            return ["range", x.start, x.stop, x.step]
        if callable(x) and hasattr(x, "__code__"):  # a function in a spec (a view's helper)
            return ["fn", x.__module__, x.__qualname__, _code(x.__code__)]
        if attrs.has(type(x)):
            kind = type(x).__qualname__
            return [kind, [[a.name, self.of(getattr(x, a.name))] for a in attrs.fields(type(x))
                           if (kind, a.name) not in _WHERE_IT_IS]]
        state = x.__getstate__() if hasattr(x, "__dict__") else None  # a class's own data
        if not isinstance(state, dict):
            slots = [s for c in type(x).__mro__ for s in getattr(c, "__slots__", ())]
            state = {s: getattr(x, s) for s in slots if hasattr(x, s)}
        if not state:
            return ["repr", type(x).__qualname__, repr(x)]
        return [type(x).__qualname__, sorted([k, self.of(v)] for k, v in state.items())]


def _code(code: Any) -> str:
    consts = [(_code(c) if hasattr(c, "co_code") else repr(c)) for c in code.co_consts]
    return _digest([code.co_code.hex(), consts, list(code.co_names)])


class SpecPrint:
    """The hashes of one spec's parts (the rest, and each action by its position); the
    keys below add the interpretation (the points a reading sets: the rest are defaults)."""

    def __init__(self, spec: GameSpec) -> None:
        self.spec = spec
        # each part numbers its variables itself: a part's hash is a function of that part
        # alone; what holds no variable is hashed once for all of them
        shared: dict[int, str] = {}
        h = _Hasher(shared)
        self.rest = _digest([[a.name, h.of(getattr(spec, a.name))]
                             for a in attrs.fields(GameSpec) if a.name not in _NOT_REST])
        self.actions = [_Hasher(shared).of(a) for a in spec.actions]
        self._names = {a.name: i for i, a in enumerate(spec.actions)}

    @staticmethod
    def of(spec: GameSpec) -> "SpecPrint":
        """The spec's hashes, computed once per spec object."""
        found = _PRINTS.get(spec)
        if found is None:
            found = _PRINTS[spec] = SpecPrint(spec)
        return found

    def of_actions(self, actions: Iterable[int | str],
                   interpretation: Mapping[str, str] | None = None) -> str:
        """The key of what reads the rest of the spec and these actions (by index or name)."""
        idx = sorted({a if isinstance(a, int) else self._names[a] for a in actions})
        return _digest(["slice", self.rest, _reading(self.spec, interpretation),
                        [[i, self.actions[i]] for i in idx]])

    def whole(self, interpretation: Mapping[str, str] | None = None) -> str:
        """The key of what may read any of the spec: every part, the spec's own files (as
        the registry names them) and the Python properties."""
        from ..runtime.registry import origin
        found = origin(self.spec)
        return _digest(["whole", self.of_actions(range(len(self.actions)), interpretation),
                        found.sha256 if found is not None else None, properties_hash()])


_PRINTS: "weakref.WeakKeyDictionary[GameSpec, SpecPrint]" = weakref.WeakKeyDictionary()


def _reading(spec: GameSpec, interpretation: Mapping[str, str] | None) -> dict[str, str]:
    """Every point's option in force (a point left out: its default), so that naming a
    default and leaving it out give one key."""
    chosen = {p.name: p.default for p in spec.interpretations}
    chosen.update(interpretation or {})
    return dict(sorted(chosen.items()))


@functools.lru_cache(maxsize=1)
def properties_hash() -> str:
    """The Python properties' source (``properties/``): they read what the IR cannot see."""
    from .. import properties
    return _files_hash(Path(properties.__file__).resolve().parent, ())


@functools.lru_cache(maxsize=1)
def versions() -> dict[str, str]:
    """rulespec's version and the hash of its own code (a change to a checker changes what
    it answers: a development copy has one version string for many codes), Z3's and
    Python's."""
    import z3

    from .. import __version__
    package = Path(__file__).resolve().parents[1]
    return {"rulespec": __version__, "code": _files_hash(package, ("models", "properties")),
            "z3": z3.get_version_string(), "python": platform.python_version(),
            "implementation": sys.implementation.name}


def _files_hash(root: Path, skip: tuple[str, ...]) -> str:
    h = hashlib.sha256()
    for p in sorted(root.rglob("*")):
        rel = p.relative_to(root)
        if (not p.is_file() or rel.parts[0] in skip or "__pycache__" in rel.parts
                or p.suffix not in (".py", ".c", ".h", ".json", ".j2", ".html", ".css", ".js")):
            continue
        h.update(str(rel).encode() + b"\0" + p.read_bytes() + b"\0")
    return h.hexdigest()
