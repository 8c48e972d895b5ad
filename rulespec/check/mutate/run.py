"""Run every mutant of a game through the judges, in worker processes, and score them.

The mutation score is ``killed / (mutants - equivalent)``: the share of the changes that
could matter which a scenario, ``check`` or ``prove`` noticed. Per operator too. Mutants of
constructed component values (a catalogue entry made for the model: ``Mutant.constructed``)
are counted apart, with their own score: the rules' score says what the tests pin of the
rules, theirs what they pin of values no source gives.
"""

from __future__ import annotations

import threading
from concurrent.futures import FIRST_COMPLETED, wait
from pathlib import Path
from typing import TYPE_CHECKING, Any, Sequence

import attrs

from ...runtime.gameref import GameRef
from ..executor import cache, on_cluster_worker
from ..progress import QUIET, Progress
from .judge import BUDGETS, EQUIVALENT, KILLED, SURVIVED, Judges, MutantResult, load_scenarios
from .judge import scenario_files as default_scenario_files
from .operators import OPERATORS, Mutant, mutants, select_operators
from .stored import Stored

if TYPE_CHECKING:
    from ..cluster import Cluster

#: the format of ``rulespec mutate --json`` (and the report's mutation section)
FORMAT = 1


@attrs.frozen
class MutationReport:
    """The outcome of ``rulespec mutate`` for one game."""

    game: str
    budget: str
    seed: int
    examples: int
    prove: bool
    operators: tuple[str, ...]
    results: tuple[MutantResult, ...]
    #: (judgements from the verdict store, mutants), or None when no store was open
    stored: tuple[int, int] | None = attrs.field(default=None, eq=False)

    def _part(self, constructed: bool | None) -> list[MutantResult]:
        """The rules' mutants (False), those of constructed values (True), or all (None)."""
        return [r for r in self.results if constructed is None
                or bool(r.constructed) == constructed]

    def count(self, status: str, operator: str | None = None, *,
              constructed: bool | None = False) -> int:
        """Mutants with ``status`` (of ``operator``): the rules' by default."""
        return sum(1 for r in self._part(constructed) if r.status == status
                   and (operator is None or r.operator == operator))

    def score(self, operator: str | None = None, *, constructed: bool = False
              ) -> float | None:
        """killed / (mutants - equivalent) of the rules' mutants (``constructed=True``: of
        the constructed values'); None when no mutant could matter."""
        total = sum(1 for r in self._part(constructed)
                    if operator is None or r.operator == operator)
        live = total - self.count(EQUIVALENT, operator, constructed=constructed)
        return (None if live == 0 else
                self.count(KILLED, operator, constructed=constructed) / live)

    def constructed_values(self) -> dict[str, Any]:
        """The mutants of constructed component values, counted apart: how many, their
        score, and the entries whose change nothing noticed."""
        part = self._part(True)
        unpinned = sorted({e for r in part if r.status == SURVIVED for e in r.constructed})
        return {"mutants": len(part), "killed": self.count(KILLED, constructed=True),
                "survived": self.count(SURVIVED, constructed=True),
                "equivalent": self.count(EQUIVALENT, constructed=True),
                "score": self.score(constructed=True), "unpinned_entries": unpinned}

    def killed_by(self) -> dict[str, int]:
        """How many of the rules' mutants each judge (build, scenario, check, prove) killed."""
        out: dict[str, int] = {}
        for r in self._part(False):
            if r.status == KILLED and r.by is not None:
                out[r.by] = out.get(r.by, 0) + 1
        return out

    def proof_units(self) -> int:
        """Z3 resource units spent proving the spec's invariants for the equivalence
        test (those answered from the verdict store not counted)."""
        return sum(r.proof_units for r in self.results)

    @property
    def survivors(self) -> list[MutantResult]:
        return [r for r in self.results if r.status == SURVIVED]

    def by_operator(self) -> dict[str, dict[str, Any]]:
        """Per operator that made mutants of the rules: counts and score."""
        out = {}
        for op in self.operators:
            total = sum(1 for r in self._part(False) if r.operator == op)
            if total:
                out[op] = {"mutants": total, "killed": self.count(KILLED, op),
                           "survived": self.count(SURVIVED, op),
                           "equivalent": self.count(EQUIVALENT, op), "score": self.score(op)}
        return out

    def to_json(self) -> dict[str, Any]:
        return {"format": FORMAT, "game": self.game, "budget": self.budget, "seed": self.seed,
                "examples_per_mutant": self.examples, "prove": self.prove,
                "operators": list(self.operators), "mutants": len(self._part(False)),
                "killed": self.count(KILLED), "survived": self.count(SURVIVED),
                "equivalent": self.count(EQUIVALENT), "score": self.score(),
                "killed_by": self.killed_by(),
                "by_operator": self.by_operator(),
                "constructed_values": self.constructed_values(),
                "invariant_proof_units": self.proof_units(),
                "results": [r.to_json() for r in self.results]}


