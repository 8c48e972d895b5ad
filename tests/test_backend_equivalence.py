"""Backend equivalence: the Z3 backend and the C backend evaluate every rule exactly as
the Python backend.

For states reached by random playouts of every bundled game (under every interpretation
option), and for every legal action there plus parameter values that are not legal, the Z3
encoding gives the same precondition values, successor cells, legality, terminal flag,
current player, scores, tie-break keys, invariants, conserved totals and chance weights as
the compiled Python functions -- and sets its error flag exactly where Python raises.

Two paths are held to the Python answers on every example:
* symbolic: the encoding is built once per game on a fresh symbolic state and symbolic
  parameters, then the concrete state is substituted and the term simplified, then each
  instance's parameters; this is what the prover and the interpretation diff use;
* concrete: the backend is called on Z3 literals, where it folds everything in Python.

The C backend (``rulespec/compile/native/``) is held to the same answers on the same kind
of states, through its raw functions (no fallback): values, types, and the cases where
the rules raise.

Playouts draw an index into the legal-action list at each step, so Hypothesis shrinks a
failure to a short game.
"""

from __future__ import annotations

import functools
import itertools
from typing import Any, Callable

import pytest
import z3
from hypothesis import given, settings
from hypothesis import strategies as st

import rulespec
from rulespec.compile import smt_terms as T
from rulespec.compile.native.game import RAISED
from rulespec.compile.native.module import rule_exprs
from rulespec.compile.smt_backend import Checked, SmtGame, compile_smt
from rulespec.ir.nodes import OPERATIONS
from rulespec.ir.statements import STATEMENTS
from rulespec.ir.walk import walk, walk_statements

#: at most this many in-domain parameter tuples are checked exhaustively at a state;
#: beyond it, a drawn sample of the illegal ones, and of the legal ones where there are
#: more than LEGAL_SAMPLE (Hex 11x11 opens with 121 legal moves, each one's successor over
#: a 121-node connectivity costing about a second in Z3: the draws vary which are checked)
EXHAUSTIVE = 64
ILLEGAL_SAMPLE = 8
LEGAL_SAMPLE = 24


#: fixture specs that exercise the language beyond the bundled games (the collections kit,
#: a horizon, hidden information, the constructs of issue 27: let_, rankings, phases, the
#: effect queue carried out by the spec's own actions)
FIXTURES = ["tests/fixtures/kit_market", "tests/fixtures/horizon_toy",
            "tests/fixtures/observation_leak", "tests/fixtures/lang_constructs"]


def _cases() -> list[tuple[str, tuple[tuple[str, str], ...]]]:
    """Every bundled game and fixture under its defaults, then under combined readings that
    between them take every non-default option of every point: the k-th combined reading
    takes each point's k-th other option (its first, for a point with fewer). Combining
    keeps the count of compiled games small (one Z3 compilation of a large game costs
    minutes) while every option's rules are still compiled and compared."""
    out = []
    for name in [*rulespec.available_games(), *FIXTURES]:
        out.append((name, ()))
        try:
            spec = rulespec.load_spec(name)
        except Exception:  # noqa: BLE001 - the game's own test then fails, naming the error
            continue
        others = [(p.name, [o for o in p.options if o != p.default])
                  for p in spec.interpretations]
        others = [(point, opts) for point, opts in others if opts]
        for k in range(max((len(opts) for _, opts in others), default=0)):
            out.append((name, tuple((point, opts[min(k, len(opts) - 1)])
                                    for point, opts in others)))
    return out


CASES = _cases()


def _case_id(case: tuple[str, tuple]) -> str:
    name, interp = case
    return name.rsplit("/", 1)[-1] + "".join(f"[{k}={v}]" for k, v in interp)


def _operations(spec: Any) -> set[str]:
    """Every IR operation a spec's rules, flow, scoring and properties use (the
    expressions the C module compiles: every backend compiles them)."""
    return {n.op for e in rule_exprs(spec) for n in walk(e)}


