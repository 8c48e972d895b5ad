"""Every rulespec game as an OpenSpiel game: its bots, algorithms and tests play the spec.

>>> import rulespec.openspiel                                        # doctest: +SKIP
>>> game = rulespec.openspiel.load_game("tic_tac_toe")               # doctest: +SKIP
>>> state = game.new_initial_state(); state.apply_action(4)           # doctest: +SKIP

``load_game(GAME, interpretation=..., ruleset=..., players=N)`` compiles the spec and returns
a pyspiel game registered with ``pyspiel.register_game`` as ``rulespec_<name>`` (a spec
loaded from a path gets a suffix from its path), so ``pyspiel.load_game`` also finds it,
with the player count and each interpretation point as game parameters:
``pyspiel.load_game("rulespec_hawaii(players=3,beach_return=forbidden)")``.

* **Action ids.** OpenSpiel numbers actions ``0..N-1``. Each spec action is a block of ids:
  the block's offset plus its parameter values in mixed radix over each parameter's whole
  declared domain (first parameter most significant). Player actions and chance outcomes
  are numbered apart (OpenSpiel's ``num_distinct_actions`` and ``max_chance_outcomes``).
  The numbering depends only on the spec's actions and domains: the same ids in every
  process and under every interpretation.
* **Returns** are a win/loss utility from ``winners`` (after the tie-breaks): with ``n``
  players and ``k`` winners, a winner gets ``n/(n-1) * (1/k - 1/n)`` and everyone else
  ``-1/(n-1)``, so they sum to zero, a sole winner gets 1, and a two-player win, loss and
  draw are ``1, -1`` and ``0, 0`` as in OpenSpiel's own games. A game cut at the spec's
  horizon has no winner: every return is 0.
* **Information** is perfect unless a field is hidden from some player (``visible=``); then
  ``observation_string`` shows what the player sees (hidden cells ``null``) and
  ``information_state_string`` adds a digest of everything that player has seen and done
  since setup (perfect recall). Observation tensors hold each cell's value (and, for hidden
  information, a second block of 1/0: the cell is seen or not).
* **Length**: ``max_game_length`` is the spec's ``max_steps`` (or its horizon), an upper
  bound on the steps of a game, chance steps included.

pyspiel is an optional dependency (``pip install 'rulespec[openspiel]'``); it is imported on
first use. docs/ecosystem.md shows the wrapper, the MCTS policy built on it, ``rulespec
conform`` and the pytest plugin.
"""

from __future__ import annotations

import functools
import hashlib
import json
import math
import os
import random
import re
from bisect import bisect_right
from typing import Any, Mapping

import attrs

from .runtime.model import CHANCE, TERMINAL, Model, State
from .runtime.registry import load, origin

PREFIX = "rulespec_"


class OpenSpielMissing(ImportError):
    """OpenSpiel (the ``pyspiel`` module) is not installed."""


def pyspiel_module() -> Any:
    """The ``pyspiel`` module, or :class:`OpenSpielMissing` saying how to install it."""
    try:
        import pyspiel
    except ImportError as err:
        raise OpenSpielMissing("this needs OpenSpiel, an optional dependency: pip install "
                               "open-spiel (or rulespec[openspiel])") from err
    return pyspiel


# =====================================================================================
# Action ids: a stable numbering of the spec's action keys
# =====================================================================================
@attrs.frozen
class _Block:
    action: int                 # index of the spec action
    offset: int                 # its first id
    los: tuple[int, ...]        # each parameter's lowest value
    sizes: tuple[int, ...]      # each parameter's domain size


