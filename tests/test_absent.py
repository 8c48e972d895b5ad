"""A table's member with no value (``Absent``): an empty slot, a card that is no card.

Reading it is a rule error, on every backend and for the prover, and ``mutate`` has no value
there to change. The planted toy: a slot that holds no card until the player takes one and
wins its points, and a score that reads the card's points once one is taken (``slot !=
none``): the rules never read the absent entry and ``prove`` proves it. The planted bug drops
the precondition that a card is taken: "take none" reads the points of no card, and
``check``, the native backend and ``prove`` each find the read."""

import pytest

import rulespec
from rulespec.check.mutate.operators import MINUS_ONE, PLUS_ONE, mutants
from rulespec.check.prove import prove
from rulespec.check.results import PASSED, PROVED, SKIPPED, VIOLATED
from rulespec.check.runner import check_game
from rulespec.spec import SpecError

SLOT = '''
from rulespec.spec import Absent, Game, if_

SRC = "test: a slot and the card taken into it"
game = Game("slot", title="Slot", players=(1, 1), source=SRC)
Card = game.enum("Card", {{"none": "no card", "fish": "a fish", "boat": "a boat"}}, source=SRC)
POINTS = game.table("points", {{Card.none: Absent("an empty slot shows no card"),
                                Card.fish: 2, Card.boat: 5}}, source=SRC)
slot = game.field("slot", Card, initial=Card.none, source=SRC, doc="the card taken")
won = game.field("won", range(0, 6), source=SRC, doc="the points of the card taken")


@game.action(text="take {{card}}", params={{"card": Card}}, source=SRC)
def take(rule, card):
    """Take a card into the empty slot and win its points."""
    rule.require(slot == Card.none, "the slot is empty", source=SRC)
    {a_card}
    rule.set(slot, card)
    rule.set(won, POINTS[card])


game.current_player(0, source=SRC)
game.terminal(slot != Card.none, source=SRC)
game.max_steps(1, source=SRC)
game.score(lambda p: if_(slot != Card.none, POINTS[slot], 0), source=SRC)
SPEC = game.build()
'''
GUARDED = 'rule.require(card != Card.none, "a card", source=SRC)'
UNGUARDED = "pass"   # the planted bug: "take none" is legal, and reads the points of no card


def _load(tmp_path, a_card):
    path = tmp_path / "slot.py"
    path.write_text(SLOT.format(a_card=a_card))
    return rulespec.load(str(path))


def _errors(results):
    """``check``'s rule-error results (it gives one only when a rule raised)."""
    return [r for r in results if r.property == "rules_evaluate_without_error"]


def test_a_guarded_read_is_proved_never_to_reach_the_absent_member(tmp_path, monkeypatch):
    monkeypatch.setenv("RULESPEC_STORE", "off")
    model = _load(tmp_path, GUARDED)
    results = check_game(model, examples=30, trace_dir=tmp_path)
    assert _errors(results) == [] and {r.status for r in results} <= {PASSED, SKIPPED}
    run = prove(model, rlimit=5_000_000, trace_dir=tmp_path)
    assert {r.status for r in run.results if r.property == "rules_evaluate_without_error"} \
        == {PROVED}
    start = model.initial_state(1)
    assert model.scores(model.apply(start, model.action_from_str(start, "take boat"))) == [5]


def test_an_unguarded_read_is_a_rule_error_for_check_and_prove(tmp_path, monkeypatch):
    monkeypatch.setenv("RULESPEC_STORE", "off")
    model = _load(tmp_path, UNGUARDED)
    (found,) = _errors(check_game(model, examples=30, trace_dir=tmp_path))
    assert found.status == VIOLATED
    assert "table points has no value for none (an empty slot shows no card)" in found.detail
    run = prove(model, rlimit=5_000_000, trace_dir=tmp_path)
    assert VIOLATED in {r.status for r in run.results
                        if r.property == "rules_evaluate_without_error"}


def test_the_native_backend_raises_where_python_does(tmp_path):
    pytest.importorskip("cffi")
    from rulespec.compile.native import build
    if build.compiler() is None:
        pytest.skip("no C compiler")
    model = rulespec.load(str(_write(tmp_path, UNGUARDED)), backend="c")
    start = model.initial_state(1)
    with pytest.raises(Exception, match="table points has no value for none"):
        model.apply(start, model.action_from_str(start, "take none"))
    good = rulespec.load(str(_write(tmp_path, GUARDED, "good.py")), backend="c")
    start = good.initial_state(1)
    assert good.scores(good.apply(start, good.action_from_str(start, "take fish"))) == [2]


def _write(tmp_path, a_card, name="slot.py"):
    path = tmp_path / name
    path.write_text(SLOT.format(a_card=a_card))
    return path


def test_mutate_has_no_value_to_change_where_there_is_none(tmp_path):
    model = _load(tmp_path, GUARDED)
    names = {m.id for m in mutants(model.spec, [PLUS_ONE, MINUS_ONE])}
    assert {f"{PLUS_ONE}@points[fish]", f"{MINUS_ONE}@points[boat]"} <= names
    assert not any("points[none]" in n for n in names)


def test_the_spec_may_not_read_an_absent_member_by_name(tmp_path):
    with pytest.raises(SpecError, match="points has no value for none .*may not read it"):
        _load(tmp_path, "rule.set(won, POINTS[Card.none])")
    spec = (tmp_path / "unsaid.py")
    spec.write_text(SLOT.format(a_card=GUARDED).replace('Absent("an empty slot shows no card")',
                                                        'Absent("")'))
    with pytest.raises(SpecError, match="unsaid.py:.*table points.*says why"):
        rulespec.load(str(spec))
