"""One page, many pictures of one game: draw what they have in common once.

The pictures of a report are states of one game, and most of each is the same from one
picture to the next (the two readings of a rule part on one number; the other players'
boards do not change). :class:`SharedPictures` gives each picture's SVG for an HTML page:
a piece (an element with all it contains) that occurs in more than one of the page's
pictures is written in full the first time, with an id, and every later time as an SVG
``<use>`` of it. The pictures look the same; the page is a fraction of the size. Each
picture in the JSON document and in the Markdown's files stays whole and self-contained.

A shared piece must look the same wherever it is used: it may rely on its own attributes
and on what it inherits from its ``<svg>`` (font, size, ink, baseline), never on a style
sheet, whose selectors do not reach into a ``<use>``; a piece with a mark is not shared.

>>> a = '<svg xmlns="http://www.w3.org/2000/svg"><g class="part">' + "<rect/>" * 40 + "</g></svg>"
>>> page = SharedPictures({"a": a, "b": a})
>>> first, second = page.svg("a"), page.svg("b")
>>> 'id="sp-' in first and "<rect" in first, "<use" in second and "<rect" not in second
(True, True)
"""

from __future__ import annotations

import hashlib
import xml.etree.ElementTree as ET
from collections import Counter
from typing import Mapping

SVG = "http://www.w3.org/2000/svg"
#: a piece smaller than this is written again rather than used (a <use> costs ~30 bytes)
MIN_BYTES = 240


def _key(el: ET.Element) -> str:
    return ET.tostring(el, encoding="unicode")


class SharedPictures:
    """The pictures of one page (id -> SVG text), each given out with the pieces it shares
    with the others drawn once (:meth:`svg`)."""

    def __init__(self, pictures: Mapping[str, str]) -> None:
        ET.register_namespace("", SVG)
        self._trees = {pid: ET.fromstring(svg) for pid, svg in pictures.items()}
        self._count: Counter[str] = Counter()
        for root in self._trees.values():
            for el in root.iter():
                if el is not root:
                    self._count[_key(el)] += 1
        self._written: set[str] = set()

    def svg(self, pid: str) -> str:
        """Picture ``pid``'s SVG for the page: shared pieces written once, then used."""
        root = self._trees.get(pid)
        if root is None:
            return ""
        root = _copy(root)
        self._share(root)
        return ET.tostring(root, encoding="unicode", short_empty_elements=True)

    def _share(self, parent: ET.Element) -> None:
        for k, child in enumerate(list(parent)):
            key = _key(child)
            if (self._count[key] >= 2 and len(key) >= MIN_BYTES
                    and not child.tag.endswith("style") and not _marked(child)):
                sid = "sp-" + hashlib.sha1(key.encode()).hexdigest()[:10]
                if sid in self._written:
                    use = ET.Element(f"{{{SVG}}}use", {"href": f"#{sid}"})
                    use.tail = child.tail
                    parent.remove(child)
                    parent.insert(k, use)
                    continue
                self._written.add(sid)
                child.set("id", sid)
            # written here in full: what it shares with pieces written before is used
            self._share(child)


def _marked(el: ET.Element) -> bool:
    """Whether a piece holds a mark (class "mark": what a picture of a difference points
    at). A mark is never shared: it stays in the page itself, where a style sheet and a
    reader's tools reach it (inside a <use>, neither does)."""
    return any("mark" in (e.get("class") or "").split() for e in el.iter())


def _copy(el: ET.Element) -> ET.Element:
    out = ET.Element(el.tag, dict(el.attrib))
    out.text, out.tail = el.text, el.tail
    out.extend(_copy(c) for c in el)
    return out
