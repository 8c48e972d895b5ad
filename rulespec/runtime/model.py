"""The Model API: play a compiled spec. States are immutable; ``apply`` returns a new one."""

from __future__ import annotations

import itertools
import weakref
import json
import random
from typing import Any, Callable, Iterable, Mapping

import attrs

from ..compile.python_backend import CHANCE, TERMINAL, CompiledGame, compile_python
from ..ir.location import Location
from ..spec.elements import GameSpec
from .codec import FieldCodec


@attrs.frozen
class Reason:
    """One rule that forbids an action: what it says and where it comes from. For a
    precondition (``requires``), ``fact`` is what the state holds instead: the cells the
    rule reads, ``board[0][0] is x``.

    >>> str(Reason("the cell is empty", "rules: 2", requires=True, fact="board[0][0] is x"))
    'requires: the cell is empty — but board[0][0] is x [rules: 2]'
    >>> str(Reason("the game is over", "rules: 5"))
    'the game is over [rules: 5]'
    """

    text: str
    source: str | None
    where: Location | None = attrs.field(default=None, eq=False)
    requires: bool = attrs.field(default=False, eq=False, kw_only=True)
    fact: str | None = attrs.field(default=None, eq=False, kw_only=True)

    def __str__(self) -> str:
        said = f"requires: {self.text}" if self.requires else self.text
        if self.fact:
            said += f" — but {self.fact}"
        return f"{said} [{self.source}]" if self.source else said


class IllegalAction(Exception):
    """An action was refused. ``reasons`` lists every failed precondition with its source,
    and the message says each requirement and the fact that broke it:
    ``refused: mark(0,0) requires: the cell is empty — but board[0][0] is x [source]``."""

    def __init__(self, action: str, reasons: list[Reason]) -> None:
        self.action = action
        self.reasons = reasons
        super().__init__(refusal(action, reasons))


def refusal(action: str, reasons: list[Reason]) -> str:
    """One line: the refused action, each requirement and what broke it."""
    if not reasons:
        return f"refused: {action}: not a legal action here"
    said = "; ".join(str(r) for r in reasons)
    return f"refused: {action} {said}" if reasons[0].requires else f"refused: {action}: {said}"


class Action:
    """A concrete action: which rule and its parameter values. Compares by value.

    ``owner`` is the spec whose model made it (``legal_actions``, ``action_from_str``), so
    that ``apply`` can refuse another game's action with a clear error. ``text`` may be a
    function of the key, called the first time the text is needed (a model makes many
    actions that nobody prints).
    """

    __slots__ = ("key", "_text", "owner")

    def __init__(self, key: tuple, text: str | Callable[[tuple], str],
                 owner: GameSpec | None = None) -> None:
        self.key = key
        self._text = text
        self.owner = owner

    def __str__(self) -> str:
        text = self._text
        if not isinstance(text, str):
            text = self._text = text(self.key)
        return text

    def __repr__(self) -> str:
        return f"Action({str(self)!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Action) and self.key == other.key

    def __hash__(self) -> int:
        return hash(self.key)


class State:
    """An immutable game state: a flat tuple of cell values plus the model that reads it."""

    __slots__ = ("values", "model")

    def __init__(self, values: tuple, model: "Model") -> None:
        _SET_VALUES(self, values)
        _SET_MODEL(self, model)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"a State is immutable (cannot set {name!r}); "
                             "apply an action to get a new one")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"a State is immutable (cannot delete {name!r})")

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, State) and self.model.key == other.model.key
                and self.values == other.values)

    def __hash__(self) -> int:
        return hash(self.values)

    def __getitem__(self, field: str) -> Any:
        """A field's value (nested lists for arrays; enum members by name)."""
        return self.model._field_value(self.values, field)

    def to_dict(self) -> dict[str, Any]:
        return self.model._to_dict(self.values)

    def to_json(self) -> str:
        """Lossless JSON; ``Model.state_from_json`` reads it back."""
        return json.dumps(self.to_dict(), sort_keys=False)

    def __repr__(self) -> str:
        return f"State({self.model.name}, {self.values!r})"

    def __str__(self) -> str:
        """The board as text, drawn from the spec's view (``print(state)``)."""
        return self.model.board_text(self)

    def _repr_svg_(self) -> str:
        """The picture a notebook shows: the state drawn from the spec's view."""
        return self.model.svg(self)

    def _repr_html_(self) -> str:
        """The picture inline, with the board as text folded under it (notebooks)."""
        return self.model.html(self)