@attrs.frozen
class ActionIds:
    """Player actions and chance outcomes as OpenSpiel ids, and back.

    >>> import rulespec
    >>> ids = ActionIds.of(rulespec.load("tic_tac_toe"))
    >>> ids.players, ids.chance
    (9, 0)
    >>> ids.id_of((0, 1, 2)), ids.key_of(5, chance=False)
    (5, (0, 1, 2))
    """

    player_blocks: tuple[_Block, ...]
    chance_blocks: tuple[_Block, ...]
    players: int                # num_distinct_actions
    chance: int                 # max_chance_outcomes
    _by_action: dict[int, _Block] = attrs.field(eq=False, repr=False)

    @classmethod
    def of(cls, model: Model) -> "ActionIds":
        blocks: dict[bool, list[_Block]] = {False: [], True: []}
        sizes = {False: 0, True: 0}
        for i, a in enumerate(model.spec.actions):
            dims = tuple(p.domain.max_hi - p.domain.lo for p in a.params)
            blocks[a.chance].append(_Block(i, sizes[a.chance],
                                           tuple(p.domain.lo for p in a.params), dims))
            sizes[a.chance] += math.prod(dims)
        by_action = {b.action: b for b in (*blocks[False], *blocks[True])}
        return cls(tuple(blocks[False]), tuple(blocks[True]), sizes[False], sizes[True],
                   by_action)

    def id_of(self, key: tuple) -> int:
        """The id of an action key ``(action index, parameter values...)``."""
        block = self._by_action[key[0]]
        n = 0
        for v, lo, size in zip(key[1:], block.los, block.sizes):
            if not lo <= v < lo + size:
                raise ValueError(f"parameter value {v} outside its domain {lo}..{lo + size - 1}")
            n = n * size + (v - lo)
        return block.offset + n

    def key_of(self, action_id: int, *, chance: bool) -> tuple:
        """The action key of a player action id (or, with ``chance``, a chance outcome id)."""
        blocks = self.chance_blocks if chance else self.player_blocks
        total = self.chance if chance else self.players
        if not 0 <= action_id < total:
            kind = "chance outcome" if chance else "action"
            raise ValueError(f"no {kind} has id {action_id} (ids are 0..{total - 1})")
        block = blocks[bisect_right([b.offset for b in blocks], action_id) - 1]
        n = action_id - block.offset
        values = []
        for lo, size in zip(reversed(block.los), reversed(block.sizes)):
            n, r = divmod(n, size)
            values.append(lo + r)
        return (block.action, *reversed(values))


# =====================================================================================
# Returns
# =====================================================================================
def win_returns(players: int, winners: list[int]) -> list[float]:
    """The zero-sum win/loss utility (see the module docstring); all zero without winners.

    >>> win_returns(2, [0]), win_returns(2, [0, 1]), win_returns(3, [2])
    ([1.0, -1.0], [0.0, 0.0], [-0.5, -0.5, 1.0])
    """
    if not winners:
        return [0.0] * players
    if players == 1:
        return [1.0]
    share = players / (players - 1)
    return [share * ((1 / len(winners) if p in winners else 0.0) - 1 / players)
            for p in range(players)]


# =====================================================================================
# Snapshots: what an OpenSpiel state holds
# =====================================================================================
class _Snapshot:
    """One immutable game state with what OpenSpiel needs beside it.

    OpenSpiel clones a Python state by deep-copying its attributes and serializes it by
    pickling them: an immutable snapshot deep-copies as itself (cheap), and pickles as the
    model's name and the state's values (never the compiled model).

    With hidden information, a snapshot also links to the one before it and the action
    between: what each player has seen and done (``recall``) is worked out only when an
    information state is asked for, so bots that never ask (MCTS) do not pay for it.
    """

    __slots__ = ("model", "values", "steps", "parent", "action", "_recall", "_legal",
                 "_text")

    def __init__(self, model: Model, values: tuple, steps: int, parent: "_Snapshot | None",
                 action: int | None, recall: tuple | None = None) -> None:
        self.model = model
        self.values = values
        self.steps = steps
        self.parent = parent
        self.action = action
        self._recall = recall
        self._legal: list | None = None
        self._text: str | None = None

    @classmethod
    def start(cls, model: Model, values: tuple) -> "_Snapshot":
        return cls(model, values, 0, None, None)

    def after(self, values: tuple, action: int) -> "_Snapshot":
        keep = self.model.spec.hidden_information  # only recall needs the way here
        return _Snapshot(self.model, values, self.steps + 1, self if keep else None,
                         action if keep else None)

    def __deepcopy__(self, memo: dict) -> "_Snapshot":
        return self

    def __reduce__(self) -> tuple:
        recall = self.recall() if self.model.spec.hidden_information else None
        return (_restore, (*model_ref(self.model), self.values, self.steps, recall))

    def state(self) -> State:
        return State(self.values, self.model)

    def legal(self) -> list:
        if self._legal is None:
            self._legal = [] if self.over() else list(self.model.compiled.legal(self.values))
        return self._legal

    def over(self) -> bool:
        horizon = self.model.spec.horizon
        return bool(self.model.compiled.terminal(self.values)) or (
            horizon is not None and self.steps >= horizon)

    def text(self) -> str:
        if self._text is None:
            self._text = json.dumps(self.state().to_dict()["fields"], separators=(",", ":"),
                                    ensure_ascii=False)
        return self._text

    def recall(self) -> tuple:
        """Per player, a digest of every observation since setup and their own actions."""
        chain: list[_Snapshot] = []
        node: _Snapshot | None = self
        while node is not None and node._recall is None:
            chain.append(node)
            node = node.parent
        model = self.model
        for snap in reversed(chain):
            seen = [model.observation_key(snap.state(), p) for p in range(snap.values[0])]
            before = snap.parent
            if before is None or before._recall is None:  # the setup (or where we started)
                snap._recall = tuple(_digest("", k, None) for k in seen)
                continue
            mover = model.compiled.current_player(before.values)
            snap._recall = tuple(_digest(d, seen[p], snap.action if p == mover else None)
                                 for p, d in enumerate(before._recall))
        assert self._recall is not None
        return self._recall


