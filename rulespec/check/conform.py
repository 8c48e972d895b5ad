"""``rulespec conform``: does an implementation written elsewhere play by the spec's rules?

The implementation is wrapped in a small adapter (no subclassing: any object with these
methods), made fresh for every game by a factory called with the number of players::

    legal_actions() -> list[str]       the legal actions, as the spec's action texts
                                       (at a chance node: the possible outcomes)
    apply(action: str) -> None         take that action (at a chance node: that outcome)
    current_player() -> int | str      the player to move; "chance" or -1 at a chance
                                       node, "terminal" or -4 when the game is over
    returns() -> list[float]           each player's result at the end (compared with the
                                       spec's scores)
    snapshot() -> dict                 optional: field values, in the spec's state JSON
                                       form, keyed by field or cell ("board", "height[3]")
    observation(player) -> dict        optional: what ``player`` sees, the same way,
                                       compared with ``Model.observation``
    chance_outcomes() -> [(str, p)]    optional: outcomes and probabilities

Both are played in lockstep from setup: at every step Hypothesis draws one of the spec's
legal actions (chance outcomes too, forced on the implementation) and the two are compared
-- who moves, whether the game is over, the legal actions (as sets), the chance
probabilities, the snapshot and observations, and at the end the returns against the
scores. The first disagreement raises inside the Hypothesis test, which shrinks it to the
fewest, simplest steps; the answer says it in rule terms: the precondition (and source)
that forbids what the implementation allows, the rule whose effect differs, the scoring
rule. Budgets are counts: ``examples`` games, ``shrink_budget`` shrinking runs.
"""

from __future__ import annotations

import importlib
import importlib.util
import random
import re
from pathlib import Path
from typing import Any, Callable, Mapping, Protocol, Sequence

import attrs
from hypothesis.errors import HypothesisException

from ..formats.names import slug
from ..runtime.model import CHANCE, TERMINAL, Model, State
from ..runtime.trace import Trace, TraceWriteError, save_trace
from .conform_driver import AdapterError, Driver, ImplementationFailed, as_driver, guarded
from .progress import QUIET, Progress
from .results import PASSED, UNKNOWN, VIOLATED
from .runner import SHORTEN_BUDGET, SHRINK_BUDGET
from .shrinking import NotDeterministic, shrink_search

HYPOTHESIS, RANDOM = "hypothesis", "random"


class Implementation(Protocol):
    """The adapter an outside implementation offers (see the module docstring)."""

    def legal_actions(self) -> Sequence[str]: ...

    def apply(self, action: str) -> None: ...

    def current_player(self) -> int | str: ...

    def returns(self) -> Sequence[float]: ...


Factory = Callable[[int], Implementation]


class ConformError(ValueError):
    """The implementation or its adapter cannot be used (one line: what is wrong)."""


@attrs.frozen
class Disagreement(Exception):
    """Where spec and implementation part: what differs, in rule terms, and the actions
    from setup (the spec's texts) that lead there."""

    kind: str           # "player", "terminal", "legal actions", "chance", "snapshot",
                        # "observation", "returns", "raised"
    message: str
    players: int
    actions: tuple[str, ...]

    def __str__(self) -> str:
        return f"{self.kind}: {self.message}"


@attrs.frozen
class ConformReport:
    """The answer of ``rulespec conform``."""

    game: str
    implementation: str
    status: str                    # PASSED, VIOLATED or UNKNOWN
    detail: str
    mode: str
    examples: int
    seed: int
    games: int
    steps: int                     # states compared, over all games
    disagreement: Disagreement | None = None
    trace_path: str | None = None
    trace_error: str | None = None

    def to_json(self) -> dict[str, Any]:
        d = attrs.asdict(self, filter=lambda a, v: a.name != "disagreement")
        d["disagreement"] = None if self.disagreement is None else {
            "kind": self.disagreement.kind, "message": self.disagreement.message,
            "players": self.disagreement.players,
            "actions": list(self.disagreement.actions)}
        return d