def test_the_cases_use_every_operation_of_the_ir():
    """Every IR operation -- tables, ordinals and connectivity included -- occurs in some
    game or fixture checked here, so the equivalence test covers all of them."""
    used: set[str] = set()
    for name, _ in CASES:
        used |= _operations(rulespec.load_spec(name))
    assert OPERATIONS - used == set()
    assert {"enum_table", "ordinal", "connected"} <= _operations(rulespec.load_spec("hex")) | \
        _operations(rulespec.load_spec("crazy_eights"))


def test_the_cases_use_every_kind_of_statement():
    """Every statement kind (each backend's statement table covers these) occurs in the
    setup or effects of some game or fixture checked here."""
    used: set[type] = set()
    for name, _ in CASES:
        spec = rulespec.load_spec(name)
        for stmts in [spec.setup, *(a.effects for a in spec.actions)]:
            used |= {type(st) for st in walk_statements(stmts)}
    assert STATEMENTS - used == set()


class Symbolic:
    """Every rule of one game, encoded once over a symbolic state and symbolic parameters."""

    def __init__(self, game: SmtGame) -> None:
        spec = game.spec
        self.game = game
        S = self.state = game.fresh_state("s")
        self.params = [game.params(i, prefix=f"a{i}") for i in range(len(spec.actions))]
        flow: dict[tuple, Checked] = {("terminal",): game.terminal_checked(S),
                                      ("current_player",): game.current_player_checked(S)}
        for p in range(spec.max_players):
            flow[("score", p)] = game.score_checked(S, p)
            for k in range(len(spec.tie_breaks)):
                flow[("tie_key", k, p)] = game.tie_key_checked(k, S, p)
        for k in range(len(spec.invariants)):
            flow[("invariant", k)] = game.invariant_checked(k, S)
        for k in range(len(spec.conservation)):
            flow[("conserved", k)] = game.conserved_checked(k, S)
        self.flow_keys, self.flow = self._batch(flow)
        self.changed: list[list[int]] = []
        self.action_keys: list[list[tuple]] = []
        self.actions: list[T.Batch] = []
        for i, (a, P) in enumerate(zip(spec.actions, self.params)):
            parts: dict[tuple, Checked] = {}
            for j in range(len(a.preconditions)):
                parts[("pre", j)] = game.precondition_checked(i, j, S, P)
            parts[("weight",)] = game.weight_checked(i, S, P)
            parts[("legal",)] = Checked(game.legal(i, S, P), z3.BoolVal(False))
            after = game.apply_checked(i, S, P)
            # the cells the successor does not simply copy from the state
            changed = [k for k, (t, v) in enumerate(zip(after.value, S)) if not t.eq(v)]
            self.changed.append(changed)
            parts[("apply",)] = Checked(None, after.error)
            for k in changed:
                parts[("cell", k)] = Checked(after.value[k], z3.BoolVal(False))
            keys, batch = self._batch(parts)
            self.action_keys.append(keys)
            self.actions.append(batch)

    @staticmethod
    def _batch(parts: dict[tuple, Checked]) -> tuple[list[tuple], T.Batch]:
        """All values and error flags as one batch (one substitution evaluates them all)."""
        keys, terms = [], []
        for key, c in parts.items():
            if c.value is not None:
                keys.append((*key, "value"))
                terms.append(c.value)
            keys.append((*key, "error"))
            terms.append(c.error)
        return keys, T.Batch(terms)


@functools.lru_cache(maxsize=None)
def _setup(name: str, interp: tuple[tuple[str, str], ...]) -> tuple[Any, SmtGame, Symbolic]:
    model = rulespec.load(name, interpretation=dict(interp) or None)
    game = compile_smt(model.spec, model.interpretation)
    return model, game, Symbolic(game)