# the slots' own setters: State.__setattr__ refuses every write after construction
_SET_VALUES = State.__dict__["values"].__set__
_SET_MODEL = State.__dict__["model"].__set__


class Model:
    """A game, compiled and ready to play (see the README for the API tour)."""

    def __init__(self, spec: GameSpec, interpretation: Mapping[str, str] | None = None,
                 compiled: CompiledGame | None = None) -> None:
        """``compiled``: the spec's functions under this interpretation, already generated
        (``rulespec mutate`` reuses the unchanged ones of the spec it mutates); by default
        they are generated here."""
        self.spec = spec
        self.interpretation = resolve_interpretation(spec, interpretation)
        self.compiled: CompiledGame = (compiled if compiled is not None
                                       else compile_python(spec, self.interpretation))
        self.layout = self.compiled.layout
        self.key = (spec.name, tuple(sorted(self.interpretation.items())))
        self._actions = _ActionCache(self)
        self._action_of = self._actions.__getitem__
        self._legal = self.compiled.legal
        self._terminal = self.compiled.terminal
        self._steps = dict(enumerate(self.compiled.step))  # a dict: key[0] = -1 is refused
        self._codecs = {name: FieldCodec(slot) for name, slot in self.layout.slots.items()}
        self._all_actions: _AllActions | None = None
        self._observe: Any = None  # compiled on first use (compile/observation.py)
        self._drawers: dict[str, Any] = {}  # the view compiled on first use (rulespec/draw/)

    # --- identity -----------------------------------------------------------------------
    @property
    def name(self) -> str:
        return self.spec.name

    @property
    def min_players(self) -> int:
        return self.spec.min_players

    @property
    def max_players(self) -> int:
        return self.spec.max_players

    # --- the API ------------------------------------------------------------------------
    def initial_state(self, players: int | None = None) -> State:
        """The state after setup (before any chance or player step)."""
        n = self.spec.min_players if players is None else players
        if type(n) is not int or not self.spec.min_players <= n <= self.spec.max_players:
            raise ValueError(f"{self.name} is for {self.spec.min_players}-"
                             f"{self.spec.max_players} players, not {players!r}")
        return State(self.compiled.initial(n), self)

    def current_player(self, state: State) -> int:
        """The player to move, :data:`CHANCE` at a chance node, :data:`TERMINAL` at the end."""
        if state.__class__ is not State or state.model is not self:
            self._own(state)
        return self.compiled.current_player(state.values)

    def legal_actions(self, state: State) -> list[Action]:
        """The legal actions (at a chance node: the possible outcomes), in a stable order."""
        if state.__class__ is not State or state.model is not self:
            self._own(state)
        return list(map(self._action_of, self._legal(state.values)))

    def chance_outcomes(self, state: State) -> list[tuple[Action, float]]:
        """``[(outcome, probability)]`` at a chance node; empty elsewhere."""
        if state.__class__ is not State or state.model is not self:
            self._own(state)
        ws = [(k, w) for k, w in self.compiled.chance_weights(state.values) if w > 0]
        total = sum(w for _, w in ws)
        actions = self._actions
        # int / int is correctly rounded: the float nearest the exact ratio w/total
        return [(actions[k], w / total) for k, w in ws]

    def random_action(self, state: State, rng: random.Random) -> Action | None:
        """A legal action drawn with ``rng``, or None when no action is legal.

        At a player's turn every legal action has the same probability: the result is
        ``legal_actions(state)[rng.randrange(n)]``, found without making the list of
        actions. At a chance node an outcome is drawn by its probability, as ``rulespec
        play`` draws it (``rng.choices`` over ``chance_outcomes``). Either way ``rng`` is
        used exactly as those draws use it, so a seed plays the same game both ways."""
        if state.__class__ is not State or state.model is not self:
            self._own(state)
        values = state.values
        if self.compiled.current_player(values) == CHANCE:
            ws = [(k, w) for k, w in self.compiled.chance_weights(values) if w > 0]
            if not ws:
                return None
            total = sum(w for _, w in ws)
            pick = rng.choices(range(len(ws)), [w / total for _, w in ws])[0]
            return self._actions[ws[pick][0]]
        keys = self._legal(values)
        if not keys:
            return None
        return self._actions[keys[rng.randrange(len(keys))]]

    def apply(self, state: State, action: Action) -> State:
        """The state after ``action``. Raises :class:`IllegalAction` naming every failed rule,
        ``TypeError`` for something that is not a State or an Action, ``ValueError`` for
        another game's state or action."""
        try:  # misuse is caught by two identity checks; the slow path explains it
            if state.model is not self or action.owner is not self.spec:
                self._own(state, action)
        except AttributeError:
            self._own(state, action)
        key = action.key
        try:  # one generated check and the effects; None when the action may not be taken
            new = self._steps[key[0]](state.values, key)
        except Exception:  # noqa: BLE001 - let why_illegal explain it
            new = None
        if new is None:
            reasons = self.why_illegal(state, action)
            if reasons:
                raise IllegalAction(str(action), reasons)
            new = self.compiled.apply[key[0]](state.values, *key[1:])
        return State(new, self)

    def _quick_legal(self, values: tuple, key: tuple) -> bool:
        """True when ``key`` may be taken at ``values`` (False: ask ``why_illegal``)."""
        try:
            return self._steps[key[0]](values, key) is not None
        except Exception:  # noqa: BLE001 - let why_illegal explain it
            return False

    def is_terminal(self, state: State) -> bool:
        if state.__class__ is not State or state.model is not self:
            self._own(state)
        return self._terminal(state.values)  # the generated terminal() returns a bool

    def scores(self, state: State) -> list[int]:
        """Each player's score as the scoring rule computes it now."""
        if state.__class__ is not State or state.model is not self:
            self._own(state)
        return list(self.compiled.scores(state.values))

    def winners(self, state: State) -> list[int]:
        """The winners after every tie-break (several if the tie is shared or unresolved).

        Nobody has won before the game is over: for a state that is not terminal this is
        ``[]`` (``scores`` gives the standing).
        """
        if not self.is_terminal(state):
            return []
        return self._ranked(state.values)[0]

    def unresolved_tie(self, state: State) -> bool:
        """True when tie-breaks leave several winners and the rules do not say they share."""
        best = self._ranked(self._own(state).values)[0]
        return len(best) > 1 and self.spec.shared_ties is None

    def observation(self, state: State, player: int) -> dict[str, Any]:
        """What ``player`` sees: every field by name (as ``state.to_json`` writes it), with
        each cell the spec hides from them (``visible=``) as None."""
        if not 0 <= player < state.values[0]:
            raise ValueError(f"no player {player} in a {state.values[0]}-player game")
        seen = self.observation_key(state, player)
        out: dict[str, Any] = {}
        for name, c in self._codecs.items():
            cells = seen[c.offset:c.offset + c.size]
            flat: list[Any] = [None if v is None else c.names[v] if c.kind == "enum"
                               else bool(v) if c.kind == "bool" else v for v in cells]
            for d in reversed(c.dims[1:]):
                flat = [flat[i:i + d] for i in range(0, len(flat), d)]
            out[name] = flat if c.dims else flat[0]
        return out

    def observation_key(self, state: State, player: int) -> tuple:
        """The observation as a flat tuple (hidden cells None): equal for two states exactly
        when ``player`` cannot tell them apart."""
        if self._observe is None:
            from ..compile.observation import compile_observation
            self._observe = compile_observation(self.spec, self.interpretation)
        return self._observe(state.values, player)

    def action_from_str(self, state: State, text: str) -> Action:
        """The action whose text is ``text`` (legal or not; ``apply`` says why not)."""
        if not isinstance(text, str):
            raise TypeError(f"action_from_str needs the action's text, got "
                            f"{type(text).__name__}")
        for a in self.legal_actions(state):
            if str(a) == text:
                return a
        found = self._every_action().get(text.strip())
        if found is None:
            shown = repr(text) if len(text) <= 80 else f"{text[:80]!r}... ({len(text)} characters)"
            raise ValueError(f"no action of {self.name} reads {shown}")
        return found

    def state_from_json(self, text: str | Mapping[str, Any], where: str = "state") -> State:
        """Read a state written by ``State.to_json`` (its JSON text or its value). Raises
        :class:`~rulespec.formats.state.StateError` (a ValueError) naming ``where``, the
        line for a JSON text, and the problem: the document's shape is checked by the
        formats layer, each field's value here, against this game."""
        from ..formats.state import parse_state, state_error
        doc, src = parse_state(text, where)
        if doc.game != self.name:
            raise state_error(where, src, f"not a {self.name} state (game is {doc.game!r})",
                              "game")
        values: list[Any] = []
        for name, codec in self._codecs.items():
            if name not in doc.fields:
                raise state_error(where, src, f"state is missing field {name!r}", "fields")
            try:
                values.extend(codec.decode(doc.fields[name]))
            except ValueError as err:
                raise state_error(where, src, str(err), "fields", name) from None
        unknown = set(doc.fields) - set(self.layout.slots)
        if unknown:
            raise state_error(where, src, f"unknown field(s) {sorted(unknown)}", "fields",
                              sorted(unknown)[0])
        return State(tuple(values), self)

    # --- checks used by the checker -----------------------------------------------------
    def _fact(self, i: int, j: int, values: tuple, params: tuple) -> str | None:
        """What precondition ``j`` of action ``i`` found instead (``board[0][0] is x``)."""
        facts = self.__dict__.get("_facts")
        if facts is None:
            from ..compile.reads import Facts
            interp = {p.name: p.enum.index_of(self.interpretation[p.name])
                      for p in self.spec.interpretations}
            facts = self.__dict__["_facts"] = Facts(self.spec, self.compiled.layout, interp)
        found = facts(i, j, values, tuple(params))
        return ", ".join(f"{text} is {value}" for text, value in found) or None

    def why_illegal(self, state: State, action: Action) -> list:
        """Every reason ``action`` may not be taken in ``state`` (empty if it is legal)."""
        self._own(state, action)
        key = action.key
        cp = self.current_player(state)
        if cp == TERMINAL:
            return [Reason("the game is over", self.spec.terminal.source)]
        idx = key[0]
        if not 0 <= idx < len(self.spec.actions):
            return [Reason("no such action", None)]
        spec_action = self.spec.actions[idx]
        if spec_action.chance != (cp == CHANCE):
            why = ("a chance outcome cannot be chosen by a player" if spec_action.chance
                   else "this is a chance node: only a random outcome can happen now")
            src = self.spec.chance_node.source if self.spec.chance_node else None
            return [Reason(why, src)]
        params = key[1:]
        reasons = []
        for p, v in zip(spec_action.params, params):
            hi = self._domain_hi(state, p.domain)
            if not p.domain.lo <= v < hi:
                reasons.append(Reason(f"{p.name} must be in {p.domain.lo}..{hi - 1}",
                                      spec_action.source))
        if reasons:
            return reasons
        for j, (pre, fn) in enumerate(zip(spec_action.preconditions,
                                          self.compiled.preconditions[idx])):
            try:
                ok = fn(state.values, *params)
            except Exception as err:  # a guard that cannot be evaluated is not satisfied
                ok = False
                text = f"{pre.text} (cannot be evaluated: {err})"
                reasons.append(Reason(text, pre.source, pre.where, requires=True))
                continue
            if not ok:
                reasons.append(Reason(pre.text, pre.source, pre.where, requires=True,
                                      fact=self._fact(idx, j, state.values, params)))
        if not reasons and spec_action.chance and action not in self.legal_actions(state):
            reasons.append(Reason("this outcome has no weight here", spec_action.source))
        return reasons

    def violated_invariants(self, state: State) -> list[str]:
        """Names of declared invariants false in ``state``."""
        return [inv.name for inv, fn in zip(self.spec.invariants, self.compiled.invariants)
                if not fn(state.values)]

    def conserved_totals(self, state: State) -> dict[str, int]:
        """The value of each declared conserved total in ``state``."""
        return {c.name: fn(state.values)
                for c, fn in zip(self.spec.conservation, self.compiled.conserved)}

    def out_of_bounds(self, state: State) -> list[str]:
        """Cells outside their field's declared bounds, as readable strings."""
        bad = []
        values = state.values
        for c in self._codecs.values():
            cells = values[c.offset:c.offset + c.size]
            if c.kind == "bool":
                if all(v is True or v is False or v == 0 or v == 1 for v in cells):
                    continue
            elif all(type(v) is int for v in cells) and c.within(min(cells), max(cells)):
                continue
            for k, v in enumerate(cells):
                ok = (v in (0, 1)) if c.kind == "bool" else (type(v) is int and c.within(v, v))
                if not ok:
                    at = f"{c.name}[{k}]" if c.dims else c.name
                    bad.append(f"{at} = {v!r} outside {c.span}")
        return bad

    # --- how a state looks (rulespec/draw/: the spec's view) ------------------------------
    def svg(self, state: State, caption: str | None = None) -> str:
        """``state`` drawn as one SVG document, from the spec's view (as in the report)."""
        from ..draw.svg import Picture
        return self._drawer("svg", Picture).svg(self._own(state), caption)

    def board_text(self, state: State) -> str:
        """``state`` as a text board, from the spec's view (what ``print(state)`` shows)."""
        from ..draw.text import Board
        return self._drawer("text", Board).text(self._own(state))

    def html(self, state: State) -> str:
        """``state`` as HTML: its picture, and the text board folded under it."""
        from html import escape
        return (f"<figure style='margin:0'>{self.svg(state)}<details><summary>as text"
                f"</summary><pre>{escape(self.board_text(state))}</pre></details></figure>")

    def _drawer(self, kind: str, make: Any) -> Any:
        if kind not in self._drawers:
            self._drawers[kind] = make(self)
        return self._drawers[kind]

    # --- helpers ------------------------------------------------------------------------
    def _own(self, state: Any, action: Any = None) -> State:
        """``state`` if it is a state of this game (and ``action`` an action of it); else a
        clear TypeError or ValueError. Off the hot paths: they check identity first."""
        if not isinstance(state, State):
            raise TypeError(f"{self.name}: expected a State (from initial_state or apply), got "
                            f"{type(state).__name__}")
        if state.model is not self and state.model.key != self.key:
            other = state.model
            whose = (f"game {other.name!r}" if other.name != self.name
                     else f"{other.name} under {dict(other.interpretation)}")
            raise ValueError(f"this state belongs to {whose}, not to {self.name}"
                             + ("" if other.name != self.name
                                else f" under {dict(self.interpretation)}"))
        if action is None:
            return state
        if not isinstance(action, Action):
            hint = " (use game.action_from_str(state, text))" if isinstance(action, str) else ""
            raise TypeError(f"{self.name}: expected an Action (from legal_actions or "
                            f"action_from_str), got {type(action).__name__}{hint}")
        owner = action.owner
        if owner is not None and owner is not self.spec and not _same_actions(owner, self.spec):
            raise ValueError(f"action {str(action)!r} belongs to game {owner.name!r}, "
                             f"not to {self.name}")
        key = action.key
        if not (isinstance(key, tuple) and key and type(key[0]) is int
                and 0 <= key[0] < len(self.spec.actions)
                and len(key) == 1 + len(self.spec.actions[key[0]].params)
                and all(type(v) is int for v in key[1:])):
            raise ValueError(f"{str(action)!r} is not an action of {self.name}")
        return state

    def _domain_hi(self, state: State, domain: Any) -> int:
        if domain.is_static():
            return domain.hi.args[0]
        return state.values[0]  # the only dynamic bound is the number of players

    def _ranked(self, values: tuple) -> tuple[list[int], list[int]]:
        scores = self.compiled.scores(values)
        top = max(scores)
        best = [p for p, s in enumerate(scores) if s == top]
        for tb, fn in zip(self.spec.tie_breaks, self.compiled.tie_keys):
            if len(best) <= 1:
                break
            keys = {p: fn(values, p) for p in best}
            pick = min(keys.values()) if tb.lower_wins else max(keys.values())
            best = [p for p in best if keys[p] == pick]
        return best, scores

    def _action(self, key: tuple) -> Action:
        return self._actions[key]

    def _text(self, key: tuple) -> str:
        spec_action = self.spec.actions[key[0]]
        shown = {}
        for p, v in zip(spec_action.params, key[1:]):
            shown[p.name] = p.domain.enum.name_of(v) if p.domain.enum is not None else v
        if spec_action.text is not None:
            return spec_action.text.format(**shown)
        if not shown:
            return spec_action.name
        return f"{spec_action.name}({', '.join(f'{k}={v}' for k, v in shown.items())})"

    def _every_action(self) -> dict[str, Action]:
        if self._all_actions is None:
            self._all_actions = _AllActions(self)
        return self._all_actions

    def _field_value(self, values: tuple, name: str) -> Any:
        codec = self._codecs.get(name)
        if codec is None:
            raise KeyError(f"{self.name} has no field {name!r}")
        return codec.encode(values)

    def _to_dict(self, values: tuple) -> dict[str, Any]:
        return {"game": self.name, "interpretation": dict(self.interpretation),
                "fields": {name: c.encode(values) for name, c in self._codecs.items()}}


