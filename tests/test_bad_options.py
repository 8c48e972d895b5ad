"""Every option of every command, given a bad value, is refused before any work: exit 2, one
line on stderr naming the option or the value, nothing on stdout, no file written (issue 26,
"every bad input to every command is one line and exit 2, before any work").

The commands and their options are read from the click objects, so a new command or option
is covered as soon as it exists: one that takes a value this file has no bad value for fails
:func:`test_every_option_that_takes_a_value_has_bad_values`. "No work" is counted, never
timed: the library functions that do each command's work (and the progress display every
long run opens) are replaced by a trap that raises; the good invocation of each command is
seen to reach its trap, so the traps are the right ones.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import click
import pytest

from rulespec.cli import main
from rulespec.cli.app import cli

ROOT = Path(__file__).resolve().parent.parent
IMPL = f"{ROOT}/tests/fixtures/conform/connect_four_impl.py:connect_four"
GOOD_TRACE = {"format": "rulespec-trace/1", "game": "tic_tac_toe", "players": 2,
              "interpretation": {}, "actions": ["mark(0,0)", "mark(1,1)"]}
NOT_A_SPEC = "{tmp}/a_file.txt"       # exists, is a file, is neither spec, TOML nor JSON
UNWRITABLE = "/proc/rulespec-out"     # no one, not even root, can make a file there

#: each command as it is used well; a bad value replaces one part of it
GOOD = {
    "list": ["list"],
    "info": ["info", "tic_tac_toe"],
    "play": ["play", "tic_tac_toe"],
    "check": ["check", "tic_tac_toe"],
    "prove": ["prove", "tic_tac_toe"],
    "diff": ["diff", "hex", "--interpretation", "board_size=3", "--against", "board_size=4"],
    "conform": ["conform", "connect_four", "--impl", IMPL],
    "scenario": ["scenario", "tic_tac_toe"],
    "replay": ["replay", "{tmp}/good.json"],
    "show": ["show", "{tmp}/good.json"],
    "mutate": ["mutate", "tic_tac_toe"],
    "report": ["report", "tic_tac_toe"],
}

#: the library functions that do the work (module, name); the progress display is one too
WORK = [("rulespec.check.progress", "Progress.__enter__"),
        ("rulespec.check.parallel", "check_in_workers"), ("rulespec.check.prove", "prove"),
        ("rulespec.check.diff", "diff"), ("rulespec.check.conform", "conform"),
        ("rulespec.check.readings", "readings"), ("rulespec.check.scenario", "run_scenario"),
        ("rulespec.check.walk", "recheck"), ("rulespec.check.mutate", "mutate_game"),
        ("rulespec.runtime.play", "play_random"),
        ("rulespec.report.run", "report_games"), ("rulespec.report.run", "picture_after"),
        ("rulespec.cli.info", "_info_doc")]

FOLDER = ["{tmp}/a_file.txt", "{tmp}/a_file.txt/sub", UNWRITABLE]
FILE = ["{tmp}", "{tmp}/a_file.txt/x.out", UNWRITABLE + ".out"]
#: bad values by parameter name (those of a type, such as a count, come from the type)
BAD = {
    "game": ["no_such_game", NOT_A_SPEC, "{tmp}/empty"],
    "games": ["no_such_game", NOT_A_SPEC],
    "files": ["{tmp}/none.toml", NOT_A_SPEC],
    "trace_file": ["{tmp}/none.json", NOT_A_SPEC],
    "props": ["no_such_property"],
    "interpretation": ["nonsense", "no_such_point=x"],
    "reading_a": ["nonsense", "no_such_point=x", "board_size=99"],
    "reading_b": ["no_such_ruleset", "no_such_point=x", "board_size=99"],
    "ruleset": ["no_such_ruleset"],
    "start": ["{tmp}/none.toml", NOT_A_SPEC, "{tmp}/none.toml#x"],
    "trace_dir": FOLDER, "out_dir": FOLDER, "svg_dir": FOLDER,
    "save_to": FILE, "output": FILE,
    "impl_ref": ["nocolon", "no_such_module_xyz:make", "{tmp}/none.py:make",
                 f"{IMPL.rsplit(':', 1)[0]}:no_such_factory"],
    "exec_command": ["/no/such/program", ""],
    "points": ["no_such_point"],
    "operators": ["no_such_operator"],
    "only": ["no_such_mutant"],
    "action_names": ["no_such_action"],
    "players": ["0", "-1", "99"],
    "step": ["99"],
    # a components file: missing, not TOML, or naming a catalogue tic-tac-toe lacks
    "components": ["{tmp}/none.toml", NOT_A_SPEC, "{tmp}/good.json"],
    # nobody listens on port 1; not an address at all
    "cluster": ["tcp://127.0.0.1:1", "nonsense:xx"],
}
#: what an option needs beside it to mean anything (added), or cannot go with (removed)
WITH = {("conform", "points"): ["--readings"],
        ("conform", "timeout"): ["--exec", "node x.js"]}
WITHOUT = {("conform", "exec_command"): ["--impl"], ("conform", "timeout"): ["--impl"]}


def _type_values(param: click.Parameter) -> list[str]:
    """Bad values a parameter's type knows: a count below its least, words for numbers."""
    t = param.type
    if isinstance(t, (click.IntRange, click.FloatRange)):
        values = ["many"]
        if t.min is not None:
            values.append(str(t.min if getattr(t, "min_open", False) else t.min - 1))
        if t.max is not None:
            values.append(str(t.max + 1))
        return values
    if isinstance(t, click.types.IntParamType):
        return ["x", "1.5"]
    if isinstance(t, click.types.FloatParamType):
        return ["x"]
    if isinstance(t, click.Choice):
        return ["no_such_choice"]
    return []


