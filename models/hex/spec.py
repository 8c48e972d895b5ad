"""Hex, written in the rulespec language.

Source: OpenSpiel's ``hex`` (open_spiel/games/hex/hex.cc), without the swap rule (its
default), on boards of 3x3, 4x4, 5x5, 7x7, 9x9 or 11x11 cells: OpenSpiel's ``board_size``
parameter is the option point ``board_size`` here (default 3, the board Z3 proves the most
about; OpenSpiel's own default is 11).
See README.md.

Two players take turns putting a stone of their colour on an empty cell of a rhombus of
hexagons. Black (player 0, ``x``) moves first and wins by joining the north edge (the first
row) to the south edge (the last row) with a chain of black stones; White (``o``) joins the
west edge to the east edge. The first chain wins; Hex has no draws.
"""

from rulespec.spec import (Game, Graph, all_of, any_of, connected, count, forall, if_, implies,
                           not_, ordinal, sum_of, view)

HEX = "OpenSpiel hex.cc"

game = Game("hex", title="Hex", players=2, source=HEX,
            summary="Join your two edges of a rhombus of hexagons with a chain of your stones.")

# --- the board ---------------------------------------------------------------------------
MAX = game.constant("largest_board", 11, source=f"{HEX}: board_size, up to 11 (OpenSpiel's "
                                                 "default) in this spec")
SIZES = (3, 4, 5, 7, 9, 11)
LETTERS = "abcdefghijk"
board_size = game.interpretation(
    "board_size", question="Which board (OpenSpiel's board_size parameter)?",
    options={str(n): f"{HEX}: board_size = {n} (num_cols = num_rows = {n})" for n in SIZES},
    default="3", source=f"{HEX}: parameter board_size (default 11; 3, 4, 5, 7, 9 and 11 "
                        "modelled here)")


def by_size(pick):
    """``pick(n)`` on the board in play: one value per size (they fold at compile time)."""
    out = pick(SIZES[-1])
    for n in reversed(SIZES[:-1]):
        out = if_(board_size.is_(str(n)), pick(n), out)
    return out


size = by_size(lambda n: n)

Col = game.enum("Col", {c: f"column {c}" for c in LETTERS},
                source=f"{HEX}: ActionToString: the column as a letter, 'a' first")
Stone = game.enum("Stone", {"empty": "no stone", "black": "player 0's stone (x), moves first",
                            "white": "player 1's stone (o)"},
                  source=f"{HEX}: CellState kEmpty, kBlack (player 0), kWhite (player 1)")
board = game.field("board", Stone, shape=(MAX, Col), initial=Stone.empty,
                   source=f"{HEX}: board_, cell = row * num_cols + col",
                   doc="board[row, col], row 0 the north edge; cells off a smaller board stay "
                       "empty")
to_move = game.field("to_move", range(0, 2), flow=True,
                     source=f"{HEX}: current_player_, black (0) first")
moves = game.field("moves", range(0, MAX * MAX + 1), flow=True,
                   source=f"{HEX}: one stone per move")
winner = game.field("winner", range(-1, 2), initial=-1, flow=True,
                    source=f"{HEX}: result_black_perspective_",
                    doc="-1 while nobody has won")

# The cells as a graph: node r * MAX + c, with the six neighbours of AdjacentCells.
GRID = Graph.hex_grid(MAX, MAX)
COLS = list(Col)


