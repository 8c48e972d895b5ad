"""The expression IR: one immutable node type (operation + arguments) and its builders.

Rules are written with Python operators on these nodes; each node is built once, when a
spec is loaded, and compiled by every backend (Python, Z3, English) from a table keyed by
operation. ``bool(expr)`` raises, so Python's ``and``/``or``/``if`` cannot silently
swallow a rule: use :func:`all_of`, :func:`any_of`, :func:`not_` and :func:`if_`.

>>> from rulespec.ir.nodes import lift, all_of
>>> x = lift(2) + 3
>>> x.op, [a.args[0] for a in x.args]
('add', [2, 3])
>>> all_of(lift(1) < 2, lift(True)).type
Type(kind='bool', enum=None)
"""

from __future__ import annotations

import itertools
from typing import Any, Callable, Iterator, Sequence

import attrs

from .errors import SpecError
from .location import Location, caller_location


@attrs.frozen
class Type:
    """The type of an expression: ``bool``, ``int`` or a member of one enum."""

    kind: str
    enum: "Enum | None" = attrs.field(default=None, eq=False)

    def __eq__(self, other: object) -> bool:  # enums compare by identity
        return (isinstance(other, Type) and self.kind == other.kind
                and self.enum is other.enum)

    def __hash__(self) -> int:
        return hash((self.kind, id(self.enum)))

    def __str__(self) -> str:
        return self.enum.name if self.enum is not None else self.kind


BOOL = Type("bool")
INT = Type("int")


class Enum:
    """A closed vocabulary (cell marks, tile names...). Members are ints 0..n-1 at run time.

    >>> Mark = Enum("Mark", {"empty": "no mark", "x": "first player", "o": "second"}, source="t")
    >>> Mark.x.args[0], Mark.name_of(2), len(Mark)
    (1, 'o', 3)
    """

    def __init__(self, name: str, members: dict[str, str] | Sequence[str], *,
                 source: str | None = None, where: Location | None = None) -> None:
        if isinstance(members, dict):
            names, docs = list(members), dict(members)
        else:
            names, docs = list(members), {}
        if not names:
            raise SpecError("an enum needs at least one member", element=f"enum {name}")
        if len(set(names)) != len(names):
            raise SpecError("duplicate member names", element=f"enum {name}")
        object.__setattr__(self, "_init", True)
        self.name = name
        self.members: tuple[str, ...] = tuple(names)
        self.docs = docs
        self.source = source
        self.where = where or caller_location()
        self.type = Type("enum", self)
        self._consts = {m: Expr("const", (i,), self.type) for i, m in enumerate(names)}

    def __getattr__(self, member: str) -> "Expr":
        consts = self.__dict__.get("_consts")
        if consts is None or member.startswith("__"):
            raise AttributeError(member)
        if member not in consts:
            raise SpecError(f"unknown member {member!r} of enum {self.name} "
                            f"(members: {', '.join(self.members)})", element=f"enum {self.name}")
        tags = getattr(member, "assumed", None)  # a name from an assumption (ir.assumed)
        if tags:
            c = consts[member]
            return Expr("const", c.args, c.type, None, None, tags)
        return consts[member]

    def __getitem__(self, member: str) -> "Expr":
        return self.__getattr__(member)

    def __len__(self) -> int:
        return len(self.members)

    def __iter__(self) -> Iterator["Expr"]:
        return iter(self._consts.values())

    def name_of(self, value: int) -> str:
        return self.members[value]

    def index_of(self, member: str) -> int:
        if member not in self._consts:
            raise KeyError(member)
        return self.members.index(member)

    def __repr__(self) -> str:
        return f"Enum({self.name})"


@attrs.frozen(eq=False)
class Dim:
    """One dimension of an array field: a fixed size, an enum, or the players."""

    size: int
    enum: Enum | None = None
    players: bool = False
    labels: Labels | None = None   # names for the positions of an int dimension

    def label(self) -> str:
        if self.enum is not None:
            return self.enum.name
        if self.labels is not None:
            return self.labels.name
        return "player" if self.players else str(self.size)

    def names(self) -> tuple[str | None, ...] | None:
        """The name of each position (enum members or labels), or None if unnamed."""
        if self.enum is not None:
            return tuple(self.enum.members)
        if self.labels is not None:
            return self.labels.names
        return None


