"""What the short texts a view draws stand for: the legend printed beside its pictures.

Two sources, both the spec's own words: the view's declared ``legend`` (``game.view(...,
legend={"Pa": "palm"})``), then every glyph whose text is not its title (``glyph("K",
title="kahuna")`` gives "K: kahuna"), unless the legend declares that very text. A text
of digits and signs only (a price, a count) needs no legend.

>>> from rulespec.spec.view import Glyph, Slots, View
>>> slots = Slots("Row", (), {1: Glyph("Pa 3", title="land with a palm, 3 points"),
...                           2: Glyph("K", title="kahuna"), 3: Glyph("7")})
>>> abbreviations(View((slots,)))
[('Pa 3', 'land with a palm, 3 points'), ('K', 'kahuna')]
>>> abbreviations(View((slots,), legend=(("Pa 3", "a palm worth 3"),)))
[('Pa 3', 'a palm worth 3'), ('K', 'kahuna')]
"""

from __future__ import annotations

import re
from typing import Iterator

from ..spec.view import (Counters, Glyph, Grid, Part, Pile, PlaceMap, Rows, Slots, Track,
                         View)

#: how many different meanings of one text the legend lists before "and N more"
MEANINGS = 3
_WORDS = re.compile(r"[^\s+/,;:()]+")
_NUMBER = re.compile(r"^[-+−×x]?[\d.½]*[-+−%]?$")


def glyphs(part: Part) -> Iterator[Glyph]:
    """Every glyph a part may draw."""
    if isinstance(part, (Grid, Slots)):
        yield from part.glyphs.values()
    elif isinstance(part, Counters):
        yield from (g for _, _, g in part.items if g is not None)
    elif isinstance(part, Track):
        yield from (g for _, g, _ in part.markers if g is not None)
    elif isinstance(part, PlaceMap):
        for piece in part.pieces:
            if piece.glyph is not None:
                yield piece.glyph
            yield from (c.glyph for c in piece.chips)
    elif isinstance(part, Rows):
        yield from (g for g in (part.marker_glyph, part.top_glyph) if g is not None)
        yield from (t.glyph for row in part.rows for t in row.tiles)
    elif isinstance(part, Pile):
        yield from (c.glyph for c in part.chips)


def _needs_legend(text: str) -> bool:
    return any(not _NUMBER.match(w) for w in _WORDS.findall(text))


def abbreviations(view: View) -> list[tuple[str, str]]:
    """(text drawn, what it stands for), declared entries first, then the glyphs' in
    reading order; one entry per text."""
    declared = dict(view.legend)
    derived: dict[str, list[str]] = {}
    for part in view.parts:
        for g in glyphs(part):
            text = g.text.strip()
            if (not g.legend or not text or not g.title or g.title.strip() == text
                    or not _needs_legend(text)):
                continue
            if text in declared:
                continue
            meanings = derived.setdefault(text, [])
            if g.title not in meanings:
                meanings.append(g.title)
    out = list(declared.items())
    for text, meanings in derived.items():
        more = len(meanings) - MEANINGS
        shown = "; ".join(meanings[:MEANINGS]) + (f"; and {more} more" if more > 0 else "")
        out.append((text, shown))
    return out
