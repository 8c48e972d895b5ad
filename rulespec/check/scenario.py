"""Scenarios: given/when/then files (TOML) that pin a rule to a concrete situation.

A scenario file names one game and holds several scenarios. Each scenario starts from the
game's setup, plays the ``given`` actions, applies optional ``given`` state edits, plays the
``when`` actions and checks the ``then`` expectations (see ``docs/scenarios.md``)::

    game = "tic_tac_toe"

    [[scenario]]
    name = "a row of three wins"
    source = "tic-tac-toe common rules: three in a row wins"
    [scenario.given]
    actions = ["mark(0,0)", "mark(1,0)", "mark(0,1)", "mark(1,1)"]
    [scenario.when]
    actions = ["mark(0,2)"]
    [scenario.then]
    winners = [0]
    terminal = true

Two kinds of failure are kept apart:

* a malformed file (TOML syntax, an unknown key, a wrong type, an unknown game, an action text
  that names no action, a bad field name or value, a bad interpretation) raises
  :class:`ScenarioFileError`, whose message is one line, ``path:line: problem``;
* an expectation that does not hold gives a :class:`ScenarioResult` with status ``VIOLATED``
  and one message per failed expectation, showing what was expected and what happened.
"""

from __future__ import annotations

import copy
import math
import os
import re
import tomllib
from fractions import Fraction
from pathlib import Path
from typing import Any, Iterable, Mapping, Sequence

import attrs

from ..ir.errors import SpecError
from ..runtime import CHANCE, TERMINAL, IllegalAction, Model, State
from ..runtime.registry import available_games, load
from ..runtime.trace import Trace, spec_identity

__all__ = ["FieldRef", "Given", "When", "Then", "Scenario", "ScenarioFile", "ScenarioResult",
           "ScenarioFileError", "load_scenario_file", "run_scenario_file", "run_scenario",
           "scenario_situation", "PASSED", "VIOLATED"]

PASSED = "PASSED"
VIOLATED = "VIOLATED"


# --- errors -------------------------------------------------------------------------------
class ScenarioFileError(Exception):
    """A scenario file is malformed. ``str()`` is one line: ``path:line: problem``.

    When no line is known it reads ``path: scenario 'name': problem``.
    """

    def __init__(self, path: str | os.PathLike, problem: str, *, line: int | None = None,
                 scenario: str | None = None) -> None:
        self.path = os.fspath(path)
        self.line = line
        self.scenario = scenario
        self.problem = _one_line(problem)
        where = f"{self.path}:{line}" if line else self.path
        about = f"scenario {scenario!r}: " if scenario else ""
        super().__init__(f"{where}: {about}{self.problem}")


class _Problem(Exception):
    """Internal: a problem and the key path it is about (turned into a ScenarioFileError)."""

    def __init__(self, problem: str, *keys: str) -> None:
        super().__init__(problem)
        self.problem = problem
        self.keys = keys


def _one_line(text: str) -> str:
    return " ".join(str(text).split())


# --- the parsed file ----------------------------------------------------------------------
@attrs.frozen
class FieldRef:
    """A field, or a part of an array field: ``board``, ``board[1][2]``, ``board[1]``.

    ``index`` holds integer positions (a dimension with named positions — an enum, or
    labels such as token codes — may be written with the name; it is stored as the
    position).
    """

    text: str
    field: str
    index: tuple[int, ...] = ()


@attrs.frozen
class Given:
    """Where the scenario starts: actions played from setup, then direct state edits."""

    actions: tuple[str, ...] = ()
    edits: tuple[tuple[FieldRef, Any], ...] = ()


@attrs.frozen
class When:
    """The actions the scenario is about, played in order."""

    actions: tuple[str, ...] = ()


@attrs.frozen
class Then:
    """What must hold afterwards. ``None`` / empty means "not checked"."""

    legal: tuple[str, ...] = ()
    illegal: tuple[str, ...] = ()
    illegal_because: tuple[tuple[str, tuple[str, ...]], ...] = ()
    only_legal: tuple[str, ...] | None = None
    refused: str | None = None
    refused_because: tuple[str, ...] = ()
    fields: tuple[tuple[FieldRef, Any], ...] = ()
    scores: tuple[int, ...] | None = None
    winners: tuple[int, ...] | None = None
    terminal: bool | None = None
    current_player: int | str | None = None
    outcomes: tuple[tuple[str, Fraction], ...] | None = None


@attrs.frozen
class Scenario:
    """One given/when/then case. ``line`` is the line of its ``[[scenario]]`` header."""

    name: str
    source: str
    players: int
    interpretation: Mapping[str, str]
    given: Given
    when: When
    then: Then
    line: int | None = None
    ruleset: str | None = None   # the named ruleset the interpretation starts from


@attrs.frozen
class ScenarioFile:
    """A parsed, validated scenario file. ``game_ref`` is what :func:`rulespec.load` takes."""

    path: str
    game: str
    game_ref: str
    source: str | None
    scenarios: tuple[Scenario, ...]

    def model(self, scenario: Scenario) -> Model:
        """The game, compiled under the scenario's interpretation."""
        return load(self.game_ref, dict(scenario.interpretation))