@attrs.frozen(eq=False)
class Labels:
    """Names for the positions of an int array dimension (a token code, a place number):
    the spec still indexes it with ints, but states, scenarios and reports may name the
    positions. ``None`` leaves a position unnamed (a code that is never used, say).

    >>> Code = Labels("Code", (None, "2/plain", "2/spear"))
    >>> Code.size, Code.index_of("2/spear")
    (3, 2)
    """

    name: str
    names: tuple[str | None, ...]
    source: str | None = None
    where: Location | None = None

    @property
    def size(self) -> int:
        return len(self.names)

    def index_of(self, name: str) -> int:
        """The position named ``name`` (KeyError if none is)."""
        if name is None or name not in self.names:
            raise KeyError(name)
        return self.names.index(name)


def int_span(lo: int, hi: int | None) -> str:
    """An int range as messages show it: ``0..5``, or ``0..`` with no upper bound."""
    return f"{lo}.." if hi is None else f"{lo}..{hi}"


@attrs.frozen(eq=False)
class Field:
    """A state field: a scalar or an array of bounded ints, bools or enum members."""

    name: str
    type: Type
    lo: int
    hi: int | None  # None: no upper bound (a count the rules do not cap)
    dims: tuple[Dim, ...]
    initial: Any
    source: str | None
    where: Location | None
    doc: str = ""
    flow: bool = False   # flow state (turn, phase) rather than game data
    #: who sees the cells: "all", "owner" (the player of the first index), "nobody", or a
    #: tuple with one bool expression per cell (row-major) of the observer variable below
    visible: Any = "all"
    observer: "Expr | None" = None
    #: the assumption labels its initial value comes from (:mod:`.assumed`), or None
    assumed: Any = None

    @property
    def size(self) -> int:
        n = 1
        for d in self.dims:
            n *= d.size
        return n

    def __getitem__(self, index: Any) -> "Expr":
        if not isinstance(index, tuple):
            index = (index,)
        if len(index) != len(self.dims):
            raise SpecError(f"field {self.name} has {len(self.dims)} dimension(s), "
                            f"indexed with {len(index)}", element=f"field {self.name}")
        idx = []
        for i, (d, x) in enumerate(zip(self.dims, index)):
            e = lift(x)
            want_enum = d.enum is not None
            if want_enum and e.type != d.enum.type:
                raise SpecError(f"index {i} of {self.name} must be a {d.enum.name}, got {e.type}",
                                element=f"field {self.name}")
            if not want_enum and e.type != INT:
                raise SpecError(f"index {i} of {self.name} must be an int, got {e.type}",
                                element=f"field {self.name}")
            idx.append(e)
        return Expr("field", (self, *idx), self.type)

    def __repr__(self) -> str:
        return f"Field({self.name})"


@attrs.frozen(eq=False)
class Domain:
    """A finite set of values a parameter or bound variable ranges over: lo <= v < hi.

    ``hi`` may depend on the state (the number of players); ``max_size`` bounds it.
    """

    lo: int
    hi: "Expr"
    max_hi: int
    enum: Enum | None = None
    label: str = ""

    @property
    def type(self) -> Type:
        return self.enum.type if self.enum is not None else INT

    def is_static(self) -> bool:
        return self.hi.op == "const"


_counter = itertools.count()


@attrs.frozen
class Printed:
    """Where a literal comes from: a number printed in the rules (``game.constant``), or
    the entry of a named table for one member. Backends ignore it; ``rulespec mutate``
    reads it to change that one number everywhere the rules use it."""

    name: str
    member: str | None = None

    def __str__(self) -> str:
        return self.name if self.member is None else f"{self.name}[{self.member}]"


class Named(int):
    """A number printed in the rules, carrying its name (what ``game.constant`` returns).

    In Python it is the number (sizes, ranges, arithmetic give plain ints); used in a rule
    it becomes a constant node labelled with its name.

    >>> rows = Named(6, "rows")
    >>> rows + 1, lift(rows).label, range(rows)[-1]
    (7, Printed(name='rows', member=None), 5)
    """

    def __new__(cls, value: int, name: str) -> "Named":
        obj = super().__new__(cls, value)
        obj.printed = Printed(name)
        return obj

    def __getnewargs__(self) -> tuple[int, str]:  # type: ignore[override]
        return int(self), self.printed.name

    def __repr__(self) -> str:
        return int.__repr__(self)


