"""Judge one mutant: the game's scenarios, then ``check``, then (when asked) ``prove``.

The first judge that fails kills the mutant and is named. A mutant nothing kills is then
asked whether it can change anything at all (:mod:`.equivalent`): if not, it is
*equivalent*, otherwise it *survived* -- a rule nothing pins.

Budgets are counts (Hypothesis examples, Z3 resource units, states searched), so two runs
give the same verdicts on any machine.
"""

from __future__ import annotations

import contextlib
import math
import sys
import tempfile
from pathlib import Path
from typing import Any, Iterator, Mapping, Sequence

import attrs

from ...compile.python_backend import compile_python
from ...ir.errors import SpecError
from ...runtime.model import Model
from ...spec.elements import GameSpec
from ..budget import DEFAULT_RLIMIT
from ..property import Property, game_properties, skip_reason, spec_properties
from ..results import VIOLATED
from ..runner import SearchError, hypothesis_search
from ..scenario import ScenarioFile, run_scenario
from .equivalent import Changed, Equivalence, changed_parts, equivalence
from .invariants import ProvedInvariants
from .operators import Mutant
from .replay import Recording
from .share import share_with, shared_preconditions

KILLED, SURVIVED, EQUIVALENT = "KILLED", "SURVIVED", "EQUIVALENT"
#: what can kill a mutant, in the order they are tried
BUILD, SCENARIO, CHECK, PROVE = "build", "scenario", "check", "prove"


@attrs.frozen
class Budget:
    """How hard each judge tries: counts, never seconds (docs/mutation.md)."""

    name: str
    #: Hypothesis examples per mutant, as a fraction of the game's ``check_examples``
    examples_share: float
    #: Z3 resource units (rlimit) for each equivalence query and, with --prove, each
    #: prove query: counted, so verdicts do not depend on the machine
    rlimit: int
    #: states the lockstep search may visit to show a mutant cannot change play
    lockstep_nodes: int
    #: random games played in lockstep to find where a survivor differs
    witness_games: int
    #: readings a mutant may compare under the spec's proved invariants: each reading
    #: not proved before costs one ``prove`` of the spec (its step proofs and base case)
    proof_readings: int = 8

    def examples(self, spec: GameSpec) -> int:
        """Hypothesis examples for each mutant of this game."""
        return max(2, math.ceil(spec.check_examples * self.examples_share))


BUDGETS = {
    "quick": Budget("quick", 0.1, 5_000_000, 20_000, 4, 8),
    "full": Budget("full", 1.0, 50_000_000, 200_000, 12, 32),
}


@attrs.frozen
class MutantResult:
    """What became of one mutant (a plain record: it crosses process boundaries)."""

    id: str
    operator: str
    description: str
    source: str | None
    where: str | None
    elements: tuple[str, ...]
    status: str
    #: which judge killed it (build, scenario, check, prove); None if nothing did
    by: str | None = None
    #: the scenario or property that killed it
    killer: str | None = None
    #: what the killer saw
    detail: str | None = None
    #: for an equivalent mutant: how that was shown
    equivalence: str | None = None
    #: for a survivor: where it differs from the spec, if a search found it
    witness: str | None = None
    #: the constructed component entries the changed value comes from (counted apart)
    constructed: tuple[str, ...] = ()
    #: Z3 resource units spent proving the spec's invariants for the equivalence test
    #: while judging this mutant (0: proved before in this process, or from the store)
    proof_units: int = 0

    @classmethod
    def of(cls, m: Mutant, status: str, **kw: Any) -> "MutantResult":
        return cls(m.id, m.operator, m.description, m.source, m.where, m.elements, status,
                   **kw, constructed=m.constructed)

    def to_json(self) -> dict[str, Any]:
        d = attrs.asdict(self)
        d["elements"] = list(self.elements)
        d["constructed"] = list(self.constructed)
        return d


class BaselineError(Exception):
    """The unmutated spec fails a judge: a mutation score would mean nothing."""


