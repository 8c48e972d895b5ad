"""``rulespec check``: drive legal play with Hypothesis (shrinking) or plain random playouts."""

from __future__ import annotations

import random
from pathlib import Path

import attrs
from typing import Callable, Sequence

from hypothesis import HealthCheck, Phase, given, seed as hyp_seed, settings
from hypothesis import strategies as st
from hypothesis.errors import HypothesisException

from ..runtime.model import Action, Model, State
from ..runtime.play import seeded_chooser
from ..runtime.trace import Trace, save_trace
from .property import Property, all_properties, skip_reason
from .results import PASSED, SKIPPED, VIOLATED, Result
from .walk import RULES_EVALUATE, Violation, play_checked, recheck

HYPOTHESIS, RANDOM = "hypothesis", "random"


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
                      players: int | None, on_example: Callable[[], None] | None = None,
                      on_truncated: Callable[[], None] | None = None) -> Violation | None:
    """Search for a violation with Hypothesis; returns the shrunk (minimal) one, or None."""
    found: dict[str, Violation] = {}

    @settings(max_examples=examples, database=None, deadline=None, derandomize=False,
              suppress_health_check=list(HealthCheck), print_blob=False,
              report_multiple_bugs=False,
              phases=[Phase.explicit, Phase.generate, Phase.shrink])
    @hyp_seed(seed)
    @given(st.data())
    def run(data: st.DataObject) -> None:
        n = players if players is not None else data.draw(
            st.integers(model.min_players, model.max_players), label="players")

        def choose(state: State, legal: list[Action]) -> int:
            return 0 if len(legal) == 1 else data.draw(st.integers(0, len(legal) - 1))
        if on_example is not None:
            on_example()
        try:
            play_checked(model, n, choose, props, on_truncated=on_truncated)
        except Violation as v:
            found["last"] = v  # the last failing run Hypothesis replays is the minimal one
            raise

    try:
        run()
    except Violation:
        return found["last"]
    except HypothesisException as err:  # e.g. Flaky: the spec is not deterministic
        return Violation("apply_is_deterministic_and_pure", f"Hypothesis: {err}",
                         players or model.min_players, ())
    return None


def random_search(model: Model, props: Sequence[Property], examples: int, seed: int,
                  players: int | None, on_example: Callable[[], None] | None = None,
                  on_truncated: Callable[[], None] | None = None) -> Violation | None:
    """Plain seeded random playouts (chance outcomes by their probabilities); no shrinking
    beyond cutting the trace at the failing step."""
    for i in range(examples):
        rng = random.Random(f"{seed}:{i}")
        n = players if players is not None else rng.randint(model.min_players, model.max_players)
        choose = seeded_chooser(model, rng)
        if on_example is not None:
            on_example()
        try:
            play_checked(model, n, choose, props, on_truncated=on_truncated)
        except Violation as v:
            return v
    return None


def check_game(model: Model, *, property_names: Sequence[str] | None = None,
               examples: int = 100, seed: int = 0, players: int | None = None,
               mode: str = HYPOTHESIS, trace_dir: str | Path = "traces",
               on_example: Callable[[], None] | None = None) -> list[Result]:
    """Check every selected property; one Result each. Violations are saved as traces.

    After a violation the search restarts without that property, so every property gets
    its own verdict (each counterexample is minimal for its property).
    """
    props = select(model, property_names)
    search = hypothesis_search if mode == HYPOTHESIS else random_search
    checker = f"{mode}"
    skipped = {p.name: why for p in props if (why := skip_reason(model, p)) is not None}
    remaining = [p for p in props if p.name not in skipped]
    results: dict[str, Result] = {}
    for p in props:
        if p.name in skipped:
            results[p.name] = Result(p.name, SKIPPED, checker, skipped[p.name], p.source)
    played = {"games": 0, "truncated": 0}  # a horizon's truncated games are counted

    def count_game() -> None:
        played["games"] += 1
        if on_example is not None:
            on_example()

    def count_truncated() -> None:
        played["truncated"] += 1
    while remaining:
        v = search(model, remaining, examples, seed, players, count_game, count_truncated)
        if v is None:
            break
        path = _save(model, v, trace_dir)
        confirmed = recheck(model, v.players, v.actions, remaining) is not None
        prop = next((p for p in remaining if p.name == v.property), None)
        detail = v.message if confirmed else f"{v.message} (did not reproduce on replay)"
        results[v.property] = Result(v.property, VIOLATED, checker, detail,
                                     prop.source if prop else None, examples, seed,
                                     list(v.actions), str(path))
        if prop is None:  # a rule error: report it and stop, the spec must be fixed first
            break
        remaining = [p for p in remaining if p.name != v.property]
    out = []
    horizon = model.spec.horizon
    cut = (f"; {played['truncated']}/{played['games']} games truncated at {horizon} steps"
           if horizon is not None else "")
    for p in props:
        r = results.get(p.name) or Result(
            p.name, PASSED, checker,
            f"{examples} {'playouts' if mode == RANDOM else 'examples'}{cut}",
            p.source, examples, seed)
        if horizon is not None and r.status != SKIPPED:
            r = attrs.evolve(r, games=played["games"], truncated=played["truncated"])
        out.append(r)
    if RULES_EVALUATE in results:
        out.append(results[RULES_EVALUATE])
    return out


def _save(model: Model, v: Violation, trace_dir: str | Path) -> Path:
    trace = Trace(model.name, v.players, v.actions, dict(model.interpretation), v.property,
                  v.message, model.spec.file if model.name not in _bundled() else None)
    return save_trace(trace, Path(trace_dir) / f"{model.name}-{v.property}.json")


def _bundled() -> set[str]:
    from ..runtime.registry import available_games
    return set(available_games())
