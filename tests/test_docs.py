"""The docs stay true: every Python snippet of docs/spec-language.md runs (issue 9, item 9),
and no doc names a file that a clone of the repository does not have."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
GUIDE = ROOT / "docs" / "spec-language.md"
BLOCK = re.compile(r"(<!-- doc-test: (\w+)[^>]*-->\s*\n)?```python\n(.*?)```", re.S)


def programs(text: str) -> list[list[tuple[int, str]]]:
    """The guide's Python blocks, grouped into programs: a ``<!-- doc-test: new -->``
    comment before a block starts a new one; every other block continues the last."""
    out: list[list[tuple[int, str]]] = []
    for m in BLOCK.finditer(text):
        line = text.count("\n", 0, m.start(3)) + 1
        if m.group(2) == "new" or not out:
            out.append([])
        elif m.group(2) is not None:
            raise AssertionError(f"unknown doc-test marker {m.group(2)!r} at line {line}")
        out[-1].append((line, m.group(3)))
    return out


GUIDE_PROGRAMS = programs(GUIDE.read_text(encoding="utf-8"))


def test_the_guide_has_its_programs():
    assert len(GUIDE_PROGRAMS) >= 4
    text = GUIDE.read_text(encoding="utf-8")
    assert text.count("```python") == sum(len(p) for p in GUIDE_PROGRAMS)
    text = " ".join(text.split())
    for topic in ("initial=[3, 4, 5]", "game.law(", "check_examples(", "bmc_depth=",
                  "capped at 9", "PROPERTIES = [", "never decrease", "game.assume(",
                  "game.interpretation(", "set_weight", "@game.setup", "tie_break",
                  "game.constant(", "at_least"):
        assert topic in text, topic


def test_each_language_feature_of_issue_10_has_a_section_with_a_program():
    """Tables and ordinals, horizons, the kit, observations and connectivity each have a
    section whose program runs (below) and asserts what it shows."""
    text = GUIDE.read_text(encoding="utf-8")
    for heading, needles in {
            "## Tables keyed by an enum": ("game.table(", "ordinal("),
            "## Games the rules do not bound: a horizon": ("game.horizon(", "truncated"),
            "## The collections kit": ("Deck(", "Hands(", "Pile(", "Subsets(", "deck.draw("),
            "## Hidden information: observations": ('visible="owner"', "model.observation("),
            "## Connectivity": ("connected(", "component_size("),
            # issue 27: the constructs the seed specs repeated, and what newcomers tripped on
            "## Citations, compact points, phases and rankings": (
                "game.text(", "book.at(", ".says(", "game.point(", "game.phases(",
                "game.phase(", "phase=Phase.count", "most(", "rank("),
            "### Effects carried out by the spec's own actions": (
                "possible_when(", "fx.carry_out(", "@fx.skip(", "fx.require_done("),
            "## Things newcomers trip over": (
                "bookkeeping=True", "no_legal_move(", "horizontal=", "let_(")}.items():
        assert heading in text, heading
        section = text[text.index(heading):]
        section = section[:section.index("\n## ", 1)] if "\n## " in section[1:] else section
        program = next(p for p in GUIDE_PROGRAMS if any(c in section for _, c in p))
        code = "".join(c for _, c in program)
        for needle in needles:
            assert needle in code, (heading, needle)
        assert "assert " in code, heading


@pytest.mark.parametrize("program", GUIDE_PROGRAMS,
                         ids=[f"line{p[0][0]}" for p in GUIDE_PROGRAMS])
def test_every_snippet_of_the_guide_runs(program, tmp_path, monkeypatch):
    from rulespec.spec import GameSpec
    monkeypatch.chdir(tmp_path)
    namespace: dict = {"__name__": "guide"}
    for line, code in program:
        try:
            exec(compile(code, f"{GUIDE.name}:{line}", "exec"), namespace)  # noqa: S102
        except Exception as err:  # pragma: no cover - the message says which block
            raise AssertionError(f"the snippet at {GUIDE.name}:{line} fails: "
                                 f"{type(err).__name__}: {err}") from err
    if "SPEC" in namespace:
        assert isinstance(namespace["SPEC"], GameSpec)


def test_the_report_pages_python_runs(monkeypatch):
    """docs/reports.md's Python (a state drawing itself) runs as shown."""
    monkeypatch.chdir(ROOT)
    text = (ROOT / "docs" / "reports.md").read_text(encoding="utf-8")
    blocks = [m.group(3) for m in BLOCK.finditer(text)]
    assert blocks
    for block in blocks:
        exec(compile(block, "docs/reports.md", "exec"), {})  # noqa: S102


def test_the_guides_nim_is_the_fixture_nim():
    """The guide's Nim and tests/fixtures/nim play the same game (same heaps, same moves)."""
    import rulespec
    nim = next(p for p in GUIDE_PROGRAMS if "Game(\"nim\"" in p[0][1])
    namespace: dict = {"__name__": "guide"}
    for line, code in nim:
        exec(compile(code, f"{GUIDE.name}:{line}", "exec"), namespace)  # noqa: S102
    guide, fixture = rulespec.Model(namespace["SPEC"]), rulespec.load("tests/fixtures/nim")
    assert [str(a) for a in guide.legal_actions(guide.initial_state())] == \
        [str(a) for a in fixture.legal_actions(fixture.initial_state())]


