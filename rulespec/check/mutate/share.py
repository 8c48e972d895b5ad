"""What a mutant's model can take from the unmutated spec's model under the same reading.

``Model.why_illegal`` (which ``check`` asks for every refused action) compiles each
precondition, and the facts it read, the first time it is asked; on a fresh mutant model
that is compiled again for every precondition, about 1.4 of MOTU's 3.7 CPU s of a quick
``check``. A precondition the mutant did not change (the very same IR node, with the same
parameters, under the same reading and layout) compiles to the same code: the mutant's
model uses the unmutated model's, compiled once for all mutants.
"""

from __future__ import annotations

from typing import Any, Callable

import attrs

from ...compile.python_backend import CompiledGame
from ...compile.reads import Facts
from ...runtime.model import Model
from ...spec.elements import GameSpec


def _same_precondition(mut: GameSpec, orig: GameSpec) -> dict[tuple[int, int], int]:
    """(action, precondition) of the mutant -> the index of the same precondition in the
    unmutated action (the same node; a dropped precondition shifts those after it)."""
    out: dict[tuple[int, int], int] = {}
    for i, (a, b) in enumerate(zip(mut.actions, orig.actions)):
        if a.params is not b.params:
            continue
        where = {id(p.cond): k for k, p in enumerate(b.preconditions)}
        for j, p in enumerate(a.preconditions):
            k = where.get(id(p.cond))
            if k is not None and b.preconditions[k].cond is p.cond:
                out[(i, j)] = k
    return out


def shared_preconditions(compiled: CompiledGame, mut: GameSpec, like: Model) -> CompiledGame:
    """``compiled`` (the mutant's, under ``like``'s reading) whose unchanged preconditions
    are ``like``'s."""
    same = _same_precondition(mut, like.spec)
    base = like.compiled.preconditions
    return attrs.evolve(compiled, preconditions=tuple(
        tuple(base[i][same[(i, j)]] if (i, j) in same else fn for j, fn in enumerate(fns))
        for i, fns in enumerate(compiled.preconditions)))


class SharedFacts(Facts):
    """A mutant model's :class:`Facts`: an unchanged precondition's facts are the
    unmutated model's (compiled once for every mutant)."""

    def __init__(self, model: Model, like: Model) -> None:
        super().__init__(model.spec, model.compiled.layout, _interp(model))
        self._like: Callable[..., Any] = _facts(like)
        self._same = _same_precondition(model.spec, like.spec)

    def __call__(self, i: int, j: int, values: tuple, params: tuple) -> list[tuple[str, str]]:
        k = self._same.get((i, j))
        if k is not None:
            return self._like(i, k, values, params)
        return super().__call__(i, j, values, params)


def _interp(model: Model) -> dict[str, int]:
    return {p.name: p.enum.index_of(model.interpretation[p.name])
            for p in model.spec.interpretations}


def _facts(model: Model) -> Facts:
    """The model's :class:`Facts` (made as ``Model._fact`` makes it, and kept there)."""
    found = model.__dict__.get("_facts")
    if found is None:
        found = model.__dict__["_facts"] = Facts(model.spec, model.compiled.layout,
                                                 _interp(model))
    return found


def share_with(model: Model, like: Model) -> Model:
    """``model`` (a mutant's) reading ``like``'s facts for its unchanged preconditions."""
    model.__dict__["_facts"] = SharedFacts(model, like)
    return model