class Expr:
    """An immutable IR node. Operators build new nodes; ``same_as`` compares structure.

    ``label`` says where a literal comes from (:class:`Printed`; for a ``table`` node, one
    entry per value): provenance only, no backend reads it. ``assumed`` says which
    assumptions a literal comes from (:mod:`.assumed`: a frozenset of labels; for a
    ``table`` node, one per entry): provenance only too.
    """

    __slots__ = ("op", "args", "type", "where", "label", "assumed")

    def __init__(self, op: str, args: tuple, type: Type, where: Location | None = None,
                 label: Any = None, assumed: Any = None) -> None:
        object.__setattr__(self, "op", op)
        object.__setattr__(self, "args", args)
        object.__setattr__(self, "type", type)
        object.__setattr__(self, "where", where)
        object.__setattr__(self, "label", label)
        object.__setattr__(self, "assumed", assumed or None)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("IR nodes are immutable")

    def __bool__(self) -> bool:
        raise TypeError("a rule expression has no truth value while the spec is built: "
                        "use all_of/any_of/not_/if_ instead of and/or/not/if")

    __hash__ = object.__hash__

    def same_as(self, other: "Expr") -> bool:
        """Structural equality (``==`` builds an IR node instead)."""
        if not isinstance(other, Expr) or self.op != other.op or len(self.args) != len(other.args):
            return False
        for a, b in zip(self.args, other.args):
            if isinstance(a, Expr):
                if not a.same_as(b):
                    return False
            elif a is not b and a != b:
                return False
        return True

    def __repr__(self) -> str:
        from .english import to_english
        return f"<{to_english(self)}>"

    # arithmetic
    def __add__(self, o: Any) -> "Expr": return _arith("add", self, o)
    def __radd__(self, o: Any) -> "Expr": return _arith("add", o, self)
    def __sub__(self, o: Any) -> "Expr": return _arith("sub", self, o)
    def __rsub__(self, o: Any) -> "Expr": return _arith("sub", o, self)
    def __mul__(self, o: Any) -> "Expr": return _arith("mul", self, o)
    def __rmul__(self, o: Any) -> "Expr": return _arith("mul", o, self)
    def __floordiv__(self, o: Any) -> "Expr": return _arith("floordiv", self, o)
    def __rfloordiv__(self, o: Any) -> "Expr": return _arith("floordiv", o, self)
    def __mod__(self, o: Any) -> "Expr": return _arith("mod", self, o)
    def __rmod__(self, o: Any) -> "Expr": return _arith("mod", o, self)
    def __neg__(self) -> "Expr": return _arith("sub", 0, self)

    # comparisons
    def __eq__(self, o: Any) -> "Expr": return _compare("eq", self, o)  # type: ignore[override]
    def __ne__(self, o: Any) -> "Expr": return _compare("ne", self, o)  # type: ignore[override]
    def __lt__(self, o: Any) -> "Expr": return _compare("lt", self, o)
    def __le__(self, o: Any) -> "Expr": return _compare("le", self, o)
    def __gt__(self, o: Any) -> "Expr": return _compare("gt", self, o)
    def __ge__(self, o: Any) -> "Expr": return _compare("ge", self, o)

    # boolean shorthands (mind Python's precedence: prefer all_of / any_of)
    def __and__(self, o: Any) -> "Expr": return all_of(self, o)
    def __rand__(self, o: Any) -> "Expr": return all_of(o, self)
    def __or__(self, o: Any) -> "Expr": return any_of(self, o)
    def __ror__(self, o: Any) -> "Expr": return any_of(o, self)
    def __invert__(self) -> "Expr": return not_(self)

    def is_one_of(self, *values: Any) -> "Expr":
        """True when this equals one of ``values``.

        >>> lift(2).is_one_of(1, 2).op
        'or'
        """
        return any_of(*(self == v for v in values))


def lift(x: Any) -> Expr:
    """Turn a Python bool/int or an IR node into an IR node.

    >>> lift(3).op, lift(True).type.kind
    ('const', 'bool')
    """
    if isinstance(x, Expr):
        return x
    if isinstance(x, bool):
        return Expr("const", (x,), BOOL)
    if isinstance(x, int):
        printed = getattr(x, "printed", None)
        return Expr("const", (int(x),), INT, None, printed, getattr(x, "assumed", None))
    if isinstance(x, Field):
        if x.dims:
            raise SpecError(f"field {x.name} is an array: index it", element=f"field {x.name}")
        return Expr("field", (x,), x.type)
    raise SpecError(f"cannot use {x!r} ({type(x).__name__}) in a rule expression")