@attrs.frozen
class ScenarioResult:
    """The outcome of one scenario: ``PASSED`` or ``VIOLATED`` with a message per failure.

    ``played`` lists the actions actually applied (given, then when); ``start`` is the JSON
    dict of the state the ``when`` actions start from (after the given actions and edits) and
    ``when_played`` the when actions applied to it; ``state`` is the JSON dict of the state the
    expectations were checked in. Without edits, ``game``, ``players``, ``interpretation`` and
    ``played`` replay the scenario from setup; with edits, replay ``when_played`` from ``start``.
    """

    name: str
    source: str
    status: str
    failures: tuple[str, ...]
    file: str
    line: int | None
    game: str
    players: int
    interpretation: Mapping[str, str]
    played: tuple[str, ...] = ()
    spec_path: str | None = None
    spec_sha256: str | None = attrs.field(default=None, kw_only=True)
    edited: bool = False
    start: Mapping[str, Any] | None = None
    when_played: tuple[str, ...] = ()
    state: Mapping[str, Any] | None = None

    @property
    def passed(self) -> bool:
        return self.status == PASSED

    def to_trace(self) -> Trace | None:
        """The scenario's actions as a replayable trace (None if ``given.edits`` were used:
        an edited state is not reached from setup, so a trace of actions cannot replay it)."""
        if self.edited:
            return None
        return Trace(game=self.game, players=self.players, actions=tuple(self.played),
                     interpretation=dict(self.interpretation),
                     property=f"scenario {self.name!r}" if self.failures else None,
                     message="; ".join(self.failures) or None, spec_path=self.spec_path,
                     spec_sha256=self.spec_sha256)

    def to_dict(self, states: bool = True) -> dict[str, Any]:
        """The result as JSON values; ``states=False`` leaves out ``start`` and ``state``
        (whole game states: a Hawaii state is tens of kilobytes)."""
        d = {"name": self.name, "source": self.source, "status": self.status,
             "failures": list(self.failures), "file": self.file, "line": self.line,
             "game": self.game, "players": self.players,
             "interpretation": dict(self.interpretation), "played": list(self.played),
             "spec_path": self.spec_path, "edited": self.edited,
             "when_played": list(self.when_played)}
        if states:
            d["start"], d["state"] = self.start, self.state
        return d


# --- finding lines in the file text -------------------------------------------------------
_HEADER = re.compile(r"^\s*(\[\[?)\s*([^\[\]]+?)\s*(\]\]?)\s*(#.*)?$")
_DOTTED = re.compile(r"^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$")


class _Locator:
    """Best-effort line numbers for keys, from the file text (tomllib gives none)."""

    def __init__(self, text: str) -> None:
        self.lines = text.splitlines()
        self.headers: list[tuple[int, str, bool]] = []   # (0-based line, dotted name, is [[ ]])
        for i, line in enumerate(self.lines):
            m = _HEADER.match(line)
            if not m or len(m.group(1)) != len(m.group(3)):
                continue
            name = re.sub(r"\s*\.\s*", ".", m.group(2).strip()).replace('"', "").replace("'", "")
            if _DOTTED.match(name):
                self.headers.append((i, name, len(m.group(1)) == 2))
        self.scenarios = [i for i, name, arr in self.headers if arr and name == "scenario"]

    def _next_header(self, after: int, end: int, within: str) -> int:
        """The first header after ``after`` that is not a sub-table of ``within``."""
        for i, name, _ in self.headers:
            if after < i < end and not name.startswith(within + "."):
                return i
        return end

    def find(self, index: int | None, keys: Sequence[str]) -> int | None:
        """The 1-based line of ``keys`` (a path of names) in scenario ``index`` (or the top)."""
        if index is None:
            if keys:  # a top-level key written as a table header: [scenario], [interpretation]
                header = next((i for i, name, _ in self.headers if name == keys[0]), None)
                if header is not None:
                    return header + 1
            start, end = 0, self.headers[0][0] if self.headers else len(self.lines)
            best: int | None = None
            prefix = ""
        else:
            if index >= len(self.scenarios):
                return None
            start = self.scenarios[index]
            later = [i for i in self.scenarios if i > start]
            end = later[0] if later else len(self.lines)
            best = start
            prefix = "scenario."
        for depth, key in enumerate(keys):
            dotted = prefix + ".".join(keys[:depth + 1])
            header = next((i for i, name, _ in self.headers
                           if start <= i < end and name == dotted), None)
            if header is not None:
                best, start = header, header
                end = self._next_header(header, end, dotted)
                continue
            q = re.escape(key)
            as_key = re.compile(rf"""(^|[\s{{,.])("{q}"|'{q}'|{q})\s*=""")
            as_text = re.compile(rf"""("{q}"|'{q}')""")
            found = None
            for i in range(start, end):
                if as_key.search(self.lines[i]) or (depth == len(keys) - 1
                                                    and as_text.search(self.lines[i])):
                    found = i
                    break
            if found is None:
                break
            best, start = found, found
        return None if best is None else best + 1


