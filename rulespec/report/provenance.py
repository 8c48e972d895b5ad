"""Where a spec's values come from: the kind of each assumption's origin, which rules read
each assumption, and the spec's hash.

Which rules read an assumption is derived from the spec's code: the value ``game.assume``
returns is followed through module-level names and helper functions (a name is tainted
when its definition reads a tainted name, a function when its body does) to the elements
defined where a tainted name is read — an action defined inside a tainted helper reads it,
an invariant whose expression names it reads it. It over-approximates (a helper that reads
one entry of a table is taken to read all of it), never under: a rule not listed does not
read the value.
"""

from __future__ import annotations

import ast
import hashlib
from pathlib import Path
from typing import Any

from ..spec.elements import GameSpec

#: origin kinds, by the words a spec's ``origin=`` uses for them (first match wins per kind)
ORIGIN_KINDS = (
    ("modelling bound", ("modelling bound", "modeling bound")),
    ("inference", ("inference",)),
    ("not found", ("not found",)),
    ("published game", ("research/", "rule list", "published", "bga", "http", ".de", ".com")),
)


def origin_kinds(origin: str | None) -> list[str]:
    """The kinds an origin names: published game, inference, modelling bound, not found.

    >>> origin_kinds("INFERENCE from the seed")
    ['inference']
    >>> origin_kinds("research/components.md; assignment NOT FOUND")
    ['not found', 'published game']
    >>> origin_kinds(None)
    ['not found']
    """
    text = (origin or "").lower()
    kinds = [k for k, words in ORIGIN_KINDS if any(w in text for w in words)]
    return kinds or ["not found"]


def spec_hash(path: str | Path | None) -> str | None:
    """SHA-256 of the spec file's bytes: two reports of the same spec text share it."""
    if path is None or not Path(path).is_file():
        return None
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def assumption_readers(spec: GameSpec, path: str | Path | None) -> dict[str, list[str]]:
    """For each assumption, the elements that read its value (``action buy_tile``,
    ``invariant x``, ``field supply``, ``scoring``...), from the spec's code."""
    if path is None or not Path(path).is_file():
        return {}
    tree = ast.parse(Path(path).read_text(encoding="utf-8"))
    taint: dict[str, set[str]] = {}
    for node in ast.walk(tree):  # NAME = game.assume("name", ...)
        if isinstance(node, ast.Assign) and _assume_name(node.value):
            for t in node.targets:
                for n in _targets(t):
                    taint[n] = {_assume_name(node.value)}  # type: ignore[arg-type]
    top = list(tree.body)
    changed = True
    while changed:  # follow names and functions to a fixpoint
        changed = False
        for stmt in top:
            got = _reads(stmt, taint)
            if not got:
                continue
            for n in _defines(stmt):
                if not got <= taint.get(n, set()):
                    taint[n] = taint.get(n, set()) | got
                    changed = True
    spans = [(_first_line(s), s.end_lineno or s.lineno, s) for s in top]
    out: dict[str, set[str]] = {a.name: set() for a in spec.assumptions}
    for label, line in _elements(spec):
        for lo, hi, stmt in spans:
            if lo <= line <= hi:
                for a in _reads(stmt, taint):
                    if a in out:
                        out[a].add(label)
                break
    return {k: sorted(v) for k, v in out.items()}


def _assume_name(value: ast.AST) -> str | None:
    if (isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute)
            and value.func.attr == "assume" and value.args
            and isinstance(value.args[0], ast.Constant) and isinstance(value.args[0].value, str)):
        return value.args[0].value
    return None


def _targets(t: ast.AST) -> list[str]:
    if isinstance(t, ast.Name):
        return [t.id]
    if isinstance(t, (ast.Tuple, ast.List)):
        return [n for x in t.elts for n in _targets(x)]
    return []


def _defines(stmt: ast.stmt) -> list[str]:
    if isinstance(stmt, (ast.FunctionDef, ast.ClassDef)):
        return [stmt.name]
    if isinstance(stmt, ast.Assign):
        return [n for t in stmt.targets for n in _targets(t)]
    if isinstance(stmt, (ast.AugAssign, ast.AnnAssign)):
        return _targets(stmt.target)
    if isinstance(stmt, ast.For):
        return _targets(stmt.target)
    return []


def _reads(stmt: ast.stmt, taint: dict[str, set[str]]) -> set[str]:
    got: set[str] = set()
    for n in ast.walk(stmt):
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load) and n.id in taint:
            got |= taint[n.id]
    if isinstance(stmt, ast.Assign) and _assume_name(stmt.value):
        got.add(_assume_name(stmt.value))  # type: ignore[arg-type]
    return got


def _first_line(stmt: ast.stmt) -> int:
    decos = getattr(stmt, "decorator_list", [])
    return min([stmt.lineno] + [d.lineno for d in decos])


def _elements(spec: GameSpec) -> list[tuple[str, int]]:
    """(label, line) of every element written in the spec file."""
    out: list[tuple[str, int]] = []

    def add(label: str, x: Any) -> None:
        w = getattr(x, "where", None)
        if w is not None:
            out.append((label, w.line))
    for a in spec.actions:
        add(f"action {a.name}", a)
    for f in spec.fields:
        if f.name != "num_players":
            add(f"field {f.name}", f)
    for i in spec.invariants:
        add(f"{'law' if i.law else 'invariant'} {i.name}", i)
    for c in spec.conservation:
        add(f"conservation {c.name}", c)
    for c in spec.constants:
        add(f"constant {c.name}", c)
    add("scoring", spec.scoring)
    for k, tb in enumerate(spec.tie_breaks):
        add(f"tie-break {k + 1}", tb)
    for what, rule in (("current player", spec.current_player), ("terminal", spec.terminal),
                       ("chance node", spec.chance_node)):
        if rule is not None:
            add(what, rule)
    return out
