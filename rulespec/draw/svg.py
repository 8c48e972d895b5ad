"""One generic SVG renderer: draws any game's state from the view its spec declares.

There is no per-game drawing code here or anywhere: a spec lists its parts
(:mod:`rulespec.spec.view`) and :class:`Picture` evaluates their expressions on a state
(compiled once by the Python backend, :mod:`.values`) and lays the parts out in reading
order. Every label is measured (:mod:`.fit`) and its box made to fit it: wrapped, made
smaller, or as a last resort shortened with "…" — then its full text is in a tooltip and
in a "shortened" legend under the picture, never clipped silently.

The SVG is built as an element tree (escaped by construction), leaves out what its root
already says (font, size, ink) and scales to its container's width, so it reads on a
phone. Each part is a ``<g class="part">`` drawn at (0, 0) and moved into place, so that a
page showing many pictures of one game can draw a part once and reuse it
(``rulespec.report.share``); a ``<g class="box">`` is a shape (its first) with the texts
that must stay inside it, as the browser tests check.
"""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from typing import Any, Callable, Collection, Sequence

import attrs

from ..ir.nodes import Expr
from ..spec.view import (Counters, Glyph, Grid, Part, Pile, PlaceMap, Rows, Slots, Track,
                         View)
from .fit import fit, text_width, wrap
from .values import ViewValues, default_view

__all__ = ["Picture", "default_view", "draw_glyph", "player_colour", "PLAYER_COLOURS"]

#: player colours (Okabe and Ito's palette: distinguishable with colour blindness)
PLAYER_COLOURS = ("#E69F00", "#56B4E9", "#009E73", "#CC79A7", "#0072B2", "#D55E00",
                  "#F0E442", "#999999")
INK, FAINT, PAPER, LINE = "#1b1b1b", "#6b6b6b", "#fbfaf6", "#c9c4b8"
FONT = ("system-ui, -apple-system, 'Segoe UI', Roboto, 'Noto Sans CJK JP', "
        "'Noto Sans JP', sans-serif")
MAX_WIDTH = 760
GAP = 14
SIZE = 12  # the root's font size


def player_colour(p: int) -> str:
    return PLAYER_COLOURS[p % len(PLAYER_COLOURS)]


def _contrast(colour: str | None) -> str:
    """Black or white text, whichever reads better on ``colour``."""
    if not colour or not colour.startswith("#") or len(colour) != 7:
        return INK
    r, g, b = (int(colour[i:i + 2], 16) for i in (1, 3, 5))
    return INK if 0.299 * r + 0.587 * g + 0.114 * b > 150 else "#ffffff"


def _n(x: float) -> str:
    """A coordinate, as short as it can be written (one decimal at most)."""
    s = f"{x:.1f}".rstrip("0").rstrip(".")
    return "0" if s in ("-0", "") else s


# --- a small element-tree vocabulary ----------------------------------------------------
def _el(parent: ET.Element | None, tag: str, **attrs_: Any) -> ET.Element:
    clean = {k.rstrip("_").replace("_", "-"): _n(v) if isinstance(v, float) else str(v)
             for k, v in attrs_.items() if v is not None}
    return ET.Element(tag, clean) if parent is None else ET.SubElement(parent, tag, clean)


def _text(parent: ET.Element, x: float, y: float, text: str, size: float = SIZE,
          anchor: str = "start", weight: str | None = None, fill: str = INK) -> ET.Element:
    t = _el(parent, "text", x=float(x), y=float(y),
            font_size=None if size == SIZE else _n(size),
            text_anchor=None if anchor == "start" else anchor, font_weight=weight,
            fill=None if fill == INK else fill)
    t.text = text
    return t


def _lines(parent: ET.Element, x: float, y: float, lines: Sequence[str], size: float,
           anchor: str = "middle", weight: str | None = None, fill: str = INK) -> None:
    """Lines of text centred (vertically) on ``y``."""
    step = size * 1.15
    top = y - step * (len(lines) - 1) / 2
    for k, line in enumerate(lines):
        _text(parent, x, top + k * step, line, size, anchor, weight, fill)


def _title(parent: ET.Element, text: str | None) -> None:
    if text:
        _el(parent, "title").text = text