# --- loading ------------------------------------------------------------------------------
_TOP_KEYS = {"game", "source", "players", "interpretation", "ruleset", "diff", "scenario"}
_SCENARIO_KEYS = {"name", "source", "players", "interpretation", "ruleset", "given", "when",
                  "then"}
_GIVEN_KEYS = {"actions", "edits"}
_WHEN_KEYS = {"actions"}
_THEN_KEYS = {"legal", "illegal", "illegal_because", "only_legal", "refused", "refused_because",
              "fields", "scores", "winners", "terminal", "current_player", "outcomes"}


#: a scenario file is a few kilobytes; a far larger file is refused unread
MAX_SCENARIO_BYTES = 4 * 1024 * 1024


def read_scenario_text(path: str | os.PathLike) -> str:
    """The file's text; :class:`ScenarioFileError` for a folder, a missing, unreadable,
    huge or binary file."""
    shown = os.fspath(path)
    p = Path(path)
    try:
        if p.is_dir():
            raise ScenarioFileError(shown, "is a folder, not a scenario file (give the .toml "
                                    "files in it)")
        if p.exists() and not p.is_file():
            raise ScenarioFileError(shown, "not a regular file (a device or a pipe?)")
        with open(p, "rb") as fh:  # read at most one byte more than a scenario file may have
            raw = fh.read(MAX_SCENARIO_BYTES + 1)
        if len(raw) > MAX_SCENARIO_BYTES:
            raise ScenarioFileError(shown, "too large for a scenario file (more than "
                                    f"{MAX_SCENARIO_BYTES} bytes)")
        return raw.decode("utf-8")
    except FileNotFoundError:
        raise ScenarioFileError(shown, "no such file") from None
    except UnicodeDecodeError:
        raise ScenarioFileError(shown, "not a scenario file: not UTF-8 text") from None
    except OSError as err:
        raise ScenarioFileError(shown, f"cannot read the file: {err.strerror or err}") from None


def load_scenario_file(path: str | os.PathLike) -> ScenarioFile:
    """Read and validate a scenario file; raise :class:`ScenarioFileError` on bad input."""
    shown = os.fspath(path)
    text = read_scenario_text(path)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        line, problem = _toml_error(str(err), text)
        raise ScenarioFileError(shown, f"not valid TOML: {problem}", line=line) from None
    except RecursionError:
        raise ScenarioFileError(shown, "not valid TOML: nested too deeply") from None
    loc = _Locator(text)

    def fail(problem: str, index: int | None, keys: Sequence[str],
             name: str | None = None) -> ScenarioFileError:
        line = loc.find(index, keys)
        return ScenarioFileError(shown, problem, line=line, scenario=name)

    try:
        _check_keys(data, _TOP_KEYS, "the file")
        if "game" not in data:
            raise _Problem("missing 'game': a bundled game's name or the path of its spec")
        game = _typed(data["game"], str, "game")
        if not game.strip():
            raise _Problem("'game' is empty: give a bundled game's name or the path of its spec",
                           "game")
        file_source = _typed(data.get("source"), str, "source")
        game_ref = _resolve_game(game, Path(path))
        try:
            base = load(game_ref)
        except SpecError as err:
            raise _Problem(f"game {game!r} does not load: {err}", "game") from None
        file_players = _typed(data.get("players"), int, "players")
        file_interp = _interpretation(data.get("interpretation"), ("interpretation",))
        file_ruleset = _typed(data.get("ruleset"), str, "ruleset")
        _typed(data.get("diff"), dict, "diff")   # what `rulespec diff` found: not checked
        if file_players is not None:
            _check_players(base, file_players, ("players",))
        if file_interp or file_ruleset:
            _model(game_ref, file_interp, ("ruleset" if file_ruleset else "interpretation",),
                   file_ruleset)
        raw = data.get("scenario")
        if raw is None:
            raise _Problem("no scenarios: add at least one [[scenario]] table")
        if not isinstance(raw, list) or not all(isinstance(s, dict) for s in raw):
            raise _Problem("'scenario' must be an array of tables: write each as [[scenario]]",
                           "scenario")
        if not raw:
            raise _Problem("no scenarios: add at least one [[scenario]] table")
    except _Problem as p:
        raise fail(p.problem, None, p.keys) from None

    scenarios: list[Scenario] = []
    seen: dict[str, int] = {}
    for n, table in enumerate(raw):
        name = table.get("name") if isinstance(table.get("name"), str) else None
        try:
            sc = _scenario(table, game_ref, base, file_players, file_interp,
                           loc.find(n, ()), file_ruleset)
        except _Problem as p:
            raise fail(p.problem, n, p.keys, name or f"#{n + 1}") from None
        if sc.name in seen:
            raise fail(f"the name is already used by scenario #{seen[sc.name] + 1}; "
                       "give each scenario its own name", n, ("name",), sc.name)
        seen[sc.name] = n
        scenarios.append(sc)
    return ScenarioFile(shown, game, game_ref, file_source, tuple(scenarios))


