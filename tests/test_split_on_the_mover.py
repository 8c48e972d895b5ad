"""An effect written as the rulebook says it, indexed by the player on turn ("take your
discard pile back into your hand"), proves step-wise because the prover splits the case on
the player to move itself (rulespec/check/steps/splits.py): the spec needs no unrolling
per player. A write to the wrong player's cell is refuted in that player's case."""

import pytest

import rulespec
from rulespec.check.results import PROVED, UNKNOWN, VIOLATED
from rulespec.check.solvers import Budget
from rulespec.check.steps import ActionProver, Lessons, Premises, goals_of, step_cases
from rulespec.check.steps import splits
from rulespec.compile import smt_terms as T
from rulespec.compile.smt_backend import compile_smt

TOY = '''
from rulespec.spec import Game, forall
from rulespec.spec.kit import Hands, Pile
SRC = "fixture"
game = Game("take_back", title="Take back", players=(2, 4), source=SRC)
Card = game.enum("Card", [f"c{i}" for i in range(12)], source=SRC)
hand = Hands(game, "hand", Card, copies=2, source=SRC)
discard = Pile(game, "discard", Card, copies=2, per_player=True, counted=True, source=SRC)
to_move = game.field("to_move", range(0, 4), flow=True, source=SRC)
moves = game.field("moves", range(0, 41), flow=True, source=SRC)
N = game.num_players


@game.action(params={"card": Card}, source=SRC)
def play(rule, card):
    rule.require(hand.has(card, of=to_move), "in hand", source=SRC)
    hand.take(rule, card, of=to_move)
    discard.put(rule, card, of=to_move)
    rule.add(moves, 1)
    rule.set(to_move, (to_move + 1) % N)


@game.action(source=SRC)
def take_back(rule):
    discard.empty_into(rule, hand, of=to_move, source=SRC)
    rule.add(moves, 1)
    rule.set(to_move, (to_move + 1) % N)


game.invariant("seated", to_move < N, source=SRC)
game.invariant("two_copies_of_each_card", forall(game.players(), lambda p: forall(
    Card, lambda c: hand.count(c, of=p) + discard.count(c, of=p) <= 2)), source=SRC)
game.current_player(to_move, source=SRC)
game.terminal(moves == 40, source=SRC)
game.max_steps(40, source=SRC)
game.score(lambda p: 0, source=SRC)
game.shared_ties(source=SRC)
SPEC = game.build()
'''

#: the same effect with a planted bug: player 1's cards go to player 0's hand
PLANTED = '''
@game.action(source=SRC)
def take_back(rule):
    with rule.for_each(Card) as c:
        rule.add(hand.cells[if_(to_move == 1, 0, to_move), c], discard.cells[to_move, c])
        rule.set(discard.cells[to_move, c], 0)
    rule.add(hand.size_field[to_move], discard.size(of=to_move))
    rule.set(discard.size_field[to_move], 0)
'''

GOALS = ("hand_size_counts_its_cards", "fields_within_bounds[hand]")


def _load(tmp_path, text):
    path = tmp_path / "take_back.py"
    path.write_text(text)
    return rulespec.load(path)


def _planted(tmp_path):
    """The toy with :data:`PLANTED`'s ``take_back`` instead of its own."""
    start = TOY.index("@game.action(source=SRC)\ndef take_back")
    end = TOY.index("game.invariant(")
    text = TOY[:start] + PLANTED.lstrip("\n") + "\n\n" + TOY[end:]
    return _load(tmp_path, text.replace("from rulespec.spec import Game, forall",
                                        "from rulespec.spec import Game, forall, if_"))


def _take_back(game, players=4, rlimit=60_000):
    """The step proof of ``take_back`` at ``players``, for the hand's goals."""
    with T.own_context():  # the same units whatever ran before in this process
        smt = compile_smt(game.spec, game.interpretation)
        a_idx = next(i for i, a in enumerate(game.spec.actions) if a.name == "take_back")
        (case,) = [f for a, f in step_cases(smt) if a == a_idx and dict(f)[0] == players]
        goals = [g for g in goals_of(smt) if g.name in GOALS]
        prover = ActionProver(game, smt, Premises(smt, dict(case)), a_idx, goals,
                              Budget(rlimit), Lessons())
        return prover, prover.run()