def const(value: int | bool) -> Expr:
    """A literal.

    >>> const(4).args
    (4,)
    """
    return lift(value)


def _arith(op: str, a: Any, b: Any) -> Expr:
    a, b = lift(a), lift(b)
    for side in (a, b):
        if side.type != INT:
            raise SpecError(f"arithmetic '{op}' needs ints, got {side.type}")
    return Expr(op, (a, b), INT, caller_location())


def _compare(op: str, a: Any, b: Any) -> Expr:
    a, b = lift(a), lift(b)
    if op in ("eq", "ne"):
        if a.type != b.type:
            raise SpecError(f"cannot compare {a.type} with {b.type}")
    elif a.type != INT or b.type != INT:
        raise SpecError(f"ordering '{op}' needs ints, got {a.type} and {b.type}")
    return Expr(op, (a, b), BOOL, caller_location())


def _bools(xs: Sequence[Any], what: str) -> tuple[Expr, ...]:
    out = tuple(lift(x) for x in xs)
    for x in out:
        if x.type != BOOL:
            raise SpecError(f"{what} needs bools, got {x.type}")
    return out


def all_of(*xs: Any) -> Expr:
    """Conjunction; ``all_of()`` is true.

    >>> all_of(lift(True), lift(1) == 1).op
    'and'
    """
    args = _bools(xs, "all_of")
    if len(args) == 1:
        return args[0]
    return Expr("and", args, BOOL, caller_location())


def any_of(*xs: Any) -> Expr:
    """Disjunction; ``any_of()`` is false.

    >>> any_of(lift(False), lift(True)).op
    'or'
    """
    args = _bools(xs, "any_of")
    if len(args) == 1:
        return args[0]
    return Expr("or", args, BOOL, caller_location())


def not_(x: Any) -> Expr:
    """Negation.

    >>> not_(lift(True)).op
    'not'
    """
    (a,) = _bools((x,), "not_")
    return Expr("not", (a,), BOOL, caller_location())


def implies(a: Any, b: Any) -> Expr:
    """``a`` implies ``b``.

    >>> implies(lift(True), lift(False)).op
    'or'
    """
    return any_of(not_(a), b)


def if_(cond: Any, then: Any, otherwise: Any) -> Expr:
    """A conditional value.

    >>> if_(lift(1) < 2, 10, 20).op
    'ite'
    """
    (c,) = _bools((cond,), "if_ condition")
    t, e = lift(then), lift(otherwise)
    if t.type != e.type:
        raise SpecError(f"if_ branches differ in type: {t.type} and {e.type}")
    return Expr("ite", (c, t, e), t.type, caller_location())


def min_(a: Any, b: Any) -> Expr:
    """The smaller of two ints.

    >>> min_(3, 4).op
    'min'
    """
    return _arith("min", a, b)


def max_(a: Any, b: Any) -> Expr:
    """The larger of two ints.

    >>> max_(3, 4).op
    'max'
    """
    return _arith("max", a, b)


def abs_(a: Any) -> Expr:
    """Absolute value.

    >>> abs_(-3).op
    'abs'
    """
    a = lift(a)
    if a.type != INT:
        raise SpecError(f"abs_ needs an int, got {a.type}")
    return Expr("abs", (a,), INT, caller_location())


def to_int(b: Any) -> Expr:
    """1 if ``b`` holds, else 0.

    >>> to_int(lift(True)).op
    'ite'
    """
    return if_(b, 1, 0)


def lookup(table: Sequence[Any], index: Any) -> Expr:
    """``table[index]`` for a constant table of ints (or bools) and an int expression.

    Out-of-range indices are a rule error at run time. Nested tables: index them twice.

    >>> e = lookup([5, 5, 10, 10, 15], lift(2))
    >>> e.op, e.args[0]
    ('table', (5, 5, 10, 10, 15))
    """
    values = tuple(table)
    if not values:
        raise SpecError("lookup needs a non-empty table")
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
    i = lift(index)
    if i.type != INT:
        raise SpecError(f"lookup index must be an int, got {i.type}")
    return Expr("table", (values, i), typ, caller_location(), label, assumed)


