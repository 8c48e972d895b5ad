"""Names that become file names: reduced to a safe slug, so that no text from a spec or
an option (``../../../x``, a path separator, a NUL) can choose where a file is written."""

from __future__ import annotations

import re

_DASHES = re.compile(r"-{2,}")


def slug(text: str, limit: int = 60) -> str:
    """``text`` as one file-name part: letters, digits and ``_`` kept, every other
    character a ``-``; never empty, never ``.`` or ``..``, never hidden.

    >>> slug("beach_return-free-vs-../../../x")
    'beach_return-free-vs-x'
    >>> slug("a/b\\\\c d"), slug(".."), slug("手番")
    ('a-b-c-d', 'x', '手番')
    """
    out = "".join(ch if ch.isalnum() or ch == "_" else "-" for ch in str(text))
    out = _DASHES.sub("-", out).strip("-")[:limit].strip("-")
    return out or "x"
