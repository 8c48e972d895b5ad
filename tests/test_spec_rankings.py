"""Rankings: most / fewest (ties included or alone), how many share the most, a player's
place, the highest and lowest value, over players or a list of seats, with ``among``;
checked against a plain Python ranking on every value vector of a small range."""

import itertools

import pytest

import rulespec
from rulespec.ir.english import to_english
from rulespec.spec import (PLAYERS, Game, count_most, exists, fewest, highest, if_, lowest,
                           most, rank, to_int)

SRC = "fixture: rankings"
N = 3


def _measure(build):
    """A game whose score of player p is ``build(vals, ok, p, game)``; vals and ok per seat."""
    game = Game("ranked", title="Ranked", players=(2, 4), source=SRC)
    vals = game.field("vals", range(0, 4), shape=(PLAYERS,), source=SRC)
    ok = game.field("ok", bool, shape=(PLAYERS,), source=SRC)

    @game.action(text="end", source=SRC)
    def end(rule):
        rule.set(ok[0], ok[0])

    game.current_player(0, source=SRC)
    game.terminal(vals[0] > 9, source=SRC)
    game.max_steps(1, source=SRC)
    game.score(lambda p: build(vals, ok, p, game), source=SRC)
    game.shared_ties(source=SRC)
    return rulespec.Model(game.build())


def _scores(model, values, oks):
    """The scores with ``len(values)`` players holding ``values`` (the other seats empty)."""
    pad = 4 - len(values)
    state = model.state_from_json({"game": "ranked", "fields": {
        "num_players": len(values), "vals": [*values, *[0] * pad],
        "ok": [*oks, *[False] * pad]}})
    return model.scores(state)


def _cases():
    return [(v, o) for v in itertools.product(range(4), repeat=N)
            for o in itertools.product([False, True], repeat=N)]


def _plain(values, oks, p, what):
    """The same rankings in plain Python."""
    seats = [q for q in range(N) if oks[q]]
    mine, rest = values[p], [values[q] for q in seats if q != p]
    return {
        "most": int(oks[p] and all(mine >= v for v in rest)),
        "most_alone": int(oks[p] and all(mine > v for v in rest)),
        "fewest": int(oks[p] and all(mine <= v for v in rest)),
        "count_most": sum(1 for q in seats if all(values[q] >= values[r] for r in seats)),
        "rank": 1 + sum(1 for q in seats if values[q] > mine),
        "highest": max((values[q] for q in seats), default=-1),
        "lowest": min((values[q] for q in seats), default=-1),
    }[what]


BUILDS = {
    "most": lambda v, ok, p, g: to_int(most(v, of=p, among=lambda q: ok[q])),
    "most_alone": lambda v, ok, p, g: to_int(most(lambda q: v[q], of=p, among=lambda q: ok[q],
                                                  ties=False)),
    "fewest": lambda v, ok, p, g: to_int(fewest(v, of=p, among=lambda q: ok[q])),
    "count_most": lambda v, ok, p, g: count_most(v, over=g.players(), among=lambda q: ok[q]),
    "rank": lambda v, ok, p, g: rank(v, of=p, among=lambda q: ok[q]),
    "highest": lambda v, ok, p, g: highest(v, over=g.players(), among=lambda q: ok[q], none=-1),
    "lowest": lambda v, ok, p, g: lowest(v, over=g.players(), among=lambda q: ok[q], none=-1),
}


@pytest.mark.parametrize("what", sorted(BUILDS))
def test_a_ranking_over_players_agrees_with_plain_python(what):
    model = _measure(BUILDS[what])
    for values, oks in _cases():
        got = _scores(model, values, oks)
        want = [_plain(values, oks, p, what) for p in range(N)]
        assert got == want, (values, oks)


def test_the_rankings_read_as_the_rulebook_says_them():
    game = Game("read", title="Read", players=(2, 4), source=SRC)
    beach = game.field("beach", range(0, 9), shape=(PLAYERS,), source=SRC)
    assert to_english(exists(game.players(), lambda p: most(beach, of=p))) == (
        "for some player p: beach[p] is the most of any player's, ties included")
    assert to_english(exists(game.players(), lambda p: rank(beach, of=p) == 2)) == (
        "for some player p: the place of beach[p] (1: the most) = 2")


def test_a_list_of_seats_ranks_like_players():
    """Hawaii's round goals rank seats 0..4 by a list of totals, among those who met it."""
    def build(vals, ok, p, game):
        seats, met = [vals[k] for k in range(4)], [ok[k] for k in range(4)]
        places = [rank(seats, of=k, among=met) for k in range(4)]
        leaders = [most(seats, of=k, among=met) for k in range(4)]
        tied = count_most(seats, over=None, among=met)
        top = highest(seats, over=None, among=met, none=-1)
        return (sum(if_(p == k, places[k] * 1000 + to_int(leaders[k]) * 100, 0)
                    for k in range(4)) + tied * 10 + if_(top < 0, 9, top))

    model = _measure(build)
    for values in itertools.product(range(3), repeat=4):
        for oks in itertools.product([False, True], repeat=4):
            seats_in = [q for q in range(4) if oks[q]]
            tied_n = sum(1 for q in seats_in if all(values[q] >= values[r] for r in seats_in))
            top_v = max((values[q] for q in seats_in), default=9)
            want = [(1 + sum(1 for q in seats_in if values[q] > values[p])) * 1000
                    + 100 * int(oks[p] and all(values[p] >= values[q] for q in seats_in))
                    + tied_n * 10 + top_v for p in range(4)]
            assert _scores(model, values, oks) == want, (values, oks)


def test_a_reading_chooses_the_direction_of_a_tie_break():
    """Aquatica's King tie-break: with Kings the lower seat wins, without the last seat."""
    game = Game("kings", title="Kings", players=(2, 3), source=SRC)
    kings = game.point("kings", "Are the Kings dealt?", source=SRC, dealt=SRC, none=SRC,
                       default="dealt", because="fixture")
    done = game.field("done", bool, source=SRC)

    @game.action(text="end", source=SRC)
    def end(rule):
        rule.set(done, True)

    game.current_player(0, source=SRC)
    game.terminal(done, source=SRC)
    game.max_steps(1, source=SRC)
    game.score(lambda p: 0, source=SRC)
    game.tie_break(lambda p: p, lower_wins=True, when=kings.is_("dealt"), source=SRC)
    game.tie_break(lambda p: p, when=kings.is_("none"), source=SRC)
    spec = game.build()
    for reading, winner in (("dealt", [0]), ("none", [2])):
        model = rulespec.Model(spec, {"kings": reading})
        s = model.initial_state(3)
        s = model.apply(s, model.action_from_str(s, "end"))
        assert model.winners(s) == winner