def model_ref(model: Model) -> tuple[str, dict[str, str]]:
    """What :func:`rulespec.load` takes to load ``model`` again: (name or path, options)."""
    found = origin(model.spec)
    if found is None:
        raise ValueError(f"{model.name} was not loaded by name or path: OpenSpiel cannot "
                         "load it again (use rulespec.load)")
    return (found.bundled or str(found.path)), dict(model.interpretation)


def _restore(ref: str, interpretation: dict[str, str], values: tuple, steps: int,
             recall: tuple | None) -> _Snapshot:
    return _Snapshot(load(ref, interpretation), tuple(values), steps, None, None, recall)


def _digest(previous: str, seen: tuple, acted: int | None) -> str:
    text = f"{previous}|{seen!r}|{'' if acted is None else acted}"
    return hashlib.sha1(text.encode()).hexdigest()[:20]


# =====================================================================================
# The pyspiel game and state classes (built on first use: pyspiel is optional)
# =====================================================================================
_REGISTERED: dict[str, str] = {}   # short name -> the spec reference it loads


def load_game(game: str | os.PathLike, interpretation: Mapping[str, str] | str | None = None,
              ruleset: str | None = None, players: int | None = None) -> Any:
    """The game as a pyspiel game (see the module docstring).

    ``game`` is a bundled name or a spec path, ``interpretation`` and ``ruleset`` are what
    :func:`rulespec.load` takes, ``players`` defaults to the game's minimum. Raises
    :class:`OpenSpielMissing` without OpenSpiel, ``ValueError`` for a bad game, option or
    player count.
    """
    pyspiel = pyspiel_module()
    model = _load(os.fspath(game), interpretation, ruleset)
    n = model.min_players if players is None else players
    if type(n) is not int or not model.min_players <= n <= model.max_players:
        raise ValueError(f"{model.name} is for {model.min_players}-{model.max_players} "
                         f"players, not {players!r}")
    name = register(model)
    return pyspiel.load_game(name, {"players": n, **_params(model)})


def _params(model: Model) -> dict[str, Any]:
    return {p.name: _param(model.interpretation[p.name], p.options)
            for p in model.spec.interpretations}


def _load(ref: str, interpretation: Mapping[str, str] | str | None, ruleset: str | None
          ) -> Model:
    if ruleset is None:
        return load(ref, interpretation)
    return load(ref, interpretation, ruleset=ruleset)  # type: ignore[call-arg]


def short_name(model: Model) -> str:
    """The name the game is registered under in OpenSpiel."""
    ref, _ = model_ref(model)
    if ref == model.name:
        return PREFIX + model.name
    return f"{PREFIX}{model.name}_{hashlib.sha1(ref.encode()).hexdigest()[:8]}"


