"""Components as data and game folders of several files (docs/formats/components.md,
docs/spec-language.md "Components"): catalogues read through the spec's schema with their
provenance, swapped with ``--components``, errors of one line, a spec's parts, and the one
SHA-256 that covers every file the spec reads."""

from __future__ import annotations

import json
import shutil
import subprocess
import textwrap
import sys
from pathlib import Path

import pytest

import rulespec
from rulespec.check.scenario import load_scenario_file, run_scenario
from rulespec.ir.assumed import tags_of
from rulespec.ir.errors import SpecError
from rulespec.runtime.registry import SpecChanged, load_spec, models_dir, origin
from rulespec.runtime.trace import Trace, TraceError, save_trace, trace_model
from rulespec.spec.components import Components

CARDS = models_dir() / "crazy_eights" / "components.toml"

SPEC = '''\
import attrs

from rulespec.spec import Game, count, if_, not_, sum_of
from rulespec.spec.components import member_of

SRC = "a gem draft (test game)"
game = Game("gems", title="Gems", players=1, source=SRC)


@attrs.frozen
class Gem:
    colour: str = attrs.field(validator=member_of(["red", "blue"]))
    points: int


GEMS = game.components("gems", Gem)
Name = game.enum("Name", list(GEMS), source=SRC)
value = game.table("value", {Name[k]: g.points for k, g in GEMS.items()}, source=SRC)
taken = game.field("taken", bool, shape=(Name,), source=SRC)
from .readings import bonus  # noqa: E402 - the readings, in their own file


@game.action(params={"g": Name}, text="take {g}", source=SRC)
def take(rule, g):
    rule.require(not_(taken[g]), "the gem is there", source=SRC)
    rule.set(taken[g], True)


game.current_player(0, source=SRC)
game.terminal(count(Name, lambda g: taken[g]) == 2, source=SRC)
game.max_steps(2, source=SRC)
game.score(lambda p: sum_of(Name, lambda g: if_taken(g)) + bonus_points(), source=SRC)
SPEC = game.build()
'''
READINGS = '''\
from rulespec.spec import if_

from .spec import SRC, game, taken, value

bonus = game.interpretation(
    "bonus", question="Does a gem taken count twice?",
    options={"no": f"{SRC}: 'a gem scores its points'", "yes": f"{SRC} (variant)"},
    default="no", source=SRC)
'''
# the spec's helpers, written after the reading they use
HELPERS = '''

def if_taken(g):
    return if_(taken[g], value[g] * if_(bonus.is_("yes"), 2, 1), 0)


def bonus_points():
    return 0
'''
DATA = '''\
[gems]
constructed = "no gem list is printed: three gems made up for the test"

[gems.ruby]
colour = "red"
points = 3

[gems.sapphire]
colour = "blue"
points = 2

[gems.garnet]
colour = "red"
points = 1
printed = "the test's rules sheet"
'''


def _game(folder: Path, data: str = DATA) -> Path:
    """A game folder: spec.py, a part (readings.py) and components.toml."""
    folder.mkdir(parents=True, exist_ok=True)
    spec = SPEC.replace("from .readings import bonus  # noqa: E402 - the readings, in their "
                        "own file\n", "from .readings import bonus  # noqa: E402\n" + HELPERS)
    (folder / "spec.py").write_text(spec)
    (folder / "readings.py").write_text(READINGS)
    (folder / "components.toml").write_text(data)
    return folder


def _cli(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "rulespec.cli", *args], capture_output=True,
                          text=True, cwd=cwd, timeout=600)


# --- a catalogue, read through its schema ----------------------------------------------------
def test_a_catalogue_is_read_with_each_entrys_provenance(tmp_path):
    model = rulespec.load(_game(tmp_path / "gems"))
    (cat,) = [a for a in model.spec.assumptions if isinstance(a, Components)]
    assert list(cat.provenance) == ["ruby", "sapphire", "garnet"]
    assert cat.counts() == {"printed": 1, "constructed": 2}
    assert cat.entries_of("constructed") == ["ruby", "sapphire"]
    assert cat.provenance["garnet"].text == "the test's rules sheet"
    assert cat.value["ruby"] == {"colour": "red", "points": 3,
                                 "constructed": "no gem list is printed: three gems made up "
                                                "for the test"}
    s = model.initial_state()
    for text in ["take ruby", "take garnet"]:
        s = model.apply(s, model.action_from_str(s, text))
    assert model.is_terminal(s) and model.scores(s) == [4]


