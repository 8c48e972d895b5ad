"""Pictures that show what changed: an action, or the difference between two readings.

Generic, from the view every spec declares: both states are read through the view's
expressions, and each expression whose value differs is outlined where the picture shows
it (the renderer's hit boxes, ``Picture(model, hits=True)``); a token that moves on a map
or a marker that moves on a track is drawn as an arrow from its old place to its new one.
A card taken from a row into a hand changes both, so both are outlined. No game has
drawing code here: only the view's parts.

The contract the report and its browser tests rely on: a picture of a difference is an
``<svg class="rsv difference">``, a picture of an action an ``<svg class="rsv action">``; each mark
inside it (an outline or an arrow) is an element of class ``mark`` with a ``<title>``
saying what changed there; a difference picture has at least one mark. What the view does
not show (a cell no part draws, the scores of an end) is listed in a note panel under the
picture, its changed lines marked the same way.
"""

from __future__ import annotations

import math
import re
import xml.etree.ElementTree as ET
from typing import Any, Iterable, Sequence

from ..runtime.model import Model, State
from ..spec.view import PlaceMap, Track, View
from ..draw.fit import text_width, wrap
from ..draw.svg import FAINT, GAP, INK, LINE, Picture, _el, _n, _text

#: the marks' colour: a strong magenta, apart from the players' Okabe-Ito colours
MARK = "#c8006e"
HALO = "#fff"
#: a note panel lists at most this many lines
NOTE_ROWS = 10
#: and is at least this wide
NOTE_WIDTH = 300.0
#: the height of one of its lines
ROW = 25


def _mark_group(parent: ET.Element, title: str) -> ET.Element:
    g = _el(parent, "g", class_="mark")
    _el(g, "title").text = title
    return g


def _outline(parent: ET.Element, box: tuple[float, float, float, float], title: str) -> None:
    x, y, w, h = box
    g = _mark_group(parent, title)
    # said once for both rects, the halo's stroke too: a page has hundreds of marks
    g.set("fill", "none")
    g.set("stroke", HALO)
    g.set("stroke-width", "5.5")
    for more in ({}, {"stroke": MARK, "stroke_width": "2.6"}):
        _el(g, "rect", x=_n(x - 2), y=_n(y - 2), width=_n(w + 4), height=_n(h + 4), rx="5",
            **more)


def _edge(box: tuple[float, float, float, float], toward: tuple[float, float]
          ) -> tuple[float, float]:
    """Where the segment from the box's centre toward a point leaves the box."""
    x, y, w, h = box
    cx, cy = x + w / 2, y + h / 2
    dx, dy = toward[0] - cx, toward[1] - cy
    if dx == 0 and dy == 0:
        return cx, cy
    t = min(w / 2 / abs(dx) if dx else math.inf, h / 2 / abs(dy) if dy else math.inf)
    return cx + dx * min(t, 1.0), cy + dy * min(t, 1.0)


def _arrow(parent: ET.Element, a: tuple[float, float, float, float],
           b: tuple[float, float, float, float], title: str) -> None:
    """An arrow from box ``a`` to box ``b`` (edge to edge), with its head drawn (no
    ``<marker>``: ids would clash between the pictures of one page)."""
    ca = (a[0] + a[2] / 2, a[1] + a[3] / 2)
    cb = (b[0] + b[2] / 2, b[1] + b[3] / 2)
    x1, y1 = _edge(a, cb)
    x2, y2 = _edge(b, ca)
    length = math.hypot(x2 - x1, y2 - y1) or 1.0
    ux, uy = (x2 - x1) / length, (y2 - y1) / length
    head = 11.0
    bx, by = x2 - ux * head, y2 - uy * head
    g = _mark_group(parent, title)
    for colour, width in ((HALO, 7.0), (MARK, 3.4)):
        _el(g, "line", x1=f"{x1:.1f}", y1=f"{y1:.1f}", x2=f"{bx:.1f}", y2=f"{by:.1f}",
            stroke=colour, stroke_width=f"{width}", stroke_linecap="round")
    _el(g, "polygon", points=(f"{x2:.1f},{y2:.1f} {bx - uy * 6:.1f},{by + ux * 6:.1f} "
                              f"{bx + uy * 6:.1f},{by - ux * 6:.1f}"),
        fill=MARK, stroke=HALO, stroke_width="1.2")