def _takes_value(param: click.Parameter) -> bool:
    return isinstance(param, click.Argument) or not getattr(param, "is_flag", False)


def _cases() -> list[tuple[str, str, str]]:
    cases = []
    for name, command in sorted(cli.commands.items()):
        for param in command.params:
            if _takes_value(param) and param.name != "help":
                for value in _type_values(param) + BAD.get(param.name, []):
                    cases.append((name, param.name, value))
    return cases


CASES = _cases()


def _argv(command: str, param: click.Parameter, value: str) -> list[str]:
    argv = list(GOOD[command])
    if isinstance(param, click.Argument):
        return [argv[0], value] + argv[2:]
    drop = set(param.opts) | set(WITHOUT.get((command, param.name), []))
    kept, i = [], 1
    while i < len(argv):
        if argv[i] in drop:
            i += 2
            continue
        kept.append(argv[i])
        i += 1
    return [argv[0], *kept, *WITH.get((command, param.name), []), max(param.opts, key=len),
            value]


class WorkStarted(BaseException):
    """Raised by a trap: the command began its work (not an Exception: nothing catches it)."""


@pytest.fixture
def folder(tmp_path, monkeypatch):
    """A working folder with the files the cases name, every work function a trap."""
    (tmp_path / "good.json").write_text(json.dumps(GOOD_TRACE), encoding="utf-8")
    (tmp_path / "a_file.txt").write_text("not a spec = [\n", encoding="utf-8")
    (tmp_path / "empty").mkdir()
    monkeypatch.chdir(tmp_path)
    import importlib
    import pkgutil

    import rulespec.check
    import rulespec.cli
    import rulespec.report
    # every module that could bind a work function by name (`from .conform import
    # conform`) is imported first: one first imported under a trap would keep the trap
    # after this test (another test in the same process then 'starts work' it never did)
    for package in (rulespec.check, rulespec.report, rulespec.cli):
        for found in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
            if not found.name.endswith("__main__"):  # that one runs the command
                importlib.import_module(found.name)

    def trap(*_a, **_k):
        raise WorkStarted

    for module, attr in WORK:
        owner = importlib.import_module(module)
        *path, last = attr.split(".")
        for part in path:
            owner = getattr(owner, part)
        monkeypatch.setattr(owner, last, trap)
    return tmp_path


def _files(root: Path) -> set[Path]:
    return set(root.rglob("*"))


def _param(command: str, name: str) -> click.Parameter:
    return next(p for p in cli.commands[command].params if p.name == name)


def test_every_command_has_a_good_invocation():
    assert set(GOOD) == set(cli.commands), "add the command's good use to GOOD"


def test_every_option_that_takes_a_value_has_bad_values():
    covered = {(c, p) for c, p, _ in CASES}
    missing = [f"{name} {max(getattr(p, 'opts', [p.name]), key=len)}"
               for name, command in cli.commands.items() for p in command.params
               if _takes_value(p) and (name, p.name) not in covered]
    assert not missing, f"no bad value for: {', '.join(missing)} (add them to BAD)"
    assert len(CASES) > 150


