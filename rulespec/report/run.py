"""What the CLI calls: write reports for games, and pictures of played or replayed steps."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Sequence

import attrs

from ..runtime.gameref import GameRef
from ..runtime.model import CHANCE, Model
from .budget import Budget
from .progress import GameProgress, ReportProgress
from .render import write_atomically, write_index, write_report
from .svg import Picture


def report_one(game_ref: str, budget: Budget, out_dir: str,
               progress: GameProgress | None = None) -> dict:
    """Collect, build and write one game's report (in a worker process or not); a report
    that cannot be made says why instead of stopping the others."""
    from .collect import collect
    from .document import build_document
    from .stored import document
    from ..check.store import current
    from ..formats.files import why
    trace_dir = Path(out_dir) / "traces"
    store = current()
    before = store.counts() if store is not None else (0, 0)
    try:
        doc, whole = document(game_ref, budget, out_dir, lambda: build_document(collect(
            game_ref, budget, trace_dir, progress or GameProgress(game_ref)), game_ref))
    except Exception as err:  # noqa: BLE001 - one game's failure is reported in one line
        return {"game": game_ref, "error": f"{type(err).__name__}: {err}"}
    done = {"game": doc["game"]["name"], "counts": doc["glance"]["counts"],
            "seconds": doc["budget"]["seconds"]}
    if store is not None:  # the report's verdicts from the store, and the proof jobs'
        after = store.counts()
        done["stored"] = {"report": whole, "hits": after[0] - before[0] - whole,
                          "asked": after[1] - before[1] - 1}
    try:   # what was found stands even when it cannot be written (a full disk)
        write_report(doc, out_dir)
    except OSError as err:
        done["write_error"] = f"{getattr(err, 'filename', None) or out_dir}: {why(err)}"
    return done


def _heaviest_first(game_refs: Sequence[str]) -> list[str]:
    """Longest jobs first keeps the processes busy to the end: a bigger spec file is taken
    to be a longer job."""
    from ..runtime.registry import spec_path
    return sorted(game_refs, key=lambda g: -spec_path(g).stat().st_size)


def proof_share(budget: Budget, side: int, cores: int) -> Budget:
    """The budget of each of ``side`` games reported side by side on ``cores`` cores: its
    proofs get their share of the cores, at most the budget's processes and at least one.
    The games' own work keeps the cores busy while one game's proofs wait for their last
    job; more processes than cores only share them (``make run``'s report on two cores,
    2026-12-04: 405 s and 778 CPU-s with two proof processes per game, 384 s and 702 with
    one). No verdict depends on it.

    >>> from rulespec.report.budget import QUICK
    >>> [proof_share(QUICK, side, cores).workers for side, cores in [(2, 2), (2, 8), (3, 2)]]
    [1, 2, 1]
    """
    return attrs.evolve(budget, workers=max(1, min(budget.workers, cores // side)))


def _cores() -> int:
    """The cores this process may run on (the machine's, where that is not known)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


#: in a worker: where its games' progress goes (set by the pool's initializer)
_EVENTS: Any = None


def _init(events: Any) -> None:
    global _EVENTS
    _EVENTS = events


def _report_in_worker(game: GameRef, game_ref: str, budget: Budget, out_dir: str) -> dict:
    """A task: one game's report. ``game`` is what the command loaded (a spec whose
    bytes changed since is refused); ``game_ref`` names it as the user did."""
    try:
        game.load()
    except ValueError as err:
        return {"game": game_ref, "error": f"{type(err).__name__}: {err}"}
    sink = _EVENTS.put if _EVENTS is not None else None  # None: on a cluster, unseen
    return report_one(game_ref, budget, out_dir, GameProgress(game_ref, sink))


def report_games(game_refs: Sequence[str], budget: Budget, out_dir: str, workers: int = 1,
                 progress: ReportProgress | None = None, cluster: Any = None) -> list[dict]:
    """Write every game's report into ``out_dir``; games run in ``workers`` processes
    (or as tasks on ``cluster``: each game's proofs and mutants then run in its task),
    each game's phases and counts shown by ``progress``."""
    shown = progress or ReportProgress(game_refs, quiet=True)
    if cluster is None and (workers <= 1 or len(game_refs) <= 1):
        out = []
        for g in game_refs:
            out.append(report_one(g, budget, out_dir, GameProgress(g, shown.update)))
            shown.finished(g)
        return out
    from concurrent.futures import FIRST_COMPLETED, wait

    from ..check.executor import campaign_executor
    from ..check.workers import _context
    from ..runtime.registry import load
    events = _context().SimpleQueue() if cluster is None else None
    side = min(workers, len(game_refs))
    each = budget if cluster is not None else proof_share(budget, side, _cores())
    with campaign_executor(side, cluster, _init, (events,)) as pool:
        futures = {pool.submit(_report_in_worker, GameRef.of(load(g)), g, each, out_dir): g
                   for g in _heaviest_first(game_refs)}
        done: dict[str, dict] = {}
        pending = set(futures)
        while pending:
            ended, pending = wait(pending, timeout=0.2, return_when=FIRST_COMPLETED)
            while events is not None and not events.empty():
                shown.update(events.get())
            for f in ended:
                done[futures[f]] = f.result()
                shown.finished(futures[f])
    try:
        write_index(out_dir)  # once more, after every game: workers finish in any order
    except OSError:
        pass   # the games' own lines say what could not be written
    return [done[g] for g in game_refs]


def step_pictures(model: Model, players: int, actions: Sequence[str], out_dir: str | Path,
                  ) -> list[Path]:
    """``step-000.svg`` (the setup) and one picture after each action."""
    drawer = Picture(model)
    state = model.initial_state(players)
    out = Path(out_dir)
    width = max(3, len(str(len(actions))))
    paths = [write_atomically(out / f"step-{0:0{width}d}.svg",
                              drawer.svg(state, f"{model.spec.title}: setup, {players} "
                                                "players") + "\n")]
    for i, text in enumerate(actions, 1):
        who = model.current_player(state)
        state = model.apply(state, model.action_from_str(state, text))
        by = "chance" if who == CHANCE else f"player {who}"
        paths.append(write_atomically(out / f"step-{i:0{width}d}.svg", drawer.svg(
            state, f"{model.spec.title}, step {i}: {by}: {text}") + "\n"))
    return paths


def picture_after(model: Model, players: int, actions: Sequence[str], step: int) -> str:
    """The SVG of the state after ``step`` of ``actions`` (0: the setup)."""
    state = model.initial_state(players)
    caption = f"{model.spec.title}: setup, {players} players"
    for i, text in enumerate(actions[:step], 1):
        who = model.current_player(state)
        state = model.apply(state, model.action_from_str(state, text))
        by = "chance" if who == CHANCE else f"player {who}"
        caption = f"{model.spec.title}, step {i}: {by}: {text}"
    return Picture(model).svg(state, caption) + "\n"