# text -> key of every action a spec can name, legal or not: the same for every reading
# of the spec (texts and parameter domains are the spec's), so its readings share one
# (formatting Hawaii's action texts took about a second per reading); weak keys: a spec
# loaded later starts afresh
_TEXTS: "weakref.WeakKeyDictionary[GameSpec, dict[str, tuple]]" = weakref.WeakKeyDictionary()


class _AllActions:
    """``text -> Action`` of this model, over the spec's shared text map."""

    def __init__(self, model: "Model") -> None:
        self._model = model
        texts = _TEXTS.get(model.spec)
        if texts is None:
            texts = {}
            for i, a in enumerate(model.spec.actions):
                ranges = [range(p.domain.lo, p.domain.max_hi) for p in a.params]
                for combo in itertools.product(*ranges):
                    key = (i, *combo)
                    texts.setdefault(model._text(key), key)
            _TEXTS[model.spec] = texts
        self._texts = texts
        self._actions: list[Action] | None = None

    def values(self) -> list[Action]:
        """Every action, one per text, in the spec's order (made once per model)."""
        if self._actions is None:
            self._actions = [self._model._action(k) for k in self._texts.values()]
        return self._actions

    def get(self, text: str) -> Action | None:
        key = self._texts.get(text)
        return None if key is None else self._model._action(key)

    def __contains__(self, text: str) -> bool:
        return text in self._texts

    def __getitem__(self, text: str) -> Action:
        return self._model._action(self._texts[text])