def test_the_records_carry_their_entry_as_an_assumption_tag(tmp_path):
    spec = load_spec(_game(tmp_path / "gems"))
    value = next(t for t in spec.tables if t.name == "value")
    assert {str(t) for t in value.assumed[0]} == {"gems[ruby]"}
    (cat,) = [a for a in spec.assumptions if isinstance(a, Components)]
    assert cat.entries == ("ruby", "sapphire", "garnet")


def test_crazy_eights_reads_its_52_printed_cards_from_its_components_file():
    spec = rulespec.load("crazy_eights").spec
    (cat,) = [a for a in spec.assumptions if isinstance(a, Components)]
    assert cat.name == "cards" and cat.counts() == {"printed": 52}
    assert cat.file.endswith("models/crazy_eights/components.toml")
    assert next(t for t in spec.tables if t.name == "face_value").values[24] == 50  # C8


# --- another list: the same rules ------------------------------------------------------------
def test_a_swapped_catalogue_changes_a_verdict(tmp_path):
    cheap = tmp_path / "cheap_eights.toml"
    cheap.write_text(CARDS.read_text().replace("penalty = 50", "penalty = 40"))
    sf = load_scenario_file(models_dir() / "crazy_eights" / "scenarios" / "rules.toml",
                            trusted=[models_dir() / "crazy_eights" / "spec.py"])
    (sc,) = [s for s in sf.scenarios if s.name.startswith("every card left in hand")]
    assert run_scenario(sf, sc).status == "PASSED"
    swapped = rulespec.load("crazy_eights", components=cheap)
    assert origin(swapped.spec).components == cheap.resolve()
    assert origin(swapped.spec).sha256 != origin(rulespec.load("crazy_eights").spec).sha256
    s = swapped.initial_state(2)
    assert swapped.spec is not rulespec.load("crazy_eights").spec
    (cat,) = [a for a in swapped.spec.assumptions if isinstance(a, Components)]
    assert cat.replaced and cat.value["C8"]["penalty"] == 40 and s is not None
    r = _cli("scenario", "crazy_eights", "--components", str(cheap), "-q",
             "--trace-dir", str(tmp_path / "t"))
    assert r.returncode == 1, r.stdout + r.stderr
    assert "expected [-272, -272], got [-252, -252]" in r.stdout
    assert _cli("scenario", "crazy_eights", "-q", "--trace-dir",
                str(tmp_path / "t")).returncode == 0


def test_a_trace_made_with_another_list_replays_with_it_and_only_with_it(tmp_path):
    data = tmp_path / "more_points.toml"
    data.write_text(DATA.replace("points = 3", "points = 9"))
    model = rulespec.load(_game(tmp_path / "gems"), components=data)
    trace = Trace.of(model, 1, ["take ruby", "take garnet"])
    assert trace.components_path == str(data.resolve())
    path = save_trace(trace, tmp_path / "t.json")
    assert json.loads(path.read_text())["components_path"] == str(data.resolve())
    replayed = trace_model(rulespec.runtime.trace.load_trace(path))
    s = replayed.initial_state()
    for text in trace.actions:
        s = replayed.apply(s, replayed.action_from_str(s, text))
    assert replayed.scores(s) == [10]
    data.write_text(DATA.replace("points = 3", "points = 8"))   # the list changed since
    with pytest.raises(TraceError, match="has changed since"):
        trace_model(rulespec.runtime.trace.load_trace(path))


