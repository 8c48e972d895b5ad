"""Write the screenshots docs/reports.md shows: `make screenshots` (or
`.venv/bin/python tests/screenshots.py [--out DIR]`).

Builds the bundled games' reports at the smoke budget in a temporary folder, opens them in
Debian's Chromium at a desktop's and a phone's width and photographs each section
(tests/report_pages.py lists which game shows which section). The browser tests take the
same pictures into a temporary folder on every run; only this script writes docs/images.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from report_pages import (CHROMIUM, PLANTED, ROOT, SEED_GAMES, SHOTS,  # noqa: E402
                          build_reports, launch, screenshots)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=str(ROOT / "docs" / "images"),
                        help="where the PNG files go (default: docs/images)")
    args = parser.parse_args(argv)
    if CHROMIUM is None:
        print("chromium is not installed (make chromium)", file=sys.stderr)
        return 2
    from playwright.sync_api import sync_playwright
    games = sorted({game for _, game, *_ in SHOTS})
    refs = [g for g in SEED_GAMES if g in games] + [PLANTED]
    out = Path(args.out).resolve()
    here = os.getcwd()
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as p:
        os.chdir(tmp)  # the pictures show paths as `make run` writes them: reports/...
        try:
            build_reports(Path("reports"), [str(ROOT / g) if "/" in g else g for g in refs])
        finally:
            os.chdir(here)
        browser = launch(p)
        written = screenshots(browser, Path(tmp) / "reports", out)
        browser.close()
    for path in written:
        print(f"{path} ({path.stat().st_size // 1024} KB)")
    return 0 if len(written) == len(SHOTS) else 1


if __name__ == "__main__":
    sys.exit(main())