@attrs.frozen
class Judges:
    """Everything a worker needs to judge mutants of one game."""

    spec: GameSpec
    original: Model
    scenarios: tuple[ScenarioFile, ...]
    budget: Budget
    seed: int = 0
    prove: bool = False
    #: states the lockstep search may visit per mutant: the budget's, for a game whose
    #: reachable states it can visit all of; 0 otherwise (see :meth:`lockstep_nodes_for`)
    lockstep_nodes: int = 0
    _originals: Any = attrs.field(init=False, default=None, eq=False, repr=False)
    _scenario_actions: Any = attrs.field(init=False, default=None, eq=False, repr=False)
    #: the spec's own check, call by call (:mod:`.replay`); False: none to replay
    _recording: Any = attrs.field(init=False, default=None, eq=False, repr=False)
    #: the spec's invariants proved by induction, per reading (:mod:`.invariants`)
    _proved: Any = attrs.field(init=False, default=None, eq=False, repr=False)

    def __attrs_post_init__(self) -> None:
        originals = _Models(self.spec)
        originals.remember(self.original)
        object.__setattr__(self, "_originals", originals)
        # proved at prove's own default budget: its step proofs are then the very jobs of
        # `rulespec prove GAME` (shared through the store), and cost about what a
        # smaller budget costs where goals are proved (MOTU: 287M units at 50M, 274M at 5M)
        object.__setattr__(self, "_proved", ProvedInvariants(originals, self.proof_rlimit))

    @property
    def proof_rlimit(self) -> int:
        """Units per query of the proof of the spec's invariants, and of the equivalence
        queries that take them as premises (MOTU's need more than 5M: they carry the
        proof's 25 invariants)."""
        return max(self.budget.rlimit, DEFAULT_RLIMIT)

    def models(self, spec: GameSpec) -> "_Models":
        """The spec compiled per reading (the unmutated spec's models are kept)."""
        return self._originals if spec is self.spec else _Models(spec, self._originals)

    @staticmethod
    def lockstep_nodes_for(model: Model, budget: Budget) -> int:
        """The budget's node count if lockstep play can visit every reachable state of the
        game within it (tried on the spec against itself), else 0: a search that cannot
        finish proves nothing and costs as much as the checks."""
        from .lockstep import exhaustible
        return budget.lockstep_nodes if exhaustible(model, budget.lockstep_nodes) else 0

    # --- the judges -------------------------------------------------------------------
    def scenario_order(self, ch: Changed | None = None) -> list[tuple[ScenarioFile, Any]]:
        """The scenarios that can notice the change ``ch`` (every one for None), those that
        play or name a changed action first: they are the likeliest to notice it. Files
        and scenarios otherwise keep their order, so the killer named is the same on every
        run.

        A scenario that evaluates no changed rule part plays exactly as on the spec, where
        it passed (the baseline), so leaving it out changes no verdict. It evaluates the
        setup and the flow rules always; the rules of the actions it plays or names; every
        action's legality for ``only_legal`` or chance ``outcomes``; the score and
        tie-breaks for ``scores`` or ``winners``."""
        every = [(sf, sc) for sf in self.scenarios for sc in sf.scenarios]
        if ch is None:
            return every
        if ch.nothing:
            return []
        plays = self._plays()
        changed = set(ch.actions)
        ranking = bool(ch.score or ch.tie_keys or ch.tie_directions)
        first, then = [], []
        for x in every:
            sc = x[1]
            t = sc.then
            if plays[id(sc)] & changed:
                first.append(x)
            elif (ch.setup or ch.flow
                  or (changed and (t.only_legal is not None or t.outcomes is not None))
                  or (ranking and (t.scores is not None or t.winners is not None))):
                then.append(x)
        # the spec's own reading first: its models are compiled already for most mutants
        return sorted(first, key=_other_reading) + sorted(then, key=_other_reading)

    def _plays(self) -> dict[int, frozenset[int]]:
        """The actions (indices) each scenario plays or names (given, when, then), by
        scenario id."""
        found = self._scenario_actions
        if found is None:
            texts = self.original._every_action()
            found = {}
            for sf in self.scenarios:
                for sc in sf.scenarios:
                    t = sc.then
                    named = [*sc.given.actions, *sc.when.actions, *t.legal, *t.illegal,
                             *(t.only_legal or ()), *(a for a, _ in t.illegal_because),
                             *([t.refused] if t.refused else [])]
                    found[id(sc)] = frozenset(texts[x.strip()].key[0]
                                              for x in named if x.strip() in texts)
            object.__setattr__(self, "_scenario_actions", found)
        return found

    def scenario_killer(self, models: "_Models", ch: Changed | None = None
                        ) -> tuple[str, str] | None:
        """The first scenario that fails on these models: (its name and place, why)."""
        for sf, sc in self.scenario_order(ch):
            where = f"{Path(sf.path).name}:{sc.line}" if sc.line else Path(sf.path).name
            name = f"scenario {sc.name!r} ({where})"
            try:
                r = run_scenario(sf, sc, models)
            except Exception as err:  # noqa: BLE001 - a mutant whose rules raise
                return name, f"the rules raised {type(err).__name__}: {_line(err)}"
            if r.status == VIOLATED:
                return name, "; ".join(r.failures)
        return None

    def check_killer(self, model: Model) -> tuple[str, str] | None:
        """The property Hypothesis violates within the budget: (its name, the message)."""
        props = self.properties(model)
        examples = self.budget.examples(self.spec)
        with _stdout_to_stderr():
            try:
                v, _ = hypothesis_search(model, props, examples, self.seed, None,
                                         shrink_budget=0)
            except SearchError:  # Hypothesis gave up: no verdict, so no kill
                return None
        if v is None:
            return None
        return v.property, f"{v.message} (after {len(v.actions)} step(s))"

    def prove_killer(self, model: Model) -> tuple[str, str] | None:
        """The first property ``prove`` finds VIOLATED on the mutant."""
        from ..prove import prove_game
        with tempfile.TemporaryDirectory() as tmp, _stdout_to_stderr():
            # no search for lemmas: it cannot make a property VIOLATED, only cost more
            results = prove_game(model, rlimit=self.budget.rlimit, trace_dir=tmp,
                                 infer=False)
        for r in results:
            if r.status == VIOLATED:
                return f"{r.property} ({r.checker})", r.detail
        return None

    def properties(self, model: Model) -> list[Property]:
        """The checked properties of a (mutated) model: generic ones, its own invariants and
        laws, and the game's Python properties -- those of the unmutated game's folder."""
        from ...properties.generic import generic_properties
        props = [*generic_properties(), *spec_properties(model),
                 *game_properties(self.original)]
        return [p for p in props if skip_reason(model, p) is None]

    # --- one mutant -------------------------------------------------------------------
    def judge(self, m: Mutant) -> MutantResult:
        """Build the mutant and run the judges in order; then, for a survivor, ask
        whether it can change anything."""
        try:
            spec = m.make(self.spec)
            models = self.models(spec)
            model = models(None)
        except (SpecError, ValueError, TypeError, KeyError, IndexError) as err:
            return MutantResult.of(m, KILLED, by=BUILD, killer="the spec no longer compiles",
                                   detail=_line(err))
        ch = changed_parts(self.spec, spec)
        if ch.nothing:
            return MutantResult.of(m, EQUIVALENT, equivalence="the change reaches no rule")
        found = self.scenario_killer(models, ch)
        if found is not None:
            return MutantResult.of(m, KILLED, by=SCENARIO, killer=found[0], detail=found[1])
        found = None if self._replays(model) else self.check_killer(model)
        if found is not None:
            return MutantResult.of(m, KILLED, by=CHECK, killer=found[0], detail=found[1])
        same: Equivalence = equivalence(
            self.spec, spec, self.budget.rlimit, self.lockstep_nodes,
            witness_games=self.budget.witness_games,
            models=lambda s, interp: (models if s is spec else self.models(s))(interp),
            invariants=self._proved, invariant_readings=self.budget.proof_readings,
            invariant_rlimit=self.proof_rlimit)
        units = self._proved.take_spent()
        if same.equivalent:
            return MutantResult.of(m, EQUIVALENT, equivalence=same.how, proof_units=units)
        if self.prove:
            found = self.prove_killer(model)
            if found is not None:
                return MutantResult.of(m, KILLED, by=PROVE, killer=found[0], detail=found[1],
                                       proof_units=units)
        return MutantResult.of(m, SURVIVED, witness=same.witness, proof_units=units)

    def baseline(self) -> None:
        """Raise :class:`BaselineError` if the unmutated spec fails a judge."""
        models = self.models(self.spec)
        found = self.scenario_killer(models)
        if found is not None:
            raise BaselineError(f"the spec itself fails {found[0]}: {found[1]}")
        found = self._record_check()
        if found is not None:
            raise BaselineError(f"the spec itself violates {found[0]} under check: {found[1]}")

    def _record_check(self) -> tuple[str, str] | None:
        """The spec's own check, run on a model that records every call it makes into
        the rules (:mod:`.replay`), or plainly for a game with Python properties of its
        own: they may read the spec in ways no recording sees."""
        model = self.models(self.spec)(None)
        recording = None if game_properties(self.original) else Recording(model)
        found = self.check_killer(model if recording is None else recording.model)
        object.__setattr__(self, "_recording", recording if found is None else False)
        return found

    def _replays(self, model: Model) -> bool:
        """Whether the mutant's check would replay the spec's passing check call for call
        (then it passes too, and is not run). The spec's run is recorded once per
        process: by the baseline, or here on a worker that did not run it."""
        if self._recording is None:
            self._record_check()
        return bool(self._recording) and self._recording.replays(model)


