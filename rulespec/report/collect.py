"""Run every checker a report needs, within a budget, and keep what each found.

Testing (Hypothesis), proof (Z3: step proofs, induction, bounded model checking, laws,
dead rules), one interpretation diff per non-default option, the game's scenario files and
coverage playouts. A checker that fails outright is recorded as SKIPPED with the reason,
never as a pass.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any, Callable

import attrs

from ..check.diff import DiffReport, diff
from ..check.impact import Impact, lockstep
from ..check.progress import QUIET, Progress
from ..check.prove import DEAD_RULE_GAMES, RETRY_CASES, prove
from ..check.results import SKIPPED, Result
from ..check.runner import check_game
from ..check.scenario import ScenarioFile, ScenarioResult, load_game_scenarios, run_scenario
from ..runtime.model import Model
from ..runtime.registry import available_games, load, models_dir
from .budget import Budget
from .coverage import Coverage, play_coverage
from .mutation import run_mutation
from .progress import GameProgress


@attrs.frozen
class Collected:
    """Everything the checkers said about one game, with the time each took."""

    model: Model
    budget: Budget
    examples: int
    check: list[Result]
    prove: list[Result]
    diffs: list[tuple[str, str, DiffReport | None, str | None]]  # point, option, report, error
    scenarios: list[tuple[ScenarioFile, list[ScenarioResult]]]
    scenario_errors: list[str]
    coverage: Coverage | None
    seconds: dict[str, float]
    solver: dict[str, Any]
    #: ``rulespec mutate``'s run (only with the budget's ``mutate``), or why it has none
    mutation: Any = None
    mutation_error: str | None = None
    #: (point, option): the lockstep games' figures under each policy played (the
    #: budget's ``diff_policy`` first, then its ``diff_second_policy``)
    impacts: dict[tuple[str, str], list[Impact]] = attrs.field(factory=dict)
    #: the lemmas ``prove`` inferred and proved (as invariants), or ()
    lemmas: tuple = ()

    def proved_spec(self) -> Any:
        """The spec with the inferred lemmas among its invariants: what the proofs read."""
        spec = self.model.spec
        if not self.lemmas:
            return spec
        return attrs.evolve(spec, invariants=(*spec.invariants, *self.lemmas))


def scenario_files(model: Model, game_ref: str) -> list[Path]:
    """The scenario files of a bundled game, or the ``scenarios/`` folder beside a spec."""
    if game_ref in available_games():
        folder = models_dir() / game_ref / "scenarios"
    else:
        p = Path(game_ref)
        folder = (p if p.is_dir() else p.parent) / "scenarios"
    return sorted(folder.glob("*.toml")) if folder.is_dir() else []


def collect(game_ref: str, budget: Budget, trace_dir: str | Path,
            progress: GameProgress | None = None) -> Collected:
    """Run the checkers on ``game_ref`` (a bundled name or a spec path) under ``budget``;
    ``progress`` hears each phase and its count."""
    model = load(game_ref)
    seconds: dict[str, float] = {}
    trace_dir = Path(trace_dir)
    examples = budget.examples(model.spec.check_examples)
    progress = progress or GameProgress(model.name)
    phases = (["check", "diff", "scenarios", "coverage"] + ["prove"] * budget.prove
              + ["mutate"] * bool(budget.mutate))

    def timed(name: str, fn: Callable[[], Any]) -> Any:
        progress.phase(name, phases.index(name) + 1, len(phases))
        start = time.perf_counter()
        try:
            return fn()
        finally:
            seconds[name] = round(time.perf_counter() - start, 1)

    check = timed("check", lambda: _guard(budget.check_mode, lambda: check_game(
        model, examples=examples, seed=budget.seed, trace_dir=trace_dir,
        mode=budget.check_mode, progress=progress)))
    impacts: dict[tuple[str, str], list[Impact]] = {}
    diffs = timed("diff", lambda: _diffs(model, game_ref, budget, trace_dir, impacts,
                                         progress=progress))
    scenarios, errors = timed("scenarios", lambda: _scenarios(model, game_ref))
    coverage = timed("coverage", lambda: play_coverage(model, budget.coverage_games,
                                                       budget.seed))
    # the proofs last: they run in budget.workers processes (games reported side by side
    # share the cores: report.run.proof_share), the rest in this one
    run = timed("prove", lambda: _guard_run(lambda: prove(
        model, rlimit=budget.solver_rlimit, depth=budget.depth(model.spec.bmc_depth),
        trace_dir=trace_dir, workers=budget.workers, timeout=budget.prove_safety_s,
        progress=progress, retry_rlimit=budget.solver_retry_rlimit))
    ) if budget.prove else None
    prove_results = run.results if run is not None else [Result(
        "z3_proofs", SKIPPED, "z3", f"the {budget.name} budget runs no proofs")]
    solver = {"rlimit": budget.solver_rlimit,
              "bmc_depth": budget.depth(model.spec.bmc_depth),
              "dead_rule_games": DEAD_RULE_GAMES,
              "rlimit_spent": getattr(run, "rlimit", None),
              "retry_rlimit": budget.solver_retry_rlimit,
              "retry": getattr(run, "retry", None), "retry_cases": RETRY_CASES,
              "safety_limit_s": budget.prove_safety_s,
              "stopped": getattr(run, "stopped", None),
              "queries": _queries(prove_results)}
    mutation, mutation_error = timed("mutate", lambda: run_mutation(
        game_ref, budget.mutate, budget.seed, budget.workers)) if budget.mutate else (None, None)
    return Collected(model, budget, examples, check, prove_results, diffs, scenarios, errors,
                     coverage, seconds, solver, mutation, mutation_error, impacts,
                     tuple(getattr(run, "lemmas", ())))


def _guard(checker: str, fn: Callable[[], list[Result]]) -> list[Result]:
    try:
        return fn()
    except Exception as err:  # noqa: BLE001 - a checker that cannot run is reported
        return [Result(f"{checker}_ran", SKIPPED, checker,
                       f"the checker failed: {type(err).__name__}: {err}")]


def _guard_run(fn: Callable[[], Any]) -> Any:
    """``prove``'s run, or one SKIPPED result saying why it could not run."""
    try:
        return fn()
    except Exception as err:  # noqa: BLE001 - a checker that cannot run is reported
        return _Failed([Result("z3_ran", SKIPPED, "z3",
                               f"the checker failed: {type(err).__name__}: {err}")])


