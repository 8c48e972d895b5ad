"""How a game's state looks to a person: a declarative *view* a spec declares.

A view is data, like the rules: a list of parts (a grid, a row of slots, a track, counters,
a map of named places, rows of tiles, a pile of cards), each reading the state through IR
expressions. One generic renderer (``rulespec.draw``: SVG and text) draws any game from it;
no game has drawing code of its own.

Each builder runs once, at load, like a rule function: a ``cell=lambda r, c: board[r, c]``
is called for every cell to record an expression. With ``player=True`` the part is drawn
once per player and every function takes the player number first.

>>> from rulespec.spec import Game
>>> g = Game("demo", title="Demo", players=2, source="s")
>>> Mark = g.enum("Mark", ["empty", "x"], source="s")
>>> board = g.field("board", Mark, shape=(2, 2), source="s")
>>> part = grid("Board", rows=2, cols=2, cell=lambda r, c: board[r, c],
...             glyphs={Mark.x: glyph("X", "#d55e00")})
>>> built = part.parts(max_players=2)
>>> len(built[0].cells), built[0].glyphs[1].text
(2, 'X')
"""

from __future__ import annotations

from typing import Any, Callable, Mapping, Sequence

import attrs

from ..ir.errors import SpecError
from ..ir.location import Location, caller_location
from ..ir.nodes import BOOL, Expr, lift

#: how a glyph is drawn
SHAPES = ("disc", "square", "card", "pawn", "ring", "none")


@attrs.frozen
class Glyph:
    """What a value looks like: a short text on a shape, in a colour (CSS colour).
    ``legend=False``: its text needs no entry of its own in the report's legend (the
    view's declared legend explains its parts, as suit and rank letters do a card's)."""

    text: str = ""
    colour: str | None = None
    shape: str = "disc"
    title: str | None = None
    legend: bool = True

    def __attrs_post_init__(self) -> None:
        if self.shape not in SHAPES:
            raise SpecError(f"glyph shape must be one of {', '.join(SHAPES)}, got "
                            f"{self.shape!r}", element="view")


def glyph(text: str = "", colour: str | None = None, *, shape: str = "disc",
          title: str | None = None, legend: bool = True) -> Glyph:
    """A glyph: ``glyph("X", "#d55e00")``; ``title`` is the longer name shown on hover and
    in the report's legend (``legend=False``: not in the legend, see :class:`Glyph`)."""
    return Glyph(text, colour, shape, title, legend)


@attrs.frozen(eq=False)
class Grid:
    """A rectangular (or hexagonal) board of cells; each cell's value picks a glyph."""

    title: str
    cells: tuple[tuple[Expr, ...], ...]
    glyphs: Mapping[int, Glyph]
    player: int | None = None
    row_labels: tuple[str, ...] = ()
    col_labels: tuple[str, ...] = ()
    hexagonal: bool = False
    colour: str | None = None
    #: the lines drawn on the cells' borders, in display order: ``across[k][c]`` the line
    #: over display row ``k`` (``k == rows``: under the last), ``down[r][k]`` the line left
    #: of column ``k`` of display row ``r``; each a bool expression (drawn when true)
    across: tuple[tuple[Expr, ...], ...] = ()
    down: tuple[tuple[Expr, ...], ...] = ()
    line_colour: str | None = None


@attrs.frozen(eq=False)
class Counters:
    """Named numbers (resources, points) with an optional glyph each."""

    title: str
    items: tuple[tuple[str, Expr, Glyph | None], ...]
    player: int | None = None


@attrs.frozen(eq=False)
class Slots:
    """A row of slots; each shows the glyph of its value and, optionally, the player on it."""

    title: str
    values: tuple[Expr, ...]
    glyphs: Mapping[int, Glyph]
    labels: tuple[str, ...] = ()
    owners: tuple[Expr, ...] = ()
    player: int | None = None


@attrs.frozen(eq=False)
class Track:
    """Numbered spaces ``lo..hi`` with markers on them (a round track, a score track)."""

    title: str
    lo: int
    hi: int
    markers: tuple[tuple[Expr, Glyph | None, int | None], ...]


@attrs.frozen
class Spot:
    """A named place of a map, drawn at (x, y) in a 0..100 square."""

    key: int
    label: str
    x: float
    y: float


@attrs.frozen(eq=False)
class Chip:
    """``count`` copies of a glyph (price tokens on a place, cards in a hand)."""

    count: Expr
    glyph: Glyph


