"""English draughts (checkers), written in the rulespec language from its published rules.

Sources (docs/games/checkers.md describes each):
- ``RULES``: "Straight Checkers or English Draughts -- Rules of Play", numbered sections 1-5
  (the board and the men, who moves first, the object, how men move and jump, crowning);
- ``WCDF``: the draw rule of the World Checkers/Draughts Federation's rules, as quoted on
  the littlegolem.net forum ("How many move for a draw", 2018);
- ``SPIEL``, ``SPIEL_H``: OpenSpiel's ``checkers`` (open_spiel/games/checkers/checkers.cc
  and checkers.h): one reading of the draw rule, and the implementation ``conform`` plays
  this spec against.

Rows are numbered as OpenSpiel prints them: row 0 is the top rank "8", row 7 the bottom rank
"1"; a square is named by its file letter and rank ("a3"). The first player's men start on
ranks 1-3 and move up the board; the second player's start on ranks 6-8 and move down.
"""

from rulespec.spec import Game, all_of, any_of, count, forall, if_, implies, not_, ordinal, view

RULES = "Straight Checkers or English Draughts, Rules of Play"
WCDF = "WCDF Rules of Draughts, the draw rule (as quoted on littlegolem.net)"
SPIEL = "OpenSpiel checkers.cc"
SPIEL_H = "OpenSpiel checkers.h"

game = Game("checkers", title="English draughts (checkers)", players=2, source=RULES,
            summary="Two players move men diagonally forward and jump to capture; a man that "
                    "reaches the far side is crowned a king; who cannot move loses.")
rules = game.text(RULES, cite="§{}", quote='"{}"')
wcdf = game.text(WCDF, cite="{}", quote='"{}"')
spiel = game.text(SPIEL, cite="{}", quote='"{}"')
spiel_h = game.text(SPIEL_H, cite="{}", quote='"{}"')

SIDE = game.constant("squares_a_side", 8, source=rules.at(
    "1", "a standard checkerboard of 64 alternating dark and light squares, (eight rows, "
         "eight files)"))
MEN = game.constant("men_each", 12, source=rules.at("1", "two opponents having 12 checkers each"))
START_ROWS = 3   # §2: "the dark squares of the three rows nearest him"

# --- the board -----------------------------------------------------------------------
File = game.enum("File", {f: f"file {f}" for f in "abcdefgh"},
                 source=spiel.at("ColumnLabel", "the column as a letter, 'a' first"))
FILES = list(File)
Square = game.labels("Square", [f + str(SIDE - r) for r in range(SIDE) for f in "abcdefgh"],
                     source=spiel.at("ActionToString", "a square as its file and rank, 'a3'"))
Piece = game.enum("Piece", {
    "empty": "no piece on the square",
    "first_man": "a man of the first player (OpenSpiel's 'o')",
    "second_man": "a man of the second player (OpenSpiel's '+')",
    "first_king": "a king of the first player ('8')",
    "second_king": "a king of the second player ('*')"},
    source=rules.at("4-5", "Single checkers, known as men ... becomes a king"))
Direction = game.enum("Direction", {
    "up_left": "towards rank 8 and file a",
    "up_right": "towards rank 8 and file h",
    "down_right": "towards rank 1 and file h",
    "down_left": "towards rank 1 and file a"},
    source=spiel.at("kDirRowOffsets", "the four diagonal directions, in OpenSpiel's order"))
row_step = game.table("row_step", {Direction.up_left: -1, Direction.up_right: -1,
                                   Direction.down_right: 1, Direction.down_left: 1},
                      source=spiel.at("kDirRowOffsets", "{-1, -1, 1, 1}"))
file_step = game.table("file_step", {Direction.up_left: -1, Direction.up_right: 1,
                                     Direction.down_right: 1, Direction.down_left: -1},
                       source=spiel.at("kDirColumnOffsets", "{-1, 1, 1, -1}"))


def dark(r: int, f: int) -> bool:
    """The playing squares: a dark square is at each player's near left (rank 1, file a)."""
    return (r + f) % 2 == 1


def _start(r: int, f: int):
    if not dark(r, f):
        return Piece.empty
    if r < START_ROWS:
        return Piece.second_man
    if r >= SIDE - START_ROWS:
        return Piece.first_man
    return Piece.empty


board_ = game.field(
    "board", Piece, shape=(Square,),
    initial=[_start(r, f) for r in range(SIDE) for f in range(SIDE)],
    source=rules.at("2", "Each player places his checkers on the dark squares of the three "
                         "rows nearest him"),
    doc="the piece on each square, a8 to h1 (rank 8, the second player's side, first)")