def _toml_error(message: str, text: str) -> tuple[int | None, str]:
    m = re.search(r"\s*\(at line (\d+), column (\d+)\)", message)
    if m:
        return int(m.group(1)), message[:m.start()] + f" (column {m.group(2)})"
    m = re.search(r"\s*\(at end of document\)", message)
    if m:
        return max(1, len(text.splitlines())), message[:m.start()] + " (at the end of the file)"
    return None, message


def _resolve_game(game: str, scenario_path: Path) -> str:
    if game in available_games():
        return game
    p = Path(game)
    if not p.is_absolute():
        p = scenario_path.parent / p
    if (p.is_dir() and (p / "spec.py").is_file()) or (p.is_file() and p.suffix == ".py"):
        return str(p.resolve())
    known = ", ".join(available_games())
    raise _Problem(f"unknown game {game!r}: not a bundled game ({known}) nor a spec .py file or "
                   "folder relative to this file", "game")


def _check_keys(table: Mapping[str, Any], allowed: set[str], what: str,
                keys: tuple[str, ...] = ()) -> None:
    for k in table:
        if k not in allowed:
            raise _Problem(f"unknown key {k!r} in {what} (allowed: "
                           f"{', '.join(sorted(allowed))})", *keys, k)


_TYPE_NAMES = {str: "a string", int: "an integer", bool: "true or false", dict: "a table",
               list: "an array"}


def _typed(value: Any, kind: type, *keys: str) -> Any:
    """``value`` if it is of ``kind`` (or None); ints are never bools here."""
    if value is None:
        return None
    ok = isinstance(value, kind) and not (kind is int and isinstance(value, bool))
    if not ok:
        raise _Problem(f"'{'.'.join(keys)}' must be {_TYPE_NAMES[kind]}, got {_show(value)}",
                       *keys)
    return value


def _strings(value: Any, *keys: str) -> tuple[str, ...]:
    if value is None:
        return ()
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise _Problem(f"'{'.'.join(keys)}' must be an array of strings, got {_show(value)}",
                       *keys)
    return tuple(value)


def _string_or_strings(value: Any, *keys: str) -> tuple[str, ...]:
    if isinstance(value, str):
        return (value,)
    if not isinstance(value, list) or not value or not all(isinstance(v, str) for v in value):
        raise _Problem(f"'{'.'.join(keys)}' must be a string or an array of strings, "
                       f"got {_show(value)}", *keys)
    return tuple(value)


def _ints(value: Any, *keys: str) -> tuple[int, ...] | None:
    if value is None:
        return None
    if not isinstance(value, list) or not all(
            isinstance(v, int) and not isinstance(v, bool) for v in value):
        raise _Problem(f"'{'.'.join(keys)}' must be an array of integers, got {_show(value)}",
                       *keys)
    return tuple(value)


def _interpretation(value: Any, keys: tuple[str, ...]) -> dict[str, str]:
    if value is None:
        return {}
    if not isinstance(value, dict) or not all(isinstance(v, str) for v in value.values()):
        raise _Problem(f"'{'.'.join(keys)}' must be a table of point = \"option\", "
                       f"got {_show(value)}", *keys)
    return dict(value)


def _model(game_ref: str, interp: Mapping[str, str], keys: tuple[str, ...],
           ruleset: str | None = None) -> Model:
    try:
        return load(game_ref, dict(interp) or None, ruleset=ruleset)
    except ValueError as err:
        raise _Problem(str(err), *keys) from None


def _check_players(model: Model, n: int, keys: tuple[str, ...]) -> None:
    if not model.min_players <= n <= model.max_players:
        span = (str(model.min_players) if model.min_players == model.max_players
                else f"{model.min_players}-{model.max_players}")
        raise _Problem(f"{model.name} is for {span} players, not {n}", *keys)


