"""``rulespec check``: drive legal play with Hypothesis (shrinking) or plain random playouts."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Callable, Sequence

import attrs
from hypothesis import settings
from hypothesis.errors import HypothesisException

from ..formats.names import slug
from ..runtime.model import Model, State
from ..runtime.native import GREEDY, RANDOM as NATIVE_RANDOM, native_for
from ..runtime.play import seeded_chooser
from .policy import Policy, chooser as policy_chooser
from ..runtime.trace import Trace, TraceWriteError, save_trace
from .progress import QUIET, Progress
from .property import Property, all_properties, skip_reason
from .results import PASSED, SKIPPED, UNKNOWN, VIOLATED, Result
from .shrinking import NotDeterministic, shrink_search
from .native_walk import native_search
from .walk import RULES_EVALUATE, Violation, play_checked, raised, recheck, shortest

HYPOTHESIS, RANDOM = "hypothesis", "random"
#: test runs Hypothesis may spend shrinking one violation (a count, so the same seed gives
#: the same trace on any machine); past it the smallest violation seen so far is reported
SHRINK_BUDGET = 500
#: states a breadth-first search visits for a shorter trace than the search found
SHORTEN_BUDGET = 500
#: the policies the C backend plays checked games by
NATIVE_POLICIES = {"random": NATIVE_RANDOM, "greedy": GREEDY}


class SearchError(Exception):
    """The search itself could not run (Hypothesis gave up): no verdict for what is left."""


@attrs.define
class Tally:
    """Games a search played, how many were cut at the spec's horizon (truncated), the
    steps they took and the player counts they had."""

    games: int = 0
    truncated: int = 0
    steps: int = 0
    players: set = attrs.field(factory=set)

    def cut(self) -> None:
        self.truncated += 1

    def step(self) -> None:
        self.steps += 1

    def evidence(self, method: str, examples: int, seed: int, policy: str) -> dict:
        """What a verdict of this search rests on (``Result.evidence``)."""
        return {"method": method, "examples": examples, "games": self.games,
                "steps": self.steps, "players": sorted(self.players), "seed": seed,
                "policy": policy}


def select(model: Model, names: Sequence[str] | None) -> list[Property]:
    """The game's properties, or just those named (unknown names raise ValueError)."""
    props = all_properties(model)
    if not names:
        return props
    known = {p.name: p for p in props}
    unknown = [n for n in names if n not in known]
    if unknown:
        raise ValueError(f"{model.name} has no property {', '.join(map(repr, unknown))} "
                         f"(known: {', '.join(known)})")
    return [known[n] for n in names]


def hypothesis_search(model: Model, props: Sequence[Property], examples: int, seed: int,
                      players: int | None, progress: Progress = QUIET, *,
                      shrink_budget: int = SHRINK_BUDGET, rule_errors_end_game: bool = False,
                      tally: Tally | None = None, profile: settings | None = None
                      ) -> tuple[Violation | None, str]:
    """Search for a violation of ``props`` with Hypothesis and shrink it: ``(violation or
    None, note)``, as :func:`.shrinking.shrink_search` says."""
    def play(n: int, choose: Callable[[State, list], int]) -> None:
        if tally is not None:
            tally.games += 1
            tally.players.add(n)
        play_checked(model, n, choose, props, rule_errors_end_game=rule_errors_end_game,
                     on_truncated=tally.cut if tally is not None else None,
                     on_step=tally.step if tally is not None else None)

    try:
        return shrink_search(model, play, Violation, examples=examples, seed=seed,
                             players=players, shrink_budget=shrink_budget,
                             progress=progress, shrinking_what=lambda v: v.property,
                             profile=profile)
    except NotDeterministic as err:  # the same choices failed once and passed once
        return Violation("apply_is_deterministic_and_pure",
                         f"Hypothesis: {' '.join(str(err.flaky).split())[:300]}",
                         players or model.min_players, ()), ""
    except HypothesisException as err:
        raise SearchError(f"Hypothesis could not search: {raised(err)}") from None