class _Board:
    """``board[r, f]``: the square on row ``r`` (0 = rank 8) and file ``f`` (0 = a)."""

    def __getitem__(self, rf):
        r, f = rf
        return board_[r * SIDE + f]


board = _Board()
to_move = game.field("to_move", range(0, 2), flow=True, source=rules.at(
    "2", "The player with the darker checkers makes the first move of the game, and the "
         "players take turns thereafter"),
    doc="0: the first player (the darker checkers; OpenSpiel's player 0)")
jumping = game.field("jumping", bool, flow=True, source=rules.at(
    "4", "may continue jumping as long as they encounter opposing checkers"),
    doc="a piece has jumped and can jump again: the same player moves it again")
jump_row = game.field("jump_row", range(0, SIDE), flow=True,
                      source=spiel.at("multiple_jump_piece_", "the piece that must jump on"),
                      doc="the row of the piece that must jump on (while jumping)")
jump_file = game.field("jump_file", File, flow=True,
                       source=spiel.at("multiple_jump_piece_", "the piece that must jump on"),
                       doc="the file of the piece that must jump on (while jumping)")

# --- the draw: a reading ----------------------------------------------------------------
draw_rule = game.point(
    "draw_rule", "When is a game without progress drawn?",
    forty_moves_each=wcdf.at(
        "draw", "Neither player has advanced an uncrowned man towards the king-row during "
                "their own previous 40 moves. No pieces have been removed from the board "
                "during their own previous 40 moves."),
    forty_actions=spiel_h.at("header comment, kMaxMovesWithoutCapture = 40",
                             "Game is drawn if no pieces have been removed in 40 moves"),
    default="forty_moves_each",
    because="the published rule: 40 moves of each player with no man advanced and no piece "
        "taken; OpenSpiel counts 40 moves in all and only captures",
    source=rules.at("3", "If neither player can accomplish this, the game is a draw"))
jump_on = game.point(
    "jump_on", "Must a piece that can jump again go on jumping?",
    must=spiel.at("DoApplyAction", "the current player gets to move again with LegalActions "
                                   "restricted to multiple jump moves for this piece"),
    may=rules.at("4", "Men may jump forward only, and may continue jumping as long as they "
                      "encounter opposing checkers"),
    default="must",
    because="a jump is compulsory (OpenSpiel LegalActions), and a jump open after a jump is a "
            "jump like any other; §4's 'may' reads as what a man is able to do",
    source=rules.at("4", "may continue jumping"))
EACH = 40
LIMIT = 2 * EACH
quiet = game.field("quiet", range(0, LIMIT + 1), flow=True, source=draw_rule.source,
                   doc="moves since the last capture (and, under forty_moves_each, since a "
                       "man last moved)")
limit = if_(draw_rule.is_("forty_actions"), EACH, LIMIT)


# --- reading the board -------------------------------------------------------------------
def on_board(r, f) -> object:
    return all_of(r >= 0, r < SIDE, f >= 0, f < SIDE)


def own_man():
    return if_(to_move == 0, Piece.first_man, Piece.second_man)


def own_king():
    return if_(to_move == 0, Piece.first_king, Piece.second_king)


def is_opponent(piece):
    return if_(to_move == 0, any_of(piece == Piece.second_man, piece == Piece.second_king),
               any_of(piece == Piece.first_man, piece == Piece.first_king))


def forward(d):
    """A man moves and jumps only forward: up the board for the first player."""
    return if_(to_move == 0, row_step[d] == -1, row_step[d] == 1)


def crowning_row():
    return if_(to_move == 0, 0, SIDE - 1)


def can_jump_from(r, f, piece, besides=None):
    """The mover's ``piece`` on (r, f) has a jump: an opposing piece next to it and an
    empty square beyond, forward for a man. ``besides``: a direction left out."""
    out = []
    for d in Direction:
        r1, f1 = r + row_step[d], f + file_step[d]
        r2, f2 = r + 2 * row_step[d], f + 2 * file_step[d]
        out.append(all_of(
            d != besides if besides is not None else True,
            any_of(piece == own_king(), forward(d)),
            on_board(r2, f2), is_opponent(board[r1, f1]), board[r2, f2] == Piece.empty))
    return any_of(*out)


def can_step_from(r: int, f: int, piece):
    """The mover's ``piece`` on (r, f) has an empty square next to it, forward for a man."""
    return any_of(*(all_of(any_of(piece == own_king(), forward(d)),
                           on_board(r + row_step[d], f + file_step[d]),
                           board[r + row_step[d], f + file_step[d]] == Piece.empty)
                    for d in Direction))


