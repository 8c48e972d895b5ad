"""Write a game: ``Game`` collects fields, rules and scoring, then ``build()`` validates them.

A decorated rule function runs once, on symbolic parameters, to record its guards
(``rule.require``) and updates (``rule.set``); it is never called per move.
"""

from __future__ import annotations

import itertools
from typing import Any, Callable, Mapping, Sequence

from ..ir.assumed import tags_of
from ..ir.errors import SpecError
from ..ir.location import Location, caller_location
from ..ir.nodes import (BOOL, INT, Dim, Domain, Enum, Expr, Field, Labels, Table, Type, const,
                        domain_of, int_span, lift)
from .elements import (Action, Assumption, Conservation, Constant, GameSpec, Interpretation,
                       Invariant, Param, Rule, Ruleset, TieBreak)
from .flow import Flow, _flag
from .phases import Phases
from .readings import Option, Readings, option
from .rules import RuleBuilder, _in_element

__all__ = ["PLAYERS", "AtLeast", "Game", "Option", "RuleBuilder", "option"]


class AtLeast:
    """The kind of an int field with a lower bound only: ``game.at_least(0)``."""

    def __init__(self, lo: int) -> None:
        if not isinstance(lo, int) or isinstance(lo, bool):
            raise TypeError(f"at_least takes an int, got {lo!r}")
        self.lo = lo

    def __repr__(self) -> str:
        return f"at_least({self.lo})"


class _Players:
    """Marker for a per-player array dimension (``shape=(PLAYERS,)``)."""

    def __repr__(self) -> str:
        return "PLAYERS"


PLAYERS = _Players()

#: the ints every backend computes with (the C backend's ``int64_t``)
INT64_MIN, INT64_MAX = -2 ** 63, 2 ** 63 - 1