@attrs.frozen
class _Failed:
    results: list[Result]
    rlimit: int | None = None


def _queries(results: list[Result]) -> int | None:
    """Solver queries the step proofs report in their detail ("N queries"), summed."""
    import re
    found = [int(m.group(1)) for r in results if r.checker == "z3-step"
             for m in [re.search(r"(\d+) queries", r.detail)] if m]
    return max(found) if found else None


def _diffs(model: Model, game_ref: str, budget: Budget, trace_dir: Path,
           impacts: dict[tuple[str, str], list[Impact]] | None = None, *,
           progress: Progress = QUIET) -> list[tuple[str, str, DiffReport | None, str | None]]:
    """One diff per non-default option: from setup first; when its search finds no
    difference (readings that part only late in a game, like a final tie-break), from the
    given situation of each scenario that pins the point, until the search parts them.
    The lockstep games are played by the budget's ``diff_policy``; ``impacts`` gets
    them, and as many more played by its ``diff_second_policy``, per option."""
    from ..check.policy import policy_named
    policy = policy_named(budget.diff_policy)
    second = policy_named(budget.diff_second_policy)
    out = []
    paths: dict = {}   # the defaults' own lockstep games, the same against every option
    second_paths: dict = {}
    files = _scenario_files_parsed(model, game_ref)
    progress.set_total(sum(len(p.options) - 1 for p in model.spec.interpretations))
    for point in model.spec.interpretations:
        starts = pinning_scenarios(game_ref, model, point.name, files)
        for opt in point.options:
            if opt == point.default:
                continue
            try:
                other = load(game_ref, {point.name: opt})
                chosen = None
                # the impact games are the same whatever the start: played once
                played = (lockstep(model, other, budget.diff_games, budget.seed,
                                   policy=policy, paths=paths) if budget.diff_games else None)
                if impacts is not None:
                    impacts[point.name, opt] = [im for im in (
                        played[0] if played else None,
                        lockstep(model, other, budget.diff_second_games, budget.seed,
                                 policy=second, paths=second_paths)[0]
                        if budget.diff_second_games else None) if im is not None]
                for start in [None, *starts]:
                    found = diff(model, other, depth=budget.diff_depth,
                                 setups=budget.diff_setups, games=budget.diff_games,
                                 seed=budget.seed, budget=budget.diff_nodes,
                                 scenario_dir=trace_dir, start=start, policy=policy,
                                 played=played)
                    if chosen is None or (chosen.difference is None
                                          and found.difference is not None):
                        chosen = found
                    # a difference random play stumbled on is not the smallest: a scenario
                    # made for this point may give one the search finds
                    if found.difference is not None and found.difference.found_by == "search":
                        chosen = found
                        break
                out.append((point.name, opt, chosen, None))
            except Exception as err:  # noqa: BLE001 - reported as not checked
                out.append((point.name, opt, None, f"{type(err).__name__}: {err}"))
            progress.advance()
    return out


def pinning_scenarios(game_ref: str, model: Model, point: str,
                      files: list[tuple[Path, ScenarioFile]] | None = None) -> list[str]:
    """``FILE#NAME`` of each scenario of the game that names ``point`` in its
    interpretation: its given situation is where that point's readings are meant to part.
    ``files``: the game's scenario files already read (else they are read here)."""
    if files is None:
        files = _scenario_files_parsed(model, game_ref)
    return [f"{path}#{sc.name}" for path, sf in files for sc in sf.scenarios
            if point in sc.interpretation and (sc.given.actions or sc.given.edits)]


def _scenario_files_parsed(model: Model, game_ref: str) -> list[tuple[Path, ScenarioFile]]:
    """The game's scenario files that read without error (_scenarios reports the others)."""
    out = []
    for path in scenario_files(model, game_ref):
        try:
            out.append((path, load_game_scenarios(path, game_ref)))
        except Exception:  # noqa: BLE001 - a broken file is reported by _scenarios
            continue
    return out


def _scenarios(model: Model, game_ref: str
               ) -> tuple[list[tuple[ScenarioFile, list[ScenarioResult]]], list[str]]:
    out, errors = [], []
    for path in scenario_files(model, game_ref):
        try:
            sf = load_game_scenarios(path, game_ref)
        except Exception as err:  # noqa: BLE001 - a broken file is reported, not fatal
            errors.append(f"{path.name}: {err}")
            continue
        out.append((sf, [run_scenario(sf, sc) for sc in sf.scenarios]))
    return out, errors
