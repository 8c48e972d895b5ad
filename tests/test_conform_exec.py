"""``rulespec conform --exec`` (issue 31): an implementation in another language, spoken to
in JSON lines. A JavaScript Connect Four (Node) conforms, and each of its planted bugs is
found, shrunk and told in rule terms; a process that misbehaves (hangs, crashes, exits,
writes garbage or answers the wrong request) is a clear result, never a pass; what rulespec
sends and a reference implementation answers validate against the published schema."""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import pytest

import rulespec
from rulespec.check.conform import conform, load_factory
from rulespec.check.conform_exec import ExecDriver
from rulespec.check.results import PASSED, UNKNOWN, VIOLATED
from rulespec.cli import main

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "tests" / "fixtures" / "conform"
NODE = shutil.which("node")
NODE_C4 = f"node {FIXTURES / 'connect_four.js'}"
LINES = f"{sys.executable} {FIXTURES / 'connect_four_lines.py'}"
needs_node = pytest.mark.skipif(
    NODE is None, reason="NODE.JS IS MISSING: the JavaScript reference implementations are "
                         "NOT tested (`make test` installs node; or apt-get install nodejs)")


def run(capsys, *args):
    with pytest.raises(SystemExit) as done:
        main([str(a) for a in args])
    out, err = capsys.readouterr()
    return done.value.code, out, err


def conform_json(capsys, tmp_path, command, *more):
    code, out, err = run(capsys, "conform", "connect_four", "--exec", command, "--json",
                         "-q", "--trace-dir", tmp_path, *more)
    return code, json.loads(out), err


# --- the JavaScript Connect Four -------------------------------------------------------------
@needs_node
@pytest.mark.parametrize("flags", ["", " --ids"])
def test_the_javascript_connect_four_conforms(capsys, tmp_path, flags):
    """With the spec's action texts, or with its own column numbers declared in hello."""
    code, doc, err = conform_json(capsys, tmp_path, NODE_C4 + flags, "--examples", "60")
    assert code == 0, err
    assert doc["status"] == PASSED and doc["games"] >= 60 and doc["steps"] > 60 * 7
    assert doc["disagreement"] is None and not list(tmp_path.glob("*.json"))


PLANTED = {
    # a full column still takes a piece: six drops into one column, then a seventh allowed
    "full-column": ("legal actions", ("drop(0)",) * 6, [
        "after step 6 (drop(0)): the implementation allows drop(0), which the spec forbids: "
        "requires: the column is not full — but height[0] is 6 [Connect Four common rules "
        "(OpenSpiel connect_four.cc): LegalActions: a column whose top cell is empty]"]),
    # the turn stays with the mover after a piece in the last column: one step shows it
    "turn-order": ("player", ("drop(6)",), [
        "after step 1 (drop(6)): by the spec player 1 moves [Connect Four common rules "
        "(OpenSpiel connect_four.cc): players alternate, player 0 first]: drop(6) set to_move "
        "to 1 [Connect Four common rules (OpenSpiel connect_four.cc): players alternate]; the "
        "implementation says player 0"]),
    # a line needs five: the shortest game with a line of four (7 steps) is not over
    "win-off-by-one": ("terminal", 7, [
        "the game is over by the spec [Connect Four common rules (OpenSpiel connect_four.cc): "
        "the game ends on a line of four or a full board (IsFull)]: drop(",
        "set winner to 0 [Connect Four common rules (OpenSpiel connect_four.cc): four in a "
        "row wins (HasLine)]; the implementation goes on (player 1 moves)"]),
}