def register(model: Model) -> str:
    """Register ``model``'s game (every interpretation of its spec) with OpenSpiel, once;
    returns its short name."""
    pyspiel = pyspiel_module()
    name = short_name(model)
    if name in _REGISTERED:
        return name
    ref, _ = model_ref(model)
    spec = model.spec
    params: dict[str, Any] = {"players": spec.min_players}
    params.update({p.name: _param(p.default, p.options) for p in spec.interpretations})
    chance = any(a.chance for a in spec.actions)
    game_type = pyspiel.GameType(
        short_name=name,
        long_name=f"{spec.title} (rulespec)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=(pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC if chance
                     else pyspiel.GameType.ChanceMode.DETERMINISTIC),
        information=(pyspiel.GameType.Information.IMPERFECT_INFORMATION
                     if spec.hidden_information
                     else pyspiel.GameType.Information.PERFECT_INFORMATION),
        utility=(pyspiel.GameType.Utility.ZERO_SUM if spec.min_players > 1
                 else pyspiel.GameType.Utility.GENERAL_SUM),
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=spec.max_players,
        min_num_players=spec.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=params)
    # OpenSpiel keeps the creator until C++ exits, after Python has shut down: a class (as
    # OpenSpiel's own Python games register) outlives that; a closure would be freed then
    # and abort the process
    creator = type(f"{name}_game", (_classes().Game,), {"game_type": game_type, "ref": ref})
    pyspiel.register_game(game_type, creator)
    _REGISTERED[name] = ref
    return name


def _param(option: str, options: Any) -> Any:
    """An option as a game parameter. OpenSpiel's game-string parser reads ``3`` as an int
    and ``true`` as a bool, and refuses a parameter whose type differs from its default's:
    a point whose options all read as ints (or all as bools) is an int (bool) parameter.

    >>> _param("3", ["3", "4"]), _param("free", ["free", "forbidden"])
    (3, 'free')
    """
    if all(re.fullmatch(r"-?[0-9]+", o) for o in options):
        return int(option)
    if all(o in ("true", "false") for o in options):
        return option == "true"
    return option


