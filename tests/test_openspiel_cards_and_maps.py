"""Differential tests: Crazy Eights and Hex against OpenSpiel's C++ implementations.

OpenSpiel's games are outside implementations to ``rulespec.check.conform``: each is
wrapped in a ``PyspielImplementation`` whose action ids read as our action texts (``play
C8`` is OpenSpiel's card id 24, ``b2`` on a 4x4 Hex board is cell 5, a chance card is our
``deal``, ``turn up`` or ``draw`` by where the game is). Both are played in lockstep --
chance outcomes included: the outcome the spec draws is forced on OpenSpiel -- comparing
at every step the player to move, the legal actions, the terminal flag, the chance
probabilities and what the player to move sees (OpenSpiel's ``ObservationString`` read
back into our fields), and at the end the returns against our scores. 200 games each
under Hypothesis, and whole seeded random games (Hypothesis favours short ones). Every test
runs twice: with the spec stepping on the Python backend and on the C backend.
"""

from __future__ import annotations

import re
from typing import Any, Callable

import pytest

import rulespec
from rulespec.check.conform import RANDOM, PyspielImplementation, conform
from rulespec.check.results import PASSED, VIOLATED
from rulespec.runtime.registry import spec_path

pyspiel = pytest.importorskip("pyspiel")


#: every test runs with the spec stepping on the Python backend and on the C backend
@pytest.fixture(params=["python", "c"])
def backend(request):
    return request.param

GAMES = 200
SUITS, RANKS = "CDHS", "23456789TJQKA"
SUIT_NAMES = ["clubs", "diamonds", "hearts", "spades"]


