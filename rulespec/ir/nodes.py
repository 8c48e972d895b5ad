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
            return Expr("const", c.args, c.type, None, None, None, tags)
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
    labels: "Labels | None" = None   # names for the positions of an int dimension

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
    #: a record the rules keep to decide something else (a position history): readings
    #: that part only on it have not parted yet (``rulespec diff`` looks further)
    bookkeeping: bool = False
    #: kept only so that a proof goes through (a counter the step proofs need), not because
    #: the rules call for it: ``info`` and the report list it apart (``game.field``)
    proof_aid: bool = False

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


@attrs.frozen
class Reading:
    """How a person reads a node built from parts: ``text`` with ``{0}``, ``{1}``... for the
    English of ``parts`` (``"{0}/{1}"`` for a token code of a price and a mark,
    ``"distance[{0}, {1}]"`` for a table of rows). The English printer says this instead of
    the node's arithmetic; no backend reads it.
    """

    text: str
    parts: tuple = ()
    #: a clause (``if A, then B``) rather than a name: parenthesised inside other operators
    clause: bool = False


class Expr:
    """An immutable IR node. Operators build new nodes; ``same_as`` compares structure.

    ``label`` says where a literal comes from (:class:`Printed`; for a ``table`` node, one
    entry per value): provenance only, no backend reads it. ``name`` is what a person calls
    the node: the spec's name for a bound variable (a ``let``, a quantifier's or a loop's
    variable), a table's name, or a :class:`Reading`; only the English printer reads it.
    ``assumed`` says which assumptions a literal comes from (:mod:`.assumed`: a frozenset of
    labels; for a ``table`` node, one per entry): provenance only too.
    """

    __slots__ = ("op", "args", "type", "where", "label", "name", "assumed")

    def __init__(self, op: str, args: tuple, type: Type, where: Location | None = None,
                 label: Any = None, name: "str | Reading | None" = None,
                 assumed: Any = None) -> None:
        object.__setattr__(self, "op", op)
        object.__setattr__(self, "args", args)
        object.__setattr__(self, "type", type)
        object.__setattr__(self, "where", where)
        object.__setattr__(self, "label", label)
        object.__setattr__(self, "name", name)
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

        >>> e = lift(2).is_one_of(1, 2); e.op, e.name.text
        ('or', '{0} is one of {1}, {2}')
        """
        e = any_of(*(self == v for v in values))
        if e.op != "or":
            return e
        said = ", ".join("{%d}" % (k + 1) for k in range(len(values)))
        return Expr(e.op, e.args, e.type, e.where, None,
                    Reading("{0} is one of " + said, (self, *(lift(v) for v in values)), True))


def called(x: Any, name: str, *parts: Any) -> Expr:
    """``x`` under a name a person reads it by (``called(order[turn_pos], "mover")``): the
    same rule for every backend; the English printer says the name, and the report lists
    what it stands for. Use it for a value several rules share (the player to move, the
    feet a move costs). With ``parts``, the name says them where it has ``{0}``, ``{1}``...
    (``called(ordinal(card) // 4, "rank[{0}]", card)`` reads ``rank[last_card]``).

    >>> e = called(lift(2) + 3, "feet_due")
    >>> e.op, e.name, repr(e)
    ('add', 'feet_due', '<feet_due>')
    >>> k = Expr("param", ("card", None), INT)
    >>> repr(called(k // 4, "rank[{0}]", k))
    '<rank[card]>'
    """
    e = lift(x)
    if not isinstance(name, str) or not name.strip():
        raise SpecError(f"a name is a non-empty string, got {name!r}")
    if parts:
        return Expr(e.op, e.args, e.type, e.where, e.label,
                    Reading(name, tuple(lift(p) for p in parts)), e.assumed)
    return Expr(e.op, e.args, e.type, e.where, e.label, name, e.assumed)


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
        return Expr("const", (int(x),), INT, None, printed, None, getattr(x, "assumed", None))
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

    >>> e = implies(lift(True), lift(False)); e.op, e.name.text
    ('or', 'if {0}, then {1}')
    """
    e = any_of(not_(a), b)
    return Expr(e.op, e.args, e.type, e.where, None,
                Reading("if {0}, then {1}", (lift(a), lift(b)), True))


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


def bound_name(fn: Any) -> str | None:
    """The name a spec gave the variable of ``fn`` (``lambda p: ...`` names it ``p``): Python
    keeps a function's parameter names on its code object.

    >>> bound_name(lambda card: card), bound_name(len)
    ('card', None)
    """
    code = getattr(fn, "__code__", None)
    if code is None or code.co_argcount < 1:
        return None
    return code.co_varnames[0]


def bound_var(d: Domain, name: str | None) -> Expr:
    """A fresh variable over ``d``: a unique id for the backends, ``name`` for people (or,
    when the spec wrote none, a word for what it ranges over, never the id).

    >>> bound_var(domain_of(range(3)), None).name, bound_var(domain_of(range(3)), "k").name
    ('k', 'k')
    """
    word = name or (d.enum.name if d.enum is not None else
                    "player" if d.label == "players" else "k")
    return Expr("var", (f"v{next(_counter)}", d), d.type, None, None, word)


def _binder(op: str, dom: Any, body: Callable[[Expr], Any], result: Type,
            want: Type | None) -> Expr:
    d = domain_of(dom)
    var = bound_var(d, bound_name(body))
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


def let_(value: Any, body: Callable[[Expr], Any], *, name: str | None = None) -> Expr:
    """``body(v)`` with ``v`` the value of ``value``, computed once: an expression may use
    a value several times without every backend writing it out at each use (a helper that
    builds ``b = if_(x > b, x, b)`` in a loop doubles at every step; ``b = let_(b, lambda
    best: if_(x > best, x, best))`` does not). ``v`` is read by the lambda's parameter name
    (or ``name``). The value is computed whether ``body`` needs it or not.

    >>> e = let_(lift(2) + 3, lambda total: total * total)
    >>> e.op, e.args[0].name
    ('let', 'total')
    """
    v = lift(value)
    word = name or bound_name(body)
    if not isinstance(word, str) or not word.strip():
        raise SpecError("let_ needs a name the report can read the value by: a lambda's "
                        "parameter, or name=\"...\"")
    var = Expr("var", (f"{word}{next(_counter)}", None), v.type, None, None, word)
    b = lift(body(var))
    return Expr("let", (var, v, b), b.type, caller_location())


#: every operation of the IR; each backend's table must cover exactly these.
OPERATIONS = frozenset({
    "const", "field", "param", "var", "num_players", "interp",
    "add", "sub", "mul", "floordiv", "mod", "min", "max", "abs",
    "eq", "ne", "lt", "le", "gt", "ge",
    "and", "or", "not", "ite", "table",
    "exists", "forall", "sum", "count", "let",
    "ordinal", "enum_table", "connected", "component_size", "largest_component",
})


# the table builders live in tables.py; a spec finds them here too
from .tables import Absent, Labels, Table, lookup  # noqa: E402,F401
