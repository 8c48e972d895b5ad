"""Constant tables and named positions: ``lookup`` (an int-indexed table, by one index or
several), enum-keyed :class:`Table` s, and :class:`Labels` (names for the positions of an
int dimension, possibly codes made of parts, such as a token's value and mark).

Each builder gives the node it makes the name a person reads it by (``Expr.name``): the
English printer says ``cap[place]`` or ``bag[price/mark]``, never the table's numbers or the
arithmetic of a flattened index. Backends read only the operation and its arguments.
"""

from __future__ import annotations

import itertools
from typing import Any, Sequence

import attrs

from .errors import SpecError
from .location import Location, caller_location
from .nodes import BOOL, INT, Enum, Expr, Printed, Reading, Type, lift, ordinal


@attrs.frozen(eq=False)
class Labels:
    """Names for the positions of an int array dimension (a token code, a place number):
    the spec still indexes it with ints, but states, scenarios and reports may name the
    positions. ``None`` leaves a position unnamed (a code that is never used, say).

    >>> Code = Labels("Code", (None, "2/plain", "2/spear"))
    >>> Code.size, Code.index_of("2/spear")
    (3, 2)

    Codes made of parts (:meth:`product`) are looked up by their parts with :meth:`of`.
    """

    name: str
    names: tuple[str | None, ...]
    source: str | None = None
    where: Location | None = None
    #: for codes made of parts: each part as (first value, number of values, enum or None)
    parts: tuple[tuple[int, int, Enum | None], ...] = ()
    #: the code of the first combination of parts (codes below it are unnamed)
    first: int = 0
    sep: str = "/"

    @classmethod
    def product(cls, name: str, parts: Sequence[Any], *, first: int = 0, sep: str = "/",
                source: str | None = None, where: Location | None = None) -> "Labels":
        """Codes for every combination of ``parts`` (each a ``range`` or an enum), the last
        part varying fastest, numbered from ``first``; each is named by its parts.

        >>> Mark = Enum("Mark", ["plain", "spear"], source="t")
        >>> Token = Labels.product("Token", (range(2, 4), Mark), first=1)
        >>> Token.names
        (None, '2/plain', '2/spear', '3/plain', '3/spear')
        """
        specs: list[tuple[int, int, Enum | None]] = []
        shown: list[list[str]] = []
        for p in parts:
            if isinstance(p, Enum):
                specs.append((0, len(p), p))
                shown.append(list(p.members))
            elif isinstance(p, range) and p.step == 1 and len(p) > 0:
                specs.append((p.start, len(p), None))
                shown.append([str(v) for v in p])
            else:
                raise SpecError(f"a part of a code is a range(a, b) or an enum, got {p!r}",
                                element=f"labels {name}", where=where)
        if not specs or not isinstance(first, int) or first < 0:
            raise SpecError("codes need at least one part and a first code >= 0",
                            element=f"labels {name}", where=where)
        names = [sep.join(combo) for combo in itertools.product(*shown)]
        return cls(name, (None,) * first + tuple(names), source, where, tuple(specs), first,
                   sep)

    @property
    def size(self) -> int:
        return len(self.names)

    def index_of(self, name: str) -> int:
        """The position named ``name`` (KeyError if none is)."""
        if name is None or name not in self.names:
            raise KeyError(name)
        return self.names.index(name)

    def of(self, *values: Any) -> Expr:
        """The code of a combination of parts (ints or members, known or not): what a
        field indexed by these codes is indexed with (``bag[Token.of(price, mark)]``).

        >>> Mark = Enum("Mark", ["plain", "spear"], source="t")
        >>> Token = Labels.product("Token", (range(2, 4), Mark), first=1)
        >>> Token.of(3, Mark.spear).args, Token.of(3, Mark.spear).name
        ((4,), '3/spear')
        >>> price = Expr("param", ("price", None), INT)
        >>> Token.of(price, Mark.spear).name.text
        '{0}/spear'
        """
        element = f"labels {self.name}"
        if not self.parts:
            raise SpecError(f"{self.name} is not made of parts: index it with an int",
                            element=element)
        if len(values) != len(self.parts):
            raise SpecError(f"{self.name} has {len(self.parts)} part(s), got {len(values)}",
                            element=element)
        strides = [1] * len(self.parts)
        for j in range(len(self.parts) - 2, -1, -1):
            strides[j] = strides[j + 1] * self.parts[j + 1][1]
        offset, terms, texts, shown = self.first, [], [], []
        for (lo, size, enum), v, stride in zip(self.parts, values, strides):
            e = lift(v)
            want = enum.type if enum is not None else INT
            if e.type != want:
                raise SpecError(f"a part of {self.name} must be a {want}, got {e.type}",
                                element=element)
            if e.op == "const":
                k = e.args[0] - lo
                if not 0 <= k < size:
                    raise SpecError(f"{e.args[0]} is outside the part {lo}..{lo + size - 1} "
                                    f"of {self.name}", element=element)
                offset += k * stride
                texts.append(enum.name_of(k) if enum is not None else str(e.args[0]))
                continue
            x = ordinal(e) if enum is not None else e
            x = x - lo if lo else x
            terms.append(x * stride if stride != 1 else x)
            texts.append("{%d}" % len(shown))
            shown.append(e)
        if not terms:
            return Expr("const", (offset,), INT, None, None, self.names[offset])
        code = terms[0] + offset if offset else terms[0]
        for t in terms[1:]:
            code = code + t
        reading = Reading(self.sep.join(texts), tuple(shown))
        return Expr(code.op, code.args, INT, code.where, code.label, reading)


