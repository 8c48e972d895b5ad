"""Seat lemmas (rulespec/check/seats.py): the prover states "the player to move is below
the number of players" itself, so that a spec needs no such proof aid (issue 28).

The toy: a turn counter declared for four seats scores a point for the player to move.
"The points are the turns played" is true in every game, but not inductive alone: from
``to_move = 3`` with two players the point goes to a seat nobody sits at."""

import pytest

import rulespec
from rulespec.check import prove as prove_module
from rulespec.check.infer import INFERRED, Candidate
from rulespec.check.prove import prove
from rulespec.check.results import PROVED, UNKNOWN
from rulespec.check.seats import seat_indices, seat_lemmas
from rulespec.ir.nodes import lift

TOY = '''
from rulespec.spec import PLAYERS, Game, if_, sum_of
SRC = "fixture"
game = Game("seats", title="Seats", players=(2, 4), source=SRC)
to_move = game.field("to_move", range(0, 4), flow=True, source=SRC)
turns = game.field("turns", range(0, 13), flow=True, source=SRC)
points = game.field("points", range(0, 13), shape=(PLAYERS,), source=SRC)
N = game.num_players


@game.action(source=SRC)
def play(rule):
    rule.require(turns < 12, "the game lasts twelve turns", source=SRC)
    rule.add(points[to_move], 1)
    rule.add(turns, 1)
    rule.set(to_move, {next_seat})


game.invariant("the_points_are_the_turns_played",
               sum_of(game.players(), lambda p: points[p]) == turns, source=SRC)
{extra}
game.current_player(to_move, source=SRC)
game.terminal(turns == 12, source=SRC)
game.max_steps(12, source=SRC)
game.score(lambda p: points[p], source=SRC)
game.shared_ties(source=SRC)
SPEC = game.build()
'''
LEMMA = "inferred: to_move < the number of players"
GOAL = "the_points_are_the_turns_played"
RLIMIT = 10_000_000


def _load(tmp_path, monkeypatch, extra="", next_seat="(to_move + 1) % N"):
    monkeypatch.setenv("RULESPEC_STORE", "off")
    path = tmp_path / "seats.py"
    path.write_text(TOY.format(extra=extra, next_seat=next_seat))
    return rulespec.load(str(path))


def _status(run, name):
    """The goal's verdicts, one per checker that answered it (base case, step, ...)."""
    return {r.status for r in run.results if r.property == name}


def test_the_prover_states_the_seat_lemma_and_proves_the_goal_with_it(tmp_path, monkeypatch):
    game = _load(tmp_path, monkeypatch)
    assert [f.name for f in seat_indices(game)] == ["to_move"]
    run = prove(game, rlimit=RLIMIT, depth=0)
    assert _status(run, GOAL) == {PROVED}
    assert _status(run, LEMMA) == {PROVED}
    assert [lemma.name for lemma in run.lemmas] == [LEMMA]
    lemma = next(r for r in run.results if r.property == LEMMA)
    assert lemma.evidence["provenance"] == INFERRED
    # without inference the goal's step proof fails from the seat nobody sits at
    assert UNKNOWN in _status(prove(game, rlimit=RLIMIT, depth=0, infer=False), GOAL)


def test_no_seat_lemma_where_the_spec_states_it(tmp_path, monkeypatch):
    game = _load(tmp_path, monkeypatch, extra='game.invariant("seated", to_move < N, '
                                              'source=SRC)')
    assert seat_lemmas(game) == []
    run = prove(game, rlimit=RLIMIT, depth=0)
    assert _status(run, GOAL) == {PROVED} and run.lemmas == ()


def test_no_seat_lemma_where_play_reaches_the_number_of_players(tmp_path, monkeypatch):
    """A counter that rests on the number of players once the round is over is not a seat
    in every state: play shows it, and no lemma is proposed."""
    game = _load(tmp_path, monkeypatch, next_seat="if_(to_move + 1 < N, to_move + 1, "
                                                  "if_(turns < 11, 0, N))")
    assert [f.name for f in seat_indices(game)] == ["to_move"]
    assert seat_lemmas(game) == []


def test_a_seat_lemma_that_is_not_proved_is_left_out(tmp_path, monkeypatch):
    """A lemma play kept but the proof does not (planted: "to_move < 1"): the goals are
    proved again without it, as if it had not been tried, and both runs are counted."""
    game = _load(tmp_path, monkeypatch)
    wrong = Candidate(lift(game.spec.field("to_move")) < 1, lambda v: True)
    monkeypatch.setattr(prove_module, "seat_lemmas", lambda model: [wrong])
    run = prove(game, rlimit=RLIMIT, depth=0, infer=True)
    monkeypatch.setattr(prove_module, "seat_lemmas", lambda model: [])
    plain = prove(game, rlimit=RLIMIT, depth=0, infer=True)
    assert [x.name for x in run.lemmas] == [x.name for x in plain.lemmas]
    assert not any(r.property.startswith("inferred: to_move < 1") for r in run.results)
    assert [(r.property, r.status) for r in run.results] == [
        (r.property, r.status) for r in plain.results]
    assert run.rlimit > plain.rlimit


@pytest.mark.parametrize("game", ["hawaii", "motu"])
def test_the_bundled_games_state_no_seat_fact_the_prover_finds(game):
    """Their turn counters' "is a seated player" is the prover's now, not the spec's."""
    model = rulespec.load(game)
    assert {c.text for c in seat_lemmas(model)} == {
        "hawaii": {"turn_pos < the number of players"},
        "motu": {"to_move < the number of players", "dealt < the number of players",
                 "scorer < the number of players"}}[game]