def _scenario(table: dict[str, Any], game_ref: str, base: Model, file_players: int | None,
              file_interp: Mapping[str, str], line: int | None,
              file_ruleset: str | None = None) -> Scenario:
    _check_keys(table, _SCENARIO_KEYS, "a scenario")
    name = _typed(table.get("name"), str, "name")
    if not name or not name.strip():
        raise _Problem("a scenario needs a 'name'", "name")
    source = _typed(table.get("source"), str, "source")
    if not source or not source.strip():
        raise _Problem("a scenario needs a 'source': the rule it pins (seed file + section, "
                       "or a short quote)", "source")
    interp = {**file_interp, **_interpretation(table.get("interpretation"),
                                                ("interpretation",))}
    ruleset = _typed(table.get("ruleset"), str, "ruleset") or file_ruleset
    model = (_model(game_ref, interp, ("ruleset" if "ruleset" in table else "interpretation",),
                    ruleset) if interp or ruleset else base)
    if ruleset:  # the scenario runs under the ruleset's options, overridden by its own
        interp = dict(model.interpretation)
    players = _typed(table.get("players"), int, "players")
    players = players if players is not None else (file_players if file_players is not None
                                                   else model.min_players)
    _check_players(model, players, ("players",))
    s0 = model.initial_state(players)

    def action(text: str, *keys: str) -> str:
        try:
            model.action_from_str(s0, text)
        except ValueError as err:
            raise _Problem(f"'{'.'.join(keys[:-1])}': {err}", *keys) from None
        return text

    sections = {}
    for part in ("given", "when", "then"):
        sec = table.get(part, {})
        if not isinstance(sec, dict):
            raise _Problem(f"'{part}' must be a table ([scenario.{part}]), got {_show(sec)}",
                           part)
        sections[part] = sec
    if "then" not in table:
        raise _Problem("a scenario needs a [scenario.then] table with what must hold")

    g = sections["given"]
    _check_keys(g, _GIVEN_KEYS, "[scenario.given]", ("given",))
    g_actions = tuple(action(t, "given", "actions", t)
                      for t in _strings(g.get("actions"), "given", "actions"))
    edits = _field_values(model, s0, g.get("edits"), ("given", "edits"), edit=True)

    w = sections["when"]
    _check_keys(w, _WHEN_KEYS, "[scenario.when]", ("when",))
    w_actions = tuple(action(t, "when", "actions", t)
                      for t in _strings(w.get("actions"), "when", "actions"))

    t = sections["then"]
    _check_keys(t, _THEN_KEYS, "[scenario.then]", ("then",))
    if not t:
        raise _Problem("[scenario.then] is empty: say what must hold", "then")
    legal = tuple(action(x, "then", "legal", x) for x in _strings(t.get("legal"), "then", "legal"))
    illegal = tuple(action(x, "then", "illegal", x)
                    for x in _strings(t.get("illegal"), "then", "illegal"))
    only_legal = None
    if "only_legal" in t:
        only_legal = tuple(action(x, "then", "only_legal", x)
                           for x in _strings(t["only_legal"], "then", "only_legal"))
    because: list[tuple[str, tuple[str, ...]]] = []
    ib = t.get("illegal_because")
    if ib is not None:
        if not isinstance(ib, dict):
            raise _Problem("'then.illegal_because' must be a table of \"action\" = \"reason\", "
                           f"got {_show(ib)}", "then", "illegal_because")
        for text, reasons in ib.items():
            action(text, "then", "illegal_because", text)
            because.append((text, _string_or_strings(reasons, "then", "illegal_because", text)))
    refused = _typed(t.get("refused"), str, "then", "refused")
    refused_because: tuple[str, ...] = ()
    if "refused_because" in t:
        if refused is None:
            raise _Problem("'then.refused_because' needs 'then.refused' (the refused action)",
                           "then", "refused_because")
        refused_because = _string_or_strings(t["refused_because"], "then", "refused_because")
    if refused is not None:
        action(refused, "then", "refused", refused)
        if not w_actions or w_actions[-1].strip() != refused.strip():
            last = repr(w_actions[-1]) if w_actions else "none"
            raise _Problem(f"'then.refused' names the action expected to be refused, which must "
                           f"be the last of 'when.actions' (it is {last}, not {refused!r})",
                           "then", "refused")
    fields = _field_values(model, s0, t.get("fields"), ("then", "fields"), edit=False)
    scores = _ints(t.get("scores"), "then", "scores")
    if scores is not None and len(scores) != players:
        raise _Problem(f"'then.scores' needs one score per player ({players}), got {len(scores)}",
                       "then", "scores")
    winners = _ints(t.get("winners"), "then", "winners")
    if winners is not None:
        bad = [p for p in winners if not 0 <= p < players]
        if bad or len(set(winners)) != len(winners):
            raise _Problem(f"'then.winners' must list distinct players 0..{players - 1}, "
                           f"got {list(winners)}", "then", "winners")
    terminal = _typed(t.get("terminal"), bool, "then", "terminal")
    cp = t.get("current_player")
    if cp is not None and not (cp == "chance" or (isinstance(cp, int) and not isinstance(cp, bool)
                                                   and 0 <= cp < players)):
        raise _Problem(f"'then.current_player' must be a player 0..{players - 1} or \"chance\", "
                       f"got {_show(cp)}", "then", "current_player")
    outcomes = None
    if "outcomes" in t:
        oc = t["outcomes"]
        if not isinstance(oc, dict):
            raise _Problem("'then.outcomes' must be a table of \"outcome\" = probability, "
                           f"got {_show(oc)}", "then", "outcomes")
        outcomes = tuple((action(k, "then", "outcomes", k),
                          _probability(v, ("then", "outcomes", k))) for k, v in oc.items())
    then = Then(legal=legal, illegal=illegal, illegal_because=tuple(because),
                only_legal=only_legal, refused=refused, refused_because=refused_because,
                fields=fields, scores=scores, winners=winners, terminal=terminal,
                current_player=cp, outcomes=outcomes)
    return Scenario(name=name, source=source, players=players, interpretation=interp,
                    given=Given(g_actions, edits), when=When(w_actions), then=then, line=line,
                    ruleset=ruleset)


