"""The rules-clarification report: one JSON document, HTML and Markdown views that agree
with it, a schema it validates against, pictures from the spec's view."""

import json
import re
import xml.etree.ElementTree as ET

import attrs
import jsonschema
import pytest

import rulespec
from rulespec.cli import main
from rulespec.report.budget import SMOKE
from rulespec.report.collect import collect
from rulespec.report.document import build_document
from rulespec.report.render import SCHEMA, render_markdown, write_report
from rulespec.report.svg import Picture
from rulespec.runtime.play import play_random
from rulespec.runtime.registry import available_games

BROKEN = "tests/fixtures/occupied_cell_tic_tac_toe"
TWO_READINGS = "tests/fixtures/two_readings"
LATE = "tests/fixtures/late_reading"
LEGAL = "tests/fixtures/legal_reading"
#: scenarios that miss one rule (the bonus): its report is asked for the mutation section
MUTATED = "tests/fixtures/mutate_planted"
BONUS = "fixture: take-away race, rule 2 (taking exactly two earns a bonus)"


#: the smoke budget, with Hypothesis (it shrinks counterexamples to the minimal ones)
BUDGET = attrs.evolve(SMOKE, check_mode="hypothesis", min_examples=25)


def _report(game_ref, out):
    budget = attrs.evolve(BUDGET, mutate="quick") if game_ref == MUTATED else BUDGET
    doc = build_document(collect(game_ref, budget, out / "traces"), game_ref)
    write_report(doc, out)
    return doc


@pytest.fixture(scope="module")
def reports(tmp_path_factory):
    out = tmp_path_factory.mktemp("reports")
    return out, {g: _report(g, out)
                 for g in ("tic_tac_toe", BROKEN, TWO_READINGS, LATE, LEGAL, MUTATED)}


def test_every_report_validates_against_the_json_schema(reports):
    out, docs = reports
    schema = json.loads(SCHEMA.read_text())
    jsonschema.Draft202012Validator.check_schema(schema)
    for doc in docs.values():
        jsonschema.validate(doc, schema)
        on_disk = json.loads((out / f"{doc['game']['name']}.json").read_text())
        assert on_disk == doc


def test_a_report_missing_a_section_fails_the_schema(reports):
    _, docs = reports
    broken = dict(docs["tic_tac_toe"])
    del broken["scenarios"]
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(broken, json.loads(SCHEMA.read_text()))


def _markdown_results(md):
    """What the Markdown says: the glance counts, each property's headline and rows, each
    scenario's status."""
    glance = md.split("## At a glance", 1)[1].split("##", 1)[0]
    counts = {s: int(n) for s, n in re.findall(r"^\| (PROVED|PASSED|VIOLATED|UNKNOWN|SKIPPED) "
                                               r"\| (\d+) \|$", glance, re.M)}
    props = md.split("## Properties", 1)[1].split("## Scenarios", 1)[0]
    headlines = dict(re.findall(r"^### `([^`]+)`: (\w+)$", props, re.M))
    rows = re.findall(r"^\| (hypothesis|random|z3[\w+-]*) \| (test|proof) \| (\w+) \|", props,
                      re.M)
    scen = md.split("## Scenarios", 1)[1].split("## Coverage", 1)[0]
    scenarios = re.findall(r"^### .*: (PASSED|VIOLATED|UNKNOWN|SKIPPED)$", scen, re.M)
    return counts, headlines, rows, scenarios


def _markdown_mutation(md):
    """What the Markdown's mutation section says (None without one): the score, each
    operator's row, and each survivor's id and source passage."""
    if "## Mutation" not in md:
        return None
    mu = md.split("## Mutation", 1)[1]
    score = re.search(r"score \*\*(\d+ %|-)\*\*", mu).group(1)
    ops = re.findall(r"^\| (\w+) \| (\d+) \| (\d+) \| (\d+) \| (\d+) \| (\d+ %|-) \|$", mu, re.M)
    survivors = re.findall(r"^### Survivor `([^`]+)`\n\n.*\n\n> \[([^\]]*)\]", mu, re.M)
    return score, ops, survivors


def _percent(score):
    return "-" if score is None else f"{100 * score:.0f} %"


