"""Every bad input gets exit 2 and one clear line on stderr, never a traceback (issue 9).

The corpus below covers specs, trace files, scenario files and command-line options; each
case asserts the exit code, the one line, a phrase that says what is wrong, and that no
traceback is printed. The trace and scenario loaders are also fuzzed with Hypothesis.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulespec.check.scenario import ScenarioFile, ScenarioFileError, load_scenario_file
from rulespec.cli import main
from rulespec.runtime.trace import Trace, TraceError, load_trace, trace_from_json

GOOD_TRACE = {"format": "rulespec-trace/1", "game": "tic_tac_toe", "players": 2,
              "interpretation": {}, "actions": ["mark(0,0)", "mark(1,1)"]}
SPEC_HEAD = ("from rulespec.spec import Game\n"
             "game = Game('b', title='b', players=1, source='s')\n")
SPEC_TAIL = ("x = game.field('x', range(0, 3), source='s')\n"
             "@game.action(source='s')\n"
             "def step(rule):\n"
             "    rule.require(x < 2, 'room', source='s')\n"
             "    rule.set(x, x + 1)\n"
             "game.current_player(0, source='s')\n"
             "game.terminal(x == 2, source='s')\n"
             "game.max_steps(3, source='s')\n"
             "game.score(lambda p: x, source='s')\n"
             "SPEC = game.build()\n")
SCENARIO_HEAD = 'game = "tic_tac_toe"\n[[scenario]]\nname = "n"\nsource = "s"\n'


def _trace(**changes):
    data = dict(GOOD_TRACE)
    for k, v in changes.items():
        if v is _DROP:
            data.pop(k, None)
        else:
            data[k] = v
    return json.dumps(data)


_DROP = object()

# (name, files to write {name: text or bytes}, argv with {tmp} for the folder, phrase in the error)
CASES = [
    # --- specs ------------------------------------------------------------------------
    ("unknown game", {}, ["check", "no_such_game"], "unknown game 'no_such_game'"),
    ("a 100,000-character game name", {}, ["check", "g" * 100_000], "(100000 characters)"),
    ("a game name with a NUL byte", {}, ["info", "a\x00b"], "unknown game"),
    ("a folder without spec.py", {"empty/x.txt": "x"}, ["check", "{tmp}/empty"],
     "is a folder without a spec.py: not a spec"),
    ("a text file as the game", {"rules.txt": "x"}, ["check", "{tmp}/rules.txt"],
     "exists but is not a spec"),
    ("a binary file as the game", {"game.bin": bytes(range(256))}, ["check", "{tmp}/game.bin"],
     "exists but is not a spec"),
    ("an empty folder as the game", {"empty/": None}, ["info", "{tmp}/empty"],
     "is a folder without a spec.py"),
    ("a name that is nothing", {}, ["info", "no_such_game"], "unknown game 'no_such_game'"),
    ("syntax error with its line", {"s.py": "x = 1\ny = (\nz = 3 +\n"},
     ["check", "{tmp}/s.py"], "s.py:2: SyntaxError"),
    ("a spec that calls sys.exit(5)", {"s.py": "import sys\nsys.exit(5)\n"},
     ["check", "{tmp}/s.py"], "called exit(5)"),
    ("a spec that calls sys.exit(0)", {"s.py": "import sys\nsys.exit(0)\n"},
     ["play", "{tmp}/s.py"], "called exit(0)"),
    ("a spec that calls exit with a message", {"s.py": "raise SystemExit('bye')\n"},
     ["info", "{tmp}/s.py"], "called exit('bye')"),
    ("a spec that raises RuntimeError", {"s.py": "x = 1\nraise RuntimeError('boom')\n"},
     ["check", "{tmp}/s.py"], "s.py:2: in raise RuntimeError('boom'): RuntimeError: boom"),
    ("a spec that raises KeyError", {"s.py": "d = {}\nd['k']\n"}, ["check", "{tmp}/s.py"],
     "KeyError"),
    ("a spec that imports a missing module", {"s.py": "import no_such_module_xyz\n"},
     ["check", "{tmp}/s.py"], "ModuleNotFoundError"),
    ("a spec that recurses forever", {"s.py": "def f():\n    return f()\nf()\n"},
     ["check", "{tmp}/s.py"], "RecursionError"),
    ("a spec that raises GeneratorExit", {"s.py": "raise GeneratorExit\n"},
     ["check", "{tmp}/s.py"], "GeneratorExit"),
    ("a spec without SPEC", {"s.py": "x = 1\n"}, ["check", "{tmp}/s.py"], "SPEC = game.build()"),
    ("a spec whose SPEC is not a spec", {"s.py": "SPEC = 42\n"}, ["check", "{tmp}/s.py"],
     "SPEC = game.build()"),
    ("an empty spec file", {"s.py": ""}, ["check", "{tmp}/s.py"], "SPEC = game.build()"),
    ("a binary spec file", {"s.py": b"\x00\x01\x02binary\xff"}, ["check", "{tmp}/s.py"],
     "s.py"),
    ("a spec that is not UTF-8", {"s.py": b"x = '\xff\xfe'\n"}, ["check", "{tmp}/s.py"],
     "s.py"),
    ("a constant invariant", {"s.py": SPEC_HEAD + "game.invariant('x', True, source='s')\n"},
     ["check", "{tmp}/s.py"], "not the constant True"),
    ("an unbounded int field", {"s.py": SPEC_HEAD + "x = game.field('x', int, source='s')\n"},
     ["check", "{tmp}/s.py"], "s.py:3"),
    ("a spec that reads a missing file", {"s.py": "open('/no/such/data.csv')\n"},
     ["check", "{tmp}/s.py", "--json"], "FileNotFoundError"),
    # --- command-line options ---------------------------------------------------------
    ("--examples 0", {}, ["check", "tic_tac_toe", "--examples", "0"], "'--examples'"),
    ("--examples many", {}, ["check", "tic_tac_toe", "--examples", "many"], "'--examples'"),
    ("--workers 0", {}, ["check", "tic_tac_toe", "--workers", "0"], "'--workers'"),
    ("--seed x", {}, ["check", "tic_tac_toe", "--seed", "x"], "'--seed'"),
    ("--players 7", {}, ["check", "tic_tac_toe", "--players", "7"], "2-2 players"),
    ("--players abc", {}, ["play", "tic_tac_toe", "--players", "abc"], "'--players'"),
    ("play --players 3", {}, ["play", "tic_tac_toe", "--players", "3"], "not 3"),
    ("--property nope", {}, ["check", "tic_tac_toe", "--property", "nope"], "no property 'nope'"),
    ("unknown interpretation point", {}, ["play", "tic_tac_toe", "--interpretation", "x=y"],
     "no interpretation point 'x'"),
    ("interpretation without =", {}, ["play", "tic_tac_toe", "--interpretation", "nonsense"],
     "NAME=OPTION"),
    ("unknown interpretation option", {},
     ["play", "hawaii", "--interpretation", "beach_return=maybe"], "no option 'maybe'"),
    ("the same interpretation point twice", {},
     ["play", "hawaii", "--interpretation", "beach_return=free",
      "--interpretation", "beach_return=forbidden"], "given twice"),
    ("the same point twice in one option", {},
     ["check", "hawaii", "--interpretation", "beach_return=free,beach_return=forbidden"],
     "given twice"),
    ("diff of a reading with itself", {},
     ["diff", "hawaii", "--interpretation", "beach_return=free", "--against",
      "beach_return=free"], "the two readings are the same"),
    ("diff without --against", {}, ["diff", "hawaii", "--interpretation", "beach_return=free"],
     "--against"),
    ("diff --depth 0", {}, ["diff", "hawaii", "--interpretation", "beach_return=free",
                            "--against", "beach_return=forbidden", "--depth", "0"], "'--depth'"),
    ("diff with a conflicting repeat", {},
     ["diff", "hawaii", "--interpretation", "beach_return=free", "--interpretation",
      "beach_return=forbidden", "--against", "beach_return=free"], "given twice"),
    ("--players twice", {}, ["check", "hawaii", "--players", "2", "--players", "3"],
     "--players is given 2 times (2, 3)"),
    ("--seed twice with =", {}, ["play", "tic_tac_toe", "--seed=1", "--seed=2"],
     "--seed is given 2 times"),
    ("no such command", {}, ["frobnicate"], "No such command"),
    ("check without a game", {}, ["check"], "GAME"),
    ("an unknown option", {}, ["check", "tic_tac_toe", "--frobnicate"], "--frobnicate"),
    ("info --action nope", {}, ["info", "tic_tac_toe", "--action", "nope"], "no action 'nope'"),
    ("info of an unknown game", {}, ["info", "nope"], "unknown game 'nope'"),
    # --- trace files --------------------------------------------------------------------
    ("a missing trace", {}, ["replay", "{tmp}/none.json"], "no such trace file"),
    ("a folder as the trace", {"d/x": "x"}, ["replay", "{tmp}/d"], "is a folder"),
    ("a binary trace", {"t.json": bytes(range(256))}, ["replay", "{tmp}/t.json"], "not UTF-8"),
    ("a trace of NUL bytes", {"t.json": b"\x00" * 64}, ["replay", "{tmp}/t.json"],
     "not valid JSON"),
    ("an empty trace", {"t.json": ""}, ["replay", "{tmp}/t.json"], "not valid JSON"),
    ("a trace that is not JSON", {"t.json": "{game: 1"}, ["replay", "{tmp}/t.json"],
     "t.json:1: not valid JSON"),
    ("a trace that is a list", {"t.json": "[1, 2]"}, ["replay", "{tmp}/t.json"],
     "must be a JSON object"),
    ("JSON nested too deeply", {"t.json": "[" * 100_000 + "]" * 100_000},
     ["replay", "{tmp}/t.json"], "t.json"),
    ("'violates' a string", {"t.json": _trace(violates="x")}, ["replay", "{tmp}/t.json"],
     "'violates' must be an object"),
    ("'violates' a list", {"t.json": _trace(violates=[1])}, ["replay", "{tmp}/t.json"],
     "'violates' must be an object"),
    ("'violates' without a property", {"t.json": _trace(violates={"message": "m"})},
     ["replay", "{tmp}/t.json"], "'violates' needs"),
    ("'players': true", {"t.json": _trace(players=True)}, ["replay", "{tmp}/t.json"],
     "'players' must be a positive integer"),
    ("'players' a string", {"t.json": _trace(players="2")}, ["replay", "{tmp}/t.json"],
     "'players' must be a positive integer"),
    ("'players': 0", {"t.json": _trace(players=0)}, ["replay", "{tmp}/t.json"],
     "'players' must be a positive integer"),
    ("'players' a float", {"t.json": _trace(players=2.0)}, ["replay", "{tmp}/t.json"],
     "'players' must be a positive integer"),
    ("'players' out of range", {"t.json": _trace(players=7)}, ["replay", "{tmp}/t.json"],
     "7 players is outside 2-2"),
    ("'actions' not a list", {"t.json": _trace(actions="mark(0,0)")},
     ["replay", "{tmp}/t.json"], "'actions' must be a list"),
    ("'actions' with a number", {"t.json": _trace(actions=[1])}, ["replay", "{tmp}/t.json"],
     "'actions' must be a list"),
    ("'game' missing", {"t.json": _trace(game=_DROP)}, ["replay", "{tmp}/t.json"],
     "'game' must be"),
    ("'game' a number", {"t.json": _trace(game=3)}, ["replay", "{tmp}/t.json"],
     "'game' must be"),
    ("an unknown game in a trace", {"t.json": _trace(game="nope")}, ["replay", "{tmp}/t.json"],
     "not bundled"),
    ("a 100,000-character game in a trace", {"t.json": _trace(game="g" * 100_000)},
     ["replay", "{tmp}/t.json"], "not bundled"),
    ("an unknown action text", {"t.json": _trace(actions=["mark(9,9)"])},
     ["replay", "{tmp}/t.json"], "step 1"),
    ("an illegal step", {"t.json": _trace(actions=["mark(0,0)", "mark(0,0)"])},
     ["replay", "{tmp}/t.json"],
     "step 2: refused: mark(0,0) requires: the cell is empty — but board[0][0] is x"),
    ("'interpretation' a list", {"t.json": _trace(interpretation=["a"])},
     ["replay", "{tmp}/t.json"], "'interpretation' must be"),
    ("an unknown interpretation point", {"t.json": _trace(interpretation={"x": "y"})},
     ["replay", "{tmp}/t.json"], "no interpretation point 'x'"),
    ("an unknown key", {"t.json": _trace(colour="red")}, ["replay", "{tmp}/t.json"],
     "unknown key 'colour' in a trace"),
    ("a wrong format", {"t.json": _trace(format="other/2")}, ["replay", "{tmp}/t.json"],
     "'format' must be"),
    ("a relative spec path", {"t.json": _trace(spec_path="x/spec.py", spec_sha256="0" * 64)},
     ["replay", "{tmp}/t.json"], "is relative"),
    ("a spec path that is gone", {"t.json": _trace(spec_path="/no/such/spec.py",
                                                   spec_sha256="0" * 64)},
     ["replay", "{tmp}/t.json"], "is gone"),
    ("a spec path without its hash", {"t.json": _trace(spec_path="/no/such/spec.py")},
     ["replay", "{tmp}/t.json"], "without its SHA-256"),
    ("a malformed spec hash", {"t.json": _trace(spec_sha256="abc")},
     ["replay", "{tmp}/t.json"], "'spec_sha256' must be"),
    ("a trace far too large", {"t.json": None}, ["replay", "{tmp}/t.json"], "too large"),
    ("a device as the trace", {}, ["replay", "/dev/zero"], "not a regular file"),
    # --- scenario files -----------------------------------------------------------------
    ("a missing scenario file", {}, ["scenario", "{tmp}/none.toml"], "no such file"),
    ("a folder as a scenario file", {"d/x": "x"}, ["scenario", "{tmp}/d"], "is a folder"),
    ("a binary scenario file", {"s.toml": bytes(range(256))}, ["scenario", "{tmp}/s.toml"],
     "not UTF-8"),
    ("a scenario file that is not TOML", {"s.toml": "game = \n"}, ["scenario", "{tmp}/s.toml"],
     "not valid TOML"),
    ("a scenario file without a game", {"s.toml": "[[scenario]]\nname='x'\n"},
     ["scenario", "{tmp}/s.toml"], "missing 'game'"),
    ("a scenario with players = true", {"s.toml": SCENARIO_HEAD + "players = true\n"
                                        "[scenario.then]\nterminal = false\n"},
     ["scenario", "{tmp}/s.toml"], "'players' must be an integer"),
    ("a scenario with an unknown key", {"s.toml": SCENARIO_HEAD + "colour = 1\n"},
     ["scenario", "{tmp}/s.toml"], "unknown key 'colour'"),
    ("TOML nested too deeply", {"s.toml": "x = " + "[" * 50_000 + "]" * 50_000 + "\n"},
     ["scenario", "{tmp}/s.toml"], "s.toml"),
    ("a scenario file far too large", {"s.toml": None}, ["scenario", "{tmp}/s.toml"],
     "too large"),
    ("a device as a scenario file", {}, ["scenario", "/dev/zero"], "not a regular file"),
]


def _materialise(tmp: Path, files: dict) -> None:
    for name, content in files.items():
        path = tmp / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if name.endswith("/"):  # an empty folder
            path.mkdir(exist_ok=True)
        elif content is None:  # a sparse file far larger than any trace or scenario file
            with open(path, "wb") as fh:
                fh.truncate(64 * 1024 * 1024)
        elif isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")


def run_cli(capsys, argv):
    with pytest.raises(SystemExit) as done:
        main(argv)
    cap = capsys.readouterr()
    return done.value.code, cap.out, cap.err


def test_the_corpus_is_large_and_its_names_unique():
    assert len(CASES) >= 60
    assert len({c[0] for c in CASES}) == len(CASES)


def test_a_bundled_game_without_scenarios_is_bad_input(capsys, tmp_path, monkeypatch):
    # every bundled game has scenario files: a folder of bundled games with one that has none
    from rulespec.runtime import registry
    (tmp_path / "bare").mkdir()
    (tmp_path / "bare" / "spec.py").write_text("")
    monkeypatch.setattr(registry, "models_dir", lambda: tmp_path)
    code, out, err = run_cli(capsys, ["scenario", "bare"])
    assert code == 2, (out, err)
    assert err.startswith("rulespec: error: bare has no scenario files") and err.count("\n") == 1


@pytest.mark.parametrize("name, files, argv, phrase", CASES, ids=[c[0] for c in CASES])
def test_bad_input_exits_2_with_one_clear_line(capsys, tmp_path, name, files, argv, phrase):
    _materialise(tmp_path, files)
    code, out, err = run_cli(capsys, [a.replace("{tmp}", str(tmp_path)) for a in argv])
    assert code == 2, (out, err)
    assert "Traceback" not in out + err
    assert err.startswith("rulespec: error: "), err
    assert err.count("\n") == 1, err
    assert phrase in err, err
    assert len(err) < 2100


def test_a_spec_that_exits_does_not_set_the_exit_code_of_the_installed_command(tmp_path):
    spec = tmp_path / "s.py"
    spec.write_text("import sys\nsys.exit(5)\n")
    done = subprocess.run([sys.executable, "-m", "rulespec.cli", "check", str(spec)],
                          capture_output=True, text=True)
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


def test_a_spec_that_prints_does_not_spoil_the_json_on_stdout(capsys, tmp_path):
    spec = tmp_path / "s.py"
    spec.write_text("print('hello from the spec')\n" + SPEC_HEAD + SPEC_TAIL)
    code, out, err = run_cli(capsys, ["check", str(spec), "--json", "--examples", "5",
                                      "--trace-dir", str(tmp_path)])
    assert code == 0
    assert json.loads(out)["game"] == "b"
    assert "hello from the spec" in err


# --- fuzzing the loaders ----------------------------------------------------------------
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=12)


def _near_trace():
    """Valid traces with one key replaced, dropped or added: the loader's edges."""
    keys = sorted(GOOD_TRACE) + ["violates", "spec_path", "spec_sha256", "extra"]
    return st.builds(lambda k, v, drop: {**{kk: vv for kk, vv in GOOD_TRACE.items()
                                            if not (drop and kk == k)},
                                         **({} if drop else {k: v})},
                     st.sampled_from(keys), json_values, st.booleans())


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(json_values, _near_trace()))
def test_fuzz_trace_from_json_gives_a_trace_or_one_trace_error(data):
    try:
        trace = trace_from_json(data, "fuzz.json")
    except TraceError as err:
        assert "\n" not in str(err) and str(err).startswith("fuzz.json: ")
    else:
        assert isinstance(trace, Trace) and type(trace.players) is int