@attrs.frozen(eq=False)
class Piece:
    """Something that stands on a map spot: ``at`` is the spot's key (no such spot: hidden).

    A ``tile`` fills its spot (a label and chips); a ``token`` is a small marker on it,
    in its player's colour when ``player`` is set.
    """

    at: Expr
    label: str
    kind: str = "token"
    glyph: Glyph | None = None
    player: int | None = None
    chips: tuple[Chip, ...] = ()


@attrs.frozen(eq=False)
class PlaceMap:
    """Named places at fixed positions, the links between them, and pieces on them."""

    title: str
    spots: tuple[Spot, ...]
    links: tuple[tuple[int, int], ...]
    pieces: tuple[Piece, ...]


@attrs.frozen(eq=False)
class Tile:
    """A tile in a row: drawn when ``present``; ``width`` columns wide; a badge (e.g. "II")
    when ``badge`` holds."""

    present: Expr
    glyph: Glyph
    width: int = 1
    badge: Expr | None = None
    badge_text: str = ""


@attrs.frozen(eq=False)
class Row:
    """One row of a tableau: its tiles in drawing order, a marker beside it, a flag."""

    label: str
    tiles: tuple[Tile, ...]
    marker: Expr | None = None
    flag: Expr | None = None


@attrs.frozen(eq=False)
class Rows:
    """A player's tableau: rows of tiles over ``columns`` columns, a marker column on the
    left (``marker_glyph``), a count of markers over the columns from the right
    (``top``: how many, ``top_glyph``), and a flag per row (``flag_text``: true / false)."""

    title: str
    rows: tuple[Row, ...]
    columns: int
    player: int | None = None
    marker_glyph: Glyph | None = None
    top: Expr | None = None
    top_glyph: Glyph | None = None
    flag_text: tuple[str, str] = ("valid", "not valid")


@attrs.frozen(eq=False)
class Pile:
    """A heap of chips or cards: ``count`` copies of each glyph, in declared order."""

    title: str
    chips: tuple[Chip, ...]
    player: int | None = None


Part = Grid | Counters | Slots | Track | PlaceMap | Rows | Pile


@attrs.frozen(eq=False)
class View:
    """Everything a game declares about how it looks: its parts, in reading order, and
    what its abbreviations stand for (``legend``: text drawn -> meaning, e.g. ``"Pa"`` ->
    ``"palm"``; the report's legend adds every glyph's text -> title it does not cover)."""

    parts: tuple[Part, ...]
    where: Location | None = None
    legend: tuple[tuple[str, str], ...] = ()

    def exprs(self) -> list[Expr]:
        """Every expression the view reads (for the renderer to compile once)."""
        out: list[Expr] = []
        for part in self.parts:
            out.extend(_part_exprs(part))
        return out


def _part_exprs(part: Part) -> list[Expr]:
    if isinstance(part, Grid):
        return [c for rows in (part.cells, part.across, part.down) for row in rows for c in row]
    if isinstance(part, Counters):
        return [e for _, e, _ in part.items]
    if isinstance(part, Slots):
        return [*part.values, *part.owners]
    if isinstance(part, Track):
        return [e for e, _, _ in part.markers]
    if isinstance(part, PlaceMap):
        return [e for p in part.pieces for e in (p.at, *(c.count for c in p.chips))]
    if isinstance(part, Rows):
        out = [] if part.top is None else [part.top]
        for row in part.rows:
            out += [e for e in (row.marker, row.flag) if e is not None]
            for t in row.tiles:
                out += [t.present] + ([t.badge] if t.badge is not None else [])
        return out
    if isinstance(part, Pile):
        return [c.count for c in part.chips]
    raise TypeError(part)  # pragma: no cover - parts are a closed set


# --- builders (called from a spec; they run once) ---------------------------------------
def _players(player: bool, max_players: int) -> list[int | None]:
    return list(range(max_players)) if player else [None]


def _call(fn: Callable[..., Any], p: int | None, *args: Any) -> Any:
    return fn(*args) if p is None else fn(p, *args)


def _expr(x: Any, what: str) -> Expr:
    try:
        return lift(x)
    except Exception as err:  # noqa: BLE001 - name the part in the spec's error
        raise SpecError(f"{what}: {err}", element="view", where=caller_location()) from None


def _glyphs(glyphs: Mapping[Any, Glyph] | None) -> dict[int, Glyph]:
    out: dict[int, Glyph] = {}
    for key, g in (glyphs or {}).items():
        k = key.args[0] if isinstance(key, Expr) and key.op == "const" else key
        if not isinstance(k, (int, bool)):
            raise SpecError(f"a glyph key must be an enum member, int or bool, got {key!r}",
                            element="view", where=caller_location())
        out[int(k)] = g
    return out


