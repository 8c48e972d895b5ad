"""Tic-tac-toe, written in the rulespec language: the worked example of docs/spec-language.md.

Source: the common rules of tic-tac-toe, as OpenSpiel's ``tic_tac_toe`` plays them
(open_spiel/games/tic_tac_toe/tic_tac_toe.cc): player 0 plays x and moves first, action
``3*row + col`` marks a cell, three in a row wins (+1/-1), a full board is a draw (0/0).
"""

from rulespec.spec import Game, all_of, any_of, count, if_, view

RULES = "tic-tac-toe common rules (OpenSpiel tic_tac_toe.cc)"

game = Game("tic_tac_toe", title="Tic-tac-toe", players=2, source=RULES,
            summary="Two players mark a 3x3 grid in turn; three in a row wins.")

# --- vocabulary and state --------------------------------------------------------------
Mark = game.enum("Mark", {"empty": "no mark yet", "x": "the first player's mark",
                          "o": "the second player's mark"},
                 source=f"{RULES}: 'x' for player 0, 'o' for player 1")
board = game.field("board", Mark, shape=(3, 3), initial=Mark.empty,
                   source=f"{RULES}: a 3x3 grid of cells", doc="row-major, row 0 on top")
to_move = game.field("to_move", range(0, 2), flow=True,
                     source=f"{RULES}: players alternate, player 0 first")
moves = game.field("moves", range(0, 10), flow=True,
                   source=f"{RULES}: one mark per turn, at most nine")
winner = game.field("winner", range(-1, 2), initial=-1, flow=True,
                    source=f"{RULES}: three of a mark in a row wins", doc="-1 while nobody has won")


def completes_line(r, c, mark):
    """A line through (r, c) is now full of ``mark``: its row, column, or a diagonal."""
    return any_of(
        all_of(*(board[r, k] == mark for k in range(3))),
        all_of(*(board[k, c] == mark for k in range(3))),
        all_of(r == c, *(board[k, k] == mark for k in range(3))),
        all_of(r + c == 2, *(board[k, 2 - k] == mark for k in range(3))),
    )


# --- the one move ----------------------------------------------------------------------
@game.action(params={"r": range(3), "c": range(3)}, text="mark({r},{c})",
             source=f"{RULES}: on your turn, put your mark in an empty cell")
def mark(rule, r, c):
    """Put the mover's mark in cell (r, c)."""
    rule.require(board[r, c] == Mark.empty, "the cell is empty",
                 source=f"{RULES}: a mark goes in an empty cell")
    own = rule.let(if_(to_move == 0, Mark.x, Mark.o), name="own")
    rule.set(board[r, c], own)
    rule.add(moves, 1)
    with rule.when(completes_line(r, c, own), source=f"{RULES}: three in a row wins"):
        rule.set(winner, to_move)
    rule.set(to_move, 1 - to_move)


# --- flow and the end ------------------------------------------------------------------
game.current_player(to_move, source=f"{RULES}: players alternate")
game.terminal(any_of(winner != -1, moves == 9),
              source=f"{RULES}: the game ends on a line of three or a full board")
game.max_steps(9, source=f"{RULES}: nine cells, one mark per turn")
game.score(lambda p: if_(winner == -1, 0, if_(winner == p, 1, -1)),
           source=f"{RULES}: the winner scores +1, the loser -1, a draw 0")
game.shared_ties(source=f"{RULES}: a full board without a line is a draw")

# --- what must always hold -------------------------------------------------------------
cells = [(r, c) for r in range(3) for c in range(3)]
xs = count(range(9), lambda i: board[i // 3, i % 3] == Mark.x)
os = count(range(9), lambda i: board[i // 3, i % 3] == Mark.o)
game.invariant("marks_alternate", any_of(xs == os, xs == os + 1),
               source=f"{RULES}: x moves first, then players alternate",
               doc="there are as many x as o, or one more x")
game.invariant("one_mark_per_move", xs + os == moves,
               source=f"{RULES}: one mark per turn")
game.invariant("x_is_ahead_exactly_on_o_turn", xs - os == to_move,
               source=f"{RULES}: x moves first, then players alternate",
               doc="after x's move it is o's turn and x has one mark more")
game.invariant("turn_follows_move_count", to_move == moves % 2,
               source=f"{RULES}: players alternate, player 0 first")
game.conservation("cells_filled_one_per_move",
                  moves + count(range(9), lambda i: board[i // 3, i % 3] == Mark.empty),
                  source=f"{RULES}: each turn fills exactly one empty cell",
                  doc="moves made + empty cells stays 9")

# --- how it looks ----------------------------------------------------------------------
game.view(
    view.grid("Board", rows=3, cols=3, cell=lambda r, c: board[r, c],
              glyphs={Mark.x: view.glyph("X", "#D55E00", shape="none", title="x: player 0"),
                      Mark.o: view.glyph("O", "#0072B2", shape="none", title="o: player 1")}),
    view.counters("Turn", {"to move": to_move, "moves": moves, "winner": winner}),
)

SPEC = game.build()