def cell(i):
    return board[i // MAX, COLS[i % MAX]]


def chain(stone, n):
    """A chain of ``stone`` joins its two edges of the n x n board."""
    if stone == "black":
        ends = dict(sources=[c for c in range(n)], targets=[(n - 1) * MAX + c for c in range(n)],
                    text=f"a chain of black stones joins row 1 to row {n}")
    else:
        ends = dict(sources=[r * MAX for r in range(n)],
                    targets=[r * MAX + n - 1 for r in range(n)],
                    text=f"a chain of white stones joins column a to column {LETTERS[n - 1]}")
    # only the n x n cells take part: off the board a node is never a member
    return connected(GRID, lambda i: cell(i) == Stone[stone] if i // MAX < n and i % MAX < n
                     else False, **ends)


def joined(stone):
    """``stone``'s edges are joined on the board in play (the sizes fold at compile time)."""
    return by_size(lambda n: chain(stone, n))


# --- the move ----------------------------------------------------------------------------
@game.action(params={"r": range(1, MAX + 1), "c": Col}, text="{c}{r}",
             source=f"{HEX}: DoApplyAction: a stone on an empty cell (ActionToString 'a1')")
def place(rule, r, c):
    """Put the mover's stone in column ``c``, row ``r`` (1 = the north edge)."""
    rule.require(all_of(r <= size, ordinal(c) < size), "the cell is on the board",
                 source=f"{HEX}: board_ has num_rows x num_cols cells")
    rule.require(board[r - 1, c] == Stone.empty, "the cell is empty",
                 source=f"{HEX}: LegalActions: any empty cell")
    rule.set(board[r - 1, c], if_(to_move == 0, Stone.black, Stone.white))
    rule.add(moves, 1)
    with rule.when(if_(to_move == 0, joined("black"), joined("white")),
                   source=f"{HEX}: a stone joining its colour's two edges wins (kBlackWin)"):
        rule.set(winner, to_move)
    rule.set(to_move, 1 - to_move, source=f"{HEX}: players alternate")


# --- flow and the end --------------------------------------------------------------------
game.current_player(to_move, source=f"{HEX}: CurrentPlayer")
game.terminal(winner != -1, source=f"{HEX}: IsTerminal: result_black_perspective_ != 0")
game.max_steps(MAX * MAX, source=f"{HEX}: one stone per cell (MaxGameLength = num_cells)")
game.score(lambda p: if_(winner == -1, 0, if_(winner == p, 1, -1)),
           source=f"{HEX}: Returns: +1 to the winner, -1 to the loser (kZeroSum)")

game.view(
    view.grid("Board (rows 1-11, columns a-k; a smaller board uses the top left)", rows=MAX,
              cols=MAX, cell=lambda r, c: board[r, COLS[c]], hexagonal=True,
              row_labels=[str(r + 1) for r in range(MAX)], col_labels=list(LETTERS),
              glyphs={Stone.empty: view.glyph("", "#ffffff", title="empty"),
                      Stone.black: view.glyph("x", "#222222", title="black: player 0"),
                      Stone.white: view.glyph("o", "#d9d9d9", title="white: player 1")}),
    view.counters("Turn", {"to move": to_move, "moves": moves, "winner": winner}),
)

# --- what must always hold -------------------------------------------------------------
def stones(stone):
    return sum_of(range(MAX), lambda r: count(Col, lambda c: board[r, c] == stone))


def on_board(r, c):
    return all_of(r < size, ordinal(c) < size)


game.invariant("stones_alternate",
               any_of(stones(Stone.black) == stones(Stone.white),
                      stones(Stone.black) == stones(Stone.white) + 1),
               source=f"{HEX}: black first, then players alternate")
game.invariant("turn_follows_move_count", to_move == moves % 2,
               source=f"{HEX}: players alternate, black first")
game.invariant("off_board_cells_stay_empty",
               forall(range(MAX), lambda r: forall(Col, lambda c: implies(
                   not_(on_board(r, c)), board[r, c] == Stone.empty))),
               source=f"{HEX}: the board has board_size x board_size cells")
game.invariant("winner_moved_last", implies(winner != -1, winner == 1 - to_move),
               source=f"{HEX}: the game ends with the winning stone")
game.invariant("a_winner_has_a_chain",
               all_of(implies(winner == 0, joined("black")), implies(winner == 1, joined("white"))),
               source=f"{HEX}: kBlackWin / kWhiteWin: the winning stone joins two edges")
game.invariant("no_chain_without_a_winner",
               implies(winner == -1, all_of(not_(joined("black")), not_(joined("white")))),
               source=f"{HEX}: DoApplyAction checks every move: the first chain ends the game")
game.invariant("a_full_board_has_a_winner", implies(moves == size * size, winner != -1),
               source=f"{HEX}: no draws in Hex (the game ends before the board is full "
                      "or with its last stone)")
game.conservation("cells_filled_one_per_move", moves + sum_of(range(MAX), lambda r: count(
    Col, lambda c: all_of(on_board(r, c), board[r, c] == Stone.empty))),
                  source=f"{HEX}: each move fills one empty cell")

SPEC = game.build()