@pytest.mark.parametrize("command", sorted(set(GOOD) - {"list"}))
def test_the_good_invocation_reaches_its_work(folder, capsys, command):
    with pytest.raises(WorkStarted):
        main([a.replace("{tmp}", str(folder)) for a in GOOD[command]])


def _refused(folder: Path, capsys, argv: list[str]) -> str:
    """Run ``argv``: it must be one line on stderr and exit 2, nothing on stdout, no file
    written, no work started. Returns the line."""
    before = _files(folder)
    try:
        with pytest.raises(SystemExit) as done:
            main(argv)
    except WorkStarted:
        pytest.fail(f"rulespec {' '.join(argv)}: the work started before the bad input was "
                    "refused")
    out, err = capsys.readouterr()
    assert done.value.code == 2, (argv, out, err)
    assert "Traceback" not in out + err
    assert err.startswith("rulespec: error: ") and err.count("\n") == 1, err
    assert out == "", out
    assert _files(folder) == before, "a file was written"
    return err


@pytest.mark.parametrize("command, name, value", CASES,
                         ids=[f"{c}-{n}-{v}" for c, n, v in CASES])
def test_a_bad_value_is_one_line_and_exit_2_before_any_work(folder, capsys, command, name,
                                                            value):
    param = _param(command, name)
    value = value.replace("{tmp}", str(folder))
    argv = [a.replace("{tmp}", str(folder)) for a in _argv(command, param, value)]
    err = _refused(folder, capsys, argv)
    # the option (or the one it goes with), the value or a part of it ('no_such_point' of
    # 'no_such_point=x'), as a whole word
    names = [*getattr(param, "opts", []), *WITH.get((command, name), [])[:1], value,
             *re.split(r"[=:#]", value)]
    assert any(n and re.search(rf"(?<![\w-]){re.escape(n)}(?!\w)", err) for n in names), \
        f"names neither option nor value: {err}"


#: good values that do not go together (or a flag that needs what is missing)
COMBINATIONS = [
    (["report", "--all", "tic_tac_toe"], "not both"),
    (["report"], "--all"),
    (["conform", "connect_four", "--impl", IMPL, "--readings"], "no interpretation point"),
    (["conform", "connect_four"], "--impl"),
    (["conform", "connect_four", "--impl", IMPL, "--exec", "x"], "one implementation"),
    (["conform", "connect_four", "--impl", IMPL, "--timeout", "5"], "--exec"),
    (["conform", "connect_four", "--impl", IMPL, "--point", "x"], "--readings"),
    (["check", "tic_tac_toe", "--simulations", "5"], "--policy mcts"),
    (["check", "tic_tac_toe", "--policy", "greedy", "--rollout", "5"], "--policy mcts"),
    (["diff", "hex", "--interpretation", "board_size=3"], "--against"),
    (["diff", "hex", "--against", "board_size=4"], "reading A"),
    (["diff", "hex", "--interpretation", "board_size=3", "--against", "board_size=3"],
     "the same"),
    (["show", "{tmp}/good.json", "--step", "3"], "past the end"),
]


@pytest.mark.parametrize("argv, says", COMBINATIONS, ids=[" ".join(a) for a, _ in COMBINATIONS])
def test_options_that_do_not_go_together_are_refused_before_any_work(folder, capsys, argv,
                                                                      says):
    assert says in _refused(folder, capsys, [a.replace("{tmp}", str(folder)) for a in argv])

@pytest.mark.parametrize("game", ["tic_tac_toe", "hex", "crazy_eights", "aquatica"])
def test_the_provable_names_read_from_the_spec_are_the_goals_prove_compiles(game):
    """``prove --property`` is refused before anything is compiled, from names read off the
    spec: they must be the goals the Z3 encoding has, then the laws."""
    from rulespec.check.bmc import goal_checks
    from rulespec.check.prove import provable
    from rulespec.compile.smt_backend import compile_smt
    from rulespec.compile.smt_terms import own_context
    from rulespec.runtime.registry import load
    model = load(game)
    with own_context():
        goals = [c.name for c in goal_checks(compile_smt(model.spec, model.interpretation))]
    assert provable(model) == goals + [i.name for i in model.spec.invariants if i.law]
