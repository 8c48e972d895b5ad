"""Where a value comes from when the sources do not give it: an assumption's identity in the IR.

``game.assume`` returns its value *tagged*: every int and string in it (an entry of a
catalogue, a count, a name) carries an :class:`Assumed` label saying which assumption, and
which entry of it, it comes from. Python arithmetic on tagged ints keeps the tags (the sum
of two tagged counts carries both); a tagged number or name used in a rule puts its tags on
the IR node built from it (``Expr.assumed``): a constant, one entry of a ``lookup`` table or
of an enum ``Table``. Backends never read them; ``rulespec.check.depends`` follows them to
say which assumptions a verdict rests on.

What Python does not carry: ``len``, ``range``, comparisons and ``bool``, string methods
and control flow give plain values. Where a spec computes a rule's value that way from an
assumption, it says so with :func:`derived`.

>>> n = tag(4, "copies")
>>> (n + 1, (n + 1).assumed)
(5, frozenset({Assumed(name='copies', entry=None)}))
>>> cat = tag({"fish": (3, "sea")}, "catalogue")
>>> sorted(map(str, tags_of(cat["fish"][0])))
['catalogue[fish]']
>>> sorted(map(str, tags_of(derived(len(cat["fish"]), cat["fish"]))))
['catalogue[fish]']
"""

from __future__ import annotations

from typing import Any, Iterable

import attrs

from .nodes import Expr, lift


@attrs.frozen(order=True)
class Assumed:
    """An assumption (``game.assume``) or one entry of it (a key of a dict, an index of a
    list): where a value of the rules comes from."""

    name: str
    entry: str | None = None

    def __str__(self) -> str:
        return self.name if self.entry is None else f"{self.name}[{self.entry}]"


Tags = frozenset  # of Assumed


def _union(*tags: Any) -> frozenset:
    out: frozenset = frozenset()
    for t in tags:
        if t:
            out = out | t
    return out


class AssumedInt(int):
    """An int from an assumption, carrying its :class:`Assumed` labels (``.assumed``).

    Arithmetic with other ints keeps the labels of both sides; with an IR expression it
    builds the expression, whose constant carries them.
    """

    assumed: frozenset

    def __new__(cls, value: int, assumed: frozenset) -> "AssumedInt":
        obj = super().__new__(cls, value)
        obj.assumed = frozenset(assumed)
        return obj

    def __reduce__(self) -> tuple:
        return (AssumedInt, (int(self), self.assumed))

    def __repr__(self) -> str:
        return int.__repr__(self)

    __str__ = __repr__


def _arith(name: str) -> Any:
    plain = getattr(int, name)

    def op(self: AssumedInt, *other: Any) -> Any:
        out = plain(self, *other)
        if out is NotImplemented or isinstance(out, bool) or not isinstance(out, int):
            return out
        return AssumedInt(out, _union(self.assumed, *(getattr(o, "assumed", None)
                                                        for o in other)))
    op.__name__ = name
    return op


for _name in ("__add__", "__radd__", "__sub__", "__rsub__", "__mul__", "__rmul__",
              "__floordiv__", "__rfloordiv__", "__mod__", "__rmod__", "__pow__", "__rpow__",
              "__neg__", "__pos__", "__abs__"):
    setattr(AssumedInt, _name, _arith(_name))


class AssumedStr(str):
    """A name from an assumption (an enum member's name, an icon), carrying its labels: an
    enum member looked up by it (``Icon[name]``) carries them into the rules."""

    assumed: frozenset

    def __new__(cls, value: str, assumed: frozenset) -> "AssumedStr":
        obj = super().__new__(cls, value)
        obj.assumed = frozenset(assumed)
        return obj

    def __reduce__(self) -> tuple:
        return (AssumedStr, (str(self), self.assumed))


def tag(value: Any, name: str) -> Any:
    """``value`` with every int and string in it labelled by assumption ``name``: the entry
    is the key (of a dict) or index (of a list or tuple) at the top level, so that a rule
    reading one card of a catalogue rests on that card only."""
    if isinstance(value, dict):
        return {k: _deep(v, frozenset({Assumed(name, str(k))})) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        items = [_deep(v, frozenset({Assumed(name, str(i))})) for i, v in enumerate(value)]
        return items if isinstance(value, list) else tuple(items)
    return _deep(value, frozenset({Assumed(name)}))


def _deep(value: Any, tags: frozenset) -> Any:
    if isinstance(value, bool) or value is None:
        return value  # bool cannot be subclassed: derived() makes a tagged expression
    if isinstance(value, int):
        return AssumedInt(value, _union(tags, getattr(value, "assumed", None)))
    if isinstance(value, str):
        return AssumedStr(value, _union(tags, getattr(value, "assumed", None)))
    if isinstance(value, Expr):
        return with_tags(value, tags)
    if isinstance(value, dict):
        return {k: _deep(v, tags) for k, v in value.items()}
    if isinstance(value, list):
        return [_deep(v, tags) for v in value]
    if isinstance(value, tuple):
        return tuple(_deep(v, tags) for v in value)
    return value


def with_tags(e: Expr, tags: Iterable[Assumed]) -> Expr:
    """A copy of constant ``e`` carrying ``tags`` too (any other node is returned as is:
    its constants carry their own)."""
    tags = frozenset(tags)
    if e.op != "const" or not tags:
        return e
    return Expr("const", e.args, e.type, e.where, e.label, e.name, _union(e.assumed, tags))


def tags_of(value: Any) -> frozenset:
    """Every :class:`Assumed` label in a Python value or IR expression (containers and
    expressions searched through; a label is its own)."""
    if isinstance(value, Expr):
        return expr_tags(value)
    if isinstance(value, Assumed):
        return frozenset({value})
    own = getattr(value, "assumed", None)
    if isinstance(value, (AssumedInt, AssumedStr)):
        return frozenset(own)
    if isinstance(value, dict):
        return _union(*(tags_of(v) for v in value.values()))
    if isinstance(value, (list, tuple, set, frozenset)):
        return _union(*(tags_of(v) for v in value))
    if attrs.has(type(value)):   # a record of component data (rulespec.spec.components)
        return _union(*(tags_of(getattr(value, f.name)) for f in attrs.fields(type(value))))
    return frozenset()


def derived(value: Any, *sources: Any) -> Any:
    """``value``, computed from ``sources`` in a way Python does not trace (``len``, a
    comparison, a string method, a loop), labelled with every assumption in ``sources``.

    An int or string comes back tagged; a bool comes back as a tagged constant expression
    (``bool`` cannot carry a label); an IR constant gets the labels; containers are
    labelled throughout.
    """
    tags = _union(*(tags_of(s) for s in sources))
    if not tags:
        return value
    if isinstance(value, bool):
        return with_tags(lift(value), tags)
    return _deep(value, tags)


def expr_tags(e: Expr) -> frozenset:
    """The assumption labels the nodes of ``e`` carry: constants, each entry of a
    ``lookup`` table, each member's entry of an enum ``Table`` (an index not known when
    the spec is built may read any entry)."""
    from .walk import walk
    out: set = set()
    for n in walk(e):
        tags = n.assumed
        if tags:
            if n.op == "table":
                for t in tags:
                    if t:
                        out |= t
            else:
                out |= tags
        if n.op == "enum_table":
            for t in getattr(n.args[0], "assumed", None) or ():
                if t:
                    out |= t
    return frozenset(out)


__all__ = ["Assumed", "AssumedInt", "AssumedStr", "derived", "expr_tags", "tag", "tags_of",
           "with_tags"]