class SymbolicPath:
    """Read rules from the shared symbolic encoding, substituting one concrete state."""

    name = "symbolic"

    def __init__(self, game: SmtGame, sym: Symbolic, values: tuple) -> None:
        self.game, self.sym = game, sym
        self.values = values
        self.pairs = list(zip(sym.state, game.concrete_state(values)))
        self._flow: dict[tuple, Any] | None = None
        self._actions: dict[tuple, dict[tuple, Any]] = {}
        self._at_state: dict[int, T.Batch] = {}
        self._seen: set[int] = set()

    @staticmethod
    def _evaluate(batch: T.Batch, keys: list[tuple], pairs: list) -> dict[tuple, Any]:
        return dict(zip(keys, batch.at(pairs)))

    def _action_batch(self, i: int) -> tuple[T.Batch, list]:
        """Action ``i``'s batch and what to substitute in it besides the parameters. An
        action with more than one instance at this state gets the state substituted and
        simplified once, so that each instance substitutes only its parameters into a far
        smaller term (MOTU: a third of the time; two steps give the values one would)."""
        if i not in self._at_state:
            if i not in self._seen:
                self._seen.add(i)
                return self.sym.actions[i], self.pairs
            batch = self.sym.actions[i]
            partial = T.Batch.__new__(T.Batch)
            partial.size = batch.size
            partial.packed = z3.simplify(z3.substitute(batch.packed, *self.pairs))
            self._at_state[i] = partial
        return self._at_state[i], []

    def _read_flow(self, *key: Any) -> tuple[Any, bool]:
        if self._flow is None:
            self._flow = self._evaluate(self.sym.flow, self.sym.flow_keys, self.pairs)
        return self._flow[(*key, "value")], self._flow[(*key, "error")]

    def _action(self, i: int, params: tuple) -> dict[tuple, Any]:
        if (i, params) not in self._actions:
            batch, pairs = self._action_batch(i)
            pairs = pairs + [(v, z3.IntVal(x)) for v, x in zip(self.sym.params[i], params)]
            self._actions[(i, params)] = self._evaluate(batch, self.sym.action_keys[i], pairs)
        return self._actions[(i, params)]

    def precondition(self, i: int, j: int, params: tuple) -> tuple[Any, bool]:
        got = self._action(i, params)
        return got[("pre", j, "value")], got[("pre", j, "error")]

    def apply(self, i: int, params: tuple) -> tuple[Any, bool]:
        """The successor: cells the encoding copies unchanged are the state's own values."""
        got = self._action(i, params)
        cells = list(self.values)
        for k in self.sym.changed[i]:
            cells[k] = got[("cell", k, "value")]
        return cells, got[("apply", "error")]

    def legal(self, i: int, params: tuple) -> bool:
        return self._action(i, params)[("legal", "value")]

    def weight(self, i: int, params: tuple) -> tuple[Any, bool]:
        got = self._action(i, params)
        return got[("weight", "value")], got[("weight", "error")]

    def terminal(self) -> tuple[Any, bool]:
        return self._read_flow("terminal")

    def current_player(self) -> tuple[Any, bool]:
        return self._read_flow("current_player")

    def score(self, p: int) -> tuple[Any, bool]:
        return self._read_flow("score", p)

    def tie_key(self, k: int, p: int) -> tuple[Any, bool]:
        return self._read_flow("tie_key", k, p)

    def invariant(self, k: int) -> tuple[Any, bool]:
        return self._read_flow("invariant", k)

    def conserved(self, k: int) -> tuple[Any, bool]:
        return self._read_flow("conserved", k)


class ConcretePath:
    """Call the backend on Z3 literals: it folds in Python and returns literals."""

    name = "concrete"

    def __init__(self, game: SmtGame, values: tuple) -> None:
        self.game = game
        self.state = game.concrete_state(values)

    @staticmethod
    def read(c: Checked) -> tuple[Any, bool]:
        if isinstance(c.value, list):
            return [T.value(t) for t in c.value], T.value(c.error)
        return T.value(c.value), T.value(c.error)

    def precondition(self, i: int, j: int, params: tuple) -> tuple[Any, bool]:
        return self.read(self.game.precondition_checked(i, j, self.state, params))

    def apply(self, i: int, params: tuple) -> tuple[Any, bool]:
        return self.read(self.game.apply_checked(i, self.state, params))

    def legal(self, i: int, params: tuple) -> bool:
        return T.value(self.game.legal(i, self.state, params))

    def weight(self, i: int, params: tuple) -> tuple[Any, bool]:
        return self.read(self.game.weight_checked(i, self.state, params))

    def terminal(self) -> tuple[Any, bool]:
        return self.read(self.game.terminal_checked(self.state))

    def current_player(self) -> tuple[Any, bool]:
        return self.read(self.game.current_player_checked(self.state))

    def score(self, p: int) -> tuple[Any, bool]:
        return self.read(self.game.score_checked(self.state, p))

    def tie_key(self, k: int, p: int) -> tuple[Any, bool]:
        return self.read(self.game.tie_key_checked(k, self.state, p))

    def invariant(self, k: int) -> tuple[Any, bool]:
        return self.read(self.game.invariant_checked(k, self.state))

    def conserved(self, k: int) -> tuple[Any, bool]:
        return self.read(self.game.conserved_checked(k, self.state))


