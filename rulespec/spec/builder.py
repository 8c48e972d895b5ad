"""Write a game: ``Game`` collects fields, rules and scoring, then ``build()`` validates them.

A decorated rule function runs once, on symbolic parameters, to record its guards
(``rule.require``) and updates (``rule.set``); it is never called per move.
"""

from __future__ import annotations

import contextlib
import itertools
from typing import Any, Callable, Iterator, Mapping, Sequence

import attrs

from ..ir.assumed import Assumed, tag, tags_of, with_tags
from ..ir.errors import SpecError
from ..ir.location import Location, caller_location, with_target
from ..ir.nodes import (BOOL, INT, Dim, Domain, Enum, Expr, Field, Labels, Named, Table,
                        Type, bound_name, bound_var, const, domain_of, int_span, lift)
from ..ir.statements import Assign, ForEach, If, Let
from .elements import (Action, Assumption, Conservation, Constant, GameSpec, Interpretation,
                       Invariant, Param, Precondition, Rule, Ruleset, Scoring, TieBreak)


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


@attrs.frozen
class Option:
    """An interpretation option's source, with an English rendering of its quote."""

    source: str
    english: str | None = None


def option(source: str, *, english: str | None = None) -> Option:
    """An option of :meth:`Game.interpretation` with its source passage in English."""
    return Option(source, english)


class RuleBuilder:
    """What a rule function receives: record guards and effects, in order."""

    def __init__(self, element: str, allow_require: bool = True) -> None:
        self._element = element
        self._allow_require = allow_require
        self.preconditions: list[Precondition] = []
        self._blocks: list[list] = [[]]
        self.weight: Expr | None = None
        #: assumption labels the rule rests on by its shape (``rests_on``)
        self.rests: set = set()

    @property
    def effects(self) -> tuple:
        return tuple(self._blocks[0])

    def require(self, cond: Any, text: str, *, source: str | None = None) -> None:
        """A precondition: the action is legal only if ``cond`` holds. ``text`` says the rule."""
        where = caller_location()
        if not self._allow_require:
            raise SpecError("require() is only allowed in actions", element=self._element,
                            where=where)
        if len(self._blocks) > 1:
            raise SpecError("require() must be at the top of the rule, not inside when/for_each",
                            element=self._element, where=where)
        c = lift(cond)
        if c.type != BOOL:
            raise SpecError(f"precondition {text!r} must be a bool, got {c.type}",
                            element=self._element, where=where)
        self.preconditions.append(Precondition(text, c, source, where))

    def rests_on(self, *values: Any) -> None:
        """This rule rests on assumptions no value of it shows (a parameter's range, a
        modelling choice written as its shape): ``values`` that ``game.assume`` returned."""
        where = caller_location()
        tags = tags_of(values)
        if not tags:
            raise SpecError("rests_on() takes values game.assume returned", element=self._element,
                            where=where)
        self.rests |= tags

    def set(self, target: Any, value: Any, *, source: str | None = None) -> None:
        """Assign ``value`` to the field cell ``target``."""
        where = caller_location()
        t = lift(target)
        if t.op != "field":
            raise SpecError(f"can only set a field, not {t!r}", element=self._element, where=where)
        v = lift(value)
        if v.type != t.type:
            raise SpecError(f"cannot set {t.args[0].name} ({t.type}) to a {v.type}",
                            element=self._element, where=where)
        self._blocks[-1].append(Assign(t, v, where, source))

    def let(self, value: Any, *, name: str | None = None) -> Expr:
        """Evaluate ``value`` now and name it for the rest of this block (like a local).
        ``name`` is required: the report's English reads the value by it."""
        where = caller_location()
        from ..ir.nodes import _counter
        if not isinstance(name, str) or not name.strip():
            raise SpecError("rule.let needs a name the report can read the value by: "
                            "rule.let(value, name=\"...\")", element=self._element, where=where)
        v = lift(value)
        var = Expr("var", (f"{name}{next(_counter)}", None), v.type, None, None, name)
        self._blocks[-1].append(Let(var, v, where))
        return var

    def add(self, target: Any, delta: Any, *, source: str | None = None) -> None:
        """``target += delta``."""
        self.set(target, lift(target) + delta, source=source)

    @contextlib.contextmanager
    def when(self, cond: Any, *, source: str | None = None,
             name: str | None = None) -> Iterator[None]:
        """Effects inside the block happen only if ``cond`` holds. ``name`` says the rule in
        a few words (the report and the dead-rule checker call the branch so; without
        it, by its condition)."""
        where = caller_location()
        if name is not None and not (isinstance(name, str) and name.strip()):
            raise SpecError(f"a when's name is a non-empty string, got {name!r}",
                            element=self._element, where=where)
        c = lift(cond)
        if c.type != BOOL:
            raise SpecError(f"when() needs a bool, got {c.type}", element=self._element,
                            where=where)
        self._blocks.append([])
        try:
            yield
        finally:
            body = self._blocks.pop()
        self._blocks[-1].append(If(c, tuple(body), (), where, source, name))

    @contextlib.contextmanager
    def otherwise(self) -> Iterator[None]:
        """Effects for when the immediately preceding ``when`` did not hold."""
        where = caller_location()
        block = self._blocks[-1]
        if not block or not isinstance(block[-1], If) or block[-1].otherwise:
            raise SpecError("otherwise() must follow a when() block", element=self._element,
                            where=where)
        self._blocks.append([])
        try:
            yield
        finally:
            body = self._blocks.pop()
        last = block[-1]
        block[-1] = If(last.cond, last.then, tuple(body), last.where, last.source, last.name)

    @contextlib.contextmanager
    def for_each(self, dom: Any, *, source: str | None = None,
                 name: str | None = None) -> Iterator[Expr]:
        """Repeat the block for each value of a finite domain (yields the loop variable,
        which the report calls by the name after ``as``, or ``name``)."""
        where = caller_location()
        d = domain_of(dom)
        var = bound_var(d, name or with_target())
        self._blocks.append([])
        try:
            yield var
        finally:
            body = self._blocks.pop()
        self._blocks[-1].append(ForEach(var, d, tuple(body), where, source))

    def set_weight(self, weight: Any) -> None:
        """For a chance outcome: its relative weight (default 1)."""
        w = lift(weight)
        if w.type != INT:
            raise SpecError(f"a chance weight must be an int, got {w.type}", element=self._element)
        self.weight = w


