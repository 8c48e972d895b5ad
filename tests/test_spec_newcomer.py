"""What newcomers writing a game from the docs tripped over (issue 27 item 4): each has its
construct or its one-line error."""

import warnings

import pytest

import rulespec
from rulespec import SpecError
from rulespec.check.diff import diff
from rulespec.check.explain import dependent_effects
from rulespec.ir.errors import SpecWarning
from rulespec.ir.walk import walk_distinct, written_out
from rulespec.spec import Game, any_of, if_

SRC = "fixture"

REPEATED = '''
from rulespec.spec import Game, any_of, if_
SRC = "fixture"
game = Game("repeat", title="Repeat", players=2, source=SRC)
cells = game.field("cells", range(0, 5), shape=(CELLS,), source=SRC)
turn = game.field("turn", range(0, 2), flow=True, source=SRC)
moves = game.field("moves", range(0, 40), flow=True, source=SRC)


def best():
    b = cells[0]
    for i in range(1, CELLS):
        b = if_(cells[i] > b, cells[i], b)  # b twice: the tree doubles at every cell
    return b


@game.action(params={"i": range(CELLS)}, source=SRC)
def bump(rule, i):
    rule.require(cells[i] < 4, "room", source=SRC)
    rule.add(cells[i], 1)
    rule.add(moves, 1)
    rule.set(turn, 1 - turn)


game.current_player(turn, source=SRC)
game.terminal(any_of(best() == 4, moves == 39), source=SRC)  # TERMINAL
game.max_steps(39, source=SRC)
game.score(lambda p: if_(best() > 2, p, 0), source=SRC)
game.shared_ties(source=SRC)
SPEC = game.build()
'''


def test_a_value_repeated_inside_itself_warns_at_its_line_and_loads(tmp_path):
    path = tmp_path / "repeat.py"
    text = REPEATED.replace("CELLS", "18")
    path.write_text(text)
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        spec = rulespec.load_spec(path)
    mine = [w for w in seen if issubclass(w.category, SpecWarning)]
    assert {w.lineno for w in mine} == {n for n, line in enumerate(text.splitlines(), 1)
                                         if "# TERMINAL" in line or "game.score(" in line}
    assert "in rule terminal: written out, this expression has 1,048,576 nodes but only " \
           "110 distinct ones" in str(mine[0].message)
    assert "let_(value, lambda v: ...)" in str(mine[0].message)
    tree, distinct = written_out(spec.terminal.expr)
    assert (tree, distinct) == (1_048_576, 110)
    # validation walks each distinct node once: counted, not timed
    assert sum(1 for _ in walk_distinct(spec.terminal.expr)) == distinct


def test_let_names_the_value_once_so_the_same_helper_stays_small(tmp_path):
    path = tmp_path / "shared.py"
    path.write_text(REPEATED.replace("CELLS", "18").replace(
        "from rulespec.spec import Game, any_of, if_",
        "from rulespec.spec import Game, any_of, if_, let_").replace(
        "        b = if_(cells[i] > b, cells[i], b)  # b twice: the tree doubles at every cell",
        "        b = let_(b, lambda best, i=i: if_(cells[i] > best, cells[i], best))"))
    with warnings.catch_warnings():
        warnings.simplefilter("error", SpecWarning)
        spec = rulespec.load_spec(path)
    tree, distinct = written_out(spec.terminal.expr)
    assert tree < 200 and distinct < 200
    model = rulespec.Model(spec)
    s = model.initial_state()
    for text in ["bump(i=5)", "bump(i=5)", "bump(i=5)"]:
        s = model.apply(s, model.action_from_str(s, text))
    assert model.scores(s) == [0, 1] and not model.is_terminal(s)
    s = model.apply(s, model.action_from_str(s, "bump(i=5)"))
    assert model.is_terminal(s)                   # best = 4


def test_a_small_repeat_does_not_warn(tmp_path):
    path = tmp_path / "small.py"
    path.write_text(REPEATED.replace("CELLS", "6"))
    with warnings.catch_warnings():
        warnings.simplefilter("error", SpecWarning)
        rulespec.load_spec(path)


def test_no_bundled_game_warns():
    with warnings.catch_warnings():
        warnings.simplefilter("error", SpecWarning)
        for name in ("tic_tac_toe", "connect_four", "hex", "crazy_eights", "hawaii"):
            rulespec.load_spec(name)


