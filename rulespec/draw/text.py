"""The board as text: what ``print(state)`` shows, drawn from the same view as the pictures.

Each part of the view becomes a few lines under its title, in the pictures' reading order
(one player's parts together): a grid as rows of cells, counters as label and value,
slots and piles as bracketed glyph texts, a map as its occupied places, a tableau as its
rows. Glyphs show their text (an empty one its title), a value without a glyph its name
or number, an empty cell ``·``. Lines fit :data:`WIDTH` columns (a wide CJK character
counts two), as all the command line's output does.
"""

from __future__ import annotations

from typing import Any, Callable

from rich.cells import cell_len

from ..ir.nodes import Expr
from ..spec.view import (Counters, Glyph, Grid, Part, Pile, PlaceMap, Rows, Slots, Track)
from .values import ViewValues

WIDTH = 100
EMPTY = "·"


def _pad(text: str, width: int) -> str:
    return text + " " * max(0, width - cell_len(text))


def _flow(items: list[str], indent: str = "  ") -> list[str]:
    """Items side by side, separated by a space, wrapped at :data:`WIDTH`."""
    lines, line = [], indent
    for item in items:
        if line.strip() and cell_len(line) + 1 + cell_len(item) > WIDTH:
            lines.append(line.rstrip())
            line = indent
        line += ("" if not line.strip() else " ") + item
    return lines + ([line.rstrip()] if line.strip() else [])


def _glyph_text(g: Glyph | None) -> str:
    if g is None:
        return EMPTY
    return g.text or g.title or EMPTY