def _probability(value: Any, keys: tuple[str, ...]) -> Fraction:
    try:
        if isinstance(value, bool):
            raise ValueError
        if isinstance(value, str):
            p = Fraction(value.strip())
        elif isinstance(value, (int, float)) and math.isfinite(value):
            p = Fraction(value).limit_denominator(10**9)
        else:
            raise ValueError
    except (ValueError, ZeroDivisionError):
        raise _Problem(f"'{'.'.join(keys[:-1])}': {keys[-1]!r} needs a probability such as 0.5 "
                       f"or \"1/3\", got {_show(value)}", *keys) from None
    if not 0 <= p <= 1:
        raise _Problem(f"'{'.'.join(keys[:-1])}': {keys[-1]!r} has probability {value}, "
                       "outside 0..1", *keys)
    return p


# --- field references and values ----------------------------------------------------------
_REF = re.compile(r"^\s*([A-Za-z_]\w*)\s*((?:\[[^\[\]]*\]\s*)*)$")


def _parse_ref(model: Model, text: str) -> FieldRef:
    m = _REF.match(text)
    if not m:
        raise ValueError(f"{text!r} is not a field reference (write field or field[i][j])")
    name = m.group(1)
    slots = model.layout.slots
    if name not in slots:
        raise ValueError(f"{model.name} has no field {name!r} (fields: {', '.join(slots)})")
    dims = slots[name].field.dims
    parts = [p.strip() for b in re.findall(r"\[([^\[\]]*)\]", m.group(2)) for p in b.split(",")]
    if len(parts) > len(dims):
        raise ValueError(f"{text!r}: field {name!r} has {len(dims)} dimension(s), "
                         f"indexed with {len(parts)}")
    index = []
    for d, part in zip(dims, parts):
        names = d.names()
        if re.fullmatch(r"\d+", part):
            i = int(part)
        elif names is not None and part in names:
            i = names.index(part)
        else:
            what = f"0..{d.size - 1}" + (f" or a {d.label()} name" if names is not None else "")
            raise ValueError(f"{text!r}: index {part!r} is not {what}")
        if not 0 <= i < d.size:
            raise ValueError(f"{text!r}: index {i} is outside 0..{d.size - 1}")
        index.append(i)
    return FieldRef(text, name, tuple(index))


def _put(data: dict[str, Any], ref: FieldRef, value: Any) -> None:
    """Set ``ref`` to ``value`` in a state's JSON dict."""
    fields = data["fields"]
    if not ref.index:
        fields[ref.field] = copy.deepcopy(value)
        return
    target = fields[ref.field]
    for i in ref.index[:-1]:
        target = target[i]
    target[ref.index[-1]] = copy.deepcopy(value)


def _get(state: State, ref: FieldRef) -> Any:
    value = state[ref.field]
    for i in ref.index:
        value = value[i]
    return value


def _field_values(model: Model, s0: State, table: Any, keys: tuple[str, ...], *, edit: bool
                  ) -> tuple[tuple[FieldRef, Any], ...]:
    """Parse ``{ "ref" = value }`` and check each value through ``state_from_json``."""
    if table is None:
        return ()
    where = ".".join(keys)
    if not isinstance(table, dict):
        raise _Problem(f"'{where}' must be a table of \"field\" = value, got {_show(table)}",
                       *keys)
    out = []
    for text, value in table.items():
        try:
            ref = _parse_ref(model, text)
        except ValueError as err:
            raise _Problem(f"'{where}': {err}", *keys, text) from None
        try:
            value = _named(model, ref, value)
        except ValueError as err:
            raise _Problem(f"'{where}': {text}: {err}", *keys, text) from None
        data = s0.to_dict()
        _put(data, ref, value)
        try:
            model.state_from_json(data)
        except ValueError as err:
            what = "cannot set" if edit else "cannot expect"
            raise _Problem(f"'{where}': {what} {text} = {_show(value)}: {err}", *keys,
                           text) from None
        out.append((ref, value))
    return tuple(out)


def _named(model: Model, ref: FieldRef, value: Any) -> Any:
    """A table ``{ "6/spear" = 1 }`` for a dimension with named positions, as the list it
    stands for: the named entries, every other one 0 (false for a bool field). Tables may
    nest (``{ fruit_1 = { "2/plain" = 1 } }``); lists and plain values pass through."""
    field = model.layout.slots[ref.field].field
    dims = field.dims[len(ref.index):]
    zero: Any = False if field.type.kind == "bool" else 0
    if field.type.enum is not None:
        zero = None

    def expand(v: Any, rest: tuple) -> Any:
        if isinstance(v, list) and rest:
            return [expand(x, rest[1:]) for x in v]
        if not isinstance(v, dict):
            return v
        if not rest or rest[0].names() is None:
            raise ValueError("a table of names needs a dimension with named positions "
                             "(an enum or labels) here; write a list")
        names = rest[0].names()
        unknown = [k for k in v if k not in names]
        if unknown:
            shown = ", ".join(n for n in names if n is not None)
            raise ValueError(f"{unknown[0]!r} is not a {rest[0].label()} name ({shown})")
        out = []
        for name in names:
            if name is not None and name in v:
                out.append(expand(v[name], rest[1:]))
            elif zero is None:
                raise ValueError(f"name every {rest[0].label()} entry of an enum field "
                                 f"(missing {name!r})")
            else:
                out.append(_filled(zero, rest[1:]))
        return out

    return expand(value, dims)


