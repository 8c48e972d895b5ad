"""Every bundled game's HTML report, opened in headless Chromium as a reader would open it,
at a desktop's and a phone's width: no console error or network request, every section and
picture there, every folded part opened and nothing overflowing its box (HTML boxes,
badges, the texts of every picture), Japanese quotes set in a CJK font, each difference
picture marking something, a trace stepped through with buttons and keys (and listed in
full without JavaScript), and the screenshots docs/reports.md shows.

Chromium is Debian's ``chromium`` (``make test`` installs it when missing); where it cannot
be installed these tests are skipped, saying so loudly. The reports use the smoke budget
(no proofs): they are built in seconds.
"""

import re
import struct
import zlib
from pathlib import Path

import pytest

from report_pages import (CHROMIUM, DESKTOP, MARKS_JS, MUTATED, OVERFLOW_JS, PHONE, PLANTED,
                          SECTIONS, SHOTS, launch, open_everything, open_page, screenshots)
from rulespec.runtime.registry import available_games

GAMES = [*available_games(), PLANTED, MUTATED]
DOCS = Path(__file__).resolve().parents[1] / "docs"

if CHROMIUM is None:
    pytest.skip("!!! chromium is not installed (apt-get install chromium, or `make test` as "
                "root): the browser test of the HTML reports is NOT run !!!",
                allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api", reason="!!! playwright is not installed "
                               "(pip install -e '.[test]'): the browser test is NOT run !!!")


@pytest.fixture(scope="module")
def reports(smoke_reports):
    return smoke_reports


@pytest.fixture(scope="module")
def browser():
    with sync_api.sync_playwright() as p:
        b = launch(p)
        yield b
        b.close()


def _distinct_bytes(png: bytes) -> int:
    """How many distinct byte values the decompressed image data holds (a blank page: a
    handful; a page with text and pictures: hundreds)."""
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    pos, data = 8, b""
    while pos < len(png):
        length, kind = struct.unpack(">I4s", png[pos:pos + 8])
        if kind == b"IDAT":
            data += png[pos + 8:pos + 8 + length]
        pos += 12 + length
    return len(set(zlib.decompress(data)))


def _url(reports, game):
    out, _ = reports
    return (out / f"{Path(game).name}.html").as_uri()


def test_a_blank_page_is_seen_as_blank(browser):
    page, _ = open_page(browser, "about:blank", PHONE)
    assert _distinct_bytes(page.screenshot(full_page=True)) < 16
    page.context.close()


@pytest.mark.parametrize("game", GAMES)
def test_the_html_report_reads_in_a_browser(reports, browser, game):
    _, docs = reports
    doc = docs[Path(game).name]
    page, problems = open_page(browser, _url(reports, game), PHONE)
    assert problems == []
    for sid in [*SECTIONS, *(["mutation"] if doc["mutation"] else [])]:
        section = page.locator(f"section#{sid}")
        assert section.count() == 1, f"section {sid} is missing"
        assert section.locator("h2").inner_text().strip()
    shown = set(page.eval_on_selector_all("figure.picture[data-picture]",
                                          "els => els.map(e => e.dataset.picture)"))
    assert set(doc["pictures"]) | {"coverage-chart"} == shown
    assert _distinct_bytes(page.screenshot(full_page=True)) > 64
    open_everything(page)
    sizes = page.eval_on_selector_all(
        "figure.picture svg", "els => els.map(e => e.getBoundingClientRect().width)")
    assert sizes and min(sizes) > 50  # drawn, and within a phone's width
    assert max(sizes) <= PHONE
    page.context.close()


@pytest.mark.parametrize("width", [DESKTOP, PHONE])
@pytest.mark.parametrize("game", GAMES)
def test_nothing_overflows_its_box(reports, browser, game, width):
    """Every question, rule and step opened: no text wider than its box, no badge on two
    lines, no picture text outside its shape or over another."""
    page, problems = open_page(browser, _url(reports, game), width)
    open_everything(page)
    bad = page.evaluate(OVERFLOW_JS)
    page.context.close()
    assert problems == []
    assert bad == [], f"{len(bad)} overflow(s) at {width} px:\n" + "\n".join(bad[:15])