# --- errors: one line, the file, the line, the entry -----------------------------------------
@pytest.mark.parametrize("edit, line, says", [
    (("points = 2", 'points = "2"'), 10, "in gems entry 'sapphire': 'points' must be an "
                                         'integer, got "2"'),
    (('colour = "blue"', 'colour = "green"'), 9, "'colour' must be one of red, blue"),
    (("points = 1\n", "points = 1\nweight = 4\n"), 15, "unknown key 'weight'"),
    (('constructed = "no gem list is printed: three gems made up for the test"\n', ""), 3,
     "in gems entry 'ruby': no provenance"),
    (("printed = \"the test's rules sheet\"", 'printed = ""'), 15, "'printed' must be the "
                                                                    "source"),
    (("printed = \"the test's rules sheet\"", 'printed = "x"\nresearch = "y"'), 16,
     "give one provenance, not printed and research"),
    (("[gems.ruby]", "[gems.ruby"), 4, "not valid TOML"),
    (("[gems", "[jewels"), 1, "has no catalogue [gems]"),
])
def test_a_bad_components_file_is_one_line_naming_file_line_and_entry(tmp_path, edit, line,
                                                                      says):
    folder = _game(tmp_path / "gems", DATA.replace(*edit))
    with pytest.raises(SpecError) as err:
        load_spec(folder)
    text = str(err.value)
    assert "\n" not in text and says in text, text
    if "has no catalogue" in says:   # the spec line that declares it
        assert text.startswith(f"{folder / 'spec.py'}:16:") or ":16:" in text, text
    else:
        assert f"components.toml:{line}:" in text, text
    r = _cli("info", str(folder))
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert r.stderr.count("\n") == 1 and says in r.stderr, r.stderr


def test_a_components_file_naming_an_unknown_catalogue_or_missing_is_refused(tmp_path):
    folder = _game(tmp_path / "gems")
    other = tmp_path / "other.toml"
    other.write_text('[gemz.ruby]\ncolour = "red"\npoints = 1\nprinted = "x"\n')
    with pytest.raises(SpecError, match="catalogue 'gemz' is not one the spec declares "
                                        r"\(it declares: gems\)"):
        load_spec(folder, components=other)
    r = _cli("check", str(folder), "--components", str(tmp_path / "nothing.toml"))
    assert r.returncode == 2 and "--components" in r.stderr and "no such file" in r.stderr


def test_an_entry_name_never_reaches_a_path_and_data_files_stay_in_the_folder(tmp_path):
    folder = _game(tmp_path / "gems", DATA.replace("[gems.ruby]", '[gems."../../x"]'))
    with pytest.raises(SpecError, match="an entry's name is letters, digits"):
        load_spec(folder)
    folder = _game(tmp_path / "g2")
    spec = folder / "spec.py"
    spec.write_text(spec.read_text().replace('game.components("gems", Gem)',
                                             'game.components("gems", Gem, file="../x.toml")'))
    with pytest.raises(SpecError, match="by its name only"):
        load_spec(folder)


def test_a_spec_standing_alone_reads_no_data_file(tmp_path):
    lone = tmp_path / "lone.py"
    lone.write_text(SPEC.replace("from .readings import bonus  # noqa: E402 - the readings, in "
                                 "their own file\n", ""))
    (tmp_path / "components.toml").write_text(DATA)
    with pytest.raises(SpecError, match="only a game folder's spec.py reads data files"):
        load_spec(lone)


# --- game folders: parts, and the identity over every file -----------------------------------
def test_an_error_in_a_part_points_at_the_part(tmp_path):
    folder = _game(tmp_path / "gems")
    (folder / "readings.py").write_text(READINGS + "\nraise ValueError('oops')\n")
    with pytest.raises(SpecError) as err:
        load_spec(folder)
    assert "readings.py:10:" in str(err.value) and "ValueError: oops" in str(err.value)


def test_a_part_the_folder_lacks_is_a_load_error(tmp_path):
    folder = _game(tmp_path / "gems")
    (folder / "readings.py").unlink()
    with pytest.raises(SpecError, match="imports readings, which is no file of its game "
                                        r"folder \(readings.py\)") as err:
        load_spec(folder)
    assert "_rulespec_game" not in str(err.value) and "spec.py:20:" in str(err.value)