@settings(max_examples=100, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(st.binary(max_size=200) | st.text(max_size=200).map(str.encode))
def test_fuzz_load_trace_on_any_bytes(tmp_path, content):
    path = tmp_path / "fuzz.json"
    path.write_bytes(content)
    try:
        load_trace(path)
    except TraceError as err:
        assert "\n" not in str(err)


def _toml_value(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return repr(v)
    if isinstance(v, str):
        return json.dumps(v)
    if isinstance(v, list):
        return "[" + ", ".join(_toml_value(x) for x in v) + "]"
    return "{ " + ", ".join(f"{json.dumps(k)} = {_toml_value(x)}" for k, x in v.items()) + " }"


toml_values = st.recursive(
    st.booleans() | st.integers(-5, 20) | st.sampled_from(
        ["mark(0,0)", "mark(1,1)", "chance", "x", "", "board[0][0]", "1/3", "tic_tac_toe"]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(
        st.sampled_from(["board", "board[1][1]", "mark(0,0)", "actions", "winners", "x"]),
        inner, max_size=3),
    max_leaves=8)
SCENARIO_KEYS = ["name", "source", "players", "interpretation", "given", "when", "then", "x"]
SECTION_KEYS = {"given": ["actions", "edits", "x"], "when": ["actions", "x"],
                "then": ["legal", "illegal", "illegal_because", "only_legal", "refused",
                         "refused_because", "fields", "scores", "winners", "terminal",
                         "current_player", "outcomes", "x"]}


@st.composite
def scenario_texts(draw):
    """Scenario files close to valid ones: the right keys, arbitrary small values."""
    game = draw(st.sampled_from(['"tic_tac_toe"', '"nope"', "3"]))
    lines = [f"game = {game}"]
    for _ in range(draw(st.integers(0, 2))):
        lines.append("[[scenario]]")
        lines.append(f'name = {_toml_value(draw(st.text(max_size=5)))}')
        lines.append('source = "s"')
        for key in draw(st.lists(st.sampled_from(SCENARIO_KEYS[2:4]), max_size=2, unique=True)):
            lines.append(f"{key} = {_toml_value(draw(toml_values))}")
        for section, keys in SECTION_KEYS.items():
            if draw(st.booleans()):
                lines.append(f"[scenario.{section}]")
                for key in draw(st.lists(st.sampled_from(keys), max_size=3, unique=True)):
                    lines.append(f"{key} = {_toml_value(draw(toml_values))}")
    return "\n".join(lines) + "\n"


@settings(max_examples=200, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(scenario_texts() | st.text(max_size=120))
def test_fuzz_scenario_loader_gives_a_file_or_one_scenario_file_error(tmp_path, text):
    path = tmp_path / "fuzz.toml"
    path.write_text(text, encoding="utf-8")
    try:
        sf = load_scenario_file(path)
    except ScenarioFileError as err:
        assert "\n" not in str(err) and str(err).startswith(str(path))
    else:
        assert isinstance(sf, ScenarioFile)


@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(_near_trace())
def test_fuzz_replay_exits_0_1_or_2_without_a_traceback(capsys, tmp_path, data):
    path = tmp_path / "fuzz.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    code, out, err = run_cli(capsys, ["replay", str(path), "--quiet"])
    assert code in (0, 1, 2)
    assert "Traceback" not in out + err
    if code == 2:
        assert err.count("\n") == 1