def select_mutants(found: Sequence[Mutant], ids: Sequence[str] | None) -> list[Mutant]:
    """The mutants with the given ids (all for None); an unknown id raises ValueError."""
    if not ids:
        return list(found)
    known = {m.id: m for m in found}
    unknown = [i for i in ids if i not in known]
    if unknown:
        raise ValueError(f"no mutant {', '.join(map(repr, unknown))} (ids as `rulespec mutate "
                         "--list` shows them)")
    return [known[i] for i in dict.fromkeys(ids)]


# --- one process's state: set before the local workers fork, or on a Dask worker's first task
@attrs.frozen
class _Setup:
    """What every mutant's judgement reads besides the mutant: a task's frozen argument."""

    game: GameRef
    operators: tuple[str, ...]
    budget: str
    seed: int
    prove: bool
    #: the scenario files (absolute paths) the mutants are judged by
    scenario_files: tuple[str, ...]


_STATE: dict[str, Any] = cache({})
_LOCK = threading.Lock()   # a Dask worker may run tasks in several threads


def _prepare(setup: _Setup) -> tuple[Judges, dict[str, Mutant]]:
    with _LOCK:
        if _STATE.get("key") != setup:
            model = setup.game.load()
            found = mutants(model.spec, setup.operators)
            chosen = BUDGETS[setup.budget]
            judges = Judges(model.spec, model,
                            load_scenarios(setup.game.where, setup.scenario_files), chosen,
                            setup.seed, setup.prove, Judges.lockstep_nodes_for(model, chosen))
            _STATE.update(key=setup, judges=judges, mutants={m.id: m for m in found})
        return _STATE["judges"], _STATE["mutants"]


def _judge(setup: _Setup, mutant_id: str) -> MutantResult:
    """A task: one mutant's judgement, a pure function of its arguments."""
    judges, by_id = _prepare(setup)
    return judges.judge(by_id[mutant_id])


def mutate_game(game: str, *, operators: Sequence[str] | None = None, budget: str = "quick",
                workers: int = 1, seed: int = 0, prove: bool = False,
                only: Sequence[str] | None = None,
                scenario_files: Sequence[str] | None = None,
                progress: Progress = QUIET, cluster: Cluster | None = None) -> MutationReport:
    """Make the game's mutants and judge each (see the package docstring): here, in
    ``workers`` local processes, or on ``cluster`` (:mod:`..executor`), with the same
    results.

    Raises ValueError for an unknown operator, mutant id or budget,
    :class:`~.judge.BaselineError` when the unmutated spec fails a judge, and
    ``ScenarioFileError`` for a malformed scenario file.
    """
    if budget not in BUDGETS:
        raise ValueError(f"unknown budget {budget!r} (budgets: {', '.join(BUDGETS)})")
    from ...runtime.registry import load
    ops = select_operators(operators)
    files = tuple(str(Path(f).resolve()) for f in (
        scenario_files if scenario_files is not None else default_scenario_files(game)))
    progress.note("the unmutated spec")
    setup = _Setup(GameRef.of(load(game)), ops, budget, seed, prove, files)
    judges, by_id = _prepare(setup)
    chosen = select_mutants(list(by_id.values()), only)
    stored = Stored(game, judges, budget, seed, prove, files)
    stored.baseline(judges.baseline)
    progress.set_total(len(chosen))
    results: dict[str, MutantResult] = stored.found(chosen)  # judged by an earlier run
    for _ in results:
        progress.advance()
    chosen_left = [m for m in chosen if m.id not in results]
    if cluster is None and (workers <= 1 or len(chosen_left) <= 1 or on_cluster_worker()):
        for m in chosen_left:
            progress.note(m.id)
            results[m.id] = stored.keep(judges.judge(m))
            progress.advance()
    else:
        from ..executor import campaign_executor
        with campaign_executor(workers, cluster) as pool:
            pending = {pool.submit(_judge, setup, m.id): m.id for m in chosen_left}
            while pending:
                done, _ = wait(pending, timeout=0.5, return_when=FIRST_COMPLETED)
                for f in done:
                    mid = pending.pop(f)
                    results[mid] = stored.keep(f.result())  # kept at once: a rerun resumes
                    progress.note(mid)
                    progress.advance()
                if not done:
                    progress.note(f"{len(pending)} mutants to go")
    return MutationReport(judges.original.name, budget, seed,
                          judges.budget.examples(judges.spec), prove, ops,
                          tuple(results[m.id] for m in chosen), stored.counts())


__all__ = ["FORMAT", "MutationReport", "OPERATORS", "mutate_game", "select_mutants"]