@needs_node
@pytest.mark.parametrize("bug", sorted(PLANTED))
def test_each_planted_javascript_bug_is_found_shrunk_and_told_in_rule_terms(capsys, tmp_path,
                                                                            bug):
    kind, actions, says = PLANTED[bug]
    code, doc, err = conform_json(capsys, tmp_path, f"{NODE_C4} --bug {bug}")
    assert code == 1, err
    assert doc["status"] == VIOLATED
    found = doc["disagreement"]
    assert found["kind"] == kind
    if isinstance(actions, int):
        assert len(found["actions"]) == actions
    else:
        assert tuple(found["actions"]) == actions
    for text in says:
        assert text in found["message"], found["message"]
    # the spec's side of the minimal game replays as a trace
    saved = json.loads(Path(doc["trace_path"]).read_text())
    assert saved["actions"] == found["actions"]
    code, out, err = run(capsys, "replay", doc["trace_path"], "--json")
    assert code == 0, err


@needs_node
def test_a_javascript_bug_is_told_as_the_python_adapter_tells_it(capsys, tmp_path):
    """The same planted bug (a full column takes a piece) in JavaScript over the protocol and
    in Python in-process: the same minimal game and the same words."""
    model = rulespec.load("connect_four")
    python = conform(model, load_factory(f"{FIXTURES}/connect_four_impl.py:"
                                         "connect_four_off_by_one"))
    with ExecDriver(f"{NODE_C4} --bug full-column", game="connect_four") as js:
        node = conform(model, js)
    assert (node.disagreement.actions, node.disagreement.message) == \
        (python.disagreement.actions, python.disagreement.message)


# --- several steps per round trip ------------------------------------------------------------
def test_several_steps_go_in_one_round_trip():
    """rulespec writes the questions of several steps before it reads a reply."""
    transcript: list = []
    with ExecDriver(LINES, game="connect_four", transcript=transcript) as driver:
        report = conform(rulespec.load("connect_four"), driver, examples=10, mode="random")
    assert report.status == PASSED
    runs, sent = [], 0
    for entry in transcript:
        if entry[0] == "request":
            sent += entry[1]["op"] == "apply"
        elif sent:
            runs.append(sent)
            sent = 0
    assert max(runs) >= 8                       # a whole batch of steps in one write
    round_trips = len(runs)
    assert round_trips * 4 < report.steps       # far fewer round trips than states


# --- a misbehaving process is a clear result, never a pass -----------------------------------
MIDGAME = {
    "--hang": (UNKNOWN, "timeout", "after step 2 (drop(0)): the implementation did not answer "
                                   "apply drop(0) within 1 s (the safety limit, --timeout) and "
                                   "was stopped"),
    "--exit": (VIOLATED, "exited", "the implementation exited with code 0 before answering "
                                   "apply drop(0)"),
    "--crash": (VIOLATED, "exited", "exited with code 1 before answering apply drop(0); its "
                                    "stderr ends: RuntimeError: the board broke on drop(0)"),
    "--garbage": (VIOLATED, "protocol", "the implementation wrote 'debug: applying drop(0)' "
                                        "instead of a JSON reply to apply drop(0) (stdout "
                                        "carries replies only"),
    "--wrong-id": (VIOLATED, "protocol", "answered apply drop(0) (request"),
    "--error": (VIOLATED, "raised", "the implementation answered apply drop(0) with the error "
                                    "'column jammed' on drop(0), which the spec allows (rule "
                                    "drop ["),
    "--bad-player": (VIOLATED, "protocol", 'answered current_player with "banana", which is '
                                           'not a player (0 to 1, "chance" or "terminal")'),
}


#: the safety limit for a process that never answers; every other case gets a generous one,
#: so that a slow start on a busy machine is never taken for a hang
HANG_LIMIT, GENEROUS = "1", "120"


@pytest.mark.parametrize("switch", sorted(MIDGAME))
def test_a_process_that_misbehaves_mid_game_is_a_finding(capsys, tmp_path, switch):
    status, kind, says = MIDGAME[switch]
    code, doc, err = conform_json(capsys, tmp_path, f"{LINES} {switch}", "--examples", "5",
                                  "--timeout", HANG_LIMIT if switch == "--hang" else GENEROUS)
    assert code == 1, err              # never a pass
    assert doc["status"] == status
    found = doc["disagreement"]
    assert found["kind"] == kind and says in found["message"], found["message"]
    assert len(found["actions"]) <= 3   # the third action of a game is where it fires


