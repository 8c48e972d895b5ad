"""Fields to and from JSON values: enum members by name, arrays as nested lists.

One codec per field, built once per model, so that a state's JSON round trip (checked on
every reached state) costs a slice and a few list operations per field.
"""

from __future__ import annotations

from typing import Any

from ..compile.layout import Slot
from ..ir.nodes import BOOL, int_span


class FieldCodec:
    """Encode/decode one field's cells of the flat state vector."""

    __slots__ = ("name", "offset", "size", "dims", "kind", "lo", "hi", "names", "index",
                 "enum_name", "span")

    def __init__(self, slot: Slot) -> None:
        f = slot.field
        self.name = f.name
        self.offset = slot.offset
        self.size = f.size
        self.dims = [d.size for d in f.dims]
        self.kind = "enum" if f.type.enum is not None else ("bool" if f.type == BOOL else "int")
        self.lo, self.hi = f.lo, f.hi
        self.names = f.type.enum.members if f.type.enum is not None else ()
        self.enum_name = f.type.enum.name if f.type.enum is not None else ""
        self.index = {n: i for i, n in enumerate(self.names)}
        self.span = int_span(self.lo, self.hi)

    def within(self, low: int, high: int) -> bool:
        """Values from ``low`` to ``high`` are inside the field's bounds."""
        return self.lo <= low and (self.hi is None or high <= self.hi)

    def encode(self, values: tuple) -> Any:
        flat = values[self.offset:self.offset + self.size]
        if self.kind == "enum":
            names = self.names
            out: list[Any] = [names[v] for v in flat]
        elif self.kind == "bool":
            out = [bool(v) for v in flat]
        else:
            out = list(flat)
        if not self.dims:
            return out[0]
        for d in reversed(self.dims[1:]):
            out = [out[i:i + d] for i in range(0, len(out), d)]
        return out

    def decode(self, value: Any) -> list[Any]:
        """The field's flat cells; raises ValueError naming the field and the problem."""
        level = [value]
        for d in self.dims:
            nxt: list[Any] = []
            for x in level:
                if type(x) is not list or len(x) != d:
                    raise ValueError(f"field {self.name!r}: expected a list of {d}")
                nxt.extend(x)
            level = nxt
        if self.kind == "enum":
            try:
                return [self.index[v] for v in level]
            except (KeyError, TypeError):
                bad = next(v for v in level if not isinstance(v, str) or v not in self.index)
                raise ValueError(f"field {self.name!r}: {bad!r} is not a {self.enum_name} "
                                 f"({', '.join(self.names)})") from None
        if self.kind == "bool":
            for v in level:
                if type(v) is not bool:
                    raise ValueError(f"field {self.name!r}: {v!r} is not a bool")
            return level
        for v in level:
            if type(v) is not int or not self.within(v, v):
                raise ValueError(f"field {self.name!r}: {v!r} is not an int in {self.span}")
        return level
