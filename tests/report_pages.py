"""Reports opened as a reader opens them, shared by the browser tests
(tests/test_report_browser.py) and the script that writes docs/reports.md's screenshots
(tests/screenshots.py): build smoke-budget reports, open a page in Debian's Chromium through
Playwright, open everything folded, find what overflows, photograph each section.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any, Iterable

import attrs

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]
#: the widths a report is read at: a desktop window and a phone
DESKTOP, PHONE = 1200, 390
SEED_GAMES = ("hawaii", "aquatica", "motu")
#: a planted bug: its report has a counterexample to step through
PLANTED = "tests/fixtures/occupied_cell_tic_tac_toe"
#: its report is asked for the mutation section too
MUTATED = "tests/fixtures/mutate_planted"
SECTIONS = ("glance", "legend", "questions", "rules", "assumptions", "properties",
            "scenarios", "coverage")

#: docs/reports.md's screenshots: (file in docs/images, game, what to photograph: a CSS
#: selector, its top shown; JavaScript to run first or None). Each section from the game
#: that shows it best; each at a desktop's width and a phone's (DESKTOP, PHONE).
VIEWS = [
    ("glance", "hawaii", "section#glance", None),
    ("legend", "motu", "section#legend", None),
    ("questions", "hawaii", "section#questions", None),
    # an FAQ entry's pictures: the deciding action drawn, then each reading after it
    ("question-before", "hawaii", "#q-beach_return figure.wide", None),
    ("question-after", "hawaii", "#q-beach_return .stepper", None),
    # an action opened, as a reader who follows a link into the rule index sees it
    ("rules", "hawaii", "section#rules",
     "document.querySelector('section#rules details#a-buy_shell_hut').open = true"),
    ("assumptions", "aquatica", "section#assumptions", None),
    ("properties", "occupied_cell_tic_tac_toe", "section#properties .card:has(.stepper)", None),
    ("scenarios", "hawaii", "section#scenarios", None),
    ("coverage", "aquatica", "section#coverage", None),
]
#: (file, game, selector, prepare, width, most pixels of height shown)
SHOTS = [(f"report-{name}-{tag}.png", game, selector, prepare, width, height)
         for name, game, selector, prepare in VIEWS
         for tag, width, height in (("desktop", DESKTOP, 1000), ("phone", PHONE, 1400))]


def build_reports(out: Path, games: Iterable[str]) -> dict[str, dict[str, Any]]:
    """Each game's report at the smoke budget (seconds, no proofs), written into ``out``."""
    from rulespec.report.budget import SMOKE
    from rulespec.report.collect import collect
    from rulespec.report.document import build_document
    from rulespec.report.render import write_report
    docs = {}
    for g in games:
        budget = attrs.evolve(SMOKE, mutate="quick") if g == MUTATED else SMOKE
        doc = build_document(collect(g, budget, out / "traces"), g)
        write_report(doc, out)
        docs[doc["game"]["name"]] = doc
    return docs


def launch(playwright: Any) -> Any:
    return playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS)


def open_page(browser: Any, url: str, width: int, *, javascript: bool = True
              ) -> tuple[Any, list[str]]:
    """The page at ``width`` px, and the list its console errors, page errors and network
    requests go to (a report makes none)."""
    context = browser.new_context(viewport={"width": width, "height": 900},
                                  java_script_enabled=javascript)
    page = context.new_page()
    problems: list[str] = []
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: problems.append(str(e)))
    page.on("request", lambda r: problems.append(f"network request {r.url}")
            if not r.url.startswith(("file:", "data:", "about:")) else None)
    page.goto(url)
    page.wait_for_load_state("load")
    return page, problems


def open_everything(page: Any) -> None:
    """Every folded part open (rules, questions, setup steps) and every stepper showing
    all its steps, as a reader who reads the whole report sees it."""
    page.evaluate("""() => {
      document.querySelectorAll('details').forEach(d => { d.open = true; });
      document.querySelectorAll('.stepbar button.all').forEach(b => {
        if (b.textContent === 'show all') { b.click(); } });
    }""")


