"""Each open question of the report as an FAQ entry: answers, not failures (DIFFER / SAME,
never VIOLATED), the situation drawn before and after the deciding action with what
differs marked, the cause in rule terms, the impact under two kinds of player, the
suggested ruling."""

import re
import xml.etree.ElementTree as ET

import pytest

import rulespec
from rulespec.report.budget import SMOKE
from rulespec.report.collect import collect
from rulespec.report.document import build_document
from rulespec.report.marks import action_svg, difference_svg, marks_in
from rulespec.report.render import render_html, render_markdown
from rulespec.runtime.registry import available_games

MARKED = "tests/fixtures/marked_reading"
SVG = "{http://www.w3.org/2000/svg}"


class _Docs(dict):
    """Each game's smoke report, made when a test first asks for it (a test worker
    makes only the games its tests read)."""

    def __init__(self, out):
        super().__init__()
        self.out = out

    def __missing__(self, game):
        doc = self[game] = build_document(collect(game, SMOKE, self.out / "traces"), game)
        return doc


@pytest.fixture(scope="module")
def docs(tmp_path_factory):
    return _Docs(tmp_path_factory.mktemp("faq"))


def _questions_html(doc):
    html = render_html(doc)
    start = html.index('<section id="questions"')
    return html[start:html.index("</section>", start)]


def _questions_md(doc):
    md = render_markdown(doc, "pictures")
    start = md.index("## Open questions for the rules author")
    return md[start:md.index("\n## ", start + 5)]


def _pictures(doc):
    for q in doc["questions"]:
        for d in q["differences"]:
            x = d["difference"]
            if x is not None:
                yield q, d, x


@pytest.mark.parametrize("game", [*available_games(), MARKED])
def test_no_open_question_reads_violated_and_a_difference_reads_differ(docs, game):
    doc = docs[game]
    for part in (_questions_html(doc), _questions_md(doc)):
        assert "VIOLATED" not in part
    for q in doc["questions"]:
        for d in q["differences"]:
            assert d["status"] in ("DIFFER", "SAME", "UNKNOWN", "SKIPPED")
            assert (d["status"] == "DIFFER") == (d["difference"] is not None)
            if d["status"] == "DIFFER":
                assert re.search(rf'<h4><code>{re.escape(d["readings"][0])}</code> against '
                                 rf'<code>{re.escape(d["readings"][1])}</code>: <span '
                                 r'class="answer DIFFER">DIFFER</span>', _questions_html(doc))
    counted = sum(any(d["status"] == "DIFFER" for d in q["differences"])
                  for q in doc["questions"])
    assert doc["glance"]["questions_that_matter"] == counted


@pytest.mark.parametrize("game", [*available_games(), MARKED])
def test_every_difference_picture_marks_something(docs, game):
    doc = docs[game]
    for q, d, x in _pictures(doc):
        pictures = x["pictures"]
        if x["action"] is not None:
            root = ET.fromstring(doc["pictures"][pictures["before"]]["svg"])
            assert "action" in root.get("class").split()
        assert pictures["after"], f"{q['name']} against {d['against']}: no picture after"
        for after in pictures["after"]:
            svg = doc["pictures"][after["picture"]]["svg"]
            assert "difference" in ET.fromstring(svg).get("class").split()
            marks = marks_in(svg)
            assert marks, f"{q['name']} against {d['against']}: nothing marked"
            assert all(m.find(f"{SVG}title") is not None for m in marks)


def _cell_boxes(root):
    """The Board panel's body and its cell rects (drawn first, as the empty board's one
    group), in a grid picture."""
    for g in root.iter(f"{SVG}g"):
        texts = [t.text for t in g.iter(f"{SVG}text")]
        if g.get("class") == "part" and texts and texts[0] == "Board":
            body = g.find(f"{SVG}g")
            cells = body.find(f"{SVG}g").findall(f"{SVG}rect")
            return body, cells
    raise AssertionError("no Board panel")


def test_exactly_the_planted_cell_is_marked():
    red = rulespec.load(MARKED)
    blue = rulespec.load(MARKED, {"shade": "blue"})
    s0 = red.initial_state(1)
    act = red.action_from_str(s0, "paint")
    a, b = red.apply(s0, act), blue.apply(blue.initial_state(1), act)
    svg = difference_svg(red, a, blue, b, "under red", "shade=red", "shade=blue")
    root = ET.fromstring(svg)
    body, cells = _cell_boxes(root)
    # one mark: the farm and the other cells are the same
    (mark,) = [el for el in root.iter() if el.get("class") == "mark"]
    assert mark in list(body)         # drawn in the board's own coordinates
    outline = mark.findall(f"{SVG}rect")[-1]
    cell = cells[1 * 3 + 2]           # row 1, column 2: where the readings differ
    assert (float(outline.get("x")) + 2, float(outline.get("y")) + 2) == (
        float(cell.get("x")), float(cell.get("y")))
    assert mark.find(f"{SVG}title").text == "R under shade=red; B under shade=blue"
    # only the part that differs is drawn: not the farm, whose pawn is the same
    assert "Farm" not in svg
    # the same state against itself differs nowhere: no difference picture
    with pytest.raises(ValueError):
        difference_svg(red, a, red, a, "same", "x", "y")