# --- Crazy Eights -------------------------------------------------------------------------
def card(i: int) -> str:
    """OpenSpiel's card id ``4 * rank + suit`` as our card name (``C8``)."""
    return SUITS[i % 4] + RANKS[i // 4]


def c8_texts(state: Any, player: int, ids: list[int]) -> list[str]:
    """OpenSpiel's ids as our action texts: cards 0..51, draw 52, pass 53, nominate 54..57;
    chance: the dealer 52 + p, then a card dealt, turned up (until the first player's
    move) or drawn."""
    if not state.is_chance_node():
        return [f"play {card(a)}" if a < 52 else {52: "draw", 53: "pass"}.get(a)
                or f"nominate {SUIT_NAMES[a - 54]}" for a in ids]
    history = state.full_history()
    if not history:
        return [f"dealer {a - 52}" for a in ids]
    n = state.num_players()
    hand_cards = (7 if n == 2 else 5) * n  # kNumInitialCardsForTwoPlayers = 7, else 5
    if any(h.player >= 0 for h in history):
        kind = "draw"
    else:
        kind = "deal" if len(history) - 1 < hand_cards else "turn up"
    return [f"{kind} {card(a)}" for a in ids]


def c8_seen(state: Any, player: int) -> dict:
    """What the player to move sees, read back from OpenSpiel's ObservationString into our
    fields (``hand[p]``, ``last_card``, ``last_suit``, ``hand_size``)."""
    if state.is_terminal() or state.is_chance_node() or player != state.current_player():
        return {}
    text = state.observation_string(player)
    if not text:
        return {}
    rows = dict(re.findall(r"Suit ([CDHS]): (.{13})", text))
    hand = [0] * 52
    for s, suit in enumerate(SUITS):
        for r, ch in enumerate(rows[suit]):
            if ch != " ":
                hand[r * 4 + s] = 1
    n = state.num_players()
    counts = [int(x) for x in re.search(r"other players have: (.*) cards", text)[1].split(", ")]
    sizes = [0] * 5
    for i, c in enumerate(counts):
        sizes[(player + i) % n] = c
    return {f"hand[{player}]": hand,
            "last_card": re.search(r"Previous card: (\w+)", text)[1],
            "last_suit": SUIT_NAMES[SUITS.index(re.search(r"Previous suit: (\w)", text)[1])],
            "hand_size": sizes}


def c8(players: int) -> PyspielImplementation:
    game = pyspiel.load_game("crazy_eights", {"players": players})
    return PyspielImplementation(game.new_initial_state(), texts=c8_texts,
                                 observation_of=c8_seen)


CODE = {"penalty": "openspiel_code"}  # OpenSpiel's ScoreUp (see the README)


def test_crazy_eights_conforms_to_openspiel(backend):
    report = conform(rulespec.load("crazy_eights", interpretation=CODE, backend=backend), c8,
                     examples=GAMES)
    assert report.status == PASSED, report.detail
    assert report.games >= GAMES


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_crazy_eights_whole_random_games_match_openspiel(backend, players):
    """Hypothesis favours short choices; seeded uniform play reaches the ends of real games
    (an emptied hand, an empty deck and a round of passes) as often as they happen."""
    game = rulespec.load("crazy_eights", interpretation=CODE, backend=backend)
    report = conform(game, c8, examples=25, players=players, mode=RANDOM)
    assert report.status == PASSED, report.detail


def test_our_observation_hides_the_other_hands_and_the_deck(backend):
    game = rulespec.load("crazy_eights", backend=backend)
    from rulespec.runtime.play import play_random
    for seed in range(5):
        _, steps = play_random(game, 3, seed)
        for step in steps[::7]:
            for p in range(3):
                seen = game.observation(step.state, p)
                assert all(c is None for c in seen["deck"])
                assert all(c is None for q, h in enumerate(seen["hand"]) if q != p
                           for c in h)
                assert None not in seen["hand"][p]


def test_the_rulebook_penalty_reading_differs_from_openspiel_code(backend):
    """The default reading (the header's face values) scores differently from ScoreUp."""
    code = rulespec.load("crazy_eights", interpretation=CODE, backend=backend)
    text = rulespec.load("crazy_eights", backend=backend)
    from rulespec.runtime.play import play_random
    final, _ = play_random(code, 2, 3)
    assert code.is_terminal(final)
    again = text.state_from_json(final.to_json().replace("openspiel_code", "face_value"))
    assert code.scores(final) != text.scores(again)


def test_a_planted_bug_in_crazy_eights_is_caught(backend, tmp_path):
    """Forgetting that a card may follow the top card's rank: OpenSpiel allows a card the
    spec forbids, and conform says which rule forbids it."""
    text = spec_path("crazy_eights").read_text(encoding="utf-8")
    line = "                  rank(card) == rank(last_card))"
    assert line in text
    (tmp_path / "spec.py").write_text(text.replace(line, "                  False)"))
    data = spec_path("crazy_eights").with_name("components.toml")   # its cards, beside it
    (tmp_path / "components.toml").write_bytes(data.read_bytes())
    buggy = rulespec.load(tmp_path / "spec.py", interpretation=CODE, backend=backend)
    report = conform(buggy, c8, examples=GAMES)
    assert report.status == VIOLATED
    found = report.disagreement
    assert found.kind == "legal actions"
    assert "the implementation allows play" in found.message
    assert "which the spec forbids" in found.message


# --- Hex ------------------------------------------------------------------------------------
def hex_board(size: int) -> Callable[[Any], dict]:
    """OpenSpiel's ToString (one row per line, shifted right by its row number) as our
    ``board`` cells of a ``size`` x ``size`` board."""
    mark = {".": "empty", "x": "black", "o": "white"}

    def board(state: Any) -> dict:
        rows = [line.split() for line in str(state).splitlines()]
        return {f"board[{r}][{c}]": mark[cell] for r, row in enumerate(rows)
                for c, cell in enumerate(row)}
    return board


def hex_game(size: int) -> Callable[[int], PyspielImplementation]:
    game = pyspiel.load_game("hex", {"board_size": size})
    return lambda players: PyspielImplementation(game.new_initial_state(),
                                                 snapshot_of=hex_board(size))


@pytest.mark.parametrize("size", [3, 4, 5, 7, 9, 11])
def test_hex_conforms_to_openspiel(backend, size):
    """OpenSpiel's own action strings (``b3``) are our action texts."""
    model = rulespec.load("hex", interpretation={"board_size": str(size)},
                          backend=backend)
    report = conform(model, hex_game(size), examples=GAMES // 3)
    assert report.status == PASSED, report.detail


@pytest.mark.parametrize("size", [3, 4, 5, 7, 9, 11])
def test_hex_whole_random_games_match_openspiel(backend, size):
    model = rulespec.load("hex", interpretation={"board_size": str(size)},
                          backend=backend)
    report = conform(model, hex_game(size), examples=40, mode=RANDOM)
    assert report.status == PASSED, report.detail


def _hex_final(moves: list[str], size: int = 3, backend: str = "python") -> rulespec.State:
    from rulespec.check.conform import play_lockstep
    model = rulespec.load("hex", interpretation={"board_size": str(size)},
                          backend=backend)
    it = iter(moves)
    return play_lockstep(model, hex_game(size), 2,
                         lambda state, legal: [str(a) for a in legal].index(next(it)))


def test_hex_a_chain_across_the_board_wins_only_for_its_owner(backend):
    # x joins row 1 to row 3
    final = _hex_final(["a1", "b1", "a2", "b2", "a3"], backend=backend)
    assert final["winner"] == 0 and final["moves"] == 5
    # o joins column a to c
    final = _hex_final(["a1", "a2", "b1", "b2", "a3", "c2"], backend=backend)
    assert final["winner"] == 1 and final["moves"] == 6
    # the diagonal neighbours join
    final = _hex_final(["c1", "a1", "b2", "b1", "a3"], backend=backend)
    assert final["winner"] == 0


def test_a_planted_bug_in_hex_is_caught(backend, tmp_path):
    """A board without one of the six neighbour directions disagrees with OpenSpiel."""
    text = spec_path("hex").read_text(encoding="utf-8")
    old = "GRID = Graph.hex_grid(MAX, MAX)"
    assert old in text
    (tmp_path / "spec.py").write_text(text.replace(old, "GRID = Graph.grid(MAX, MAX)"))
    model = rulespec.load(tmp_path / "spec.py", interpretation={"board_size": "4"},
                          backend=backend)
    report = conform(model, hex_game(4), examples=GAMES)
    assert report.status == VIOLATED
    assert report.disagreement.kind == "terminal"
