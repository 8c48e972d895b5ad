"""Citations: one object per source text instead of a helper in every spec.

``game.text(file, cite="L{}")`` says how the spec cites one text (by line, by section
heading, by both); ``book.at("94", "カード1枚につき1カウンター")`` is the source string of one
passage, accepted wherever ``source=`` is (a citation *is* a ``str``), and
``.says(english)`` turns it into an interpretation option with its English rendering.

>>> book = Text("002_50b4d45ccb25edcc.txt", cite="L{}")
>>> book.at("94", "カード1枚につき1カウンター")
'002_50b4d45ccb25edcc.txt L94: 「カード1枚につき1カウンター」'
>>> notes = Text("seed.txt", cite="§{} L{}").part("セットアップ")
>>> notes.at(13)
'seed.txt §セットアップ L13'
>>> Text("OpenSpiel crazy_eights.cc", cite="", quote="{}").at("kPass")
'OpenSpiel crazy_eights.cc: kPass'
"""

from __future__ import annotations

import string
from typing import Any

from ..ir.errors import SpecError
from ..ir.location import caller_location
from .readings import Option


class Citation(str):
    """The source string of one passage (a ``str``, so any ``source=`` takes it), with the
    text it cites, the place in it and the quote, for a reader that wants the parts."""

    text: str
    place: tuple[str, ...]
    quote: str | None

    def __new__(cls, rendered: str, text: str = "", place: tuple[str, ...] = (),
                quote: str | None = None) -> "Citation":
        self = super().__new__(cls, rendered)
        self.text, self.place, self.quote = text, place, quote
        return self

    def __getnewargs__(self) -> tuple:  # pickling keeps the parts (worker processes)
        return (str(self), self.text, self.place, self.quote)

    def says(self, english: str) -> Option:
        """This passage as an interpretation option (or a point's source) with its English
        rendering: ``book.at("5", "好きな順番で").says("in any order you like")``."""
        if not isinstance(english, str) or not english.strip():
            raise SpecError(f"says() takes the passage in English, got {english!r}",
                            element=f"citation {self}", where=caller_location())
        return Option(str(self), english)

    def also(self, *others: str) -> "Citation":
        """This passage and others, cited together (``"a; b"``)."""
        joined = "; ".join([str(self), *map(str, others)])
        return Citation(joined, self.text, self.place, self.quote)


class Text:
    """One source text and how the spec cites it (see :meth:`Game.text`)."""

    def __init__(self, name: str, *, cite: str = "L{}", quote: str = "「{}」",
                 place: tuple[str, ...] = ()) -> None:
        where = caller_location()
        if not isinstance(name, str) or not name.strip():
            raise SpecError(f"a text needs its file name or title, got {name!r}",
                            element="text", where=where)
        slots = [f for _, f, _, _ in string.Formatter().parse(cite) if f is not None]
        if any(slots) or not isinstance(quote, str) or quote.count("{}") != 1:
            raise SpecError(f"cite= is a template with one {{}} per part of a place ('L{{}}', "
                            f"'§{{}} L{{}}') and quote= one with a single {{}}; got cite="
                            f"{cite!r}, quote={quote!r}", element=f"text {name}", where=where)
        self.name, self.cite, self.quote_format = name, cite, quote
        self.parts = len(slots)
        self._place = tuple(place)

    def __repr__(self) -> str:
        return f"Text({self.name!r}, cite={self.cite!r})"

    def part(self, *place: Any) -> "Text":
        """The same text with the first parts of every place fixed (a section heading):
        ``book.part("セットアップ").at(13)``."""
        if not place or len(self._place) + len(place) > self.parts:
            raise SpecError(f"part() fixes 1 to {self.parts - len(self._place) - 1} of the "
                            f"place's parts (cite {self.cite!r}), got {len(place)}",
                            element=f"text {self.name}", where=caller_location())
        return Text(self.name, cite=self.cite, quote=self.quote_format,
                    place=(*self._place, *map(str, place)))

    def at(self, *place: Any) -> Citation:
        """The citation of one passage: its place (one value per ``{}`` of ``cite``) and,
        after it, an optional short quote."""
        need = self.parts - len(self._place)
        if len(place) not in (need, need + 1):
            raise SpecError(f"at() takes the place ({need} part(s), cite {self.cite!r}) and "
                            f"an optional quote, got {len(place)} argument(s)",
                            element=f"text {self.name}", where=caller_location())
        parts = (*self._place, *(str(p) for p in place[:need]))
        quote = place[need] if len(place) > need else None
        if any(not p.strip() for p in parts) or (
                quote is not None and not (isinstance(quote, str) and quote.strip())):
            raise SpecError(f"a citation's place and quote are non-empty, got {place!r}",
                            element=f"text {self.name}", where=caller_location())
        at = self.cite.format(*parts)
        rendered = f"{self.name} {at}" if at else self.name
        if quote is not None:
            rendered += f": {self.quote_format.format(quote)}"
        return Citation(rendered, self.name, parts, quote)
