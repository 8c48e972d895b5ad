"""Phases as a construct: an action's phase guard and its refusal sentence, written once."""

import pytest

import rulespec
from rulespec import IllegalAction, SpecError
from rulespec.ir.english import to_english
from rulespec.spec import Game

SRC = "fixture: a roll-and-move race"


def _race(block: bool = False):
    game = Game("phased", title="Phased", players=2, source=SRC)
    Phase = game.enum("Phase", {"roll": "the die is to be rolled", "move": "a pawn moves",
                                "over": "the race is over"}, source=SRC)
    phase = game.field("phase", Phase, flow=True, source=SRC)
    pos = game.field("pos", range(0, 7), source=SRC)
    game.phases(phase, {Phase.move: ("you have rolled", f"{SRC}: roll, then move")}, source=SRC)

    @game.action(text="roll", phase=Phase.roll, source=SRC)
    def roll(rule):
        rule.set(phase, Phase.move)

    def declare_moves():
        @game.action(text="move", phase=None if block else Phase.move, source=SRC)
        def move(rule):
            rule.require(pos < 6, "the pawn is not home", source=SRC)
            rule.add(pos, 1)
            rule.set(phase, if_six(pos))

        @game.action(text="rest", phase=(Phase.move, Phase.roll), source=SRC)
        def rest(rule):
            rule.set(phase, Phase.roll)

    def if_six(p):
        from rulespec.spec import if_
        return if_(p == 6, Phase.over, Phase.roll)

    if block:
        with game.phase(Phase.move):
            declare_moves()
    else:
        declare_moves()
    game.current_player(0, source=SRC)
    game.terminal(phase == Phase.over, source=SRC)
    game.horizon(40, reason="resting is allowed")
    game.score(lambda p: pos, source=SRC)
    game.shared_ties(source=SRC)
    return game.build()


@pytest.mark.parametrize("block", [False, True])
def test_an_action_of_a_phase_starts_with_its_guard_and_sentence(block):
    spec = _race(block)
    move = next(a for a in spec.actions if a.name == "move")
    first = move.preconditions[0]
    assert (to_english(first.cond), first.text, first.source) == (
        "phase = move", "you have rolled", f"{SRC}: roll, then move")
    assert [p.text for p in move.preconditions] == ["you have rolled", "the pawn is not home"]
    roll = next(a for a in spec.actions if a.name == "roll")
    assert (roll.preconditions[0].text, roll.preconditions[0].source) == (
        "the die is to be rolled", SRC)  # the enum's description, the declaration's source


def test_an_action_of_several_phases_says_each():
    rest = next(a for a in _race().actions if a.name == "rest")
    (guard,) = rest.preconditions
    assert guard.text == "you have rolled or the die is to be rolled"
    assert to_english(guard.cond) == "phase is one of move, roll"
    assert guard.source == f"{SRC}: roll, then move; {SRC}"


def test_an_action_outside_its_phase_is_refused_with_the_sentence():
    model = rulespec.Model(_race())
    start = model.initial_state()
    assert [str(a) for a in model.legal_actions(start)] == ["roll", "rest"]
    with pytest.raises(IllegalAction, match="move requires: you have rolled — but phase is "
                                            r"roll \[fixture: a roll-and-move race: roll, then "
                                            r"move\]"):
        model.apply(start, model.action_from_str(start, "move"))
    rolled = model.apply(start, model.action_from_str(start, "roll"))
    assert [str(a) for a in model.legal_actions(rolled)] == ["move", "rest"]


def test_an_explicit_phase_wins_over_the_block():
    game = Game("over", title="o", players=1, source=SRC)
    Phase = game.enum("Phase", ["a", "b"], source=SRC)
    phase = game.field("phase", Phase, flow=True, source=SRC)
    game.phases(phase, source=SRC)
    with game.phase(Phase.a):
        @game.action(text="go", phase=Phase.b, source=SRC)
        def go(rule):
            rule.set(phase, Phase.a)
    assert to_english(game.actions[0].preconditions[0].cond) == "phase = b"
    with pytest.raises(SpecError, match="do not nest"):
        with game.phase(Phase.a), game.phase(Phase.b):
            pass


def test_crazy_eights_writes_no_phase_guard_by_hand():
    spec = rulespec.load_spec("crazy_eights")
    for action in spec.actions:
        guards = [p for p in action.preconditions if "phase" in to_english(p.cond)]
        assert len(guards) == 1 and guards[0] is action.preconditions[0], action.name
    play = next(a for a in spec.actions if a.name == "play")
    assert play.preconditions[0].text == "it is your turn"