class _Hits:
    """The renderer's hit boxes in one drawn tree: by expression, by place, and the
    group each lies in (marks go beside them, in the same coordinates)."""

    def __init__(self, root: ET.Element) -> None:
        self.root = root
        self.parent = {child: par for par in root.iter() for child in par}
        self.primary: dict[int, list[ET.Element]] = {}
        self.near: dict[int, list[ET.Element]] = {}
        self.places: dict[str, ET.Element] = {}
        for el in root.iter("rect"):
            for key, table in (("data-hit", self.primary), ("data-near", self.near)):
                for k in (el.get(key) or "").split():
                    table.setdefault(int(k), []).append(el)
            if el.get("data-place"):
                self.places[el.get("data-place")] = el
        self.drawn: set[tuple] = set()
        self.marks = 0

    @staticmethod
    def box(el: ET.Element) -> tuple[float, float, float, float]:
        return tuple(float(el.get(a) or 0) for a in ("x", "y", "width", "height"))  # type: ignore

    def outline(self, el: ET.Element, title: str) -> None:
        key = (id(self.parent[el]), self.box(el))
        if key in self.drawn:
            return
        self.drawn.add(key)
        _outline(self.parent[el], self.box(el), title)
        self.marks += 1

    def mark(self, k: int, title: str) -> bool:
        """Outline where expression ``k`` is shown (else its fallback region)."""
        found = self.primary.get(k) or self.near.get(k) or []
        for el in found:
            self.outline(el, title)
        return bool(found)

    def arrow(self, a: str, b: str, title: str) -> bool:
        ea, eb = self.places.get(a), self.places.get(b)
        if ea is None or eb is None or self.parent[ea] is not self.parent[eb]:
            return False
        _arrow(self.parent[ea], self.box(ea), self.box(eb), title)
        self.marks += 1
        return True

    def strip(self) -> None:
        """Remove the invisible hit boxes: the page carries only what it shows."""
        for el in list(self.root.iter("rect")):
            if el.get("data-hit") or el.get("data-near") or el.get("data-place"):
                self.parent[el].remove(el)


def _moves(picture: Picture, old: Sequence[Any], new: Sequence[Any]
           ) -> list[tuple[int, str, str, str]]:
    """Tokens and track markers whose place changed: (expression, from, to, what)."""
    out = []
    for i, part in enumerate(picture.view.parts):
        if isinstance(part, PlaceMap):
            labels = {s.key: s.label for s in part.spots}
            for pc in part.pieces:   # a place is named by the tile on it, if any
                at = old[picture.index(pc.at)]
                if pc.kind == "tile" and pc.label and at in labels:
                    labels[at] = f"{pc.label} ({labels[at]})"
            for pc in part.pieces:
                k = picture.index(pc.at)
                a, b = old[k], new[k]
                if a != b and a in labels and b in labels:
                    who = pc.label or (f"player {pc.player}" if pc.player is not None
                                       else "a piece")
                    out.append((k, f"{i}:{a}", f"{i}:{b}",
                                f"{who} moves from {labels[a]} to {labels[b]}"))
        elif isinstance(part, Track):
            for e, gl, p in part.markers:
                k = picture.index(e)
                a, b = old[k], new[k]
                if a != b and isinstance(a, int) and isinstance(b, int):
                    who = (gl.title or gl.text) if gl is not None else f"player {p}"
                    out.append((k, f"{i}:{a}", f"{i}:{b}",
                                f"{part.title}: {who} moves from {a} to {b}"))
    return out


def moves(model: Model, before: State, after: State) -> list[str]:
    """In words, each token or marker of the view that an action moves ("player 0 moves
    from Kahunas to Cottages II")."""
    picture = Picture(model)
    return [what for _, _, _, what in _moves(picture, picture.values_of(before),
                                             picture.values_of(after))]