def test_the_overflow_check_finds_a_clipped_label_and_a_wrapped_badge(browser, tmp_path):
    """The check above can fail: a label wider than its box, a badge that wraps, a picture
    text past its frame and two texts on top of each other are each found."""
    page_html = tmp_path / "bad.html"
    page_html.write_text(
        '<!doctype html><body style="font: 16px sans-serif">'
        '<div style="width: 80px"><p style="white-space: nowrap">a label far too long</p></div>'
        '<table style="width: 60px"><tr><td style="overflow-wrap: anywhere">'
        '<span class="status" style="display: inline-block">PASSED PASSED</span></td></tr></table>'
        '<svg width="200" height="60"><g class="box"><rect x="0" y="0" width="40" height="30"/>'
        '<text x="2" y="20">a text past its box</text></g>'
        '<text x="100" y="50">one</text><text x="104" y="50">two</text></svg></body>')
    page, _ = open_page(browser, page_html.as_uri(), 400)
    bad = page.evaluate(OVERFLOW_JS)
    page.context.close()
    assert any("overflows its box" in b and "a label far too long" in b for b in bad)
    assert any("a badge on two lines" in b for b in bad)
    assert any("outside its rect" in b for b in bad)
    assert any("overlap" in b for b in bad)


def test_japanese_quotes_are_set_in_a_cjk_font(reports, browser):
    """The rulebook's Japanese quotes render with a CJK font (not as empty boxes): the
    font Chromium used for a quote's characters, as its developer tools report it."""
    page, _ = open_page(browser, _url(reports, "hawaii"), DESKTOP)
    cdp = page.context.new_cdp_session(page)
    cdp.send("DOM.enable")
    cdp.send("CSS.enable")
    root = cdp.send("DOM.getDocument", {"depth": 0})["root"]["nodeId"]
    quote = cdp.send("DOM.querySelector", {"nodeId": root,
                                           "selector": "section#scenarios blockquote"})
    fonts = cdp.send("CSS.getPlatformFontsForNode", {"nodeId": quote["nodeId"]})["fonts"]
    page.context.close()
    assert any("CJK" in f["familyName"] or "JP" in f["familyName"] for f in fonts), fonts


def _shot_of(browser, body, width, height):
    page = browser.new_page(viewport={"width": width, "height": height})
    page.set_content(f'<body style="margin:0">{body}</body>')
    png = page.screenshot(clip={"x": 0, "y": 0, "width": width, "height": height})
    page.close()
    return png


@pytest.mark.parametrize("game", ["hawaii", "motu"])
def test_a_picture_drawn_from_shared_pieces_looks_like_the_whole_one(reports, browser, game):
    """The page draws a piece its pictures share once and uses it after: each later
    picture, drawn so, is pixel for pixel the picture the JSON holds whole."""
    from rulespec.report.share import SharedPictures
    _, docs = reports
    pictures = {pid: p["svg"] for pid, p in docs[game]["pictures"].items()}
    shared = SharedPictures(pictures)
    page = [(pid, shared.svg(pid)) for pid in pictures]
    checked = 0
    for k, (pid, svg) in enumerate(page):
        if "<use" not in svg or checked == 3:
            continue
        w, h = (int(float(x)) for x in re.search(r'viewBox="0 0 ([\d.]+) ([\d.]+)"', svg).groups())
        others = "".join(s for j, (_, s) in enumerate(page) if j != k)
        shown = _shot_of(browser, svg + f'<div style="position:absolute; top:{h + 50}px">'
                         f'{others}</div>', w, h)
        whole = _shot_of(browser, pictures[pid], w, h)
        assert shown == whole, f"{pid} looks different drawn from shared pieces"
        checked += 1
    assert checked


def test_each_difference_picture_marks_something(reports, browser):
    """The open questions' contract: each picture of a difference or of an action is an
    <svg class="difference"> or <svg class="action">, and marks what matters in it (an
    element of class "mark")."""
    found = {}
    for game in available_games():
        page, _ = open_page(browser, _url(reports, game), DESKTOP)
        found.update({f"{game}: {pid}": n for pid, n in page.evaluate(MARKS_JS)})
        page.context.close()
    assert found, "no report draws a difference or an action picture"
    unmarked = [pid for pid, n in found.items() if n == 0]
    assert unmarked == [], f"pictures that mark nothing: {unmarked[:10]}"