def test_the_identity_covers_the_parts_and_the_data(tmp_path):
    folder = _game(tmp_path / "gems")
    model = rulespec.load(folder)
    first = origin(model.spec).sha256
    trace = Trace.of(model, 1, ["take ruby", "take garnet"])
    assert trace.spec_path == str(folder / "spec.py") and trace.spec_sha256 == first
    assert trace_model(trace).spec is model.spec
    for name, edit in [("readings.py", lambda t: t + "\n# a comment\n"),
                       ("components.toml", lambda t: t.replace("points = 3", "points = 4"))]:
        path = folder / name
        before = path.read_text()
        path.write_text(edit(before))
        with pytest.raises(TraceError, match="has changed since this trace was written"):
            trace_model(trace)
        with pytest.raises(SpecChanged):
            load_spec(folder, sha256=first)
        path.write_text(before)
        assert origin(load_spec(folder, sha256=first)).sha256 == first
    (folder / "properties.py").write_text("PROPERTIES = []\n")   # not a part of the spec
    assert origin(load_spec(folder, sha256=first)).sha256 == first


def test_a_spec_reading_no_other_file_keeps_the_hash_of_its_file():
    import hashlib
    path = models_dir() / "tic_tac_toe" / "spec.py"
    assert origin(rulespec.load("tic_tac_toe").spec).sha256 == hashlib.sha256(
        path.read_bytes()).hexdigest()


def test_the_parts_run_from_the_bytes_that_were_hashed(tmp_path, monkeypatch):
    """A part changed after the hash was taken never runs: the snapshot does."""
    folder = _game(tmp_path / "gems")
    from rulespec.runtime import folder as game_folder
    real = game_folder.snapshot

    def then_edit(path):
        files = real(path)
        (folder / "readings.py").write_text("raise SystemExit(3)\n")
        return files
    monkeypatch.setattr("rulespec.runtime.registry.snapshot", then_edit)
    spec = load_spec(folder)
    assert spec.interpretation("bonus").default == "no"


def test_copied_bundled_folder_with_components_is_not_the_bundled_game(tmp_path):
    copy = tmp_path / "crazy_eights"
    shutil.copytree(models_dir() / "crazy_eights", copy)
    model = rulespec.load(copy)
    assert origin(model.spec).bundled is None
    assert Trace.of(model, 2, []).spec_path == str(copy / "spec.py")


# --- info and the report say which entries are constructed ------------------------------------
def test_info_summarises_the_catalogues_and_json_has_every_entry(tmp_path):
    folder = _game(tmp_path / "gems")
    r = _cli("info", str(folder))
    assert r.returncode == 0, r.stderr
    assert "Components (1)" in r.stdout
    assert "gems (components.toml): 3 entries, 1 printed, 2 constructed; constructed: ruby, " \
           "sapphire" in " ".join(r.stdout.split())
    assert all(len(line) <= 100 for line in r.stdout.splitlines())
    full = _cli("info", str(folder), "--assumptions").stdout
    flat = " ".join(full.split())
    assert "constructed (2): ruby, sapphire why: no gem list is printed" in flat
    assert "printed (1): garnet source: the test's rules sheet" in flat
    doc = json.loads(_cli("info", str(folder), "--json").stdout)
    (cat,) = doc["components"]
    assert cat["constructed"] == ["ruby", "sapphire"] and cat["counts"] == {
        "printed": 1, "constructed": 2}
    assert cat["entries"][2] == {"name": "garnet", "provenance": "printed",
                                 "text": "the test's rules sheet"}


def test_a_many_entry_catalogue_is_summarised_on_one_screen(tmp_path):
    many = "".join(f'\n[gems.g{k}]\ncolour = "red"\npoints = {k}\n' for k in range(40))
    folder = _game(tmp_path / "gems", DATA.replace("[gems.garnet]", many + "\n[gems.garnet]"))
    out = _cli("info", str(folder)).stdout
    assert "--assumptions lists them" in out and "g39" not in out, out
    assert all(len(line) <= 100 for line in out.splitlines())


