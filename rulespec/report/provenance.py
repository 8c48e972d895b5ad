"""Where a spec's values come from: the kind of each assumption's origin, and the spec's
hash. Which rules read an assumption is exact, from the IR (``rulespec.check.depends``,
shown by :mod:`.depends`).
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

#: origin kinds, by the words a spec's ``origin=`` uses for them (first match wins per kind)
ORIGIN_KINDS = (
    ("constructed", ("constructed", "invented")),
    ("modelling bound", ("modelling bound", "modeling bound")),
    ("inference", ("inference", "inferred")),
    ("not found", ("not found",)),
    ("published game", ("research/", "rule list", "published", "bga", "http", ".de", ".com")),
)


def origin_kinds(origin: str | None) -> list[str]:
    """The kinds an origin names: constructed (invented for the model), modelling bound,
    inference, not found (no source gives it), published game.

    >>> origin_kinds("INFERENCE from the seed")
    ['inference']
    >>> origin_kinds("CONSTRUCTED; count 56 from research/components.md; list NOT FOUND")
    ['constructed', 'not found', 'published game']
    >>> origin_kinds("research/components.md; assignment NOT FOUND")
    ['not found', 'published game']
    >>> origin_kinds(None)
    ['not found']
    """
    text = (origin or "").lower()
    kinds = [k for k, words in ORIGIN_KINDS if any(w in text for w in words)]
    return kinds or ["not found"]


#: a catalogue entry's provenance (``rulespec.spec.components``) as an origin kind
PROVENANCE_KINDS = {"printed": "printed", "research": "published game",
                    "constructed": "constructed"}


def catalogue_kinds(c: Any) -> list[str]:
    """The origin kinds of a catalogue of component data: those of its entries'
    provenances, in the order printed, published game, constructed."""
    kinds = {PROVENANCE_KINDS[p.kind] for p in c.provenance.values()}
    return [k for k in ("printed", "published game", "constructed") if k in kinds] or [
        "not found"]


def spec_hash(path: str | Path | None) -> str | None:
    """SHA-256 of the spec file's bytes: two reports of the same spec text share it."""
    if path is None or not Path(path).is_file():
        return None
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()