def test_a_counterexample_is_stepped_through_with_buttons_and_keys(reports, browser):
    page, problems = open_page(browser, _url(reports, PLANTED), DESKTOP)
    box = page.locator(".stepper.trace").first
    steps = box.locator(":scope > .step")
    n = steps.count()
    assert n >= 2
    visible = lambda: [k for k in range(n) if steps.nth(k).is_visible()]  # noqa: E731
    assert visible() == [n - 1]  # it opens on the failing state
    where = box.locator(".stepbar .where")
    assert where.inner_text().startswith(f"{n} of {n}")
    box.locator("button[data-go='-1']").click()
    assert visible() == [n - 2] and where.inner_text().startswith(f"{n - 1} of {n}")
    box.focus()
    page.keyboard.press("Home")
    assert visible() == [0]
    page.keyboard.press("ArrowRight")
    assert visible() == [1]
    box.locator("button.all").click()
    assert visible() == list(range(n))
    assert problems == []
    page.context.close()


def test_the_readings_of_a_difference_are_stepped_through(reports, browser):
    """Pictures that follow one another (the readings of an open question) are shown one
    at a time, flipping between them with next / previous."""
    page, _ = open_page(browser, _url(reports, "hawaii"), DESKTOP)
    groups = page.locator("section#questions .stepper")
    assert groups.count() >= 1
    first = groups.first.locator(":scope > .step")
    assert first.count() >= 2 and first.nth(0).is_visible() and not first.nth(1).is_visible()
    groups.first.locator("button[data-go='1']").click()
    assert first.nth(1).is_visible() and not first.nth(0).is_visible()
    page.context.close()


def test_without_javascript_every_step_is_listed(reports, browser):
    page, _ = open_page(browser, _url(reports, PLANTED), DESKTOP, javascript=False)
    steps = page.locator(".stepper.trace > .step")
    assert steps.count() >= 2
    assert all(steps.nth(k).is_visible() for k in range(steps.count()))
    assert page.locator(".stepbar").count() == 0
    page.context.close()


def test_the_screenshots_docs_shows_are_taken(reports, browser, tmp_path):
    """The pictures docs/reports.md shows, taken into a temporary folder (`make
    screenshots` writes them into docs/images): each is named in the page, and none is
    blank."""
    out, _ = reports
    written = screenshots(browser, out, tmp_path)
    assert sorted(p.name for p in written) == sorted(f for f, *_ in SHOTS)
    text = (DOCS / "reports.md").read_text()
    for path in written:
        assert f"images/{path.name}" in text, f"docs/reports.md does not show {path.name}"
        assert _distinct_bytes(path.read_bytes()) > 64, f"{path.name} is blank"


def test_the_index_links_every_report(reports, browser):
    _, docs = reports
    page, problems = open_page(browser, (reports[0] / "index.html").as_uri(), 1000)
    assert problems == []
    links = set(page.eval_on_selector_all("a", "els => els.map(e => e.getAttribute('href'))"))
    assert {f"{n}.html" for n in docs} <= links
    assert page.locator("section#legend .status").count() == 5
    page.context.close()


def test_a_link_into_a_folded_rule_opens_it(reports, browser):
    _, docs = reports
    target = next(r["id"] for r in docs["hawaii"]["rules"] if r["kind"] == "precondition")
    page, problems = open_page(browser, _url(reports, "hawaii") + f"#{target}", PHONE)
    assert problems == []
    assert page.locator(f"[id='{target}']").is_visible()
    page.context.close()


def test_a_link_into_a_family_members_rule_opens_the_family_at_that_member(reports, browser):
    from rulespec.report.families import rule_families
    _, docs = reports
    fam = next(f for f in rule_families(docs["hawaii"]["rules"]).values()
               if f["name"] == "buy_…")
    member = fam["others"][-1]
    target = next(c["rule"]["id"] for c in member["children"] if c["as"] is not None)
    page, problems = open_page(browser, _url(reports, "hawaii") + f"#{target}", DESKTOP)
    assert problems == []
    assert page.locator(f"[id='{target}']").is_visible()
    # the place it lands on names the member
    named = page.locator(f"[id='{target}']").evaluate(
        "el => el.closest('.member').querySelector('h4').textContent")
    assert member["rule"]["name"] in named
    page.context.close()