def _words(picture: Picture) -> Any:
    """How a mark's title names a value: by the glyph the view draws for it (its title,
    else its text; "empty" where none is drawn), else as the picture writes it."""
    tables: dict[int, dict] = {}
    places: dict[int, dict] = {}   # a piece's place: named by the map's spot
    for part in picture.view.parts:
        glyphs = getattr(part, "glyphs", None)
        if glyphs:
            for e in View((part,)).exprs():
                tables[picture.index(e)] = glyphs
        if isinstance(part, PlaceMap):
            labels = {s.key: s.label for s in part.spots}
            for pc in part.pieces:
                places[picture.index(pc.at)] = labels

    def say(k: int, v: Any) -> str:
        if k in places:
            return places[k].get(v, "off the map")
        table = tables.get(k)
        if table is not None and isinstance(v, int):
            g = table.get(int(v))
            return "empty" if g is None else (g.title or g.text or picture.shown(k, v))
        return picture.shown(k, v)
    return say


def _parts_of(picture: Picture, exprs: Iterable[int]) -> set[int]:
    """The numbers of the view's parts that draw any of these expressions."""
    wanted = set(exprs)
    return {i for i, part in enumerate(picture.view.parts)
            if any(picture.index(e) in wanted for e in View((part,)).exprs())}


def _note(root: ET.Element, title: str, rows: Iterable[tuple[str, bool]]) -> int:
    """A panel under the picture listing ``rows`` (text, marked?); returns the marks."""
    rows = list(rows)
    if not rows:
        return 0
    if len(rows) > NOTE_ROWS:   # the marked ones first; the JSON lists every cell
        rows = sorted(rows, key=lambda r: not r[1])
        rows = rows[:NOTE_ROWS - 1] + [(f"… and {len(rows) - NOTE_ROWS + 1} more", False)]
    vb = [float(v) for v in (root.get("viewBox") or "0 0 200 40").split()]
    width, top = max(vb[2], NOTE_WIDTH, text_width(title, 13, bold=True) + 2 * GAP + 16), vb[3]
    lines = [(line, marked) for text, marked in rows
             for line in wrap(text, width - 2 * GAP - 24, 12)]
    height = 30 + ROW * len(lines)
    g = _el(root, "g", transform=f"translate({GAP},{top:.1f})")
    _el(g, "rect", x="0", y="0", width=f"{width - 2 * GAP:.1f}", height=f"{height:.1f}",
        rx="8", fill="#ffffff", stroke=LINE)
    _text(g, 8, 14, title, size=13, weight="600")
    marks = 0
    y = 32.0
    for text, marked in lines:
        _text(g, 14, y + 6, text, size=12, fill=INK if marked else FAINT)
        if marked:
            _outline(g, (8, y - 3, width - 2 * GAP - 16, 18), text)
            marks += 1
        y += ROW
    new_h = top + height + GAP
    root.set("viewBox", f"0 0 {width:.0f} {new_h:.0f}")
    root.set("width", f"{width:.0f}")
    root.set("height", f"{new_h:.0f}")
    return marks


def _cells(model: Model, a: State, b: State, picture: Picture | None = None
           ) -> list[tuple[str, Any, Any]]:
    """The cells that differ between two states (with ``picture``: only those of fields
    its view does not read at all, which no mark can show)."""
    from ..check.explain import changed_cells
    from ..ir.walk import fields_read
    shown = set() if picture is None else {f.name for f in fields_read(picture.view.exprs())}
    return [(cell_words(model, cell), va, vb)
            for cell, (va, vb) in changed_cells(model, a.values, b.values).items()
            if cell.split("[")[0] not in shown]


def cell_words(model: Model, ref: str) -> str:
    """A cell's scenario reference in words: ``feet[0]`` -> "feet of player 0",
    ``area_tok[fruit_1][3/plain]`` -> "area_tok at fruit_1, 3/plain"."""
    name, *index = re.findall(r"[^\[\]]+", ref)
    slot = model.layout.slots.get(name)
    if slot is None or not index:
        return ref
    who, at = [], []
    for dim, i in zip(slot.field.dims, index):
        (who if dim.players else at).append(i)
    words = name + "".join(f" of player {p}" for p in who)
    return words + (f" at {', '.join(at)}" if at else "")