class Game:
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
              visible: Any = "all") -> Any:
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
            if kind.step != 1 or len(kind) == 0:
                raise SpecError(f"int fields need a non-empty range with step 1, got {kind}",
                                element=element, where=where)
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
        init = default if initial is None else _initial_value(initial, typ, lo, hi, element, where)
        seen, observer = self._visibility(visible, tuple(dims), element, where)
        f = Field(name, typ, lo, hi, tuple(dims), init, source, where, doc, flow, seen,
                  observer, tags_of(initial) or None)
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

    def constant(self, name: str, value: int, *, source: str) -> Any:
        """A number printed in the rules. Returns the number carrying its name
        (:class:`~rulespec.ir.nodes.Named`): plain Python arithmetic on it gives ints (sizes,
        ranges), and a rule that uses it records where the literal comes from, so
        ``rulespec mutate`` can change it by one wherever the rules use it."""
        where = caller_location()
        self._claim("constant", name, where)
        self._need_source("constant", name, source, where)
        self.constants.append(Constant(name, value, source, where))
        if isinstance(value, int) and not isinstance(value, bool):
            return Named(value, name)
        return lift(value)

    def assume(self, name: str, value: Any, *, reason: str, origin: str | None = None,
               shown: Any = None) -> Any:
        """A value the sources do not give: say why this one, and where it comes from.

        Returns the value with every int and string in it tagged by the assumption (and
        the entry of it: a dict's key, a list's index), so that the rules built from it
        carry where they come from (:mod:`rulespec.ir.assumed`); a bool comes back as a
        constant expression. Use the returned value in the rules, not a copy of it; a
        value computed from it in a way Python does not trace (``len``, a comparison, a
        string method) is labelled with :func:`~rulespec.ir.assumed.derived`. ``shown``:
        what ``rulespec info`` and the report show instead of ``value`` (a card's effects
        in words rather than the tuple the rules read)."""
        where = caller_location()
        self._claim("assumption", name, where)
        if not reason.strip():
            raise SpecError("an assumption needs a reason", element=f"assumption {name}",
                            where=where)
        entries = (tuple(map(str, value)) if isinstance(value, dict) else
                   tuple(map(str, range(len(value)))) if isinstance(value, (list, tuple))
                   else None)
        self.assumptions.append(Assumption(name, value if shown is None else shown, reason,
                                           origin, where, entries))
        if isinstance(value, bool):  # a bool cannot carry the tag: a tagged constant does
            return with_tags(lift(value), [Assumed(name)])
        return tag(value, name)

    def components(self, name: str, schema: type, *, file: str = "components.toml",
                   members: Any = None) -> dict[str, Any]:
        """The catalogue ``[name]`` of the game folder's data file, each entry read through
        the attrs class ``schema``: ``{entry: record}`` in the file's order, tagged like an
        assumption's entries, with each entry's provenance registered for ``info`` and the
        report. ``members``: an enum (or names) the entries must be exactly. See
        :mod:`rulespec.spec.components` and docs/formats/components.md."""
        from .components import declare
        return declare(self, name, schema, file=file, members=members)

    def interpretation(self, name: str, *, question: str, options: dict[str, Any],
                       default: str, source: str, english: str | None = None,
                       default_reason: str | None = None) -> Interpretation:
        """Declare a point where the text allows more than one reading.

        ``options`` maps each option to its source, or to ``option(source, english=...)``
        to store an English rendering of a quoted passage next to it; ``english`` does
        the same for ``source``; ``default_reason`` says why the default is the default.
        """
        where = caller_location()
        self._claim("interpretation", name, where)
        self._need_source("interpretation", name, source, where)
        if len(options) < 2:
            raise SpecError("an interpretation point needs at least two options",
                            element=f"interpretation {name}", where=where)
        if default not in options:
            raise SpecError(f"default {default!r} is not one of the options {list(options)}",
                            element=f"interpretation {name}", where=where)
        sources = {k: v.source if isinstance(v, Option) else v for k, v in options.items()}
        english_of = {k: v.english for k, v in options.items()
                      if isinstance(v, Option) and v.english}
        for opt, src in sources.items():
            self._need_source("interpretation option", f"{name}={opt}", src, where)
        e = Enum(f"{name}_option", list(options), source=source, where=where)
        point = Interpretation(name, question, sources, default, source, where, e,  # type: ignore[arg-type]
                               None, english, english_of, default_reason)
        node = Expr("interp", (point,), e.type)
        object.__setattr__(point, "node", node)
        self.interpretations.append(point)
        return point

    def ruleset(self, name: str, *, options: dict[str, str], source: str,
                doc: str = "") -> Ruleset:
        """A named bundle of interpretation options (an edition, an online version) with
        its source; points it does not name keep their default. Declare the points first."""
        where = caller_location()
        self._claim("ruleset", name, where)
        self._need_source("ruleset", name, source, where)
        element = f"ruleset {name}"
        if not isinstance(options, dict) or not options:
            raise SpecError("a ruleset needs options {point: option} (at least one)",
                            element=element, where=where)
        points = {p.name: p for p in self.interpretations}
        for k, v in options.items():
            if k not in points:
                known = ", ".join(points) or "none declared yet"
                raise SpecError(f"no interpretation point {k!r} (points: {known})",
                                element=element, where=where)
            if v not in points[k].options:
                raise SpecError(f"point {k} has no option {v!r} (options: "
                                f"{', '.join(points[k].options)})", element=element, where=where)
        rs = Ruleset(name, dict(options), source, where, doc)
        self.rulesets.append(rs)
        return rs

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
               doc: str = "") -> Callable[[Callable], Callable]:
        """Decorate ``def verb(rule, **params)``: a player's move with guards and effects."""
        return self._rule(name, source, params or {}, text, doc, chance=False)

    def chance(self, name: str | None = None, *, source: str,
               params: dict[str, Any] | None = None, text: str | None = None,
               doc: str = "") -> Callable[[Callable], Callable]:
        """Decorate ``def outcome(rule, **params)``: a random event's outcomes at chance nodes.

        ``rule.require`` limits which outcomes are possible; ``rule.set_weight`` gives each
        a relative weight (default 1: uniform).
        """
        return self._rule(name, source, params or {}, text, doc, chance=True)

    def _rule(self, name: str | None, source: str, params: dict[str, Any], text: str | None,
              doc: str, chance: bool) -> Callable[[Callable], Callable]:
        where = caller_location()

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
                                       doc or (fn.__doc__ or "").strip(), frozenset(rb.rests)))
            return fn
        return deco

    def current_player(self, expr: Any, *, source: str) -> None:
        """Whose turn it is (an int expression), when the state is not a chance node."""
        self._current_player = self._flow_rule("current_player", expr, INT, source)

    def chance_node(self, expr: Any, *, source: str) -> None:
        """When the next step is a random event rather than a player's choice."""
        self._chance_node = self._flow_rule("chance_node", expr, BOOL, source)

    def terminal(self, expr: Any, *, source: str) -> None:
        """When the game is over."""
        self._terminal = self._flow_rule("terminal", expr, BOOL, source)

    def _flow_rule(self, what: str, expr: Any, want: Type, source: str) -> Rule:
        where = caller_location()
        self._need_source("rule", what, source, where)
        e = lift(expr)
        if e.type != want:
            raise SpecError(f"must be {want}, got {e.type}", element=f"rule {what}", where=where)
        return Rule(e, source, where)

    def score(self, fn: Callable[[Expr], Any], *, source: str) -> None:
        """Each player's score: ``fn(p)`` for the player variable ``p``."""
        where = caller_location()
        self._need_source("rule", "score", source, where)
        var = Expr("var", ("p", self.players()), INT, None, None, bound_name(fn) or "p")
        with _in_element("rule score"):
            e = lift(fn(var))
        if e.type != INT:
            raise SpecError(f"a score must be an int, got {e.type}", element="rule score",
                            where=where)
        self._scoring = Scoring(var, e, source, where)

    def tie_break(self, fn: Callable[[Expr], Any], *, source: str,
                  lower_wins: bool = False) -> None:
        """Among players tied on score, compare ``fn(p)``; applied in declaration order."""
        where = caller_location()
        self._need_source("rule", "tie_break", source, where)
        var = Expr("var", ("p", self.players()), INT, None, None, bound_name(fn) or "p")
        e = lift(fn(var))
        if e.type != INT:
            raise SpecError(f"a tie-break key must be an int, got {e.type}",
                            element="rule tie_break", where=where)
        self.tie_breaks.append(TieBreak(var, e, lower_wins, source, where))

    def shared_ties(self, *, source: str) -> None:
        """Players still tied after every tie-break share the victory."""
        where = caller_location()
        self._need_source("rule", "shared_ties", source, where)
        self._shared_ties = Rule(const(True), source, where)

    def invariant(self, name: str, cond: Any, *, source: str, doc: str = "") -> None:
        """Something true in every reachable state."""
        where = caller_location()
        self._claim("invariant", name, where)
        self._need_source("invariant", name, source, where)
        c = lift(cond)
        if c.type != BOOL:
            raise SpecError(f"an invariant must be a bool, got {c.type}",
                            element=f"invariant {name}", where=where)
        _not_constant(c, "an invariant", f"invariant {name}", where)
        self.invariants.append(Invariant(name, c, source, where, doc))

    def law(self, name: str, cond: Any, *, source: str, doc: str = "") -> None:
        """Something true in every state within the declared bounds, reachable or not.

        Use it for pure rules over all inputs: a prize table against every possible set of
        totals, a tie-break against every possible score line.
        """
        where = caller_location()
        self._claim("law", name, where)
        self._need_source("law", name, source, where)
        c = lift(cond)
        if c.type != BOOL:
            raise SpecError(f"a law must be a bool, got {c.type}", element=f"law {name}",
                            where=where)
        _not_constant(c, "a law", f"law {name}", where)
        self.invariants.append(Invariant(name, c, source, where, doc, law=True))

    def conservation(self, name: str, total: Any, *, source: str, doc: str = "") -> None:
        """A total (e.g. supply + board + players) that stays at its initial value."""
        where = caller_location()
        self._claim("conservation", name, where)
        self._need_source("conservation", name, source, where)
        t = lift(total)
        if t.type != INT:
            raise SpecError(f"a conserved total must be an int, got {t.type}",
                            element=f"conservation {name}", where=where)
        self.conservations.append(Conservation(name, t, source, where, doc))

    def max_steps(self, n: int, *, source: str, bmc_depth: int | None = None) -> None:
        """Every game ends within ``n`` steps (chance steps included).

        ``bmc_depth`` is how many steps bounded model checking explores by default
        (default: ``n``, at most 9).
        """
        where = caller_location()
        self._need_source("rule", "max_steps", source, where)
        if not isinstance(n, int) or n <= 0:
            raise SpecError("max_steps must be a positive int", element="rule max_steps",
                            where=where)
        self._max_steps = (n, source)
        self._bmc_depth = bmc_depth if bmc_depth is not None else min(n, 9)

    def horizon(self, n: int, *, reason: str, bmc_depth: int | None = None) -> None:
        """For a game whose rules do not bound its length: play and check stop a game at
        ``n`` steps and report it *truncated* (no winner, not a termination failure); the
        termination property is SKIPPED with ``reason``. Use instead of :meth:`max_steps`.
        """
        where = caller_location()
        if not isinstance(n, int) or isinstance(n, bool) or n <= 0 or not reason.strip():
            raise SpecError("horizon needs a positive int and a reason (why the rules do not "
                            "bound the game)", element="rule horizon", where=where)
        self._horizon = (n, reason)
        self._bmc_depth = bmc_depth if bmc_depth is not None else min(n, 9)

    def waive(self, property_name: str, *, reason: str) -> None:
        """Opt out of a generic property: it is reported SKIPPED, with ``reason``."""
        where = caller_location()
        if not property_name.isidentifier() or not reason.strip():
            raise SpecError("waive needs a property name and a reason",
                            element=f"waiver {property_name}", where=where)
        self._waivers[property_name] = reason

    def left_to_play(self, property_name: str, *, reason: str) -> None:
        """Leave an invariant or a conservation law to play: ``rulespec prove`` does not
        try it (it is reported SKIPPED, with ``reason``) and no proof assumes it; ``rulespec
        check`` and the scenarios still test it. For a property whose step proofs are
        beyond the solver (large geometry), so that the rest of the proof finishes."""
        where = caller_location()
        if not property_name.isidentifier() or not reason.strip():
            raise SpecError("left_to_play needs a property name and a reason",
                            element=f"left to play {property_name}", where=where)
        self._left_to_play[property_name] = reason

    def check_examples(self, n: int, *, reason: str) -> None:
        """The default number of Hypothesis examples for ``rulespec check`` (100 if unset):
        long games afford fewer per minute. Say why."""
        where = caller_location()
        if not isinstance(n, int) or n <= 0 or not reason.strip():
            raise SpecError("check_examples needs a positive int and a reason",
                            element="rule check_examples", where=where)
        self._check_examples = n

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


@contextlib.contextmanager
def _in_element(element: str) -> Iterator[None]:
    """Name the element being built in any SpecError raised without one."""
    try:
        yield
    except SpecError as err:
        if err.element is None:
            raise SpecError(err.problem, element=element, where=err.where) from None
        raise


def _not_constant(cond: Expr, what: str, element: str, where: Location | None) -> None:
    """An invariant or law written as a constant (``True``) states nothing about the game
    (and ``False`` can never hold): almost surely a slip, e.g. a Python comparison that was
    evaluated at load instead of built as an expression."""
    if cond.op == "const":
        raise SpecError(f"{what} must be a condition on the state, not the constant "
                        f"{cond.args[0]!r}", element=element, where=where)


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
        if not isinstance(initial, int) or initial < lo or (hi is not None and initial > hi):
            raise SpecError(f"initial value {initial!r} is outside {int_span(lo, hi)}",
                            element=element, where=where)
        return int(initial)  # a tagged int (ir.assumed): the field keeps its tags apart
    raise SpecError(f"initial value of an enum field must be a member, got {initial!r}",
                    element=element, where=where)