def random_search(model: Model, props: Sequence[Property], examples: int, seed: int,
                  players: int | None, progress: Progress = QUIET, *,
                  rule_errors_end_game: bool = False, tally: Tally | None = None,
                  policy: Policy | None = None, backend: str | None = None
                  ) -> tuple[Violation | None, str]:
    """Plain seeded playouts (chance outcomes by their probabilities, players uniformly at
    random or by ``policy``); no shrinking beyond cutting the trace at the failing step.

    On the C backend (``backend``, default ``"c"``) random and greedy games are played
    and checked in C (:mod:`.native_walk`): the same games, and the same verdicts, as
    here; MCTS games are played here, their rollouts in C."""
    def game(rng: random.Random, n: int) -> None:
        choose = (seeded_chooser(model, rng) if policy is None or policy.name == "random"
                  else policy_chooser(policy, model, rng))
        play_checked(model, n, choose, props, rule_errors_end_game=rule_errors_end_game,
                     on_truncated=tally.cut if tally is not None else None,
                     on_step=tally.step if tally is not None else None)

    native = (native_for(model, backend) if policy is None or policy.name in NATIVE_POLICIES
              else None)
    try:
        if native is not None:
            native_search(model, native, props, examples, seed, players,
                          NATIVE_POLICIES[policy.name if policy is not None else "random"],
                          lambda i, rng, n: game(rng, n), tally, progress)
            return None, ""
        for i in range(examples):
            rng = random.Random(f"{seed}:{i}")
            n = players if players is not None else rng.randint(model.min_players,
                                                                model.max_players)
            progress.advance()
            if tally is not None:
                tally.games += 1
                tally.players.add(n)
            game(rng, n)
    except Violation as v:
        return v, ""
    return None, ""