def test_markdown_and_json_carry_the_same_results(reports):
    out, docs = reports
    for doc in docs.values():
        md = (out / f"{doc['game']['name']}.md").read_text()
        counts, headlines, rows, scenarios = _markdown_results(md)
        assert counts == doc["glance"]["counts"]
        assert headlines == {p["name"]: p["result"] for p in doc["properties"]}
        assert rows == [(r["checker"], r["method"], r["status"])
                        for p in doc["properties"] for r in p["results"]]
        assert scenarios == [s["status"] for s in doc["scenarios"]]
        mu = doc["mutation"]
        assert _markdown_mutation(md) == (None if mu is None else (
            _percent(mu["score"]),
            [(op, *(str(c[k]) for k in ("mutants", "killed", "equivalent", "survived")),
              _percent(c["score"])) for op, c in mu["by_operator"].items()],
            [(r["id"], r["source"]) for r in mu["survivors"]]))


def test_the_mutation_section_lists_the_unpinned_rule_in_every_view(reports):
    out, docs = reports
    assert all(d["mutation"] is None for g, d in docs.items() if g != MUTATED)  # not asked
    doc = docs[MUTATED]
    mu = doc["mutation"]
    assert mu["error"] is None and mu["budget"] == "quick"
    assert mu["survived"] == len(mu["survivors"]) > 0
    assert {r["source"] for r in mu["survivors"]} == {BONUS}
    assert mu["score"] == mu["killed"] / (mu["mutants"] - mu["equivalent"])
    sources = {s["id"]: s["source"] for s in doc["sources"]}
    rules = {r["id"] for r in doc["rules"]}
    for r in mu["survivors"]:
        assert sources[r["source_id"]] == BONUS  # linked to its passage in the sources
        assert r["rules"] and set(r["rules"]) <= rules  # and to the rule index
    html = (out / "mutate_planted.html").read_text()
    section = html.split('<section id="mutation"', 1)[1].split("</section>", 1)[0]
    assert all(f'data-mutant="{r["id"]}"' in section for r in mu["survivors"])
    assert BONUS in section and f"<b>{_percent(mu['score'])}</b>" in section


def test_the_agreement_check_sees_a_changed_result(reports):
    _, docs = reports
    doc = json.loads(json.dumps(docs[BROKEN]))
    doc["properties"][0]["results"][0]["status"] = "UNKNOWN"
    counts, headlines, rows, _ = _markdown_results(render_markdown(doc, "pics"))
    assert rows != [(r["checker"], r["method"], r["status"])
                    for p in docs[BROKEN]["properties"] for r in p["results"]]


def test_the_agreement_check_sees_a_changed_mutation_result(reports):
    _, docs = reports
    doc = json.loads(json.dumps(docs[MUTATED]))
    before = _markdown_mutation(render_markdown(doc, "pics"))
    doc["mutation"]["by_operator"]["drop_effect"]["killed"] += 1
    doc["mutation"]["survivors"].pop()
    after = _markdown_mutation(render_markdown(doc, "pics"))
    assert after[1] != before[1] and after[2] != before[2]


def test_a_broken_spec_shows_its_counterexample_with_a_picture(reports):
    out, docs = reports
    doc = docs[BROKEN]
    bad = [(p, r) for p in doc["properties"] for r in p["results"] if r["status"] == "VIOLATED"]
    assert bad, "the planted bug (a mark on an occupied cell) must be found"
    prop, row = next((p, r) for p, r in bad if p["name"] == "cells_filled_one_per_move")
    x = row["counterexample"]
    assert [s["action"] for s in x["steps"]] == ["cell 0", "cell 0"]
    assert x["picture"] in doc["pictures"]
    svg = doc["pictures"][x["picture"]]["svg"]
    ET.fromstring(svg)  # well-formed
    html = (out / f"{doc['game']['name']}.html").read_text()
    assert f'data-picture="{x["picture"]}"' in html and "cell 0" in html
    md = (out / f"{doc['game']['name']}.md").read_text()
    ref = f"{doc['game']['name']}-pictures/{x['picture']}.svg"
    assert ref in md and (out / ref).is_file()