class Board:
    """A game's view, compiled: ``text(state)`` writes a state as a text board.

    ``model`` is anything with the spec and the interpretation (a :class:`rulespec.Model`).
    """

    def __init__(self, model: Any) -> None:
        self.model = model
        self.values = ViewValues(model.spec, dict(model.interpretation))

    def text(self, state: Any, caption: str | None = None) -> str:
        from .svg import _by_player  # the pictures' reading order, one player's parts together
        self.values.read(state.values)
        out = [caption] if caption else []
        for part, _ in _by_player(self.values.view.parts, state.values[0]):
            title = part.title
            player = getattr(part, "player", None)
            out.append(title if player is None else f"{title} · player {player}")
            out.extend(self._part(part))
        return "\n".join(out)

    def _v(self, e: Expr) -> Any:
        return self.values.of(e)

    def _cell(self, e: Expr, table: dict) -> str:
        v = self._v(e)
        if v is None:
            return "?"
        if table:
            return _glyph_text(table.get(int(v))) if int(v) in table else EMPTY
        return self.values.shown(e, v)

    def _part(self, part: Part) -> list[str]:
        draw: dict[type, Callable[[Any], list[str]]] = {
            Grid: self._grid, Counters: self._counters, Slots: self._slots,
            Track: self._track, PlaceMap: self._map, Rows: self._rows, Pile: self._pile}
        return draw[type(part)](part)

    def _grid(self, part: Grid) -> list[str]:
        cells = [[self._cell(e, part.glyphs) for e in row] for row in part.cells]
        if part.across or part.down:
            return self._bordered(part, cells)
        cols = len(cells[0]) if cells else 0
        width = max([cell_len(c) for row in cells for c in row]
                    + [cell_len(x) for x in part.col_labels[:cols]] + [1])
        left = max([cell_len(x) for x in part.row_labels] + [0])
        lines = []
        if part.col_labels:
            lines.append("  " + " " * (left + 1 if left else 0)
                         + " ".join(_pad(x, width) for x in part.col_labels[:cols]).rstrip())
        for r, row in enumerate(cells):
            label = _pad(part.row_labels[r], left) + " " if r < len(part.row_labels) else (
                " " * (left + 1) if left else "")
            shift = " " * ((width + 1) // 2 * r) if part.hexagonal else ""
            lines.append(("  " + label + shift + " ".join(_pad(c, width) for c in row)).rstrip())
        return lines

    def _bordered(self, part: Grid, cells: list[list[str]]) -> list[str]:
        """A grid with lines on its borders: ``+--+`` over a cell, ``|`` beside one."""
        width = max([cell_len(c) for row in cells for c in row] + [1])
        rows, cols = len(cells), len(cells[0]) if cells else 0
        on = lambda e: bool(self._v(e))  # noqa: E731

        def across(k: int) -> str:
            line = part.across[k] if part.across else ()
            return "+" + "+".join(("-" * (width + 2)) if c < len(line) and on(line[c])
                                  else " " * (width + 2) for c in range(cols)) + "+"
        lines = []
        for r in range(rows):
            lines.append("  " + across(r).rstrip())
            down = part.down[r] if part.down else ()
            bar = ["|" if k < len(down) and on(down[k]) else " " for k in range(cols + 1)]
            lines.append(("  " + "".join(f"{bar[c]} {_pad(cells[r][c], width)} "
                                         for c in range(cols)) + bar[cols]).rstrip())
        lines.append("  " + across(rows).rstrip())
        return lines

    def _counters(self, part: Counters) -> list[str]:
        left = max((cell_len(label) for label, _, _ in part.items), default=0)
        return [f"  {_pad(label, left)}  {self.values.shown(e)}" for label, e, _ in part.items]

    def _slots(self, part: Slots) -> list[str]:
        items = []
        for i, e in enumerate(part.values):
            shown = self._cell(e, part.glyphs)
            who = self._v(part.owners[i]) if i < len(part.owners) else None
            owner = f" (player {who})" if isinstance(who, int) and who >= 0 else ""
            label = f"{part.labels[i]}: " if i < len(part.labels) else ""
            items.append(f"[{label}{shown}{owner}]")
        return _flow(items)

    def _track(self, part: Track) -> list[str]:
        items = []
        for e, g, p in part.markers:
            who = f"player {p}" if p is not None else (g.title or g.text if g else "marker")
            items.append(f"{who} at {self.values.shown(e)}")
        return _flow(items) or [f"  ({part.lo}..{part.hi}, no marker)"]

    def _map(self, part: PlaceMap) -> list[str]:
        here: dict[int, list[str]] = {}
        for pc in part.pieces:
            at = self._v(pc.at)
            if not isinstance(at, int):
                continue
            chips = [f"{_glyph_text(c.glyph)}×{n}" if n > 1 else _glyph_text(c.glyph)
                     for c in pc.chips for n in [self._v(c.count)] if isinstance(n, int) and n > 0]
            who = pc.label or (f"player {pc.player}" if pc.player is not None else "piece")
            here.setdefault(at, []).append(who + (f" [{' '.join(chips)}]" if chips else ""))
        lines = []
        for s in part.spots:
            if s.key in here:
                words = f"{s.label}: {'; '.join(here[s.key])}".split(" ")
                lines.extend(_flow(words))  # wrapped at word breaks
        return lines or ["  (nothing on it)"]

    def _rows(self, part: Rows) -> list[str]:
        lines = []
        if part.top is not None:
            lines.append(f"  {_glyph_text(part.top_glyph)} ×{self.values.shown(part.top)}")
        left = max((cell_len(r.label) for r in part.rows), default=0)
        for row in part.rows:
            tiles = [_glyph_text(t.glyph) + (f" {t.badge_text}" if t.badge is not None
                                             and self._v(t.badge) else "")
                     for t in row.tiles if self._v(t.present)]
            marker = (f" {_glyph_text(part.marker_glyph)}" if row.marker is not None
                      and self._v(row.marker) else "")
            flag = ""
            if row.flag is not None and tiles:
                flag = ("  ✓ " + part.flag_text[0] if self._v(row.flag)
                        else "  ✗ " + part.flag_text[1])
            body = " ".join(f"[{t}]" for t in tiles) or EMPTY
            lines.append(f"  {_pad(row.label, left)}{marker} {body}{flag}")
        return lines

    def _pile(self, part: Pile) -> list[str]:
        items = [f"{_glyph_text(c.glyph)}×{n}" if n > 1 else _glyph_text(c.glyph)
                 for c in part.chips for n in [self._v(c.count)] if isinstance(n, int) and n > 0]
        return _flow(items) or ["  (empty)"]