def _filled(zero: Any, dims: tuple) -> Any:
    if not dims:
        return zero
    return [_filled(zero, dims[1:]) for _ in range(dims[0].size)]


def scenario_situation(sf: ScenarioFile, sc: Scenario, game: Model) -> State:
    """The state a scenario's ``when`` actions start from, under ``game``: its given
    actions from setup, then its edits. Raises ValueError if a given action is refused."""
    state = game.initial_state(sc.players)
    for i, text in enumerate(sc.given.actions):
        reasons, after = _try(game, state, text)
        if after is None:
            raise ValueError(f"{sf.path}: scenario {sc.name!r}: given action {i + 1}, "
                             f"{text!r}, is refused: {_reasons(reasons)}")
        state = after
    if sc.given.edits:
        data = state.to_dict()
        for ref, value in sc.given.edits:
            _put(data, ref, value)
        state = game.state_from_json(data)
    return state


# --- running ------------------------------------------------------------------------------
def run_scenario_file(path: str | os.PathLike) -> list[ScenarioResult]:
    """Load (raising :class:`ScenarioFileError` on bad input) and run every scenario."""
    sf = load_scenario_file(path)
    return [run_scenario(sf, sc) for sc in sf.scenarios]


def run_scenario(sf: ScenarioFile, sc: Scenario) -> ScenarioResult:
    """Play one scenario and check its expectations."""
    game = sf.model(sc)
    state = game.initial_state(sc.players)
    played: list[str] = []
    when_played: list[str] = []
    failures: list[str] = []
    start: State | None = None

    def result(checked: State) -> ScenarioResult:
        return ScenarioResult(
            name=sc.name, source=sc.source, status=VIOLATED if failures else PASSED,
            failures=tuple(failures), file=sf.path, line=sc.line, game=game.name,
            players=sc.players, interpretation=dict(game.interpretation), played=tuple(played),
            spec_path=spec_identity(game)[0], spec_sha256=spec_identity(game)[1],
            edited=bool(sc.given.edits), start=start.to_dict() if start is not None else None,
            when_played=tuple(when_played), state=checked.to_dict())

    for i, text in enumerate(sc.given.actions):
        reasons, after = _try(game, state, text)
        if after is None:
            failures.append(f"given: action {i + 1} of {len(sc.given.actions)}, {text!r}, was "
                            f"refused: {_reasons(reasons)}")
            return result(state)
        state = after
        played.append(text)
    if sc.given.edits:
        data = state.to_dict()
        for ref, value in sc.given.edits:
            _put(data, ref, value)
        try:
            state = game.state_from_json(data)
        except ValueError as err:  # checked at load; kept for safety
            raise ScenarioFileError(sf.path, f"given.edits: {err}", line=sc.line,
                                    scenario=sc.name) from None

    start = state
    t = sc.then
    refusal: list | None = None
    for i, text in enumerate(sc.when.actions):
        last = i == len(sc.when.actions) - 1
        reasons, after = _try(game, state, text)
        if t.refused is not None and last:
            if after is not None:
                failures.append(f"expected {text!r} to be refused, but it is legal")
            else:
                refusal = reasons
            break
        if after is None:
            failures.append(f"when: action {i + 1} of {len(sc.when.actions)}, {text!r}, was "
                            f"refused: {_reasons(reasons)}")
            return result(state)
        state = after
        played.append(text)
        when_played.append(text)

    if refusal is not None and t.refused_because:
        _check_because(failures, t.refused or "", refusal, t.refused_because)
    _check_state(game, state, t, failures)
    return result(state)


def _try(game: Model, state: State, text: str) -> tuple[list, State | None]:
    """``([], new state)`` if ``text`` is accepted, else ``(reasons, None)``. A rule that
    cannot be evaluated is a reason too (the scenario fails, the run goes on)."""
    action = game.action_from_str(state, text)
    try:
        return [], game.apply(state, action)
    except IllegalAction as err:
        return list(err.reasons) or ["not a legal action here"], None
    except Exception as err:  # noqa: BLE001 - a rule error is a finding about the spec
        return [f"the rules raised {type(err).__name__}: {' '.join(str(err).split())}"], None


def _reasons(reasons: Iterable[Any]) -> str:
    return "; ".join(str(r) for r in reasons)


