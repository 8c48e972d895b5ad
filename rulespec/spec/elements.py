"""The frozen records a spec is made of. Every one carries ``source`` and ``where``."""

from __future__ import annotations

from typing import Any

import attrs

from ..ir.location import Location
from ..ir.nodes import Domain, Enum, Expr, Field, Table


@attrs.frozen(eq=False)
class Precondition:
    """A guard of an action, with the plain-language rule it states and its source."""

    text: str
    cond: Expr
    source: str | None
    where: Location | None


@attrs.frozen(eq=False)
class Param:
    """An action parameter ranging over a finite domain."""

    name: str
    domain: Domain
    node: Expr


@attrs.frozen(eq=False)
class Action:
    """A parameterised move (or a chance outcome family when ``chance``)."""

    name: str
    params: tuple[Param, ...]
    preconditions: tuple[Precondition, ...]
    effects: tuple
    source: str | None
    where: Location | None
    text: str | None = None
    chance: bool = False
    weight: Expr | None = None
    doc: str = ""
    #: assumptions the action rests on by its shape (``rule.rests_on``): labels of
    #: :mod:`rulespec.ir.assumed`
    rests_on: frozenset = frozenset()
    #: written this way only so that a proof goes through (one action per slot, say), not
    #: because the rules split it: ``info`` and the report list it apart
    proof_aid: bool = False


@attrs.frozen(eq=False)
class Assumption:
    """A value the sources do not give, with the reason for the choice and its origin."""

    name: str
    value: Any
    reason: str
    origin: str | None
    where: Location | None
    #: the keys (of a dict) or indices (of a list) whose values the rules may read one by
    #: one: the entries of its tags (:mod:`rulespec.ir.assumed`); None for a single value
    entries: tuple[str, ...] | None = None


@attrs.frozen(eq=False)
class Interpretation:
    """A place where the text allows more than one reading.

    ``options`` maps each option to the source that supports it; rules test the reading in
    force with :meth:`is_`.
    """

    name: str
    question: str
    options: dict[str, str]
    default: str
    source: str | None
    where: Location | None
    enum: Enum
    node: Expr
    #: the source passage in English, stored next to the quote (``source``)
    english: str | None = None
    #: each option's source passage in English, by option
    option_english: dict[str, str] = attrs.field(factory=dict)
    #: why the default is the default
    default_reason: str | None = None

    def is_(self, option: str) -> Expr:
        """True under the given option."""
        return self.node == self.enum[option]

    def is_one_of(self, *options: str) -> Expr:
        """True under any of the given options."""
        return self.node.is_one_of(*(self.enum[o] for o in options))


@attrs.frozen(eq=False)
class Ruleset:
    """A named bundle of interpretation options with its source (an edition, an online
    version): Ludii's ``(rulesets ...)``. Points it does not name keep their default."""

    name: str
    options: dict[str, str]
    source: str | None
    where: Location | None
    doc: str = ""


@attrs.frozen(eq=False)
class Constant:
    """A named number from the rules (with its source)."""

    name: str
    value: Any
    source: str | None
    where: Location | None


@attrs.frozen(eq=False)
class Invariant:
    """A statement that holds in every reachable state.

    A *law* (``law=True``) is stronger: it holds in every state within the declared
    bounds, reachable or not (a scoring rule checked against all possible totals, say), so
    Z3 proves it without induction.
    """

    name: str
    cond: Expr
    source: str | None
    where: Location | None
    doc: str = ""
    law: bool = False
    #: a fact stated only so that the step proofs become inductive (true of the rules, but
    #: no rule a reader needs): ``info`` and the report list it apart
    proof_aid: bool = False


@attrs.frozen(eq=False)
class Conservation:
    """A total that never changes: every unit of a resource is somewhere."""

    name: str
    total: Expr
    source: str | None
    where: Location | None
    doc: str = ""