@attrs.frozen(eq=False)
class Deferred:
    """A part waiting for the game's player count (per-player parts need it):
    ``Game.view`` builds it. ``where`` is the spec line that declared it."""

    build: Callable[[int], list[Part]]
    where: Location | None

    def parts(self, max_players: int) -> list[Part]:
        return self.build(max_players)


def _deferred(build: Callable[[int], list[Any]]) -> Deferred:
    return Deferred(build, caller_location())


def grid(title: str, *, rows: int, cols: int, cell: Callable[..., Any],
         glyphs: Mapping[Any, Glyph] | None = None, player: bool = False,
         row_labels: Sequence[str] = (), col_labels: Sequence[str] = (),
         hexagonal: bool = False, bottom_up: bool = False,
         colour: str | None = None, horizontal: Callable[..., Any] | None = None,
         vertical: Callable[..., Any] | None = None,
         line_colour: str | None = None) -> Deferred:
    """A board of ``rows`` x ``cols`` cells; ``cell(r, c)`` is the cell's value.

    ``bottom_up``: row 0 is drawn at the bottom (Connect Four). ``hexagonal``: each row
    is shifted half a cell further right (a Hex rhombus). ``colour``: the board's colour.
    ``horizontal(r, c)`` (``r`` in ``0..rows``, ``c`` in ``0..cols-1``): a line is drawn on
    the border between rows ``r - 1`` and ``r`` of column ``c`` where it holds;
    ``vertical(r, c)`` (``c`` in ``0..cols``): between columns ``c - 1`` and ``c`` of row
    ``r`` (Dots and Boxes' lines; ``line_colour`` draws them).
    """
    where = caller_location()
    table = _glyphs(glyphs)
    order = list(range(rows - 1, -1, -1)) if bottom_up else list(range(rows))
    across_order = list(range(rows, -1, -1)) if bottom_up else list(range(rows + 1))
    labels = tuple(row_labels[r] for r in order) if row_labels else ()
    if hexagonal and (horizontal is not None or vertical is not None):
        raise SpecError("a hexagonal grid draws no border lines (horizontal=, vertical=)",
                        element="view", where=where)

    def build(n: int) -> list[Any]:
        out = []
        for p in _players(player, n):
            across = () if horizontal is None else tuple(tuple(
                _bool(_call(horizontal, p, r, c), f"{title} line over ({r}, {c})")
                for c in range(cols)) for r in across_order)
            down = () if vertical is None else tuple(tuple(
                _bool(_call(vertical, p, r, c), f"{title} line left of ({r}, {c})")
                for c in range(cols + 1)) for r in order)
            out.append(Grid(title, tuple(tuple(_expr(_call(cell, p, r, c),
                                                     f"{title} cell ({r}, {c})")
                                               for c in range(cols)) for r in order),
                            table, p, labels, tuple(col_labels), hexagonal, colour, across,
                            down, line_colour))
        return out
    return _deferred(build)


def counters(title: str, items: Mapping[str, Any], *,
             glyphs: Mapping[str, Glyph] | None = None, player: bool = False) -> Deferred:
    """Named numbers: ``items`` maps a label to a value (with ``player=True``, a function
    of the player)."""
    def build(n: int) -> list[Any]:
        return [Counters(title, tuple(
            (label, _expr(_call(v, p) if player else v, f"{title} {label}"),
             (glyphs or {}).get(label)) for label, v in items.items()), p)
            for p in _players(player, n)]
    return _deferred(build)


def slots(title: str, *, count: int, value: Callable[..., Any],
          glyphs: Mapping[Any, Glyph] | None = None, labels: Sequence[str] = (),
          owner: Callable[..., Any] | None = None, player: bool = False) -> Deferred:
    """A row of ``count`` slots; ``value(i)`` picks the glyph of slot ``i`` and
    ``owner(i)`` the player standing on it (-1: nobody)."""
    table = _glyphs(glyphs)

    def build(n: int) -> list[Any]:
        out = []
        for p in _players(player, n):
            vals = tuple(_expr(_call(value, p, i), f"{title} slot {i}") for i in range(count))
            owners = () if owner is None else tuple(
                _expr(_call(owner, p, i), f"{title} owner {i}") for i in range(count))
            out.append(Slots(title, vals, table, tuple(labels), owners, p))
        return out
    return _deferred(build)