class _ActionCache(dict):
    """key -> :class:`Action`, each made the first time it is asked for (its text later)."""

    def __init__(self, model: "Model") -> None:
        super().__init__()
        self._text = model._text
        self._spec = model.spec

    def __missing__(self, key: tuple) -> Action:
        a = self[key] = Action(key, self._text, self._spec)
        return a


def _same_actions(a: GameSpec, b: GameSpec) -> bool:
    """Two specs of one game (loaded twice) whose actions read the same."""
    return a.name == b.name and [(x.name, len(x.params)) for x in a.actions] == [
        (x.name, len(x.params)) for x in b.actions]


def resolve_interpretation(spec: GameSpec, given: Mapping[str, str] | str | None,
                           ruleset: str | None = None) -> dict[str, str]:
    """The option in force for every interpretation point (defaults filled in).

    ``ruleset`` names one of the spec's rulesets: its options replace the defaults, and
    ``given`` may then choose points the ruleset leaves open (choosing another option for a
    point it fixes is a conflict: ValueError).
    """
    chosen = {p.name: p.default for p in spec.interpretations}
    fixed: dict[str, str] = {}
    if ruleset is not None:
        try:
            fixed = dict(spec.ruleset(ruleset).options)
        except KeyError:
            known = ", ".join(r.name for r in spec.rulesets) or "none"
            raise ValueError(f"{spec.name} has no ruleset {ruleset!r} (rulesets: {known})"
                             ) from None
        chosen.update(fixed)
    if given is None:
        return chosen
    if isinstance(given, str):
        pairs = [g for g in given.split(",") if g.strip()]
        mapping: dict[str, str] = {}
        for pair in pairs:
            if "=" not in pair:
                raise ValueError(f"interpretation must read NAME=OPTION, got {pair!r}")
            k, v = pair.split("=", 1)
            k, v = k.strip(), v.strip()
            if k in mapping and mapping[k] != v:
                raise ValueError(f"interpretation {k} is given twice, as {mapping[k]!r} and "
                                 f"{v!r}: choose one")
            mapping[k] = v
        given = mapping
    if not isinstance(given, Mapping):
        raise TypeError(f"interpretation must be None, a mapping point -> option or a string "
                        f"'point=option,...', got {type(given).__name__}")
    for k, v in given.items():
        if k not in chosen:
            known = ", ".join(sorted(chosen)) or "none"
            raise ValueError(f"{spec.name} has no interpretation point {k!r} (known: {known})")
        options = spec.interpretation(k).options
        if v not in options:
            raise ValueError(f"interpretation {k} has no option {v!r} "
                             f"(options: {', '.join(options)})")
        if k in fixed and fixed[k] != v:
            raise ValueError(f"ruleset {ruleset} sets {k}={fixed[k]}, which conflicts with "
                             f"{k}={v}")
        chosen[k] = v
    return chosen


def iter_states(model: Model, state: State, actions: Iterable[Action]) -> Iterable[State]:
    """The states after each of ``actions`` in turn (each checked for legality)."""
    for a in actions:
        state = model.apply(state, a)
        yield state