@attrs.frozen(eq=False)
class TieBreak:
    """After scores, compare players by ``key`` (higher is better unless ``lower_wins``)."""

    var: Expr
    key: Expr
    lower_wins: bool
    source: str | None
    where: Location | None


@attrs.frozen(eq=False)
class Scoring:
    """Each player's score, as an expression of the player variable ``var``."""

    var: Expr
    score: Expr
    source: str | None
    where: Location | None


@attrs.frozen(eq=False)
class Rule:
    """A flow rule given by one expression: current player, chance node, terminal, ..."""

    expr: Expr
    source: str | None
    where: Location | None


@attrs.frozen(eq=False)
class GameSpec:
    """A whole game, validated: what every backend compiles."""

    name: str
    title: str
    min_players: int
    max_players: int
    source: str | None
    file: str | None
    enums: tuple[Enum, ...]
    fields: tuple[Field, ...]
    constants: tuple[Constant, ...]
    assumptions: tuple[Assumption, ...]
    interpretations: tuple[Interpretation, ...]
    setup: tuple
    setup_source: str | None
    actions: tuple[Action, ...]
    current_player: Rule
    chance_node: Rule | None
    terminal: Rule
    scoring: Scoring
    tie_breaks: tuple[TieBreak, ...]
    shared_ties: Rule | None
    invariants: tuple[Invariant, ...]
    conservation: tuple[Conservation, ...]
    max_steps: int
    max_steps_source: str | None
    num_players_field: Field
    summary: str = ""
    bmc_depth: int = 9
    check_examples: int = 100
    #: how the state looks to a person (``game.view``); None: derived from the fields
    view: Any = None
    #: when set, ``max_steps`` is a horizon: drivers stop there and call the game
    #: truncated; the rules themselves do not bound the game (this says why)
    horizon_reason: str | None = None
    #: generic properties the spec opts out of: name -> reason (reported as SKIPPED)
    waivers: dict[str, str] = attrs.field(factory=dict)
    #: invariants and conservation laws Z3 does not try (``game.left_to_play``): name ->
    #: reason (``prove`` reports them SKIPPED; play and scenarios still check them)
    left_to_play: dict[str, str] = attrs.field(factory=dict)
    tables: tuple[Table, ...] = ()
    rulesets: tuple[Ruleset, ...] = ()
    #: assumptions the setup rests on by its shape (``rule.rests_on`` in ``game.setup``)
    setup_rests_on: frozenset = frozenset()

    @property
    def horizon(self) -> int | None:
        """The step at which play stops a game the rules do not bound, else None."""
        return self.max_steps if self.horizon_reason is not None else None

    @property
    def hidden_information(self) -> bool:
        """Some field is not visible to every player."""
        return any(f.visible != "all" for f in self.fields)

    def action(self, name: str) -> Action:
        for a in self.actions:
            if a.name == name:
                return a
        raise KeyError(name)

    def field(self, name: str) -> Field:
        for f in self.fields:
            if f.name == name:
                return f
        raise KeyError(name)

    def interpretation(self, name: str) -> Interpretation:
        for i in self.interpretations:
            if i.name == name:
                return i
        raise KeyError(name)

    def ruleset(self, name: str) -> Ruleset:
        for r in self.rulesets:
            if r.name == name:
                return r
        raise KeyError(name)


def proof_aids(spec: GameSpec) -> list[tuple[str, str, str]]:
    """``(kind, name, doc)`` of every part marked ``proof_aid=True``: the invariants and laws,
    fields and actions written only so that a proof goes through (what a reader of the
    rules may skip, and what an inferring prover should make unnecessary), in spec order."""
    return ([("law" if i.law else "invariant", i.name, i.doc) for i in spec.invariants
             if i.proof_aid]
            + [("field", f.name, f.doc) for f in spec.fields if f.proof_aid]
            + [("chance" if a.chance else "action", a.name, a.doc) for a in spec.actions
               if a.proof_aid])
