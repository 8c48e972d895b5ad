"""Write a report: ``GAME.json`` (the data), and ``GAME.html`` and ``GAME.md`` as views of it
(Jinja2 templates in ``templates/``), plus ``index.html`` over every report in the folder.

Like coverage.py's HTML report, the HTML and Markdown never compute anything: they only
show the JSON document. The HTML is one self-contained file (inline CSS and SVG, no
network); the Markdown's pictures are SVG files in ``GAME-pictures/`` beside it. Every
file is written atomically.
"""

from __future__ import annotations

import json
import os
import re
from collections import Counter
from pathlib import Path
from typing import Any

import jinja2

from .. import __version__
from ..formats.names import slug
from ..runtime import trace
from .chart import coverage_chart
from .document import FORMAT
from .families import (by_family, family_members, family_of, family_rules, read_by_family,
                       rule_families)
from .glossary import DOCS, KINDS, WORDS
from .rules import slug
from .share import SharedPictures

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


def wrap_md(text: str, width: int = 100) -> "_Safe":
    """A Markdown paragraph broken into lines of at most ``width`` characters at spaces
    (it reads the same rendered; its source stays readable). A word longer than a line
    stays whole. Its text is Markdown made safe already (``md`` filtered, with markup the
    template adds), so it is not escaped again.

    >>> wrap_md("a " * 60).count("\\n")
    1
    """
    import textwrap
    return _Safe(textwrap.fill(str(text), width, break_long_words=False,
                               break_on_hyphens=False))


def first_chars(items: list[Any], limit: int) -> list[Any]:
    """The first items of a list whose texts fit ``limit`` characters in all (at least
    one): a long list is summarised by them and a count of the rest.

    >>> first_chars(["a = 1", "b = [0, 0, 0]", "c = 2"], 12)
    ['a = 1']
    """
    out: list[Any] = []
    used = 0
    for item in items:
        used += len(str(item)) + 2
        if out and used > limit:
            break
        out.append(item)
    return out


def _code_spans(text: Any) -> Any:
    """HTML of text whose `backticked` parts are code (a mutant's change in words)."""
    from markupsafe import Markup, escape
    return Markup(re.sub(r"``?([^`]+)``?", r"<code>\1</code>", str(escape(text))))


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
    env.filters["slug"] = slug
    env.filters["coverage_chart"] = coverage_chart
    env.filters["first_chars"] = first_chars
    env.filters["wrap_md"] = wrap_md
    env.filters["by_element"] = by_element
    env.filters["md_cut"] = lambda text, n: text if len(text) <= n else text[:n - 1] + "…"
    env.filters["basename"] = lambda where: str(where).rsplit("/", 1)[-1]
    return env


def _asset(name: str) -> str:
    return (Path(__file__).parent / "templates" / name).read_text(encoding="utf-8")


def _css() -> str:
    """The page's style, then the open questions' own (question.css)."""
    return "\n".join(_asset(name) for name in ("style.css", "question.css"))


#: a rule pinned by more properties than this names a shared set of them (the set is
#: listed once, under the rule index: most rules of an action share one)
INLINE_PROPERTIES = 1


def pin_sets(rules: list[dict[str, Any]]) -> dict[str, Any]:
    """The distinct lists of properties pinning more than :data:`INLINE_PROPERTIES`
    rules' fields, numbered from 1 in the order the rule index first shows them; ``of``
    maps a rule's id to its set's number."""
    number: dict[tuple[str, ...], int] = {}
    of: dict[str, int] = {}
    count: dict[int, int] = {}
    for r in rules:
        props = tuple(r["pinned_by"]["properties"])
        if len(props) > INLINE_PROPERTIES:
            n = number.setdefault(props, len(number) + 1)
            of[r["id"]] = n
            count[n] = count.get(n, 0) + 1
    sets = [{"n": n, "properties": list(props), "rules": count[n]}
            for props, n in number.items()]
    for k, st in enumerate(sets):
        st.update(_against_earlier(st["properties"], [x for x in sets[:k] if "base" not in x]))
    return {"inline": INLINE_PROPERTIES, "sets": sets, "of": of}


