"""Connect Four, written in the rulespec language.

Source: the common rules of Connect Four, as OpenSpiel's ``connect_four`` plays them
(open_spiel/games/connect_four/connect_four.cc, default parameters rows=6, columns=7,
x_in_row=4): player 0 plays x and moves first; an action names a column 0..6; the piece
falls to the lowest empty cell of that column; four of a mark in a row -- horizontally,
vertically or diagonally -- wins (+1/-1); a full board without a line is a draw (0/0).
"""

from rulespec.spec import Game, all_of, any_of, count, forall, if_, implies, view

RULES = "Connect Four common rules (OpenSpiel connect_four.cc)"

game = Game("connect_four", title="Connect Four", players=2, source=RULES,
            summary="Two players drop pieces into a 6x7 upright grid in turn; four in a row wins.")

# --- constants -------------------------------------------------------------------------
ROWS = game.constant("rows", 6, source=f"{RULES}: kDefaultRows = 6")
COLS = game.constant("columns", 7, source=f"{RULES}: kDefaultColumns = 7")
IN_ROW = game.constant("in_a_row", 4, source=f"{RULES}: kDefaultXInRow = 4 (four in a row wins)")
CELLS = ROWS * COLS

# --- vocabulary and state --------------------------------------------------------------
Mark = game.enum("Mark", {"empty": "no piece in the cell yet",
                          "x": "a piece of player 0, who moves first",
                          "o": "a piece of player 1"},
                 source=f"{RULES}: CellState kEmpty, kCross ('x', player 0), "
                        "kNought ('o', player 1)")
board = game.field("board", Mark, shape=(ROWS, COLS), initial=Mark.empty,
                   source=f"{RULES}: a grid of 6 rows and 7 columns, CellAt(row, col)",
                   doc="board[row, col]; row 0 is the BOTTOM row, as in OpenSpiel's CellAt")
height = game.field("height", range(0, ROWS + 1), shape=(COLS,), initial=0,
                    source=f"{RULES}: a piece falls to the lowest empty cell of its column",
                    doc="pieces in each column, so also the row the next piece lands in")
to_move = game.field("to_move", range(0, 2), flow=True,
                     source=f"{RULES}: players alternate, player 0 first")
moves = game.field("moves", range(0, CELLS + 1), flow=True,
                   source=f"{RULES}: one piece per turn, at most 42 (a full board)")
winner = game.field("winner", range(-1, 2), initial=-1, flow=True,
                    source=f"{RULES}: four of a mark in a row wins (HasLine)",
                    doc="-1 while nobody has won")

# The four line directions as (row step, column step); row 0 is the bottom row.
DIRECTIONS = {
    "horizontal": (0, 1),
    "vertical": (1, 0),
    "diagonal": (1, 1),        # up and to the right
    "anti_diagonal": (1, -1),  # up and to the left
}


def _shift(x, n):
    """``x + n``, written ``x - |n|`` for a negative ``n`` and just ``x`` for 0."""
    if n == 0:
        return x
    return x + n if n > 0 else x - (-n)


def _fits(row, col, dr, dc, lo, hi):
    """The window from offset ``lo`` to ``hi`` along (dr, dc) from (row, col) is on the board.

    Only the window's two ends are tested (a straight segment is on the board when both ends
    are), and only the bounds that a step in that direction can cross.
    """
    tests = []
    for off in (lo, hi):
        r, c = off * dr, off * dc
        if r < 0:
            tests.append(_shift(row, r) >= 0)
        if r > 0:
            tests.append(_shift(row, r) < ROWS)
        if c < 0:
            tests.append(_shift(col, c) >= 0)
        if c > 0:
            tests.append(_shift(col, c) < COLS)
    return tests


def four_through(row, col, mark):
    """Some line of four through (row, col) -- the cell just filled -- is all ``mark``.

    For each direction, every window of four cells that contains (row, col) is tested: the
    new piece is the k-th cell of the window, k = 0..3. Inside each ``all_of`` the in-bounds
    tests come BEFORE any cell read, so the short-circuit evaluation never reads off the
    board. The cell (row, col) itself is not re-read: it has just been set to ``mark``.
    Only lines through the new piece can be new, and the game stops at the first line, so
    this equals OpenSpiel's whole-board HasLine after each move.
    """
    windows = []
    for dr, dc in DIRECTIONS.values():
        for k in range(IN_ROW):
            lo, hi = -k, IN_ROW - 1 - k
            reads = [board[_shift(row, d * dr), _shift(col, d * dc)] == mark
                     for d in range(lo, hi + 1) if d != 0]
            windows.append(all_of(*_fits(row, col, dr, dc, lo, hi), *reads))
    return any_of(*windows)