# =====================================================================================
# Loading an implementation: module:factory
# =====================================================================================
def load_factory(ref: str) -> Factory:
    """The factory named ``module:attribute`` (a module path, or a ``.py`` file path)."""
    module_name, sep, attr = ref.rpartition(":")
    if not sep or not module_name or not attr:
        raise ConformError(f"--impl must read module:factory, got {ref!r}")
    try:
        if module_name.endswith(".py") or "/" in module_name:
            path = Path(module_name)
            if not path.is_file():
                raise ConformError(f"no file {module_name}")
            loader = importlib.util.spec_from_file_location(
                f"_rulespec_impl_{abs(hash(str(path.resolve())))}", path.resolve())
            assert loader is not None and loader.loader is not None
            module: Any = importlib.util.module_from_spec(loader)
            with guarded("while being imported"):
                loader.loader.exec_module(module)
        else:
            with guarded("while being imported"):
                module = importlib.import_module(module_name)
    except ConformError:
        raise
    except ImplementationFailed as err:
        raise ConformError(f"{module_name}: the implementation {err}; an implementation "
                           "must not exit") from None
    except ImportError as err:
        raise ConformError(f"cannot import {module_name}: {err}") from None
    except Exception as err:  # noqa: BLE001 - the module's own error, in one line
        raise ConformError(f"importing {module_name} failed: {type(err).__name__}: {err}"
                           ) from None
    factory = getattr(module, attr, None)
    if factory is None or not callable(factory):
        raise ConformError(f"{module_name} has no factory {attr!r}")
    return factory


# =====================================================================================
# Comparing one state
# =====================================================================================
_PATH = re.compile(r"^([A-Za-z_]\w*)((?:\[\d+\])*)$")


def _lookup(fields: Mapping[str, Any], key: str) -> Any:
    """``board`` or ``height[3]`` or ``board[0][2]`` in a state's JSON fields."""
    m = _PATH.match(key)
    if not m or m.group(1) not in fields:
        raise ConformError(f"the implementation's snapshot names {key!r}, which is no field "
                           f"(or cell) of the spec (fields: {', '.join(fields)})")
    value = fields[m.group(1)]
    for i in re.findall(r"\[(\d+)\]", m.group(2)):
        try:
            value = value[int(i)]
        except (IndexError, TypeError):
            raise ConformError(f"the implementation's snapshot names {key!r}, which is no "
                               "cell of the spec") from None
    return value


def _who(p: Any) -> str:
    if p in ("chance", CHANCE):
        return "chance"
    if p in ("terminal", TERMINAL):
        return "terminal"
    return f"player {p}"


def _reasons(model: Model, state: State, text: str) -> str:
    """Why the spec refuses ``text`` here: each failed precondition with its source."""
    try:
        action = model.action_from_str(state, text)
    except ValueError:
        return f"no action of {model.name} reads {text!r}"
    reasons = model.why_illegal(state, action)
    return "; ".join(str(r) for r in reasons) or "the spec does not offer it here"


def _rule_of(model: Model, action_text: str, state: State) -> str:
    """The spec rule an action text belongs to, with its source."""
    try:
        action = model.action_from_str(state, action_text)
    except ValueError:
        return action_text
    spec_action = model.spec.actions[action.key[0]]
    return f"rule {spec_action.name} [{spec_action.source}]"


def _short(items: Sequence[str], limit: int = 8) -> str:
    shown = ", ".join(items[:limit])
    return shown + (f", ... ({len(items) - limit} more)" if len(items) > limit else "")


