"""The scenario file (TOML): given/when/then cases of one game (``docs/scenarios.md``).
Schema: ``docs/formats/scenario.schema.json``.

This module reads a file into its declared shape (every key, every type) and writes one
with tomli-w; what needs the game itself (action texts, field names, players) is checked
by :mod:`rulespec.check.scenario`. A scenario that names its spec by path carries the
spec file's SHA-256 (``spec_sha256``), as a trace does, unless the user named that spec
(``docs/security.md``).
"""

import os
from typing import Any, Sequence

import attrs

from .errors import FormatError
from .files import dump_toml, parse_toml, read_text
from .locate import TomlLines
from .schema import (PlayerOrChance, Probability, SchemaProblem, Strings, Value, field,
                     structure)

#: a scenario file is a few kilobytes; a far larger file is refused unread
MAX_SCENARIO_BYTES = 4 * 1024 * 1024


class ScenarioFileError(FormatError):
    """A scenario file is malformed. ``str()`` is one line: ``path:line: problem``.

    When no line is known it reads ``path: scenario 'name': problem``.
    """

    def __init__(self, path: str | os.PathLike, problem: str, *, line: int | None = None,
                 scenario: str | None = None) -> None:
        self.scenario = scenario
        super().__init__(path, problem, line=line,
                         about=f"scenario {scenario!r}: " if scenario else "")


_ACTIONS = "an array of strings"


@attrs.frozen
class GivenDoc:
    WHERE = "[scenario.given]"
    actions: list[str] = field(factory=list, expect=_ACTIONS)
    edits: dict[str, Value] | None = field(default=None,
                                           expect='a table of "field" = value')


@attrs.frozen
class WhenDoc:
    WHERE = "[scenario.when]"
    actions: list[str] = field(factory=list, expect=_ACTIONS)


@attrs.frozen
class ThenDoc:
    WHERE = "[scenario.then]"
    legal: list[str] = field(factory=list, expect=_ACTIONS)
    illegal: list[str] = field(factory=list, expect=_ACTIONS)
    illegal_because: dict[str, Strings] | None = field(
        default=None, expect='a table of "action" = "reason" (or an array of reasons)')
    only_legal: list[str] | None = field(default=None, expect=_ACTIONS)
    refused: str | None = field(default=None, expect="a string")
    refused_because: Strings | None = field(default=None)
    fields: dict[str, Value] | None = field(default=None, expect='a table of "field" = value')
    scores: list[int] | None = field(default=None, expect="an array of integers")
    winners: list[int] | None = field(default=None, expect="an array of integers")
    terminal: bool | None = field(default=None, expect="true or false")
    current_player: PlayerOrChance | None = field(default=None)
    outcomes: dict[str, Probability] | None = field(
        default=None, expect='a table of "outcome" = probability (0.5, or "1/3")')


@attrs.frozen
class ScenarioDoc:
    WHERE = "a scenario"
    RELATIVE = True   # its keys are named from the scenario: 'then.legal'
    name: str = field(missing="a scenario needs a 'name'")
    source: str = field(missing="a scenario needs a 'source': the rule it pins (seed file + "
                                "section, or a short quote)")
    then: ThenDoc = field(missing="a scenario needs a [scenario.then] table with what must "
                                  "hold", expect="a table ([scenario.then])")
    players: int | None = field(default=None)
    interpretation: dict[str, str] | None = field(default=None,
                                                  expect='a table of point = "option"')
    ruleset: str | None = field(default=None)
    given: GivenDoc = field(factory=GivenDoc, expect="a table ([scenario.given])")
    when: WhenDoc = field(factory=WhenDoc, expect="a table ([scenario.when])")


@attrs.frozen
class ScenarioFileDoc:
    WHERE = "the file"
    game: str = field(missing="missing 'game': a bundled game's name or the path of its spec")
    scenario: list[ScenarioDoc] = field(
        missing="no scenarios: add at least one [[scenario]] table",
        expect="an array of tables: write each as [[scenario]]")
    source: str | None = field(default=None)
    players: int | None = field(default=None)
    interpretation: dict[str, str] | None = field(default=None,
                                                  expect='a table of point = "option"')
    ruleset: str | None = field(default=None)
    #: the SHA-256 of the spec file when ``game`` is a path
    spec_sha256: str | None = field(default=None, expect="64 hex digits")
    #: what ``rulespec diff`` found when it wrote the file: a record, not checked
    diff: dict[str, Value] | None = field(default=None)


@attrs.frozen
class ScenarioText:
    """A scenario file read: its document, and where its keys are (for error lines)."""

    path: str
    doc: ScenarioFileDoc
    lines: TomlLines

    def error(self, problem: str, keys: Sequence[Any] = ()) -> ScenarioFileError:
        """An error about ``keys`` (``("scenario", 2, "then", "legal")``): its line, and the
        scenario it is in."""
        keys = tuple(keys)
        name = None
        if len(keys) >= 2 and keys[0] == "scenario" and isinstance(keys[1], int):
            n = keys[1]
            name = self.doc.scenario[n].name if n < len(self.doc.scenario) else f"#{n + 1}"
        return ScenarioFileError(self.path, problem, line=self.lines.find(keys), scenario=name)


def read_scenario_text(path: str | os.PathLike) -> str:
    """The file's text; :class:`ScenarioFileError` for a folder, a missing, unreadable,
    huge or binary file."""
    return read_text(path, what="scenario file (give the .toml files in it)"
                     if os.path.isdir(path) else "scenario file",
                     max_bytes=MAX_SCENARIO_BYTES, error=ScenarioFileError)


def read_scenario_doc(path: str | os.PathLike) -> ScenarioText:
    """Read a scenario file into its declared shape; nothing of its game is touched."""
    shown = os.fspath(path)
    text = read_scenario_text(path)
    data = parse_toml(text, shown, error=ScenarioFileError)
    lines = TomlLines(text)
    try:
        doc = structure(data, ScenarioFileDoc)
    except SchemaProblem as p:
        keys = p.keys
        name = None
        if len(keys) >= 2 and keys[0] == "scenario" and isinstance(keys[1], int):
            raw = data.get("scenario")
            item = raw[keys[1]] if isinstance(raw, list) and keys[1] < len(raw) else None
            got = item.get("name") if isinstance(item, dict) else None
            name = got if isinstance(got, str) else f"#{keys[1] + 1}"
        raise ScenarioFileError(shown, p.problem, line=lines.find(keys), scenario=name) from None
    if not doc.game.strip():
        raise ScenarioFileError(shown, "'game' is empty: give a bundled game's name or the "
                                "path of its spec", line=lines.find(("game",)))
    if not doc.scenario:
        raise ScenarioFileError(shown, "no scenarios: add at least one [[scenario]] table")
    return ScenarioText(shown, doc, lines)


def dump_scenario(data: dict[str, Any], comments: Sequence[str] = ()) -> str:
    """A scenario file's text (tomli-w; ``comments`` first, each made safe as a comment).
    The text is read back through the schema before it is returned: what rulespec writes,
    it can read."""
    text = dump_toml(data, list(comments))
    import tomllib
    structure(tomllib.loads(text), ScenarioFileDoc)
    return text
