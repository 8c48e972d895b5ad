"""The report as its reader gets it, for every bundled game (smoke budget): each page's
legend defines every word the page shows as a badge or a flag, each seed game's HTML stays
under 1 MB, its Markdown has no line over 1,000 characters, and every long list is
summarised in both."""

import re
from html.parser import HTMLParser

import pytest

from report_pages import SEED_GAMES
from rulespec.report.glossary import WORDS
from rulespec.report.render import INLINE_PROPERTIES, pin_sets
from rulespec.runtime.registry import available_games

MAX_HTML = 1_000_000
MAX_LINE = 1_000


class _Badges(HTMLParser):
    """The texts of every verdict badge and flag on a page, outside its legend."""

    def __init__(self):
        super().__init__()
        self.found, self._open, self._in_legend = [], None, 0
        self._depth = 0

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        self._depth += 1
        if tag == "section" and a.get("id") == "legend":
            self._in_legend = self._depth
        classes = (a.get("class") or "").split()
        if tag == "span" and ({"status", "flag"} & set(classes)) and not self._in_legend:
            self._open = ""

    def handle_endtag(self, tag):
        if tag == "span" and self._open is not None:
            self.found.append(self._open.strip())
            self._open = None
        if self._in_legend == self._depth:
            self._in_legend = 0
        self._depth -= 1

    def handle_data(self, data):
        if self._open is not None:
            self._open += data


def _badges(html):
    parser = _Badges()
    parser.feed(html)
    return parser.found


def _term(text):
    """A badge as the legend names it: counts become N (``reached 3×``: ``reached N×``)."""
    return re.sub(r"\b\d+\b", "N", text)


@pytest.mark.parametrize("game", available_games())
def test_the_legend_defines_every_badge_and_flag_on_the_page(smoke_reports, game):
    out, docs = smoke_reports
    html = (out / f"{game}.html").read_text()
    terms = {w["term"] for w in docs[game]["legend"]["words"]}
    assert 'id="legend"' in html and "docs/verification.md" in html
    shown = {_term(b) for b in _badges(html)}
    assert shown and shown <= terms, f"badges without a legend entry: {shown - terms}"


def test_a_badge_the_legend_lacks_is_found():
    html = ('<section id="legend"><span class="status PASSED">PASSED</span></section>'
            '<span class="flag">reached 3×</span><span class="status MAYBE">MAYBE</span>')
    assert {_term(b) for b in _badges(html)} == {"reached N×", "MAYBE"}


def test_the_legend_matches_docs_verification():
    """The verdicts the legend defines are the ones docs/verification.md tabulates."""
    from report_pages import ROOT
    text = (ROOT / "docs" / "verification.md").read_text()
    for w in WORDS:
        if w["kind"] == "verdict":
            assert f"| `{w['term']}` |" in text, w["term"]
    assert "## Generic properties" in text


@pytest.mark.parametrize("game", SEED_GAMES)
def test_a_seed_games_html_is_under_a_megabyte(smoke_reports, game):
    out, _ = smoke_reports
    size = (out / f"{game}.html").stat().st_size
    assert size < MAX_HTML, f"{game}.html is {size:,} bytes"


@pytest.mark.parametrize("game", available_games())
def test_the_markdown_has_no_line_over_a_thousand_characters(smoke_reports, game):
    out, _ = smoke_reports
    lines = (out / f"{game}.md").read_text().splitlines()
    long = [(k + 1, len(line)) for k, line in enumerate(lines) if len(line) > MAX_LINE]
    assert long == [], f"{game}.md lines over {MAX_LINE} characters (line, length): {long[:5]}"


def test_pictures_share_what_they_have_in_common(smoke_reports):
    """The pictures are drawn whole in the JSON; on the page, what two of them share is
    written once and used (<use>) after: the states drawn whole (the setup, a
    counterexample's steps) share most of what they draw; the open questions' pictures,
    each marking what is its own (a mark is never shared), still share their empty boards."""
    out, docs = smoke_reports
    sizes = {True: [0, 0], False: [0, 0]}   # marked? -> [whole, shown]
    for game, doc in docs.items():
        html = (out / f"{game}.html").read_text()
        figures = dict(re.findall(r'<figure [^>]*data-picture="([^"]+)">(<svg.*?</svg>)',
                                  html, re.S))
        for pid, p in doc["pictures"].items():
            if pid in figures:
                marked = bool(re.match(r'<svg[^>]* class="[^"]*\b(action|difference)\b',
                                       p["svg"]))
                sizes[marked][0] += len(p["svg"])
                sizes[marked][1] += len(figures[pid])
    assert "<use href=" in (out / "hawaii.html").read_text()
    (plain_whole, plain_shown), (marked_whole, marked_shown) = sizes[False], sizes[True]
    # measured on the bundled games at the smoke budget: plain 0.83, marked 0.71 of whole
    assert plain_whole and plain_shown < plain_whole * 0.9
    assert marked_whole and marked_shown < marked_whole * 0.8


def test_long_property_lists_are_shared_sets(smoke_reports):
    out, docs = smoke_reports
    rules = docs["hawaii"]["rules"]
    sets = pin_sets(rules)
    many = [r for r in rules if len(r["pinned_by"]["properties"]) > INLINE_PROPERTIES]
    assert many and len(sets["sets"]) < len(many)  # rules share them
    html = (out / "hawaii.html").read_text()
    for s in sets["sets"]:
        assert f'id="pins-{s["n"]}"' in html


def test_a_set_said_as_an_earlier_one_names_the_same_members(smoke_reports):
    """A pin set or an assumption set written as 'those of set N and ..., but not ...'
    stands for exactly its members, and the set it names is written in full."""
    from rulespec.report.render import assumption_rows
    _, docs = smoke_reports
    said = 0
    for doc in docs.values():
        sets = {st["id"]: st for st in doc["assumption_sets"]}
        for sid, row in assumption_rows(doc["assumption_sets"]).items():
            base = sets[row["base"]]["assumptions"]
            assert row["base"] not in assumption_rows(doc["assumption_sets"])
            assert set(row["changed"]) <= set(base)   # read with other entries
            assert sorted({*base, *row["plus"]} - set(row["minus"])) \
                == sorted(sets[sid]["assumptions"])
            said += 1
        pins = pin_sets(doc["rules"])["sets"]
        full = {ps["n"]: ps["properties"] for ps in pins if "base" not in ps}
        for ps in pins:
            if "base" in ps:
                assert sorted({*full[ps["base"]], *ps["plus"]} - set(ps["minus"])) \
                    == sorted(ps["properties"])
                said += 1
    assert said > 5   # the seed games' sets overlap: some are said short


@pytest.mark.parametrize("game", SEED_GAMES)
def test_what_most_results_rest_on_is_said_once(smoke_reports, game):
    from rulespec.report.render import common_rests, rests_key
    out, docs = smoke_reports
    html = (out / f"{game}.html").read_text()
    results = [r for p in docs[game]["properties"] for r in p["results"]]
    common = common_rests([r.get("rests_on") for r in results])
    cells = html.count('<td class="rests">')
    if common is None:
        assert cells == len(results)
    else:
        assert "Each result below rests on" in html
        # only the tables of properties with a result resting on something else have cells
        others = [p for p in docs[game]["properties"]
                  if any(rests_key(r.get("rests_on")) != common["key"] for r in p["results"])]
        assert cells == sum(len(p["results"]) for p in others) < len(results)