def assumption_rows(sets: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Each set of assumptions said as an earlier one (written in full) with what it adds
    and lacks, where that is under half as long (``{"base", "plus", "changed", "minus"}``
    by the set's id; a set absent is written in full): ``changed`` are in both, read with
    other entries."""
    def items(st: dict[str, Any]) -> list[str]:
        return [json.dumps([n, st["entries"].get(n), n in st["constructed"]])
                for n in st["assumptions"]]
    listed = [{"n": st["id"], "properties": items(st)} for st in sets]
    out: dict[str, dict[str, Any]] = {}
    for k, st in enumerate(listed):
        said = _against_earlier(st["properties"], [x for x in listed[:k]
                                                   if x["n"] not in out])
        if said:
            plus = [json.loads(i)[0] for i in said["plus"]]
            minus = [json.loads(i)[0] for i in said["minus"]]
            out[st["n"]] = {"base": said["base"],   # read with other entries: "instead"
                            "changed": [n for n in plus if n in minus],
                            "plus": [n for n in plus if n not in minus],
                            "minus": [n for n in minus if n not in plus]}
    return out


def _against_earlier(props: list[str], earlier: list[dict[str, Any]]) -> dict[str, Any]:
    """A set said as an earlier one (written in full) with what it adds and lacks, when
    that is under half as long as its own list: ``{"base", "plus", "minus"}`` or {}.

    >>> names = [f"property_{k}" for k in range(12)]
    >>> _against_earlier(names[1:], [{"n": 1, "properties": names[:11]}])
    {'base': 1, 'plus': ['property_11'], 'minus': ['property_0']}
    """
    mine, best, own = set(props), {}, len(", ".join(props))
    for e in earlier:
        theirs = set(e["properties"])
        plus = [p for p in props if p not in theirs]
        minus = [p for p in e["properties"] if p not in mine]
        said = len(", ".join(plus)) + len(", ".join(minus)) + 30
        if said * 2 < own:
            best, own = {"base": e["n"], "plus": plus, "minus": minus}, said * 2
    return best


def rule_actions(rules: list[dict[str, Any]]) -> dict[str, tuple[str, str]]:
    """Each rule's id -> (id, name) of the element it belongs to (itself at the top)."""
    top = {r["id"]: (r["id"], r["name"]) for r in rules if not r["parent"]}
    return {r["id"]: top.get(r["parent"] or r["id"], (r["id"], r["name"])) for r in rules}


def rule_repeats(rules: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Each precondition or branch written by the same spec line, citing the same passage,
    as one of an earlier element (a helper the spec calls for every tile or card) -> that
    first one's id, element and name, and whether it also says exactly the same (the same
    kind, name and English: ``exact``) with the same flags and pins (``same_flags``). The
    rule index shows it "as in …" instead of citing the passage again (Hawaii's page:
    367 of 811 entries are exact repeats).

    >>> r = lambda i, p, e="phase = play": {"id": i, "parent": p, "kind": "precondition",
    ...     "name": "turn", "source": "§1", "where": "spec.py:9", "english": e}
    >>> rule_repeats([{"id": "a-x", "parent": None, "name": "x"}, r("a-x-pre-0", "a-x"),
    ...               {"id": "a-y", "parent": None, "name": "y"}, r("a-y-pre-0", "a-y"),
    ...               {"id": "a-z", "parent": None, "name": "z"}, r("a-z-pre-0", "a-z", "p")])
    ... # doctest: +NORMALIZE_WHITESPACE
    {'a-y-pre-0': {'id': 'a-x-pre-0', 'name': 'x', 'action': 'a-x', 'exact': True,
                   'same_flags': True},
     'a-z-pre-0': {'id': 'a-x-pre-0', 'name': 'x', 'action': 'a-x', 'exact': False,
                   'same_flags': False}}
    """
    names = {r["id"]: r["name"] for r in rules if not r["parent"]}
    first: dict[tuple, dict[str, Any]] = {}   # by (kind, passage, line) and by all it says
    out: dict[str, dict[str, Any]] = {}
    for r in rules:
        if not r["parent"] or not r["where"]:
            continue
        line = (r["kind"], r["source"], r["where"])
        said = line + (r["name"], r["english"])
        mine = {"id": r["id"], "name": names.get(r["parent"], r["parent"]),
                "parent": r["parent"], "flags": _flags(r), "english": r["english"]}
        for key, exact in ((said, True), (line, False)):
            f = first.get(key)
            if f is not None and f["parent"] != r["parent"]:
                out[r["id"]] = {"id": f["id"], "name": f["name"], "action": f["parent"],
                                "exact": exact,
                                "same_flags": exact and _flags(r) == f["flags"]}
                swap = _swap(f["name"], mine["name"])
                if not exact and swap and r["english"] == f["english"].replace(*swap):
                    out[r["id"]]["swap"] = swap  # the same words, for this element's own
                break
        first.setdefault(said, mine)
        first.setdefault(line, mine)
    return out


def _swap(first: str, mine: str) -> tuple[str, str] | None:
    """What two elements' names differ in (``buy_shell_hut``, ``buy_foot_hut`` ->
    ``("shell_hut", "foot_hut")``): a helper written for every tile reads the same with
    one's own tile for the other's."""
    i = 0
    while i < min(len(first), len(mine)) and first[i] == mine[i]:
        i += 1
    j = 0
    while j < min(len(first), len(mine)) - i and first[-1 - j] == mine[-1 - j]:
        j += 1
    old, new = first[i:len(first) - j], mine[i:len(mine) - j]
    return (old, new) if old and new else None


def repeat_groups(rules: list[dict[str, Any]], repeats: dict[str, dict[str, Any]]
                  ) -> list[dict[str, Any]]:
    """Repeats (``rule_repeats``) grouped by the action they repeat, for one line each."""
    groups: dict[str, dict[str, Any]] = {}
    for r in rules:
        f = repeats[r["id"]]
        g = groups.setdefault(f["action"], {"action": f["action"], "name": f["name"],
                                            "rules": []})
        g["rules"].append({"id": r["id"], "name": r["name"], "kind": r["kind"],
                           "first": f["id"]})
    return list(groups.values())


def _flags(r: dict[str, Any]) -> tuple:
    """What a rule index entry flags: reached, dead, pinned by."""
    pins = r.get("pinned_by") or {}
    return (r.get("reached"), r.get("dead"), r.get("dead_detail"),
            tuple(pins.get("scenarios", ())), tuple(pins.get("properties", ())))


def by_element(rule_ids: list[str], actions: dict[str, tuple[str, str]]
               ) -> list[dict[str, Any]]:
    """Rules grouped by the element they belong to: its id, name and how many of them
    (a passage cited by 40 preconditions of 12 actions reads as those 12 actions).

    >>> by_element(["a-x-pre-0", "a-x-pre-1", "a-y"], {"a-x-pre-0": ("a-x", "x"),
    ...            "a-x-pre-1": ("a-x", "x"), "a-y": ("a-y", "y")})
    [{'id': 'a-x', 'name': 'x', 'n': 2}, {'id': 'a-y', 'name': 'y', 'n': 1}]
    """
    out: dict[str, dict[str, Any]] = {}
    for rid in rule_ids:
        aid, name = actions.get(rid, (rid, rid))
        out.setdefault(aid, {"id": aid, "name": name, "n": 0})["n"] += 1
    return list(out.values())


#: a citation names its document first, then where in it: a section (§) or a line (L7)
_CITED_DOC = re.compile(r"(.+?) (?=§|L\d)")


def common_source(rules: list[dict[str, Any]]) -> str:
    """The document most rules cite (the text before " §" or " L<line>" of their sources),
    when it is more than half of them: the rule index names it once instead of in every
    rule.

    >>> common_source([{"source": "rules.txt L7: x"}, {"source": "rules.txt §Setup"},
    ...                {"source": None}])
    'rules.txt'
    """
    docs = Counter(m.group(1) for r in rules if r["source"]
                   for m in [_CITED_DOC.match(r["source"])] if m)
    if not docs:
        return ""
    name, n = docs.most_common(1)[0]
    return name if n * 2 > len(rules) else ""


def docs_link(doc: dict[str, Any], out_dir: str | Path | None) -> str | None:
    """A relative link from the report's folder to the legend's document, when rulespec
    runs from a clone that has it (an installed package has no docs/)."""
    target = Path(__file__).resolve().parents[2] / doc["legend"]["docs"]
    if out_dir is None or not target.is_file():
        return None
    return Path(os.path.relpath(target, Path(out_dir).resolve())).as_posix()


def _context(doc: dict[str, Any], out_dir: str | Path | None) -> dict[str, Any]:
    """What both views show besides the document: its legend's headings and link."""
    return {"doc": doc, "legend_kinds": KINDS, "docs_link": docs_link(doc, out_dir)}


def common_rests(rests: list[Any]) -> dict[str, Any] | None:
    """What most of these verdicts rest on (their ``rests_on``), when at least half share
    it: said once, above them, and each shows its own only when it differs. ``{"rests_on":
    ..., "key": ...}``; the template asks :func:`rests_key` of each."""
    keys = [rests_key(r) for r in rests]
    if not keys:
        return None
    top, n = Counter(keys).most_common(1)[0]
    if n * 2 < len(keys) or top == "null":
        return None
    return {"rests_on": json.loads(top), "key": top, "all": n == len(keys)}


def quoted_in_full(rules: list[dict[str, Any]]) -> set[str]:
    """The rules of the index that quote their passage in full: the first to cite each
    one; the others show its section and link to the quote (in the list of sources)."""
    first: dict[str, str] = {}
    for r in rules:
        if r.get("source_id"):
            first.setdefault(r["source_id"], r["id"])
    return set(first.values())


def differs_from(results: list[dict[str, Any]], common: dict[str, Any]) -> bool:
    """Whether any of a property's results rests on other than what most do (its table
    then says what each rests on)."""
    return any(rests_key(r.get("rests_on")) != common["key"] for r in results)


def shown_details(results: list[dict[str, Any]]) -> list[str]:
    """Each result's detail as its row shows it (none where its evidence already says
    it passed), or [] when no row has one (the table has no detail column)."""
    shown = ["" if r.get("evidence_text") and r["status"] in ("PASSED", "PROVED")
             else (r.get("detail") or "") for r in results]
    return shown if any(shown) else []


def rests_key(rests_on: Any) -> str:
    return json.dumps(rests_on, sort_keys=True)


def number_runs(ids: list[str], number: dict[str, int]
                ) -> tuple[list[tuple[int, int]], list[str]]:
    """The scenarios pinning a rule, said short: their numbers as runs ``(first, last)``
    (21, 39, 40, 69, 81, 82, 83 -> (21, 21), (39, 40), (69, 69), (81, 83)), and the ids
    that have no number."""
    runs: list[list[int]] = []
    for n in sorted({number[i] for i in ids if i in number}):
        if runs and n == runs[-1][1] + 1:
            runs[-1][1] = n
        else:
            runs.append([n, n])
    return [(a, b) for a, b in runs], [i for i in ids if i not in number]


def render_html(doc: dict[str, Any], out_dir: str | Path | None = None) -> str:
    """The report as one self-contained HTML page (pieces its pictures share drawn once)."""
    shared = SharedPictures({pid: p["svg"] for pid, p in doc["pictures"].items()})
    families = rule_families(doc["rules"])
    return _env(True).get_template("report.html.j2").render(
        **_context(doc, out_dir), css=_css(), report_js=_asset("report.js"), shared=shared,
        pin_sets=pin_sets(doc["rules"]), rule_actions=rule_actions(doc["rules"]),
        rule_repeats=rule_repeats(doc["rules"]), repeat_groups=repeat_groups,
        families=families, family_members=family_members(families),
        family_of=family_of(families), by_family=by_family, read_by_family=read_by_family,
        common_source=common_source(doc["rules"]),
        scenario_number={s["id"]: k for k, s in enumerate(doc["scenarios"], 1)},
        scenario_rests=common_rests([s.get("rests_on") for s in doc["scenarios"]]),
        result_rests=common_rests([r.get("rests_on") for p in doc["properties"]
                                   for r in p["results"]]),
        rests_key=rests_key, number_runs=number_runs, differs_from=differs_from,
        shown_details=shown_details, assumption_rows=assumption_rows(doc["assumption_sets"]),
        quoted_in_full=quoted_in_full(doc["rules"]))


def render_markdown(doc: dict[str, Any], pictures_dir: str,
                    out_dir: str | Path | None = None) -> str:
    """The report as Markdown; pictures are referenced as ``pictures_dir/ID.svg``."""
    families = rule_families(doc["rules"])
    return _env(False).get_template("report.md.j2").render(
        **_context(doc, out_dir), pictures_dir=pictures_dir,
        rule_actions=rule_actions(doc["rules"]), families=families,
        family_rules=family_rules(families), family_of=family_of(families),
        by_family=by_family)


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
    written.append(write_atomically(out / f"{name}.md", render_markdown(doc, pictures, out)))
    written.append(write_atomically(out / f"{name}.html", render_html(doc, out)))
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
    link = docs_link({"legend": {"docs": DOCS}}, out)
    html = _env(True).get_template("index.html.j2").render(games=games, css=_css(),
                                                           version=__version__, words=WORDS,
                                                           docs_link=link)
    return write_atomically(out / "index.html", html)