def lookup(table: Sequence[Any], *index: Any, name: str | None = None) -> Expr:
    """``table[index]`` for a constant table of ints, bools or enum members; ``name`` is
    what a person calls it (``cap[place]``, not its numbers). A table of rows takes one
    index per level (ints, or enum members for their position): ``lookup(DIST, a, b)``.

    Out-of-range indices are a rule error at run time.

    >>> e = lookup([5, 5, 10, 10, 15], lift(2), name="cost")
    >>> e.op, e.args[0], e.name
    ('table', (5, 5, 10, 10, 15), 'cost')
    >>> a, b = (Expr("param", (n, None), INT) for n in "ab")
    >>> e = lookup([[0, 1], [1, 0], [2, 2]], a, b, name="distance")
    >>> e.args[0], e.args[1].op, e.name.text
    ((0, 1, 1, 0, 2, 2), 'add', 'distance[{0}, {1}]')
    """
    if not index:
        raise SpecError("lookup needs an index")
    values, shape = _flatten(table, len(index))
    printed = tuple(getattr(v, "printed", None) for v in values)
    label = printed if any(p is not None for p in printed) else None
    if any(isinstance(v, Expr) for v in values):  # a tagged bool (assumed.derived) among them
        values = tuple(lift(v) if isinstance(v, int) else v for v in values)
    tags = tuple(getattr(v, "assumed", None) or None for v in values)
    assumed = tags if any(tags) else None
    if all(isinstance(v, bool) for v in values):
        typ = BOOL
    elif all(isinstance(v, int) and not isinstance(v, bool) for v in values):
        typ = INT
        values = tuple(int(v) for v in values)
    elif all(isinstance(v, Expr) and v.op == "const" for v in values):
        typ = values[0].type
        if any(v.type != typ for v in values):
            raise SpecError("lookup table entries must share one type")
        label = tuple(v.label for v in values)
        label = label if any(p is not None for p in label) else None
        values = tuple(v.args[0] for v in values)
    else:
        raise SpecError("lookup needs a table of ints, bools or enum members")
    if name is not None and not (isinstance(name, str) and name.strip()):
        raise SpecError(f"a lookup's name is a non-empty string, got {name!r}")
    idx = [lift(i) for i in index]
    if len(idx) == 1:
        if idx[0].type != INT:
            raise SpecError(f"lookup index must be an int, got {idx[0].type}")
        return Expr("table", (values, idx[0]), typ, caller_location(), label, name, assumed)
    flat = None
    for k, (i, size) in enumerate(zip(idx, shape)):
        if i.type != INT and i.type.enum is None:
            raise SpecError(f"lookup index {k} must be an int or an enum member, got {i.type}")
        x = ordinal(i) if i.type.enum is not None else i
        stride = 1
        for s in shape[k + 1:]:
            stride *= s
        term = x * stride if stride != 1 else x
        flat = term if flat is None else flat + term
    shown = Reading(f"{name or 'table'}[{', '.join('{%d}' % k for k in range(len(idx)))}]",
                    tuple(idx))
    return Expr("table", (values, flat), typ, caller_location(), label, shown, assumed)


