"""Write a report: ``GAME.json`` (the data), and ``GAME.html`` and ``GAME.md`` as views of it
(Jinja2 templates in ``templates/``), plus ``index.html`` over every report in the folder.

Like coverage.py's HTML report, the HTML and Markdown never compute anything: they only
show the JSON document. The HTML is one self-contained file (inline CSS and SVG, no
network); the Markdown's pictures are SVG files in ``GAME-pictures/`` beside it. Every
file is written atomically.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import jinja2

from .. import __version__
from ..formats.names import slug
from ..runtime import trace
from .document import FORMAT

SCHEMA = Path(__file__).with_name("report.schema.json")


def write_atomically(path: str | Path, text: str) -> Path:
    """Write atomically, readable by everyone (a report is for reading)."""
    p = trace.write_atomically(path, text)
    p.chmod(0o644)
    return p


class _Safe(str):
    """Markdown text already made safe (every other value the template prints is escaped:
    a spec's text can neither open HTML nor Markdown markup)."""


# a backtick may stay: a code span shows its text literally (a spec's ``x`` stays code);
# so may "_": inside a word it is no emphasis, and names like drop_precondition stay as read
_MD_SPECIAL = re.compile(r"([\\*\[\]|])")


def _md(text: Any) -> _Safe:
    """Text safe inside a Markdown table cell or paragraph: markup characters escaped,
    ``<`` and ``>`` as entities (no HTML), line breaks as ``<br>``."""
    s = "" if text is None else str(text)
    s = _MD_SPECIAL.sub(r"\\\1", s).replace("<", "&lt;").replace(">", "&gt;")
    return _Safe(s.replace("\r\n", "\n").replace("\r", "\n").replace("\n", "<br>"))


def _code(text: Any) -> _Safe:
    """A code span of ``text``, whatever backticks it holds (a fence one longer than its
    longest run); ``|`` escaped for table cells; no line breaks."""
    s = " ".join(("" if text is None else str(text)).splitlines()).replace("|", "\\|")
    fence = "`" * (max((len(r) for r in re.findall(r"`+", s)), default=0) + 1)
    pad = " " if s.startswith("`") or s.endswith("`") else ""
    return _Safe(f"{fence}{pad}{s}{pad}{fence}")


def _anchor(text: Any) -> _Safe:
    """An id or file-name part as it may stand in a link target."""
    return _Safe(re.sub(r"[^A-Za-z0-9_.\-]", "-", str(text)))


def _finalize(value: Any) -> Any:
    return value if isinstance(value, _Safe) else _md(value)


def _code_spans(text: Any) -> Any:
    """HTML of text whose `backticked` parts are code (a mutant's change in words)."""
    from markupsafe import Markup, escape
    return Markup(re.sub(r"`([^`]+)`", r"<code>\1</code>", str(escape(text))))


def _env(html: bool) -> jinja2.Environment:
    env = jinja2.Environment(loader=jinja2.PackageLoader("rulespec.report", "templates"),
                             autoescape=html, undefined=jinja2.StrictUndefined,
                             trim_blocks=not html, lstrip_blocks=not html,
                             keep_trailing_newline=True, finalize=None if html else _finalize)
    env.filters["md"] = _md
    env.filters["code"] = _code
    env.filters["anchor"] = _anchor
    env.filters["raw"] = _Safe   # a macro's output: its own values are escaped already
    env.filters["code_spans"] = _code_spans
    return env


def _css() -> str:
    return (Path(__file__).parent / "templates" / "style.css").read_text(encoding="utf-8")


def render_html(doc: dict[str, Any]) -> str:
    """The report as one self-contained HTML page."""
    return _env(True).get_template("report.html.j2").render(doc=doc, css=_css())


def render_markdown(doc: dict[str, Any], pictures_dir: str) -> str:
    """The report as Markdown; pictures are referenced as ``pictures_dir/ID.svg``."""
    return _env(False).get_template("report.md.j2").render(doc=doc, pictures_dir=pictures_dir)


def write_report(doc: dict[str, Any], out_dir: str | Path) -> list[Path]:
    """Write GAME.json, GAME.html, GAME.md and its pictures, then the index; returns paths."""
    out = Path(out_dir)
    name = slug(doc["game"]["name"])   # a spec's name chooses no folder: GAME is a slug
    pictures = f"{name}-pictures"
    written = [write_atomically(out / f"{name}.json",
                                json.dumps(doc, indent=1, ensure_ascii=False) + "\n")]
    folder = out / pictures
    for pid, pic in doc["pictures"].items():
        written.append(write_atomically(folder / f"{pid}.svg", pic["svg"] + "\n"))
    if folder.is_dir():
        for stale in folder.glob("*.svg"):
            if stale.stem not in doc["pictures"]:
                stale.unlink()
    written.append(write_atomically(out / f"{name}.md", render_markdown(doc, pictures)))
    written.append(write_atomically(out / f"{name}.html", render_html(doc)))
    written.append(write_index(out))
    return written


def write_index(out_dir: str | Path) -> Path:
    """``index.html`` linking every report in the folder."""
    out = Path(out_dir)
    games = []
    for path in sorted(out.glob("*.json")):
        try:
            doc = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError):
            continue
        if not isinstance(doc, dict) or doc.get("format") != FORMAT:
            continue
        g, gl = doc["game"], doc["glance"]
        games.append({"file": path.stem, "name": g["name"], "title": g["title"],
                      "summary": g["summary"],
                      "counts": gl["counts"], "open_questions": gl["open_questions"],
                      "assumptions": gl["assumptions"], "scenarios": gl["scenarios"],
                      "scenarios_failed": gl["scenarios_failed"],
                      "budget": doc["budget"]["name"]})
    html = _env(True).get_template("index.html.j2").render(games=games, css=_css(),
                                                           version=__version__)
    return write_atomically(out / "index.html", html)