def ordinal(member: Any) -> Expr:
    """An enum member's position (0 for the first member) as an int, for arithmetic.

    >>> Suit = Enum("Suit", ["clubs", "diamonds", "hearts", "spades"], source="t")
    >>> e = ordinal(Suit.hearts); e.op, e.type
    ('ordinal', Type(kind='int', enum=None))
    """
    m = lift(member)
    if m.type.enum is None:
        raise SpecError(f"ordinal needs an enum member, got {m.type}")
    return Expr("ordinal", (m,), INT, caller_location())


@attrs.frozen(eq=False)
class Table:
    """A named constant table with one value per member of an enum (a card's cost, its
    suit, its rank...). Index it with a member, known or not: ``cost[card]`` is one IR
    node (``enum_table``), whatever the number of members.

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
        return cls(name, enum, values, typ, source, where, tags if any(tags) else None)

    def __getitem__(self, member: Any) -> Expr:
        m = lift(member)
        if m.type != self.enum.type:
            raise SpecError(f"table {self.name} is indexed by a {self.enum.name}, got {m.type}",
                            element=f"table {self.name}")
        if m.op == "const":  # a known member: the value itself
            return Expr("const", (self.values[m.args[0]],), self.type, None,
                        Printed(self.name, self.enum.name_of(m.args[0])),
                        self.assumed[m.args[0]] if self.assumed else None)
        return Expr("enum_table", (self, m), self.type, caller_location())

    def value_of(self, member: str) -> Any:
        """The Python value stored for a member (by name)."""
        return self.values[self.enum.index_of(member)]

    def __repr__(self) -> str:
        return f"Table({self.name}: {self.enum.name})"


# --- domains and binders -------------------------------------------------------------

def domain_of(x: Any) -> Domain:
    """A Domain from ``range(a, b)``, an Enum, or a Domain.

    >>> d = domain_of(range(3)); (d.lo, d.hi.args[0], d.max_hi)
    (0, 3, 3)
    """
    if isinstance(x, Domain):
        return x
    if isinstance(x, range):
        if x.step != 1 or x.stop <= x.start:
            raise SpecError(f"a domain must be a non-empty range with step 1, got {x}")
        return Domain(x.start, const(x.stop), x.stop, None, f"{x.start}..{x.stop - 1}")
    if isinstance(x, Enum):
        return Domain(0, const(len(x)), len(x), x, x.name)
    raise SpecError(f"not a finite domain: {x!r} (use range(a, b), an enum, or players())")


def _binder(op: str, dom: Any, body: Callable[[Expr], Any], result: Type, want: Type | None) -> Expr:
    d = domain_of(dom)
    var = Expr("var", (f"v{next(_counter)}", d), d.type)
    b = lift(body(var))
    if want is not None and b.type != want:
        raise SpecError(f"{op} body must be {want}, got {b.type}")
    return Expr(op, (var, d, b), result, caller_location())


def exists(dom: Any, body: Callable[[Expr], Any]) -> Expr:
    """True if ``body(v)`` holds for some ``v`` in ``dom``.

    >>> exists(range(3), lambda v: v == 2).op
    'exists'
    """
    return _binder("exists", dom, body, BOOL, BOOL)


def forall(dom: Any, body: Callable[[Expr], Any]) -> Expr:
    """True if ``body(v)`` holds for every ``v`` in ``dom``.

    >>> forall(range(3), lambda v: v >= 0).op
    'forall'
    """
    return _binder("forall", dom, body, BOOL, BOOL)


def sum_of(dom: Any, body: Callable[[Expr], Any]) -> Expr:
    """The sum of ``body(v)`` over ``dom``.

    >>> sum_of(range(3), lambda v: v).op
    'sum'
    """
    return _binder("sum", dom, body, INT, INT)


def count(dom: Any, body: Callable[[Expr], Any]) -> Expr:
    """How many ``v`` in ``dom`` satisfy ``body(v)``.

    >>> count(range(3), lambda v: v > 0).op
    'count'
    """
    return _binder("count", dom, body, INT, BOOL)


#: every operation of the IR; each backend's table must cover exactly these.
OPERATIONS = frozenset({
    "const", "field", "param", "var", "num_players", "interp",
    "add", "sub", "mul", "floordiv", "mod", "min", "max", "abs",
    "eq", "ne", "lt", "le", "gt", "ge",
    "and", "or", "not", "ite", "table",
    "exists", "forall", "sum", "count",
    "ordinal", "enum_table", "connected", "component_size", "largest_component",
})
