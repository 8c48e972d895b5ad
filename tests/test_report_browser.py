"""Every bundled game's HTML report, opened in headless Chromium as a reader would open it:
no console errors, every section and picture there, a screenshot that is not blank.

Chromium is Debian's ``chromium`` (``make test`` installs it when missing); where it cannot
be installed these tests are skipped, saying so loudly.
"""

import json
import shutil
import struct
import zlib
from pathlib import Path

import attrs
import pytest

from rulespec.report.budget import SMOKE
from rulespec.report.collect import collect
from rulespec.report.document import build_document
from rulespec.report.render import write_report
from rulespec.runtime.registry import available_games

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
SECTIONS = ("glance", "questions", "rules", "assumptions", "properties", "scenarios",
            "coverage")
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]
#: its report is asked for the mutation section too
MUTATED = "tests/fixtures/mutate_planted"
GAMES = [*available_games(), "tests/fixtures/occupied_cell_tic_tac_toe", MUTATED]

if CHROMIUM is None:
    pytest.skip("!!! chromium is not installed (apt-get install chromium, or `make test` as "
                "root): the browser test of the HTML reports is NOT run !!!",
                allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api", reason="!!! playwright is not installed "
                               "(pip install -e '.[test]'): the browser test is NOT run !!!")


@pytest.fixture(scope="module")
def reports(tmp_path_factory):
    out = tmp_path_factory.mktemp("browser-reports")
    docs = {}
    for g in GAMES:
        budget = attrs.evolve(SMOKE, mutate="quick") if g == MUTATED else SMOKE
        doc = build_document(collect(g, budget, out / "traces"), g)
        write_report(doc, out)
        docs[doc["game"]["name"]] = doc
    return out, docs


@pytest.fixture(scope="module")
def browser():
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
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


def _open(browser, url, width=390):
    page = browser.new_page(viewport={"width": width, "height": 844})
    problems = []
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: problems.append(str(e)))
    page.on("request", lambda r: problems.append(f"network request {r.url}")
            if not r.url.startswith(("file:", "data:", "about:")) else None)
    page.goto(url)
    page.wait_for_load_state("load")
    return page, problems


def test_a_blank_page_is_seen_as_blank(browser):
    page, _ = _open(browser, "about:blank")
    assert _distinct_bytes(page.screenshot(full_page=True)) < 16
    page.close()


@pytest.mark.parametrize("game", GAMES)
def test_the_html_report_reads_in_a_browser(reports, browser, game):
    out, docs = reports
    name = Path(game).name
    doc = docs[name]
    page, problems = _open(browser, (out / f"{name}.html").as_uri())
    assert problems == []
    for sid in [*SECTIONS, *(["mutation"] if doc["mutation"] else [])]:
        section = page.locator(f"section#{sid}")
        assert section.count() == 1, f"section {sid} is missing"
        assert section.locator("h2").inner_text().strip()
    wanted = {pid for pid in doc["pictures"]}
    shown = set(page.eval_on_selector_all("figure.picture[data-picture]",
                                          "els => els.map(e => e.dataset.picture)"))
    assert wanted | {"coverage-chart"} == shown
    sizes = page.eval_on_selector_all(
        "figure.picture svg", "els => els.map(e => e.getBoundingClientRect().width)")
    assert sizes and min(sizes) > 50  # drawn, and within a phone's width
    assert max(sizes) <= 390
    assert _distinct_bytes(page.screenshot(full_page=True)) > 64
    page.close()


def test_the_index_links_every_report(reports, browser):
    out, docs = reports
    page, problems = _open(browser, (out / "index.html").as_uri(), width=1000)
    assert problems == []
    links = set(page.eval_on_selector_all("a", "els => els.map(e => e.getAttribute('href'))"))
    assert {f"{n}.html" for n in docs} <= links
    page.close()


def test_a_link_into_a_folded_rule_opens_it(reports, browser):
    out, docs = reports
    doc = docs["hawaii"]
    target = next(r["id"] for r in doc["rules"] if r["kind"] == "precondition")
    page, problems = _open(browser, (out / "hawaii.html").as_uri() + f"#{target}")
    assert problems == []
    assert page.locator(f"[id='{target}']").is_visible()
    page.close()
    json.dumps(doc)  # the document stays plain JSON