def test_the_report_marks_constructed_entries_and_printed_ones_rest_on_the_rules(tmp_path):
    from rulespec.report.depends import _Shown, catalogue_entries
    from rulespec.check.depends import Dependence, Rests
    from rulespec.ir.assumed import Assumed
    folder = _game(tmp_path / "gems")
    out = tmp_path / "out"
    r = _cli("report", str(folder), "-o", str(out), "-q", "--mutate")
    assert r.returncode in (0, 1), r.stderr
    doc = json.loads((out / "gems.json").read_text())
    (a,) = doc["assumptions"]
    assert a["components"]["constructed"] == ["ruby", "sapphire"] and a["constructed"]
    assert a["origin_kinds"] == ["printed", "constructed"]
    md = " ".join((out / "gems.md").read_text().split())
    assert "constructed: ruby, sapphire" in md
    assert "Constructed component values are counted apart: 4 mutants" in md
    assert 'data-mutation="constructed"' in (out / "gems.html").read_text()
    from rulespec.report.render import render_html, render_markdown
    del a["components"]                      # a plain assumption, a mutation run without data
    del doc["mutation"]["constructed_values"]
    assert "Component data" not in render_markdown(doc, "pictures") + render_html(doc)
    spec = load_spec(folder)
    shown = _Shown(Dependence(spec), {"gems": ("ruby", "sapphire", "garnet")}, {"gems"},
                   catalogue_entries(spec))
    printed = shown.json(Rests("slice", frozenset({Assumed("gems", "garnet")})),
                         ("property", "p-x", None))
    made = shown.json(Rests("slice", frozenset({Assumed("gems", "ruby")})),
                      ("property", "p-y", None))
    assert printed["assumptions"] == [] and printed["constructed"] == []
    assert made["assumptions"] == ["gems"] and made["constructed"] == ["gems"]


# --- mutation: constructed values counted apart ------------------------------------------------
def test_mutants_of_constructed_values_are_counted_apart_and_a_scenario_pins_one(tmp_path):
    from rulespec.check.mutate import mutate_game
    folder = _game(tmp_path / "gems")
    report = mutate_game(str(folder), operators=["constant"], budget="quick")
    data = report.constructed_values()
    assert data["mutants"] == 4 and data["unpinned_entries"] == ["gems[ruby]", "gems[sapphire]"]
    assert {r.id: r.constructed for r in report.results if r.constructed} == {
        f"constant_{d}@value[{g}]": (f"gems[{g}]",) for d in ("plus_one", "minus_one")
        for g in ("ruby", "sapphire")}
    assert report.to_json()["mutants"] == 2   # the rules' own: garnet, printed
    (folder / "scenarios").mkdir()
    (folder / "scenarios" / "ruby.toml").write_text(textwrap.dedent('''\
        game = "../spec.py"
        [[scenario]]
        name = "a ruby and a garnet score 4"
        source = "a gem draft (test game)"
        [scenario.given]
        actions = ["take ruby"]
        [scenario.when]
        actions = ["take garnet"]
        [scenario.then]
        scores = [4]
        '''))
    from rulespec.check.mutate import run
    run._STATE.clear()   # the judges of the run before, without the scenario
    report = mutate_game(str(folder), operators=["constant"], budget="quick")
    assert report.constructed_values()["unpinned_entries"] == ["gems[sapphire]"]
    assert report.constructed_values()["killed"] == 2 and report.score() == 1.0


def test_pytest_never_imports_a_game_folders_parts(tmp_path):
    from rulespec.pytest_plugin import pytest_ignore_collect
    folder = _game(tmp_path / "gems")
    (folder / "properties.py").write_text("PROPERTIES = []\n")
    assert pytest_ignore_collect(folder / "readings.py", None) is True
    assert pytest_ignore_collect(folder / "spec.py", None) is True
    assert pytest_ignore_collect(folder / "properties.py", None) is None
    assert pytest_ignore_collect(tmp_path / "elsewhere.py", None) is None