def _flatten(table: Any, depth: int) -> tuple[tuple, tuple[int, ...]]:
    """The entries of a table of rows, row after row, and its size at each level."""
    rows = [table]
    shape: list[int] = []
    for level in range(depth):
        sizes = {len(r) if isinstance(r, (list, tuple)) else -1 for r in rows}
        if len(sizes) != 1 or -1 in sizes:
            raise SpecError(f"lookup with {depth} indices needs a table of rows of equal "
                            f"length, {depth} levels deep")
        (n,) = sizes
        if n == 0:
            raise SpecError("lookup needs a non-empty table")
        shape.append(n)
        rows = [x for r in rows for x in r]
    return tuple(rows), tuple(shape)


@attrs.frozen
class Absent:
    """The entry of a member a table has no value for (a card that is no card, an empty
    slot): ``{Card.none: Absent("an empty slot shows nothing"), ...}``. A rule that reads it
    is a rule error, which ``check`` and ``prove`` look for as for any other; ``mutate`` has
    no value there to change."""

    #: checked where the table is built (its error names the table and the spec line)
    why: str


def _fill(raw: list) -> list:
    """``raw`` with each :class:`Absent` entry replaced by the nearest value before it (or,
    first, after it): a placeholder of the table's type that keeps its runs whole."""
    out = list(raw)
    known = [v for v in raw if not isinstance(v, Absent)]
    last = known[0]
    for i, v in enumerate(raw):
        if isinstance(v, Absent):
            out[i] = last
        else:
            last = v
    return out


