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

The factory may also be a driver (``conform_driver.py``): an implementation in another
process, spoken to over JSON lines, is ``conform_exec.ExecDriver``; its sessions take the
questions of several steps at once (:func:`play_lockstep`). ``readings.py`` plays one
implementation against several readings of the spec.
"""

from __future__ import annotations

import importlib
import importlib.util
import random
from pathlib import Path
from typing import Any, Callable, Protocol, Sequence

import attrs
from hypothesis.errors import HypothesisException

from ..formats.names import slug
from ..runtime.model import CHANCE, Model, State
from ..runtime.trace import Trace, TraceWriteError, save_trace
from .conform_compare import ConformError, _rule_of, compare
from .conform_driver import (AdapterError, Driver, ImplementationFailed, ImplementationHung,
                             as_driver, guarded)
from .conform_pyspiel import PyspielImplementation
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


def _kind(err: BaseException) -> str:
    """The disagreement's kind for a failure: "raised" unless it says ("exited",
    "protocol": another process's)."""
    return getattr(err, "kind", "raised")


def _failed(err: BaseException) -> str:
    """What went wrong in the implementation, after "the implementation ..."."""
    if isinstance(err, ImplementationFailed):
        return str(err)
    return f"raised {type(err).__name__}: {err}"


# =====================================================================================
# Playing in lockstep
# =====================================================================================
def play_lockstep(model: Model, factory: Factory | Driver, players: int,
                  choose: Callable[[State, list], int], counter: list[int] | None = None,
                  *, steps: int | None = None) -> State:
    """Play one game in both, comparing at every step; raises :class:`Disagreement`.
    ``choose(state, legal)`` picks an index into the spec's legal actions; ``steps`` stops
    after that many actions (once the state they reach is compared).

    The spec alone chooses the actions, so its side of the game can run ahead: a session
    with ``prefetch`` (another process) is sent the questions of ``batch_steps`` steps at
    once, and each answer is compared in order as before -- the first difference is the
    same, found in fewer round trips."""
    taken: list[str] = []
    compared = 0   # the states compared so far; taken[:compared] leads to the next one

    def part(kind: str, message: str, steps_taken: int) -> Disagreement:
        return Disagreement(kind, message, players, tuple(taken[:steps_taken]))

    try:
        impl = as_driver(factory).new_game(players)
    except ImplementationHung as hung:
        hung.players, hung.actions = players, ()
        raise
    except Exception as err:  # noqa: BLE001 - the implementation's failure is the finding
        raise part(_kind(err), f"the implementation could not set up {players} players: "
                               f"{_failed(err)}", 0) from None
    state = model.initial_state(players)
    horizon = model.spec.horizon
    limit = model.spec.max_steps + 1 if horizon is None else horizon
    before: State | None = None
    ahead = hasattr(impl, "prefetch")
    try:
        while True:
            if ahead:
                plan, state, before = _plan(model, state, before, choose, taken, limit,
                                            steps, impl.batch_steps)
                impl.prefetch(_questions(model, plan, impl, players))
            else:   # one state at a time: compared before the next action is chosen
                plan = [(state, before, _LATER)]
            for at, was, action in plan:
                if counter is not None:
                    counter[0] += 1
                try:
                    found = compare(model, at, impl, taken[:compared], was)
                except ConformError:
                    raise
                except Exception as err:  # noqa: BLE001
                    if _kind(err) != "raised":   # another process stopped or broke the protocol
                        raise part(_kind(err), f"{_after(taken, compared)}: the "
                                               f"implementation {err}", compared) from None
                    raise part(_kind(err), f"the implementation {_failed(err)} while being "
                                           "compared", compared) from None
                if found is not None:
                    raise part(*found, compared)
                if action is _LATER:
                    ((_, _, action),), state, before = _plan(model, at, was, choose, taken,
                                                             limit, steps, 1)
                if action is None:
                    return at
                text = str(action)
                try:
                    impl.apply(text)
                except Exception as err:  # noqa: BLE001
                    if _kind(err) != "raised":
                        raise part(_kind(err), f"{_after(taken, compared)}: the "
                                               f"implementation {err}", compared + 1
                                   ) from None
                    raise part(_kind(err), f"the implementation {_failed(err)} on {text}, "
                                           f"which the spec allows "
                                           f"({_rule_of(model, text, at)})",
                               compared + 1) from None
                compared += 1
    except ImplementationHung as hung:
        hung.players, hung.actions = players, tuple(taken[:compared])
        raise


_LATER = object()   # the action is chosen once the state is compared


def _after(taken: Sequence[str], steps: int) -> str:
    return f"after step {steps} ({taken[steps - 1]})" if steps else "at setup"


