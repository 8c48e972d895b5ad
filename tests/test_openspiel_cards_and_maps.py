"""Differential tests: Crazy Eights and Hex against OpenSpiel's C++ implementations.

Both games are played move by move in lockstep: at every step Hypothesis draws an index into
our legal actions (chance outcomes included: the same outcome is then forced on OpenSpiel),
and the actions are matched by meaning (``play C8`` is OpenSpiel's card id 24, ``b2`` on a
4x4 Hex board is cell 5). We compare, at every step, the legal actions (in order), the player
to move, the terminal flag, the returns, chance probabilities, and what the player to move
sees: our ``observation`` rebuilt into OpenSpiel's ``ObservationString``. 200 games each
(a Hypothesis profile's default is not tuned per seed).
"""

from __future__ import annotations

import re
from typing import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rulespec
from rulespec.runtime.registry import spec_path

pyspiel = pytest.importorskip("pyspiel")

GAMES = 200
SUITS, RANKS = "CDHS", "23456789TJQKA"
Chooser = Callable[[list[int]], int]


# --- Crazy Eights -------------------------------------------------------------------------
def c8_id(game: rulespec.Model, action: rulespec.Action) -> int:
    """Our action text as OpenSpiel's id: cards 0..51, draw 52, pass 53, nominate 54..57;
    chance: a card 0..51, the dealer 52 + p."""
    text = str(action)
    if text == "draw":
        return 52
    if text == "pass":
        return 53
    m = re.fullmatch(r"(play|deal|turn up|draw) ([CDHS][2-9TJQKA])", text)
    if m:
        return RANKS.index(m[2][1]) * 4 + SUITS.index(m[2][0])
    m = re.fullmatch(r"nominate (\w+)", text)
    if m:
        return 54 + ["clubs", "diamonds", "hearts", "spades"].index(m[1])
    m = re.fullmatch(r"dealer (\d)", text)
    assert m, f"unexpected crazy eights action {text}"
    return 52 + int(m[1])


def c8_observation(game: rulespec.Model, state: rulespec.State, player: int) -> str:
    """OpenSpiel's ObservationString, rebuilt from what ``player`` sees in our observation."""
    seen = game.observation(state, player)
    if seen["phase"] in ("choose_dealer", "deal", "turn_up", "draw"):
        return ""
    n = seen["num_players"]
    hand = seen["hand"][player]
    assert all(c is None for p, h in enumerate(seen["hand"]) if p != player for c in h)
    assert all(c is None for c in seen["deck"])  # the others' hands and the deck are hidden
    lines = ["Currently I have: "]
    for s, suit in enumerate(SUITS):
        row = "".join(RANKS[r] if hand[r * 4 + s] else " " for r in range(13))
        lines.append(f"Suit {suit}: {row}")
    last = seen["last_card"]
    lines.append(f"Previous card: {last}")
    lines.append(f"Previous suit: {SUITS[['clubs', 'diamonds', 'hearts', 'spades'].index(seen['last_suit'])]}")
    counts = [seen["hand_size"][(player + i) % n] for i in range(n)]
    lines.append("Starting counterclockwise, other players have: "
                 + ", ".join(map(str, counts[:-1])) + f", {counts[-1]} cards.")
    return "\n".join(lines) + "\n"


def play_crazy_eights(choose: Chooser, ours: rulespec.Model, players: int) -> rulespec.State:
    theirs = pyspiel.load_game("crazy_eights", {"players": players})
    s, o = ours.initial_state(players), theirs.new_initial_state()
    for _ in range(ours.spec.max_steps):
        legal = ours.legal_actions(s)
        ids = [c8_id(ours, a) for a in legal]
        assert ids == o.legal_actions()
        assert ours.current_player(s) == o.current_player()
        assert ours.is_terminal(s) == o.is_terminal()
        if o.is_terminal():  # Returns are ScoreUp's penalties at the end, 0 before
            assert ours.scores(s) == [int(r) for r in o.returns()]
        else:
            assert o.returns() == [0.0] * players
        if o.is_chance_node():
            mine = ours.chance_outcomes(s)
            assert [c8_id(ours, a) for a, _ in mine] == [a for a, _ in o.chance_outcomes()]
            assert [p for _, p in mine] == pytest.approx([p for _, p in o.chance_outcomes()])
        elif not o.is_terminal():
            p = o.current_player()
            assert c8_observation(ours, s, p) == o.observation_string(p)
        if o.is_terminal():
            return s
        action = legal[choose(ids)]
        s = ours.apply(s, action)
        o.apply_action(c8_id(ours, action))
    return s  # cut at the horizon: OpenSpiel is not over either (checked above)


def drawn(data: st.DataObject) -> Chooser:
    return lambda ids: data.draw(st.integers(0, len(ids) - 1), label="action index")


def seeded(seed: int) -> Chooser:
    import random
    rng = random.Random(seed)
    return lambda ids: rng.randrange(len(ids))


CODE = {"penalty": "openspiel_code"}  # OpenSpiel's ScoreUp (see the README)


