"""Differential tests: our specs against OpenSpiel's implementations of the same games.

OpenSpiel's games are outside implementations to ``rulespec.check.conform``: each is
wrapped in a ``PyspielImplementation`` (its action ids read as our action texts, its board
read as our fields) and played in lockstep with the spec under Hypothesis -- at every step
the player to move, the legal actions, the terminal flag and the board must agree, and at
the end the returns must equal our scores. A disagreement shrinks to a short trace. Every
test runs twice: with the spec stepping on the Python backend and on the C backend.
"""

from __future__ import annotations

from typing import Callable

import pytest

import rulespec
from rulespec.check.conform import (HYPOTHESIS, PyspielImplementation, conform,
                                    play_lockstep)
from rulespec.check.results import PASSED, VIOLATED

pyspiel = pytest.importorskip("pyspiel")


#: every test runs with the spec stepping on the Python backend and on the C backend
@pytest.fixture(params=["python", "c"])
def backend(request):
    return request.param

MARK = {".": "empty", "x": "x", "o": "o"}


# --- OpenSpiel's games as implementations -----------------------------------------------
def ttt_text(state, player: int, action: int) -> str:
    """OpenSpiel tic_tac_toe action ``3*r + c`` is our ``mark(r,c)``."""
    return f"mark({action // 3},{action % 3})"


def ttt_board(state) -> dict:
    """OpenSpiel prints the rows top to bottom, as our ``board[r][c]``."""
    return {"board": [[MARK[ch] for ch in row] for row in str(state).split()]}


def c4_board(state) -> dict:
    """OpenSpiel prints the rows top to bottom; our row 0 is the bottom."""
    return {"board": [[MARK[ch] for ch in row] for row in reversed(str(state).split())]}


def openspiel(name: str, text: Callable, board: Callable) -> Callable[[int], object]:
    """A factory: a fresh OpenSpiel game of ``name`` for each lockstep game."""
    game = pyspiel.load_game(name)
    return lambda players: PyspielImplementation(game.new_initial_state(), text, board)


TTT = openspiel("tic_tac_toe", ttt_text, ttt_board)
C4 = openspiel("connect_four", lambda s, p, a: f"drop({a})", c4_board)


def scripted(texts: list[str]) -> Callable:
    """Play the given actions in order (an index into the spec's legal actions)."""
    it = iter(texts)
    return lambda state, legal: [str(a) for a in legal].index(next(it))


# --- tic-tac-toe --------------------------------------------------------------------------
def test_tic_tac_toe_conforms_to_openspiel_cpp(backend):
    report = conform(rulespec.load("tic_tac_toe", backend=backend), TTT,
                     name="open_spiel tic_tac_toe", examples=100)
    assert report.status == PASSED, report.detail
    assert report.games >= 100 and report.steps > 500


def test_tic_tac_toe_conforms_to_openspiel_python(backend):
    from open_spiel.python.games import tic_tac_toe  # noqa: F401 - registers the game
    factory = openspiel("python_tic_tac_toe", ttt_text, ttt_board)
    report = conform(rulespec.load("tic_tac_toe", backend=backend), factory, examples=100)
    assert report.status == PASSED, report.detail


def test_tic_tac_toe_full_board_draw_matches_openspiel(backend):
    # x: 0 2 3 7 8, o: 1 4 5 6 -- the board fills without a line
    moves = [f"mark({i // 3},{i % 3})" for i in (0, 1, 2, 4, 3, 5, 7, 6, 8)]
    game = rulespec.load("tic_tac_toe", backend=backend)
    final = play_lockstep(game, TTT, 2, scripted(moves))
    assert game.is_terminal(final) and game.scores(final) == [0, 0]
    assert game.winners(final) == [0, 1]


# --- connect four -------------------------------------------------------------------------
def test_connect_four_conforms_to_openspiel(backend):
    report = conform(rulespec.load("connect_four", backend=backend), C4, examples=100)
    assert report.status == PASSED, report.detail


# Found by a seeded random playout of OpenSpiel's connect_four (random.Random(0)); random
# playouts rarely fill all 42 cells, so the draw is pinned here.
C4_DRAW = [f"drop({ch})" for ch in "361313645534311043046626105524515600224220"]


def test_connect_four_full_board_draw_matches_openspiel(backend):
    game = rulespec.load("connect_four", backend=backend)
    final = play_lockstep(game, C4, 2, scripted(C4_DRAW))
    assert final["moves"] == 42
    assert game.winners(final) == [0, 1] and game.scores(final) == [0, 0]


@pytest.mark.parametrize("moves, winner", [
    ("0011223", 0),                    # x: bottom row, columns 0-3
    ("01010161", 1),                   # o: column 1, rows 0-3
    ("01122323363", 0),                # x: diagonal up-right from (0,0)
    ("65544343303", 0),                # x: diagonal up-left from (0,6)
    ("0616352", 0),                    # x: bottom row, last piece inside the line
])
def test_connect_four_lines_in_every_direction_match_openspiel(backend, moves, winner):
    game = rulespec.load("connect_four", backend=backend)
    final = play_lockstep(game, C4, 2, scripted([f"drop({c})" for c in moves]))
    assert final["moves"] == len(moves)
    assert final["winner"] == winner
    assert game.scores(final) == ([1, -1] if winner == 0 else [-1, 1])


def test_a_planted_bug_is_caught_by_the_lockstep_comparison(backend, tmp_path):
    """The comparison is not vacuous: a spec that forgets the up-left diagonal disagrees,
    and the disagreement is said in rule terms."""
    from rulespec.check.conform import Disagreement
    from rulespec.runtime.registry import spec_path
    text = spec_path("connect_four").read_text(encoding="utf-8")
    line = '    "anti_diagonal": (1, -1),  # up and to the left\n'
    assert line in text
    (tmp_path / "spec.py").write_text(text.replace(line, ""), encoding="utf-8")
    buggy = rulespec.load(tmp_path / "spec.py", backend=backend)
    with pytest.raises(Disagreement) as found:
        play_lockstep(buggy, C4, 2, scripted([f"drop({c})" for c in "65544343303"]))
    assert found.value.kind == "terminal"
    assert found.value.actions[-1] == "drop(3)" and len(found.value.actions) == 11
    assert "the implementation ends the game" in found.value.message


def test_conform_finds_and_shrinks_the_planted_diagonal_bug(backend, tmp_path):
    """Hypothesis finds the forgotten diagonal on its own and shrinks the game."""
    from rulespec.runtime.registry import spec_path
    text = spec_path("connect_four").read_text(encoding="utf-8")
    line = '    "diagonal": (1, 1),        # up and to the right\n'
    assert line in text
    (tmp_path / "spec.py").write_text(text.replace(line, ""), encoding="utf-8")
    report = conform(rulespec.load(tmp_path / "spec.py", backend=backend), C4,
                     examples=300, mode=HYPOTHESIS)
    assert report.status == VIOLATED
    found = report.disagreement
    assert found.kind == "terminal" and "the implementation ends the game" in found.message
    # a diagonal of four stands on 6 pieces: 10 moves at least (o's, as the shrunk game has)
    assert 10 <= len(found.actions) <= 20
