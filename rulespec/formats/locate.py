"""Line numbers for key paths, from a file's text (the standard parsers give none).

Best effort: the line of the deepest key of the path that can be found, else the line of
the table that holds it.
"""

from __future__ import annotations

import re
from typing import Any, Sequence

_HEADER = re.compile(r"^\s*(\[\[?)\s*([^\[\]]+?)\s*(\]\]?)\s*(#.*)?$")
_DOTTED = re.compile(r"^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$")


class TomlLines:
    """Lines of keys in a TOML file whose array of tables is ``[[ARRAY]]``.

    >>> at = TomlLines('game = "x"\\n[[scenario]]\\nname = "a"\\n[scenario.then]\\nlegal = []\\n')
    >>> at.find(("game",)), at.find(("scenario", 0)), at.find(("scenario", 0, "then", "legal"))
    (1, 2, 5)
    """

    def __init__(self, text: str, array: str = "scenario") -> None:
        self.lines = text.splitlines()
        self.array = array
        self.headers: list[tuple[int, str, bool]] = []   # (0-based line, dotted name, [[ ]])
        for i, line in enumerate(self.lines):
            m = _HEADER.match(line)
            if not m or len(m.group(1)) != len(m.group(3)):
                continue
            name = re.sub(r"\s*\.\s*", ".", m.group(2).strip()).replace('"', "").replace("'", "")
            if _DOTTED.match(name):
                self.headers.append((i, name, len(m.group(1)) == 2))
        self.items = [i for i, name, arr in self.headers if arr and name == array]

    def find(self, keys: Sequence[Any]) -> int | None:
        """The 1-based line of a key path (``("scenario", 2, "then", "legal")``)."""
        keys = tuple(keys)
        if len(keys) >= 2 and keys[0] == self.array and isinstance(keys[1], int):
            return self.find_in(keys[1], tuple(k for k in keys[2:] if isinstance(k, str)))
        return self.find_in(None, tuple(k for k in keys if isinstance(k, str)))

    def _next_header(self, after: int, end: int, within: str) -> int:
        for i, name, _ in self.headers:
            if after < i < end and not name.startswith(within + "."):
                return i
        return end

    def find_in(self, index: int | None, keys: Sequence[str]) -> int | None:
        """The line of ``keys`` in item ``index`` of the array (or at the top)."""
        if index is None:
            if keys:  # a top-level key written as a table header: [diff], [interpretation]
                header = next((i for i, name, _ in self.headers if name == keys[0]), None)
                if header is not None:
                    return header + 1
            start, end = 0, self.headers[0][0] if self.headers else len(self.lines)
            best: int | None = None
            prefix = ""
        else:
            if index >= len(self.items):
                return None
            start = self.items[index]
            later = [i for i in self.items if i > start]
            end = later[0] if later else len(self.lines)
            best = start
            prefix = self.array + "."
        for depth, key in enumerate(keys):
            dotted = prefix + ".".join(keys[:depth + 1])
            header = next((i for i, name, _ in self.headers
                           if start <= i < end and name == dotted), None)
            if header is not None:
                best, start = header, header
                end = self._next_header(header, end, dotted)
                continue
            q = re.escape(key)
            as_key = re.compile(rf"""(^|[\s{{,.])("{q}"|'{q}'|{q})\s*=""")
            as_text = re.compile(rf"""("{q}"|'{q}')""")
            found = None
            for i in range(start, end):
                if as_key.search(self.lines[i]) or (depth == len(keys) - 1
                                                    and as_text.search(self.lines[i])):
                    found = i
                    break
            if found is None:
                break
            best, start = found, found
        return None if best is None else best + 1


def json_line(text: str, keys: Sequence[Any]) -> int | None:
    """The 1-based line of a key path in a JSON text: each key's ``"name":`` after the
    previous one (list positions are skipped). Best effort, like :class:`TomlLines`.

    >>> json_line('{\\n "a": 1,\\n "b": {\\n  "c": 2}}', ("b", "c"))
    4
    """
    pos, best = 0, None
    for key in keys:
        if not isinstance(key, str):
            continue
        m = re.compile(r'"' + re.escape(key) + r'"\s*:').search(text, pos)
        if m is None:
            break
        pos = m.end()
        best = text.count("\n", 0, m.start()) + 1
    return best