def test_an_open_question_shows_where_the_readings_part(reports):
    out, docs = reports
    (q,) = docs[TWO_READINGS]["questions"]
    assert q["name"] == "step_size" and q["default"] == "one"
    (d,) = q["differences"]
    assert d["status"] == "DIFFER"
    shown = d["difference"]["pictures"]
    pids = [shown["before"], *(a["picture"] for a in shown["after"])]
    assert len(pids) == 3 and all(p in docs[TWO_READINGS]["pictures"] for p in pids)
    only = {a["reading"]: a["only_here"] for a in d["difference"]["allows"]}
    assert any(only.values()) or d["difference"]["fields"]
    # does it matter: random players, then greedy ones
    m, strong = d["impacts"]
    assert m["games"] == SMOKE.diff_games and 0 <= m["parted_ci"][0] <= m["parted_ci"][1] <= 1
    assert strong["games"] == SMOKE.diff_second_games
    # the report says who played the lockstep games
    assert m["policy"] == "random (uniform over the legal actions)"
    assert strong["policy"].startswith("greedy")
    md = (out / "two_readings.md").read_text()
    assert "played by the random policy" in md
    assert f"| {m['policy']} | {m['games']} (seed 0, 1 players) |" in md


def test_a_reading_that_parts_late_is_shown_from_the_scenario_that_pins_it(reports):
    # From setup the readings part only after 11 steps (random play finds that, not the
    # search); the scenario that pins the point starts at the last step, edited.
    out, docs = reports
    (q,) = docs[LATE]["questions"]
    (d,) = q["differences"]
    x = d["difference"]
    assert d["status"] == "DIFFER" and "after the scenario" in d["detail"]
    assert x["start"] == "last_step.toml#one: the last step scores 1"
    assert x["edits"] == [{"field": "pos", "value": 11}]
    assert [s["action"] for s in x["steps"]] == ["step"]
    # the pictures show the edited situation played on: the end, with each reading's bonus
    # before the last step (11), and after it under each reading (12, each its bonus)
    assert ">11<" in docs[LATE]["pictures"][x["pictures"]["before"]]["svg"]
    (pa, pb) = (a["picture"] for a in x["pictures"]["after"])
    svg_a, svg_b = (docs[LATE]["pictures"][p]["svg"] for p in (pa, pb))
    assert ">12<" in svg_a and ">12<" in svg_b and svg_a != svg_b
    md = " ".join((out / "late_reading.md").read_text().split())  # paragraphs are wrapped
    assert ("From the given situation of the scenario “one: the last step scores 1” "
            "(last_step.toml), 1 player; then set pos = 11.") in md


def test_a_legality_difference_shows_the_state_before_the_refused_action(reports):
    _, docs = reports
    (q,) = docs[LEGAL]["questions"]
    (d,) = q["differences"]
    x = d["difference"]
    assert x["kind"] == "legality" and [s["action"] for s in x["steps"]] == ["jump"]
    assert {a["reading"]: a["only_here"] for a in x["allows"]} == {
        "jumping=no": [], "jumping=yes": ["jump"]}
    assert [r["text"] for r in x["rule_terms"]["rules"]] == ["jumping is allowed"]
    assert x["rule_terms"]["rules"][0]["holds"] == {"a": False, "b": True}
    # the state before the action one reading refuses, the action drawn on it; then each
    # reading: the one that refuses it stays as it was
    assert "Before" in docs[LEGAL]["pictures"][x["pictures"]["before"]]["caption"]
    assert {a["reading"]: a["refused"] for a in x["pictures"]["after"]} == {
        "jumping=no": True, "jumping=yes": False}


def test_the_rule_index_covers_every_action_with_anchors_both_ways(reports):
    _, docs = reports
    doc = docs["tic_tac_toe"]
    spec = rulespec.load("tic_tac_toe").spec
    ids = {r["id"] for r in doc["rules"]}
    assert {f"a-{a.name}" for a in spec.actions} <= ids
    for s in doc["sources"]:
        assert set(s["rules"]) <= ids
    for r in doc["rules"]:
        if r["source"]:
            assert any(r["id"] in s["rules"] for s in doc["sources"] if s["id"] == r["source_id"])
    mark = next(r for r in doc["rules"] if r["id"] == "a-mark")
    assert mark["reached"] > 0 and mark["pinned_by"]["scenarios"]
    assert "cells_filled_one_per_move" in mark["pinned_by"]["properties"]


