"""Declared schemas, read strictly: attrs classes structured by cattrs, every problem one line
naming the key path and what was expected.

A file's classes say what each key holds; :func:`structure` turns the parsed JSON or TOML
value into them or raises :class:`SchemaProblem` with the first problem's key path (the
caller turns that into ``path:line: problem``). Reading is strict: ``"2"`` is not an
integer, ``true`` is not a number, a string is not a list, and an unknown key is an error
(a typo never silently turns an expectation off).

>>> import attrs
>>> @attrs.frozen
... class Point:
...     x: int
...     tags: list[str] = attrs.field(factory=list)
>>> structure({"x": 1, "tags": ["a"]}, Point)
Point(x=1, tags=['a'])
>>> try:
...     structure({"x": "1"}, Point)
... except SchemaProblem as p:
...     print(p.keys, p.problem)
('x',) 'x' must be an integer, got "1"
"""

import json
import typing
from typing import Any, Iterator, NewType, Sequence

import attrs
import cattrs
from cattrs.errors import (BaseValidationError, ClassValidationError, ForbiddenExtraKeysError,
                           IterableValidationError)

#: a string, or a non-empty list of strings (``refused_because = "x"`` or ``["x", "y"]``)
Strings = NewType("Strings", tuple)
#: a player number or ``"chance"``
PlayerOrChance = NewType("PlayerOrChance", object)
#: a probability as written: a number, or a fraction as a string (``"1/3"``)
Probability = NewType("Probability", object)
#: any JSON/TOML value, checked later against a game (field values)
Value = NewType("Value", object)

Keys = tuple  # a key path: names and list positions, ("scenario", 0, "then", "legal")


class SchemaProblem(Exception):
    """The first problem found: its key path and one line saying what is wrong."""

    def __init__(self, problem: str, *keys: Any) -> None:
        super().__init__(problem)
        self.problem = problem
        self.keys: Keys = tuple(keys)


def show(value: Any, limit: int = 60) -> str:
    """A value as the file would write it, cut to ``limit`` characters."""
    if isinstance(value, dict):
        return "a table"
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= limit else text[:limit - 3] + "..."


def dotted(keys: Sequence[Any]) -> str:
    """``then.legal[2]`` for ``("then", "legal", 2)``."""
    out = ""
    for k in keys:
        out += f"[{k}]" if isinstance(k, int) else (f".{k}" if out else str(k))
    return out


# --- what each type expects, in words -------------------------------------------------------
def expected(tp: Any) -> str:
    """What a value of type ``tp`` must be, in the words of the file format."""
    if tp is str:
        return "a string"
    if tp is int:
        return "an integer"
    if tp is bool:
        return "true or false"
    if tp is float:
        return "a number"
    if tp is Strings:
        return "a string or an array of strings"
    if tp is PlayerOrChance:
        return 'a player number or "chance"'
    if tp is Probability:
        return 'a probability such as 0.5 or "1/3"'
    if tp in (Value, Any):
        return "a value"
    if attrs.has(tp):
        return "a table"
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if origin in (typing.Union, getattr(__import__("types"), "UnionType", None)):
        rest = [a for a in args if a is not type(None)]
        return " or ".join(expected(a) for a in rest)
    if origin in (list, tuple):
        inner = args[0] if args else Any
        return {str: "an array of strings", int: "an array of integers"}.get(
            inner, f"an array of {_plural(inner)}")
    if origin is dict:
        return "a table"
    return str(tp)


def _plural(tp: Any) -> str:
    if attrs.has(tp):
        return "tables"
    return expected(tp)


# --- the strict converter --------------------------------------------------------------------
class _Wrong(TypeError):
    """A leaf value of the wrong kind (the message is made from the schema)."""


def _exact(kind: type) -> Any:
    def hook(value: Any, _tp: Any) -> Any:
        if type(value) is not kind:
            raise _Wrong()
        return value
    return hook