# --- the one move ----------------------------------------------------------------------
@game.action(params={"c": range(COLS)}, text="drop({c})",
             source=f"{RULES}: on your turn, drop a piece into a column (action = column 0..6)")
def drop(rule, c):
    """Drop the mover's piece into column ``c``; it lands on top of the column's pieces."""
    rule.require(height[c] < ROWS, "the column is not full",
                 source=f"{RULES}: LegalActions: a column whose top cell is empty")
    own = rule.let(if_(to_move == 0, Mark.x, Mark.o), name="own")
    row = rule.let(height[c], name="row")
    rule.set(board[row, c], own,
             source=f"{RULES}: the piece falls to the lowest empty cell of the column")
    rule.add(height[c], 1, source=f"{RULES}: the column holds one more piece")
    rule.add(moves, 1, source=f"{RULES}: one piece per turn")
    with rule.when(four_through(row, c, own), source=f"{RULES}: four in a row wins (HasLine)"):
        rule.set(winner, to_move)
    rule.set(to_move, 1 - to_move, source=f"{RULES}: players alternate")


# --- flow and the end ------------------------------------------------------------------
game.current_player(to_move, source=f"{RULES}: players alternate, player 0 first")
game.terminal(any_of(winner != -1, moves == CELLS),
              source=f"{RULES}: the game ends on a line of four or a full board (IsFull)")
game.max_steps(CELLS, source=f"{RULES}: 42 cells, one piece per turn (MaxGameLength = 42)")
game.score(lambda p: if_(winner == -1, 0, if_(winner == p, 1, -1)),
           source=f"{RULES}: the winner scores +1, the loser -1, a draw 0 (Returns)")
game.shared_ties(source=f"{RULES}: a full board without a line of four is a draw")

# --- what must always hold -------------------------------------------------------------


def _cell(i):
    """Cell number ``i`` of the 42, row-major from the bottom row."""
    return board[i // COLS, i % COLS]


xs = count(range(CELLS), lambda i: _cell(i) == Mark.x)
os = count(range(CELLS), lambda i: _cell(i) == Mark.o)
game.invariant("pieces_alternate", any_of(xs == os, xs == os + 1),
               source=f"{RULES}: x moves first, then players alternate",
               doc="there are as many x as o, or one more x")
game.invariant("pieces_follow_move_count", all_of(xs == (moves + 1) // 2, os == moves // 2),
               source=f"{RULES}: one piece per turn, x first, then players alternate",
               doc="after n moves x has placed ceil(n/2) pieces and o floor(n/2)")
game.invariant("turn_follows_move_count", to_move == moves % 2,
               source=f"{RULES}: players alternate, player 0 first")
game.invariant("height_counts_the_column",
               forall(range(COLS), lambda c: height[c] == count(
                   range(ROWS), lambda r: board[r, c] != Mark.empty)),
               source=f"{RULES}: a piece falls to the lowest empty cell of its column",
               doc="each column's height is the number of pieces in it")
game.invariant("no_floating_pieces",
               forall(range(COLS), lambda c: forall(range(ROWS - 1), lambda r: implies(
                   board[r + 1, c] != Mark.empty, board[r, c] != Mark.empty))),
               source=f"{RULES}: a piece falls to the lowest empty cell of its column",
               doc="every piece above the bottom row sits on another piece")
game.invariant("winner_moved_last", implies(winner != -1, winner == 1 - to_move),
               source=f"{RULES}: the game ends as soon as the mover makes four in a row",
               doc="a winner is the player who made the last move")
game.conservation("cells_filled_one_per_move",
                  moves + count(range(CELLS), lambda i: _cell(i) == Mark.empty),
                  source=f"{RULES}: each turn fills exactly one empty cell",
                  doc="moves made + empty cells stays 42")

# --- how it looks: the upright grid, row 0 at the bottom ---------------------------------
game.view(
    view.grid("Board", rows=ROWS, cols=COLS, cell=lambda r, c: board[r, c], bottom_up=True,
              col_labels=[str(c) for c in range(COLS)], colour="#1f5fbf",
              glyphs={Mark.empty: view.glyph("", "#ffffff", title="empty"),
                      Mark.x: view.glyph("", "#D55E00", title="x: player 0"),
                      Mark.o: view.glyph("", "#F0E442", title="o: player 1")}),
    view.counters("Turn", {"to move": to_move, "moves": moves, "winner": winner}),
)

SPEC = game.build()
