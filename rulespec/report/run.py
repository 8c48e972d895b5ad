"""What the CLI calls: write reports for games, and pictures of played or replayed steps."""

from __future__ import annotations

from pathlib import Path
from typing import Callable, Sequence

from ..runtime.model import CHANCE, Model
from .budget import Budget
from .render import write_atomically, write_index, write_report
from .svg import Picture


def report_one(game_ref: str, budget: Budget, out_dir: str) -> dict:
    """Collect, build and write one game's report (in a worker process or not); a report
    that cannot be made says why instead of stopping the others."""
    from .collect import collect
    from .document import build_document
    from ..formats.files import why
    trace_dir = Path(out_dir) / "traces"
    try:
        doc = build_document(collect(game_ref, budget, trace_dir), game_ref)
    except Exception as err:  # noqa: BLE001 - one game's failure is reported in one line
        return {"game": game_ref, "error": f"{type(err).__name__}: {err}"}
    done = {"game": doc["game"]["name"], "counts": doc["glance"]["counts"],
            "seconds": doc["budget"]["seconds"]}
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


def report_games(game_refs: Sequence[str], budget: Budget, out_dir: str, workers: int = 1,
                 progress: Callable[[str], None] = lambda msg: None) -> list[dict]:
    """Write every game's report into ``out_dir``; games run in ``workers`` processes."""
    if workers <= 1 or len(game_refs) <= 1:
        out = []
        for g in game_refs:
            progress(f"reporting {g}")
            out.append(report_one(g, budget, out_dir))
        return out
    from concurrent.futures import as_completed

    from ..check.workers import worker_pool
    with worker_pool(min(workers, len(game_refs))) as pool:
        futures = {pool.submit(report_one, g, budget, out_dir): g
                   for g in _heaviest_first(game_refs)}
        done = {}
        for f in as_completed(futures):
            done[futures[f]] = f.result()
            progress(f"reported {futures[f]}")
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
