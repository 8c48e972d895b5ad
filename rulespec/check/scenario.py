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
from fractions import Fraction
from pathlib import Path
from typing import Any, Callable, Collection, Iterable, Mapping, Sequence

import attrs

from ..formats.scenario import ScenarioFileError, ThenDoc, read_scenario_doc
from ..ir.errors import SpecError
from ..runtime import CHANCE, TERMINAL, IllegalAction, Model, State
from ..runtime.registry import SpecChanged, available_games, load, not_a_spec, spec_path
from ..runtime.trace import Trace, spec_identity

__all__ = ["FieldRef", "Given", "When", "Then", "Scenario", "ScenarioFile", "ScenarioResult",
           "ScenarioFileError", "load_scenario_file", "run_scenario_file", "run_scenario",
           "scenario_situation", "PASSED", "VIOLATED"]

PASSED = "PASSED"
VIOLATED = "VIOLATED"


# --- errors -------------------------------------------------------------------------------
class _Problem(Exception):
    """Internal: a problem and the key path it is about (turned into a ScenarioFileError)."""

    def __init__(self, problem: str, *keys: str) -> None:
        super().__init__(problem)
        self.problem = problem
        self.keys = keys


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
    #: the hash its spec must have (a spec named by path, not named by the user)
    spec_sha256: str | None = None

    def model(self, scenario: Scenario) -> Model:
        """The game, compiled under the scenario's interpretation."""
        return load(self.game_ref, dict(scenario.interpretation), sha256=self.spec_sha256)


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


# --- loading ------------------------------------------------------------------------------
def load_scenario_file(path: str | os.PathLike, *,
                       trusted: Collection[str | os.PathLike] = ()) -> ScenarioFile:
    """Read and validate a scenario file; raise :class:`ScenarioFileError` on bad input.

    A file whose ``game`` is a spec's path runs that spec only if the path is one of
    ``trusted`` (specs the user named) or the file carries the spec's SHA-256 and the spec
    still has it; otherwise it is refused before anything of the spec is imported.
    """
    text = read_scenario_doc(path)
    doc = text.doc

    def fail(problem: str, *keys: Any) -> ScenarioFileError:
        return text.error(problem, keys)

    try:
        game_ref, sha = _resolve_game(doc, Path(path), trusted)
        try:
            base = load(game_ref, sha256=sha)
        except SpecChanged as err:
            raise _Problem(f"{err}: the scenarios were written for another version of it; "
                           "check them against the spec, then update 'spec_sha256'",
                           "spec_sha256") from None
        except SpecError as err:
            raise _Problem(f"game {doc.game!r} does not load: {err}", "game") from None
        file_interp = dict(doc.interpretation or {})
        if doc.players is not None:
            _check_players(base, doc.players, ("players",))
        if file_interp or doc.ruleset:
            _model(game_ref, file_interp, ("ruleset" if doc.ruleset else "interpretation",),
                   doc.ruleset, sha)
    except _Problem as p:
        raise fail(p.problem, *p.keys) from None

    scenarios: list[Scenario] = []
    seen: dict[str, int] = {}
    for n, sd in enumerate(doc.scenario):
        try:
            sc = _scenario(sd, game_ref, sha, base, doc.players, file_interp,
                           text.lines.find(("scenario", n)), doc.ruleset)
        except _Problem as p:
            raise fail(p.problem, "scenario", n, *p.keys) from None
        if sc.name in seen:
            raise fail(f"the name is already used by scenario #{seen[sc.name] + 1}; "
                       "give each scenario its own name", "scenario", n, "name")
        seen[sc.name] = n
        scenarios.append(sc)
    return ScenarioFile(text.path, doc.game, game_ref, doc.source, tuple(scenarios), sha)


def scenario_spec(path: str | os.PathLike) -> str:
    """The game a scenario file is about, without loading it: a bundled game's name or the
    absolute path of its spec file (``rulespec diff --from`` compares it first)."""
    doc = read_scenario_doc(path).doc
    if doc.game in available_games():
        return doc.game
    p = Path(doc.game)
    p = p if p.is_absolute() else Path(path).parent / p
    try:
        return str(spec_path(p))
    except ValueError as err:
        raise ScenarioFileError(path, f"game {doc.game!r}: {err}") from None