def _option(value: Any) -> str:
    """A game parameter back to the option's text."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


@functools.cache
def _classes() -> Any:
    pyspiel = pyspiel_module()
    import numpy as np

    class RulespecGame(pyspiel.Game):  # type: ignore[misc,valid-type]
        """A rulespec model as a pyspiel game (built by :func:`load_game`)."""

        game_type: Any = None   # set per registered spec (see register)
        ref: str = ""

        def __init__(self, params: Mapping[str, Any] | None = None) -> None:
            ref = self.ref
            params = dict(params or {})
            spec_model = load(ref)
            points = {p.name for p in spec_model.spec.interpretations}
            unknown = sorted(set(params) - points - {"players"})
            if unknown:
                raise ValueError(f"{spec_model.name} has no game parameter "
                                 f"{', '.join(unknown)}")
            chosen = {k: _option(v) for k, v in params.items() if k in points}
            self.model = model = load(ref, chosen)
            n = int(params.get("players", model.min_players))
            if not model.min_players <= n <= model.max_players:
                raise ValueError(f"{model.name} is for {model.min_players}-"
                                 f"{model.max_players} players, not {n}")
            self.ids = ids = ActionIds.of(model)
            self.players = n
            bound = model.spec.max_steps if model.spec.horizon is None else model.spec.horizon
            low = -1.0 / (n - 1) if n > 1 else 0.0
            info = pyspiel.GameInfo(
                num_distinct_actions=max(ids.players, 1),
                max_chance_outcomes=ids.chance,
                num_players=n,
                min_utility=low,
                max_utility=1.0,
                utility_sum=0.0 if n > 1 else None,
                max_game_length=bound)
            super().__init__(self.game_type, info, {"players": n, **_params(model)})
            self._bound = bound

        def new_initial_state(self, state: Any = None) -> Any:
            """The setup, or a rulespec state (``State.to_json`` text or dict) to start from."""
            if state is None:
                values = self.model.compiled.initial(self.players)
                return RulespecState(self, _Snapshot.start(self.model, values))
            start = self.model.state_from_json(state)
            if start.values[0] != self.players:
                raise ValueError(f"that state has {start.values[0]} players, the game "
                                 f"{self.players}")
            return RulespecState(self, _Snapshot.start(self.model, start.values))

        def max_chance_nodes_in_history(self) -> int:
            return self._bound

        def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Any:
            if params:
                raise ValueError(f"observation parameters are not supported: {params}")
            recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
            public = bool(iig_obs_type is not None
                          and iig_obs_type.private_info == pyspiel.PrivateInfoType.NONE)
            return Observer(self.model, recall, public)

    class RulespecState(pyspiel.State):  # type: ignore[misc,valid-type]
        """A state of a rulespec game, held as an immutable snapshot."""

        def __init__(self, game: Any, snapshot: _Snapshot) -> None:
            super().__init__(game)
            self._s = snapshot

        @property
        def rulespec_state(self) -> State:
            """The rulespec state this OpenSpiel state holds."""
            return self._s.state()

        def current_player(self) -> int:
            s = self._s
            if s.over():
                return int(pyspiel.PlayerId.TERMINAL)
            p = s.model.compiled.current_player(s.values)
            if p == TERMINAL:
                return int(pyspiel.PlayerId.TERMINAL)
            return int(pyspiel.PlayerId.CHANCE) if p == CHANCE else p

        def _legal_actions(self, player: int) -> list[int]:
            ids = self.get_game().ids
            return sorted(ids.id_of(k) for k in self._s.legal())

        def chance_outcomes(self) -> list[tuple[int, float]]:
            s = self._s
            ids = self.get_game().ids
            return sorted((ids.id_of(a.key), p)
                          for a, p in s.model.chance_outcomes(s.state()))

        def _apply_action(self, action_id: int) -> None:
            s = self._s
            model = s.model
            chance = model.compiled.current_player(s.values) == CHANCE
            key = self.get_game().ids.key_of(int(action_id), chance=chance)
            if key not in s.legal():
                from .runtime.model import IllegalAction
                action = model._action(key)
                reasons = model.why_illegal(s.state(), action) if not s.over() else []
                raise IllegalAction(str(action), reasons)
            self._s = s.after(model.compiled.apply[key[0]](s.values, *key[1:]), int(action_id))

        def _action_to_string(self, player: int, action_id: int) -> str:
            s = self._s
            key = self.get_game().ids.key_of(int(action_id), chance=player == CHANCE)
            return str(s.model._action(key))

        def is_terminal(self) -> bool:
            return self._s.over()

        def returns(self) -> list[float]:
            s = self._s
            n = s.values[0]
            if not s.model.compiled.terminal(s.values):  # not over, or cut at the horizon
                return [0.0] * n
            return win_returns(n, s.model.winners(s.state()))

        def __str__(self) -> str:
            return self._s.text()

    class Observer:
        """What a player sees, as OpenSpiel's Python observer interface wants it."""

        def __init__(self, model: Model, recall: bool, public: bool) -> None:
            self.model = model
            self.recall = recall
            self.public = public
            self.hidden = model.spec.hidden_information
            size = model.layout.size
            self.tensor = np.zeros(size * (2 if self.hidden else 1), np.float32)
            self.dict = {"observation": self.tensor[:size]}
            if self.hidden:
                self.dict["seen"] = self.tensor[size:]

        def _seen(self, state: Any, player: int) -> tuple:
            s = state._s
            if not self.hidden:
                return s.values
            st = s.state()
            if not self.public:
                return self.model.observation_key(st, player)
            views = [self.model.observation_key(st, p) for p in range(s.values[0])]
            return tuple(None if any(v[i] is None for v in views) else views[0][i]
                         for i in range(len(views[0])))

        def set_from(self, state: Any, player: int) -> None:
            seen = self._seen(state, player)
            obs = self.dict["observation"]
            obs[:] = [0.0 if v is None else float(v) for v in seen]
            if self.hidden:
                self.dict["seen"][:] = [0.0 if v is None else 1.0 for v in seen]

        def string_from(self, state: Any, player: int) -> str:
            s = state._s
            if self.recall and not self.hidden:  # perfect information: the history is all
                return " ".join(map(str, state.history()))
            if not self.hidden:
                return s.text()
            seen = self.model.observation(s.state(), player) if not self.public else None
            if seen is None:
                seen = {"public": list(self._seen(state, player))}
            text = json.dumps(seen, separators=(",", ":"), ensure_ascii=False)
            if self.recall:
                text += f"\nrecall {s.recall()[player]}"
            return text

    from open_spiel.python.algorithms import mcts

    class LeafEvaluator(mcts.Evaluator):  # type: ignore[misc]
        """Values a leaf of the search tree with :func:`leaf_value` (played in C on the C
        backend: the same values, draw for draw); uniform priors."""

        def __init__(self, rollout: int | None, rng: random.Random,
                     backend: str | None = "python") -> None:
            self.rollout = rollout
            self.rng = rng
            self.backend = backend
            self.native: Any = None

        def evaluate(self, state: Any) -> Any:
            s = state._s
            if self.backend != "python":
                if self.native is None:
                    from .runtime.native import NativeLeaves
                    self.native = NativeLeaves.of(s.model, self.rng, self.backend) or False
                if self.native:
                    return np.array(self.native.value(s.model, s.values, s.steps,
                                                      self.rollout))
            return np.array(leaf_value(s.model, s.values, s.steps, self.rollout, self.rng))

        def prior(self, state: Any) -> list[tuple[int, float]]:
            if state.is_chance_node():
                return state.chance_outcomes()
            legal = state.legal_actions(state.current_player())
            return [(a, 1.0 / len(legal)) for a in legal]

    class Classes:
        Game = RulespecGame
        State = RulespecState
        evaluator = LeafEvaluator
    return Classes