def test_report_files_are_written_and_linked_from_the_index(reports):
    out, docs = reports
    index = (out / "index.html").read_text()
    for doc in docs.values():
        name = doc["game"]["name"]
        for ext in ("html", "md", "json"):
            assert (out / f"{name}.{ext}").is_file()
        assert f'href="{name}.html"' in index
        html = (out / f"{name}.html").read_text()
        assert "http://" not in html.replace('xmlns="http://www.w3.org/2000/svg"', "")
        assert "https://" not in html and "<link" not in html


# --- pictures -------------------------------------------------------------------------
@pytest.mark.parametrize("game", available_games())
def test_every_bundled_game_declares_a_view_and_draws_it(game):
    model = rulespec.load(game)
    assert model.spec.view is not None, f"{game} declares no view (game.view(...))"
    final, steps = play_random(model, model.max_players, 1)
    for state in (model.initial_state(model.max_players), steps[len(steps) // 2].state, final):
        root = ET.fromstring(Picture(model).svg(state, "caption"))
        assert root.tag.endswith("svg") and len(list(root.iter())) > 20


def test_hawaii_view_shows_places_tokens_pawns_and_villages():
    model = rulespec.load("hawaii")
    final, steps = play_random(model, 3, 2)
    state = next(s.state for s in steps if s.state["phase"] == "play")
    svg = Picture(model).svg(state)
    for text in ("Cottages I", "Gods II", "beach", "Villages · player 2", "start",
                 "Pass area", "Islands"):
        assert text in svg
    assert svg.count("<path") >= 3  # three pawns


def test_a_spec_without_a_view_gets_one_from_its_fields():
    model = rulespec.load(BROKEN)
    assert model.spec.view is None
    svg = Picture(model).svg(model.initial_state())
    assert "cells" in svg and "to_move" in svg


def test_a_view_part_with_a_bad_glyph_is_refused_at_load():
    from rulespec.spec import SpecError, view
    with pytest.raises(SpecError, match="glyph shape"):
        view.glyph("X", shape="star")


def test_assumption_readers_come_from_the_ir():
    from rulespec.check.depends import Dependence
    from rulespec.report.depends import readers
    dep = Dependence(rulespec.load_spec("hawaii"))
    assert "action buy_tiki" in readers(dep, "board_adjacency")[0]  # via move_cost's distances
    assert "field supply" in readers(dep, "tiles")[0]  # its initial value (the tile counts)
    assert readers(dep, "start_order")[0] == ["field order"]  # cited by the field it sets


# --- the command line -----------------------------------------------------------------
def run(capsys, *argv):
    with pytest.raises(SystemExit) as done:
        main(list(argv))
    cap = capsys.readouterr()
    return done.value.code, cap.out, cap.err


def test_report_without_games_is_bad_usage(capsys):
    code, _, err = run(capsys, "report")
    assert code == 2 and "--all" in err


def test_report_of_an_unknown_game_is_bad_input(capsys, tmp_path):
    code, _, err = run(capsys, "report", "no_such_game", "-o", str(tmp_path))
    assert code == 2 and "unknown game" in err and not list(tmp_path.iterdir())


def test_play_svg_draws_every_step_and_show_draws_one(capsys, tmp_path):
    code, out, _ = run(capsys, "play", "tic_tac_toe", "--seed", "3", "--json", "--svg",
                       str(tmp_path / "pics"))
    assert code == 0
    steps = json.loads(out)["steps"]
    pics = sorted((tmp_path / "pics").glob("step-*.svg"))
    assert len(pics) == len(steps) + 1
    trace = tmp_path / "t.json"
    trace.write_text(json.dumps({"game": "tic_tac_toe", "players": 2,
                                 "actions": [s["action"] for s in steps]}))
    code, svg, _ = run(capsys, "show", str(trace), "--step", "2")
    assert code == 0 and ET.fromstring(svg).tag.endswith("svg")
    assert steps[1]["action"] in svg
    code, _, err = run(capsys, "show", str(trace), "--step", "99")
    assert code == 2 and "past the end" in err
    code, _, _ = run(capsys, "replay", str(trace), "--svg", str(tmp_path / "again"))
    assert len(list((tmp_path / "again").glob("*.svg"))) == len(steps) + 1


def test_report_command_writes_every_file_and_says_where(capsys, tmp_path):
    code, out, _ = run(capsys, "report", "tic_tac_toe", "-o", str(tmp_path))
    assert code == 0
    assert f"{tmp_path}/index.html" in out.replace("\n", "")
    for name in ("tic_tac_toe.html", "tic_tac_toe.md", "tic_tac_toe.json", "index.html"):
        assert (tmp_path / name).is_file()
    doc = json.loads((tmp_path / "tic_tac_toe.json").read_text())
    assert doc["budget"]["name"] == "quick"
    assert doc["glance"]["counts"]["PROVED"] > 0  # the quick budget runs the proofs
    assert doc["mutation"] is None  # mutation testing runs only when asked (--mutate)
    assert not list(tmp_path.glob(".*"))  # no half-written temporary file left behind


def test_report_mutate_adds_the_section_at_the_report_budget(capsys, tmp_path):
    code, _, _ = run(capsys, "report", MUTATED, "-o", str(tmp_path), "--mutate", "--quiet")
    assert code == 0
    doc = json.loads((tmp_path / "mutate_planted.json").read_text())
    assert doc["budget"]["mutate"] == "quick" and doc["mutation"]["budget"] == "quick"
    assert {r["source"] for r in doc["mutation"]["survivors"]} == {BONUS}
    assert "mutate" in doc["budget"]["seconds"]
    assert "## Mutation: which rules nothing pins" in (tmp_path / "mutate_planted.md").read_text()


VIEW_SPEC = '''
from rulespec.spec import PLAYERS, Game, view
S = "test"
game = Game("looks", title="Looks", players=(2, 3), source=S)
Cell = game.enum("Cell", ["empty", "red", "blue"], source=S)
board = game.field("board", Cell, shape=(3, 3), source=S)
coins = game.field("coins", range(0, 9), shape=(PLAYERS,), initial=[2, 5, 7], source=S)
where = game.field("where", range(0, 3), shape=(PLAYERS,), source=S)

@game.action(source=S)
def wait(rule):
    rule.set(board[0, 0], Cell.red)

game.current_player(0, source=S)
game.terminal(board[0, 0] == Cell.red, source=S)
game.max_steps(1, source=S)
game.score(lambda p: coins[p], source=S)
game.view(
    view.grid("Hex board", rows=3, cols=3, cell=lambda r, c: board[r, c], hexagonal=True,
              glyphs={Cell.red: view.glyph("R", "#ff0000")}),
    view.counters("Purse", {"coins": lambda p: coins[p]}, player=True),
    view.place_map("Map", spots=[view.spot(k, f"spot {k}", 50 * k, 0) for k in range(3)],
                   links=[(0, 1), (1, 2)],
                   pieces=lambda n: [view.piece(where[p], f"pawn {p}", player=p)
                                     for p in range(n)]),
    view.track("Coins", lo=0, hi=8, per_player=lambda p: coins[p]),
    view.pile("Hand", [view.chip(coins[0], view.glyph("8", "#0072B2", shape="card"))]),
)
SPEC = game.build()
'''


def test_every_part_draws_and_players_beyond_the_game_are_left_out(tmp_path):
    (tmp_path / "spec.py").write_text(VIEW_SPEC)
    model = rulespec.load(str(tmp_path / "spec.py"))
    state = model.apply(model.initial_state(2), model.legal_actions(model.initial_state(2))[0])
    svg = Picture(model).svg(state, "two players")
    root = ET.fromstring(svg)
    assert svg.count("<polygon") == 9  # a hexagonal grid
    assert "Purse · player 1" in svg and "player 2" not in svg  # 2 of at most 3 players
    assert ">R<" in svg and "spot 2" in svg and "Hand" in svg
    three = Picture(model).svg(model.initial_state(3))
    assert "Purse · player 2" in three
    assert root.get("viewBox")


def test_a_view_part_that_is_not_a_builder_is_refused(tmp_path):
    (tmp_path / "spec.py").write_text(VIEW_SPEC.replace('view.pile("Hand"', '("Hand"'))
    with pytest.raises(rulespec.SpecError, match="view parts come from"):
        rulespec.load(str(tmp_path / "spec.py"))