class _Models:
    """A spec compiled once per reading a scenario asks for (a mutant's defaults fill in
    the points a scenario leaves open). ``like`` is the unmutated spec's: its compiled
    models serve a mutant whose rules are the spec's own (only a default differs), and
    its action texts serve every mutant."""

    def __init__(self, spec: GameSpec, like: "_Models | None" = None) -> None:
        self.spec = spec
        self.like = like
        self._cache: dict[tuple, Model] = {}
        self._same_rules = like is not None and _same_rules(spec, like.spec)
        #: the functions to generate for a mutant (None: all)
        self._only = (None if like is None or self._same_rules
                      else regenerated(like.spec, spec))

    def __call__(self, interpretation: Mapping[str, str] | None) -> Model:
        from ...runtime.model import resolve_interpretation
        chosen = resolve_interpretation(self.spec, dict(interpretation or {}))
        if self._same_rules and self.like is not None:
            return self.like(chosen)
        key = tuple(sorted(chosen.items()))
        model = self._cache.get(key)
        if model is None:
            model = self._cache[key] = self._compile(chosen)
            if self.like is not None:
                _share_action_texts(model, self.like.any())
        return model

    def _compile(self, chosen: dict[str, str]) -> Model:
        """The spec under a reading. A mutant's functions that its change does not reach
        are the unmutated spec's, compiled under the same reading: only the changed
        functions are generated (most of the time a mutant costs is compiling it)."""
        if self._only is None or self.like is None:
            return Model(self.spec, chosen)
        like = self.like(chosen)
        compiled = compile_python(self.spec, chosen, like=like.compiled, only=self._only)
        return share_with(Model(self.spec, chosen,
                                shared_preconditions(compiled, self.spec, like)), like)

    def any(self) -> Model:
        """A model of this spec already compiled (the texts of actions are the same under
        every reading)."""
        return next(iter(self._cache.values())) if self._cache else self(None)

    def remember(self, model: Model) -> None:
        """Use an already compiled model of this spec for its reading."""
        self._cache[tuple(sorted(model.interpretation.items()))] = model