def game_state(state: Any) -> State:
    """The rulespec state inside a pyspiel state of a rulespec game."""
    return state._s.state()


# =====================================================================================
# OpenSpiel's MCTS bot on a rulespec model
# =====================================================================================
_GAMES: dict[tuple, Any] = {}


def game_for(model: Model, players: int) -> Any:
    """The pyspiel game of ``model`` (under its interpretation) for ``players`` players."""
    key = (model.key, players)
    game = _GAMES.get(key)
    if game is None:
        pyspiel = pyspiel_module()
        game = pyspiel.load_game(register(model), {"players": players, **_params(model)})
        _GAMES[key] = game
    return game


def state_for(model: Model, state: State, steps: int = 0) -> Any:
    """``state`` as a pyspiel state of :func:`game_for` (``steps`` already played: what a
    horizon counts)."""
    game = game_for(model, state.values[0])
    if game.model is not model:
        state = game.model.state_from_json(state.to_dict())
    return _classes().State(game, _Snapshot(game.model, state.values, steps, None, None))


def mcts_choice(model: Model, state: State, *, simulations: int, rollout: int | None,
                uct_c: float, seed: int, backend: str | None = None) -> tuple:
    """The action key OpenSpiel's ``MCTSBot`` chooses in ``state`` (a player's turn) with
    ``simulations`` simulations, leaves valued by :class:`LeafEvaluator` (its rollouts
    played on ``backend``: the C backend by default)."""
    import numpy as np
    from open_spiel.python.algorithms import mcts
    game = game_for(model, state.values[0])
    evaluator = _classes().evaluator(rollout, random.Random(seed), backend)
    bot = mcts.MCTSBot(game, uct_c, simulations, evaluator, solve=True,
                       random_state=np.random.RandomState(seed % 2**32))
    action_id = bot.step(state_for(model, state))
    return game.ids.key_of(int(action_id), chance=False)


def leaf_value(model: Model, values: tuple, steps: int, rollout: int | None,
               rng: random.Random) -> list[float]:
    """A leaf's value for each player: play at random (chance by its weights) for at most
    ``rollout`` steps (None: to the end); a finished game is valued by who won, one cut at
    the horizon as 0, an unfinished one by who leads on the score, as if it ended there."""
    c = model.compiled
    horizon = model.spec.horizon
    n = values[0]
    played = 0
    while not c.terminal(values) and (horizon is None or steps < horizon) and (
            rollout is None or played < rollout):
        legal = c.legal(values)
        if not legal:
            break
        if c.current_player(values) == CHANCE:
            weights = dict(c.chance_weights(values))
            key = rng.choices(legal, [weights.get(k, 0) for k in legal])[0]
        else:
            key = legal[rng.randrange(len(legal))]
        values = c.apply[key[0]](values, *key[1:])
        steps += 1
        played += 1
    if c.terminal(values):
        return win_returns(n, model.winners(State(values, model)))
    if horizon is not None and steps >= horizon:
        return [0.0] * n
    scores = c.scores(values)
    top = max(scores)
    return win_returns(n, [p for p, v in enumerate(scores) if v == top])


__all__ = ["ActionIds", "OpenSpielMissing", "game_for", "game_state", "leaf_value",
           "load_game", "mcts_choice", "pyspiel_module", "register", "short_name",
           "state_for", "win_returns"]