def _python(fn: Callable[..., Any], *args: Any) -> tuple[Any, BaseException | None]:
    try:
        return fn(*args), None
    except Exception as err:  # noqa: BLE001 - a rule error of any kind
        return None, err


def _agree(what: str, python: tuple[Any, BaseException | None], smt: tuple[Any, bool],
           is_bool: list[bool] | None = None) -> None:
    expected, raised = python
    got, error = smt
    if raised is not None:
        assert error is True, f"{what}: Python raised {raised!r}, the Z3 error flag is {error}"
        return
    assert error is False, f"{what}: the Z3 error flag is set, Python gave {expected!r}"
    if is_bool is not None:  # a state: compare cell by cell, bool cells as bools
        expected = [bool(v) if b else v for v, b in zip(expected, is_bool)]
        bad = [k for k, (x, y) in enumerate(zip(expected, got)) if x != y]
        assert not bad, f"{what}: cells differ at {bad}: Python {expected}, Z3 {got}"
        return
    assert expected == got and isinstance(expected, bool) == isinstance(got, bool), \
        f"{what}: Python {expected!r}, Z3 {got!r}"


def _in_domain(action: Any, values: tuple) -> list[tuple[int, ...]]:
    """Every parameter tuple that ``Model.why_illegal`` accepts as in-domain."""
    ranges = [range(p.domain.lo, p.domain.hi.args[0] if p.domain.is_static() else values[0])
              for p in action.params]
    return list(itertools.product(*ranges))


def instances_to_check(model: Any, values: tuple, data: Any) -> list[tuple[int, tuple, bool]]:
    """``(action, params, legal)`` for every in-domain instance at ``values``, or -- where an
    action has more than EXHAUSTIVE -- a drawn sample of the illegal ones and, past
    LEGAL_SAMPLE, of the legal ones."""
    legal, raised = _python(model.compiled.legal, values)
    assert raised is None, f"the Python backend cannot list the legal actions: {raised!r}"
    legal_keys = set(legal)
    out = []
    for i, action in enumerate(model.spec.actions):
        every = _in_domain(action, values)
        good = [x for x in every if (i, *x) in legal_keys]
        bad = [x for x in every if (i, *x) not in legal_keys]
        if len(every) > EXHAUSTIVE and len(bad) > ILLEGAL_SAMPLE:
            picks = data.draw(st.lists(st.integers(0, len(bad) - 1), max_size=ILLEGAL_SAMPLE,
                                       unique=True), label=f"illegal {action.name}")
            bad = [bad[k] for k in picks]
        if len(every) > EXHAUSTIVE and len(good) > LEGAL_SAMPLE:
            picks = data.draw(st.lists(st.integers(0, len(good) - 1), min_size=1,
                                       max_size=LEGAL_SAMPLE, unique=True),
                              label=f"legal {action.name}")
            good = [good[k] for k in sorted(picks)]
        out += [(i, x, True) for x in good] + [(i, x, False) for x in bad]
    return out


