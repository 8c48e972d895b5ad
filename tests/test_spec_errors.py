"""A malformed spec fails at load with one message naming file, line and element."""

import textwrap

import pytest

import rulespec
from rulespec import SpecError

HEADER = '''
from rulespec.spec import Game, all_of, if_
SRC = "fixture"
game = Game("broken", title="Broken", players=2, source=SRC)
Mark = game.enum("Mark", ["empty", "x"], source=SRC)
board = game.field("board", Mark, shape=(3,), initial=Mark.empty, source=SRC)
turn = game.field("turn", range(0, 2), source=SRC)
'''
FOOTER = '''
game.current_player(turn, source=SRC)
game.terminal(turn == 1, source=SRC)
game.max_steps(3, source=SRC)
game.score(lambda p: 0, source=SRC)
SPEC = game.build()
'''
GOOD_ACTION = '''
@game.action(params={"i": range(3)}, source=SRC)
def put(rule, i):
    rule.require(board[i] == Mark.empty, "empty", source=SRC)
    rule.set(board[i], Mark.x)
'''

CASES = {
    "missing_source": ('count = game.field("count", range(0, 3), source="")\n' + GOOD_ACTION,
                       "in field count: missing source"),
    "unknown_enum_member": (GOOD_ACTION.replace("Mark.x)", "Mark.q)"),
                            "unknown member 'q' of enum Mark"),
    "type_error": (GOOD_ACTION.replace("Mark.empty,", "1,"), "cannot compare Mark with int"),
    "unbounded_field": ('count = game.field("count", int, source=SRC)\n' + GOOD_ACTION,
                        "unbounded ints are not allowed"),
    "unbounded_param": (GOOD_ACTION.replace("range(3)", "int"), "not a finite domain"),
    "python_name_error": (GOOD_ACTION.replace("Mark.x)", "Marc.x)"), "NameError"),
    "python_and_on_rules": (GOOD_ACTION.replace(
        "board[i] == Mark.empty,", "(board[i] == Mark.empty) and (i == 1),"), "use all_of"),
    "set_wrong_type": (GOOD_ACTION.replace("rule.set(board[i], Mark.x)", "rule.set(turn, Mark.x)"),
                       "cannot set turn (int) to a Mark"),
    "duplicate_name": ('turn2 = game.field("turn", range(0, 2), source=SRC)\n' + GOOD_ACTION,
                       "name 'turn' already used"),
    "initial_out_of_range": ('c = game.field("c", range(0, 3), initial=7, source=SRC)\n'
                             + GOOD_ACTION, "initial value 7 is outside 0..2"),
    "foreign_field": ('other = Game("o", title="o", players=2, source=SRC)\n'
                      'alien = other.field("alien", bool, source=SRC)\n'
                      + GOOD_ACTION.replace("rule.set(board[i], Mark.x)",
                                            "rule.set(alien, True)"),
                      "unknown field 'alien'"),
    "table_missing_member": ('cost = game.table("cost", {Mark.empty: 1}, source=SRC)\n'
                             + GOOD_ACTION, "in table cost: no value for x"),
    "table_indexed_by_an_int": ('cost = game.table("cost", {Mark.empty: 1, Mark.x: 2}, '
                                'source=SRC)\nbad = cost[turn]\n' + GOOD_ACTION,
                                "table cost is indexed by a Mark, got int"),
    "owner_field_without_players": ('h = game.field("h", bool, shape=(3,), visible="owner", '
                                    'source=SRC)\n' + GOOD_ACTION, "needs PLAYERS"),
    "horizon_and_max_steps": ('game.horizon(5, reason="no rule ends it")\n' + GOOD_ACTION,
                              "max_steps (the rules bound the game) or a horizon"),
    "horizon_without_reason": ('game.horizon(5, reason=" ")\n' + GOOD_ACTION,
                               "horizon needs a positive int and a reason"),
    "let_without_a_name": (GOOD_ACTION.replace("rule.set(board[i], Mark.x)",
                                               "t = rule.let(turn + 1)\n    rule.set(turn, t)"),
                           "in action put: rule.let needs a name"),
    # the constructs of issue 27: each misuse is one line at the line that misuses it
    "citation_parts": ('book = game.text("seed.txt", cite="§{} L{}")\n'
                       'where = book.at("only one part")\n' + GOOD_ACTION,
                       "in text seed.txt: at() takes the place (2 part(s)"),
    "citation_template": ('book = game.text("seed.txt", cite="L{line}")\n' + GOOD_ACTION,
                          "cite= is a template with one {} per part"),
    "point_without_because": ('pt = game.point("pt", "Which?", source=SRC, a=SRC, b=SRC, '
                              'default="a", because=" ")\n' + GOOD_ACTION,
                              "in interpretation pt: a point says why its default"),
    "point_unknown_default": ('pt = game.point("pt", "Which?", source=SRC, a=SRC, b=SRC, '
                              'default="c", because="r")\n' + GOOD_ACTION,
                              "default 'c' is not one of the options"),
    "phase_without_phases": (GOOD_ACTION.replace("source=SRC)\ndef", "source=SRC, "
                                                 "phase=Mark.x)\ndef"),
                             "in action put: phase= needs the phases declared first"),
    "phase_not_a_member": ('ph = game.field("ph", Mark, source=SRC)\n'
                           'game.phases(ph, source=SRC)\n'
                           + GOOD_ACTION.replace("source=SRC)\ndef", "source=SRC, "
                                                 "phase=turn)\ndef"),
                           "is not a phase: use a member of Mark"),
    "phases_on_an_int_field": ('game.phases(turn, source=SRC)\n' + GOOD_ACTION,
                               "phases() takes the phase field"),
    "ranking_without_players": ('from rulespec.spec import most\n'
                                'leads = most(lambda q: turn, of=turn)\n' + GOOD_ACTION,
                                "of= is not a player variable"),
    "tie_break_reading_as_lower_wins": ('game.tie_break(lambda p: p, lower_wins=turn == 1, '
                                        'source=SRC)\n' + GOOD_ACTION,
                                        "lower_wins is True or False"),
    "effects_without_possible": ('from rulespec.spec.kit import Effects\n'
                                 'fx = Effects(game, "fx", Mark, order="printed", source=SRC)\n'
                                 + GOOD_ACTION.replace("    rule.set(board[i], Mark.x)",
                                                       "    fx.carry_out(rule, Mark.x)"),
                                 "say when each effect can be carried out first"),
    "effects_possible_incomplete": ('from rulespec.spec.kit import Effects\n'
                                    'fx = Effects(game, "fx", Mark, order="any", source=SRC)\n'
                                    'fx.possible_when({Mark.x: True})\n' + GOOD_ACTION,
                                    "possible_when() says nothing of empty"),
}