def check_game(model: Model, *, property_names: Sequence[str] | None = None,
               examples: int = 100, seed: int = 0, players: int | None = None,
               mode: str = HYPOTHESIS, trace_dir: str | Path | None = "traces",
               progress: Progress = QUIET, shrink_budget: int = SHRINK_BUDGET,
               shorten_budget: int = SHORTEN_BUDGET, policy: Policy | None = None,
               profile: settings | None = None, backend: str | None = None) -> list[Result]:
    """Check every selected property; one Result each. Violations are saved as traces
    (unless ``trace_dir`` is None); a trace that cannot be written leaves its verdict
    standing, with ``trace_error`` saying why.

    A violation found is then shortened: a breadth-first search of at most
    ``shorten_budget`` states looks for the same violation in fewer steps.
    After a violation the search restarts without that property, so every property gets
    its own verdict (each counterexample is minimal for its property). A property that
    raises is violated; a rule that raises is reported once as
    ``rules_evaluate_without_error`` and then ends the games that reach it.

    A property the spec waives, or that does not apply to the game, is SKIPPED with the
    reason. With a horizon, every verdict counts the games played and those truncated.

    ``policy`` plays the players' moves in ``RANDOM`` mode's playouts (None: uniformly at
    random); a policy other than random names the checker (``greedy``, ``mcts``) and is
    described in each verdict's detail. Hypothesis chooses its own moves and takes none;
    ``profile`` is the Hypothesis settings profile its search keeps (see
    :func:`hypothesis_search`). ``backend`` plays ``RANDOM`` mode's games (see
    :func:`random_search`).
    """
    if policy is not None and mode != RANDOM:
        raise ValueError("a policy plays playouts: use mode RANDOM")
    if policy is not None and policy.name == "random":
        policy = None
    checker = mode if policy is None else policy.name
    played = (f"{examples} {'playouts' if mode == RANDOM else 'examples'}"
              + ("" if policy is None else f" by {policy.name} players"))
    props = select(model, property_names)
    skipped = {p.name: why for p in props if (why := skip_reason(model, p)) is not None}
    remaining = [p for p in props if p.name not in skipped]
    method = ("Hypothesis" if mode == HYPOTHESIS else
              "random playouts" if policy is None else f"{policy.name} playouts")
    who = "Hypothesis" if mode == HYPOTHESIS else "random" if policy is None else policy.name
    results: dict[str, Result] = {p.name: Result(p.name, SKIPPED, checker, skipped[p.name],
                                                 p.source, evidence={"method": method,
                                                                     "why": skipped[p.name]})
                                  for p in props if p.name in skipped}
    tally = Tally()
    rule_error = False
    searches = 0
    unknown = ""
    progress.set_total(examples)
    while remaining:
        if searches:
            progress.set_total((progress.total or 0) + examples)
        searches += 1
        try:
            if mode == HYPOTHESIS:
                v, note = hypothesis_search(model, remaining, examples, seed, players, progress,
                                            shrink_budget=shrink_budget,
                                            rule_errors_end_game=rule_error, tally=tally,
                                            profile=profile)
            else:
                v, note = random_search(model, remaining, examples, seed, players, progress,
                                        rule_errors_end_game=rule_error, tally=tally,
                                        policy=policy, backend=backend)
        except SearchError as err:
            unknown = str(err)
            break
        if v is None:
            break
        progress.note(f"{v.property} violated; looking for a shorter trace")
        v = shortest(model, v, remaining, budget=shorten_budget)
        confirmed = recheck(model, v.players, v.actions, remaining) is not None
        prop = next((p for p in remaining if p.name == v.property), None)
        detail = v.message if confirmed else f"{v.message} (did not reproduce on replay)"
        if note:
            detail += f" ({note})"
        path, error = _save(model, v, trace_dir)
        results[v.property] = Result(v.property, VIOLATED, checker, detail,
                                     prop.source if prop else None, examples, seed,
                                     list(v.actions), path, error,
                                     evidence=tally.evidence(method, examples, seed, who))
        if prop is None:  # a rule error: reported once, then it just ends the games
            if rule_error:
                break  # the search cannot get past it (should not happen)
            rule_error = True
            progress.note("the rules raised; searching on without that path")
            continue
        remaining = [p for p in remaining if p.name != v.property]
        progress.note(f"{len(results)} violated; searching the other properties")
    out = []
    horizon = model.spec.horizon
    cut = (f"; {tally.truncated}/{tally.games} games truncated at {horizon} steps"
           if horizon is not None else "")
    for p in props:
        found = results.get(p.name)
        if found is None and unknown and p in remaining:
            found = Result(p.name, UNKNOWN, checker, unknown, p.source, examples, seed,
                           evidence={**tally.evidence(method, examples, seed, who),
                                     "why": unknown})
        r = found or Result(p.name, PASSED, checker, f"{played}{cut}", p.source, examples,
                            seed, evidence=tally.evidence(method, examples, seed, who))
        if horizon is not None and r.status != SKIPPED:
            r = attrs.evolve(r, games=tally.games, truncated=tally.truncated)
        out.append(r)
    if RULES_EVALUATE in results:
        out.append(results[RULES_EVALUATE])
    return out


def _save(model: Model, v: Violation, trace_dir: str | Path | None
          ) -> tuple[str | None, str | None]:
    """Save the counterexample: (its path, None), or (None, why it could not be written)."""
    if trace_dir is None:
        return None, None
    trace = Trace.of(model, v.players, v.actions, v.property, v.message)
    try:
        name = f"{slug(model.name)}-{slug(v.property)}.json"
        return str(save_trace(trace, Path(trace_dir) / name)), None
    except TraceWriteError as err:
        return None, str(err)


__all__ = ["HYPOTHESIS", "RANDOM", "SHRINK_BUDGET", "SearchError", "check_game",
           "hypothesis_search", "random_search", "select", "all_properties"]