@attrs.frozen(eq=False)
class Table:
    """A named constant table with one value per member of an enum (a card's cost, its
    suit, its rank...). Index it with a member, known or not: ``cost[card]`` is one IR
    node (``enum_table``), whatever the number of members.

    >>> from rulespec.ir.nodes import exists
    >>> Card = Enum("Card", ["fish", "shell", "boat"], source="t")
    >>> cost = Table.of("cost", {Card.fish: 3, Card.shell: 1, Card.boat: 3})
    >>> e = exists(Card, lambda c: cost[c] > 2).args[2].args[0]
    >>> e.op, e.args[0].values, cost.value_of("boat"), cost[Card.shell].args
    ('enum_table', (3, 1, 3), 3, (1,))
    """

    name: str
    enum: Enum
    values: tuple
    type: Type
    source: str | None = None
    where: Location | None = None
    #: per member, the assumption labels its value comes from (:mod:`.assumed`), or None
    assumed: tuple | None = None
    #: ``(member index, why)`` of each member the table has no value for (:class:`Absent`):
    #: a rule that reads one is a rule error; ``values`` holds a neighbour's value there,
    #: which no backend returns
    absent: tuple[tuple[int, str], ...] = ()

    @classmethod
    def of(cls, name: str, mapping: Any, *, source: str | None = None,
           where: Location | None = None) -> "Table":
        """A table from ``{member: value}`` covering every member of one enum exactly once.

        Values are ints, bools or members of one enum (all of one type).
        """
        element = f"table {name}"
        items = list(mapping.items()) if hasattr(mapping, "items") else None
        if not items:
            raise SpecError("a table needs a mapping {member: value} with at least one entry",
                            element=element, where=where)
        keys = [lift(k) for k, _ in items]
        enum = keys[0].type.enum
        if enum is None or any(k.op != "const" or k.type != keys[0].type for k in keys):
            raise SpecError("table keys must be members of one enum", element=element,
                            where=where)
        seen: dict[int, Any] = {}
        for k, (_, v) in zip(keys, items):
            if k.args[0] in seen:
                raise SpecError(f"member {enum.name_of(k.args[0])} is given twice",
                                element=element, where=where)
            seen[k.args[0]] = v
        missing = [m for i, m in enumerate(enum.members) if i not in seen]
        if missing:
            raise SpecError(f"no value for {', '.join(missing)} (a table gives every member "
                            f"of {enum.name} a value)", element=element, where=where)
        raw = [seen[i] for i in range(len(enum))]
        absent = tuple((i, v.why) for i, v in enumerate(raw) if isinstance(v, Absent))
        unsaid = [why for _, why in absent if not isinstance(why, str) or not why.strip()]
        if unsaid:
            raise SpecError(f"Absent(why) says why the member has no value, got "
                            f"{unsaid[0]!r}", element=element, where=where)
        if len(absent) == len(raw):
            raise SpecError("a table needs at least one member with a value", element=element,
                            where=where)
        raw = _fill(raw)
        tags = tuple(getattr(v, "assumed", None) or None for v in raw)
        # a value tagged by an assumption may come as a constant expression (a bool or an
        # int from assumed.derived): its value is what counts
        raw = [v.args[0] if isinstance(v, Expr) and v.op == "const" and v.type.enum is None
               else v for v in raw]
        if all(isinstance(v, bool) for v in raw):
            typ, values = BOOL, tuple(raw)
        elif all(isinstance(v, int) and not isinstance(v, bool) for v in raw):
            typ, values = INT, tuple(int(v) for v in raw)
        elif all(isinstance(v, Expr) and v.op == "const" and v.type.enum is not None
                 for v in raw):
            typ = raw[0].type
            if any(v.type != typ for v in raw):
                raise SpecError("table values must share one type", element=element,
                                where=where)
            values = tuple(v.args[0] for v in raw)
        else:
            raise SpecError("table values must all be ints, all bools or all members of one "
                            "enum", element=element, where=where)
        return cls(name, enum, values, typ, source, where, tags if any(tags) else None, absent)

    def absent_why(self, index: int) -> str | None:
        """Why the member at ``index`` has no value, or None when it has one."""
        return dict(self.absent).get(index)

    def no_value_message(self, index: int) -> str:
        """What reading the member at ``index`` (which has no value) is wrong by."""
        return (f"table {self.name} has no value for {self.enum.members[index]} "
                f"({self.absent_why(index)})")

    def __getitem__(self, member: Any) -> Expr:
        m = lift(member)
        if m.type != self.enum.type:
            raise SpecError(f"table {self.name} is indexed by a {self.enum.name}, got {m.type}",
                            element=f"table {self.name}")
        if m.op == "const" and self.absent_why(m.args[0]) is not None:
            raise SpecError(f"{self.no_value_message(m.args[0])}: a rule may not read it",
                            element=f"table {self.name}")
        if m.op == "const":  # a known member: the value itself
            return Expr("const", (self.values[m.args[0]],), self.type, None,
                        Printed(self.name, self.enum.name_of(m.args[0])), None,
                        self.assumed[m.args[0]] if self.assumed else None)
        return Expr("enum_table", (self, m), self.type, caller_location())

    def value_of(self, member: str) -> Any:
        """The Python value stored for a member (by name)."""
        return self.values[self.enum.index_of(member)]

    def __repr__(self) -> str:
        return f"Table({self.name}: {self.enum.name})"