def test_the_action_is_drawn_the_cell_it_paints_and_the_pawn_move_as_an_arrow():
    red = rulespec.load(MARKED)
    s0 = red.initial_state(1)
    after = red.apply(s0, red.action_from_str(s0, "paint"))
    svg = action_svg(red, s0, [(s0, after)], "before")
    titles = sorted(m.find(f"{SVG}title").text for m in marks_in(svg))
    # the painted cell, the pawn at its start, the arrow of its move, the hidden counter
    assert "the pawn moves from yard to barn" in titles
    assert "empty → R" in titles                   # the painted cell
    assert "yard → barn" in titles                 # the pawn, at its start
    assert "ticks: 0 → 1" in titles                # not in the view: in the note panel
    arrows = [m for m in marks_in(svg) if m.find(f"{SVG}line") is not None]
    (arrow,) = arrows
    line = arrow.findall(f"{SVG}line")[-1]
    assert float(line.get("x1")) < float(line.get("x2"))   # from the yard (left) to the barn
    # a picture holds only what it shows: the renderer's hit boxes are gone
    assert "data-hit" not in svg and "data-place" not in svg


def test_an_faq_entry_has_every_part(docs):
    doc = docs["hawaii"]
    q = next(q for q in doc["questions"] if q["name"] == "beach_return")
    assert q["question"].endswith("?")
    assert "足の支払い" in q["passage"]["source"] and q["passage"]["english"]
    assert [r["name"] for r in q["readings"]] == ["free", "forbidden"]
    assert all("「" in r["source"] and r["english"] for r in q["readings"])
    (d,) = q["differences"]
    assert d["status"] == "DIFFER" and d["bound"]["depth"] == SMOKE.diff_depth
    x = d["difference"]
    # the situation: the setup in one line, not a list of chance steps
    assert "34 chance step(s)" in x["setup"]["line"] and "pawn[0] = 9" in x["setup"]["line"]
    assert x["action"]["text"].startswith("buy exchange_hut")
    # drawn before the action (the pawn's move an arrow) and after it under each reading
    before = doc["pictures"][x["pictures"]["before"]]["svg"]
    assert any(m.find(f"{SVG}line") is not None for m in marks_in(before))
    assert [a["reading"] for a in x["pictures"]["after"]] == list(d["readings"])
    # in rule terms: the cause with its value on each side, and the cell it leaves
    terms = x["rule_terms"]
    assert [(v["name"], v["a"], v["b"]) for v in terms["values"]] == [("feet_due", 1, 3)]
    assert terms["moves"] and " to Cottages II" in terms["moves"][0]
    assert "feet_due is 1 under `free` but 3 under `forbidden`" in terms["sentence"]
    assert [(f["field"], f["words"], f["before"], f["a"], f["b"]) for f in x["fields"]] == [
        ("feet[0]", "feet of player 0", 7, 6, 4)]
    assert any(r["kind"] == "effect" and "足の支払い" in r["source"] for r in terms["rules"])
    # does it matter: random players and greedy ones, with intervals
    random_, greedy = d["impacts"]
    assert random_["policy"].startswith("random") and greedy["policy"].startswith("greedy")
    for m in (random_, greedy):
        assert m["games"] > 0 and 0 <= m["winners_ci"][0] <= m["winners_ci"][1] <= 1
    # the suggested ruling: the default, its reason, what the games say
    ruling = q["ruling"]
    assert ruling["reading"] == "free" and ruling["reason"] == q["default_reason"]
    assert "between random players" in ruling["impact"]
    assert "between greedy players" in ruling["impact"]
    # and the Markdown shows the same entry
    md = _questions_md(doc)
    for text in ("**The passage**", "**The readings**", x["setup"]["line"][:60],
                 "← **the deciding action**", "**In rule terms.**", "| `feet_due` | 1 | 3 |",
                 "**Does it matter?**", "**Suggested ruling:** `free`"):
        assert text in md, text


def test_an_outcome_difference_shows_each_reading_its_own_end(docs):
    doc = docs["hawaii"]
    q = next(q for q in doc["questions"] if q["name"] == "final_tie")
    (d,) = q["differences"]
    x = d["difference"]
    assert x["kind"] == "outcome"
    winners = {tag: x["outcome"][tag]["winners"] for tag in ("a", "b")}
    assert winners["a"] != winners["b"]
    for after, tag in zip(x["pictures"]["after"], ("a", "b")):
        svg = doc["pictures"][after["picture"]]["svg"]
        shown = [m.find(f"{SVG}title").text for m in marks_in(svg)]
        assert f"winners: [{', '.join(map(str, winners[tag]))}]" in shown


def test_a_reading_the_search_finds_the_same_reads_same_with_its_bound(tmp_path):
    doc = build_document(collect("tic_tac_toe", SMOKE, tmp_path), "tic_tac_toe")
    assert doc["questions"] == []   # no point: nothing to compare, and nothing says VIOLATED
    from rulespec.check.diff import diff
    m = rulespec.load("hawaii")
    other = rulespec.load("hawaii", {"final_tie": "resources"})
    report = diff(m, other, depth=1, setups=1, games=0, scenario_dir=None)
    assert report.status == "SAME" and report.bound.depth == 1
    assert "within 1 actions of any setup" in report.detail
