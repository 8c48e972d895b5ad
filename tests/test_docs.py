"""The runnable snippets of docs/spec-language.md run and their assertions hold.

A snippet is a ```python block right after a ``<!-- snippet: NAME -->`` line; each runs on
its own, in a fresh namespace.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

DOC = Path(__file__).resolve().parent.parent / "docs" / "spec-language.md"
SNIPPET = re.compile(r"<!-- snippet: (\w+) -->\n```python\n(.*?)```", re.S)


def _snippets() -> dict[str, str]:
    return {m[1]: m[2] for m in SNIPPET.finditer(DOC.read_text(encoding="utf-8"))}


def test_every_new_language_feature_has_a_runnable_snippet():
    assert {"tables", "horizon", "kit", "observations", "connectivity"} <= set(_snippets())


@pytest.mark.parametrize("name", sorted(_snippets()))
def test_snippet_runs(name):
    code = _snippets()[name]
    exec(compile(code, f"{DOC.name}#{name}", "exec"), {"__name__": f"snippet_{name}"})  # noqa: S102
