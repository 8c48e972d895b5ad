"""No generated name in any report: every bundled game's report (smoke budget), in JSON,
HTML and Markdown, reads rules with the spec's names only, never an id the IR invented
(``v520``, ``place369``), a line-number label (``when@1015``, ``otherwise@1161``) or a
table printed as its numbers. A name planted back into the IR is found."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Iterator

import attrs
import pytest

import rulespec
from rulespec.ir.nodes import Expr
from rulespec.ir.statements import Assign, ForEach, If, Let
from rulespec.report.budget import SMOKE
from rulespec.report.collect import collect
from rulespec.report.document import build_document
from rulespec.report.render import write_report

#: labels the report used to make from source lines (``when@1015``, ``otherwise@1161#2``,
#: ``score@1373:then``), and a table said as its numbers (``[0, 1, 2, …][deal_step]``)
LINE_LABELS = re.compile(r"\b(?:when|otherwise|score)@\d+|\[\d+, \d+, \d+, \d+, \d+, \d+, …")


def _exprs(obj: Any, seen: set[int]) -> Iterator[Expr]:
    """Every IR node reachable from a spec record: fields, rules, statements, the view."""
    if id(obj) in seen or isinstance(obj, (str, int, float, bool, type(None))):
        return
    seen.add(id(obj))
    if isinstance(obj, Expr):
        yield obj
        for a in obj.args:
            yield from _exprs(a, seen)
        if obj.name is not None and not isinstance(obj.name, str):
            yield from _exprs(obj.name.parts, seen)
    elif isinstance(obj, (tuple, list, frozenset, set)):
        for x in obj:
            yield from _exprs(x, seen)
    elif isinstance(obj, dict):
        for x in obj.values():
            yield from _exprs(x, seen)
    elif attrs.has(type(obj)) or isinstance(obj, (Assign, If, ForEach, Let)):
        for f in attrs.fields(type(obj)):
            yield from _exprs(getattr(obj, f.name), seen)


def generated_names(spec: Any) -> set[str]:
    """The ids the IR invented for a spec's bound values (``v520``, ``place369``): what
    a variable is called inside the backends, unlike the name the spec gave it."""
    return {e.args[0] for e in _exprs(spec, set())
            if e.op == "var" and e.args[0] != e.name}


def leaks(text: str, names: set[str]) -> list[str]:
    """Generated names and line labels found in a report's text."""
    found = set(LINE_LABELS.findall(text))
    if names:
        words = re.compile(r"(?<![\w@])(?:" + "|".join(map(re.escape, sorted(names)))
                           + r")(?![\w])")
        found |= set(words.findall(text))
    return sorted(found)


def _texts(out: Path, name: str) -> dict[str, str]:
    return {ext: (out / f"{name}.{ext}").read_text(encoding="utf-8")
            for ext in ("json", "html", "md")}


@pytest.mark.parametrize("game", rulespec.available_games())
def test_no_generated_name_in_a_bundled_games_report(game, tmp_path):
    model = rulespec.load(game)
    names = generated_names(model.spec)
    assert names, "the spec binds values (the search below would test nothing)"
    doc = build_document(collect(game, SMOKE, tmp_path / "traces"), game)
    write_report(doc, tmp_path)
    for ext, text in _texts(tmp_path, doc["game"]["name"]).items():
        assert leaks(text, names) == [], f"{game}.{ext}"


def test_a_generated_name_planted_in_the_ir_is_found(tmp_path):
    """The same search on a report whose English was made with one bound value's name
    taken away: the printer falls back to the IR's id, and the search finds it."""
    spec = rulespec.load_spec("tic_tac_toe")
    (let,) = [st for a in spec.actions for st in a.effects if isinstance(st, Let)]
    uid = let.var.args[0]
    assert uid in generated_names(spec) and re.fullmatch(r"own\d+", uid)
    doc = build_document(collect("tic_tac_toe", SMOKE, tmp_path / "traces"), "tic_tac_toe")
    write_report(doc, tmp_path / "clean")
    assert all(leaks(t, {uid}) == [] for t in _texts(tmp_path / "clean", "tic_tac_toe").values())
    object.__setattr__(let.var, "name", None)  # the plant: the let loses its name
    try:
        doc = build_document(collect("tic_tac_toe", SMOKE, tmp_path / "traces"),
                             "tic_tac_toe")
        write_report(doc, tmp_path / "planted")
    finally:
        object.__setattr__(let.var, "name", "own")
    for ext, text in _texts(tmp_path / "planted", "tic_tac_toe").items():
        assert uid in leaks(text, {uid}), ext


def test_line_labels_and_tables_said_as_numbers_are_found():
    text = "when@1015 ... [0, 1, 2, 3, 4, 5, … (19 values)][deal_step] ... x[1][2] ok"
    assert leaks(text, {"v520", "place369"}) == sorted(
        ["when@1015", "[0, 1, 2, 3, 4, 5, …"])
    assert leaks("let place369 be 3; every v520 in 0..2; v5200 and av520", {"v520", "place369"}) \
        == ["place369", "v520"]