class Game(Readings, Flow, Phases):
    """A game being written. Call ``build()`` last (the registration step)."""

    def __init__(self, name: str, *, title: str, players: int | tuple[int, int],
                 source: str, summary: str = "") -> None:
        self.where = caller_location()
        if not name.isidentifier():
            raise SpecError(f"game name {name!r} must be an identifier", element=f"game {name}")
        self.name = name
        self.title = title
        self.summary = summary
        lo, hi = (players, players) if isinstance(players, int) else players
        if not 1 <= lo <= hi:
            raise SpecError(f"bad player range {players!r}", element=f"game {name}")
        self.min_players, self.max_players = lo, hi
        self.source = source
        self._names: dict[str, str] = {}
        self.enums: list[Enum] = []
        self.fields: list[Field] = []
        self.constants: list[Constant] = []
        self.assumptions: list[Assumption] = []
        self.interpretations: list[Interpretation] = []
        self.rulesets: list[Ruleset] = []
        self.actions: list[Action] = []
        self.invariants: list[Invariant] = []
        self.conservations: list[Conservation] = []
        self.tie_breaks: list[TieBreak] = []
        self._setup: tuple = ()
        self._setup_source: str | None = None
        self._setup_rests: frozenset = frozenset()
        self._current_player: Rule | None = None
        self._chance_node: Rule | None = None
        self._terminal: Rule | None = None
        self._scoring: Scoring | None = None
        self._shared_ties: Rule | None = None
        self._max_steps: tuple[int, str | None] | None = None
        self._horizon: tuple[int, str] | None = None
        self._waivers: dict[str, str] = {}
        self._left_to_play: dict[str, str] = {}
        self.tables: list[Table] = []
        self._check_examples = 100
        self._view: Any = None
        self._np_field = Field("num_players", INT, lo, hi, (), lo, source,
                               self.where, "number of players in this game", True)
        self.num_players = Expr("num_players", (), INT)

    # --- names --------------------------------------------------------------------------
    def _claim(self, kind: str, name: str, where: Location | None) -> None:
        if not name.isidentifier():
            raise SpecError(f"{kind} name {name!r} must be an identifier",
                            element=f"{kind} {name}", where=where)
        if name in self._names:
            raise SpecError(f"name {name!r} already used by a {self._names[name]}",
                            element=f"{kind} {name}", where=where)
        self._names[name] = kind

    def _need_source(self, kind: str, name: str, source: str | None,
                     where: Location | None) -> None:
        if not isinstance(source, str) or not source.strip():
            got = "" if source is None or isinstance(source, str) else f" (got {source!r})"
            raise SpecError("missing source: cite the rule text (seed file + section, or a "
                            f"short quote){got}", element=f"{kind} {name}", where=where)

    # --- vocabulary and state -----------------------------------------------------------
    def enum(self, name: str, members: dict[str, str] | Sequence[str], *, source: str) -> Enum:
        """A closed vocabulary; ``members`` maps each name to a one-line description."""
        where = caller_location()
        self._claim("enum", name, where)
        self._need_source("enum", name, source, where)
        e = Enum(name, members, source=source, where=where)
        self.enums.append(e)
        return e

    def labels(self, name: str, names: dict[int, str] | Sequence[str | None], *,
               source: str) -> Labels:
        """Names for the positions of an int array dimension (token codes, say), for
        states, scenarios and reports; use it in a field's ``shape`` like a size. The spec
        keeps indexing the dimension with ints. A dict ``{position: name}`` leaves the
        positions it does not mention unnamed."""
        where = caller_location()
        self._claim("labels", name, where)
        self._need_source("labels", name, source, where)
        if isinstance(names, dict):
            if not names or not all(isinstance(k, int) and k >= 0 for k in names):
                raise SpecError("labels need {position: name} with positions >= 0",
                                element=f"labels {name}", where=where)
            listed: list[str | None] = [None] * (max(names) + 1)
            for k, v in names.items():
                listed[k] = v
        else:
            listed = list(names)
        shown = [n for n in listed if n is not None]
        if not shown or not all(isinstance(n, str) and n.strip() for n in shown):
            raise SpecError("labels must be non-empty strings", element=f"labels {name}",
                            where=where)
        if len(set(shown)) != len(shown):
            raise SpecError("labels must be distinct", element=f"labels {name}", where=where)
        bad = [n for n in shown if any(ch in n for ch in "[],=\"\n")]
        if bad:
            raise SpecError(f"label {bad[0]!r} may not contain [ ] , = or quotes (scenario "
                            "files write it inside a field reference)",
                            element=f"labels {name}", where=where)
        return Labels(name, tuple(listed), source, where)

    def codes(self, name: str, parts: Sequence[Any], *, source: str, first: int = 0,
              sep: str = "/") -> Labels:
        """Codes for the combinations of ``parts`` (each a ``range`` or an enum; the last
        varies fastest), numbered from ``first`` and named by their parts (``"6/spear"``):
        labels for an int dimension, looked up by their parts with ``Codes.of(price,
        mark)`` (no arithmetic on a flattened index in the spec, and the report reads
        ``bag[price/mark]``)."""
        where = caller_location()
        self._claim("labels", name, where)
        self._need_source("labels", name, source, where)
        return Labels.product(name, parts, first=first, sep=sep, source=source, where=where)

    def players(self) -> Domain:
        """The domain of player numbers 0 .. number of players - 1."""
        return Domain(0, self.num_players, self.max_players, None, "players")

    @staticmethod
    def at_least(lo: int) -> AtLeast:
        """The kind of an int field bounded below only (see :meth:`field`)."""
        return AtLeast(lo)

    def field(self, name: str, kind: Any, *, source: str, shape: Sequence[Any] = (),
              initial: Any = None, doc: str = "", flow: bool = False,
              visible: Any = "all", bookkeeping: bool = False, proof_aid: bool = False) -> Any:
        """Declare a state field.

        ``kind`` is ``bool``, an :class:`Enum`, ``range(lo, hi + 1)`` for a bounded int, or
        ``game.at_least(lo)`` for a count the rules do not cap (victory points, say): a
        made-up upper bound would be a claim the prover must then prove.
        ``shape`` lists array dimensions: ints, enums or ``PLAYERS``. Returns an expression
        for a scalar field, or the field (index it with ``[...]``) for an array.
        ``visible`` says who sees it (``Model.observation``): ``"all"`` (default),
        ``"owner"`` (a field whose first dimension is ``PLAYERS``: cell ``[p, ...]`` is
        seen by player ``p`` only), ``"nobody"`` (a face-down deck), or a function
        ``(observer, *index) -> bool expression`` for a part (the face-up slots of a row).
        ``bookkeeping=True``: a record the rules keep to decide something else (the
        positions seen, for a repetition rule); ``rulespec diff`` does not count two
        readings as parted where only such fields differ, and looks on for the real parting.
        ``proof_aid=True``: kept only so that a proof goes through, not because the rules
        call for it (``rulespec info`` and the report list it apart: :func:`~.elements.proof_aids`).
        """
        where = caller_location()
        self._claim("field", name, where)
        self._need_source("field", name, source, where)
        element = f"field {name}"
        if kind is bool:
            typ, lo, hi = BOOL, 0, 1
            default: Any = False
        elif isinstance(kind, Enum):
            typ, lo, hi = kind.type, 0, len(kind) - 1
            default = 0
        elif isinstance(kind, range):
            if kind.step != 1 or kind.stop <= kind.start:
                raise SpecError(f"int fields need a non-empty range with step 1, got {kind}",
                                element=element, where=where)
            if kind.start < INT64_MIN or kind.stop - 1 > INT64_MAX:
                raise SpecError(f"range({kind.start}, {kind.stop}) does not fit the 64-bit ints "
                                "every backend computes with (-2**63 .. 2**63 - 1): for a count "
                                "the rules do not cap, use game.at_least(lo); otherwise a "
                                "range the rules can reach", element=element, where=where)
            typ, lo, hi = INT, kind.start, kind.stop - 1
            default = max(lo, min(0, hi))
        elif isinstance(kind, AtLeast):
            typ, lo, hi = INT, kind.lo, None
            default = max(lo, 0)
        else:
            raise SpecError("kind must be bool, an enum, range(lo, hi + 1) or game.at_least(lo) "
                            f"(unbounded ints are not allowed), got {kind!r}", element=element,
                            where=where)
        dims = []
        for d in shape:
            if d is PLAYERS:
                dims.append(Dim(self.max_players, None, True))
            elif isinstance(d, Enum):
                dims.append(Dim(len(d), d, False))
            elif isinstance(d, Labels):
                dims.append(Dim(d.size, None, False, d))
            elif isinstance(d, int) and not isinstance(d, bool) and d > 0:
                dims.append(Dim(d))
            else:
                raise SpecError(f"bad dimension {d!r}: use a positive int, an enum, labels "
                                "or PLAYERS",
                                element=element, where=where)
        for flag, value in (("bookkeeping", bookkeeping), ("proof_aid", proof_aid)):
            if not isinstance(value, bool):
                raise SpecError(f"{flag} is True or False, got {value!r}", element=element,
                                where=where)
        init = default if initial is None else _initial_value(initial, typ, lo, hi, element, where)
        seen, observer = self._visibility(visible, tuple(dims), element, where)
        f = Field(name, typ, lo, hi, tuple(dims), init, source, where, doc, flow, seen,
                  observer, (tags_of(initial) | _shape_tags(shape)) or None, bookkeeping,
                  proof_aid)
        self.fields.append(f)
        return lift(f) if not dims else f

    def _visibility(self, visible: Any, dims: tuple[Dim, ...], element: str,
                    where: Location | None) -> tuple[Any, Expr | None]:
        """A field's ``visible=``: a word, or one condition per cell of an observer."""
        if isinstance(visible, str) and visible in ("all", "nobody"):
            return visible, None
        if isinstance(visible, str) and visible == "owner":
            if not dims or not dims[0].players:
                raise SpecError("visible='owner' needs PLAYERS as the first dimension (the "
                                "owner of cell [p, ...] is player p)", element=element,
                                where=where)
            return visible, None
        if not callable(visible):
            raise SpecError(f"visible must be 'all', 'owner', 'nobody' or a function "
                            f"(observer, *index) -> bool, got {visible!r}", element=element,
                            where=where)
        observer = Expr("var", ("observer", self.players()), INT)
        conds = []
        for idx in itertools.product(*(range(d.size) for d in dims)):
            args = [d.enum[d.enum.members[i]] if d.enum is not None else const(i)
                    for d, i in zip(dims, idx)]
            with _in_element(element):
                c = lift(visible(observer, *args))
            if c.type != BOOL:
                raise SpecError(f"a visibility condition must be a bool, got {c.type}",
                                element=element, where=where)
            conds.append(c)
        return tuple(conds), observer

    def table(self, name: str, mapping: Any, *, source: str) -> Table:
        """A constant table keyed by an enum: ``{Card.fish: 3, Card.shell: 1, ...}`` gives
        every member one value (ints, bools or members of one enum). Index it with a
        member, known or not: ``cost[card]``; it compiles to one lookup, not an if-chain."""
        where = caller_location()
        self._claim("table", name, where)
        self._need_source("table", name, source, where)
        t = Table.of(name, mapping, source=source, where=where)
        self.tables.append(t)
        return t

    # --- how it looks -------------------------------------------------------------------
    def view(self, *parts: Any, legend: Mapping[str, str] | None = None) -> None:
        """Declare how the state looks to a person: parts built with
        :mod:`rulespec.spec.view` (grids, slots, tracks, counters, maps, tableaux, piles),
        in reading order. The report, ``--svg``, ``print(state)`` and a notebook draw every
        game from it. ``legend`` says what the abbreviations drawn stand for (``{"Pa":
        "palm"}``); the report lists it with each glyph's text and title."""
        from .view import Deferred, View
        where = caller_location()
        entries = tuple((legend or {}).items())
        bad = [k for k, v in entries if not (isinstance(k, str) and isinstance(v, str)
                                             and k.strip() and v.strip())]
        if bad:
            raise SpecError(f"a view's legend maps a drawn text to its meaning (two "
                            f"non-empty strings), got {bad[0]!r}", element="view", where=where)
        built = []
        for part in parts:
            if not isinstance(part, Deferred):
                raise SpecError(f"view parts come from rulespec.spec.view builders, got "
                                f"{part!r}", element="view", where=where)
            with _in_element("view"):
                built.extend(part.parts(self.max_players))
        self._view = View(tuple(built), where, entries)

    # --- rules --------------------------------------------------------------------------
    def setup(self, *, source: str) -> Callable[[Callable], Callable]:
        """Decorate ``def f(rule)`` that sets the initial state (fields start at ``initial``)."""
        where = caller_location()

        def deco(fn: Callable) -> Callable:
            self._need_source("setup", fn.__name__, source, where)
            rb = RuleBuilder("setup", allow_require=False)
            with _in_element("setup"):
                fn(rb)
            self._setup, self._setup_source = rb.effects, source
            self._setup_rests = frozenset(rb.rests)
            return fn
        return deco

    def action(self, name: str | None = None, *, source: str,
               params: dict[str, Any] | None = None, text: str | None = None,
               doc: str = "", phase: Any = None,
               proof_aid: bool = False) -> Callable[[Callable], Callable]:
        """Decorate ``def verb(rule, **params)``: a player's move with guards and effects.
        ``phase``: the phase (or phases) it belongs to, see :meth:`phases`.
        ``proof_aid=True``: the action is split or written this way only for a proof."""
        return self._rule(name, source, params or {}, text, doc, chance=False, phase=phase,
                          proof_aid=proof_aid)

    def chance(self, name: str | None = None, *, source: str,
               params: dict[str, Any] | None = None, text: str | None = None,
               doc: str = "", phase: Any = None,
               proof_aid: bool = False) -> Callable[[Callable], Callable]:
        """Decorate ``def outcome(rule, **params)``: a random event's outcomes at chance nodes.

        ``rule.require`` limits which outcomes are possible; ``rule.set_weight`` gives each
        a relative weight (default 1: uniform). ``proof_aid`` as for :meth:`action`.
        """
        return self._rule(name, source, params or {}, text, doc, chance=True, phase=phase,
                          proof_aid=proof_aid)

    def _rule(self, name: str | None, source: str, params: dict[str, Any], text: str | None,
              doc: str, chance: bool, phase: Any = None,
              proof_aid: bool = False) -> Callable[[Callable], Callable]:
        where = caller_location()
        block = self._phase_block  # a ``with game.phase(...)`` around the decorator

        def deco(fn: Callable) -> Callable:
            aname = name or fn.__name__
            self._claim("action", aname, where)
            self._need_source("action", aname, source, where)
            ps = []
            for pname, dom in params.items():
                try:
                    d = domain_of(dom)
                except SpecError as err:
                    raise SpecError(f"parameter {pname}: {err.problem}",
                                    element=f"action {aname}", where=where) from None
                ps.append(Param(pname, d, Expr("param", (pname, d), d.type)))
            rb = RuleBuilder(f"action {aname}")
            guard = self._phase_guard(phase if phase is not None else block,
                                      f"action {aname}", where)
            if guard is not None:
                rb.require(guard[0], guard[1], source=guard[2])
            with _in_element(f"action {aname}"):
                fn(rb, **{p.name: p.node for p in ps})
            if not rb.effects and not chance:
                raise SpecError("an action needs at least one effect", element=f"action {aname}",
                                where=where)
            if text is not None:
                unknown = _template_names(text) - {p.name for p in ps}
                if unknown:
                    raise SpecError(f"text template names unknown parameters {sorted(unknown)}",
                                    element=f"action {aname}", where=where)
            self.actions.append(Action(aname, tuple(ps), tuple(rb.preconditions), rb.effects,
                                       source, where, text, chance, rb.weight,
                                       doc or (fn.__doc__ or "").strip(), frozenset(rb.rests),
                                       _flag("proof_aid", proof_aid, f"action {aname}", where)))
            return fn
        return deco

    # --- registration -------------------------------------------------------------------
    def build(self) -> GameSpec:
        """Validate everything and freeze the spec."""
        from .validate import validate
        length = self._max_steps or self._horizon
        missing = [what for what, v in (("current_player", self._current_player),
                                        ("terminal", self._terminal),
                                        ("score", self._scoring),
                                        ("max_steps (or a horizon)", length)) if v is None]
        if missing:
            raise SpecError(f"the game does not declare: {', '.join(missing)}",
                            element=f"game {self.name}", where=caller_location())
        if self._max_steps and self._horizon:
            raise SpecError("declare max_steps (the rules bound the game) or a horizon (they "
                            "do not), not both", element=f"game {self.name}",
                            where=caller_location())
        assert self._current_player and self._terminal and self._scoring and length
        provable = {i.name for i in self.invariants if not i.law} | {
            c.name for c in self.conservations}
        for name in self._left_to_play:
            if name not in provable:
                raise SpecError(f"left_to_play names {name!r}, which is no invariant or "
                                "conservation law of the game (laws and the generic "
                                "properties cannot be left to play)",
                                element=f"left to play {name}", where=caller_location())
        spec = GameSpec(
            name=self.name, title=self.title, min_players=self.min_players,
            max_players=self.max_players, source=self.source,
            file=self.where.file if self.where else None, enums=tuple(self.enums),
            fields=(self._np_field, *self.fields), constants=tuple(self.constants),
            assumptions=tuple(self.assumptions), interpretations=tuple(self.interpretations),
            setup=self._setup, setup_source=self._setup_source, actions=tuple(self.actions),
            current_player=self._current_player, chance_node=self._chance_node,
            terminal=self._terminal, scoring=self._scoring, tie_breaks=tuple(self.tie_breaks),
            shared_ties=self._shared_ties, invariants=tuple(self.invariants),
            conservation=tuple(self.conservations), max_steps=length[0],
            max_steps_source=length[1], num_players_field=self._np_field,
            summary=self.summary, bmc_depth=self._bmc_depth,
            check_examples=self._check_examples, view=self._view,
            horizon_reason=self._horizon[1] if self._horizon else None,
            waivers=dict(self._waivers), left_to_play=dict(self._left_to_play),
            tables=tuple(self.tables),
            rulesets=tuple(self.rulesets), setup_rests_on=self._setup_rests)
        validate(spec)
        return spec


