"""The state document (``State.to_json()``, JSON): a game's name, the reading it was played
under, and each field's value by name. Schema: ``docs/formats/state.schema.json``.

The document's shape is checked here (attrs + cattrs, strictly); each field's value is
checked against its game by the model (``Model.state_from_json``), which reports a problem
through :func:`state_error` with the field's key path, so a problem in a JSON text names its
line as well.

>>> state_doc({"game": "g", "fields": {"x": 1}}).fields
{'x': 1}
>>> try:
...     parse_state('{"game": "g",\\n "fields": [1]}')
... except StateError as err:
...     print(err)
state:2: 'fields' must be an object of field: value, got [1]
"""

from typing import Any, Mapping

import attrs

from .errors import FormatError
from .files import parse_json
from .locate import json_line
from .schema import SchemaProblem, Value, field, structure


class StateError(FormatError):
    """A state document is malformed, or does not fit its game (one line: where, the line
    when known, what is wrong)."""


@attrs.frozen
class StateDoc:
    """A state document as written: every key, checked for its type."""

    WHERE = "a state"
    game: str = field(expect="a game's name", missing="a state needs 'game', the game's name")
    fields: dict[str, Value] = field(expect="an object of field: value",
                                     missing="a state needs a 'fields' object")
    interpretation: dict[str, str] | None = field(
        default=None, expect="an object of point: \"option\"")


def state_error(where: str, text: str | None, problem: str, *keys: Any) -> StateError:
    """The one error of a state: ``where:line: problem`` (the line of ``keys`` in ``text``
    when the state came as JSON text)."""
    line = json_line(text, keys) if text is not None and keys else None
    return StateError(where, problem, line=line)


def state_doc(data: Any, where: str = "state", text: str | None = None) -> StateDoc:
    """Validate a state's JSON value (a mapping); :class:`StateError` names the first
    problem (and its line when the ``text`` it was read from is given)."""
    if not isinstance(data, Mapping):
        raise StateError(where, f"a state must be a JSON object, not {_kind(data)}")
    try:
        return structure(dict(data), StateDoc)
    except SchemaProblem as p:
        raise state_error(where, text, p.problem, *p.keys) from None


def parse_state(source: str | Mapping[str, Any], where: str = "state"
                ) -> tuple[StateDoc, str | None]:
    """A state from its JSON text or its value: the document and the text (None for a
    value), for :func:`state_error`'s lines."""
    if isinstance(source, str):
        return state_doc(parse_json(source, where, what="state", error=StateError), where,
                         source), source
    return state_doc(source, where), None


def _kind(value: Any) -> str:
    return {list: "a list", str: "a string", bool: "true/false", int: "a number",
            float: "a number", type(None): "null"}.get(type(value), "a value")