# --- a catalogue as CSV ------------------------------------------------------------------------
GEMS_CSV = '''\
name,colour,points,printed,constructed
ruby,red,3,,made up for the test
sapphire,blue,2,,made up for the test
garnet,red,1,the test's rules sheet,
'''


def _csv_game(folder: Path, rows: str = GEMS_CSV) -> Path:
    _game(folder)
    (folder / "components.toml").unlink()
    spec = folder / "spec.py"
    spec.write_text(spec.read_text().replace('game.components("gems", Gem)',
                                             'game.components("gems", Gem, file="gems.csv")'))
    (folder / "gems.csv").write_text(rows)
    return folder


def test_a_csv_catalogue_reads_like_a_toml_one_and_swaps_too(tmp_path):
    folder = _csv_game(tmp_path / "gems")
    model = rulespec.load(folder)
    (cat,) = [a for a in model.spec.assumptions if isinstance(a, Components)]
    assert cat.counts() == {"printed": 1, "constructed": 2} and cat.file.endswith("gems.csv")
    other = tmp_path / "gems.csv"   # a publisher's list: the catalogue is named by the file
    other.write_text(GEMS_CSV.replace("ruby,red,3", "ruby,red,7"))
    swapped = rulespec.load(folder, components=other)
    s = swapped.initial_state()
    for text in ["take ruby", "take garnet"]:
        s = swapped.apply(s, swapped.action_from_str(s, text))
    assert swapped.scores(s) == [8]
    (folder / "gems.csv").write_text(GEMS_CSV + "opal,red,1,,\n")
    with pytest.raises(TraceError, match="has changed since"):   # the data is in the hash
        trace_model(Trace.of(model, 1, []))


@pytest.mark.parametrize("rows, line, says", [
    (GEMS_CSV.replace("sapphire,blue,2", "sapphire,blue,two"), 3,
     "in gems entry 'sapphire': 'points' must be an integer, got \"two\""),
    (GEMS_CSV.replace("colour,points", "colour,weight"), 1, "unknown column 'weight'"),
    (GEMS_CSV.replace("garnet,red,1,the test's rules sheet,", "garnet,red,1,,"), 4,
     "in gems entry 'garnet': no provenance"),
    (GEMS_CSV.replace("sapphire,blue,2", "sapphire,green,2"), 3, "'colour' must be one of"),
    (GEMS_CSV + "ruby,red,1,x,\n", 5, "a second row for 'ruby'"),
    (GEMS_CSV.replace("garnet,red,1,", "garnet,red,"), 4, "4 cells, not 5"),
])
def test_a_bad_csv_catalogue_is_one_line_naming_its_row(tmp_path, rows, line, says):
    folder = _csv_game(tmp_path / "gems", rows)
    with pytest.raises(SpecError) as err:
        load_spec(folder)
    text = str(err.value)
    assert f"gems.csv:{line}:" in text and says in text, text


def test_a_csv_components_file_naming_another_catalogue_is_refused(tmp_path):
    other = tmp_path / "jewels.csv"
    other.write_text(GEMS_CSV)
    with pytest.raises(SpecError, match="catalogue 'jewels' is not one the spec declares"):
        load_spec(_game(tmp_path / "gems"), components=other)


def test_a_value_derived_from_a_record_keeps_its_entry():
    """``derived(len(...), record)``, as a spec writes a count Python does not trace, keeps
    the record's entry (tags_of looks into records)."""
    import attrs

    from rulespec.ir.assumed import Assumed, derived
    from rulespec.spec.components import _tagged

    @attrs.frozen
    class Gem:
        colour: str
        points: int
    ruby = _tagged(Gem("red", 3), frozenset({Assumed("gems", "ruby")}))
    assert {str(t) for t in tags_of(ruby)} == {"gems[ruby]"}
    assert {str(t) for t in tags_of(derived(len(ruby.colour), ruby))} == {"gems[ruby]"}