def test_its_own_action_names_declared_as_a_mapping(capsys, tmp_path):
    """hello's "actions" object: its legal actions and rulespec's applies are its names."""
    transcript: list = []
    with ExecDriver(f"{LINES} --named", game="connect_four", transcript=transcript) as d:
        report = conform(rulespec.load("connect_four"), d, examples=10)
    assert report.status == PASSED
    applied = {e[1]["action"] for e in transcript if e[0] == "request" and e[1]["op"] == "apply"}
    assert applied and all(a.startswith("c") for a in applied)


def test_a_chatty_stderr_neither_blocks_nor_counts(capsys, tmp_path):
    code, doc, err = conform_json(capsys, tmp_path, f"{LINES} --noise", "--examples", "5")
    assert code == 0 and doc["status"] == PASSED


def test_a_hung_process_is_stopped():
    with ExecDriver(f"{LINES} --hang", game="connect_four", timeout=1) as driver:
        report = conform(rulespec.load("connect_four"), driver, examples=3)
        process = driver._process
    assert report.status == UNKNOWN and "no verdict" in report.detail
    assert process is None or process.proc.poll() is not None


BEFORE_THE_FIRST_GAME = {
    f"{LINES} --banner": "before the first game, the implementation wrote 'Connect Four "
                         "engine v1.0 ready' instead of a JSON reply to hello",
    f"{LINES} --no-flush": "the implementation did not answer hello within 1 s",
    f"{LINES} --die-at-start": "the implementation exited with code 3 before answering hello; "
                               "its stderr ends: cannot open the rules database",
    f"{LINES} --old-protocol": "names protocol 0; rulespec speaks 1",
    f"{LINES} --named-twice": "maps two of its actions to one action text of the spec",
    "no-such-program-xyz --flag": "cannot be run: no-such-program-xyz: No such file",
    "'unbalanced": "No closing quotation",
    "": "--exec needs a command",
}


@pytest.mark.parametrize("command", sorted(BEFORE_THE_FIRST_GAME))
def test_a_process_broken_from_the_start_is_one_line_and_exit_2(capsys, tmp_path, command):
    hangs = command.endswith("--no-flush")  # its reply never arrives
    code, out, err = run(capsys, "conform", "connect_four", "--exec", command, "--timeout",
                         HANG_LIMIT if hangs else GENEROUS, "--trace-dir", tmp_path)
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert BEFORE_THE_FIRST_GAME[command] in err, err


def test_impl_and_exec_are_one_or_the_other(capsys):
    for args in ([], ["--impl", "x:y", "--exec", "node x.js"]):
        code, _, err = run(capsys, "conform", "connect_four", *args)
        assert code == 2 and "--impl MODULE:FACTORY or --exec COMMAND" in err
    code, _, err = run(capsys, "conform", "connect_four", "--impl",
                       f"{FIXTURES}/connect_four_impl.py:connect_four", "--timeout", "3")
    assert code == 2 and "--timeout is for --exec" in err


# --- the protocol's schema holds for both sides ----------------------------------------------
def _validators():
    import jsonschema
    schema = json.loads((ROOT / "docs/formats/conform-protocol.schema.json").read_text())
    jsonschema.Draft202012Validator.check_schema(schema)

    def part(ref: str):
        rest = {k: v for k, v in schema.items() if k != "oneOf"}
        return jsonschema.Draft202012Validator({**rest, "$ref": ref})
    values = {op: part(f"#/$defs/ok/{op}") for op in schema["$defs"]["ok"]}
    return (jsonschema.Draft202012Validator(schema), part("#/$defs/request"),
            part("#/$defs/reply"), values.__getitem__)