def track(title: str, *, lo: int, hi: int, markers: Mapping[str, Any] | None = None,
          per_player: Callable[[int], Any] | None = None,
          glyphs: Mapping[str, Glyph] | None = None) -> Deferred:
    """Spaces ``lo..hi``; ``markers`` maps a label to a position, ``per_player(p)`` puts a
    marker in each player's colour."""
    def build(n: int) -> list[Any]:
        ms: list[tuple[Expr, Glyph | None, int | None]] = []
        for label, pos in (markers or {}).items():
            g = (glyphs or {}).get(label) or Glyph(label[:2], None, "disc", label)
            ms.append((_expr(pos, f"{title} {label}"), g, None))
        if per_player is not None:
            for p in range(n):
                ms.append((_expr(per_player(p), f"{title} player {p}"), None, p))
        return [Track(title, lo, hi, tuple(ms))]
    return _deferred(build)


def spot(key: int, label: str, x: float, y: float) -> Spot:
    """A map place: its key (what pieces' ``at`` compares with), label and position."""
    return Spot(key, label, float(x), float(y))


def chip(count: Any, g: Glyph) -> Chip:
    """``count`` copies of glyph ``g``."""
    return Chip(_expr(count, f"chip {g.text}"), g)


def piece(at: Any, label: str = "", *, kind: str = "token", glyph: Glyph | None = None,
          player: int | None = None, chips: Sequence[Chip] = ()) -> Piece:
    """A tile or token standing on the spot whose key equals ``at``."""
    if kind not in ("tile", "token"):
        raise SpecError(f"a piece is a 'tile' or a 'token', not {kind!r}", element="view",
                        where=caller_location())
    return Piece(_expr(at, f"piece {label}"), label, kind, glyph, player, tuple(chips))


def place_map(title: str, *, spots: Sequence[Spot], pieces: Callable[[int], Sequence[Piece]],
              links: Sequence[tuple[int, int]] = ()) -> Deferred:
    """Named places at fixed positions; ``pieces(n)`` lists what may stand on them for a
    game of up to ``n`` players."""
    keys = {s.key for s in spots}
    bad = [link for link in links if link[0] not in keys or link[1] not in keys]
    if bad:
        raise SpecError(f"{title}: links name unknown spots {bad}", element="view",
                        where=caller_location())

    def build(n: int) -> list[Any]:
        return [PlaceMap(title, tuple(spots), tuple((a, b) for a, b in links),
                         tuple(pieces(n)))]
    return _deferred(build)


def tile(present: Any, g: Glyph, *, width: int = 1, badge: Any = None,
         badge_text: str = "") -> Tile:
    """A tile of a tableau row, drawn when ``present`` holds."""
    return Tile(_bool(present, f"tile {g.text}"), g, width,
                None if badge is None else _bool(badge, f"tile {g.text} badge"), badge_text)


def tableau(title: str, *, rows: int, columns: int, tiles: Callable[..., Sequence[Tile]],
            row_label: Callable[[int], str] = lambda r: str(r + 1),
            marker: Callable[..., Any] | None = None, marker_glyph: Glyph | None = None,
            top: Callable[..., Any] | None = None, top_glyph: Glyph | None = None,
            flag: Callable[..., Any] | None = None,
            flag_text: tuple[str, str] = ("valid", "not valid"),
            player: bool = False) -> Deferred:
    """Rows of tiles (a player's villages): ``tiles(r)`` lists row ``r``'s possible tiles
    in drawing order, ``marker(r)`` a marker beside the row, ``top()`` how many markers
    stand over the columns (counted from the right), ``flag(r)`` a yes/no per row."""
    def build(n: int) -> list[Any]:
        out = []
        for p in _players(player, n):
            rs = [Row(row_label(r), tuple(_call(tiles, p, r)),
                      None if marker is None else _bool(_call(marker, p, r), "marker"),
                      None if flag is None else _bool(_call(flag, p, r), "flag"))
                  for r in range(rows)]
            out.append(Rows(title, tuple(rs), columns, p, marker_glyph,
                            None if top is None else _expr(_call(top, p), "top"), top_glyph,
                            flag_text))
        return out
    return _deferred(build)


def pile(title: str, chips: Callable[..., Sequence[Chip]] | Sequence[Chip], *,
         player: bool = False) -> Deferred:
    """A heap of chips or cards (``shape="card"`` glyphs draw as cards)."""
    def build(n: int) -> list[Any]:
        return [Pile(title, tuple(_call(chips, p) if player else chips), p)
                for p in _players(player, n)]
    return _deferred(build)


def _bool(x: Any, what: str) -> Expr:
    e = _expr(x, what)
    if e.type != BOOL:
        raise SpecError(f"{what} must be a bool, got {e.type}", element="view",
                        where=caller_location())
    return e
