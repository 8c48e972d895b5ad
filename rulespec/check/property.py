"""Properties: what is checked, where the rule comes from, and how each checker runs it.

A property is one of three kinds, each a function returning ``None`` when it holds or a
message saying what went wrong:

- ``state``: ``check(model, state)``, on every reached state;
- ``step``: ``check(model, before, action, after)``, on every transition;
- ``end``: ``check(model, state, steps)``, on the last state of a playout.

Properties from the spec itself (invariants, conservation laws) are IR and can also be
proved by Z3; properties written in Python are tagged ``python_only``.
"""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import Any, Callable

import attrs

from ..ir.errors import SpecError
from ..ir.location import Location
from ..runtime.model import Model, State

STATE, STEP, END = "state", "step", "end"


@attrs.frozen
class Property:
    """A named, sourced assertion about a game, checked by playouts and Hypothesis."""

    name: str
    doc: str
    source: str
    kind: str
    check: Callable[..., str | None] = attrs.field(eq=False, repr=False)
    python_only: bool = True
    #: a property the rules should make false: a checker that cannot violate it is broken
    witness: bool = False
    #: ``skip(model)``: why this property does not apply to a game (then it is SKIPPED)
    skip: Callable[[Model], str | None] | None = attrs.field(default=None, eq=False,
                                                             repr=False)
    #: what a Python property reads, for the assumptions its verdicts rest on
    #: (``rulespec.check.depends``): field names and the words ``fields`` (all of them),
    #: ``legal_actions``,
    #: ``effects``, ``scoring``, ``tie_breaks``, ``terminal``, ``current_player``,
    #: ``chance``; None: it may read anything
    reads: tuple[str, ...] | None = None

    def __attrs_post_init__(self) -> None:
        if self.kind not in (STATE, STEP, END):
            raise ValueError(f"property {self.name}: kind must be state, step or end")
        if not self.source:
            raise ValueError(f"property {self.name}: a property needs a source")


Skip = Callable[[Model], "str | None"]


def state_property(name: str, *, source: str, python_only: bool = True, skip: Skip | None = None,
                   reads: tuple[str, ...] | None = None
                   ) -> Callable[[Callable[[Model, State], str | None]], Property]:
    """Decorate ``def f(model, state) -> message | None``; ``reads``: what it reads
    (:attr:`Property.reads`)."""
    def deco(fn: Callable[[Model, State], str | None]) -> Property:
        return Property(name, (fn.__doc__ or "").strip(), source, STATE, fn, python_only,
                        skip=skip, reads=reads)
    return deco


def step_property(name: str, *, source: str, python_only: bool = True, skip: Skip | None = None,
                  reads: tuple[str, ...] | None = None
                  ) -> Callable[[Callable[..., str | None]], Property]:
    """Decorate ``def f(model, before, action, after) -> message | None``; ``reads``: what it
    reads (:attr:`Property.reads`)."""
    def deco(fn: Callable[..., str | None]) -> Property:
        return Property(name, (fn.__doc__ or "").strip(), source, STEP, fn, python_only,
                        skip=skip, reads=reads)
    return deco


def end_property(name: str, *, source: str, python_only: bool = True, skip: Skip | None = None,
                 reads: tuple[str, ...] | None = None
                 ) -> Callable[[Callable[..., str | None]], Property]:
    """Decorate ``def f(model, last_state, steps) -> message | None``; ``reads``: what it
    reads (:attr:`Property.reads`)."""
    def deco(fn: Callable[..., str | None]) -> Property:
        return Property(name, (fn.__doc__ or "").strip(), source, END, fn, python_only,
                        skip=skip, reads=reads)
    return deco


def skip_reason(model: Model, prop: Property) -> str | None:
    """Why ``prop`` is not checked on this game (the spec waives it, or it does not apply),
    or None."""
    waived = model.spec.waivers.get(prop.name)
    if waived is not None:
        return f"waived by the spec: {waived}"
    return prop.skip(model) if prop.skip is not None else None


def spec_properties(model: Model) -> list[Property]:
    """One property per declared invariant and conservation law of the spec."""
    out: list[Property] = []
    spec = model.spec
    for k, inv in enumerate(spec.invariants):
        fn = model.compiled.invariants[k]

        def check_inv(m: Model, s: State, fn: Any = fn, inv: Any = inv) -> str | None:
            return None if fn(s.values) else f"invariant {inv.name} is false"
        out.append(Property(inv.name, inv.doc or f"invariant {inv.name}", inv.source or "",
                            STATE, check_inv, python_only=False))
    for k, law in enumerate(spec.conservation):
        fn = model.compiled.conserved[k]

        def check_law(m: Model, before: State, a: Any, after: State, fn: Any = fn,
                      law: Any = law) -> str | None:
            b, c = fn(before.values), fn(after.values)
            if b != c:
                return f"{law.name}: total was {b} before {a}, {c} after"
            return None
        out.append(Property(law.name, law.doc or f"conservation {law.name}", law.source or "",
                            STEP, check_law, python_only=False))
    return out


def game_properties(model: Model) -> list[Property]:
    """The game's own Python properties (its ``PROPERTIES`` list): from ``properties.py``
    beside a ``spec.py`` loaded from a path, else from the bundled
    ``rulespec.properties.<game>`` module, if any."""
    from ..runtime.registry import origin
    found = origin(model.spec)
    beside = found.path.parent / "properties.py" if found and found.bundled is None else None
    if beside is not None and found is not None and found.path.name == "spec.py" \
            and beside.is_file():
        return _load_properties_file(beside)
    try:
        mod = importlib.import_module(f"rulespec.properties.{model.name}")
    except ModuleNotFoundError as err:
        if err.name == f"rulespec.properties.{model.name}":
            return []
        raise
    return list(getattr(mod, "PROPERTIES", []))


def _load_properties_file(path: Path) -> list[Property]:
    """Import a spec folder's ``properties.py`` (errors name its file and line)."""
    from ..runtime.registry import import_file
    if str(path) in _FILE_PROPERTIES:
        return list(_FILE_PROPERTIES[str(path)])
    module = import_file(path, "properties")
    props = getattr(module, "PROPERTIES", None)
    if not isinstance(props, (list, tuple)) or not all(isinstance(p, Property) for p in props):
        raise SpecError("a properties.py must end with PROPERTIES = [...] (properties made "
                        "with state_property, step_property or end_property)",
                        element=f"module {path.name}", where=Location(str(path), 1))
    _FILE_PROPERTIES[str(path)] = list(props)
    return list(props)


#: a spec folder's properties.py, imported once per process
_FILE_PROPERTIES: dict[str, list[Property]] = {}


def all_properties(model: Model) -> list[Property]:
    """Generic properties, then the spec's own, then the game's extra ones.

    Called once per check: a property that remembers what it saw across games (the
    observation property) starts empty each time.
    """
    from ..properties.generic import generic_properties
    props = [*generic_properties(), *spec_properties(model), *game_properties(model)]
    seen: set[str] = set()
    for p in props:
        if p.name in seen:
            raise ValueError(f"two properties are named {p.name!r}")
        seen.add(p.name)
    unknown = sorted(set(model.spec.waivers) - seen)
    if unknown:
        raise ValueError(f"{model.name} waives unknown propert{'y' if len(unknown) == 1 else 'ies'}"
                         f" {', '.join(map(repr, unknown))}")
    return props