def check_state(model: Any, game: SmtGame, path: Any, values: tuple,
                instances: list[tuple[int, tuple, bool]]) -> None:
    """Every rule at ``values``, on one path, against the Python backend."""
    compiled = model.compiled
    spec = model.spec
    cells = [z3.is_bool(t) for t in game.concrete_state(values)]
    n = values[0]

    _agree("terminal", _python(compiled.terminal, values), path.terminal())
    _agree("current player", _python(compiled.current_player, values), path.current_player())
    scores, raised = _python(compiled.scores, values)
    for p in range(n):
        _agree(f"score of player {p}", (scores[p] if raised is None else None, raised),
               path.score(p))
    for k in range(len(spec.tie_breaks)):
        for p in range(n):
            _agree(f"tie-break {k} of player {p}", _python(compiled.tie_keys[k], values, p),
                   path.tie_key(k, p))
    for k, inv in enumerate(spec.invariants):
        _agree(f"invariant {inv.name}", _python(compiled.invariants[k], values),
               path.invariant(k))
    for k, c in enumerate(spec.conservation):
        _agree(f"conserved {c.name}", _python(compiled.conserved[k], values), path.conserved(k))

    weights, raised = _python(compiled.chance_weights, values)
    assert raised is None, f"the Python backend cannot list chance weights: {raised!r}"
    for key, w in weights:
        _agree(f"weight of {key}", (w, None), path.weight(key[0], key[1:]))

    for i, params, legal in instances:
        action = spec.actions[i]
        label = f"{action.name}{params} ({'legal' if legal else 'illegal'})"
        assert path.legal(i, params) is legal, f"{label}: legality differs"
        for j, pre in enumerate(action.preconditions):
            _agree(f"{label}: precondition {pre.text!r}",
                   _python(compiled.preconditions[i][j], values, *params),
                   path.precondition(i, j, params))
        _agree(f"{label}: successor state", _python(compiled.apply[i], values, *params),
               path.apply(i, params), is_bool=cells)


#: an alternative reading with more legal opening moves than this gets fewer examples
MANY_ACTIONS = 32


