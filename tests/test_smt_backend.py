"""The Z3 backend's operation table, on one shared list of example formulas.

Every example is a small IR formula with its expected value (or ``ERROR``: the Python
backend raises, the Z3 encoding sets its error flag), written down here. Each runs through
the Python backend, the Z3 backend on a concrete state (folding), and the Z3 backend on a
symbolic state with the concrete values substituted afterwards. The formulas live in a tiny
test game (as invariants and conserved totals), so the Python backend compiles them the
way it compiles any rule. Then statements (sequential assignment, when/otherwise, loops
over the players, lets), legality, bounds, and two quick proofs on tic-tac-toe.
"""

from __future__ import annotations

import itertools
from typing import Any, Callable

import attrs
import pytest
import z3

import rulespec
from rulespec.compile import smt_terms as T
from rulespec.compile.python_backend import EXPR_TABLE
from rulespec.compile.smt_backend import SMT_TABLE, SmtGame, Unsupported, compile_smt
from rulespec.ir.english import ENGLISH
from rulespec.ir.nodes import BOOL, OPERATIONS, Expr, let_
from rulespec.runtime.model import Model
from rulespec.spec import (PLAYERS, Game, Graph, abs_, all_of, any_of, component_size,
                           connected, count, exists, forall, if_, largest_component, lookup,
                           max_, min_, not_, ordinal, sum_of)

ERROR = "ERROR"
"""Expected outcome of a formula that cannot be evaluated (an index out of range, x // 0)."""

SRC = "rulespec test suite: example formulas for the backends"

# --- a tiny game holding the example formulas ------------------------------------------
game = Game("smt_examples", title="SMT examples", players=(2, 4), source=SRC)
Mark = game.enum("Mark", {"empty": "nothing", "x": "a cross", "o": "a nought"}, source=SRC)
x = game.field("x", range(-10, 11), initial=0, source=SRC)
y = game.field("y", range(-10, 11), initial=0, source=SRC)
z = game.field("z", range(-10, 11), initial=0, source=SRC)
flag = game.field("flag", bool, source=SRC)
arr = game.field("arr", range(0, 10), shape=(4,), initial=0, source=SRC)
grid = game.field("grid", Mark, shape=(2, 3), initial=Mark.empty, source=SRC)
per = game.field("per", range(0, 10), shape=(PLAYERS,), initial=0, source=SRC)
reading = game.interpretation("reading", question="which reading?", default="strict",
                              options={"strict": SRC, "lenient": SRC}, source=SRC)
players = game.players()
worth = game.table("worth", {Mark.empty: 0, Mark.x: 5, Mark.o: 7}, source=SRC)
marked = game.table("marked", {Mark.empty: False, Mark.x: True, Mark.o: True}, source=SRC)
other = game.table("other", {Mark.empty: Mark.empty, Mark.x: Mark.o, Mark.o: Mark.x},
                   source=SRC)
LINE = Graph.line(4)
HEX = Graph.hex_grid(2, 3)