def compare(model: Model, state: State, impl: Any, taken: Sequence[str],
            before: State | None) -> tuple[str, str] | None:
    """The first difference between the spec's ``state`` and the implementation, as
    (kind, message in rule terms), or None. ``taken``: the actions from setup."""
    last = taken[-1] if taken else None
    at = f"after step {len(taken)} ({last})" if last else "at setup"
    ours = model.current_player(state)
    theirs = impl.current_player()
    over = model.is_terminal(state)
    if over and _who(theirs) != "terminal":
        return ("terminal", f"{at}: the game is over by the spec "
                            f"[{model.spec.terminal.source}]; the implementation goes on "
                            f"({_who(theirs)} moves)")
    if not over and _who(theirs) == "terminal":
        return ("terminal", f"{at}: the implementation ends the game; by the spec it goes "
                            f"on ({_who(ours)} moves) [{model.spec.terminal.source}]")
    if not over and _who(ours) != _who(theirs):
        return ("player", f"{at}: by the spec {_who(ours)} moves "
                          f"[{model.spec.current_player.source}]; the implementation says "
                          f"{_who(theirs)}")
    if not over:
        legal = [str(a) for a in model.legal_actions(state)]
        other = [str(a) for a in impl.legal_actions()]
        extra = [t for t in other if t not in legal]
        missing = [t for t in legal if t not in other]
        if extra:
            t = extra[0]
            more = f" (and {len(extra) - 1} more: {_short(extra[1:])})" if len(extra) > 1 else ""
            return ("legal actions", f"{at}: the implementation allows {t}{more}, which the "
                                     f"spec forbids: {_reasons(model, state, t)}")
        if missing:
            t = missing[0]
            more = (f" (and {len(missing) - 1} more: {_short(missing[1:])})"
                    if len(missing) > 1 else "")
            return ("legal actions", f"{at}: the implementation does not allow {t}{more}, "
                                     f"which the spec allows ({_rule_of(model, t, state)})")
        if ours == CHANCE and impl.supports("chance_outcomes"):
            mine = {str(a): p for a, p in model.chance_outcomes(state)}
            for text, p in impl.chance_outcomes():
                if abs(mine.get(str(text), 0.0) - float(p)) > 1e-9:
                    return ("chance", f"{at}: outcome {text} has probability "
                                      f"{mine.get(str(text), 0.0):.6g} by the spec, "
                                      f"{float(p):.6g} in the implementation")
    because = f" ({_rule_of(model, last, before)})" if last and before is not None else ""
    if impl.supports("snapshot"):
        found = _fields_differ(state.to_dict()["fields"], impl.snapshot(), "")
        if found:
            return "snapshot", f"{at}: {found}{because}"
    if impl.supports("observation") and not over:
        for p in range(state.values[0]):
            theirs_seen = impl.observation(p)
            if not theirs_seen:
                continue
            found = _fields_differ(model.observation(state, p), theirs_seen,
                                   f"what player {p} sees: ")
            if found:
                return "observation", f"{at}: {found}{because}"
    if over:
        scores = model.scores(state)
        got = [float(r) for r in impl.returns()]
        if got != [float(s) for s in scores]:
            return ("returns", f"{at}: the game is over; the spec scores {scores} "
                               f"[{model.spec.scoring.source}], the implementation returns "
                               f"{_numbers(got)}")
    return None


def _failed(err: BaseException) -> str:
    """What went wrong in the implementation, after "the implementation ..."."""
    if isinstance(err, ImplementationFailed):
        return str(err)
    return f"raised {type(err).__name__}: {err}"


def _numbers(values: Sequence[float]) -> str:
    return "[" + ", ".join(f"{v:g}" for v in values) + "]"


def _fields_differ(fields: Mapping[str, Any], theirs: Mapping[str, Any], what: str
                   ) -> str | None:
    if not isinstance(theirs, Mapping):
        raise ConformError(f"snapshot() and observation() must return a dict of field "
                           f"values, got {type(theirs).__name__}")
    for key, value in theirs.items():
        mine = _lookup(fields, key)
        if mine != value:
            return f"{what}{key} is {mine!r} by the spec, {value!r} in the implementation"
    return None


# =====================================================================================
# Playing in lockstep
# =====================================================================================
def play_lockstep(model: Model, factory: Factory | Driver, players: int,
                  choose: Callable[[State, list], int], counter: list[int] | None = None,
                  *, steps: int | None = None) -> State:
    """Play one game in both, comparing at every step; raises :class:`Disagreement`.
    ``choose(state, legal)`` picks an index into the spec's legal actions; ``steps`` stops
    after that many actions (once the state they reach is compared)."""
    taken: list[str] = []

    def part(kind: str, message: str) -> Disagreement:
        return Disagreement(kind, message, players, tuple(taken))

    try:
        impl = as_driver(factory).new_game(players)
    except Exception as err:  # noqa: BLE001 - the implementation's failure is the finding
        raise part("raised", f"the implementation could not set up {players} players: "
                             f"{_failed(err)}") from None
    state = model.initial_state(players)
    horizon = model.spec.horizon
    limit = model.spec.max_steps + 1 if horizon is None else horizon
    before: State | None = None
    for _ in range(limit + 1):
        if counter is not None:
            counter[0] += 1
        try:
            found = compare(model, state, impl, taken, before)
        except ConformError:
            raise
        except Exception as err:  # noqa: BLE001
            raise part("raised", f"the implementation {_failed(err)} while being compared"
                       ) from None
        if found is not None:
            raise part(*found)
        legal = model.legal_actions(state)
        if not legal or len(taken) >= limit or (steps is not None and len(taken) >= steps):
            break
        action = legal[choose(state, legal)]
        text = str(action)
        taken.append(text)
        try:
            impl.apply(text)
        except Exception as err:  # noqa: BLE001
            raise part("raised", f"the implementation {_failed(err)} on {text}, which the "
                                 f"spec allows ({_rule_of(model, text, state)})") from None
        before, state = state, model.apply(state, action)
    return state