def _any_piece(can):
    """Some piece of the mover, on a dark square, can do ``can(r, f, piece)``."""
    return any_of(*(all_of(any_of(board[r, f] == own_man(), board[r, f] == own_king()),
                           can(r, f, board[r, f]))
                    for r in range(SIDE) for f in range(SIDE) if dark(r, f)))


def jumps_left():
    """Some piece of the mover can jump (the rules make the jump compulsory)."""
    return _any_piece(can_jump_from)


def cannot_move():
    """No piece of the player to move can jump or move (it has none, or all are blocked)."""
    return not_(_any_piece(lambda r, f, piece: any_of(can_jump_from(r, f, piece),
                                                      can_step_from(r, f, piece))))


# --- the moves ---------------------------------------------------------------------------
def _piece_rules(rule, r, f, d):
    """What a move and a jump both require of the piece moved."""
    rule.require(limit > quiet, "the game is not drawn", source=draw_rule.source)
    rule.require(any_of(board[r, f] == own_man(), board[r, f] == own_king()),
                 "a piece of the player to move stands there",
                 source=rules.at("2", "making one move at a time"))
    rule.require(any_of(board[r, f] == own_king(), forward(d)), "a man goes forward only",
                 source=rules.at("4", "men, move forward only ... Men may jump forward only"))


@game.action(params={"rank": range(1, SIDE + 1), "file": File, "d": Direction},
             text="jump {file}{rank} {d}",
             source=rules.at("4", "Men capture by jumping over an opposing man on a "
                                  "diagonally adjacent square to the square immediately "
                                  "beyond"))
def jump(rule, rank, file, d):
    """Jump the piece on the square over the opposing piece next to it in the direction
    given, taking it; jump on with the same piece while it can."""
    r, f = SIDE - rank, ordinal(file)
    rule.require(implies(jumping, all_of(jump_row == r, jump_file == file)),
                 "the piece that jumped jumps on",
                 source=rules.at("4", "may continue jumping as long as they encounter "
                                      "opposing checkers"))
    _piece_rules(rule, r, f, d)
    r2 = r + 2 * row_step[d]
    f2 = f + 2 * file_step[d]
    rule.require(all_of(on_board(r2, f2), is_opponent(board[r + row_step[d], f + file_step[d]]),
                        board[r2, f2] == Piece.empty),
                 "an opposing piece is next to it and the square beyond is empty",
                 source=rules.at("4", "but may do so only if this square is unoccupied"))
    piece = rule.let(board[r, f], name="piece")
    crowned = rule.let(all_of(piece == own_man(), r2 == crowning_row()), name="crowned")
    rule.set(board[r + row_step[d], f + file_step[d]], Piece.empty,
             source=rules.at("4", "Men capture by jumping over an opposing man"))
    rule.set(board[r, f], Piece.empty)
    rule.set(board[r2, f2], if_(crowned, own_king(), piece),
             source=rules.at("5", "A man which reaches the far side of the board, whether by "
                                  "means of a jump or a simple move, becomes a king"))
    rule.set(quiet, 0, source=draw_rule.source)
    on = rule.let(all_of(not_(crowned), can_jump_from(r2, f2, piece)), name="jumps_on")
    with rule.when(on, source=rules.at("4", "may continue jumping as long as they encounter "
                                            "opposing checkers with unoccupied squares "
                                            "immediately beyond them")):
        rule.set(jumping, True)
        rule.set(jump_row, r2)
        for k, name in enumerate(FILES):
            with rule.when(f2 == k):
                rule.set(jump_file, name)
    with rule.otherwise(source=rules.at("5", "becomes a king, and the move terminates")):
        rule.set(jumping, False)
        rule.set(to_move, 1 - to_move)


@game.action(text="stop jumping", source=jump_on.source)
def stop(rule):
    """End a turn's jumps while the piece could jump on (only where that is allowed)."""
    rule.require(jumping, "a piece has jumped and could jump on", source=jump_on.source)
    rule.require(jump_on.is_("may"), "a piece may stop jumping", source=jump_on.source)
    rule.set(jumping, False)
    rule.set(to_move, 1 - to_move, source=rules.at("2", "the players take turns"))


@game.action(params={"rank": range(1, SIDE + 1), "file": File, "d": Direction},
             text="move {file}{rank} {d}",
             source=rules.at("4", "move forward only, one square at a time in a diagonal "
                                  "direction, to an unoccupied square"))