def _plan(model: Model, state: State, before: State | None,
          choose: Callable[[State, list], int], taken: list[str], limit: int,
          steps: int | None, n: int
          ) -> tuple[list[tuple[State, State | None, Any]], State, State | None]:
    """The spec's side of the next ``n`` steps: (state, the state before it, the action
    chosen there or None where the game stops), and the state after the last action."""
    plan: list[tuple[State, State | None, Any]] = []
    for _ in range(n):
        legal = model.legal_actions(state)
        if not legal or len(taken) >= limit or (steps is not None and len(taken) >= steps):
            plan.append((state, before, None))
            break
        action = legal[choose(state, legal)]
        plan.append((state, before, action))
        taken.append(str(action))
        before, state = state, model.apply(state, action)
    return plan, state, before


def _questions(model: Model, plan: Sequence[tuple[State, State | None, Any]], impl: Any,
               players: int) -> list[tuple[str, dict[str, Any]]]:
    """What :func:`compare` asks at each planned state, in its order, then the action."""
    out: list[tuple[str, dict[str, Any]]] = []
    snapshot, observation = impl.supports("snapshot"), impl.supports("observation")
    chance = impl.supports("chance_outcomes")
    for state, _, action in plan:
        over = model.is_terminal(state)
        out.append(("current_player", {}))
        if not over:
            out.append(("legal_actions", {}))
            if chance and model.current_player(state) == CHANCE:
                out.append(("chance_outcomes", {}))
        if snapshot:
            out.append(("snapshot", {}))
        if observation and not over:
            out += [("observation", {"player": p}) for p in range(players)]
        if over:
            out.append(("returns", {}))
        if action is not None:
            out.append(("apply", {"action": str(action)}))
    return out


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
    except ImplementationHung as hung:
        return _hung(model, name, hung, mode, examples, seed, counter)
    if found is None:
        detail = (f"{counter[1]} games ({mode}, seed {seed}), {counter[0]} states compared: "
                  "no difference")
        return ConformReport(model.name, name, PASSED, detail, mode, examples, seed,
                             counter[1], counter[0])
    progress.note("looking for a shorter disagreement")
    try:
        found = shorten(model, factory, found, budget=shorten_budget)
        found = leave_out(model, factory, found, budget=shorten_budget)
    except ImplementationHung:
        pass   # a replay hung: the disagreement found stands, unshortened
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


def _hung(model: Model, name: str, hung: ImplementationHung, mode: str, examples: int,
          seed: int, counter: list[int]) -> ConformReport:
    """No reply within the safety limit: UNKNOWN (a clock is no verdict), saying where."""
    d = Disagreement("timeout", f"{_after(hung.actions, len(hung.actions))}: the "
                                f"implementation {hung.message}", hung.players, hung.actions)
    return ConformReport(model.name, name, UNKNOWN, f"{d} (no verdict)", mode, examples, seed,
                         counter[1], counter[0], d)


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


def leave_out(model: Model, factory: Factory, found: Disagreement, *,
              budget: int = SHORTEN_BUDGET) -> Disagreement:
    """The same kind of disagreement in fewer steps, by leaving steps of ``found`` out:
    runs of steps (halves, quarters, ... single steps), then any two steps (one move of
    each player keeps the turns in order), while what is left is a game by the spec; at
    most ``budget`` replays. Breadth first cannot reach a long game's end (Connect Four's
    line of four), and Hypothesis shrinks choices, not steps."""
    best, tried = found, 0
    while True:
        n = len(best.actions)
        cuts = [range(i, i + size) for size in _halves(n) for i in range(n - size, -1, -1)]
        cuts += [(i, j) for j in range(n - 1, 0, -1) for i in range(j - 2, -1, -1)]
        for cut in cuts:
            tried += 1
            if tried > budget:
                return best
            steps = tuple(a for k, a in enumerate(best.actions) if k not in cut)
            try:
                play_lockstep(model, factory, best.players, _scripted(steps),
                              steps=len(steps))
            except Disagreement as shorter:
                if shorter.kind == best.kind and len(shorter.actions) < n:
                    best = shorter
                    break
            except (ValueError, StopIteration):
                pass   # not a game by the spec: a step left out made a later one illegal
        else:
            return best


def _halves(n: int) -> list[int]:
    sizes = []
    while n > 1:
        n //= 2
        sizes.append(n)
    return sizes or [1]


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


__all__ = ["ConformError", "ConformReport", "Disagreement", "Factory", "HYPOTHESIS",
           "Implementation", "PyspielImplementation", "RANDOM", "conform", "load_factory",
           "play_lockstep"]
