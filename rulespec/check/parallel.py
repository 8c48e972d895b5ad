"""Run ``check_game`` in this process with a progress bar, or spread over worker processes."""

from __future__ import annotations

from typing import Sequence

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from .results import Result
from .runner import check_game
from .workers import worker_pool


def _run(game: str, interpretation: Sequence[str], names: Sequence[str], examples: int,
         seed: int, players: int | None, mode: str, trace_dir: str) -> list[Result]:
    from ..runtime.registry import load
    model = load(game, interpretation=",".join(interpretation) or None)
    return check_game(model, property_names=names, examples=examples, seed=seed,
                      players=players, mode=mode, trace_dir=trace_dir)


def check_in_workers(game: str, interpretation: Sequence[str], names: Sequence[str],
                     examples: int, seed: int, players: int | None, mode: str,
                     trace_dir: str, workers: int, progress: bool = True) -> list[Result]:
    """Results in the order of ``names``. With ``workers > 1`` the properties are dealt
    round-robin to processes; each group is searched on its own (same seed)."""
    if workers <= 1 or len(names) <= 1:
        return _in_process(game, interpretation, names, examples, seed, players, mode,
                           trace_dir, progress)
    groups = [list(names[i::workers]) for i in range(min(workers, len(names)))]
    with worker_pool(len(groups)) as pool:
        futures = [pool.submit(_run, game, list(interpretation), g, examples, seed, players,
                               mode, trace_dir) for g in groups]
        found = [r for f in futures for r in f.result()]
    order = {n: i for i, n in enumerate(names)}
    return sorted(found, key=lambda r: order.get(r.property, len(order)))


def _in_process(game: str, interpretation: Sequence[str], names: Sequence[str], examples: int,
                seed: int, players: int | None, mode: str, trace_dir: str,
                progress: bool) -> list[Result]:
    from ..runtime.registry import load
    model = load(game, interpretation=",".join(interpretation) or None)
    console = Console(stderr=True)
    if not progress or not console.is_terminal:
        return check_game(model, property_names=names, examples=examples, seed=seed,
                          players=players, mode=mode, trace_dir=trace_dir)
    with Progress(TextColumn("checking {task.fields[game]}"), BarColumn(),
                  MofNCompleteColumn(), TimeElapsedColumn(), console=console,
                  transient=True) as bar:
        task = bar.add_task("check", total=examples, game=model.name)

        def tick() -> None:
            bar.advance(task)
        return check_game(model, property_names=names, examples=examples, seed=seed,
                          players=players, mode=mode, trace_dir=trace_dir, on_example=tick)
