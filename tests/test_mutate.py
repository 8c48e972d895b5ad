"""``rulespec mutate`` (issue 15): planted weaknesses are found, and only they.

The fixture ``tests/fixtures/mutate_planted`` is a take-away race whose scenarios pin every
rule but one (the bonus for taking exactly two, source BONUS); it also holds a
precondition another implies and a tie-break that never breaks a tie, whose mutants are
equivalent. ``tests/fixtures/mutate_prove`` is a combination safe whose full code only
``--prove`` dials.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import rulespec
from rulespec.check.mutate import (EQUIVALENT, KILLED, OPERATORS, SURVIVED, mutants,
                                   mutate_game, select_operators)
from rulespec.check.mutate.equivalent import changed_parts, formula_equivalent
from rulespec.cli import main

FIXTURE = str(Path(__file__).parent / "fixtures" / "mutate_planted")
BONUS = "fixture: take-away race, rule 2 (taking exactly two earns a bonus)"


@pytest.fixture(scope="module")
def planted():
    return mutate_game(FIXTURE)


def _by_description(report, text):
    found = [r for r in report.results if r.description == text]
    assert len(found) == 1, [r.description for r in report.results]
    return found[0]


def test_every_operator_makes_a_mutant_of_the_fixture():
    spec = rulespec.load(FIXTURE).spec
    found = mutants(spec)
    assert {m.operator for m in found} == set(OPERATORS)
    assert len({m.id for m in found}) == len(found)
    for m in found:
        changed = m.make(spec)
        assert changed is not spec
        assert m.source, m.id  # every mutant names the rule's source
        rulespec.Model(changed)  # every mutant compiles


def test_mutants_are_made_on_the_ir_and_leave_the_spec_alone():
    spec = rulespec.load(FIXTURE).spec
    drop = next(m for m in mutants(spec, ["drop_precondition"])
                if "at most two tokens" in m.description)
    assert [p.text for p in drop.make(spec).action("take").preconditions] == [
        "no more than the pile holds", "tokens are left"]
    assert len(spec.action("take").preconditions) == 3
    plus = next(m for m in mutants(spec, ["constant_plus_one"]) if "max_take" in m.id)
    model = rulespec.Model(plus.make(spec))
    state = model.initial_state(2)
    assert "take 3" in [str(a) for a in model.legal_actions(state)]


def test_the_planted_weakness_is_exactly_what_survives(planted):
    survivors = planted.survivors
    assert survivors, "the unpinned bonus rule must survive"
    assert {r.source for r in survivors} == {BONUS}
    for r in planted.results:
        if r.source == BONUS:
            assert r.status == SURVIVED, r
        else:
            assert r.status in (KILLED, EQUIVALENT), r
    # a survivor says where it parts from the spec: the situation a new scenario should pin
    assert all(r.witness and "bonus" in r.witness for r in survivors)


def test_killers_and_equivalents_are_classified(planted):
    r = _by_description(planted, "precondition 'at most two tokens' of take removed")
    assert (r.status, r.by) == (KILLED, "scenario")
    assert r.killer.startswith("scenario 'one or two may be taken, three may not'")
    assert "take 3" in r.detail
    for text in ("precondition 'tokens are left' of take removed",
                 "tie-break 1 (`bonus[p]`): the lower key wins instead of the higher"):
        r = _by_description(planted, text)
        assert r.status == EQUIVALENT, r
        assert "every reachable state" in r.equivalence
    r = _by_description(planted, "interpretation last_token: the default reading 'wins' "
                                 "became 'loses'")
    assert r.status == KILLED


def test_score_per_game_and_per_operator(planted):
    killed, equivalent = planted.count(KILLED), planted.count(EQUIVALENT)
    assert planted.score() == killed / (len(planted.results) - equivalent)
    ops = planted.by_operator()
    assert set(ops) == set(OPERATORS)
    assert ops["flip_tie_break"]["score"] is None  # its one mutant is equivalent
    assert ops["drop_precondition"] == {"mutants": 3, "killed": 2, "survived": 0,
                                        "equivalent": 1, "score": 1.0}


def test_check_kills_what_no_scenario_covers():
    spec = rulespec.load(FIXTURE).spec
    drop = next(m for m in mutants(spec, ["drop_precondition"])
                if "no more than the pile holds" in m.description)
    report = mutate_game(FIXTURE, only=[drop.id], scenario_files=[])
    (r,) = report.results
    assert (r.status, r.by) == (KILLED, "check"), r


SAFE = str(Path(__file__).parent / "fixtures" / "mutate_prove")


@pytest.mark.slow
def test_prove_kills_what_scenarios_and_check_let_survive():
    """The safe's scenarios never dial the whole code and two random games do not either:
    a mutant that stops the safe opening survives them; ``--prove`` (bounded model
    checking) finds the three digits that break the invariant."""
    spec = rulespec.load(SAFE).spec
    (drop,) = [m for m in mutants(spec, ["drop_effect"])
               if m.description == "effect `set opened to 1` of dial removed"]
    (r,) = mutate_game(SAFE, only=[drop.id]).results
    assert r.status == SURVIVED, r
    assert "dial 7, dial 3, dial 1" in r.witness
    (r,) = mutate_game(SAFE, only=[drop.id], prove=True).results
    assert (r.status, r.by) == (KILLED, "prove"), r
    assert r.killer.startswith("open_exactly_when_the_code_is_dialled"), r
    assert "reachable in 3 step(s)" in r.detail


def test_z3_shows_an_implied_precondition_equivalent_and_a_bonus_change_not():
    spec = rulespec.load(FIXTURE).spec
    weaker = next(m for m in mutants(spec, ["weaken_comparison"]))  # pile > 0 -> pile >= 0
    mut = weaker.make(spec)
    assert formula_equivalent(spec, mut, changed_parts(spec, mut), 5_000_000) is True
    bonus = next(m for m in mutants(spec, ["drop_effect"]) if m.source == BONUS)
    mut = bonus.make(spec)
    assert formula_equivalent(spec, mut, changed_parts(spec, mut), 5_000_000) is False


def test_same_seed_same_result_with_workers(planted):
    again = mutate_game(FIXTURE, workers=2)
    assert again.to_json() == planted.to_json()


@pytest.mark.parametrize("game", ["tic_tac_toe", "connect_four"])
def test_the_small_bundled_games_score_100_percent(game):
    report = mutate_game(game)
    assert report.score() == 1.0, [r for r in report.results if r.status != KILLED]


HAWAII_SCENARIOS = Path(__file__).resolve().parents[1] / "models" / "hawaii" / "scenarios"
# One mutant per Hawaii scenario file written from `rulespec mutate hawaii`'s survivors
# (docs/games/hawaii.md, "Mutation testing"): the file kills it, the unmutated spec passes it.
# An effect's mutant is named by the line it sits on (found by its text in spec.py or one
# of its parts, so that editing or moving the spec elsewhere does not move the test).
HAWAII_KILLS = {
    "islands": "constant_plus_one@island_vp_4",
    "trips": ("drop_effect", 'rule.add(fruit[me], -rest, source=book.at("画面説明"'),
    "purchases": ("drop_effect", "rule.add(fruit[me], -s_due)"),
    "tracks": "constant_plus_one@kahuna_spot_shells_3",
    "round_end": ("drop_effect", "rule.set(canoe_used[p], False,"),
    "end_scoring": "constant_minus_one@kahuna_vp_by_row_3",
    "setup": "constant_plus_one@start_fruit_by_seat_5",
}


def _hawaii_mutant_id(kill):
    if isinstance(kill, str):
        return kill
    operator, text = kill
    (found,) = [(path, i, line) for path in sorted(HAWAII_SCENARIOS.parent.glob("*.py"))
                for i, line in enumerate(path.read_text().splitlines()) if text in line]
    path, at, line = found
    part = "" if path.name == "spec.py" else f"{path.name}:"   # a part's sites name the file
    return f"{operator}@{part}{at + 1}:{len(line) - len(line.lstrip())}"


def test_hawaii_scenarios_written_from_its_survivors_kill_them():
    from rulespec.check.scenario import PASSED, load_scenario_file, run_scenario
    from rulespec.runtime.model import Model
    spec = rulespec.load("hawaii").spec
    by_id = {m.id: m for m in mutants(spec)}
    for name, kill in HAWAII_KILLS.items():
        mid = _hawaii_mutant_id(kill)
        sf = load_scenario_file(HAWAII_SCENARIOS / f"{name}.toml")
        # the spec passes every scenario of the file (each reading is compiled once, for
        # every file: the registry keeps it)
        failed = [sc.name for sc in sf.scenarios if run_scenario(sf, sc).status != PASSED]
        assert failed == [], (name, failed)
        # the mutant fails one: the first that does is enough (a reading of the mutant is
        # compiled only when a scenario asks for it)
        mut = by_id[mid].make(spec)
        models: dict = {}

        def model(i, models=models, mut=mut):
            key = tuple(sorted(i.items()))
            if key not in models:
                models[key] = Model(mut, i)
            return models[key]
        assert any(run_scenario(sf, sc, model).status != PASSED for sc in sf.scenarios), \
            (name, mid, "survives every scenario of the file")


def test_operators_and_groups_are_selected_by_name():
    assert select_operators(["comparison"]) == ("negate_comparison", "weaken_comparison",
                                                "strengthen_comparison")
    with pytest.raises(ValueError, match="unknown mutation operator 'nope'"):
        select_operators(["nope"])


# --- the command ------------------------------------------------------------------------
def run(capsys, *argv):
    with pytest.raises(SystemExit) as done:
        main(list(argv))
    cap = capsys.readouterr()
    return done.value.code, cap.out, cap.err


def test_cli_json_has_the_score_and_the_survivors_in_rule_terms(capsys):
    code, out, _ = run(capsys, "mutate", FIXTURE, "--json", "--quiet")
    assert code == 1  # something survived
    doc = json.loads(out)
    assert doc["game"] == "mutate_planted" and doc["exit_code"] == 1
    assert doc["survived"] == len([r for r in doc["results"] if r["status"] == SURVIVED])
    assert doc["score"] == pytest.approx(doc["killed"] / (doc["mutants"] - doc["equivalent"]))
    assert set(doc["by_operator"]) == set(OPERATORS)
    assert {r["source"] for r in doc["results"] if r["status"] == SURVIVED} == {BONUS}


def test_cli_human_output_lists_survivors_with_sources_within_100_columns(capsys):
    code, out, _ = run(capsys, "mutate", FIXTURE, "--quiet", "--operators", "drop_effect")
    assert code == 1
    assert "surviving mutant(s)" in out and f"source: {BONUS}" in out
    assert max(len(line) for line in out.splitlines()) <= 100


def test_cli_exit_0_when_everything_is_killed(capsys):
    code, out, _ = run(capsys, "mutate", "tic_tac_toe", "--quiet",
                       "--operators", "drop_precondition")
    assert code == 0
    assert "score 100 %" in out


def test_cli_list_names_each_mutant(capsys):
    code, out, _ = run(capsys, "mutate", FIXTURE, "--list")
    assert code == 0
    assert "precondition 'at most two tokens' of take removed" in out
    code, out, _ = run(capsys, "mutate", "tic_tac_toe", "--list-operators")
    assert code == 0 and all(op in out for op in OPERATORS)


@pytest.mark.parametrize("argv, needle", [
    (["mutate", "tic_tac_toe", "--operators", "nope"], "unknown mutation operator"),
    (["mutate", "tic_tac_toe", "--mutant", "nope"], "no mutant 'nope'"),
    (["mutate", "no_such_game"], "no_such_game"),
])
def test_cli_bad_input_is_one_line_and_exit_2(capsys, argv, needle):
    code, out, err = run(capsys, *argv)
    assert code == 2
    assert needle in err and len(err.strip().splitlines()) == 1
    assert "Traceback" not in err