SHARED = re.compile(r"(\.\./shared|/work/shared|shared/seeds|shared/research)")


def test_no_doc_points_outside_the_repository():
    """Docs, READMEs and specs name only files a clone has; the sources they cite are
    described in docs/sources.md."""
    files = [*ROOT.glob("*.md"), *(ROOT / "docs").rglob("*.md"), *(ROOT / "models").rglob("*"),
             *(ROOT / "properties").rglob("*.py"), *(ROOT / "rulespec").rglob("*.py")]
    bad = []
    for f in files:
        if f.is_file() and f.suffix in (".md", ".py", ".toml"):
            for n, line in enumerate(f.read_text(encoding="utf-8").splitlines(), 1):
                if SHARED.search(line):
                    bad.append(f"{f.relative_to(ROOT)}:{n}: {line.strip()}")
    assert bad == []
    sources = (ROOT / "docs" / "sources.md").read_text(encoding="utf-8")
    for cited in ("000_3b00b4fc026f56e4.txt", "002_50b4d45ccb25edcc.txt",
                  "003_6720fac1c931cea7.txt", "research/components.md"):
        assert cited in sources


def test_docs_name_only_repository_files():
    """Every `path/with/slashes.ext` a doc mentions in backticks exists in the repository."""
    ignore = {"research/components.md", "research/aquatica.md", "research/motu.md"}
    missing = []
    for doc in [*ROOT.glob("*.md"), *(ROOT / "docs").rglob("*.md")]:
        for m in re.finditer(r"`([\w./-]+/[\w.-]+\.(?:py|md|toml|json|txt))`",
                             doc.read_text(encoding="utf-8")):
            path = m.group(1)
            if path in ignore or path.startswith(("open_spiel/", "rulespec.")) \
                    or "<" in path or path.startswith("traces/"):
                continue
            if not (ROOT / path).exists() and not (ROOT / "rulespec" / path).exists():
                missing.append(f"{doc.relative_to(ROOT)}: {path}")
    assert missing == []


# --- docs/ecosystem.md: its Python runs, its commands print what it shows ---------------------
ECOSYSTEM = ROOT / "docs" / "ecosystem.md"
CONSOLE = re.compile(r"(<!-- doc-test: exit (\d+) -->\s*\n)?```console\n(.*?)```", re.S)


def _console_blocks() -> list[tuple[int, str, int, list[str]]]:
    """(line, command, exit code, lines shown after it) for each ```console block."""
    text = ECOSYSTEM.read_text(encoding="utf-8")
    out = []
    for m in CONSOLE.finditer(text):
        first, *shown = m.group(3).rstrip("\n").split("\n")
        assert first.startswith("$ "), first
        out.append((text.count("\n", 0, m.start(3)) + 1, first[2:],
                    int(m.group(2) or 0), shown))
    return out


def _shows(output: str, shown: list[str]) -> list[str]:
    """The shown lines the output lacks (whitespace and wrapping ignored; ``...`` in a line
    stands for anything)."""
    flat = " ".join(output.split())
    missing = []
    for line in shown:
        parts = [" ".join(p.split()) for p in line.split("...")]
        at = 0
        for part in filter(None, parts):
            found = flat.find(part, at)
            if found < 0:
                missing.append(line)
                break
            at = found + len(part)
    return missing


def test_the_ecosystem_python_runs(monkeypatch):
    monkeypatch.chdir(ROOT)
    text = ECOSYSTEM.read_text(encoding="utf-8")
    namespace: dict = {"__name__": "ecosystem"}
    blocks = list(BLOCK.finditer(text))
    assert len(blocks) >= 2
    for m in blocks:
        line = text.count("\n", 0, m.start(3)) + 1
        exec(compile(m.group(3), f"{ECOSYSTEM.name}:{line}", "exec"), namespace)  # noqa: S102


@pytest.mark.parametrize("line,command,code,shown", _console_blocks(),
                         ids=[f"line{b[0]}" for b in _console_blocks()])
def test_every_ecosystem_command_prints_what_the_page_shows(line, command, code, shown,
                                                             tmp_path, monkeypatch, capsys):
    import shlex
    import subprocess
    import sys
    argv = shlex.split(command)
    if argv[0] == "pytest":
        run = subprocess.run([sys.executable, "-m", *argv], cwd=ROOT, capture_output=True,
                             text=True, timeout=900)
        got, output = run.returncode, run.stdout
    else:
        assert argv[0] == "rulespec"
        from rulespec.cli import main
        for folder in ("tests", "models"):   # the page's relative paths; traces go to tmp
            (tmp_path / folder).symlink_to(ROOT / folder)
        monkeypatch.chdir(tmp_path)
        with pytest.raises(SystemExit) as e:
            main(argv[1:])
        got, output = e.value.code, capsys.readouterr().out
    assert got == code, (line, output[-2000:])
    assert _shows(output, shown) == [], (line, output[-3000:])