def test_an_int_range_beyond_64_bits_is_one_line_naming_the_field_and_the_way_out():
    game = Game("big", title="Big", players=1, source=SRC)
    with pytest.raises(SpecError) as err:
        game.field("total", range(0, 2 ** 64), source=SRC)
    message = str(err.value)
    assert "in field total: range(0, 18446744073709551616) does not fit the 64-bit ints" in message
    assert "game.at_least(lo)" in message and "\n" not in message
    with pytest.raises(SpecError, match="initial value 9223372036854775808 does not fit"):
        game.field("debt", game.at_least(0), initial=2 ** 63, source=SRC)
    assert game.field("fits", range(-2 ** 63, 2 ** 63), source=SRC) is not None


def test_an_assumed_size_is_a_shape_and_the_field_rests_on_it():
    game = Game("sized", title="Sized", players=2, source=SRC)
    size = game.assume("board_size", 5, reason="the text shows no board")
    board = game.field("board", bool, shape=(size, size - 1), source=SRC)
    assert [d.size for d in board.dims] == [5, 4]
    assert {t.name for t in board.assumed} == {"board_size"}


def _two_sided():
    game = Game("sides", title="Sides", players=1, source=SRC)
    point = game.point("side", "Which side?", source=SRC, left=SRC, right=SRC,
                       default="left", because="fixture")
    a = game.field("a", range(0, 3), source=SRC)
    b = game.field("b", range(0, 3), source=SRC)

    @game.action(text="go", source=SRC)
    def go(rule):
        with rule.when(point.is_("left"), source="rules L4: the left side"):
            rule.set(a, 1)
        with rule.otherwise(source="rules L5: else the right side"):
            rule.set(b, 1)

    game.current_player(0, source=SRC)
    game.terminal(a + b > 0, source=SRC)
    game.max_steps(1, source=SRC)
    game.score(lambda p: a, source=SRC)
    return game.build()


def test_otherwise_takes_its_own_source_and_diff_credits_it():
    spec = _two_sided()
    (go,) = spec.actions
    (branch,) = go.effects
    assert (branch.source, branch.otherwise_source) == ("rules L4: the left side",
                                                        "rules L5: else the right side")
    credited = dict(dependent_effects(go))
    assert credited["a"].source == "rules L4: the left side"
    assert credited["b"].source == "rules L5: else the right side"


def _history_game(bookkeeping: bool):
    """A reading decides what a move writes into the history; the history later decides
    whether the game may be finished. The real parting is the finish, not the history."""
    game = Game("history", title="History", players=1, source=SRC)
    record = game.point("record", "What does a move record?", source=SRC, once=SRC,
                        twice=SRC, default="once", because="fixture")
    history = game.field("history", range(0, 3), source=SRC, bookkeeping=bookkeeping)
    done = game.field("done", bool, flow=True, source=SRC)

    @game.action(text="move", source=SRC)
    def move(rule):
        rule.require(history == 0, "nothing recorded yet", source=SRC)
        rule.set(history, if_(record.is_("once"), 1, 2))

    @game.action(text="finish", source=SRC)
    def finish(rule):
        rule.require(any_of(history == 1), "the history allows it", source=SRC)
        rule.set(done, True)

    game.current_player(0, source=SRC)
    game.terminal(done, source=SRC)
    game.max_steps(2, source=SRC)
    game.score(lambda p: 0, source=SRC)
    return game.build()


@pytest.mark.parametrize("bookkeeping", [False, True])
def test_diff_looks_past_a_bookkeeping_field_to_the_real_parting(bookkeeping):
    spec = _history_game(bookkeeping)
    report = diff(rulespec.Model(spec), rulespec.Model(spec, {"record": "twice"}),
                  games=0, scenario_dir=None)
    d = report.difference
    if bookkeeping:
        assert (d.steps, d.kind) == (("move", "finish"), "legality")
        assert [r.text for r in d.refused_by] == ["the history allows it"]
    else:
        assert (d.steps, d.kind, list(d.cells)) == (("move",), "effect", ["history"])


def _no_move_game():
    from rulespec.spec import not_
    game = Game("stuck", title="Stuck", players=2, source=SRC)
    cells = game.field("cells", bool, shape=(3,), source=SRC)
    turn = game.field("turn", range(0, 2), flow=True, source=SRC)
    passes = game.field("passes", range(0, 3), flow=True, source=SRC)

    @game.action(params={"i": range(3)}, text="fill {i}", source=SRC)
    def fill(rule, i):
        rule.require(not_(cells[i]), "the cell is empty", source=SRC)
        rule.set(cells[i], True)
        rule.set(turn, 1 - turn)

    stuck = game.no_legal_move()

    @game.action(name="pass_turn", text="pass", source=SRC)
    def pass_turn(rule):
        rule.require(stuck, "you have no other move", source=SRC)
        rule.add(passes, 1)
        rule.set(turn, 1 - turn)

    game.current_player(turn, source=SRC)
    game.terminal(passes == 2, source=SRC)
    game.max_steps(5, source=SRC)
    game.score(lambda p: 0, source=SRC)
    game.shared_ties(source=SRC)
    return game, stuck