def _template_names(text: str) -> set[str]:
    import string
    return {f for _, f, _, _ in string.Formatter().parse(text) if f}


def _initial_value(initial: Any, typ: Type, lo: int, hi: int | None, element: str,
                   where: Location | None) -> Any:
    if isinstance(initial, Expr):
        if initial.op != "const" or initial.type != typ:
            raise SpecError(f"initial value must be a {typ} constant", element=element, where=where)
        return initial.args[0]
    if isinstance(initial, (list, tuple)):
        return [_initial_value(x, typ, lo, hi, element, where) for x in initial]
    if typ == BOOL:
        if not isinstance(initial, bool):
            raise SpecError(f"initial value must be a bool, got {initial!r}", element=element,
                            where=where)
        return initial
    if typ == INT:
        if isinstance(initial, int) and not INT64_MIN <= initial <= INT64_MAX:
            raise SpecError(f"initial value {initial} does not fit the 64-bit ints every "
                            "backend computes with (-2**63 .. 2**63 - 1)", element=element,
                            where=where)
        if not isinstance(initial, int) or initial < lo or (hi is not None and initial > hi):
            raise SpecError(f"initial value {initial!r} is outside {int_span(lo, hi)}",
                            element=element, where=where)
        return int(initial)  # a tagged int (ir.assumed): the field keeps its tags apart
    raise SpecError(f"initial value of an enum field must be a member, got {initial!r}",
                    element=element, where=where)



def _shape_tags(shape: Sequence[Any]) -> frozenset:
    """The assumptions a field's sizes come from (``shape=(board_size,)`` with a value
    ``game.assume`` returned): whatever reads the field rests on them too."""
    return tags_of(tuple(d for d in shape if isinstance(d, int) and not isinstance(d, bool)))