def _resolve_game(doc: Any, scenario_path: Path, trusted: Collection[str | os.PathLike]
                  ) -> tuple[str, str | None]:
    """What ``game`` names, and the hash its spec must have (None: bundled or trusted).
    Nothing is imported here."""
    game = doc.game
    if game in available_games():
        return game, None
    p = Path(game)
    if not p.is_absolute():
        p = scenario_path.parent / p
    try:
        found = (p.is_dir() and (p / "spec.py").is_file()) or (p.is_file() and p.suffix == ".py")
    except (OSError, ValueError):
        found = False
    if not found:
        known = ", ".join(available_games())
        if p.exists():
            raise _Problem(f"{not_a_spec(p, game)} (relative to this file)", "game")
        raise _Problem(f"unknown game {game!r}: not a bundled game ({known}) nor a spec .py "
                       "file or folder relative to this file", "game")
    ref = str(p.resolve())
    spec_file = Path(spec_path(ref))
    if spec_file in _spec_files(trusted):
        return ref, None
    if doc.spec_sha256 is None:
        raise _Problem(
            f"names its spec by path ({game!r}) without the spec's SHA-256: a scenario "
            "file is data and does not run code on its own say-so; name the spec yourself "
            f"(`rulespec scenario {_folder_of(spec_file)}` runs the scenarios of that spec "
            "folder) or add spec_sha256 = \"...\" (docs/security.md)", "game")
    return ref, doc.spec_sha256


def _spec_files(refs: Collection[str | os.PathLike]) -> set[Path]:
    out = set()
    for ref in refs:
        try:
            out.add(Path(spec_path(ref)))
        except ValueError:
            continue
    return out


def load_game_scenarios(path: str | os.PathLike, game_ref: str) -> ScenarioFile:
    """A scenario file of the game the user named (``game_ref``): refused, before anything
    of its spec is imported, when it is about another game; that game's spec is trusted."""
    about = scenario_spec(path)
    if _spec_files([about]) != _spec_files([game_ref]):
        raise ScenarioFileError(path, f"is a scenario of {_shown_game(about)}, not of "
                                f"{_shown_game(game_ref)}: refused before running its code")
    return load_scenario_file(path, trusted=[game_ref])


def _shown_game(ref: str) -> str:
    return ref if ref in available_games() else os.path.relpath(ref) if not os.path.relpath(
        ref).startswith("..") else ref


def _folder_of(spec_file: Path) -> str:
    rel = os.path.relpath(spec_file.parent)
    return rel if not rel.startswith("..") else str(spec_file.parent)


def _model(game_ref: str, interp: Mapping[str, str], keys: tuple[str, ...],
           ruleset: str | None = None, sha: str | None = None) -> Model:
    try:
        return load(game_ref, dict(interp) or None, ruleset=ruleset, sha256=sha)
    except ValueError as err:
        raise _Problem(str(err), *keys) from None


def _check_players(model: Model, n: int, keys: tuple[str, ...]) -> None:
    if not model.min_players <= n <= model.max_players:
        span = (str(model.min_players) if model.min_players == model.max_players
                else f"{model.min_players}-{model.max_players}")
        raise _Problem(f"{model.name} is for {span} players, not {n}", *keys)