def action_svg(model: Model, before: State, afters: Sequence[tuple[State, State]],
               caption: str) -> str:
    """``before``, the state an action is taken in, with the action drawn on it: what it
    changes under each reading (``afters``: that reading's state before it and after it;
    the readings may start apart, from a setup that differs) outlined, and every token it
    moves an arrow from its place to its new one. Only the view's parts the action changes
    are drawn (all of them if it changes none it draws): the situation's other parts stand
    as they were, and a page with a dozen such pictures stays small."""
    picture = Picture(model, hits=True)
    values = [(picture.values_of(start), picture.values_of(after)) for start, after in afters]
    changed = _parts_of(picture, [k for old, new in values
                                  for k, (a, b) in enumerate(zip(old, new)) if a != b])
    root = picture.tree(before, caption, only=changed or None)
    hits = _Hits(root)
    say = _words(picture)
    for old, new in values:
        for k, a, b, what in _moves(picture, old, new):
            hits.arrow(a, b, what)
        for k, (va, vb) in enumerate(zip(old, new)):
            if va != vb:
                hits.mark(k, f"{say(k, va)} → {say(k, vb)}")
    hits.strip()
    # what the view does not draw at all (or nothing it draws changes): said in words
    unseen = {cell: f"{cell}: {_plain(va)} → {_plain(vb)}" for start, after in afters
              for cell, va, vb in _cells(model, start, after,
                                         picture if hits.marks else None)}
    _note(root, "Not in the picture: what the action changes",
          [(text, True) for text in unseen.values()])
    root.set("class", f"{root.get('class', '')} action".strip())
    return ET.tostring(root, encoding="unicode")


def difference_svg(model: Model, state: State, other_model: Model, other: State,
                   caption: str, here: str, there: str,
                   extra: Sequence[tuple[str, Any, Any]] = ()) -> str:
    """``state`` (under reading ``here``) with what differs from ``other`` (the same
    situation under reading ``there``) outlined: each value the view shows differently,
    and a token that stands elsewhere there (its place there outlined too). Only the
    view's parts that differ are drawn. ``extra``: (label, here, there) rows the view
    cannot show, such as the scores at the end."""
    picture = Picture(model, hits=True)
    mine = picture.values_of(state)
    theirs = Picture(other_model).values_of(other)
    # only the parts that differ: the whole situation is the action's picture
    parts = _parts_of(picture, [k for k, (a, b) in enumerate(zip(mine, theirs)) if a != b])
    root = picture.tree(state, caption, only=parts)
    hits = _Hits(root)
    for _, a, _, what in _moves(picture, theirs, mine):
        if a in hits.places:   # where the token stands under the other reading
            hits.outline(hits.places[a], f"under {there}: {what.split(' moves ')[0]} "
                                         "stands here")
    say = _words(picture)
    for k, (va, vb) in enumerate(zip(mine, theirs)):
        if va != vb:
            hits.mark(k, f"{say(k, va)} under {here}; {say(k, vb)} under {there}")
    hits.strip()
    # each picture shows its own reading's values (the two stand side by side)
    rows = [(f"{label}: {_plain(a)}", a != b) for label, a, b in extra]
    # cells the view does not draw at all (or, if no mark shows anything, every cell)
    rows += [(f"{cell}: {_plain(va)}", True)
             for cell, va, vb in _cells(model, state, other, picture if hits.marks else None)]
    if not hits.marks and not any(marked for _, marked in rows):
        raise ValueError("the two states look the same and end the same: no difference")
    _note(root, "How the game ends" if extra else "Not in the picture", rows)
    root.set("class", f"{root.get('class', '')} difference".strip())
    return ET.tostring(root, encoding="unicode")


def _plain(v: Any) -> str:
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(_plain(x) for x in v) + "]"
    return str(v)


def marks_in(svg: str) -> list[ET.Element]:
    """The marks of a picture (for tests and checks): elements of class ``mark``."""
    root = ET.fromstring(svg)
    return [el for el in root.iter() if "mark" in (el.get("class") or "").split()]