def conform(model: Model, factory: Factory, *, name: str = "implementation",
            examples: int = 100, seed: int = 0, players: int | None = None,
            mode: str = HYPOTHESIS, shrink_budget: int = SHRINK_BUDGET,
            shorten_budget: int = SHORTEN_BUDGET, trace_dir: str | Path | None = None,
            progress: Progress = QUIET) -> ConformReport:
    """Play ``examples`` games of ``model`` and the implementation in lockstep (see the
    module docstring). With ``mode="random"``, seeded uniform games instead (longer games,
    not shrunk by Hypothesis). A disagreement found is then shortened: a breadth-first search of at
    most ``shorten_budget`` lockstep games looks for one in fewer steps (Hypothesis
    shrinks towards the first legal actions, which need not be the fewest steps). The
    minimal disagreement is saved as a trace in ``trace_dir``."""
    driver = as_driver(factory, name)
    try:   # before the first game: an adapter without its methods is no disagreement
        driver.check(players if players is not None else model.min_players)
    except AdapterError as err:
        raise ConformError(str(err)) from None
    factory = driver
    counter = [0, 0]    # states compared, games played
    progress.set_total(examples)
    found: Disagreement | None = None
    note = ""
    try:
        if mode == HYPOTHESIS:
            found, note = _hypothesis(model, factory, examples, seed, players, shrink_budget,
                                      counter, progress)
        elif mode == RANDOM:
            found = _random(model, factory, examples, seed, players, counter, progress)
        else:
            raise ValueError(f"unknown mode {mode!r}")
    except SearchFailed as err:
        return ConformReport(model.name, name, UNKNOWN, str(err), mode, examples, seed,
                             counter[1], counter[0])
    if found is None:
        detail = (f"{counter[1]} games ({mode}, seed {seed}), {counter[0]} states compared: "
                  "no difference")
        return ConformReport(model.name, name, PASSED, detail, mode, examples, seed,
                             counter[1], counter[0])
    progress.note("looking for a shorter disagreement")
    found = shorten(model, factory, found, budget=shorten_budget)
    detail = str(found) + (f" ({note})" if note else "")
    path = error = None
    if trace_dir is not None:
        trace = Trace.of(model, found.players, found.actions, f"conforms:{name}",
                         found.message)
        try:
            path = str(save_trace(trace, Path(trace_dir) / f"{slug(model.name)}-conform.json"))
        except TraceWriteError as err:
            error = str(err)
    return ConformReport(model.name, name, VIOLATED, detail, mode, examples, seed,
                         counter[1], counter[0], found, path, error)


def shorten(model: Model, factory: Factory, found: Disagreement, *,
            budget: int = SHORTEN_BUDGET) -> Disagreement:
    """A disagreement in fewer steps than ``found``, if one is within reach: breadth first
    over the spec's legal actions (in their stable order) from the same setup, replaying
    each candidate in a fresh implementation; at most ``budget`` candidates. Returns
    ``found`` when none is shorter."""
    players = found.players
    frontier: list[tuple[State, tuple[str, ...]]] = [(model.initial_state(players), ())]
    seen = {frontier[0][0].values}
    tried = 0
    for depth in range(1, len(found.actions)):
        nxt = []
        for state, path in frontier:
            for action in model.legal_actions(state):
                tried += 1
                if tried > budget:
                    return found
                steps = (*path, str(action))
                try:
                    play_lockstep(model, factory, players, _scripted(steps), steps=depth)
                except Disagreement as shorter:
                    return shorter
                after = model.apply(state, action)
                if after.values not in seen:
                    seen.add(after.values)
                    nxt.append((after, steps))
        frontier = nxt
    return found


def _scripted(texts: Sequence[str]) -> Callable[[State, list], int]:
    it = iter(texts)
    return lambda state, legal: [str(a) for a in legal].index(next(it))


class SearchFailed(Exception):
    """Hypothesis could not search (no verdict)."""


