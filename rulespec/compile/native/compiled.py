"""The C module as a ``CompiledGame``: a ``Model`` can play on it step by step
(``rulespec.load(game, backend="c")``), with the same answers as on the Python backend.

Every function calls C; where the rules raise in C, the Python backend's function (compiled
when first needed) gives the answer or raises what it raises, so errors read as they do on
the Python backend. Per call, C pays a conversion of the state tuple both ways: it gains
where a step costs more than that (a large game's legal moves), not on tic-tac-toe; whole
games played inside C (``rulespec.runtime.native``) pay it once per game.
"""

from __future__ import annotations

from typing import Any, Callable

from ..python_backend import CompiledGame
from .game import RAISED, NativeGame


def compiled_game(game: NativeGame) -> CompiledGame:
    """``game``'s functions with the Python backend's signatures and answers."""
    spec = game.module.spec
    python = game._python

    def either(raw: Callable[..., Any], fallback: Callable[[], Callable[..., Any]]
               ) -> Callable[..., Any]:
        def call(*args: Any) -> Any:
            got = raw(*args)
            return fallback()(*args) if got is RAISED else got
        return call

    def step(i: int) -> Callable[[tuple, tuple], Any]:
        def run(values: tuple, key: tuple) -> Any:
            if len(key) != 1 + len(spec.actions[i].params) or key[0] != i:
                return python().step[i](values, key)   # not this action: Python says how
            got = game.raw_step(values, key)
            return python().step[i](values, key) if got is RAISED else got
        return run

    def apply(i: int) -> Callable[..., tuple]:
        def run(values: tuple, *params: int) -> tuple:
            got = game.raw_apply(values, (i, *params))
            return python().apply[i](values, *params) if got is RAISED else got
        return run

    def precondition(i: int, j: int) -> Callable[..., bool]:
        def run(values: tuple, *params: int) -> bool:
            got = game.raw_precondition(i, j, values, params)
            return python().preconditions[i][j](values, *params) if got is RAISED else got
        return run

    def indexed(raw: Callable[..., Any], k: int, pick: Callable[[Any], Any]
                ) -> Callable[..., Any]:
        def run(*args: Any) -> Any:
            got = raw(k, *args)
            return pick(python())[k](*args) if got is RAISED else got
        return run

    n = len(spec.actions)
    return CompiledGame(
        layout=game.module.layout, source=game.module.source,
        initial=either(game.raw_initial, lambda: python().initial),
        current_player=either(game.raw_current_player, lambda: python().current_player),
        legal=either(game.raw_legal, lambda: python().legal),
        chance_weights=either(game.raw_chance_weights, lambda: python().chance_weights),
        apply=tuple(apply(i) for i in range(n)),
        step=tuple(step(i) for i in range(n)),
        preconditions=tuple(tuple(precondition(i, j) for j in range(len(a.preconditions)))
                            for i, a in enumerate(spec.actions)),
        terminal=either(game.raw_terminal, lambda: python().terminal),
        scores=either(game.raw_scores, lambda: python().scores),
        tie_keys=tuple(indexed(game.raw_tie_key, k, lambda c: c.tie_keys)
                       for k in range(len(spec.tie_breaks))),
        invariants=tuple(indexed(game.raw_invariant, k, lambda c: c.invariants)
                         for k in range(len(spec.invariants))),
        conserved=tuple(indexed(game.raw_conserved, k, lambda c: c.conserved)
                        for k in range(len(spec.conservation))),
        plain=lambda name: python().plain(name),
    )