def _examples(model: Any, interp: tuple) -> int:
    """The profile's example count for small games; a few for large ones (each example
    checks every legal action at its state, twice), fewer again for alternative readings,
    and fewer still for a reading with many legal moves (Hex 11x11 opens with 121: each
    one's successor, over a 121-node connectivity, costs seconds in Z3)."""
    base = settings.default.max_examples
    size = model.layout.size
    n = base if size <= 64 else max(5, base * 64 // size)
    if not interp:
        return n
    opening = len(model.legal_actions(model.initial_state(model.spec.min_players)))
    n = max(3, n // 3)
    return n if opening <= MANY_ACTIONS else max(3, n * MANY_ACTIONS // opening)


@pytest.mark.slow
@pytest.mark.parametrize("case", CASES, ids=[_case_id(c) for c in CASES])
def test_z3_backend_agrees_with_python_backend_on_played_states(case):
    model, game, sym = _setup(*case)
    spec = model.spec

    @settings(max_examples=_examples(model, case[1]))
    @given(data=st.data())
    def check(data):
        n = data.draw(st.integers(spec.min_players, spec.max_players), label="players")
        state = model.initial_state(n)
        steps = data.draw(st.integers(0, spec.max_steps), label="steps")
        for _ in range(steps):
            actions = model.legal_actions(state)
            if not actions:
                break
            state = model.apply(state, actions[data.draw(st.integers(0, len(actions) - 1))])
        instances = instances_to_check(model, state.values, data)
        for path in (SymbolicPath(game, sym, state.values), ConcretePath(game, state.values)):
            check_state(model, game, path, state.values, instances)

    check()


@pytest.mark.parametrize("case", CASES, ids=[_case_id(c) for c in CASES])
def test_z3_setup_agrees_with_python_setup(case):
    model, game, _ = _setup(*case)
    n = z3.Int("n")
    symbolic = game.initial_checked(n)
    for players in range(model.spec.min_players, model.spec.max_players + 1):
        expected = model.compiled.initial(players)
        concrete = game.initial_checked(players)
        assert T.value(concrete.error) is False
        assert [T.value(t) for t in concrete.value] == list(expected)
        pair = (n, z3.IntVal(players))
        assert T.value(z3.substitute(symbolic.error, pair)) is False
        assert [T.value(z3.substitute(t, pair)) for t in symbolic.value] == list(expected)


# --- the C backend ----------------------------------------------------------------------
def _same(what: str, python: tuple[Any, BaseException | None], c: Any) -> None:
    """The C answer is the Python backend's, of the same type; RAISED where it raises."""
    expected, raised = python
    if raised is not None:
        assert c is RAISED, f"{what}: Python raised {raised!r}, C gave {c!r}"
        return
    assert c is not RAISED, f"{what}: C raised, Python gave {expected!r}"
    assert expected == c, f"{what}: Python {expected!r}, C {c!r}"
    if isinstance(expected, (tuple, list)):
        assert [type(x) for x in expected] == [type(x) for x in c], f"{what}: types differ"
    else:
        assert type(expected) is type(c), f"{what}: Python {expected!r}, C {c!r}"


def c_check_state(model: Any, game: Any, values: tuple,
                  instances: list[tuple[int, tuple, bool]]) -> None:
    """Every rule at ``values`` in C against the Python backend."""
    compiled, spec = model.compiled, model.spec
    _same("terminal", _python(compiled.terminal, values), game.raw_terminal(values))
    _same("current player", _python(compiled.current_player, values),
          game.raw_current_player(values))
    _same("legal actions (in order)", _python(compiled.legal, values), game.raw_legal(values))
    _same("chance weights", _python(compiled.chance_weights, values),
          game.raw_chance_weights(values))
    _same("scores", _python(compiled.scores, values), game.raw_scores(values))
    for k in range(len(spec.tie_breaks)):
        for p in range(values[0]):
            _same(f"tie-break {k} of player {p}", _python(compiled.tie_keys[k], values, p),
                  game.raw_tie_key(k, values, p))
    for k, inv in enumerate(spec.invariants):
        _same(f"invariant {inv.name}", _python(compiled.invariants[k], values),
              game.raw_invariant(k, values))
    for k, c in enumerate(spec.conservation):
        _same(f"conserved {c.name}", _python(compiled.conserved[k], values),
              game.raw_conserved(k, values))
    if spec.hidden_information:
        state = rulespec.State(values, model)
        for p in range(values[0]):
            _same(f"what player {p} sees", _python(model.observation_key, state, p),
                  game.raw_observe(values, p))
    for i, params, legal in instances:
        action = spec.actions[i]
        label = f"{action.name}{params} ({'legal' if legal else 'illegal'})"
        key = (i, *params)
        _same(f"{label}: step", _python(compiled.step[i], values, key),
              game.raw_step(values, key))
        _same(f"{label}: effects", _python(compiled.apply[i], values, *params),
              game.raw_apply(values, key))
        for j, pre in enumerate(action.preconditions):
            _same(f"{label}: precondition {pre.text!r}",
                  _python(compiled.preconditions[i][j], values, *params),
                  game.raw_precondition(i, j, values, params))


@functools.lru_cache(maxsize=None)
def _c_setup(name: str, interp: tuple[tuple[str, str], ...]) -> tuple[Any, Any]:
    from rulespec.runtime.native import native_for
    model = rulespec.load(name, interpretation=dict(interp) or None)
    game = native_for(model)
    assert game is not None, "no C backend on this machine (see docs/architecture.md)"
    return model, game


@pytest.mark.parametrize("case", CASES, ids=[_case_id(c) for c in CASES])
def test_c_backend_agrees_with_python_backend_on_played_states(case):
    """C against Python on states reached by play and on every action instance there
    (legal ones, and in-domain ones that are not): legality, successor cells, every
    precondition, the flow, scores, tie-breaks, invariants, conserved totals, chance
    weights, what each player sees -- and C raises exactly where Python raises."""
    model, game = _c_setup(*case)
    spec = model.spec

    @settings(max_examples=2 * _examples(model, case[1]))
    @given(data=st.data())
    def check(data):
        n = data.draw(st.integers(spec.min_players, spec.max_players), label="players")
        values = model.compiled.initial(n)
        _same("setup", (values, None), game.raw_initial(n))
        steps = data.draw(st.integers(0, spec.max_steps), label="steps")
        for _ in range(steps):
            legal = model.compiled.legal(values)
            if not legal:
                break
            key = legal[data.draw(st.integers(0, len(legal) - 1))]
            values = model.compiled.step[key[0]](values, key)
        c_check_state(model, game, values, instances_to_check(model, values, data))

    check()


def test_the_c_comparison_tells_a_wrong_answer_apart():
    """``_same`` fails on a differing value, a differing type and a missed error."""
    with pytest.raises(AssertionError):
        _same("x", (3, None), 4)
    with pytest.raises(AssertionError):
        _same("x", (True, None), 1)
    with pytest.raises(AssertionError):
        _same("x", (None, ValueError("boom")), 0)
    with pytest.raises(AssertionError):
        _same("x", (0, None), RAISED)
