"""Where each field lives in a flat state vector: every backend shares this layout."""

from __future__ import annotations

from typing import Any

import attrs

from ..ir.nodes import BOOL, Field
from ..spec.elements import GameSpec


@attrs.frozen
class Slot:
    """A field's offset and strides in the flat vector."""

    field: Field = attrs.field(eq=False)
    offset: int
    strides: tuple[int, ...]


@attrs.frozen(eq=False)
class Layout:
    """Offsets of all fields; ``size`` cells in all."""

    slots: dict[str, Slot]
    size: int

    @classmethod
    def of(cls, spec: GameSpec) -> "Layout":
        slots: dict[str, Slot] = {}
        off = 0
        for f in spec.fields:
            strides = []
            step = 1
            for d in reversed(f.dims):
                strides.append(step)
                step *= d.size
            slots[f.name] = Slot(f, off, tuple(reversed(strides)))
            off += f.size
        return cls(slots, off)

    def initial_vector(self) -> list[Any]:
        """The flat vector of every field's declared initial value."""
        out: list[Any] = []
        for slot in self.slots.values():
            f = slot.field
            out.extend(_flatten(f.initial, f.size))
        return out

    def nested(self, values: tuple, name: str) -> Any:
        """A field's cells as nested lists (a scalar for a scalar field)."""
        slot = self.slots[name]
        f = slot.field
        flat = [bool(v) if f.type == BOOL else v for v in values[slot.offset:slot.offset + f.size]]
        return _nest(flat, [d.size for d in f.dims])


def _flatten(v: Any, size: int) -> list[Any]:
    if isinstance(v, list):
        out: list[Any] = []
        for x in v:
            out.extend(_flatten(x, size // len(v)))
        return out
    return [v] * size


def _nest(flat: list[Any], dims: list[int]) -> Any:
    if not dims:
        return flat[0]
    if len(dims) == 1:
        return flat
    step = len(flat) // dims[0]
    return [_nest(flat[i * step:(i + 1) * step], dims[1:]) for i in range(dims[0])]
