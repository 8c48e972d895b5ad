"""The trust boundary of issue 26: data files never run code or write outside their folder,
no write error loses a verdict, every bad output refused before the work starts, conform
cannot be fooled, refusals say what failed (docs/security.md).

A *trap* spec writes a marker file when it is imported: every test that must not run code
asserts the marker is absent. Full disks are small tmpfs mounts (we run as root in CI);
read-only folders are read-only mounts as root, chmod 555 otherwise.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

import rulespec
from rulespec.cli import main
from rulespec.formats.files import clean_stale

FIXTURES = Path(__file__).parent / "fixtures"
HOSTILE = FIXTURES / "hostile"
TWO = FIXTURES / "two_readings"


def run(capsys, *argv):
    with pytest.raises(SystemExit) as e:
        main(list(map(str, argv)))
    out, err = capsys.readouterr()
    return e.value.code, out, err


def one_line_exit_2(code, out, err):
    assert code == 2, (out, err)
    assert "Traceback" not in out + err
    assert err.startswith("rulespec: error: ") and err.count("\n") == 1, err


# --- a spec that says when it runs ---------------------------------------------------------
def make_trap(tmp: Path) -> tuple[Path, str, Path]:
    """A working spec (a copy of two_readings) that writes ``ran`` when imported: its path,
    its SHA-256 and the marker."""
    folder = tmp / "trap"
    folder.mkdir()
    marker = tmp / "ran"
    text = TWO.joinpath("spec.py").read_text(encoding="utf-8")
    (folder / "spec.py").write_text(
        f"open({str(marker)!r}, 'w').write('the trap ran')\n" + text, encoding="utf-8")
    sha = hashlib.sha256((folder / "spec.py").read_bytes()).hexdigest()
    return folder / "spec.py", sha, marker


@pytest.fixture
def trap(tmp_path):
    return make_trap(tmp_path)


def _trace(spec: Path | None, sha: str | None, **extra) -> dict:
    d = {"format": "rulespec-trace/1", "game": "two_readings", "players": 1,
         "actions": ["step"], **extra}
    if spec is not None:
        d["spec_path"] = str(spec)
    if sha is not None:
        d["spec_sha256"] = sha
    return d


def test_a_trace_naming_a_spec_without_its_hash_runs_nothing(capsys, tmp_path, trap):
    spec, sha, marker = trap
    bad = tmp_path / "t.json"
    for doc, words in ((_trace(spec, None), "without its SHA-256"),
                       (_trace(spec, "0" * 64), "has changed since")):
        bad.write_text(json.dumps(doc))
        for command in ("replay", "show"):
            code, out, err = run(capsys, command, bad)
            one_line_exit_2(code, out, err)
            assert words in err
    assert not marker.exists()
    bad.write_text(json.dumps(_trace(spec, sha)))   # the right hash: the spec named runs
    code, out, err = run(capsys, "replay", bad)
    assert code == 0 and marker.exists(), err


def test_a_scenario_naming_a_spec_by_path_runs_nothing_unless_vouched_for(capsys, tmp_path,
                                                                          trap):
    spec, sha, marker = trap
    scen = tmp_path / "s.toml"
    body = ('[[scenario]]\nname = "one step"\nsource = "s"\n[scenario.when]\n'
            'actions = ["step"]\n[scenario.then]\nfields = { pos = 1 }\n')
    for head, words in ((f'game = "{spec}"\n', "without the spec's SHA-256"),
                        (f'game = "{spec}"\nspec_sha256 = "{"0" * 64}"\n', "changed since")):
        scen.write_text(head + body)
        code, out, err = run(capsys, "scenario", scen)
        one_line_exit_2(code, out, err)
        assert words in err
    assert not marker.exists()
    scen.write_text(f'game = "{spec}"\nspec_sha256 = "{sha}"\n' + body)
    code, out, err = run(capsys, "scenario", scen, "--trace-dir", tmp_path)
    assert code == 0 and marker.exists(), err


def test_naming_the_spec_folder_runs_its_scenarios(capsys, tmp_path):
    code, out, err = run(capsys, "scenario", "tests/fixtures/late_reading", "--trace-dir",
                         tmp_path)
    assert code == 0, err
    assert "last_step.toml: 2 passed, 0 failed" in out


def test_diff_from_a_scenario_of_another_spec_is_refused_before_its_code_runs(capsys,
                                                                              tmp_path, trap):
    spec, sha, marker = trap
    scen = tmp_path / "other.toml"
    scen.write_text(f'game = "{spec}"\nspec_sha256 = "{sha}"\n[[scenario]]\nname = "s"\n'
                    'source = "s"\n[scenario.then]\nterminal = false\n')
    code, out, err = run(capsys, "diff", "tests/fixtures/two_readings", "--interpretation",
                         "step_size=one", "--against", "step_size=two", "--from", scen,
                         "--out-dir", tmp_path, "-q")
    one_line_exit_2(code, out, err)
    assert "is a scenario of" in err and "refused before running its code" in err
    assert not marker.exists()


# --- writes stay in their folder and read back ------------------------------------------------
def test_a_hostile_option_name_stays_inside_out_dir_and_the_scenario_reads_back(capsys,
                                                                               tmp_path):
    out_dir = tmp_path / "a" / "b" / "c"
    code, out, err = run(capsys, "diff", HOSTILE, "--interpretation", "step_size=one",
                         "--against", "step_size=../../../x", "--out-dir", out_dir, "-q",
                         "--games", "2", "--json")
    assert code == 1, err
    path = Path(json.loads(out)["scenario_path"])
    assert path.parent == out_dir and path.is_file()
    assert [p for p in tmp_path.rglob("*") if p.is_file()] == [path]
    text = path.read_text(encoding="utf-8")
    data = tomllib.loads(text)
    assert "injected" not in data and "x" not in data   # line breaks stayed in comments
    assert all(not line.startswith("[injected]") for line in text.splitlines())
    from rulespec.check.scenario import run_scenario_file
    assert [r.status for r in run_scenario_file(path)] == ["PASSED", "PASSED"]


def test_a_spec_path_with_a_backslash_is_written_so_that_it_reads_back(capsys, tmp_path):
    folder = tmp_path / "odd\\name \"quoted\""
    shutil.copytree(TWO, folder)
    code, out, err = run(capsys, "diff", folder, "--interpretation", "step_size=one",
                         "--against", "step_size=two", "--out-dir", tmp_path / "out", "-q",
                         "--games", "0", "--json")
    assert code == 1, err
    path = json.loads(out)["scenario_path"]
    assert tomllib.loads(Path(path).read_text())["game"] == str(folder / "spec.py")
    code, out, err = run(capsys, "scenario", path, "--trace-dir", tmp_path)
    assert code == 0, err


def test_the_markdown_and_html_reports_escape_spec_text(capsys, tmp_path):
    code, out, err = run(capsys, "report", HOSTILE, "-o", tmp_path, "-q")
    assert code == 0, err
    md = (tmp_path / "hostile.md").read_text(encoding="utf-8")
    html = (tmp_path / "hostile.html").read_text(encoding="utf-8")
    assert "<script>" not in md and "&lt;script&gt;" in md
    assert "<script>alert" not in html
    assert "\\*\\*bold\\*\\*" in md   # the title's Markdown is text, not markup


def test_a_game_named_like_a_path_writes_its_report_inside_out_dir(capsys, tmp_path):
    """A spec's name must be an identifier (refused at load otherwise); the report's files
    take a slug of it all the same, and the index links the files as written."""
    folder = tmp_path / "spec"
    folder.mkdir()
    text = HOSTILE.joinpath("spec.py").read_text(encoding="utf-8")
    (folder / "spec.py").write_text(text.replace('Game("hostile"', 'Game("../../x/hostile"'),
                                    encoding="utf-8")
    code, out, err = run(capsys, "report", folder, "-o", tmp_path / "refused", "-q")
    one_line_exit_2(code, out, err)
    assert "must be an identifier" in err and not (tmp_path / "refused").exists()
    code, out, err = run(capsys, "report", HOSTILE, "-o", tmp_path / "first", "-q")
    assert code == 0, err
    doc = json.loads((tmp_path / "first" / "hostile.json").read_text(encoding="utf-8"))
    doc["game"]["name"] = "../../x/hostile"
    from rulespec.report.render import write_report
    out_dir = tmp_path / "a" / "b"
    written = write_report(doc, out_dir)
    assert all(p.resolve().is_relative_to(out_dir) for p in written)
    assert sorted(p.name for p in out_dir.glob("*.json")) == ["x-hostile.json"]
    index = (out_dir / "index.html").read_text(encoding="utf-8")
    for kind in ("html", "md", "json"):
        assert f'href="x-hostile.{kind}"' in index and (out_dir / f"x-hostile.{kind}").is_file()


# --- outputs checked before the work ---------------------------------------------------------
@pytest.fixture
def read_only(tmp_path):
    """A folder nothing can be written in (a read-only mount as root)."""
    folder = tmp_path / "ro"
    folder.mkdir()
    if os.geteuid() == 0:
        done = subprocess.run(["mount", "-t", "tmpfs", "-o", "ro,size=64k", "tmpfs",
                               str(folder)], capture_output=True)
        if done.returncode != 0:
            pytest.skip(f"cannot mount a read-only tmpfs: {done.stderr.decode().strip()}")
        yield folder
        subprocess.run(["umount", str(folder)], check=True)
    else:
        folder.chmod(0o555)
        yield folder
        folder.chmod(0o755)


@pytest.fixture
def full_disk(tmp_path):
    """A tmpfs with one free page: a one-byte probe fits, a report or a second picture does
    not."""
    if os.geteuid() != 0:
        pytest.skip("a full disk is a tmpfs mount: needs root")
    disk = tmp_path / "disk"
    disk.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(disk)],
                          capture_output=True)
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs: {done.stderr.decode().strip()}")
    (disk / "filler").write_bytes(b"\0" * (64 * 1024 - 4096))
    yield disk
    subprocess.run(["umount", str(disk)], check=True)


def _saved_trace(tmp_path) -> Path:
    path = tmp_path / "game.json"
    assert subprocess.run([sys.executable, "-m", "rulespec.cli", "play", "tic_tac_toe",
                           "--save", str(path)], capture_output=True).returncode == 0
    return path


WRITING = {   # each writing command, with its output option pointing at {out}
    "check": ["check", "tic_tac_toe", "--examples", "2", "--trace-dir", "{out}"],
    "prove": ["prove", "tic_tac_toe", "--trace-dir", "{out}"],
    "diff": ["diff", str(TWO), "--interpretation", "step_size=one", "--against",
             "step_size=two", "--out-dir", "{out}"],
    "conform": ["conform", "connect_four", "--impl",
                "tests/fixtures/conform/connect_four_impl.py:connect_four", "--trace-dir",
                "{out}"],
    "scenario": ["scenario", "tic_tac_toe", "--trace-dir", "{out}"],
    "report": ["report", "tic_tac_toe", "-o", "{out}"],
    "play --svg": ["play", "tic_tac_toe", "--svg", "{out}"],
    "play --save": ["play", "tic_tac_toe", "--save", "{out}/t.json"],
    "replay --svg": ["replay", "{trace}", "--svg", "{out}"],
    "show -o": ["show", "{trace}", "-o", "{out}/s.svg"],
}


@pytest.mark.parametrize("name", list(WRITING))
def test_every_writing_command_refuses_an_unwritable_output_before_any_work(
        capsys, tmp_path, read_only, name):
    trace = _saved_trace(tmp_path) if "{trace}" in WRITING[name] else None
    argv = [a.replace("{out}", str(read_only)).replace("{trace}", str(trace))
            for a in WRITING[name]]
    code, out, err = run(capsys, *argv, *([] if name.startswith(("play", "show")) else ["-q"]))
    one_line_exit_2(code, out, err)
    assert out == "" and str(read_only) in err


@pytest.mark.parametrize("name", list(WRITING))
def test_an_output_that_is_a_file_is_refused_before_any_work(capsys, tmp_path, name):
    blocker = tmp_path / "a_file"
    blocker.write_text("x")
    trace = _saved_trace(tmp_path) if "{trace}" in WRITING[name] else None
    argv = [a.replace("{out}", str(blocker)).replace("{trace}", str(trace))
            for a in WRITING[name]]
    code, out, err = run(capsys, *argv)
    one_line_exit_2(code, out, err)
    assert out == ""


def test_report_on_a_full_disk_prints_its_verdicts_then_one_line(capsys, full_disk):
    code, out, err = run(capsys, "report", "tic_tac_toe", "-o", full_disk, "-q")
    assert code == 1
    assert "tic_tac_toe: " in out and "PROVED" in out      # the verdicts are there
    assert "index.html" not in out                          # no claim of what is not there
    lines = [x for x in err.splitlines() if x]
    assert len(lines) == 1 and "could not be written" in lines[0]
    assert "No space left on device" in lines[0] and "Traceback" not in err


def test_replay_and_play_pictures_on_a_full_disk_print_the_verdict_first(capsys, tmp_path,
                                                                         full_disk):
    trace = _saved_trace(tmp_path)
    code, out, err = run(capsys, "replay", trace, "--svg", full_disk / "pics")
    assert code == 1 and "no property is violated on this trace" in out, err
    assert err.count("\n") == 1 and "could not write the pictures" in err
    shutil.rmtree(full_disk / "pics")   # the page the first picture took is free again
    code, out, err = run(capsys, "play", "tic_tac_toe", "--svg", full_disk / "pics")
    assert code == 1 and "winners:" in out and "could not write the pictures" in err
    assert "Traceback" not in err


def test_check_in_a_full_folder_keeps_its_verdicts(capsys, full_disk, monkeypatch):
    monkeypatch.chdir(full_disk)   # the default trace folder: not probed, fails when written
    (full_disk / "pad").write_bytes(b"\0" * 4096)   # not one page left
    code, out, err = run(capsys, "check", str(FIXTURES / "occupied_cell_tic_tac_toe"), "-q")
    assert code == 1 and "VIOLATED" in out
    flat = " ".join(out.split())
    assert "trace not saved: cannot write" in flat and "No space left on device" in flat


def test_a_killed_runs_temporary_files_are_removed_by_the_next_run(capsys, tmp_path):
    stale = tmp_path / ".x.json.4194305.rulespec-tmp"    # above any pid: its writer is gone
    live = tmp_path / f".y.json.{os.getpid()}.rulespec-tmp"
    stale.write_text("half")
    live.write_text("being written")
    code, out, err = run(capsys, "check", FIXTURES / "occupied_cell_tic_tac_toe", "-q",
                         "--trace-dir", tmp_path)
    assert code == 1 and not stale.exists() and live.exists()
    assert clean_stale(tmp_path) == []


# --- conform cannot be fooled ----------------------------------------------------------------
IMPL = '''
import sys
import rulespec
EXIT_AT_IMPORT = {at_import}
if EXIT_AT_IMPORT:
    sys.exit(0)


class Impl:
    def __init__(self, players):
        self.m = rulespec.load("tic_tac_toe")
        self.s = self.m.initial_state(players)
        self.n = 0

    def legal_actions(self):
        print("chatter on stdout")
        return [str(a) for a in self.m.legal_actions(self.s)]

    def apply(self, action):
        self.n += 1
        if self.n == {stop_at}:
            raise {stop}
        self.s = self.m.apply(self.s, self.m.action_from_str(self.s, action))

    def current_player(self):
        return "terminal" if self.m.is_terminal(self.s) else self.m.current_player(self.s)

    def returns(self):
        return self.m.scores(self.s)


class NoPlayer(Impl):
    current_player = None


def make(players):
    return Impl(players)


def no_player(players):
    return NoPlayer(players)
'''


def _impl(tmp_path, *, at_import=False, stop_at=0, stop="SystemExit(0)") -> str:
    path = tmp_path / "impl.py"
    path.write_text(IMPL.format(at_import=at_import, stop_at=stop_at, stop=stop))
    return str(path)


def test_conform_an_implementation_that_exits_at_import_is_an_error(capsys, tmp_path):
    code, out, err = run(capsys, "conform", "tic_tac_toe", "--impl",
                         _impl(tmp_path, at_import=True) + ":make", "--trace-dir", tmp_path)
    one_line_exit_2(code, out, err)
    assert "called exit(0) while being imported" in err


@pytest.mark.parametrize("stop", ["SystemExit(0)", "KeyboardInterrupt()"])
def test_conform_an_implementation_that_stops_mid_game_is_a_finding(capsys, tmp_path, stop):
    code, out, err = run(capsys, "conform", "tic_tac_toe", "--impl",
                         _impl(tmp_path, stop_at=3, stop=stop) + ":make", "--json", "-q",
                         "--examples", "5", "--trace-dir", tmp_path)
    assert code == 1, err
    doc = json.loads(out)    # its prints went to stderr, not into the document
    assert doc["status"] == "VIOLATED"
    said = "called exit(0)" if stop.startswith("SystemExit") else "raised KeyboardInterrupt"
    assert said in doc["disagreement"]["message"]


def test_conform_keeps_an_implementations_prints_off_the_json(capsys, tmp_path):
    code, out, err = run(capsys, "conform", "tic_tac_toe", "--impl", _impl(tmp_path) + ":make",
                         "--json", "-q", "--examples", "3", "--trace-dir", tmp_path)
    assert code == 0, err
    assert json.loads(out)["status"] == "PASSED" and "chatter on stdout" in err


def test_conform_an_adapter_without_a_method_is_refused_before_the_first_game(capsys,
                                                                               tmp_path):
    code, out, err = run(capsys, "conform", "tic_tac_toe", "--impl",
                         _impl(tmp_path) + ":no_player", "--trace-dir", tmp_path)
    one_line_exit_2(code, out, err)
    assert "has no current_player()" in err
    assert not list(tmp_path.glob("*.json"))   # no game played, no trace


# --- refusals that say what failed -----------------------------------------------------------
def test_a_refusal_states_the_requirement_and_the_fact_that_broke_it(capsys, tmp_path):
    game = rulespec.load("tic_tac_toe")
    s = game.apply(game.initial_state(), game.action_from_str(game.initial_state(), "mark(0,0)"))
    with pytest.raises(rulespec.IllegalAction) as e:
        game.apply(s, game.action_from_str(s, "mark(0,0)"))
    assert str(e.value).startswith(
        "refused: mark(0,0) requires: the cell is empty — but board[0][0] is x [tic-tac-toe")
    trace = tmp_path / "t.json"
    trace.write_text(json.dumps({"format": "rulespec-trace/1", "game": "tic_tac_toe",
                                 "players": 2, "actions": ["mark(0,0)", "mark(0,0)"]}))
    code, out, err = run(capsys, "replay", trace)
    one_line_exit_2(code, out, err)
    assert "step 2: refused: mark(0,0) requires: the cell is empty — but board[0][0] is x" in err


def test_play_json_carries_a_replayable_trace_and_save_writes_it(capsys, tmp_path):
    code, out, err = run(capsys, "play", "tic_tac_toe", "--seed", "4", "--json")
    assert code == 0
    path = tmp_path / "from-json.json"
    path.write_text(json.dumps(json.loads(out)["trace"]))
    code, out2, err = run(capsys, "replay", path)
    assert code == 0, err
    saved = tmp_path / "saved.json"
    code, out3, err = run(capsys, "play", "tic_tac_toe", "--seed", "4", "--save", saved)
    assert code == 0 and f"replay it with: rulespec replay {saved}" in err
    assert json.loads(saved.read_text()) == json.loads(out)["trace"]


# --- Ctrl-C at any moment --------------------------------------------------------------------
def test_the_ctrl_c_handler_is_in_place_before_the_heavy_imports():
    probe = ("import signal, sys\n"
             "seen = []\n"
             "real = signal.signal\n"
             "def spy(sig, handler):\n"
             "    if sig == signal.SIGINT:\n"
             "        seen.append(sorted(sys.modules))\n"
             "    return real(sig, handler)\n"
             "signal.signal = spy\n"
             "from rulespec.cli import main\n"
             "sys.argv = ['rulespec', '--version']\n"
             "try:\n"
             "    main()\n"
             "except SystemExit:\n"
             "    pass\n"
             "heavy = [m for m in seen[0] if m.split('.')[0] in ('z3', 'hypothesis', 'rich',\n"
             "         'click', 'jinja2', 'attrs', 'cattrs') or m.startswith(\n"
             "         ('rulespec.runtime', 'rulespec.compile', 'rulespec.spec'))]\n"
             "print(len(seen), heavy)\n")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True)
    assert done.stdout.strip().splitlines()[-1] == "1 []", done.stdout + done.stderr


INTERRUPTED_AT = ("import importlib.abc, os, signal, sys\n"
                  "AT = sys.argv[1]\n"
                  "class Hook(importlib.abc.MetaPathFinder):\n"
                  "    def find_spec(self, name, path, target=None):\n"
                  "        if name == AT:\n"
                  "            sys.meta_path.remove(self)\n"
                  "            sys.stderr.write('fired\\n'); sys.stderr.flush()\n"
                  "            os.kill(os.getpid(), signal.SIGINT)\n"
                  "        return None\n"
                  "sys.meta_path.insert(0, Hook())\n"
                  "sys.argv = ['rulespec', 'info', 'hawaii']\n"
                  "from rulespec.cli import main\n"   # as the installed command starts
                  "main()\n")


@pytest.mark.parametrize("module", ["click", "rich", "cattrs", "rulespec.spec",
                                    "rulespec.runtime.model", "rulespec.cli.app",
                                    "rulespec.properties"])
def test_ctrl_c_while_a_module_is_imported_is_one_line(module):
    """Ctrl-C at a chosen import of the installed command's start (counted, not timed: an
    import hook sends the signal when ``module`` is first imported): one line, exit 130."""
    done = subprocess.run([sys.executable, "-c", INTERRUPTED_AT, module], capture_output=True,
                          text=True, timeout=120)
    assert done.stderr.startswith("fired\n"), done.stderr   # the signal was sent
    assert "Traceback" not in done.stderr, done.stderr
    assert done.returncode == 130, done.stderr
    assert done.stderr.splitlines()[1:] == ["rulespec: interrupted"], done.stderr


STARTED = ("import runpy, sys\n"
           "sys.stderr.write('up\\n'); sys.stderr.flush()\n"   # the interpreter is up
           "sys.argv = ['rulespec', 'info', 'hawaii']\n"
           "runpy.run_module('rulespec.cli', run_name='__main__')\n")


@pytest.mark.parametrize("delay", [0.05, 0.15, 0.3, 0.6])
def test_ctrl_c_early_in_any_command_is_one_line(delay):
    """Wherever it lands once Python is up (before that, the interpreter's own start-up is
    not rulespec's), no traceback: exit 130 with one line. The delays only spread where it
    lands; the assertion holds for any of them."""
    import signal
    import time
    proc = subprocess.Popen([sys.executable, "-c", STARTED], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    assert proc.stderr.readline() == "up\n"
    time.sleep(delay)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=120)
    assert "Traceback" not in err, err
    assert proc.returncode in (130, 0), (proc.returncode, err)
    if proc.returncode == 130:
        assert err.strip().splitlines() == ["rulespec: interrupted"], err


# --- fuzz: every loader, random and mutated input, never a traceback, never code run ----------
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from rulespec.check.scenario import ScenarioFileError, load_game_scenarios, \
    load_scenario_file  # noqa: E402
from rulespec.formats.files import dump_toml  # noqa: E402
from rulespec.runtime.trace import TraceError, load_trace, trace_model  # noqa: E402


@pytest.fixture(scope="module")
def module_trap(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("trap")
    spec, _, marker = make_trap(tmp)
    return spec, marker, tmp


json_trees = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 10) | st.floats(allow_nan=False) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                max_size=4),
    max_leaves=10)
toml_trees = st.recursive(
    st.booleans() | st.integers(-3, 10) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(
        st.sampled_from(["game", "scenario", "then", "when", "given", "actions", "name",
                         "source", "legal", "spec_sha256", "players", "x"]), inner, max_size=4),
    max_leaves=10)
hashes = st.one_of(st.none(), st.sampled_from(["0" * 64, "abc", "f" * 64]),
                   st.text(max_size=70))


def _near_trace(spec: str):
    base = {"format": "rulespec-trace/1", "game": "two_readings", "players": 1,
            "actions": ["step", "step"], "spec_path": spec}
    keys = sorted(base) + ["spec_sha256", "interpretation", "violates", "extra"]
    return st.builds(lambda k, v, sha, drop: {**{kk: vv for kk, vv in base.items()
                                                 if not (drop and kk == k)},
                                              **({} if drop else {k: v}),
                                              **({} if sha is None else {"spec_sha256": sha})},
                     st.sampled_from(keys), json_trees, hashes, st.booleans())


def _near_scenario(spec: str):
    scenario = {"name": "s", "source": "s", "when": {"actions": ["step"]},
                "then": {"fields": {"pos": 1}}}
    return st.builds(
        lambda sha, k, v, game: {"game": game, **({} if sha is None else {"spec_sha256": sha}),
                                 "scenario": [{**scenario, k: v}]},
        hashes, st.sampled_from(["name", "then", "when", "given", "players", "x"]), toml_trees,
        st.sampled_from([spec, "../trap", "trap", "two_readings", "tic_tac_toe"]))


FUZZ = settings(max_examples=150, deadline=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture,
                                       HealthCheck.too_slow])


@FUZZ
@given(data=st.data())
def test_fuzz_every_loader_gives_a_clean_load_or_one_line_and_never_runs_code(module_trap,
                                                                              data):
    spec, marker, tmp = module_trap
    kind = data.draw(st.sampled_from(["trace bytes", "trace tree", "trace near",
                                      "scenario bytes", "scenario tree", "scenario near"]))
    path = tmp / ("fuzz.json" if kind.startswith("trace") else "fuzz.toml")
    if kind.endswith("bytes"):
        path.write_bytes(data.draw(st.binary(max_size=300)))
    elif kind == "trace tree":
        path.write_text(json.dumps(data.draw(json_trees)))
    elif kind == "trace near":
        path.write_text(json.dumps(data.draw(_near_trace(str(spec)))))
    else:
        tree = data.draw(toml_trees if kind == "scenario tree" else _near_scenario(str(spec)))
        path.write_text(dump_toml(tree) if isinstance(tree, dict) else repr(tree))
    try:
        if kind.startswith("trace"):
            trace_model(load_trace(path), str(path))
        elif data.draw(st.booleans()):
            load_scenario_file(path)
        else:
            load_game_scenarios(path, "two_readings")   # what diff --from and mutate use
    except (TraceError, ScenarioFileError, ValueError) as err:
        assert "\n" not in str(err) and str(err).strip(), err
    assert not marker.exists(), "a data file ran the spec it names"


@settings(max_examples=30, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(doc=st.one_of(json_trees, st.builds(dict)))
def test_fuzz_replay_and_show_exit_cleanly_and_run_nothing(capsys, module_trap, doc):
    spec, marker, tmp = module_trap
    path = tmp / "cli.json"
    path.write_text(json.dumps(doc if not isinstance(doc, dict) else
                               {**doc, "spec_path": str(spec), "game": "two_readings"}))
    for command in ("replay", "show"):
        code, out, err = run(capsys, command, path)
        assert code in (0, 1, 2) and "Traceback" not in out + err
        if code == 2:
            assert err.count("\n") == 1
    assert not marker.exists()


# --- the published schemas hold for what rulespec writes ---------------------------------------
SCHEMAS = Path(__file__).parent.parent / "docs" / "formats"


def _validator(name: str):
    import jsonschema
    schema = json.loads((SCHEMAS / f"{name}.schema.json").read_text())
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def test_the_files_rulespec_writes_validate_against_their_published_schemas(capsys, tmp_path):
    traces, scenarios, states = _validator("trace"), _validator("scenario"), _validator("state")
    code, out, err = run(capsys, "check", FIXTURES / "occupied_cell_tic_tac_toe", "-q",
                         "--trace-dir", tmp_path / "t")
    written = list((tmp_path / "t").glob("*.json"))
    assert written
    code, out, err = run(capsys, "diff", TWO, "--interpretation", "step_size=one", "--against",
                         "step_size=two", "--out-dir", tmp_path / "d", "-q", "--games", "3")
    written += [tmp_path / "game.json"]
    run(capsys, "play", "hawaii", "--save", tmp_path / "game.json")
    for path in written:
        traces.validate(json.loads(path.read_text()))
    diffs = list((tmp_path / "d").glob("*.toml"))
    bundled = list((Path(__file__).parent.parent / "models").glob("*/scenarios/*.toml"))
    assert diffs and bundled
    for path in diffs + bundled:
        scenarios.validate(tomllib.loads(path.read_text(encoding="utf-8")))
    for game in rulespec.available_games():
        model = rulespec.load(game)
        states.validate(json.loads(model.initial_state(model.min_players).to_json()))
    # and they are strict: the schema refuses what the loader refuses
    import jsonschema
    with pytest.raises(jsonschema.ValidationError):
        traces.validate({"game": "g", "players": 1, "actions": [], "spec_path": "/x.py"})


def test_scenario_paths_are_shown_relative_so_a_deep_clone_does_not_wrap(capsys, tmp_path,
                                                                         monkeypatch):
    from rulespec.runtime.registry import models_dir
    monkeypatch.chdir(models_dir().parent)
    code, out, err = run(capsys, "scenario", "hawaii", "-q", "--trace-dir", tmp_path)
    assert code == 0, err
    assert str(models_dir()) not in out
    assert out.splitlines()[0].startswith("models/hawaii/scenarios/")
