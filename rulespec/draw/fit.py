"""How wide a text is, and how to make it fit a box: wrap it, then shrink it, then (last)
shorten it with "…", saying so, so that no label is ever clipped silently.

The widths are those of DejaVu Sans (regular and bold), measured in Chromium with the
renderer's font stack on Debian, where the report's browser tests run: it is among the
widest sans-serif faces, so a label that fits here fits in Roboto, Segoe UI or Noto Sans
too. A wide East Asian character (kanji, kana, fullwidth forms) is one em.

>>> round(text_width("phase", 12), 1), round(text_width("phase", 12, bold=True), 1)
(36.2, 40.5)
>>> fit("5 locations", width=50, size=10).lines
('5', 'locations')
>>> fit("タイルの場所まで移動する", width=60, size=10).lines
('タイルの場所', 'まで移動する')
>>> f = fit("Pass area (next round's turn order)", width=60, size=10, max_lines=1)
>>> f.lines, f.shortened, f.size
(('Pass area (n…',), True, 8.0)
"""

from __future__ import annotations

import re
import unicodedata

import attrs

#: advance widths of ASCII 32..126 in thousandths of an em (DejaVu Sans Book)
REGULAR = (
    318, 401, 460, 838, 636, 950, 780, 275, 390, 390, 500, 838, 318, 361, 318, 337,
    636, 636, 636, 636, 636, 636, 636, 636, 636, 636, 337, 337, 838, 838, 838, 531,
    1000, 684, 686, 698, 770, 632, 575, 775, 752, 295, 295, 656, 557, 863, 748, 787,
    603, 787, 695, 635, 611, 732, 684, 989, 685, 611, 685, 390, 337, 390, 838, 500,
    500, 613, 635, 550, 635, 615, 352, 635, 634, 278, 278, 579, 278, 974, 634, 612,
    635, 635, 411, 521, 392, 634, 592, 818, 592, 592, 525, 636, 337, 636, 838,
)
#: the same for DejaVu Sans Bold (what font-weight 600 and 700 draw with)
BOLD = (
    348, 456, 521, 838, 696, 1002, 872, 306, 457, 457, 523, 838, 380, 415, 380, 365,
    696, 696, 696, 696, 696, 696, 696, 696, 696, 696, 400, 400, 838, 838, 838, 580,
    1000, 774, 762, 734, 830, 683, 683, 821, 837, 372, 372, 775, 637, 995, 837, 850,
    733, 850, 770, 720, 682, 812, 774, 1103, 771, 724, 725, 457, 365, 457, 838, 500,
    500, 675, 716, 593, 716, 678, 435, 716, 712, 343, 343, 665, 343, 1042, 712, 687,
    716, 716, 493, 595, 478, 712, 652, 924, 645, 652, 582, 712, 365, 712, 838,
)
#: symbols the bundled views draw (regular, bold)
OTHER = {"×": (838, 838), "★": (896, 896), "⌂": (635, 716), "·": (318, 380),
         "…": (1000, 1000), "✓": (838, 838), "✗": (838, 838), "–": (500, 500),
         "—": (1000, 1000), "§": (500, 500), "→": (838, 838), "←": (838, 838),
         "°": (500, 500), "½": (969, 1035)}
#: any other character: wide enough for most Latin letters with accents and symbols
UNKNOWN = 720
#: the smallest font size a label is shrunk to before it is wrapped further or shortened
MIN_SIZE = 8


def char_width(ch: str, bold: bool = False) -> int:
    """One character's advance in thousandths of an em."""
    code = ord(ch)
    if 32 <= code < 127:
        return (BOLD if bold else REGULAR)[code - 32]
    if ch in OTHER:
        return OTHER[ch][1 if bold else 0]
    if unicodedata.east_asian_width(ch) in ("W", "F"):
        return 1000
    if unicodedata.combining(ch):
        return 0
    return UNKNOWN


def text_width(text: str, size: float, bold: bool = False) -> float:
    """The width of ``text`` set at ``size`` px."""
    return sum(char_width(ch, bold) for ch in text) * size / 1000


@attrs.frozen
class Fitted:
    """A text made to fit: its lines, the size to set them at, and whether it had to be
    shortened (then the caller shows the full text elsewhere: a tooltip and a legend)."""

    lines: tuple[str, ...]
    size: float
    shortened: bool = False

    @property
    def width(self) -> float:
        return max((text_width(line, self.size) for line in self.lines), default=0.0)


_WORD = re.compile(r"\S+\s*")


def _pieces(text: str) -> list[str]:
    """Where a line may break: after a space, or between two wide (CJK) characters."""
    out: list[str] = []
    for word in _WORD.findall(text):
        run = ""
        for ch in word:
            if unicodedata.east_asian_width(ch) in ("W", "F") and run:
                out.append(run)
                run = ""
            run += ch
        out.append(run)
    return out


def wrap(text: str, width: float, size: float, bold: bool = False) -> list[str]:
    """``text`` broken into lines no wider than ``width`` where it can break (a word
    wider than the line stays whole: the caller shrinks or shortens it)."""
    lines: list[str] = []
    line = ""
    for piece in _pieces(text):
        if line and text_width((line + piece).rstrip(), size, bold) > width:
            lines.append(line.rstrip())
            line = piece
        else:
            line += piece
    if line.strip():
        lines.append(line.rstrip())
    return lines or [""]


def shorten(text: str, width: float, size: float, bold: bool = False) -> str:
    """The longest start of ``text`` that, with "…", is no wider than ``width``."""
    if text_width(text, size, bold) <= width:
        return text
    out = ""
    for ch in text:
        if text_width(out + ch + "…", size, bold) > width:
            break
        out += ch
    return out.rstrip() + "…"


def fit(text: str, width: float, size: float, *, bold: bool = False, max_lines: int = 2,
        min_size: float = MIN_SIZE) -> Fitted:
    """Fit ``text`` into ``width`` px: as it is; else wrapped onto up to ``max_lines``
    lines; else smaller (down to ``min_size``); else shortened with "…"."""
    s = float(size)
    while True:
        lines = wrap(text, width, s, bold)
        if len(lines) <= max_lines and all(text_width(x, s, bold) <= width for x in lines):
            return Fitted(tuple(lines), s)
        if s - 1 < min_size:
            break
        s -= 1
    lines = wrap(text, width, s, bold)
    kept = lines[:max_lines]
    if len(lines) > max_lines:
        kept[-1] = kept[-1] + " " + " ".join(lines[max_lines:])
    return Fitted(tuple(shorten(x, width, s, bold) for x in kept), s, True)
