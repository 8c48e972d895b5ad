"""One generic SVG renderer: draws any game's state from the view its spec declares.

There is no per-game drawing code here or anywhere: a spec lists its parts
(:mod:`rulespec.spec.view`) and :class:`Picture` evaluates their expressions on a state
(compiled once by the Python backend) and lays the parts out in reading order. A spec
without a view gets one derived from its fields (:func:`default_view`).

The SVG is built as an element tree (escaped by construction) and scales to its
container's width, so it reads on a phone.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import Any, Callable, Collection, Sequence

import attrs

from ..compile.python_backend import compile_values
from ..ir.nodes import BOOL, Expr, Field, lift
from ..runtime.model import Model, State
from ..spec.elements import GameSpec
from ..spec.view import (Counters, Glyph, Grid, Part, Pile, PlaceMap, Rows, Slots, Track,
                         View)

#: player colours (Okabe and Ito's palette: distinguishable with colour blindness)
PLAYER_COLOURS = ("#E69F00", "#56B4E9", "#009E73", "#CC79A7", "#0072B2", "#D55E00",
                  "#F0E442", "#999999")
INK, FAINT, PAPER, LINE = "#1b1b1b", "#6b6b6b", "#fbfaf6", "#c9c4b8"
FONT = "system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif"
MAX_WIDTH = 760
GAP = 14


def player_colour(p: int) -> str:
    return PLAYER_COLOURS[p % len(PLAYER_COLOURS)]


def _text_width(text: str, size: float) -> float:
    return 0.6 * size * len(text)


def _contrast(colour: str | None) -> str:
    """Black or white text, whichever reads better on ``colour``."""
    if not colour or not colour.startswith("#") or len(colour) != 7:
        return INK
    r, g, b = (int(colour[i:i + 2], 16) for i in (1, 3, 5))
    return INK if 0.299 * r + 0.587 * g + 0.114 * b > 150 else "#ffffff"


# --- a small element-tree vocabulary ----------------------------------------------------
def _el(parent: ET.Element | None, tag: str, **attrs_: Any) -> ET.Element:
    clean = {k.rstrip("_").replace("_", "-"): str(v) for k, v in attrs_.items()
             if v is not None}
    return ET.Element(tag, clean) if parent is None else ET.SubElement(parent, tag, clean)


def _text(parent: ET.Element, x: float, y: float, text: str, size: float = 12,
          anchor: str = "start", weight: str | None = None, fill: str = INK,
          baseline: str = "central") -> ET.Element:
    t = _el(parent, "text", x=f"{x:.1f}", y=f"{y:.1f}", font_size=f"{size:g}",
            text_anchor=anchor, font_weight=weight, fill=fill, dominant_baseline=baseline)
    t.text = text
    return t


def _title(parent: ET.Element, text: str | None) -> None:
    if text:
        _el(parent, "title").text = text


def draw_glyph(parent: ET.Element, g: Glyph | None, cx: float, cy: float, size: float,
               colour: str | None = None, text: str | None = None) -> None:
    """Draw a glyph centred on (cx, cy) within a ``size`` box (``colour`` overrides)."""
    fill = colour or (g.colour if g else None) or "#8a8a8a"
    shape = g.shape if g else "disc"
    label = text if text is not None else (g.text if g else "")
    group = _el(parent, "g")
    _title(group, g.title if g else None)
    r = size / 2
    if shape == "disc":
        _el(group, "circle", cx=f"{cx:.1f}", cy=f"{cy:.1f}", r=f"{r * 0.86:.1f}", fill=fill,
            stroke=INK, stroke_width="0.8")
    elif shape == "ring":
        _el(group, "circle", cx=f"{cx:.1f}", cy=f"{cy:.1f}", r=f"{r * 0.7:.1f}", fill="none",
            stroke=fill, stroke_width=f"{max(2.0, size / 9):.1f}")
    elif shape == "square":
        _el(group, "rect", x=f"{cx - r * 0.86:.1f}", y=f"{cy - r * 0.86:.1f}",
            width=f"{size * 0.86:.1f}", height=f"{size * 0.86:.1f}", rx="3", fill=fill,
            stroke=INK, stroke_width="0.8")
    elif shape == "card":
        _el(group, "rect", x=f"{cx - r * 0.62:.1f}", y=f"{cy - r * 0.9:.1f}",
            width=f"{size * 0.62:.1f}", height=f"{size * 0.9:.1f}", rx="3", fill="#ffffff",
            stroke=fill, stroke_width="1.6")
    elif shape == "pawn":
        _el(group, "path", d=(f"M{cx - r * 0.55:.1f},{cy + r * 0.8:.1f} "
                              f"L{cx + r * 0.55:.1f},{cy + r * 0.8:.1f} "
                              f"L{cx + r * 0.22:.1f},{cy - r * 0.1:.1f} "
                              f"L{cx - r * 0.22:.1f},{cy - r * 0.1:.1f} Z"),
            fill=fill, stroke=INK, stroke_width="0.8")
        _el(group, "circle", cx=f"{cx:.1f}", cy=f"{cy - r * 0.38:.1f}", r=f"{r * 0.34:.1f}",
            fill=fill, stroke=INK, stroke_width="0.8")
    if label:
        if shape == "none":
            ink = fill if fill != "#8a8a8a" else INK
        elif shape == "card":
            ink = fill
        elif shape == "ring":
            ink = INK
        else:
            ink = _contrast(fill)
        fit = size * (1.0 if shape == "none" else 0.62) / max(1, 0.6 * len(label))
        _text(group, cx, cy + (r * 0.32 if shape == "pawn" else 0), label,
              size=min(size * (0.8 if shape == "none" else 0.5), fit), anchor="middle",
              weight="600", fill=ink)


@attrs.frozen
class Panel:
    """A drawn part: its element (drawn at 0, 0) and its size."""

    element: ET.Element
    width: float
    height: float


# --- the parts --------------------------------------------------------------------------
class Picture:
    """A game's view, compiled: ``svg(state)`` draws a state.

    With ``hits``, the drawing also holds an invisible box wherever a value of the view
    is shown (``data-hit``: the numbers of the view expressions drawn there; ``data-near``:
    a region to fall back on when the value draws nothing, such as a row whose tile went;
    ``data-place``: a map place or track space): what ``marks.py`` outlines and draws
    arrows between, generically, to show what an action or a reading changes.
    """

    def __init__(self, model: Model, hits: bool = False) -> None:
        self.model = model
        self.view: View = model.spec.view or default_view(model.spec)
        self.hits = hits
        self.part_no = {id(p): i for i, p in enumerate(self.view.parts)}
        exprs = self.view.exprs()
        self._index = {id(e): k for k, e in enumerate(exprs)}
        self._fns = compile_values(model.spec, dict(model.interpretation), exprs)
        self._values: tuple = ()

    # values ---------------------------------------------------------------------------
    def _v(self, e: Expr) -> Any:
        return self._values[self._index[id(e)]]

    def index(self, e: Expr) -> int:
        """The number of a view expression (what ``data-hit`` names)."""
        return self._index[id(e)]

    def values(self, state: State) -> tuple:
        """Every view expression's value on ``state``, by number (None: unreadable)."""
        return self._evaluate(state)

    def shown(self, k: int, v: Any) -> str:
        """Value ``v`` of view expression ``k`` as the picture writes it."""
        return self._shown(self.view.exprs()[k], v)

    def _hit(self, parent: ET.Element, x: float, y: float, w: float, h: float,
             exprs: Sequence[Expr] = (), near: Sequence[Expr] = (),
             place: str | None = None) -> None:
        """An invisible box where values are shown (only with ``hits``; see the class)."""
        if not self.hits:
            return
        box = _el(parent, "rect", x=f"{x:.1f}", y=f"{y:.1f}", width=f"{w:.1f}",
                  height=f"{h:.1f}", fill="none")
        for key, es in (("data-hit", exprs), ("data-near", near)):
            ks = sorted({self._index[id(e)] for e in es if e is not None})
            if ks:
                box.set(key, " ".join(map(str, ks)))
        if place is not None:
            box.set("data-place", place)

    def _evaluate(self, state: State) -> tuple:
        out = []
        for fn in self._fns:
            try:
                out.append(fn(state.values))
            except Exception:  # noqa: BLE001 - an unreadable cell is drawn as unknown
                out.append(None)
        return tuple(out)

    def _shown(self, e: Expr, v: Any) -> str:
        if v is None:
            return "?"
        if e.type.enum is not None:
            return e.type.enum.name_of(v)
        if e.type == BOOL:
            return "yes" if v else "no"
        return str(v)

    # the picture ----------------------------------------------------------------------
    def svg(self, state: State, caption: str | None = None) -> str:
        """The state as one self-contained SVG document."""
        return ET.tostring(self.tree(state, caption), encoding="unicode")

    def tree(self, state: State, caption: str | None = None,
             only: Collection[int] | None = None) -> ET.Element:
        """The state's SVG as an element tree (``svg`` writes it); ``only``: draw just
        these parts (numbered in the view's order)."""
        self._values = self._evaluate(state)
        players = state.values[0]
        panels = [(p, brk) for part, brk in _by_player(self.view.parts, players)
                  if only is None or self.part_no[id(part)] in only
                  for p in [self._panel(part)] if p is not None]
        root = _el(None, "svg", xmlns="http://www.w3.org/2000/svg", font_family=FONT)
        _el(root, "rect", x="0", y="0", width="100%", height="100%", fill=PAPER)
        y = GAP
        width = 0.0
        if caption:
            for line in _wrap(caption, int((MAX_WIDTH - 2 * GAP) / 7.8)):
                _text(root, GAP, y + 8, line, size=13, weight="600")
                width = max(width, 2 * GAP + 7.8 * len(line))
                y += 18
            y += 4
        x, row_h = GAP, 0.0
        for panel, brk in panels:
            if x > GAP and (brk or x + panel.width > MAX_WIDTH - GAP):
                x, y = GAP, y + row_h + GAP
                row_h = 0
            g = _el(root, "g", transform=f"translate({x:.1f},{y:.1f})")
            g.append(panel.element)
            x += panel.width + GAP
            row_h = max(row_h, panel.height)
            width = max(width, x)
        height = y + row_h + GAP
        root.set("viewBox", f"0 0 {max(width, 200):.0f} {height:.0f}")
        root.set("width", f"{max(width, 200):.0f}")
        root.set("height", f"{height:.0f}")
        root.set("role", "img")
        root.set("aria-label", caption or f"{self.model.spec.title} state")
        return root

    def _panel(self, part: Part) -> Panel | None:
        draw: dict[type, Callable[[Any], Panel]] = {
            Grid: self._grid, Counters: self._counters, Slots: self._slots,
            Track: self._track, PlaceMap: self._map, Rows: self._rows, Pile: self._pile}
        return draw[type(part)](part)

    def _frame(self, title: str, player: int | None, width: float, height: float
               ) -> tuple[ET.Element, ET.Element]:
        """A panel with its title (and player colour); returns (panel, body at 0, 24)."""
        g = _el(None, "g", class_="part")
        label = title if player is None else f"{title} · player {player}"
        width = max(width, _text_width(label, 13) + (26 if player is not None else 8))
        _el(g, "rect", x="0", y="0", width=f"{width:.1f}", height=f"{height + 30:.1f}",
            rx="8", fill="#ffffff", stroke=LINE)
        tx = 8
        if player is not None:
            _el(g, "circle", cx="14", cy="14", r="6", fill=player_colour(player), stroke=INK,
                stroke_width="0.8")
            tx = 26
        _text(g, tx, 14, label, size=13, weight="600")
        body = _el(g, "g", transform="translate(8,28)")
        return g, body

    def _grid(self, part: Grid) -> Panel:
        rows, cols = len(part.cells), len(part.cells[0]) if part.cells else 0
        cell = max(24.0, min(64.0, 300.0 / max(rows, cols, 1)))
        left = 18 if part.row_labels else 0
        top = 16 if part.col_labels else 0
        shift = cell / 2 if part.hexagonal else 0
        w = left + cols * cell + shift * max(0, rows - 1)
        h = top + rows * cell * (0.88 if part.hexagonal else 1)
        g, body = self._frame(part.title, part.player, w + 16, h + 8)
        for c, label in enumerate(part.col_labels[:cols]):
            _text(body, left + c * cell + cell / 2, 7, label, size=10, anchor="middle",
                  fill=FAINT)
        for r, row in enumerate(part.cells):
            y = top + r * cell * (0.88 if part.hexagonal else 1)
            if r < len(part.row_labels):
                _text(body, 6, y + cell / 2, part.row_labels[r], size=10, anchor="middle",
                      fill=FAINT)
            for c, e in enumerate(row):
                x = left + c * cell + shift * r
                v = self._v(e)
                board = part.colour or "#f3efe4"
                if part.hexagonal:
                    _el(body, "polygon", points=_hexagon(x + cell / 2, y + cell / 2, cell / 2),
                        fill=board, stroke=LINE)
                else:
                    _el(body, "rect", x=f"{x:.1f}", y=f"{y:.1f}", width=f"{cell:.1f}",
                        height=f"{cell:.1f}", fill=board, stroke=part.colour or LINE)
                self._value_glyph(body, e, v, part.glyphs, x + cell / 2, y + cell / 2,
                                  cell * 0.8)
                self._hit(body, x, y, cell, cell, [e])
        return Panel(g, max(w + 16, float(g[0].get("width") or 0)), h + 38)

    def _value_glyph(self, parent: ET.Element, e: Expr, v: Any, table: dict, cx: float,
                     cy: float, size: float) -> None:
        if v is None:
            _text(parent, cx, cy, "?", size=size * 0.5, anchor="middle", fill="#b00020")
        elif table:
            g = table.get(int(v))
            if g is not None:
                draw_glyph(parent, g, cx, cy, size)
        else:
            _text(parent, cx, cy, self._shown(e, v), size=min(size * 0.45, 13),
                  anchor="middle")

    def _counters(self, part: Counters) -> Panel:
        label_w = max((_text_width(label, 12) for label, _, _ in part.items), default=40)
        w = 22 + label_w + 14 + 40
        h = 20 * len(part.items)
        g, body = self._frame(part.title, part.player, w + 16, h + 4)
        for i, (label, e, gl) in enumerate(part.items):
            y = i * 20 + 10
            if gl is not None:
                draw_glyph(body, gl, 8, y, 15)
            _text(body, 22, y, label, size=12, fill=FAINT)
            _text(body, w - 4, y, self._shown(e, self._v(e)), size=13, anchor="end",
                  weight="600")
            self._hit(body, -4, y - 9, w + 4, 18, [e])
        return Panel(g, float(g[0].get("width") or 0), h + 34)

    def _slots(self, part: Slots) -> Panel:
        n = len(part.values)
        size = 46.0
        longest = max((len(g.text) for g in part.glyphs.values()
                       if g.shape in ("square", "card", "none")), default=0)
        slot_w = max(size, _text_width("x" * longest, 11) + 12)
        has_labels = bool(part.labels)
        w = n * (slot_w + 6)
        h = size + (16 if has_labels else 0)
        g, body = self._frame(part.title, part.player, w + 10, h + 4)
        for i, e in enumerate(part.values):
            x = i * (slot_w + 6)
            v = self._v(e)
            gl = part.glyphs.get(int(v)) if isinstance(v, int) else None
            wide = gl is not None and gl.shape in ("square", "card", "none") and gl.text
            fill = (gl.colour or "#f3efe4") if wide and gl.shape != "none" else "#f3efe4"
            box = _el(body, "g")
            _el(box, "rect", x=f"{x:.1f}", y="0", width=f"{slot_w:.1f}", height=f"{size:.1f}",
                rx="5", fill=fill, stroke=LINE if not wide else INK, stroke_width="1")
            if wide:
                _title(box, gl.title)
                _text(box, x + slot_w / 2, size / 2, gl.text, size=11, anchor="middle",
                      weight="600", fill=_contrast(fill))
            else:
                self._value_glyph(body, e, v, part.glyphs, x + slot_w / 2, size / 2,
                                  size * 0.7)
            if i < len(part.owners):
                who = self._v(part.owners[i])
                if isinstance(who, int) and who >= 0:
                    draw_glyph(body, Glyph("", None, "pawn", f"player {who}"), x + slot_w - 9,
                               11, 18, colour=player_colour(who))
            if i < len(part.labels):
                _text(body, x + slot_w / 2, size + 9, part.labels[i], size=10,
                      anchor="middle", fill=FAINT)
            self._hit(body, x, 0, slot_w, size,
                      [e] + ([part.owners[i]] if i < len(part.owners) else []))
        return Panel(g, float(g[0].get("width") or 0), h + 34)

    def _track(self, part: Track) -> Panel:
        span = list(range(part.lo, part.hi + 1))
        per_row = 15
        size = 30.0
        rows = (len(span) + per_row - 1) // per_row
        w = min(len(span), per_row) * size
        h = rows * (size + 16)
        g, body = self._frame(part.title, None, w + 16, h)
        at: dict[int, list[tuple[Glyph | None, int | None]]] = {}
        for e, gl, p in part.markers:
            v = self._v(e)
            if isinstance(v, int) and not isinstance(v, bool):
                at.setdefault(min(max(v, part.lo), part.hi), []).append((gl, p))
        for k, value in enumerate(span):
            x, y = (k % per_row) * size, (k // per_row) * (size + 16)
            _el(body, "rect", x=f"{x:.1f}", y=f"{y:.1f}", width=f"{size:.1f}",
                height=f"{size:.1f}", fill="#f3efe4", stroke=LINE)
            _text(body, x + size / 2, y + size + 7, str(value), size=9, anchor="middle",
                  fill=FAINT)
            for j, (gl, p) in enumerate(at.get(value, [])):
                draw_glyph(body, gl, x + 8 + (j % 3) * 7, y + 9 + (j // 3) * 12, 14,
                           colour=player_colour(p) if p is not None else None)
            self._hit(body, x, y, size, size, near=[e for e, _, _ in part.markers
                                                    if self._v(e) == value],
                      place=f"{self.part_no[id(part)]}:{value}")
        return Panel(g, float(g[0].get("width") or 0), h + 30)

    def _map(self, part: PlaceMap) -> Panel:
        W, H = 560.0, 440.0
        box_w, box_h = 104.0, 66.0
        g, body = self._frame(part.title, None, W + 16, H + 8)
        pos = {s.key: (s.x / 100 * (W - box_w) + box_w / 2, s.y / 100 * (H - box_h) + box_h / 2)
               for s in part.spots}
        number = self.part_no[id(part)]
        for a, b in part.links:
            (x1, y1), (x2, y2) = pos[a], pos[b]
            _el(body, "line", x1=f"{x1:.1f}", y1=f"{y1:.1f}", x2=f"{x2:.1f}", y2=f"{y2:.1f}",
                stroke=LINE, stroke_width="2", stroke_dasharray="4 3")
        tiles: dict[int, list] = {}
        tokens: dict[int, list] = {}
        for pc in part.pieces:
            at = self._v(pc.at)
            if at in pos:
                (tiles if pc.kind == "tile" else tokens).setdefault(at, []).append(pc)
        for s in part.spots:
            cx, cy = pos[s.key]
            x, y = cx - box_w / 2, cy - box_h / 2
            here = tiles.get(s.key, [])
            fill = (here[0].glyph.colour if here and here[0].glyph and here[0].glyph.colour
                    else "#f3efe4")
            box = _el(body, "g")
            _title(box, s.label if not here else f"{here[0].label} ({s.label})")
            _el(box, "rect", x=f"{x:.1f}", y=f"{y:.1f}", width=f"{box_w:.1f}",
                height=f"{box_h:.1f}", rx="7", fill=fill, stroke=INK if here else LINE,
                stroke_width="1")
            if here:
                tile = here[0]
                _text(box, cx, y + 11, _fit(tile.label, box_w - 8, 11), size=11,
                      anchor="middle", weight="600", fill=_contrast(fill))
                chips = [(c.glyph, n) for c in tile.chips
                         for n in [self._v(c.count)] if isinstance(n, int) and n > 0]
                self._chip_row(box, chips, x + 5, y + 31, box_w - 10, 20)
                _text(box, cx, y + box_h - 8, s.label, size=9, anchor="middle",
                      fill=_contrast(fill))
            else:
                _text(box, cx, cy, s.label, size=12, anchor="middle", weight="600",
                      fill=FAINT)
            self._hit(body, x, y, box_w, box_h,
                      [e for t in here for e in (t.at, *(c.count for c in t.chips))],
                      place=f"{number}:{s.key}")
            for j, tok in enumerate(tokens.get(s.key, [])):
                colour = player_colour(tok.player) if tok.player is not None else None
                draw_glyph(body, tok.glyph or Glyph("", None, "pawn", tok.label),
                           x + box_w - 9 - j * 15, y - 4, 20, colour=colour)
                self._hit(body, x + box_w - 19 - j * 15, y - 14, 20, 20, [tok.at])
        return Panel(g, W + 16, H + 38)

    def _chip_row(self, parent: ET.Element, chips: list[tuple[Glyph, int]], x: float,
                  y: float, width: float, size: float) -> float:
        """Chips left to right, wrapping; a long run of one glyph is drawn once with ×n."""
        cx, cy = x + size / 2, y
        for gl, n in chips:
            copies = [None] * n if n <= 4 else [f"×{n}"]
            for extra in copies:
                if cx + size / 2 > x + width:
                    cx, cy = x + size / 2, cy + size + 2
                draw_glyph(parent, gl, cx, cy, size)
                if extra:
                    _text(parent, cx + size / 2 + 1, cy, extra, size=size * 0.6)
                    cx += _text_width(extra, size * 0.6) + 2
                cx += size + 2
        return cy + size / 2

    def _rows(self, part: Rows) -> Panel:
        col = 34.0
        marker_w = 26.0 if part.marker_glyph is not None else 0.0
        label_w = 16.0
        top_h = 24.0 if part.top is not None else 0.0
        row_h = 32.0
        grid_x = label_w + marker_w
        shown = [[t for t in row.tiles if self._v(t.present)] for row in part.rows]
        # a row may run past the printed columns (villages have no length limit)
        span = max([part.columns] + [sum(t.width for t in ts) for ts in shown])
        flag_x = grid_x + span * col + 8
        flag_w = 84.0 if any(r.flag is not None for r in part.rows) else 0.0
        w = flag_x + flag_w
        h = top_h + len(part.rows) * row_h
        g, body = self._frame(part.title, part.player, w + 16, h + 6)
        if part.top is not None:
            self._hit(body, grid_x, 0, part.columns * col, top_h, [part.top])
            n = self._v(part.top)
            n = n if isinstance(n, int) else 0
            for k in range(part.columns):
                x = grid_x + (part.columns - 1 - k) * col + col / 2
                if k < n:
                    draw_glyph(body, part.top_glyph, x, top_h / 2, 20)
                else:
                    _el(body, "circle", cx=f"{x:.1f}", cy=f"{top_h / 2:.1f}", r="3",
                        fill=LINE)
        for r, (row, tiles) in enumerate(zip(part.rows, shown)):
            y = top_h + r * row_h
            _text(body, label_w / 2, y + row_h / 2, row.label, size=10, anchor="middle",
                  fill=FAINT)
            self._hit(body, 0, y, w, row_h, near=[e for t in row.tiles
                                                   for e in (t.present, t.badge)])
            if row.marker is not None and self._v(row.marker):
                draw_glyph(body, part.marker_glyph, label_w + marker_w / 2, y + row_h / 2, 22)
            if row.marker is not None:
                self._hit(body, label_w, y, marker_w, row_h, [row.marker])
            for k in range(part.columns):
                _el(body, "rect", x=f"{grid_x + k * col:.1f}", y=f"{y + 2:.1f}",
                    width=f"{col:.1f}", height=f"{row_h - 4:.1f}", fill="#f6f3ea",
                    stroke="#e2ddd0")
            x = grid_x
            for t in tiles:
                tw = t.width * col
                box = _el(body, "g")
                _title(box, t.glyph.title or t.glyph.text)
                fill = t.glyph.colour or "#cccccc"
                _el(box, "rect", x=f"{x + 1.5:.1f}", y=f"{y + 3.5:.1f}",
                    width=f"{tw - 3:.1f}", height=f"{row_h - 7:.1f}", rx="4", fill=fill,
                    stroke=INK, stroke_width="0.8")
                _text(box, x + tw / 2, y + row_h / 2, _fit(t.glyph.text, tw - 4, 10),
                      size=10, anchor="middle", weight="600", fill=_contrast(fill))
                self._hit(body, x, y + 2, tw, row_h - 4, [t.present, t.badge])
                if t.badge is not None and self._v(t.badge):
                    _el(box, "rect", x=f"{x + tw - 14:.1f}", y=f"{y + 2:.1f}", width="13",
                        height="10", rx="2", fill=INK)
                    _text(box, x + tw - 7.5, y + 7, t.badge_text, size=7.5, anchor="middle",
                          fill="#ffffff", weight="700")
                x += tw
            if row.flag is not None and tiles:  # an empty row has nothing to judge
                ok = bool(self._v(row.flag))
                yes, no = part.flag_text
                _text(body, flag_x, y + row_h / 2, ("✓ " + yes) if ok else ("✗ " + no),
                      size=11, fill="#1a7f37" if ok else "#b00020",
                      weight="600" if ok else None)
                self._hit(body, flag_x - 3, y + 2, flag_w, row_h - 4, [row.flag])
        return Panel(g, float(g[0].get("width") or 0), h + 36)

    def _pile(self, part: Pile) -> Panel:
        chips = [(c.glyph, n) for c in part.chips
                 for n in [self._v(c.count)] if isinstance(n, int) and n > 0]
        w = 240.0
        g, body = self._frame(part.title, part.player, w + 16, 10)
        bottom = self._chip_row(body, chips, 0, 12, w, 22) if chips else 0
        if not chips:
            _text(body, 0, 10, "(empty)", size=11, fill=FAINT)
            bottom = 20
        g[0].set("height", f"{bottom + 34:.1f}")
        self._hit(body, -4, -2, w + 8, bottom + 4, [c.count for c in part.chips])
        return Panel(g, float(g[0].get("width") or 0), bottom + 34)


def _by_player(parts: Sequence[Part], players: int) -> list[tuple[Part, bool]]:
    """The parts in reading order, each run of per-player parts regrouped player by player
    on a line of its own (a player's resources beside their villages), players beyond the
    game's left out. Each part comes with "start a new line before it"."""
    out: list[tuple[Part, bool]] = []
    run: list[Part] = []

    def flush() -> None:
        for p in range(players):
            mine = [x for x in run if getattr(x, "player", None) == p]
            out.extend((x, k == 0) for k, x in enumerate(mine))
        run.clear()
    for part in parts:
        if getattr(part, "player", None) is None:
            flush()
            out.append((part, False))
        else:
            run.append(part)
    flush()
    return out


def _hexagon(cx: float, cy: float, r: float) -> str:
    import math
    pts = [(cx + r * math.cos(math.radians(90 + 60 * k)),
            cy + r * math.sin(math.radians(90 + 60 * k))) for k in range(6)]
    return " ".join(f"{x:.1f},{y:.1f}" for x, y in pts)


def _fit(text: str, width: float, size: float) -> str:
    room = max(1, int(width / (0.6 * size)))
    return text if len(text) <= room else text[:max(1, room - 1)] + "…"


def _wrap(text: str, width: int) -> list[str]:
    words, lines, line = text.split(), [], ""
    for w in words:
        if line and len(line) + 1 + len(w) > width:
            lines.append(line)
            line = w
        else:
            line = f"{line} {w}".strip()
    return lines + ([line] if line else [])


# --- a view for a spec that declares none ------------------------------------------------
def default_view(spec: GameSpec) -> View:
    """A plain view from the fields: scalars as counters, per-player arrays as counters per
    player, one-dimensional arrays as slots and two-dimensional ones as grids."""
    from ..spec import view as v
    n = spec.max_players
    parts: list[Any] = []
    scalars = {f.name: lift(f) for f in spec.fields if not f.dims and f.name != "num_players"}
    if scalars:
        parts += v.counters("State", scalars).parts(n)
    per_player = [f for f in spec.fields if len(f.dims) == 1 and f.dims[0].players]
    if per_player:
        parts += v.counters("Each player", {f.name: (lambda p, f=f: f[p]) for f in per_player},
                            player=True).parts(n)
    for f in spec.fields:
        if len(f.dims) == 1 and not f.dims[0].players and f.dims[0].size <= 16:
            parts += v.slots(f.name, count=f.dims[0].size, value=lambda i, f=f: f[_index(f, 0, i)],
                             labels=_labels(f, 0)).parts(n)
        elif len(f.dims) == 2 and not any(d.players for d in f.dims) and f.size <= 400:
            parts += v.grid(f.name, rows=f.dims[0].size, cols=f.dims[1].size,
                            cell=lambda r, c, f=f: f[_index(f, 0, r), _index(f, 1, c)],
                            row_labels=_labels(f, 0), col_labels=_labels(f, 1)).parts(n)
    return View(tuple(parts))


def _index(f: Field, dim: int, i: int) -> Any:
    d = f.dims[dim]
    return d.enum[d.enum.members[i]] if d.enum is not None else i


def _labels(f: Field, dim: int) -> Sequence[str]:
    d = f.dims[dim]
    return list(d.enum.members) if d.enum is not None else [str(i) for i in range(d.size)]