def move(rule, rank, file, d):
    """Move the piece on the square one square in the direction given."""
    r, f = SIDE - rank, ordinal(file)
    rule.require(not_(jumping), "no piece is jumping on", source=jump_on.source)
    rule.require(not_(jumps_left()), "no jump can be made: a jump must be taken",
                 source=spiel.at("LegalActions", "If capture moves are possible, it's "
                                                 "mandatory to play them"))
    _piece_rules(rule, r, f, d)
    r1 = r + row_step[d]
    f1 = f + file_step[d]
    rule.require(all_of(on_board(r1, f1), board[r1, f1] == Piece.empty),
                 "the square it moves to is empty",
                 source=rules.at("4", "to an unoccupied square"))
    piece = rule.let(board[r, f], name="piece")
    man = rule.let(piece == own_man(), name="a_man_moves")
    rule.set(board[r, f], Piece.empty)
    rule.set(board[r1, f1], if_(all_of(man, r1 == crowning_row()), own_king(), piece),
             source=rules.at("5", "A man which reaches the far side of the board ... "
                                  "becomes a king"))
    rule.set(quiet, if_(all_of(man, draw_rule.is_("forty_moves_each")), 0, quiet + 1),
             source=draw_rule.source)
    rule.set(to_move, 1 - to_move, source=rules.at("2", "the players take turns"))


# --- flow, the end, the score ----------------------------------------------------------
game.current_player(to_move, source=rules.at("2", "the players take turns"))
drawn = quiet >= limit
game.terminal(any_of(drawn, cannot_move()), source=rules.at(
    "3", "The object of the game is to prevent the opponent from being able to move when it "
         "is his turn to do so"))
# at most 23 captures and 2 x 12 x 7 man moves restart the count; 80 moves between restarts
game.max_steps((2 * MEN - 1 + 2 * MEN * (SIDE - 1) + 1) * LIMIT, source=draw_rule.source)
game.score(lambda p: if_(drawn, 0, if_(p == to_move, -1, 1)),
           source=rules.at("3", "to prevent the opponent from being able to move ... If "
                                "neither player can accomplish this, the game is a draw"))
game.shared_ties(source=rules.at("3", "the game is a draw"))


# --- what must always hold ---------------------------------------------------------------
def pieces(*kinds):
    return count(range(SIDE * SIDE), lambda i: any_of(
        *(board[i // SIDE, i % SIDE] == k for k in kinds)))


game.invariant("pieces_stand_on_dark_squares",
               all_of(*(board[r, f] == Piece.empty for r in range(SIDE) for f in range(SIDE)
                        if not dark(r, f))),
               source=rules.at("1", "is played on the dark squares only"))
game.invariant("at_most_twelve_pieces_each",
               all_of(pieces(Piece.first_man, Piece.first_king) <= MEN,
                      pieces(Piece.second_man, Piece.second_king) <= MEN),
               source=rules.at("1", "two opponents having 12 checkers each"))
game.invariant("no_man_on_its_far_side",
               all_of(*(all_of(board[0, f] != Piece.first_man,
                               board[SIDE - 1, f] != Piece.second_man) for f in range(SIDE))),
               source=rules.at("5", "A man which reaches the far side of the board ... "
                                    "becomes a king"))
game.invariant("the_jumping_piece_is_the_movers",
               implies(jumping, forall(range(SIDE), lambda r: all_of(*(
                   implies(all_of(jump_row == r, jump_file == FILES[f]),
                           any_of(board[r, f] == own_man(), board[r, f] == own_king()))
                   for f in range(SIDE))))),
               source=rules.at("4", "may continue jumping"))

# --- how it looks --------------------------------------------------------------------------
game.view(
    view.grid("Board (rank 8 at the top)", rows=SIDE, cols=SIDE,
              cell=lambda r, c: board[r, c],
              row_labels=[str(SIDE - r) for r in range(SIDE)], col_labels=list("abcdefgh"),
              glyphs={Piece.empty: view.glyph("", "#ffffff", title="empty"),
                      Piece.first_man: view.glyph("o", "#D55E00", title="the first player's man"),
                      Piece.second_man: view.glyph("+", "#222222",
                                                   title="the second player's man"),
                      Piece.first_king: view.glyph("8", "#D55E00",
                                                   title="the first player's king"),
                      Piece.second_king: view.glyph("*", "#222222",
                                                    title="the second player's king")}),
    view.counters("Turn", {"to move": to_move, "moves without progress": quiet}),
)

SPEC = game.build()