def _number(value: Any, _tp: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise _Wrong()
    return value


def _strings(value: Any, _tp: Any) -> tuple[str, ...]:
    if isinstance(value, str):
        return (value,)
    if isinstance(value, list) and value and all(isinstance(v, str) for v in value):
        return tuple(value)
    raise _Wrong()


def _player_or_chance(value: Any, _tp: Any) -> Any:
    if value == "chance" or (type(value) is int):
        return value
    raise _Wrong()


def _probability(value: Any, _tp: Any) -> Any:
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        raise _Wrong()
    return value


def _converter() -> cattrs.Converter:
    c = cattrs.Converter(forbid_extra_keys=True, detailed_validation=True)
    for kind in (str, int, bool):
        c.register_structure_hook(kind, _exact(kind))
    c.register_structure_hook(float, _number)
    c.register_structure_hook(Strings, _strings)
    c.register_structure_hook(PlayerOrChance, _player_or_chance)
    c.register_structure_hook(Probability, _probability)
    c.register_structure_hook(Value, lambda v, _t: v)

    def sequence(tp: Any) -> Any:   # a list, never a string or a table iterated
        inner = c.get_structure_hook(typing.get_args(tp)[0] if typing.get_args(tp) else Any)
        item = typing.get_args(tp)[0] if typing.get_args(tp) else Any

        def hook(value: Any, _tp: Any) -> Any:
            if type(value) is not list:
                raise _Wrong()
            out, errors = [], []
            for i, v in enumerate(value):
                try:
                    out.append(inner(v, item))
                except Exception as err:  # noqa: BLE001 - gathered as cattrs does
                    err.__notes__ = [cattrs.IterableValidationNote(f"@ index {i}", i, item)]
                    errors.append(err)
            if errors:
                raise IterableValidationError("while structuring a list", errors, tp)
            return list(out) if typing.get_origin(tp) is list else tuple(out)
        return hook

    def mapping(tp: Any) -> Any:
        key_t, val_t = typing.get_args(tp) or (str, Any)
        inner = c.get_structure_hook(val_t)

        def hook(value: Any, _tp: Any) -> Any:
            if type(value) is not dict or not all(type(k) is str for k in value):
                raise _Wrong()
            out, errors = {}, []
            for k, v in value.items():
                try:
                    out[k] = inner(v, val_t)
                except Exception as err:  # noqa: BLE001
                    err.__notes__ = [cattrs.IterableValidationNote(f"@ key {k}", k, val_t)]
                    errors.append(err)
            if errors:
                raise IterableValidationError("while structuring a table", errors, tp)
            return out
        return hook

    c.register_structure_hook_factory(
        lambda t: typing.get_origin(t) in (list, tuple), sequence)
    c.register_structure_hook_factory(lambda t: typing.get_origin(t) is dict, mapping)

    def table(tp: Any) -> Any:   # an attrs class: its value must be a table first
        made = cattrs.gen.make_dict_structure_fn(tp, c, _cattrs_forbid_extra_keys=True,
                                                 _cattrs_detailed_validation=True)

        def hook(value: Any, _tp: Any) -> Any:
            if type(value) is not dict:
                raise _Wrong()
            return made(value, tp)
        return hook

    c.register_structure_hook_factory(attrs.has, table)
    return c


CONVERTER = _converter()


def structure(data: Any, cls: type) -> Any:
    """``data`` as an instance of the attrs class ``cls``; :class:`SchemaProblem` names the
    first problem (in the order of the file's keys)."""
    try:
        return CONVERTER.structure(data, cls)
    except (BaseValidationError, _Wrong, KeyError, TypeError, AttributeError,
            ValueError) as err:
        raise _first_problem(err, data, cls) from None


def _leaves(err: BaseException, keys: Keys) -> Iterator[tuple[Keys, BaseException]]:
    if isinstance(err, (ClassValidationError, IterableValidationError)):
        with_notes, without = err.group_exceptions()
        for sub, note in with_notes:
            key = note.name if hasattr(note, "name") else note.index
            yield from _leaves(sub, keys + (key,))
        for sub in without:
            yield from _leaves(sub, keys)
    else:
        yield keys, err


def _first_problem(err: BaseException, data: Any, cls: type) -> SchemaProblem:
    leaves = list(_leaves(err, ()))
    order = _key_order(data)
    def rank(kl: tuple[Keys, BaseException]) -> tuple:
        keys, leaf = kl   # a missing key comes before what is wrong inside its table
        return order(keys[:-1]) + (-1,) if isinstance(leaf, KeyError) else order(keys)
    keys, leaf = min(leaves, key=rank)
    return problem_at(keys, leaf, data, cls)


def _key_order(data: Any) -> Any:
    """Sort key for key paths: the order the keys appear in the file."""
    def rank(keys: Keys) -> tuple:
        out, node = [], data
        for k in keys:
            if isinstance(node, dict):
                names = list(node)
                out.append(names.index(k) if k in names else len(names))
                node = node.get(k)
            elif isinstance(node, list) and isinstance(k, int) and k < len(node):
                out.append(k)
                node = node[k]
            else:
                out.append(0)
                node = None
        return tuple(out)
    return rank


def _walk_type(cls: type, keys: Keys) -> tuple[Any, Keys, Any, int]:
    """The declared type at ``keys``: (type, the keys of the deepest schema attribute,
    that attribute or None, how many keys lead into the innermost class that names its
    keys from itself (``RELATIVE``: a scenario's ``then.legal``, not ``scenario[0]...``))."""
    tp: Any = cls
    attr = None
    attr_keys: Keys = ()
    root = 0
    for depth, k in enumerate(keys):
        tp = _strip_optional(tp)
        if attrs.has(tp) and getattr(tp, "RELATIVE", False):
            root = depth
        if attrs.has(tp) and isinstance(k, str):
            field = attrs.fields_dict(tp).get(_py_name(tp, k))
            if field is None:
                return tp, attr_keys, attr, root
            attr, attr_keys, tp = field, keys[:depth + 1], field.type
        elif typing.get_origin(tp) in (list, tuple) or typing.get_origin(tp) is dict:
            tp = typing.get_args(tp)[-1] if typing.get_args(tp) else Any
        else:
            return tp, attr_keys, attr, root
    tp = _strip_optional(tp)
    if attrs.has(tp) and getattr(tp, "RELATIVE", False):
        root = len(keys)
    return tp, attr_keys, attr, root


def _py_name(cls: type, key: str) -> str:
    """The attribute for a file key (``from_`` for ``from``)."""
    names = attrs.fields_dict(cls)
    return key if key in names else key + "_"


def _strip_optional(tp: Any) -> Any:
    args = typing.get_args(tp)
    if args and type(None) in args:
        rest = [a for a in args if a is not type(None)]
        if len(rest) == 1:
            return rest[0]
    return tp


def _value_at(data: Any, keys: Keys) -> Any:
    node = data
    for k in keys:
        if isinstance(node, dict) and k in node:
            node = node[k]
        elif isinstance(node, list) and isinstance(k, int) and 0 <= k < len(node):
            node = node[k]
        else:
            return None
    return node


def problem_at(keys: Keys, leaf: BaseException, data: Any, cls: type) -> SchemaProblem:
    """One line for a leaf error at ``keys``, in the schema's words."""
    if isinstance(leaf, ForbiddenExtraKeysError):
        holder, _, _, _ = _walk_type(cls, keys)
        holder = _strip_optional(holder)
        extra = sorted(map(str, leaf.extra_fields))
        known = sorted(_file_key(f) for f in attrs.fields(holder)) if attrs.has(holder) else []
        where = getattr(holder, "WHERE", "the table")
        name = extra[0]
        more = f" (and {len(extra) - 1} more)" if len(extra) > 1 else ""
        return SchemaProblem(f"unknown key {name!r}{more} in {where} (allowed: "
                             f"{', '.join(known)})", *keys, name)
    if isinstance(leaf, KeyError):   # a required key is missing
        _, attr_keys, attr, _ = _walk_type(cls, keys)
        name = keys[-1] if keys else "?"
        said = attr.metadata.get("missing") if attr is not None else None
        return SchemaProblem(said or f"missing {name!r}", *keys[:-1])
    tp, attr_keys, attr, root = _walk_type(cls, keys)
    whole = attr_keys or keys
    if attr is not None:
        want = attr.metadata.get("expect") or expected(attr.type)
    else:
        want = expected(tp)
    return SchemaProblem(f"'{dotted(whole[root:])}' must be {want}, got "
                         f"{show(_value_at(data, whole))}", *keys)


def _file_key(field: Any) -> str:
    return field.name[:-1] if field.name.endswith("_") else field.name


def field(*, expect: str | None = None, missing: str | None = None, **kwargs: Any) -> Any:
    """An attrs field with the words its errors use: ``expect`` (what the value must be)
    and ``missing`` (what to say when a required key is absent)."""
    metadata = dict(kwargs.pop("metadata", {}))
    if expect:
        metadata["expect"] = expect
    if missing:
        metadata["missing"] = missing
    return attrs.field(metadata=metadata, **kwargs)