@game.action(params={"i": range(4), "p": players}, source=SRC)
def poke(rule, i, p):
    """Exercise every statement kind, in order."""
    rule.require(per[p] < 9, "the player's counter is below 9", source=SRC)
    rule.set(arr[i], arr[i] + 1)            # a write at a dynamic index
    rule.set(x, arr[i])                     # reads the value just written
    t = rule.let(x + 1, name="t")
    rule.set(arr[i], 0)
    rule.set(y, t)                          # the let keeps the value it had
    with rule.when(flag):
        rule.set(z, z - 1)
    with rule.otherwise():
        rule.set(z, z + 1)
    with rule.for_each(players) as q:       # a loop with a dynamic bound
        rule.set(per[q], per[q] + 1)
    with rule.when(p == 1):
        rule.set(grid[p, i // 2], Mark.x)   # a 2-d write at dynamic indices
    rule.set(flag, not_(flag))


@game.action(params={"i": range(4)}, source=SRC)
def peek(rule, i):
    """A precondition that reads past the end of ``arr`` when i = 3."""
    rule.require(arr[i + 1] > 0, "the next slot is positive", source=SRC)
    rule.set(x, arr[i + 1])


game.current_player(if_(flag, 1, 0), source=SRC)
game.terminal(x == 10, source=SRC)
game.max_steps(50, source=SRC)
game.score(lambda p: per[p], source=SRC)
game.tie_break(lambda p: 0 - per[p], lower_wins=True, source=SRC)


@attrs.frozen
class Example:
    name: str
    build: Callable[[], Any]
    expected: Any


def E(name: str, build: Callable[[], Any], expected: Any) -> Example:
    return Example(name, build, expected)


#: the shared example formulas, at STATE below (3 players; x=-7, y=2, z=-2, ...)
EXAMPLES = [
    E("const_int", lambda: x - x + 5, 5),
    E("const_bool", lambda: all_of(x == x, True), True),
    E("add", lambda: x + y, -5),
    E("sub", lambda: x - y, -9),
    E("mul", lambda: x * y, -14),
    E("mul_by_const", lambda: x * 2, -14),
    E("mul_by_one", lambda: 1 * x, -7),
    E("mul_by_zero", lambda: 0 * x, 0),
    E("neg", lambda: -x, 7),
    E("floordiv_neg_by_pos", lambda: x // y, -4),
    E("mod_neg_by_pos", lambda: x % y, 1),
    E("floordiv_neg_by_neg", lambda: x // z, 3),
    E("mod_neg_by_neg", lambda: x % z, -1),
    E("floordiv_pos_by_neg", lambda: (0 - x) // z, -4),
    E("mod_pos_by_neg", lambda: (0 - x) % z, -1),
    E("floordiv_exact_by_neg", lambda: (y + y) // z, -2),
    E("mod_exact_by_neg", lambda: (y + y) % z, 0),
    E("floordiv_by_const", lambda: x // 3, -3),
    E("mod_by_const", lambda: x % 3, 2),
    E("floordiv_by_neg_const", lambda: x // -3, 2),
    E("mod_by_neg_const", lambda: x % -3, -1),
    E("floordiv_by_zero", lambda: x // (y - 2), ERROR),
    E("mod_by_zero", lambda: x % (y - 2), ERROR),
    E("min", lambda: min_(x, y), -7),
    E("max", lambda: max_(x, y), 2),
    E("abs_neg", lambda: abs_(x), 7),
    E("abs_pos", lambda: abs_(y), 2),
    E("eq_int", lambda: x == -7, True),
    E("ne_int", lambda: x != -7, False),
    E("lt", lambda: x < y, True),
    E("le", lambda: y <= 2, True),
    E("gt", lambda: x > y, False),
    E("ge", lambda: z >= 2, False),
    E("eq_enum", lambda: grid[1, 2] == Mark.o, True),
    E("eq_bool", lambda: flag == True, True),  # noqa: E712 - an IR node, not a test
    E("and", lambda: all_of(x < 0, y > 0, z < 0), True),
    E("and_empty", lambda: all_of(x == x, all_of(*[])), True),
    E("or", lambda: any_of(x > 0, y > 5, z == -2), True),
    E("or_empty_is_false", lambda: any_of(*[]) == False, True),  # noqa: E712
    E("not", lambda: not_(flag), False),
    E("ite", lambda: if_(x < 0, 1, 2), 1),
    E("ite_bool", lambda: if_(flag, x > 0, y > 0), False),
    E("table", lambda: lookup([5, 5, 10, 10, 15], y), 10),
    E("table_bool", lambda: lookup([True, False], y - 1), False),
    E("table_enum", lambda: lookup([Mark.o, Mark.x], y - 2) == Mark.o, True),
    E("table_past_end", lambda: lookup([5, 5, 10, 10, 15], y + 3), ERROR),
    E("table_negative_index", lambda: lookup([5, 5, 10, 10, 15], y - 3), ERROR),
    E("field_dynamic_index", lambda: arr[y], 4),
    E("field_dynamic_index_2", lambda: arr[y + 1], 1),
    E("field_index_past_end", lambda: arr[y + 2], ERROR),
    E("field_negative_index", lambda: arr[x], ERROR),
    E("field_2d_dynamic", lambda: grid[y - 1, y] == Mark.o, True),
    E("field_2d_row_past_end", lambda: grid[y, 0] == Mark.o, ERROR),
    E("field_2d_col_past_end", lambda: grid[0, y + 1] == Mark.o, ERROR),  # flat index 3 is a cell
    E("field_players_dim", lambda: per[y], 2),
    E("and_short_circuits", lambda: all_of(y + 2 < 4, arr[y + 2] == 0), False),
    E("or_short_circuits", lambda: any_of(y + 2 >= 4, arr[y + 2] == 0), True),
    E("ite_short_circuits", lambda: if_(y + 2 < 4, arr[y + 2], -1), -1),
    E("and_error_when_reached", lambda: all_of(y < 4, arr[y + 2] == 0), ERROR),
    E("num_players", lambda: game.num_players + 0, 3),
    E("interp", lambda: if_(reading.is_("strict"), 10, 20), 10),
    E("sum_static", lambda: sum_of(range(4), lambda i: arr[i]), 9),
    E("count_static", lambda: count(range(4), lambda i: arr[i] == 1), 2),
    E("exists_static", lambda: exists(range(4), lambda i: arr[i] == 4), True),
    E("forall_static", lambda: forall(range(4), lambda i: arr[i] > 0), True),
    E("sum_players", lambda: sum_of(players, lambda p: per[p]), 7),          # per[3] = 9 is out
    E("count_players", lambda: count(players, lambda p: per[p] > 1), 2),
    E("exists_players", lambda: exists(players, lambda p: per[p] == 9), False),
    E("forall_players", lambda: forall(players, lambda p: per[p] < 6), True),
    E("players_bound_guards_errors", lambda: sum_of(players, lambda p: arr[p + 1]), 6),
    E("nested_binders", lambda: sum_of(players, lambda p: count(
        range(4), lambda i: arr[i] > per[p])), 6),
    E("binder_over_enum", lambda: count(Mark, lambda m: grid[1, 2] == m), 1),
    # over range(9) (not unrolled by the Python backend, which refuses a constant index
    # out of range at compile time): the error is raised only where it is reached
    E("exists_stops_at_first_true", lambda: exists(range(9), lambda i: arr[i] == 4), True),
    E("forall_stops_at_first_false", lambda: forall(range(9), lambda i: arr[i] < 4), False),
    E("exists_error_when_reached", lambda: exists(range(9), lambda i: arr[i] == 7), ERROR),
    E("count_error_anywhere", lambda: count(range(9), lambda i: arr[i] == 4), ERROR),
    E("sum_guarded_body", lambda: sum_of(range(9), lambda i: if_(i < 4, arr[i], 0)), 9),
    E("ordinal", lambda: ordinal(grid[1, 2]) + 1, 3),
    E("ordinal_in_arithmetic", lambda: ordinal(grid[0, 0]) * 4 + y, 2),
    E("enum_table", lambda: worth[grid[1, 2]], 7),
    E("enum_table_sum", lambda: sum_of(range(3), lambda c: worth[grid[1, c]]), 7),
    E("enum_table_bool", lambda: marked[grid[0, 1]], False),
    E("enum_table_enum", lambda: other[grid[1, 2]] == Mark.x, True),
    E("enum_table_const_member", lambda: worth[Mark.x] + 0, 5),
    E("enum_table_over_members", lambda: sum_of(Mark, lambda m: worth[m]), 12),
    E("connected", lambda: connected(LINE, lambda i: arr[i] > 0, sources=[0], targets=[3]), True),
    E("connected_cut", lambda: connected(LINE, lambda i: arr[i] > 1, sources=[0], targets=[2]),
      False),
    E("connected_source_not_member",
      lambda: connected(LINE, lambda i: arr[i] == 1, sources=[0], targets=[1, 3]), False),
    E("connected_hex", lambda: connected(HEX, lambda i: grid[i // 3, i % 3] == Mark.empty,
                                         sources=[0, 1, 2], targets=[3, 4, 5]), True),
    E("connected_error", lambda: connected(LINE, lambda i: arr[i + 1] > 0, sources=[0],
                                           targets=[3]), ERROR),
    E("component_size", lambda: component_size(LINE, lambda i: arr[i] > 0, y), 4),
    E("component_size_split", lambda: component_size(LINE, lambda i: arr[i] != 1, y), 1),
    E("component_size_not_member", lambda: component_size(LINE, lambda i: arr[i] == 1, y), 0),
    E("component_size_const_start", lambda: component_size(LINE, lambda i: arr[i] > 0, 1), 4),
    E("component_size_bad_start", lambda: component_size(LINE, lambda i: arr[i] > 0, x), ERROR),
    E("component_size_hex", lambda: component_size(
        HEX, lambda i: grid[i // 3, i % 3] == Mark.empty, y + 2), 5),
    E("largest_component", lambda: largest_component(LINE, lambda i: arr[i] != 4), 2),
    E("largest_component_none", lambda: largest_component(LINE, lambda i: arr[i] > 4), 0),
    E("largest_component_hex", lambda: largest_component(
        HEX, lambda i: grid[i // 3, i % 3] == Mark.empty), 5),
    # arr = [3, 1, 4, 1]: one group of all four nodes, labels 3, 1, 4, 1: three distinct
    E("largest_component_labels", lambda: largest_component(
        LINE, lambda i: arr[i] > 0, label=lambda i: arr[i], labels=5), 3),
    E("largest_component_label_range", lambda: largest_component(
        LINE, lambda i: arr[i] > 0, label=lambda i: arr[i], labels=4), ERROR),
    E("largest_component_label_of_non_member", lambda: largest_component(
        LINE, lambda i: arr[i] != 4, label=lambda i: arr[i], labels=4), 2),
    E("let", lambda: let_(x + y, lambda s: s * s - s), 30),
    E("let_nested_bool", lambda: let_(x < y, lambda less: all_of(less, let_(
        y, lambda w: w == 2))), True),
    E("let_value_raises_even_unused", lambda: let_(x // (y - 2), lambda q: 0 * q + 1), ERROR),
    E("let_in_quantifier", lambda: count(range(4), lambda i: let_(arr[i], lambda v: v > 1)),
      2),
]

_BUILT = [(ex, ex.build()) for ex in EXAMPLES]
for _k, (_ex, _e) in enumerate(_BUILT):
    if _e.type == BOOL:
        game.invariant(f"ex_{_ex.name}", _e, source=SRC)
    else:
        game.conservation(f"ex_{_ex.name}", _e, source=SRC)
SPEC = game.build()

MODEL = Model(SPEC)
SMT = compile_smt(SPEC)


def _state(**fields: Any) -> tuple:
    """A concrete state: STATE's values with some fields changed."""
    values = {"num_players": 3, "x": -7, "y": 2, "z": -2, "flag": True, "arr": [3, 1, 4, 1],
              "grid": [[0, 0, 0], [0, 0, 2]], "per": [5, 0, 2, 9]}
    values.update(fields)
    out: list[Any] = []
    for name, slot in MODEL.layout.slots.items():
        v = values[name]
        out.extend(itertools.chain.from_iterable(v) if name == "grid" else
                   (v if isinstance(v, list) else [v]))
    assert len(out) == MODEL.layout.size
    return tuple(out)


STATE = _state()
SYMBOLIC = SMT.fresh_state("s")


def _python_value(ex: Example, k_bool: int | None, k_int: int | None, values: tuple) -> Any:
    fn = (MODEL.compiled.invariants[k_bool] if k_bool is not None
          else MODEL.compiled.conserved[k_int])
    try:
        return fn(values)
    except Exception:  # noqa: BLE001 - any rule error
        return ERROR


def _smt_value(c: Any) -> Any:
    if T.value(c.error):
        return ERROR
    return T.value(c.value)


def _substituted(c: Any, state: list, values: tuple) -> Any:
    pairs = list(zip(state, SMT.concrete_state(values)))
    return _smt_value(type(c)(z3.substitute(c.value, *pairs), z3.substitute(c.error, *pairs)))


def _indices() -> list[tuple[Example, Expr, int | None, int | None]]:
    out = []
    kb = ki = 0
    for ex, e in _BUILT:
        if e.type == BOOL:
            out.append((ex, e, kb, None))
            kb += 1
        else:
            out.append((ex, e, None, ki))
            ki += 1
    return out


INDEXED = _indices()


# --- the operation table ---------------------------------------------------------------

def test_every_backend_table_covers_exactly_the_ir_operations():
    from rulespec.compile.native.expressions import C_TABLE
    assert set(SMT_TABLE) == set(OPERATIONS)
    assert set(SMT_TABLE) == set(EXPR_TABLE) == set(ENGLISH) == set(C_TABLE)


def test_every_backend_statement_table_covers_exactly_the_statement_kinds():
    from rulespec.compile.native.expressions import C_STATEMENTS
    from rulespec.compile.python_expressions import STMT_TABLE
    from rulespec.compile.smt_backend import SMT_STATEMENTS
    from rulespec.ir.english import ENGLISH_STATEMENTS
    from rulespec.ir.statements import STATEMENTS
    assert set(SMT_STATEMENTS) == set(STATEMENTS)
    assert set(SMT_STATEMENTS) == set(STMT_TABLE) == set(ENGLISH_STATEMENTS) == set(C_STATEMENTS)


def test_the_examples_use_every_operation():
    from rulespec.ir.walk import statement_exprs, walk
    used = {n.op for _, e in _BUILT for n in walk(e)}
    used |= {n.op for a in SPEC.actions for e in statement_exprs(a.effects) for n in walk(e)}
    used |= {n.op for a in SPEC.actions for pre in a.preconditions for n in walk(pre.cond)}
    assert OPERATIONS - used == set()


@pytest.mark.parametrize("ex,e,kb,ki", INDEXED, ids=[i[0].name for i in INDEXED])
def test_example_formula_has_its_expected_value_in_every_backend(ex, e, kb, ki):
    python = _python_value(ex, kb, ki, STATE)
    concrete = _smt_value(SMT.evaluate(e, SMT.concrete_state(STATE)))
    symbolic = _substituted(SMT.evaluate(e, SYMBOLIC), SYMBOLIC, STATE)
    declared = (SMT.invariant_checked(kb, SYMBOLIC) if kb is not None
                else SMT.conserved_checked(ki, SYMBOLIC))
    assert (python, concrete, symbolic, _substituted(declared, SYMBOLIC, STATE)) == \
        (ex.expected,) * 4


def test_an_error_flag_is_a_z3_condition_a_solver_can_reason_about():
    # arr[y] fails exactly when y is outside 0..3
    e = arr[y] == 0
    c = SMT.evaluate(e, SYMBOLIC)
    ys = SYMBOLIC[SMT.cell_names().index("y")]
    z3.prove(c.error == z3.Or(ys < 0, ys > 3))
    s = z3.Solver()
    s.add(c.error == z3.Not(z3.Or(ys < 0, ys > 3)))
    assert s.check() == z3.unsat


def test_floor_division_and_modulo_match_python_on_every_small_pair():
    a, b = z3.Ints("a b")
    for va, vb in itertools.product(range(-7, 8), range(-4, 5)):
        if vb == 0:
            continue
        sub = [(a, z3.IntVal(va)), (b, z3.IntVal(vb))]
        assert T.value(z3.substitute(T.floordiv(a, b), *sub)) == va // vb, (va, vb)
        assert T.value(z3.substitute(T.mod(a, b), *sub)) == va % vb, (va, vb)
        assert T.value(z3.substitute(T.floordiv(a, vb), *sub)) == va // vb, (va, vb)
        assert T.value(z3.substitute(T.mod(a, vb), *sub)) == va % vb, (va, vb)
        assert T.value(z3.substitute(T.floordiv(va, b), *sub)) == va // vb, (va, vb)
        assert (T.floordiv(va, vb), T.mod(va, vb)) == (va // vb, va % vb)


def test_floor_division_identity_is_proved_for_all_nonzero_divisors():
    a, b = z3.Ints("a b")
    q, r = T.floordiv(a, b), T.mod(a, b)
    z3.prove(z3.Implies(b != 0, z3.And(a == b * q + r,
                                       z3.If(b > 0, z3.And(0 <= r, r < b),
                                             z3.And(b < r, r <= 0)))))


def test_an_operation_without_an_encoding_raises_unsupported_naming_it():
    node = Expr("longest_path", (), BOOL)  # not an IR operation: no backend has it
    with pytest.raises(Unsupported) as err:
        SMT.evaluate(node, SYMBOLIC)
    assert err.value.operation == "longest_path"
    assert "longest_path" in str(err.value)
    with pytest.raises(Unsupported):  # also when nested, and on a concrete state
        SMT.evaluate(all_of(x == 0, node), SMT.concrete_state(STATE))


def test_the_interpretation_in_force_is_folded_into_the_terms():
    lenient = compile_smt(SPEC, {"reading": "lenient"})
    e = if_(reading.is_("strict"), 10, 20)
    assert T.value(lenient.evaluate(e, SYMBOLIC).value) == 20
    assert T.value(SMT.evaluate(e, SYMBOLIC).value) == 10
    (ki,) = [ki for ex, _, _, ki in INDEXED if ex.name == "interp"]
    assert Model(SPEC, {"reading": "lenient"}).compiled.conserved[ki](STATE) == 20
    with pytest.raises(ValueError):
        compile_smt(SPEC, {"reading": "sloppy"})
    with pytest.raises(ValueError):
        compile_smt(SPEC, {"nothing": "strict"})


# --- statements ------------------------------------------------------------------------

POKE, PEEK = 0, 1


def _apply_three_ways(action: int, values: tuple, params: tuple) -> tuple[Any, Any, Any]:
    try:
        python: Any = tuple(MODEL.compiled.apply[action](values, *params))
    except Exception:  # noqa: BLE001
        python = ERROR
    c = SMT.apply_checked(action, SMT.concrete_state(values), params)
    concrete = ERROR if T.value(c.error) else tuple(T.value(t) for t in c.value)
    P = SMT.params(action)
    s = SMT.apply_checked(action, SYMBOLIC, P)
    pairs = list(zip(SYMBOLIC, SMT.concrete_state(values))) + [
        (v, z3.IntVal(n)) for v, n in zip(P, params)]
    symbolic = (ERROR if T.value(z3.substitute(s.error, *pairs))
                else tuple(T.value(z3.substitute(t, *pairs)) for t in s.value))
    return python, concrete, symbolic


@pytest.mark.parametrize("flag_value", [True, False])
def test_effects_run_in_order_and_agree_with_python(flag_value):
    values = _state(flag=flag_value)
    python, concrete, symbolic = _apply_three_ways(POKE, values, (1, 1))
    assert python == concrete == symbolic
    after = MODEL.layout
    got = {name: after.nested(concrete, name) for name in after.slots}
    assert got["arr"] == [3, 0, 4, 1]          # +1 then reset to 0
    assert got["x"] == 2                       # read the value just written
    assert got["y"] == 3                       # the let kept x + 1
    assert got["z"] == (-3 if flag_value else -1)
    assert got["per"] == [6, 1, 3, 9]          # the loop stops at the number of players
    assert got["grid"] == [[0, 0, 0], [1, 0, 2]]
    assert got["flag"] is (not flag_value)


def test_a_loop_over_the_players_follows_the_number_of_players():
    for n in (2, 3, 4):
        values = _state(num_players=n)
        python, concrete, symbolic = _apply_three_ways(POKE, values, (0, 0))
        assert python == concrete == symbolic
        per_after = MODEL.layout.nested(concrete, "per")
        assert per_after == [v + 1 if k < n else v for k, v in enumerate([5, 0, 2, 9])]


def test_an_effect_reading_past_the_end_sets_the_error_flag_where_python_raises():
    for i in range(4):
        python, concrete, symbolic = _apply_three_ways(PEEK, STATE, (i,))
        assert python == concrete == symbolic
        assert (python == ERROR) is (i == 3)


def test_a_precondition_that_cannot_be_evaluated_is_not_satisfied():
    state = SMT.concrete_state(STATE)
    c = SMT.precondition_checked(PEEK, 0, state, (3,))
    assert T.value(c.error) is True
    assert T.value(SMT.precondition(PEEK, 0, state, (3,))) is False
    assert T.value(SMT.precondition(PEEK, 0, state, (0,))) is True


def test_legality_matches_the_model_for_every_parameter_tuple():
    P = {i: SMT.params(i) for i in (POKE, PEEK)}
    sym = {i: SMT.legal(i, SYMBOLIC, P[i]) for i in (POKE, PEEK)}
    for n in (2, 3, 4):
        for flag_value in (True, False):
            values = _state(num_players=n, flag=flag_value, per=[5, 9, 2, 9])
            state = SMT.concrete_state(values)
            pairs = list(zip(SYMBOLIC, state))
            for i in (POKE, PEEK):
                for params in SMT.instances(i):
                    key = (i, *params)
                    want = not MODEL.why_illegal(rulespec.State(values, MODEL),
                                                 rulespec.Action(key, str(key)))
                    assert T.value(SMT.legal(i, state, params)) is want, (n, key)
                    sub = pairs + [(v, z3.IntVal(k)) for v, k in zip(P[i], params)]
                    assert T.value(z3.substitute(sym[i], *sub)) is want, (n, key)


def test_params_range_over_their_domains_with_a_dynamic_bound():
    state = SMT.concrete_state(_state(num_players=3))
    assert T.value(SMT.param_domain(POKE, state, (3, 2))) is True
    assert T.value(SMT.param_domain(POKE, state, (3, 3))) is False   # p < num_players
    assert T.value(SMT.param_domain(POKE, state, (4, 0))) is False   # i < 4
    assert len(SMT.instances(POKE)) == 4 * 4                          # up to max players


def test_bounds_constrain_every_cell_and_the_number_of_players():
    assert T.value(SMT.bounds(SMT.concrete_state(STATE))) is True
    assert T.value(SMT.bounds(SMT.concrete_state(_state(x=11)))) is False
    assert T.value(SMT.bounds(SMT.concrete_state(_state(num_players=5)))) is False
    assert T.value(SMT.bounds(SMT.concrete_state(_state(grid=[[3, 0, 0], [0, 0, 0]])))) is False
    s = z3.Solver()
    s.add(SMT.bounds(SYMBOLIC))
    assert s.check() == z3.sat
    back = SMT.state_from_model(s.model(), SYMBOLIC)
    assert MODEL.out_of_bounds(rulespec.State(back, MODEL)) == []


def test_flow_scores_and_tie_keys_agree_with_python():
    for values in (STATE, _state(flag=False), _state(x=10)):
        state = SMT.concrete_state(values)
        assert T.value(SMT.current_player(state)) == MODEL.compiled.current_player(values)
        assert T.value(SMT.terminal(state)) == MODEL.compiled.terminal(values)
        assert T.value(SMT.chance_node(state)) is False
        assert [T.value(SMT.score(state, p)) for p in range(values[0])] == \
            MODEL.compiled.scores(values)
        assert [T.value(SMT.tie_key(0, state, p)) for p in range(values[0])] == \
            [MODEL.compiled.tie_keys[0](values, p) for p in range(values[0])]


def test_a_state_of_the_wrong_size_is_refused():
    with pytest.raises(ValueError, match="cells"):
        SMT.terminal(SYMBOLIC[:-1])
    with pytest.raises(ValueError, match="parameter"):
        SMT.apply(POKE, SYMBOLIC, [0])


# --- quick proofs on tic-tac-toe -------------------------------------------------------

@pytest.fixture(scope="module")
def ttt() -> tuple[Any, SmtGame]:
    model = rulespec.load("tic_tac_toe")
    return model, compile_smt(model.spec, model.interpretation)


def _prove(claim: z3.BoolRef) -> tuple[str, Any]:
    # bounded in resource units, a count (a wall-clock timeout would turn a proof into
    # UNKNOWN on a busy machine)
    from rulespec.check.solvers import DEFAULT_RLIMIT, limited
    s = limited(z3.Solver(), DEFAULT_RLIMIT)
    s.add(z3.Not(claim))
    r = s.check()
    if r == z3.unsat:
        return "PROVED", None
    if r == z3.sat:
        return "VIOLATED", s.model()
    return "UNKNOWN", None


def test_mark_keeps_the_conserved_total_for_every_state_within_bounds(ttt):
    model, g = ttt
    s = g.fresh_state("s")
    mark = model.spec.actions.index(model.spec.action("mark"))
    p = g.params(mark)
    after = g.apply_checked(mark, s, p)
    total = T.value(g.conserved(0, g.concrete_state(model.initial_state().values)))
    hyp = z3.And(g.bounds(s), *[g.invariant_checked(k, s).holds()
                                 for k in range(len(model.spec.invariants))],
                 g.conserved(0, s) == total,
                 g.param_domain(mark, s, p), g.preconditions(mark, s, p))
    claim = z3.Implies(hyp, z3.And(z3.Not(after.error),
                                   g.conserved(0, after.value) == g.conserved(0, s)))
    assert _prove(claim)[0] == "PROVED"


def test_legal_marks_keep_every_invariant_and_the_bounds(ttt):
    """One query per mark instance (the split the brief measured as the fast encoding)."""
    model, g = ttt
    s = g.fresh_state("s")
    total = T.value(g.conserved(0, g.concrete_state(model.initial_state().values)))
    invariants = range(len(model.spec.invariants))
    for params in g.instances(0):
        after = g.apply(0, s, params)
        hyp = z3.And(g.bounds(s), g.conserved(0, s) == total, g.legal(0, s, params),
                     *[g.invariant(k, s) for k in invariants])
        claim = z3.Implies(hyp, z3.And(g.bounds(after), *[g.invariant(k, after)
                                                           for k in invariants]))
        assert _prove(claim)[0] == "PROVED", params


def test_a_false_claim_gives_a_counterexample_that_python_replays(ttt):
    model, g = ttt
    s = g.fresh_state("s")
    p = g.params(0)
    after = g.apply(0, s, p)
    winner = g.cell_names().index("winner")
    claim = z3.Implies(z3.And(g.bounds(s), g.legal(0, s, p)), after[winner] == -1)
    verdict, m = _prove(claim)
    assert verdict == "VIOLATED"
    values = g.state_from_model(m, s)
    params = tuple(m.eval(v, model_completion=True).as_long() for v in p)
    assert (0, *params) in model.compiled.legal(values)
    assert model.compiled.apply[0](values, *params)[winner] != -1


def test_an_unconstrained_index_may_be_out_of_range_and_the_flag_says_so(ttt):
    model, g = ttt
    s = g.fresh_state("s")
    p = g.params(0)
    err = g.apply_checked(0, s, p).error
    verdict, m = _prove(z3.Not(err))
    assert verdict == "VIOLATED"
    assert any(not 0 <= m.eval(v, model_completion=True).as_long() < 3 for v in p)
    assert _prove(z3.Implies(g.param_domain(0, s, p), z3.Not(err)))[0] == "PROVED"


def test_an_effect_without_an_encoding_raises_unsupported_even_on_a_concrete_state():
    from rulespec.ir.nodes import INT
    from rulespec.ir.statements import Assign, If
    odd = Expr("distance", (), INT)
    effects = (If(x == 0, (Assign(x, odd),), ()),)   # never reached at STATE (x = -7)
    actions = list(SPEC.actions)
    actions[PEEK] = attrs.evolve(actions[PEEK], effects=effects)
    g = compile_smt(attrs.evolve(SPEC, actions=tuple(actions)))
    with pytest.raises(Unsupported, match="distance"):
        g.apply(PEEK, g.concrete_state(STATE), (0,))
    assert T.value(g.terminal(g.concrete_state(STATE))) is False  # the rest still works


def _unmemoised(smt: SmtGame) -> SmtGame:
    """``smt`` evaluating every expression node afresh (no :class:`_Pure` memo)."""
    def plain_eval(e: Expr, state: Any, names: dict) -> Any:
        from rulespec.compile.smt_backend import Checked, _bool
        sc = smt._scope(state, names)
        v = smt._expr(e, sc)
        return Checked(T.term(v), _bool(T.or_(sc.errors)))
    smt._eval = plain_eval  # type: ignore[method-assign]
    return smt


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 4])
def test_the_pure_memo_builds_the_same_terms_and_errors(players):
    # MOTU's preconditions read village cells at the player to move (a symbolic index,
    # which can be out of range) once per position and side of a card, under different
    # path conditions: the memo builds each read once, and every error condition still
    game = rulespec.load("motu")
    memo = compile_smt(game.spec, game.interpretation)
    plain = _unmemoised(compile_smt(game.spec, game.interpretation))
    state = memo.fresh_state("s")
    state[0] = z3.IntVal(players)
    names = {"choose", "choose_unplaceable", "set_aside", "pay", "buy_fate"}
    checked = 0
    for a, action in enumerate(game.spec.actions):
        if action.name not in names:
            continue
        params = memo.params(a, f"p{a}")
        for j in range(len(action.preconditions)):
            got = memo.precondition_checked(a, j, state, params)
            want = plain.precondition_checked(a, j, state, params)
            assert got.value.eq(want.value) and got.error.eq(want.error), (action.name, j)
            checked += not z3.is_false(z3.simplify(want.error))
    assert checked  # some of them can raise: their error conditions were compared too