def _check_because(failures: list[str], text: str, reasons: list, expected: Iterable[str]
                   ) -> None:
    got = [getattr(r, "text", str(r)) for r in reasons]
    for want in expected:
        if want not in got:
            failures.append(f"expected {text!r} to be refused because {want!r}, but it is "
                            f"refused because: {'; '.join(repr(g) for g in got)}")


def _check_state(game: Model, state: State, t: Then, failures: list[str]) -> None:
    legal_now = game.legal_actions(state)
    legal_texts = [str(a) for a in legal_now]
    for text in t.legal:
        reasons, after = _try(game, state, text)
        if after is None:
            failures.append(f"expected {text!r} to be legal, but it is refused: "
                            f"{_reasons(reasons)}")
        elif game.action_from_str(state, text) not in legal_now:
            failures.append(f"expected {text!r} to be legal: it is accepted, but it is missing "
                            "from legal_actions")
    because = dict(t.illegal_because)
    for text in list(t.illegal) + [x for x in because if x not in t.illegal]:
        reasons, after = _try(game, state, text)
        if after is not None:
            failures.append(f"expected {text!r} to be refused, but it is legal")
        else:
            if game.action_from_str(state, text) in legal_now:
                failures.append(f"expected {text!r} to be refused: it is refused, but it is "
                                "listed in legal_actions")
            if text in because:
                _check_because(failures, text, reasons, because[text])
    if t.only_legal is not None:
        want, got = set(t.only_legal), set(legal_texts)
        if want != got:
            missing = [x for x in t.only_legal if x not in got]
            extra = [x for x in legal_texts if x not in want]
            parts = []
            if missing:
                parts.append(f"not legal: {_short(missing)}")
            if extra:
                parts.append(f"also legal: {_short(extra)}")
            failures.append(f"expected exactly {_short(list(t.only_legal))} to be legal; "
                            + "; ".join(parts))
    for ref, want in t.fields:
        got = _get(state, ref)
        if got != want:
            diff = _first_difference(want, got)
            failures.append(f"field {ref.text}: expected {_show(want)}, got {_show(got)}"
                            + (f" (first difference at {ref.field}"
                               f"{''.join(f'[{i}]' for i in ref.index)}{diff})" if diff else ""))
    if t.scores is not None:
        got_scores = game.scores(state)
        if list(t.scores) != got_scores:
            failures.append(f"scores: expected {list(t.scores)}, got {got_scores}")
    if t.winners is not None:
        got_winners = sorted(game.winners(state))
        if not game.is_terminal(state):
            failures.append(f"winners: expected {sorted(t.winners)}, but the game is not over "
                            f"(scores {game.scores(state)})")
        elif sorted(t.winners) != got_winners:
            failures.append(f"winners: expected {sorted(t.winners)}, got {got_winners} "
                            f"(scores {game.scores(state)})")
    if t.terminal is not None:
        over = game.is_terminal(state)
        if over != t.terminal:
            failures.append("expected the game to be over, but it is not" if t.terminal
                            else "expected the game to go on, but it is over")
    if t.current_player is not None:
        cp = game.current_player(state)
        shown = {CHANCE: "chance", TERMINAL: "nobody (the game is over)"}.get(cp, cp)
        want_cp = CHANCE if t.current_player == "chance" else t.current_player
        if cp != want_cp:
            failures.append(f"current player: expected {t.current_player!r}, got {shown!r}")
    if t.outcomes is not None:
        got_p = {str(a): p for a, p in game.chance_outcomes(state)}
        want_p = {k: v for k, v in t.outcomes}
        bad = []
        for k, v in want_p.items():
            if k not in got_p:
                bad.append(f"{k!r} is not a possible outcome")
            elif not math.isclose(got_p[k], float(v), rel_tol=1e-9, abs_tol=1e-12):
                bad.append(f"{k!r} has probability {_prob(got_p[k])}, not {_prob(v)}")
        extra = [k for k in got_p if k not in want_p]
        if extra:
            bad.append(f"also possible: {_short(extra)}")
        if bad:
            failures.append("chance outcomes: " + "; ".join(bad))


def _prob(p: float | Fraction) -> str:
    f = Fraction(p).limit_denominator(10**6)
    return str(f) if f.denominator != 1 else str(f.numerator)


def _first_difference(want: Any, got: Any, path: str = "") -> str:
    if isinstance(want, list) and isinstance(got, list):
        for i, (w, g) in enumerate(zip(want, got)):
            if w != g:
                return _first_difference(w, g, f"{path}[{i}]")
        return ""
    if not path:
        return ""
    return f"{path}: expected {_show(want)}, got {_show(got)}"


def _short(items: list[str], limit: int = 12) -> str:
    shown = ", ".join(repr(x) for x in items[:limit])
    more = f", ... ({len(items) - limit} more)" if len(items) > limit else ""
    return f"[{shown}{more}]"


def _show(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dict):
        return "a table"
    text = repr(value)
    return text if len(text) <= 120 else text[:117] + "..."
