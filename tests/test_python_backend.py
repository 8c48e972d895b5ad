"""The Python backend's fast code (folded constants, hoisted subexpressions, shared ones in a
group of enumerators, filtered loops, one fused legality check per action) against the plain
code it is derived from, and the Model API that uses it: same results, same order."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from typing import Any

import pytest

import rulespec
from rulespec import CHANCE, IllegalAction
from rulespec.runtime.model import Model, State
from rulespec.runtime.play import play_random, seeded_chooser
from rulespec.spec import Game, any_of

SRC = "rulespec test suite: the Python backend's fast code"


def _same(a: Any, b: Any) -> bool:
    """Equal, and bools where the other has bools (the backends' results keep their type)."""
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    return a == b and isinstance(a, bool) == isinstance(b, bool)


def _played_states(game: Model, players: int, seed: int, every: int) -> list[State]:
    rng = random.Random(seed)
    choose = seeded_chooser(game, rng)
    s = game.initial_state(players)
    out = [s]
    while not game.is_terminal(s) and len(out) < 1_000:
        legal = game.legal_actions(s)
        s = game.apply(s, legal[choose(s, legal)])
        out.append(s)
    return out[::every] + [out[-1]]


def _instances(game: Model, values: tuple, rng: random.Random, limit: int) -> list[tuple]:
    """Every action key in its parameters' domains, or ``limit`` of them drawn at random."""
    keys = [(i, *combo) for i, a in enumerate(game.spec.actions)
            for combo in itertools.product(*(range(p.domain.lo, p.domain.max_hi)
                                             for p in a.params))]
    return keys if len(keys) <= limit else rng.sample(keys, limit)


@pytest.mark.parametrize("name, players, every, limit", [
    ("tic_tac_toe", 2, 1, 10_000), ("connect_four", 2, 3, 10_000), ("hawaii", 4, 12, 300),
    ("crazy_eights", 5, 10, 300), ("hex", 2, 2, 10_000), ("motu", 3, 9, 200)])
def test_fast_code_gives_what_the_plain_code_gives(name, players, every, limit):
    game = rulespec.load(name)
    c = game.compiled
    rng = random.Random(1)
    checked = refused = 0
    for state in _played_states(game, players, seed=3, every=every):
        v = state.values
        legal = c.legal(v)
        assert _same(legal, c.plain("legal")(v))           # the same actions, same order
        assert _same(c.chance_weights(v), c.plain("chance_weights")(v))
        assert _same(c.scores(v), c.plain("scores")(v))
        for k, fn in enumerate(c.invariants):
            assert _same(fn(v), c.plain(f"inv_{k}")(v))
        for k, fn in enumerate(c.conserved):
            assert _same(fn(v), c.plain(f"cons_{k}")(v))
        legal_keys = set(legal)
        for key in set(_instances(game, v, rng, limit)) | legal_keys:
            after = c.step[key[0]](v, key)
            why = game.why_illegal(state, game._action(key))
            # the fused check refuses exactly what why_illegal explains ...
            assert (after is None) == bool(why), (key, why)
            assert (key in legal_keys) == (not why), key
            if after is not None:  # ... and a step is the plain effect
                assert after == c.apply[key[0]](v, *key[1:])
                checked += 1
            else:
                refused += 1
    assert checked and refused


# --- a small game whose hoisted code raises where the plain code does not --------------
def _fragile_game() -> Model:
    game = Game("fragile", title="fragile", players=2, source=SRC)
    x = game.field("x", range(0, 4), initial=0, source=SRC)
    arr = game.field("arr", range(0, 3), shape=(4,), initial=0, source=SRC)

    @game.action(params={"i": range(9), "j": range(9)}, source=SRC)
    def pick(rule, i, j):
        """81 instances: loops, not unrolled; arr[x] only read when j >= 9 (never)."""
        rule.require(any_of(j < 9, arr[x] + arr[x] == 2), "j is small or arr[x] is 1",
                     source=SRC)
        rule.set(x, 0)

    game.current_player(x % 2, source=SRC)
    game.terminal(x == 3, source=SRC)
    game.max_steps(3, source=SRC)
    game.score(lambda p: arr[x] + arr[x], source=SRC)
    game.invariant("x_is_natural_or_arr_x_is_even", any_of(x >= 0, (arr[x] + arr[x]) % 2 == 0),
                   source=SRC)
    return Model(game.build())


def test_hoisted_code_that_raises_falls_back_to_the_plain_code():
    game = _fragile_game()
    c = game.compiled
    bad = State((2, 50, 0, 0, 0, 0), game)   # x = 50: arr[x] reads past the end of the state
    # The plain code never reads arr[x] here (a guard before it decides) ...
    assert len(c.plain("legal")(bad.values)) == 81
    assert c.plain("inv_0")(bad.values) is True
    # ... the fast code reads it once, up front, raises, and runs the plain code instead.
    assert c.legal(bad.values) == c.plain("legal")(bad.values)
    assert c.invariants[0](bad.values) is True
    with pytest.raises(IndexError):   # scores read arr[x] either way: the same error
        c.scores(bad.values)
    # the fused step names arr[x] once (read twice by its check) and falls back the same way
    assert c.step[0](bad.values, (0, 0, 0)) == c.apply[0](bad.values, 0, 0)

    ns: dict[str, Any] = {"_ck": None}
    exec(compile(c.source, "<fragile fast module>", "exec"), ns)  # noqa: S102
    taken = []
    ns["_plain"] = lambda name: taken.append(name) or c.plain(name)
    assert len(ns["legal"](bad.values)) == 81 and ns["inv_0"](bad.values) is True
    assert taken == ["legal", "inv_0"]          # the fallback did the work
    good = game.initial_state().values
    taken.clear()
    assert ns["legal"](good) == c.plain("legal")(good) and ns["inv_0"](good) is True
    assert taken == []                          # and is not needed on a state in bounds


def test_a_read_at_a_constant_index_out_of_range_stays_behind_its_guard():
    """``arr[-1]`` raises whenever it runs: named once up front (it is read twice), every
    call of the fast code would raise and run the plain code instead (MOTU's neighbour of
    the island's edge made a sixth of its legal() calls do the work twice)."""
    game = Game("edge", title="edge", players=2, source=SRC)
    x = game.field("x", range(0, 4), initial=0, source=SRC)
    arr = game.field("arr", range(0, 3), shape=(4,), initial=0, source=SRC)

    @game.action(params={"i": range(9)}, source=SRC)
    def pick(rule, i):
        """arr[-1] is read only when x is negative (never)."""
        rule.require(any_of(x >= 0, arr[-1] + arr[-1] == 2), "x is natural", source=SRC)
        rule.set(x, 0)

    game.current_player(x % 2, source=SRC)
    game.terminal(x == 3, source=SRC)
    game.max_steps(3, source=SRC)
    game.score(lambda p: x, source=SRC)
    c = Model(game.build()).compiled
    assert not any(line.lstrip().startswith("_h") and "_ck(-1," in line
                   for line in c.source.splitlines())
    ns: dict[str, Any] = {"_ck": c.legal.__globals__["_ck"]}
    exec(compile(c.source, "<edge fast module>", "exec"), ns)  # noqa: S102
    taken = []
    ns["_plain"] = lambda name: taken.append(name) or c.plain(name)
    assert len(ns["legal"]((0, 0, 0, 0, 0, 0))) == 9 and taken == []   # no fallback


def test_the_fused_check_refuses_what_it_should_and_why_illegal_names_it():
    ttt = rulespec.load("tic_tac_toe")
    s = ttt.initial_state()
    with pytest.raises(IllegalAction, match="r must be in 0..2"):   # outside the domain
        ttt.apply(s, rulespec.Action((0, 3, 0), "row 3 of a 3x3 board"))
    taken = ttt.apply(s, ttt.legal_actions(s)[0])
    with pytest.raises(IllegalAction, match="the cell is empty"):
        ttt.apply(taken, ttt.legal_actions(s)[0])
    with pytest.raises(ValueError):          # another game's action: refused, not a crash
        ttt.apply(s, rulespec.load("connect_four").legal_actions(
            rulespec.load("connect_four").initial_state())[3])


# --- random_action ---------------------------------------------------------------------
def test_random_action_is_the_uniform_draw_among_the_legal_actions():
    game = rulespec.load("tic_tac_toe")
    s = game.apply(game.initial_state(), game.legal_actions(game.initial_state())[4])
    legal = game.legal_actions(s)
    assert len(legal) == 8
    for seed in range(300):   # exactly legal[randrange(n)]: randrange(n) is uniform on 0..n-1
        assert game.random_action(s, random.Random(seed)) == \
            legal[random.Random(seed).randrange(len(legal))]
    rng = random.Random(0)
    counts = Counter(game.random_action(s, rng) for _ in range(16_000))
    assert set(counts) == set(legal)
    assert all(1_700 < n < 2_300 for n in counts.values()), counts   # 2000 each expected


def test_random_action_at_a_chance_node_draws_as_play_does():
    game = rulespec.load("hawaii")
    s = game.initial_state(3)
    assert game.current_player(s) == CHANCE
    for seed in range(100):
        legal = game.legal_actions(s)
        expected = legal[seeded_chooser(game, random.Random(seed))(s, legal)]
        assert game.random_action(s, random.Random(seed)) == expected


def test_random_action_is_none_when_nothing_is_legal():
    game = rulespec.load("tic_tac_toe")
    s = game.initial_state()
    for text in ["mark(0,0)", "mark(1,0)", "mark(0,1)", "mark(1,1)", "mark(0,2)"]:
        s = game.apply(s, game.action_from_str(s, text))
    assert game.is_terminal(s) and game.random_action(s, random.Random(0)) is None


@pytest.mark.parametrize("name, players", [("tic_tac_toe", 2), ("hawaii", 3)])
def test_play_random_plays_the_games_the_seeded_chooser_plays(name, players):
    game = rulespec.load(name)
    for seed in range(2 if name == "hawaii" else 20):
        rng = random.Random(seed)
        choose = seeded_chooser(game, rng)
        s = game.initial_state(players)
        expected = []
        while (legal := game.legal_actions(s)):
            a = legal[choose(s, legal)]
            expected.append(str(a))
            s = game.apply(s, a)
        assert [str(step.action) for step in play_random(game, players, seed)[1]] == expected