def test_the_take_back_proves_by_the_split_on_the_player_to_move(tmp_path, monkeypatch):
    """With the player to move open, the hand's cells are each an If over the four
    players' discard piles; at a small budget that is undecided. Split on the player to
    move, each case folds to one player's twelve cells: PROVED, within the same budget."""
    game = _load(tmp_path, TOY)
    prover, verdicts = _take_back(game)
    assert {n: v.status for n, v in verdicts.items()} == {g: PROVED for g in GOALS}
    assert prover.stats["mover"][0] > 0  # the split was made: one question per seat
    assert ("bounds", "to_move") in verdicts["hand_size_counts_its_cards"].used

    # the split on the player to move alone does it (no index cell is split)
    monkeypatch.setattr(splits, "SPLITS", (splits.ON_A_PARAMETER, splits.ON_THE_PLAYER_TO_MOVE))
    alone, verdicts = _take_back(game)
    assert {n: v.status for n, v in verdicts.items()} == {g: PROVED for g in GOALS}
    assert "cell" not in alone.stats
    # without it (nor the index cell, which can stand in for it): undecided
    monkeypatch.setattr(splits, "SPLITS", (splits.ON_A_PARAMETER,))
    _, without = _take_back(game)
    assert without["hand_size_counts_its_cards"].status == UNKNOWN


def test_a_write_to_the_wrong_players_hand_is_violated_not_proved(tmp_path):
    """Player 1's discard pile goes into player 0's hand: the hand sizes no longer count
    the cards, in player 1's case only (the counterexample has player 1 to move)."""
    game = _planted(tmp_path)
    _, verdicts = _take_back(game)
    broken = verdicts["hand_size_counts_its_cards"]
    assert broken.status == VIOLATED
    assert "to_move=1" in broken.detail


@pytest.mark.parametrize("players", [2, 3])
def test_fewer_players_prove_as_well(tmp_path, players):
    _, verdicts = _take_back(_load(tmp_path, TOY), players)
    assert {n: v.status for n, v in verdicts.items()} == {g: PROVED for g in GOALS}


def test_empty_into_moves_the_player_on_turns_pile_into_their_own_hand(tmp_path):
    """The kit's ``empty_into`` with a per-player destination, played: player 1's discard
    pile (and only it) goes into player 1's hand, sizes included."""
    import json
    game = _load(tmp_path, TOY)
    doc = json.loads(game.initial_state(3).to_json())
    f = doc["fields"]
    f["to_move"] = 1
    f["discard"][1][0], f["discard"][1][5], f["discard_size"][1] = 2, 1, 3
    f["discard"][2][0], f["discard_size"][2] = 1, 1
    f["hand"][1][5], f["hand_size"][1] = 1, 1
    state = game.state_from_json(doc)
    after = json.loads(game.apply(state, game.action_from_str(state, "take_back"))
                       .to_json())["fields"]
    assert after["hand"][1][0] == 2 and after["hand"][1][5] == 2 and after["hand_size"][1] == 4
    assert after["discard"][1] == [0] * 12 and after["discard_size"][1] == 0
    assert after["discard"][2][0] == 1 and after["discard_size"][2] == 1  # not theirs
    assert after["hand"][2] == [0] * 12 and after["hand_size"][2] == 0


def test_a_goal_broken_in_one_players_case_is_not_asked_in_the_next(tmp_path, monkeypatch):
    """Once player 1's case breaks the hand's count with every premise, the action's
    verdict is that counterexample: the cases of players 2 and 3 do not ask it again."""
    from rulespec.check.steps import tactics
    game = _planted(tmp_path)
    asked: list[tuple[dict, str]] = []
    real = tactics.try_shortcuts

    def recording(run, attempt):
        asked.append((dict(run.fixed), attempt.name))
        return real(run, attempt)

    monkeypatch.setattr(tactics, "try_shortcuts", recording)
    prover, verdicts = _take_back(game)
    broken = "hand_size_counts_its_cards"
    assert verdicts[broken].status == VIOLATED and "to_move=1" in verdicts[broken].detail
    mover = len(prover.symbolic)
    movers = [fixed.get(mover) for fixed, name in asked if name == broken]
    assert 1 in movers  # the case that breaks it asked it
    assert not {2, 3} & set(movers), movers  # the later ones did not