def _hypothesis(model: Model, factory: Factory, examples: int, seed: int,
                players: int | None, shrink_budget: int, counter: list[int],
                progress: Progress) -> tuple[Disagreement | None, str]:
    def play(n: int, choose: Callable[[State, list], int]) -> None:
        counter[1] += 1
        play_lockstep(model, factory, n, choose, counter)

    try:
        return shrink_search(model, play, Disagreement, examples=examples, seed=seed,
                             players=players, shrink_budget=shrink_budget,
                             progress=progress)
    except NotDeterministic as err:
        d = err.shortest or Disagreement("raised", "", players or model.min_players, ())
        return Disagreement("raised", "the implementation is not deterministic: the same "
                            "actions disagreed once and agreed once", d.players, d.actions), ""
    except HypothesisException as err:
        raise SearchFailed(f"Hypothesis could not search: {err}") from None


def _random(model: Model, factory: Factory, examples: int, seed: int, players: int | None,
            counter: list[int], progress: Progress) -> Disagreement | None:
    from ..runtime.play import seeded_chooser
    for i in range(examples):
        rng = random.Random(f"{seed}:{i}")
        n = players if players is not None else rng.randint(model.min_players,
                                                            model.max_players)
        counter[1] += 1
        progress.advance()
        try:
            play_lockstep(model, factory, n, seeded_chooser(model, rng), counter)
        except Disagreement as d:
            return d
    return None


# =====================================================================================
# An adapter for OpenSpiel states (the differential tests use it)
# =====================================================================================
@attrs.define
class PyspielImplementation:
    """An OpenSpiel game as an implementation: its state, and how its action ids read as
    the spec's texts -- ``text(state, player, action_id)`` one at a time (default:
    OpenSpiel's own ``action_to_string``), or ``texts(state, player, ids)`` all at once.
    ``snapshot_of(state)`` and ``observation_of(state, player)`` give field values to
    compare; ``returns_of(state)`` defaults to ``state.returns()``."""

    state: Any
    text: Callable[[Any, int, int], str] | None = None
    snapshot_of: Callable[[Any], Mapping[str, Any]] | None = None
    observation_of: Callable[[Any, int], Mapping[str, Any]] | None = None
    returns_of: Callable[[Any], Sequence[float]] | None = None
    texts: Callable[[Any, int, list[int]], list[str]] | None = None
    _applied: int = 0
    _named: tuple[int, dict[str, int]] | None = None

    def _ids(self) -> dict[str, int]:
        """The legal ids by text (named once per state)."""
        if self._named is not None and self._named[0] == self._applied:
            return self._named[1]
        s = self.state
        player = s.current_player()
        ids = [a for a, _ in s.chance_outcomes()] if s.is_chance_node() else s.legal_actions()
        if self.texts is not None:
            names = self.texts(s, player, ids)
        else:
            to_text = self.text or (lambda st, p, a: st.action_to_string(p, a))
            names = [to_text(s, player, a) for a in ids]
        self._named = (self._applied, dict(zip(names, ids)))
        return self._named[1]

    def legal_actions(self) -> list[str]:
        return [] if self.state.is_terminal() else list(self._ids())

    def apply(self, action: str) -> None:
        ids = self._ids()
        if action not in ids:
            raise ValueError(f"{action!r} is not among the legal actions")
        self.state.apply_action(ids[action])
        self._applied += 1

    def current_player(self) -> int | str:
        s = self.state
        return "terminal" if s.is_terminal() else "chance" if s.is_chance_node() \
            else int(s.current_player())

    def returns(self) -> list[float]:
        return list(self.returns_of(self.state) if self.returns_of else self.state.returns())

    def chance_outcomes(self) -> list[tuple[str, float]]:
        by_id = {a: t for t, a in self._ids().items()}
        return [(by_id[a], p) for a, p in self.state.chance_outcomes()]

    def snapshot(self) -> Mapping[str, Any]:
        return self.snapshot_of(self.state) if self.snapshot_of else {}

    def observation(self, player: int) -> Mapping[str, Any]:
        return self.observation_of(self.state, player) if self.observation_of else {}


__all__ = ["ConformError", "ConformReport", "Disagreement", "Factory", "HYPOTHESIS",
           "Implementation", "PyspielImplementation", "RANDOM", "conform", "load_factory",
           "play_lockstep"]