@settings(max_examples=GAMES)
@given(data=st.data())
def test_crazy_eights_matches_openspiel_at_every_step(data):
    players = data.draw(st.integers(2, 5), label="players")
    play_crazy_eights(drawn(data), rulespec.load("crazy_eights", interpretation=CODE), players)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_crazy_eights_whole_random_games_match_openspiel(players):
    """Hypothesis favours short choices; seeded uniform play reaches the ends of real games
    (an emptied hand, an empty deck and a round of passes) as often as they happen."""
    game = rulespec.load("crazy_eights", interpretation=CODE)
    ends = set()
    for seed in range(25):
        final = play_crazy_eights(seeded(seed), game, players)
        assert game.is_terminal(final)
        ends.add("emptied" if min(final["hand_size"][:players]) == 0 else "blocked")
    assert "emptied" in ends


def test_the_rulebook_penalty_reading_differs_from_openspiel_code():
    """The default reading (the header's face values) scores differently from ScoreUp."""
    code = rulespec.load("crazy_eights", interpretation=CODE)
    text = rulespec.load("crazy_eights")
    final = play_crazy_eights(seeded(3), code, 2)
    again = text.state_from_json(final.to_json().replace("openspiel_code", "face_value"))
    assert code.scores(final) != text.scores(again)


def test_a_planted_bug_in_crazy_eights_is_caught(tmp_path):
    """Forgetting that a card may follow the top card's rank breaks the lockstep."""
    text = spec_path("crazy_eights").read_text(encoding="utf-8")
    line = "                  rank(card) == rank(last_card))"
    assert line in text
    (tmp_path / "spec.py").write_text(text.replace(line, "                  False)"))
    buggy = rulespec.load(tmp_path / "spec.py", interpretation=CODE)
    with pytest.raises(AssertionError):
        for seed in range(10):
            play_crazy_eights(seeded(seed), buggy, 3)


# --- Hex ------------------------------------------------------------------------------------
def hex_id(size: int) -> Callable[[rulespec.Action], int]:
    """``b3`` (column letter, row number) is OpenSpiel's cell ``(3 - 1) * size + 1``."""
    def to_id(action: rulespec.Action) -> int:
        m = re.fullmatch(r"([a-e])([1-5])", str(action))
        assert m, f"unexpected hex action {action}"
        return (int(m[2]) - 1) * size + "abcde".index(m[1])
    return to_id


def hex_board(state: rulespec.State, size: int) -> str:
    """OpenSpiel's ToString: one row per line, shifted right by its row number."""
    mark = {"empty": ".", "black": "x", "white": "o"}
    rows = [" " * r + "".join(mark[state["board"][r][c]] + " " for c in range(size))
            for r in range(size)]
    return "\n".join(rows)


def play_hex(choose: Chooser, size: int, spec: str = "hex") -> rulespec.State:
    ours = rulespec.load(spec, interpretation={"board_size": str(size)})
    theirs = pyspiel.load_game("hex", {"board_size": size})
    to_id = hex_id(size)
    s, o = ours.initial_state(), theirs.new_initial_state()
    for _ in range(ours.spec.max_steps + 1):
        legal = ours.legal_actions(s)
        ids = [to_id(a) for a in legal]
        assert ids == o.legal_actions()
        assert [str(a) for a in legal] == [o.action_to_string(i) for i in ids]
        assert ours.current_player(s) == o.current_player()
        assert ours.is_terminal(s) == o.is_terminal()
        assert ours.scores(s) == [int(r) for r in o.returns()]
        assert hex_board(s, size) == str(o)
        if o.is_terminal():
            return s
        action = legal[choose(ids)]
        s = ours.apply(s, action)
        o.apply_action(to_id(action))
    raise AssertionError("no end within max_steps")


@settings(max_examples=GAMES)
@given(data=st.data())
def test_hex_matches_openspiel_at_every_step(data):
    size = data.draw(st.integers(3, 5), label="board size")
    play_hex(drawn(data), size)


@pytest.mark.parametrize("size", [3, 4, 5])
def test_hex_whole_random_games_match_openspiel(size):
    winners = set()
    for seed in range(40):
        final = play_hex(seeded(seed), size)
        winners.add(final["winner"])
    assert winners == {0, 1}


def test_hex_a_chain_across_the_board_wins_only_for_its_owner():
    moves = [0, 1, 3, 4, 6]  # x a1, o b1, x a2, o b2, x a3: x joins row 1 to row 3
    chooser = iter(moves)
    final = play_hex(lambda ids: ids.index(next(chooser)), 3)
    assert final["winner"] == 0 and final["moves"] == 5
    moves = [0, 3, 1, 4, 6, 5]  # o a2 b2 c2: o joins column a to column c
    chooser = iter(moves)
    final = play_hex(lambda ids: ids.index(next(chooser)), 3)
    assert final["winner"] == 1 and final["moves"] == 6
    moves = [2, 0, 4, 1, 6]  # x c1 b2 a3: the diagonal neighbours (r+1, c-1) join
    chooser = iter(moves)
    final = play_hex(lambda ids: ids.index(next(chooser)), 3)
    assert final["winner"] == 0


def test_a_planted_bug_in_hex_is_caught(tmp_path):
    """A board without one of the six neighbour directions disagrees with OpenSpiel."""
    text = spec_path("hex").read_text(encoding="utf-8")
    old = "GRID = Graph.hex_grid(MAX, MAX)"
    assert old in text
    (tmp_path / "spec.py").write_text(text.replace(old, "GRID = Graph.grid(MAX, MAX)"))
    with pytest.raises(AssertionError):
        for seed in range(20):
            play_hex(seeded(seed), 4, spec=str(tmp_path / "spec.py"))