def _rect(parent: ET.Element, x: float, y: float, w: float | str, h: float | str,
          **more: Any) -> ET.Element:
    size = {k: float(v) if isinstance(v, (int, float)) else v for k, v in
            (("x", x), ("y", y), ("width", w), ("height", h))}
    return _el(parent, "rect", **size, **more)


def glyph_box(g: Glyph | None, size: float, room: float | None = None) -> float:
    """How wide a glyph is drawn in a ``size`` box: its shape's width, or wider (up to
    ``room``) when its text needs it at a readable size."""
    shape = g.shape if g else "disc"
    base = {"card": 0.62, "pawn": 0.7, "none": 1.0}.get(shape, 0.86) * size
    label = g.text if g else ""
    if not label or room is None or room <= base:
        return base
    need = text_width(label, _label_size(shape, size), bold=True) + (4 if shape == "none" else 8)
    return min(room, max(base, need))


def _label_size(shape: str, size: float) -> float:
    return max(8.0, min(13.0, size * (0.7 if shape == "none" else 0.5)))


def draw_glyph(parent: ET.Element, g: Glyph | None, cx: float, cy: float, size: float,
               colour: str | None = None, text: str | None = None,
               room: float | None = None) -> float:
    """Draw a glyph centred on (cx, cy) within a ``size`` box (``colour`` overrides); a
    text that does not fit its shape widens it, up to ``room``. Returns the width drawn."""
    fill = colour or (g.colour if g else None) or "#8a8a8a"
    shape = g.shape if g else "disc"
    label = text if text is not None else (g.text if g else "")
    group = _el(parent, "g", class_="box")  # its text stays within its shape
    _title(group, g.title if g else None)
    r = size / 2
    w = glyph_box(g if text is None else Glyph(label, g.colour if g else None, shape),
                  size, room)
    wide = w > {"card": 0.62, "pawn": 0.7, "none": 1.0}.get(shape, 0.86) * size + 0.5
    if shape == "disc" and not wide:
        _el(group, "circle", cx=float(cx), cy=float(cy), r=r * 0.86, fill=fill, stroke=INK,
            stroke_width="0.8")
    elif shape == "disc":
        _rect(group, cx - w / 2, cy - r * 0.86, w, size * 0.86, rx=r * 0.86, fill=fill,
              stroke=INK, stroke_width="0.8")
    elif shape == "ring":
        _el(group, "circle", cx=float(cx), cy=float(cy), r=r * 0.7, fill="none", stroke=fill,
            stroke_width=max(2.0, size / 9))
    elif shape == "square":
        _rect(group, cx - w / 2, cy - r * 0.86, w, size * 0.86, rx="3", fill=fill,
              stroke=INK, stroke_width="0.8")
    elif shape == "card":
        # a card is its colour with a dark edge, so its text reads whatever the colour
        _rect(group, cx - w / 2, cy - r * 0.9, w, size * 0.9, rx="3", fill=fill,
              stroke=INK, stroke_width="0.8")
    elif shape == "pawn":
        _el(group, "path", d=(f"M{_n(cx - r * 0.55)},{_n(cy + r * 0.8)} "
                              f"L{_n(cx + r * 0.55)},{_n(cy + r * 0.8)} "
                              f"L{_n(cx + r * 0.22)},{_n(cy - r * 0.1)} "
                              f"L{_n(cx - r * 0.22)},{_n(cy - r * 0.1)} Z"),
            fill=fill, stroke=INK, stroke_width="0.8")
        _el(group, "circle", cx=float(cx), cy=cy - r * 0.38, r=r * 0.34, fill=fill,
            stroke=INK, stroke_width="0.8")
    if label:
        if shape == "none":
            ink = fill if fill != "#8a8a8a" else INK
        elif shape == "ring":
            ink = INK
        else:
            ink = _contrast(fill)
        inner = w - (2 if shape == "none" else (w * 0.18 if not wide else 6))
        f = fit(label, inner, _label_size(shape, size), bold=True, max_lines=1, min_size=6)
        _text(group, cx, cy + (r * 0.32 if shape == "pawn" else 0), f.lines[0], size=f.size,
              anchor="middle", weight="600", fill=ink)
    return w


@attrs.frozen
class Panel:
    """A drawn part: its element (drawn at 0, 0) and its size."""

    element: ET.Element
    width: float
    height: float