def test_the_player_to_move_has_no_legal_move_is_a_construct():
    from rulespec.ir.english import to_english
    game, stuck = _no_move_game()
    assert to_english(stuck) == "the player to move has no legal move"
    model = rulespec.Model(game.build())
    s = model.initial_state()
    assert [str(a) for a in model.legal_actions(s)] == ["fill 0", "fill 1", "fill 2"]
    for text in ["fill 0", "fill 1", "fill 2"]:
        s = model.apply(s, model.action_from_str(s, text))
    assert [str(a) for a in model.legal_actions(s)] == ["pass"]
    with pytest.raises(SpecError, match="besides= names actions declared before it"):
        game.no_legal_move(besides=["resign"])
    empty = Game("empty", title="Empty", players=1, source=SRC)
    with pytest.raises(SpecError, match="declare them first"):
        empty.no_legal_move()


def test_a_grid_draws_lines_on_its_borders():
    from rulespec.spec import not_, view
    game = Game("dots", title="Dots", players=2, source=SRC)
    across = game.field("across", bool, shape=(3, 2), source=SRC)
    down = game.field("down", bool, shape=(2, 3), source=SRC)
    turn = game.field("turn", range(0, 2), flow=True, source=SRC)

    @game.action(params={"r": range(3), "c": range(2)}, text="across {r} {c}", source=SRC)
    def draw(rule, r, c):
        rule.require(not_(across[r, c]), "the line is not drawn yet", source=SRC)
        rule.set(across[r, c], True)
        rule.set(turn, 1 - turn)

    game.current_player(turn, source=SRC)
    game.terminal(across[2, 1], source=SRC)
    game.max_steps(6, source=SRC)
    game.score(lambda p: 0, source=SRC)
    game.shared_ties(source=SRC)
    game.view(view.grid("Board", rows=2, cols=2, cell=lambda r, c: turn,
                        horizontal=lambda r, c: across[r, c],
                        vertical=lambda r, c: down[r, c], line_colour="#0072b2"))
    model = rulespec.Model(game.build())
    s = model.initial_state()
    assert model.svg(s).count("<line") == 0
    s = model.apply(s, model.action_from_str(s, "across 0 0"))
    assert model.svg(s).count('stroke="#0072b2"') == 1
    board = str(s).splitlines()
    assert board[1].strip() == "+---+   +" and board[-1].strip() == "+   +   +"
    with pytest.raises(SpecError, match="a hexagonal grid draws no border lines"):
        view.grid("Hex", rows=2, cols=2, cell=lambda r, c: turn, hexagonal=True,
                  horizontal=lambda r, c: across[r, c])


def test_a_row_spreads_riders_one_per_slot_from_the_right():
    from rulespec.spec.kit import Row
    game = Game("row", title="Row", players=1, source=SRC)
    Card = game.enum("Card", ["none", "a"], source=SRC)
    row = Row(game, "row", 4, Card, empty=Card.none, riders={"coins": 3}, source=SRC,
              initial=[Card.a] * 4)
    n = game.field("n", range(0, 10), source=SRC)
    paid = game.field("paid", bool, flow=True, source=SRC)

    @game.action(text="pay", source=SRC)
    def pay(rule):
        row.spread_riders(rule, "coins", n, from_right=True, source=SRC)
        rule.set(paid, True)

    game.current_player(0, source=SRC)
    game.terminal(paid, source=SRC)
    game.max_steps(1, source=SRC)
    game.score(lambda p: 0, source=SRC)
    model = rulespec.Model(game.build())
    import json
    for coins in range(10):
        doc = json.loads(model.initial_state().to_json())
        doc["fields"]["n"] = coins
        s = model.state_from_json(doc)
        after = model.apply(s, model.action_from_str(s, "pay"))
        # MOTU's formula: the i-th coin goes on slot ROW-1 - (i mod ROW)
        want = [sum(1 for i in range(coins) if i % 4 == 3 - k) for k in range(4)]
        assert after["row_coins"] == want, coins


def test_the_prover_handles_every_new_construct(tmp_path):
    """tests/fixtures/lang_constructs (let_, rankings, phases, the effect queue, a tie-break
    under a reading, no_legal_move): every obligation PROVED, none UNKNOWN or failing (the
    score's clauses under a let_ were once evaluated outside it)."""
    from rulespec.check.prove import prove_game
    model = rulespec.load("tests/fixtures/lang_constructs")
    results = prove_game(model, trace_dir=tmp_path)
    assert results and {r.status for r in results} == {"PROVED"}, [
        (r.property, r.status) for r in results if r.status != "PROVED"]