#: what overflows its box on the page: HTML boxes narrower than their content (outside a
#: scrolling container), badges on more than one line, SVG texts outside the shape they
#: are drawn in (a <g class="box">'s first rect or circle: a glyph, a slot, a tile; the
#: <g class="part">'s frame; the picture) or over another text of the same box, and a
#: page wider than the window
OVERFLOW_JS = r"""() => {
  const bad = [];
  const name = el => {
    const cls = typeof el.className === 'string' && el.className ? '.' + el.className.trim().split(/\s+/).join('.') : '';
    const pic = el.closest('figure[data-picture]');
    return el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') + cls +
      (pic ? ' in picture ' + pic.dataset.picture : '') + ' "' + (el.textContent || '').trim().slice(0, 50) + '"';
  };
  const root = document.documentElement;
  if (root.scrollWidth > root.clientWidth + 1) {
    bad.push('the page is wider than the window: ' + root.scrollWidth + ' > ' + root.clientWidth);
  }
  for (const el of document.body.querySelectorAll('*')) {
    if (el.closest('svg, script, style')) { continue; }
    const cs = getComputedStyle(el);
    if (['none', 'inline', 'contents'].includes(cs.display) || !el.getClientRects().length) { continue; }
    if (['auto', 'scroll'].includes(cs.overflowX)) { continue; }  // it scrolls: nothing is lost
    if (el.scrollWidth > el.clientWidth + 1) {
      bad.push('overflows its box (' + el.scrollWidth + ' > ' + el.clientWidth + '): ' + name(el));
    }
    if (el.matches('.status, .flag')) {
      const line = parseFloat(cs.fontSize) * 1.9;
      if (el.getBoundingClientRect().height > line) { bad.push('a badge on two lines: ' + name(el)); }
    }
  }
  const inside = (r, b, tol) => r.left >= b.left - tol && r.right <= b.right + tol &&
    r.top >= b.top - tol - r.height * 0.1 && r.bottom <= b.bottom + tol + r.height * 0.1;
  const byBox = new Map();
  for (const t of document.querySelectorAll('svg text')) {
    const r = t.getBoundingClientRect();
    if (!r.width || !r.height) { continue; }
    const boxes = [];  // a box's shape is its first (a glyph, a slot, a tile, a part's frame)
    for (let g = t.parentElement; g && g.tagName !== 'svg'; g = g.parentElement) {
      if (!g.matches('g.box, g.part')) { continue; }
      const first = Array.from(g.children).find(c => c.tagName !== 'title');
      if (first && first !== t && ['rect', 'circle'].includes(first.tagName)) { boxes.push(first); }
    }
    boxes.push(t.closest('svg'));
    for (const b of boxes) {
      const br = b.getBoundingClientRect();
      if (br.width && !inside(r, br, 1)) {
        bad.push('a picture text outside its ' + b.tagName + ': ' + name(t) + ' [' +
                 Math.round(r.left) + '-' + Math.round(r.right) + ' in ' + Math.round(br.left) + '-' + Math.round(br.right) + ']');
        break;
      }
    }
    const key = boxes[0];
    if (!byBox.has(key)) { byBox.set(key, []); }
    byBox.get(key).push([t, r]);
  }
  for (const texts of byBox.values()) {
    for (let i = 0; i < texts.length; i++) {
      for (let j = i + 1; j < texts.length; j++) {
        const [a, ra] = texts[i], [b, rb] = texts[j];
        const w = Math.min(ra.right, rb.right) - Math.max(ra.left, rb.left);
        const h = Math.min(ra.bottom, rb.bottom) - Math.max(ra.top, rb.top);
        if (w > 1 && h > 0.35 * Math.min(ra.height, rb.height)) {
          bad.push('two picture texts overlap: ' + name(a) + ' and ' + name(b));
        }
      }
    }
  }
  return bad;
}"""

#: each picture of a difference or of an action (the open questions' contract: an
#: <svg class="difference"> or <svg class="action">) and how many marks it shows, counting
#: those inside the pieces it shares with other pictures (<use href="#id">)
MARKS_JS = r"""() => Array.from(document.querySelectorAll('svg.difference, svg.action')).map(svg => {
  let marks = svg.querySelectorAll('.mark').length;
  for (const use of svg.querySelectorAll('use')) {
    const target = document.getElementById((use.getAttribute('href') || '').slice(1));
    if (target) { marks += (target.matches('.mark') ? 1 : 0) + target.querySelectorAll('.mark').length; }
  }
  const fig = svg.closest('figure[data-picture]');
  return [fig ? fig.dataset.picture : svg.getAttribute('aria-label'), marks];
})"""


def shot(page: Any, selector: str, path: Path, max_height: int) -> Path | None:
    """A picture of the element ``selector`` picks (its top ``max_height`` pixels)."""
    box = page.locator(selector).first.bounding_box()
    if box is None:
        return None
    width = page.viewport_size["width"]
    page.screenshot(path=str(path), full_page=True, clip={
        "x": 0, "y": box["y"], "width": width, "height": min(box["height"], max_height)})
    return path


def screenshots(browser: Any, reports: Path, out: Path) -> list[Path]:
    """Every screenshot docs/reports.md shows, into ``out``, each from the page opened at
    its width as a reader first sees it (questions and rules folded)."""
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for file, game, selector, prepare, width, height in SHOTS:
        page, _ = open_page(browser, (reports / f"{game}.html").as_uri(), width)
        if prepare:
            page.evaluate(prepare)
        path = shot(page, selector, out / file, height)
        page.context.close()
        if path is not None:
            written.append(path)
    return written