@attrs.frozen
class Frame:
    """A part's frame being drawn: ``body`` (at (8, top)) receives the part."""

    g: ET.Element
    body: ET.Element
    rect: ET.Element
    width: float
    top: float

    def done(self, body_h: float) -> Panel:
        height = self.top + body_h + 8
        self.rect.set("height", _n(height))
        return Panel(self.g, self.width, height)


# --- the parts --------------------------------------------------------------------------
class Picture:
    """A game's view, compiled: ``svg(state)`` draws a state.

    ``model`` is anything with the spec and the interpretation it reads (a
    :class:`rulespec.Model`): drawing needs no more, so :mod:`rulespec.runtime` can draw its
    own states (``State._repr_svg_``) without importing the report.

    With ``hits``, the drawing also holds an invisible box wherever a value of the view
    is shown (``data-hit``: the numbers of the view expressions drawn there; ``data-near``:
    a region to fall back on when the value draws nothing, such as a row whose tile went;
    ``data-place``: a map place or track space): what the report's ``marks.py`` outlines
    and draws arrows between, generically, to show what an action or a reading changes.
    """

    def __init__(self, model: Any, hits: bool = False) -> None:
        self.model = model
        self.values = ViewValues(model.spec, dict(model.interpretation))
        self.view: View = self.values.view
        self.hits = hits
        self.part_no = {id(p): i for i, p in enumerate(self.view.parts)}
        self._shortened: dict[str, str] = {}

    # values ---------------------------------------------------------------------------
    def _v(self, e: Expr) -> Any:
        return self.values.of(e)

    def _shown(self, e: Expr, v: Any) -> str:
        return self.values.shown(e, v)

    def index(self, e: Expr) -> int:
        """The number of a view expression (what ``data-hit`` names)."""
        return self.values.index(e)

    def values_of(self, state: Any) -> tuple:
        """Every view expression's value on ``state``, by number (None: unreadable)."""
        self.values.read(state.values)
        return self.values.all()

    def shown(self, k: int, v: Any) -> str:
        """Value ``v`` of view expression ``k`` as the picture writes it."""
        return self._shown(self.view.exprs()[k], v)

    def _hit(self, parent: ET.Element, x: float, y: float, w: float, h: float,
             exprs: Sequence[Expr] = (), near: Sequence[Expr] = (),
             place: str | None = None) -> None:
        """An invisible box where values are shown (only with ``hits``; see the class)."""
        if not self.hits:
            return
        box = _rect(parent, x, y, w, h, fill="none")
        for key, es in (("data-hit", exprs), ("data-near", near)):
            ks = sorted({self.values.index(e) for e in es if e is not None})
            if ks:
                box.set(key, " ".join(map(str, ks)))
        if place is not None:
            box.set("data-place", place)

    def _fit(self, text: str, width: float, size: float, **kw: Any):
        """``fit`` that remembers what it had to shorten, for the picture's legend."""
        f = fit(text, width, size, **kw)
        if f.shortened:
            self._shortened[" ".join(f.lines)] = text
        return f

    # the picture ----------------------------------------------------------------------
    def svg(self, state: Any, caption: str | None = None) -> str:
        """The state as one self-contained SVG document."""
        return ET.tostring(self.tree(state, caption), encoding="unicode")

    def tree(self, state: Any, caption: str | None = None,
             only: Collection[int] | None = None) -> ET.Element:
        """The state's SVG as an element tree (``svg`` writes it); ``only``: draw just
        these parts (numbered in the view's order)."""
        self.values.read(state.values)
        self._shortened = {}
        players = state.values[0]
        panels = [(p, brk) for part, brk in _by_player(self.view.parts, players)
                  if only is None or self.part_no[id(part)] in only
                  for p in [self._panel(part)] if p is not None]
        # what every text inherits (also inside a <use> of a shared piece, where a style
        # sheet's selectors do not reach)
        root = _el(None, "svg", xmlns="http://www.w3.org/2000/svg", class_="rsv",
                   font_family=FONT, font_size=str(SIZE), fill=INK,
                   dominant_baseline="central")
        _rect(root, 0, 0, "100%", "100%", fill=PAPER)
        placed: list[tuple[Panel, float, float]] = []
        x, y, row_h, width = float(GAP), 0.0, 0.0, 0.0
        for panel, brk in panels:
            if x > GAP and (brk or x + panel.width > MAX_WIDTH - GAP):
                x, y, row_h = float(GAP), y + row_h + GAP, 0.0
            placed.append((panel, x, y))
            x += panel.width + GAP
            row_h = max(row_h, panel.height)
            width = max(width, x)
        width = max(width, 240.0)
        top = float(GAP)
        if caption:
            for line in wrap(caption, width - 2 * GAP, 13, bold=True):
                _text(root, GAP, top + 8, line, size=13, weight="600")
                top += 18
            top += 4
        for panel, px, py in placed:
            g = _el(root, "g", transform=f"translate({_n(px)},{_n(py + top)})")
            g.append(panel.element)
        height = top + y + row_h + GAP
        if self._shortened:
            height = self._shortened_legend(root, height, width)
        root.set("viewBox", f"0 0 {_n(width)} {_n(height)}")
        root.set("width", _n(width))
        root.set("height", _n(height))
        root.set("role", "img")
        root.set("aria-label", caption or f"{self.model.spec.title} state")
        return root

    def _shortened_legend(self, root: ET.Element, y: float, width: float) -> float:
        """Under the picture: each label it had to shorten, in full."""
        _text(root, GAP, y + 2, "Shortened above:", size=11, weight="600", fill=FAINT)
        y += 18
        for short, full in self._shortened.items():
            for k, line in enumerate(wrap(f"{short} = {full}", width - 2 * GAP, 11)):
                _text(root, GAP + (12 if k else 0), y, line, size=11, fill=FAINT)
                y += 15
        return y + GAP / 2

    def _panel(self, part: Part) -> Panel | None:
        draw: dict[type, Callable[[Any], Panel]] = {
            Grid: self._grid, Counters: self._counters, Slots: self._slots,
            Track: self._track, PlaceMap: self._map, Rows: self._rows, Pile: self._pile}
        return draw[type(part)](part)

    def _frame(self, title: str, player: int | None, body_w: float) -> "Frame":
        """A panel with its title (and player colour) over a body ``body_w`` wide; a title
        much wider than the body wraps. ``Frame.done(body_h)`` sizes it."""
        g = _el(None, "g", class_="part")
        label = title if player is None else f"{title} · player {player}"
        tx = 8.0 if player is None else 26.0
        room = max(body_w + 16, 220.0) - tx - 8
        lines = wrap(label, room, 13, bold=True)
        width = max(body_w + 16, tx + 8 + max(text_width(x, 13, bold=True) for x in lines))
        rect = _rect(g, 0, 0, width, 0, rx="8", fill="#ffffff", stroke=LINE)
        if player is not None:
            _el(g, "circle", cx="14", cy="14", r="6", fill=player_colour(player), stroke=INK,
                stroke_width="0.8")
        for k, line in enumerate(lines):
            _text(g, tx, 14 + 17 * k, line, size=13, weight="600")
        top = 28.0 + 17 * (len(lines) - 1)
        body = _el(g, "g", transform=f"translate(8,{_n(top)})")
        return Frame(g, body, rect, width, top)

    def _grid(self, part: Grid) -> Panel:
        rows, cols = len(part.cells), len(part.cells[0]) if part.cells else 0
        cell = max(24.0, min(64.0, 300.0 / max(rows, cols, 1)))
        row_fits = [self._fit(lb, 90, 10, max_lines=2) for lb in part.row_labels]
        left = max((f.width for f in row_fits), default=-6.0) + 6
        col_fits = [self._fit(lb, cell - 2, 10, max_lines=2) for lb in part.col_labels[:cols]]
        top = max((len(f.lines) for f in col_fits), default=0) * 11.5 + (4 if col_fits else 0)
        shift = cell / 2 if part.hexagonal else 0
        step = cell * (0.88 if part.hexagonal else 1)
        w = left + cols * cell + shift * max(0, rows - 1)
        h = top + (rows - 1) * step + cell if rows else top
        fr = self._frame(part.title, part.player, w)
        body = fr.body
        for c, f in enumerate(col_fits):
            _lines(body, left + c * cell + cell / 2, top / 2 - 1, f.lines, f.size,
                   fill=FAINT)
        board = part.colour or "#f3efe4"
        # the empty board first, as one piece (the same in every picture), then what is on it
        ground = _el(body, "g")
        for r, row in enumerate(part.cells):
            y = top + r * step
            if r < len(row_fits):
                f = row_fits[r]
                _lines(ground, left - 5, y + cell / 2, f.lines, f.size, anchor="end",
                       fill=FAINT)
            for c in range(len(row)):
                x = left + c * cell + shift * r
                if part.hexagonal:
                    _el(ground, "polygon", points=_hexagon(x + cell / 2, y + cell / 2, cell / 2),
                        fill=board, stroke=LINE)
                else:
                    _rect(ground, x, y, cell, cell, fill=board, stroke=part.colour or LINE)
        for r, row in enumerate(part.cells):
            y = top + r * step
            for c, e in enumerate(row):
                x = left + c * cell + shift * r
                self._value_glyph(body, e, self._v(e), part.glyphs, x + cell / 2,
                                  y + cell / 2, cell * 0.8)
                self._hit(body, x, y, cell, cell, [e])
        if part.across or part.down:
            self._borders(body, part, left, top, cell)
        return fr.done(h)

    def _borders(self, body: ET.Element, part: Grid, left: float, top: float,
                 cell: float) -> None:
        """The lines drawn on the cells' borders (Dots and Boxes), then the dots."""
        colour = part.line_colour or INK
        rows, cols = len(part.cells), len(part.cells[0]) if part.cells else 0
        for k, line in enumerate(part.across):
            for c, e in enumerate(line):
                if self._v(e):
                    _el(body, "line", x1=_n(left + c * cell), y1=_n(top + k * cell),
                        x2=_n(left + (c + 1) * cell), y2=_n(top + k * cell), stroke=colour,
                        stroke_width="4", stroke_linecap="round")
        for r, line in enumerate(part.down):
            for k, e in enumerate(line):
                if self._v(e):
                    _el(body, "line", x1=_n(left + k * cell), y1=_n(top + r * cell),
                        x2=_n(left + k * cell), y2=_n(top + (r + 1) * cell), stroke=colour,
                        stroke_width="4", stroke_linecap="round")
        for r in range(rows + 1):
            for c in range(cols + 1):
                _el(body, "circle", cx=_n(left + c * cell), cy=_n(top + r * cell), r="3",
                    fill=INK)

    def _value_glyph(self, parent: ET.Element, e: Expr, v: Any, table: dict, cx: float,
                     cy: float, size: float, room: float | None = None) -> None:
        if v is None:
            _text(parent, cx, cy, "?", size=size * 0.5, anchor="middle", fill="#b00020")
        elif table:
            g = table.get(int(v))
            if g is not None:
                draw_glyph(parent, g, cx, cy, size, room=room)
        else:
            f = self._fit(self._shown(e, v), (room or size) - 2, min(size * 0.45, 13),
                          max_lines=2)
            _lines(parent, cx, cy, f.lines, f.size)

    def _counters(self, part: Counters) -> Panel:
        label_w = max((text_width(label, 12) for label, _, _ in part.items), default=40)
        value_w = max((text_width(t, 13, bold=True) for _, e, _ in part.items
                       for t in [*self.values.widest(e), self._shown(e, self._v(e))]),
                      default=20)
        w = 22 + label_w + 12 + value_w
        h = 20 * len(part.items)
        fr = self._frame(part.title, part.player, w)
        body, right = fr.body, fr.width - 20
        for i, (label, e, gl) in enumerate(part.items):
            y = i * 20 + 10
            if gl is not None:
                draw_glyph(body, gl, 8, y, 15)
            _text(body, 22, y, label, fill=FAINT)
            _text(body, right, y, self._shown(e, self._v(e)), size=13, anchor="end",
                  weight="600")
            self._hit(body, -4, y - 9, fr.width - 8, 18, [e])
        return fr.done(h)

    def _slots(self, part: Slots) -> Panel:
        size = 46.0
        texts = [g.text for g in part.glyphs.values() if g.shape in ("square", "card", "none")]
        widest = max((text_width(t, 11, bold=True) for t in texts), default=0.0)
        slot_w = min(120.0, max(size, widest + 12))
        label_fits = [self._fit(lb, slot_w + 4, 10, max_lines=2) for lb in part.labels]
        label_h = max((len(f.lines) for f in label_fits), default=0) * 11.5
        # a row longer than the picture is wide goes on over several lines
        per_line = max(1, min(len(part.values),
                              int((MAX_WIDTH - 2 * GAP - 16 + 6) // (slot_w + 6))))
        line_h = size + label_h + (4 if label_fits else 0)
        lines = -(-len(part.values) // per_line) if part.values else 1
        w = per_line * (slot_w + 6)
        h = lines * line_h + (lines - 1) * 6
        fr = self._frame(part.title, part.player, w - 6)
        for i, e in enumerate(part.values):
            x = (i % per_line) * (slot_w + 6)
            body = _el(fr.body, "g", transform=f"translate(0,{_n((i // per_line) * (line_h + 6))})"
                       ) if i >= per_line else fr.body
            v = self._v(e)
            gl = part.glyphs.get(int(v)) if isinstance(v, int) else None
            wide = gl is not None and gl.shape in ("square", "card", "none") and gl.text
            fill = (gl.colour or "#f3efe4") if wide and gl.shape != "none" else "#f3efe4"
            box = _el(body, "g", class_="box")
            _rect(box, x, 0, slot_w, size, rx="5", fill=fill, stroke=LINE if not wide else INK,
                  stroke_width="1")
            if wide:
                _title(box, gl.title or gl.text)
                f = self._fit(gl.text, slot_w - 6, 11, bold=True, max_lines=2)
                # below the owner's pawn (top right) when the part shows owners
                _lines(box, x + slot_w / 2, size / 2 + (7 if part.owners else 0), f.lines,
                       f.size, weight="600", fill=_contrast(fill))
            else:
                self._value_glyph(body, e, v, part.glyphs, x + slot_w / 2, size / 2,
                                  size * 0.7, room=slot_w - 4)
            if i < len(part.owners):
                who = self._v(part.owners[i])
                if isinstance(who, int) and who >= 0:
                    draw_glyph(body, Glyph("", None, "pawn", f"player {who}"), x + slot_w - 9,
                               10, 16, colour=player_colour(who))
            if i < len(label_fits):
                f = label_fits[i]
                _lines(body, x + slot_w / 2, size + 2 + label_h / 2, f.lines, f.size,
                       fill=FAINT)
            self._hit(body, x, 0, slot_w, size,
                      [e] + ([part.owners[i]] if i < len(part.owners) else []))
        return fr.done(h)

    def _track(self, part: Track) -> Panel:
        span = list(range(part.lo, part.hi + 1))
        per_row = 15
        size = 30.0
        rows = (len(span) + per_row - 1) // per_row
        w = min(len(span), per_row) * size
        h = rows * (size + 16)
        fr = self._frame(part.title, None, w)
        body = fr.body
        at: dict[int, list[tuple[Glyph | None, int | None]]] = {}
        for e, gl, p in part.markers:
            v = self._v(e)
            if isinstance(v, int) and not isinstance(v, bool):
                at.setdefault(min(max(v, part.lo), part.hi), []).append((gl, p))
        ground = _el(body, "g")
        for k, value in enumerate(span):
            x, y = (k % per_row) * size, (k // per_row) * (size + 16)
            _rect(ground, x, y, size, size, fill="#f3efe4", stroke=LINE)
            _text(ground, x + size / 2, y + size + 7, str(value), size=9, anchor="middle",
                  fill=FAINT)
        for k, value in enumerate(span):
            x, y = (k % per_row) * size, (k // per_row) * (size + 16)
            for j, (gl, p) in enumerate(at.get(value, [])):
                draw_glyph(body, gl, x + 8 + (j % 3) * 7, y + 9 + (j // 3) * 12, 14,
                           colour=player_colour(p) if p is not None else None)
            self._hit(body, x, y, size, size, near=[e for e, _, _ in part.markers
                                                    if self._v(e) == value],
                      place=f"{self.part_no[id(part)]}:{value}")
        return fr.done(h)

    def _map(self, part: PlaceMap) -> Panel:
        W, H = 560.0, 440.0
        box_w, box_h = 104.0, 66.0
        fr = self._frame(part.title, None, W)
        body = fr.body
        pos = {s.key: (s.x / 100 * (W - box_w) + box_w / 2, s.y / 100 * (H - box_h) + box_h / 2)
               for s in part.spots}
        links = _el(body, "g", stroke=LINE, stroke_width="2", stroke_dasharray="4 3")
        for a, b in part.links:
            (x1, y1), (x2, y2) = pos[a], pos[b]
            _el(links, "line", x1=x1, y1=y1, x2=x2, y2=y2)
        number = self.part_no[id(part)]
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
            box = _el(body, "g", class_="box")
            _title(box, s.label if not here else f"{here[0].label} ({s.label})")
            _rect(box, x, y, box_w, box_h, rx="7", fill=fill, stroke=INK if here else LINE,
                  stroke_width="1")
            if here:
                tile = here[0]
                f = self._fit(tile.label, box_w - 8, 11, bold=True, max_lines=1)
                _text(box, cx, y + 11, f.lines[0], size=f.size, anchor="middle", weight="600",
                      fill=_contrast(fill))
                chips = [(c.glyph, n) for c in tile.chips
                         for n in [self._v(c.count)] if isinstance(n, int) and n > 0]
                self._chip_row(box, chips, x + 5, y + 31, box_w - 10, 20)
                f = self._fit(s.label, box_w - 8, 9, max_lines=1)
                _text(box, cx, y + box_h - 8, f.lines[0], size=f.size, anchor="middle",
                      fill=_contrast(fill))
            else:
                f = self._fit(s.label, box_w - 8, 12, bold=True, max_lines=2)
                _lines(box, cx, cy, f.lines, f.size, weight="600", fill=FAINT)
            self._hit(body, x, y, box_w, box_h,
                      [e for t in here for e in (t.at, *(c.count for c in t.chips))],
                      place=f"{number}:{s.key}")
            for j, tok in enumerate(tokens.get(s.key, [])):
                colour = player_colour(tok.player) if tok.player is not None else None
                draw_glyph(body, tok.glyph or Glyph("", None, "pawn", tok.label),
                           x + box_w - 9 - j * 15, y - 4, 20, colour=colour)
                self._hit(body, x + box_w - 19 - j * 15, y - 14, 20, 20, [tok.at])
        return fr.done(H)

    def _chip_row(self, parent: ET.Element, chips: list[tuple[Glyph, int]], x: float,
                  y: float, width: float, size: float) -> float:
        """Chips left to right, wrapping; a long run of one glyph is drawn once with ×n.
        Returns the bottom of the last row."""
        cx, cy = x, y
        for gl, n in chips:
            w = glyph_box(gl, size, room=max(size, width / 2))
            copies = [None] * n if n <= 4 else [f"×{n}"]
            for extra in copies:
                need = w + (text_width(extra, size * 0.6) + 3 if extra else 0)
                if cx > x and cx + need > x + width:
                    cx, cy = x, cy + size + 2
                draw_glyph(parent, gl, cx + w / 2, cy, size, room=w)
                if extra:
                    _text(parent, cx + w + 1, cy, extra, size=size * 0.6)
                cx += need + 2
        return cy + size / 2

    def _rows(self, part: Rows) -> Panel:
        # a column as wide as the widest one-column tile's text needs at 9 px
        col = min(52.0, max([34.0] + [text_width(t.glyph.text, 9, bold=True) + 8
                                      for row in part.rows for t in row.tiles
                                      if t.width == 1]))
        marker_w = 26.0 if part.marker_glyph is not None else 0.0
        label_w = max([16.0] + [text_width(r.label, 10) + 6 for r in part.rows])
        top_h = 24.0 if part.top is not None else 0.0
        row_h = 32.0
        grid_x = label_w + marker_w
        shown = [[t for t in row.tiles if self._v(t.present)] for row in part.rows]
        # a row may run past the printed columns (villages have no length limit)
        span = max([part.columns] + [sum(t.width for t in ts) for ts in shown])
        flag_x = grid_x + span * col + 8
        flag_w = (max(text_width("✓ " + t, 11, bold=True) for t in part.flag_text) + 6
                  if any(r.flag is not None for r in part.rows) else 0.0)
        w = flag_x + flag_w
        h = top_h + len(part.rows) * row_h
        fr = self._frame(part.title, part.player, w)
        body = fr.body
        if part.top is not None:
            self._hit(body, grid_x, 0, part.columns * col, top_h, [part.top])
            n = self._v(part.top)
            n = n if isinstance(n, int) else 0
            for k in range(part.columns):
                x = grid_x + (part.columns - 1 - k) * col + col / 2
                if k < n:
                    draw_glyph(body, part.top_glyph, x, top_h / 2, 20)
                else:
                    _el(body, "circle", cx=x, cy=top_h / 2, r="3", fill=LINE)
        ground = _el(body, "g")  # the empty rows, one piece: the same in every picture
        for r, row in enumerate(part.rows):
            y = top_h + r * row_h
            _text(ground, label_w / 2, y + row_h / 2, row.label, size=10, anchor="middle",
                  fill=FAINT)
            for k in range(part.columns):
                _rect(ground, grid_x + k * col, y + 2, col, row_h - 4, fill="#f6f3ea",
                      stroke="#e2ddd0")
        for r, (row, tiles) in enumerate(zip(part.rows, shown)):
            y = top_h + r * row_h
            self._hit(body, 0, y, w, row_h, near=[e for t in row.tiles
                                                   for e in (t.present, t.badge)])
            if row.marker is not None and self._v(row.marker):
                draw_glyph(body, part.marker_glyph, label_w + marker_w / 2, y + row_h / 2, 22)
            if row.marker is not None:
                self._hit(body, label_w, y, marker_w, row_h, [row.marker])
            x = grid_x
            for t in tiles:
                tw = t.width * col
                box = _el(body, "g", class_="box")
                _title(box, t.glyph.title or t.glyph.text)
                fill = t.glyph.colour or "#cccccc"
                _rect(box, x + 1.5, y + 3.5, tw - 3, row_h - 7, rx="4", fill=fill, stroke=INK,
                      stroke_width="0.8")
                badge = t.badge is not None and self._v(t.badge)
                # a badge sits on the tile's top edge, its text below it
                f = self._fit(t.glyph.text, tw - 6, 10, bold=True,
                              max_lines=1 if badge else 2)
                _lines(box, x + tw / 2, y + row_h / 2 + (5 if badge else 0), f.lines, f.size,
                       weight="600", fill=_contrast(fill))
                if badge:  # in the tile's top right corner, its own box
                    bw = max(13.0, text_width(t.badge_text, 7.5, bold=True) + 4)
                    mark = _el(box, "g", class_="box")
                    _rect(mark, x + tw - bw - 1.5, y + 3.5, bw, 10, rx="2", fill=INK)
                    _text(mark, x + tw - 1.5 - bw / 2, y + 8.5, t.badge_text, size=7.5,
                          anchor="middle", fill="#ffffff", weight="700")
                self._hit(body, x, y + 2, tw, row_h - 4, [t.present, t.badge])
                x += tw
            if row.flag is not None and tiles:  # an empty row has nothing to judge
                ok = bool(self._v(row.flag))
                yes, no = part.flag_text
                _text(body, flag_x, y + row_h / 2, ("✓ " + yes) if ok else ("✗ " + no),
                      size=11, fill="#1a7f37" if ok else "#b00020",
                      weight="600" if ok else None)
                self._hit(body, flag_x - 3, y + 2, flag_w, row_h - 4, [row.flag])
        return fr.done(h)

    def _pile(self, part: Pile) -> Panel:
        chips = [(c.glyph, n) for c in part.chips
                 for n in [self._v(c.count)] if isinstance(n, int) and n > 0]
        w = 240.0
        fr = self._frame(part.title, part.player, w)
        bottom = self._chip_row(fr.body, chips, 0, 13, w, 26) if chips else 16.0
        if not chips:
            _text(fr.body, 0, 8, "(empty)", size=11, fill=FAINT)
        self._hit(fr.body, -4, -2, w + 8, bottom + 4, [c.count for c in part.chips])
        return fr.done(bottom)


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
    pts = [(cx + r * math.cos(math.radians(90 + 60 * k)),
            cy + r * math.sin(math.radians(90 + 60 * k))) for k in range(6)]
    return " ".join(f"{_n(x)},{_n(y)}" for x, y in pts)
