"""The English printer on the bundled games' own rules and on what a newcomer writes: the
spec's names, lookups by name and by parts, constants folded, unrolled loops said once,
and nothing said that the rule does not say."""

from __future__ import annotations

import rulespec
from rulespec.ir.english import statements_to_english, to_english
from rulespec.ir.nodes import INT, Dim, Expr, Field, if_, lift
from rulespec.ir.statements import Assign, If


def _pre(game: str, action: str, text: str) -> str:
    a = rulespec.load_spec(game).action(action)
    (pre,) = [p for p in a.preconditions if p.text == text]
    return to_english(pre.cond)


def test_hawaii_reads_a_token_by_its_value_and_mark():
    assert _pre("hawaii", "draw_token", "the token is still in the bag") == "bag[price/mark] ≥ 1"
    assert _pre("hawaii", "buy_shell_hut", "a price token of this value lies on the place") \
        == "area_tok[cottages_1, price/plain] + area_tok[cottages_1, price/spear] ≥ 1"


def test_hawaii_says_lets_tables_and_loops_by_the_specs_names():
    a = rulespec.load_spec("hawaii").action("draw_token")
    lines = statements_to_english(a.effects)
    assert "  let place be deal_order[deal_step]" in lines
    assert "  if sum + price ≤ cap[place] - (1 if under price_cap=below, else 0):" in lines
    assert "  for each TokenCode:" in lines and "    set bag[TokenCode] to 0" in lines


def test_aquatica_reads_a_table_of_rows_by_name():
    assert _pre("aquatica", "exploit", "the top depth is not empty") == (
        "icon_at_depth[board[to_move, slot], depth[to_move, slot]] ≠ empty"
        " or under empty_depth=slide_past")


def test_a_newcomers_unrolled_rules_fold_and_collapse():
    cells = Field("cells", INT, 0, 9, (Dim(3),), 0, None, None)
    seen = Field("seen", INT, -1, 99, (Dim(100),), 0, None, None)
    k = Expr("param", ("k", None), INT)
    total = lift(0)
    for i in range(3):  # a Python loop over known cells: `if true` and `if false` terms
        total = total + if_(lift(i == 1), cells[i], 0)
    assert to_english(total + k) == "cells[1] + k"
    lines = statements_to_english([Assign(seen[j], lift(-1)) for j in range(100)])
    assert lines == ["set seen[k] to -1, for each k from 0 to 99"]
    assert statements_to_english([If(lift(True), (Assign(seen[0], k),), ())]) == [
        "set seen[0] to k"]


def test_constants_that_do_not_count_up_are_said_one_by_one():
    seen = Field("seen", INT, -1, 99, (Dim(100),), 0, None, None)
    cost = [1, 2, 2, 3]  # not a run: the last three do not rise by one each
    lines = statements_to_english([Assign(seen[j], lift(c)) for j, c in enumerate(cost)])
    assert lines == ["set seen[0] to 1", "set seen[1] to 2", "set seen[2] to 2",
                     "set seen[3] to 3"]
    rising = statements_to_english([Assign(seen[j], lift(j + 5)) for j in range(4)])
    assert rising == ["set seen[k] to k + 5, for each k from 0 to 3"]