def _scenario(sd: Any, game_ref: str, sha: str | None, base: Model, file_players: int | None,
              file_interp: Mapping[str, str], line: int | None,
              file_ruleset: str | None = None) -> Scenario:
    """One scenario's document checked against its game: names, action texts, fields."""
    if not sd.name.strip():
        raise _Problem("a scenario needs a 'name'", "name")
    if not sd.source.strip():
        raise _Problem("a scenario needs a 'source': the rule it pins (seed file + section, "
                       "or a short quote)", "source")
    interp = {**file_interp, **(sd.interpretation or {})}
    ruleset = sd.ruleset or file_ruleset
    model = (_model(game_ref, interp, ("ruleset" if sd.ruleset else "interpretation",),
                    ruleset, sha) if interp or ruleset else base)
    if ruleset:  # the scenario runs under the ruleset's options, overridden by its own
        interp = dict(model.interpretation)
    players = sd.players if sd.players is not None else (
        file_players if file_players is not None else model.min_players)
    _check_players(model, players, ("players",))
    s0 = model.initial_state(players)

    def action(text: str, *keys: Any) -> str:
        try:
            model.action_from_str(s0, text)
        except ValueError as err:
            raise _Problem(f"'{'.'.join(map(str, keys[:-1]))}': {err}", *keys) from None
        return text

    def actions(texts: Sequence[str], *keys: str) -> tuple[str, ...]:
        return tuple(action(t, *keys, t) for t in texts)

    g, w, t = sd.given, sd.when, sd.then
    g_actions = actions(g.actions, "given", "actions")
    edits = _field_values(model, s0, g.edits, ("given", "edits"), edit=True)
    w_actions = actions(w.actions, "when", "actions")
    if t == ThenDoc():
        raise _Problem("[scenario.then] is empty: say what must hold", "then")
    legal = actions(t.legal, "then", "legal")
    illegal = actions(t.illegal, "then", "illegal")
    only_legal = None if t.only_legal is None else actions(t.only_legal, "then", "only_legal")
    because = tuple((action(text, "then", "illegal_because", text), tuple(reasons))
                    for text, reasons in (t.illegal_because or {}).items())
    refused = t.refused
    refused_because: tuple[str, ...] = ()
    if t.refused_because is not None:
        if refused is None:
            raise _Problem("'then.refused_because' needs 'then.refused' (the refused action)",
                           "then", "refused_because")
        refused_because = tuple(t.refused_because)
    if refused is not None:
        action(refused, "then", "refused", refused)
        if not w_actions or w_actions[-1].strip() != refused.strip():
            last = repr(w_actions[-1]) if w_actions else "none"
            raise _Problem(f"'then.refused' names the action expected to be refused, which must "
                           f"be the last of 'when.actions' (it is {last}, not {refused!r})",
                           "then", "refused")
    fields = _field_values(model, s0, t.fields, ("then", "fields"), edit=False)
    scores = None if t.scores is None else tuple(t.scores)
    if scores is not None and len(scores) != players:
        raise _Problem(f"'then.scores' needs one score per player ({players}), got {len(scores)}",
                       "then", "scores")
    winners = None if t.winners is None else tuple(t.winners)
    if winners is not None:
        bad = [p for p in winners if not 0 <= p < players]
        if bad or len(set(winners)) != len(winners):
            raise _Problem(f"'then.winners' must list distinct players 0..{players - 1}, "
                           f"got {list(winners)}", "then", "winners")
    cp = t.current_player
    if cp is not None and not (cp == "chance" or 0 <= cp < players):
        raise _Problem(f"'then.current_player' must be a player 0..{players - 1} or \"chance\", "
                       f"got {_show(cp)}", "then", "current_player")
    outcomes = None
    if t.outcomes is not None:
        outcomes = tuple((action(k, "then", "outcomes", k),
                          _probability(v, ("then", "outcomes", k))) for k, v in t.outcomes.items())
    then = Then(legal=legal, illegal=illegal, illegal_because=because,
                only_legal=only_legal, refused=refused, refused_because=refused_because,
                fields=fields, scores=scores, winners=winners, terminal=t.terminal,
                current_player=cp, outcomes=outcomes)
    return Scenario(name=sd.name, source=sd.source, players=players, interpretation=interp,
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
            raise _Problem(f"'{where}': {what} {text} = {_show(value)}: {err.problem}", *keys,
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
def run_scenario_file(path: str | os.PathLike, *,
                      trusted: Collection[str | os.PathLike] = ()) -> list[ScenarioResult]:
    """Load (raising :class:`ScenarioFileError` on bad input) and run every scenario;
    ``trusted`` as for :func:`load_scenario_file`."""
    sf = load_scenario_file(path, trusted=trusted)
    return [run_scenario(sf, sc) for sc in sf.scenarios]


def run_scenario(sf: ScenarioFile, sc: Scenario,
                 models: Callable[[Mapping[str, str]], Model] | None = None) -> ScenarioResult:
    """Play one scenario and check its expectations.

    ``models(interpretation)`` gives the game to play instead of the file's own (``rulespec
    mutate`` plays a changed copy of the spec against the same scenarios).
    """
    game = models(dict(sc.interpretation)) if models is not None else sf.model(sc)
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
            raise ScenarioFileError(sf.path, f"given.edits: {err.problem}", line=sc.line,
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