def regenerated(orig: GameSpec, mut: GameSpec) -> frozenset[str] | None:
    """The generated functions (``compile_python``'s names) whose code differs between a
    spec and its mutant, and those that write them inline; None for all of them (a change
    to the flow rules reaches every ``step_i``, or a default changed)."""
    ch = changed_parts(orig, mut)
    if ch.flow or ch.defaults:
        return None
    names = {"initial"} if ch.setup else set()
    if ch.score:
        names.add("scores")
    names.update(f"tie_{k}" for k in ch.tie_keys)
    for i in ch.actions:
        a, b = orig.actions[i], mut.actions[i]
        names.update((f"apply_{i}", f"step_{i}"))   # step_i writes apply_i's effects inline
        legality = (a.weight is not b.weight or a.params is not b.params
                    or len(a.preconditions) != len(b.preconditions)
                    or any(x is not y for x, y in zip(a.preconditions, b.preconditions)))
        if legality:   # the legal-move enumerators
            names.add("chance_weights" if a.chance else "legal")
    return frozenset(names)


def _same_rules(a: GameSpec, b: GameSpec) -> bool:
    """Two specs with the very same rule parts (a mutant that changed a default only)."""
    return all(getattr(a, k) is getattr(b, k) for k in (
        "setup", "actions", "current_player", "chance_node", "terminal", "scoring",
        "tie_breaks"))


def _share_action_texts(model: Model, like: Model) -> None:
    """A mutant's actions are the spec's (same parameters, same texts): let it read every
    action's text from the unmutated model's table instead of formatting every instance
    again -- most of the time a scenario spends on a fresh Hawaii model. Those actions keep
    the spec as their owner, which ``Model.apply`` accepts for a spec of the same game."""
    model._all_actions = like._every_action()


def _other_reading(x: tuple[ScenarioFile, Any]) -> bool:
    """False for a scenario played under the spec's defaults (it names no reading)."""
    return bool(x[1].interpretation) or x[1].ruleset is not None


def _line(err: BaseException) -> str:
    text = " ".join(str(err).split())
    return text[:300] + ("..." if len(text) > 300 else "")


@contextlib.contextmanager
def _stdout_to_stderr() -> Iterator[None]:
    """Whatever a judge prints goes to stderr: stdout may be a --json document."""
    with contextlib.redirect_stdout(sys.stderr):
        yield


def scenario_files(game_ref: str) -> list[str]:
    """The scenario files of a game: a bundled game's ``scenarios/`` folder, or the one
    beside a spec loaded from a path."""
    from ...runtime.registry import spec_path
    folder = spec_path(game_ref).parent / "scenarios"
    return sorted(str(p) for p in folder.glob("*.toml")) if folder.is_dir() else []


def load_scenarios(game_ref: str, files: Sequence[str] | None = None
                   ) -> tuple[ScenarioFile, ...]:
    """The game's scenario files, parsed once (ScenarioFileError on a bad one); a file
    written for another game is refused."""
    from ..scenario import load_game_scenarios
    files = files if files is not None else scenario_files(game_ref)
    return tuple(load_game_scenarios(f, game_ref) for f in files)