def _transcript(command: str) -> list:
    transcript: list = []
    with ExecDriver(command, game="connect_four", transcript=transcript) as driver:
        conform(rulespec.load("connect_four"), driver, examples=15)
    return transcript


@pytest.mark.parametrize("command", [
    LINES, pytest.param(NODE_C4, marks=needs_node),
    pytest.param(NODE_C4 + " --ids", marks=needs_node)])
def test_what_rulespec_sends_and_the_reference_answers_fit_the_schema(command):
    line, request, reply, ok = _validators()
    transcript = _transcript(command)
    ops = set()
    for entry in transcript:
        line.validate(entry[1])
        if entry[0] == "request":
            request.validate(entry[1])
            ops.add(entry[1]["op"])
        else:
            reply.validate(entry[1])
            if "ok" in entry[1]:
                ok(entry[2]).validate(entry[1]["ok"])
    assert {"hello", "new_game", "current_player", "legal_actions", "apply",
            "returns"} <= ops


def test_the_schema_refuses_what_rulespec_refuses():
    import jsonschema
    line, request, reply, ok = _validators()
    for bad in ({"id": 1, "ok": None, "error": "x"}, {"id": 1}, {"id": -1, "ok": 2},
                {"id": 1, "ok": None, "extra": 1}):
        with pytest.raises(jsonschema.ValidationError):
            reply.validate(bad)
    with pytest.raises(jsonschema.ValidationError):
        request.validate({"id": 1, "op": "legal_actions", "player": 0})
    with pytest.raises(jsonschema.ValidationError):
        ok("current_player").validate("banana")
    with pytest.raises(jsonschema.ValidationError):
        ok("hello").validate({"protocol": 1, "supports": ["undo"]})


# --- chance outcomes and observations over the protocol --------------------------------------
def test_openspiel_crazy_eights_over_the_protocol_with_chance_and_observations(tmp_path):
    """OpenSpiel's Crazy Eights served over JSON lines: every shuffle and draw is a chance
    outcome rulespec chooses and forces on it, with the probabilities compared, and what
    the player to move sees compared too; the wire changes nothing (it conforms), and its
    lines fit the schema. A planted bug in the spec is still caught over the wire."""
    pytest.importorskip("pyspiel")
    from rulespec.runtime.registry import spec_path
    serve = (f"{sys.executable} {FIXTURES / 'serve.py'} "
             f"{ROOT / 'tests/test_openspiel_cards_and_maps.py'}:c8 "
             "--supports observation,chance_outcomes")
    code = {"penalty": "openspiel_code"}
    transcript: list = []
    with ExecDriver(serve, game="crazy_eights", transcript=transcript) as driver:
        report = conform(rulespec.load("crazy_eights", interpretation=code), driver,
                         examples=15)
    assert report.status == PASSED, report.detail
    ops = {e[1]["op"] for e in transcript if e[0] == "request"}
    assert {"chance_outcomes", "observation"} <= ops
    _, request, reply, ok = _validators()
    for entry in transcript[:3000]:   # the first games: every kind of request and reply
        (request if entry[0] == "request" else reply).validate(entry[1])
        if entry[0] == "reply" and "ok" in entry[1]:
            ok(entry[2]).validate(entry[1]["ok"])
    text = spec_path("crazy_eights").read_text(encoding="utf-8")
    line = "                  rank(card) == rank(last_card))"
    (tmp_path / "spec.py").write_text(text.replace(line, "                  False)"))
    data = spec_path("crazy_eights").with_name("components.toml")   # its cards, beside it
    (tmp_path / "components.toml").write_bytes(data.read_bytes())
    with ExecDriver(serve, game="crazy_eights") as driver:
        report = conform(rulespec.load(tmp_path / "spec.py", interpretation=code), driver,
                         examples=100)
    assert report.status == VIOLATED
    assert report.disagreement.kind == "legal actions"
    assert "the implementation allows play" in report.disagreement.message
