"""Proof aids (issue 27, item 5): a part written only so that a proof goes through is marked
``proof_aid=True`` where it is declared; ``info`` and the report show it apart, and each
bundled game's page lists every one."""

import json
from pathlib import Path

import attrs
import jsonschema
import pytest

import rulespec
from rulespec.cli import main
from rulespec.report.budget import SMOKE
from rulespec.report.collect import collect
from rulespec.report.document import build_document
from rulespec.report.render import SCHEMA, render_html, render_markdown
from rulespec.spec import proof_aids

ROOT = Path(__file__).resolve().parent.parent

SPEC = '''
from rulespec.spec import Game, count

SRC = "test: three lines, drawn one at a time"
game = Game("lines", title="Lines", players=1, source=SRC)
line = game.field("line", bool, shape=(3,), source=SRC)
drawn = game.field("drawn", range(0, 4), flow=True, source=SRC, proof_aid={field_aid},
                   doc="lines drawn so far")


@game.action(params={{"k": range(3)}}, text="draw {{k}}", source=SRC, proof_aid={action_aid})
def draw(rule, k):
    """Draw a line."""
    rule.require(~line[k], "the line is not drawn yet", source=SRC)
    rule.set(line[k], True)
    rule.add(drawn, 1)


game.invariant("drawn_counts_the_lines", drawn == count(range(3), lambda k: line[k]),
               source=SRC, proof_aid={invariant_aid}, doc="the counter is the lines drawn")
game.invariant("at_most_three_lines", drawn <= 3, source=SRC)
game.current_player(0, source=SRC)
game.terminal(drawn == 3, source=SRC)
game.max_steps(3, source=SRC)
game.score(lambda p: drawn, source=SRC)
SPEC = game.build()
'''


def _spec(tmp_path, field_aid="True", action_aid="True", invariant_aid="True"):
    # a file of its own for each variant: the registry keeps a spec it has loaded by path
    path = tmp_path / f"lines_{field_aid}_{action_aid}_{invariant_aid}.py".replace('"', "")
    path.write_text(SPEC.format(field_aid=field_aid, action_aid=action_aid,
                                invariant_aid=invariant_aid))
    return path


def _cli(capsys, *argv):
    with pytest.raises(SystemExit) as done:
        main(list(argv))
    cap = capsys.readouterr()
    return done.value.code, cap.out, cap.err


def test_marked_parts_are_listed_in_spec_order_with_their_kind(tmp_path):
    spec = rulespec.load(str(_spec(tmp_path))).spec
    assert proof_aids(spec) == [("invariant", "drawn_counts_the_lines",
                                 "the counter is the lines drawn"),
                                ("field", "drawn", "lines drawn so far"),
                                ("action", "draw", "Draw a line.")]
    unmarked = rulespec.load(str(_spec(tmp_path, "False", "False", "False"))).spec
    assert proof_aids(unmarked) == []


def test_info_shows_the_proof_aids_apart(tmp_path, capsys):
    path = str(_spec(tmp_path, action_aid="False"))
    code, out, _ = _cli(capsys, "info", path, "--json")
    assert code == 0
    doc = json.loads(out)
    assert [(a["kind"], a["name"]) for a in doc["proof_aids"]] == [
        ("invariant", "drawn_counts_the_lines"), ("field", "drawn")]
    marked = {p["name"]: p["proof_aid"] for p in doc["properties"]}
    assert marked["drawn_counts_the_lines"] is True
    assert marked["at_most_three_lines"] is False
    assert [a["proof_aid"] for a in doc["actions"]] == [False]
    code, out, _ = _cli(capsys, "info", path)
    assert code == 0
    assert "proof aids: 1 invariant, 1 field, written only so that the proofs go through" in \
        " ".join(out.split())
    code, out, _ = _cli(capsys, "info", path, "--all")
    text = " ".join(out.split())
    assert "drawn_counts_the_lines (state; checked by python, z3; a proof aid)" in text
    assert ("Proof aids (1 invariant, 1 field) written only so that the proofs go through; "
            "a reader of the rules may skip them drawn_counts_the_lines (invariant): the "
            "counter is the lines drawn drawn (field): lines drawn so far") in text


def test_a_spec_without_proof_aids_prints_no_such_section(capsys):
    code, out, _ = _cli(capsys, "info", "tic_tac_toe")
    assert code == 0 and "Proof aids" not in out


@pytest.mark.parametrize("where", ["field_aid", "action_aid", "invariant_aid"])
def test_a_marker_that_is_not_a_bool_is_one_line_at_load(tmp_path, capsys, where):
    path = str(_spec(tmp_path, **{where: '"yes"'}))
    code, out, err = _cli(capsys, "info", path)
    assert code == 2
    assert "proof_aid is True or False, got 'yes'" in err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_the_report_tags_a_marked_invariant(tmp_path):
    path = str(_spec(tmp_path))
    budget = attrs.evolve(SMOKE, min_examples=5)
    doc = build_document(collect(path, budget, tmp_path / "traces"), path)
    jsonschema.validate(doc, json.loads(SCHEMA.read_text()))
    marked = {p["name"]: p["proof_aid"] for p in doc["properties"]}
    assert marked["drawn_counts_the_lines"] is True
    assert marked["at_most_three_lines"] is False
    md = render_markdown(doc, "pictures")
    part = md[md.index("### `drawn_counts_the_lines`"):]
    assert "*A proof aid:" in part[:part.index("###", 3)]
    part = md[md.index("### `at_most_three_lines`"):]
    assert "*A proof aid:" not in part[:part.index("###", 3)]
    html = render_html(doc)
    (pid,) = [p["id"] for p in doc["properties"] if p["name"] == "drawn_counts_the_lines"]
    card = html[html.index(f'id="{pid}"'):]
    assert ", a proof aid (" in card[:card.index("</div>")]


@pytest.mark.parametrize("game", ["hawaii", "motu"])
def test_each_bundled_proof_aid_is_listed_in_the_games_page(game):
    """Hawaii's and MOTU's specs mark what exists only for the prover, and
    docs/games/<game>.md names each one (its section "Proof aids")."""
    aids = proof_aids(rulespec.load(game).spec)
    assert aids, f"{game} marks no proof aid"
    page = (ROOT / "docs" / "games" / f"{game}.md").read_text(encoding="utf-8")
    section = page[page.index("## Proof aids"):]
    section = section[:section.index("\n## ", 1)] if "\n## " in section[1:] else section
    missing = [name for _, name, _ in aids if f"`{name}`" not in section]
    assert missing == [], missing