#: where each case above goes wrong: its error names this line
MARKERS = {"citation_parts": "book.at(", "citation_template": "L{line}",
           "point_without_because": "game.point(", "point_unknown_default": "game.point(",
           "phase_without_phases": "phase=Mark.x", "phase_not_a_member": "phase=turn",
           "phases_on_an_int_field": "game.phases(", "ranking_without_players": "most(",
           "tie_break_reading_as_lower_wins": "game.tie_break(",
           "effects_without_possible": "fx.carry_out(",
           "effects_possible_incomplete": "fx.possible_when("}


def _line_of(text: str, needle: str) -> int:
    for n, line in enumerate(text.splitlines(), 1):
        if needle in line:
            return n
    raise AssertionError(needle)


@pytest.mark.parametrize("case", sorted(CASES))
def test_broken_spec_names_file_line_and_problem(case, tmp_path):
    body, expected = CASES[case]
    text = HEADER + textwrap.dedent(body) + FOOTER
    path = tmp_path / f"{case}.py"
    path.write_text(text)
    with pytest.raises(SpecError) as err:
        rulespec.load(path)
    message = str(err.value)
    assert expected in message
    assert f"{case}.py:" in message
    assert "\n" not in message
    assert err.value.where is not None and err.value.where.line > 0


def _error_line(tmp_path, case: str, marker: str) -> tuple[int, int]:
    """The line a case's SpecError points at, and the line of ``marker`` in its text."""
    body, _ = CASES[case]
    text = HEADER + body + FOOTER
    path = tmp_path / f"{case}.py"
    path.write_text(text)
    with pytest.raises(SpecError) as err:
        rulespec.load(path)
    return err.value.where.line, _line_of(text, marker)


def test_error_points_at_the_offending_line(tmp_path):
    got, want = _error_line(tmp_path, "unknown_enum_member", "Mark.q")
    assert got == want


def test_spec_module_without_SPEC_is_an_error(tmp_path):
    path = tmp_path / "nospec.py"
    path.write_text("x = 1\n")
    with pytest.raises(SpecError, match="SPEC = game.build"):
        rulespec.load(path)


def test_a_game_without_flow_rules_is_an_error(tmp_path):
    path = tmp_path / "noflow.py"
    path.write_text(HEADER + GOOD_ACTION + "SPEC = game.build()\n")
    with pytest.raises(SpecError, match="does not declare: current_player, terminal, score"):
        rulespec.load(path)


def test_an_uncapped_count_is_bounded_below_only():
    from rulespec.spec import Game
    src = "fixture"
    game = Game("counting", title="counting", players=2, source=src)
    with pytest.raises(SpecError, match=r"outside 0\.\."):
        game.field("debt", game.at_least(0), initial=-1, source=src)
    f = game.field("points", game.at_least(0), source=src)
    assert (f.args[0].lo, f.args[0].hi) == (0, None)


def test_a_let_without_a_name_points_at_its_line(tmp_path):
    got, want = _error_line(tmp_path, "let_without_a_name", "rule.let(turn + 1)")
    assert got == want


@pytest.mark.parametrize("case", sorted(MARKERS))
def test_a_misused_construct_points_at_its_line(case, tmp_path):
    got, want = _error_line(tmp_path, case, MARKERS[case])
    assert got == want
