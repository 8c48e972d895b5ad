"""Auxiliary invariants the prover finds itself (issue 28, item 1: rulespec/check/infer.py).

The planted toy: two counters that always move together. The goal (at most three marks)
is true in every reachable state but not inductive on its own: from the unreachable state
``steps = 0, marks = 3`` a step makes four marks. With the inferred lemma ``steps = marks``
it is."""

import json

import pytest

import rulespec
from rulespec.check.infer import (INFERRED, Candidate, candidates, excluding, focus, houdini,
                                  infer, played_states, strengthened)
from rulespec.check.prove import prove
from rulespec.cli import main

TWINS = '''
from rulespec.spec import Game

SRC = "test: two counters move together"
game = Game("twins", title="Twins", players=(1, 2), source=SRC)
steps = game.field("steps", range(0, 10), source=SRC, doc="steps taken")
marks = game.field("marks", range(0, 10), source=SRC, doc="marks made")


@game.action(text="step", source=SRC)
def step(rule):
    """One step and one mark."""
    rule.require(steps < 3, "fewer than three steps", source=SRC)
    rule.add(steps, 1)
    rule.add(marks, 1)


game.invariant("at_most_three_marks", marks <= 3, source=SRC)
{extra}
game.current_player(0, source=SRC)
game.terminal(steps == 3, source=SRC)
game.max_steps(3, source=SRC)
game.score(lambda p: marks, source=SRC)
SPEC = game.build()
'''
GOAL = "at_most_three_marks"
RLIMIT = 10_000_000


@pytest.fixture
def twins(tmp_path, monkeypatch):
    monkeypatch.setenv("RULESPEC_STORE", "off")
    return _load(tmp_path, "twins.py", "")


def _load(tmp_path, name, extra):
    path = tmp_path / name
    path.write_text(TWINS.format(extra=extra))
    return rulespec.load(str(path))


def _induction(run, name):
    return [r.status for r in run.results if r.property == name and r.checker == "z3-induction"]


def test_the_goal_is_unknown_without_inference_and_proved_with_it(twins, tmp_path):
    alone = prove(twins, rlimit=RLIMIT, infer=False, trace_dir=tmp_path)
    assert _induction(alone, GOAL) == []
    assert "UNKNOWN" in {r.status for r in alone.results if r.property == GOAL}
    assert alone.inference is None

    run = prove(twins, rlimit=RLIMIT, trace_dir=tmp_path)
    assert _induction(run, GOAL) == ["PROVED"]
    assert "inferred: steps = marks" in {r.property for r in run.results}
    # the goal's induction rests on the lemma, and the lemma is proved as a goal of its own
    premises = next(r.evidence["premises"] for r in run.results
                    if r.property == GOAL and r.checker == "z3-induction")
    assert "inferred: steps = marks" in premises
    lemma = [r for r in run.results if r.property == "inferred: steps = marks"]
    assert {(r.checker, r.status) for r in lemma} == {("z3-step", "PROVED"),
                                                      ("z3-induction", "PROVED")}
    assert all(r.evidence["provenance"] == INFERRED for r in lemma)
    assert "steps = marks" in run.inference["lemmas"]
    assert run.rlimit > alone.rlimit  # the search and the second run are counted


def test_a_lemma_the_kept_ones_imply_is_not_listed(twins, tmp_path):
    run = prove(twins, rlimit=RLIMIT, trace_dir=tmp_path)
    # steps <= marks and marks <= steps both hold and both serve the goal's step, but
    # steps = marks says them already: the reader gets the one lemma
    assert run.inference["lemmas"] == ["steps = marks"]
    assert {"steps ≤ marks", "marks ≤ steps"} <= set(run.inference["unneeded"])
    assert run.inference["dropped"] == []   # no step breaks any of them
    assert not {"inferred: steps ≤ marks", "inferred: marks ≤ steps"} & {
        r.property for r in run.results}


def test_the_second_run_proves_the_goals_again_not_the_dead_rules(twins, tmp_path,
                                                                monkeypatch):
    import rulespec.check.prove as prove_module
    played = []
    real = prove_module._played_job
    monkeypatch.setattr(prove_module, "_played_job",
                        lambda *a, **k: played.append(1) or real(*a, **k))
    run = prove(twins, rlimit=RLIMIT, trace_dir=tmp_path)
    assert _induction(run, GOAL) == ["PROVED"]
    # the dead rules were answered once, by the first run, and are in the answer once
    assert played == [1]
    dead = [r.property for r in run.results if r.property.startswith("rule_can_apply:")]
    assert dead == ["rule_can_apply:step"]
    # the lemmas come back as invariants: what the report's slices read
    assert [i.name for i in run.lemmas] == ["inferred: steps = marks"]


def test_the_second_run_proves_only_what_was_open_and_the_lemmas(twins, tmp_path,
                                                                monkeypatch):
    import rulespec.check.proof_jobs as jobs_module  # where the step jobs are
    asked = []
    real = jobs_module.ActionProver

    def recording(model, smt, premises, a_idx, goals, *rest):
        asked.append({g.name for g in goals})
        return real(model, smt, premises, a_idx, goals, *rest)
    monkeypatch.setattr(jobs_module, "ActionProver", recording)
    run = prove(twins, rlimit=RLIMIT, trace_dir=tmp_path)
    assert _induction(run, GOAL) == ["PROVED"]
    first, again = asked[:len(asked) // 2], asked[len(asked) // 2:]
    assert all("rules_evaluate_without_error" in names for names in first)
    # the goals proved in each case are not proved again: the open goal and the lemma are
    assert again and all(names == {GOAL, "inferred: steps = marks"} for names in again)
    # and the proofs kept from the first run are still listed, each case counted once
    steps = {r.property: r for r in run.results if r.checker == "z3-step"}
    assert steps["rules_evaluate_without_error"].status == "PROVED"
    assert steps["rules_evaluate_without_error"].evidence["cases"] == len(again)


def test_play_drops_a_candidate_a_reachable_state_breaks(twins):
    texts = {c.text for c in candidates(twins, played_states(twins))}
    assert "steps = marks" in texts
    assert "steps ≤ 3" in texts
    assert not {"steps ≤ 2", "marks ≤ 2", "steps < marks"} & texts


def test_houdini_drops_a_candidate_no_play_broke_and_keeps_the_rest(twins):
    # 'steps <= 2' is false (play would have dropped it: here it is handed in directly)
    steps, marks = (twins.spec.fields[i] for i in (1, 2))
    from rulespec.ir.nodes import lift
    given = [Candidate(lift(steps) == lift(marks), lambda v: True),
             Candidate(lift(steps) <= 2, lambda v: True)]
    kept, units, _ = houdini(twins, given, RLIMIT)
    assert kept == [0]
    assert units > 0


def test_a_lemma_that_is_not_inductive_is_never_listed_as_proved(twins, tmp_path):
    # handed a false lemma, the ordinary proof refuses it: the goals resting on it fall too
    steps = twins.spec.fields[1]
    from rulespec.ir.nodes import lift
    model = strengthened(twins, [Candidate(lift(steps) <= 2, lambda v: True)])
    run = prove(model, rlimit=RLIMIT, infer=False, trace_dir=tmp_path)
    assert _induction(run, "inferred: steps ≤ 2") != ["PROVED"]
    assert "VIOLATED" in {r.status for r in run.results if r.property == "inferred: steps ≤ 2"}


def test_inference_is_the_same_for_one_seed(twins):
    first, again = infer(twins, RLIMIT), infer(twins, RLIMIT)
    assert [c.text for c in first.lemmas] == [c.text for c in again.lemmas]
    assert first.units == again.units


def test_a_game_that_proves_without_it_does_not_search(tmp_path, monkeypatch):
    monkeypatch.setenv("RULESPEC_STORE", "off")
    model = _load(tmp_path, "twins_written.py",
                  'game.invariant("steps_are_marks", steps == marks, source=SRC)')
    run = prove(model, rlimit=RLIMIT, trace_dir=tmp_path)
    assert run.inference is None
    assert _induction(run, GOAL) == ["PROVED"]
    assert not any(r.property.startswith("inferred: ") for r in run.results)


def test_prove_lists_the_lemmas_in_its_output_and_json(twins, tmp_path, capsys):
    path = str(tmp_path / "twins.py")
    with pytest.raises(SystemExit):
        main(["prove", path, "--rlimit", str(RLIMIT), "--trace-dir", str(tmp_path),
              "--workers", "1"])
    text = capsys.readouterr().out
    assert "inferred: steps = marks" in text
    assert "inferred: " in text and "lemma" in text
    assert max(len(line) for line in text.splitlines()) <= 100
    with pytest.raises(SystemExit):
        main(["prove", path, "--rlimit", str(RLIMIT), "--trace-dir", str(tmp_path),
              "--workers", "1", "--json"])
    doc = json.loads(capsys.readouterr().out)
    assert "steps = marks" in doc["inference"]["lemmas"]
    lemma = [r for r in doc["results"] if r["property"] == "inferred: steps = marks"]
    assert lemma and all(r["evidence"]["provenance"] == "inferred" for r in lemma)


def test_no_infer_leaves_the_goal_open(twins, tmp_path, capsys):
    path = tmp_path / "twins.py"
    with pytest.raises(SystemExit):
        main(["prove", str(path), "--rlimit", str(RLIMIT), "--trace-dir", str(tmp_path),
              "--workers", "1", "--json", "--no-infer"])
    doc = json.loads(capsys.readouterr().out)
    assert doc["inference"] is None and doc["infer"] is False
    assert "UNKNOWN" in {r["status"] for r in doc["results"] if r["property"] == GOAL}


def test_the_report_shows_an_inferred_lemma_with_the_invariants(twins, tmp_path):
    import attrs
    import jsonschema
    from rulespec.report.budget import SMOKE
    from rulespec.report.collect import collect
    from rulespec.report.document import build_document
    from rulespec.report.render import SCHEMA, render_html, render_markdown
    path = str(tmp_path / "twins.py")
    budget = attrs.evolve(SMOKE, min_examples=5, prove=True, solver_rlimit=RLIMIT, workers=1)
    doc = build_document(collect(path, budget, tmp_path / "traces"), path)
    jsonschema.validate(doc, json.loads(SCHEMA.read_text()))
    props = {p["name"]: p for p in doc["properties"]}
    lemma = props["inferred: steps = marks"]
    assert lemma["inferred"] is True and lemma["kind"] == "lemma"
    assert lemma["statement"] == "steps = marks" and lemma["checked_by"] == "z3"
    # what it rests on is what its expression reads, not "a property written in Python"
    for row in lemma["results"]:
        assert row["rests_on"]["how"] != "python" and not row["rests_on"]["conservative"]
    assert lemma["result"] == "PROVED"
    assert props[GOAL]["inferred"] is False and props[GOAL]["result"] == "PROVED"
    md = render_markdown(doc, "pictures")
    part = md[md.index("### `inferred: steps = marks`"):]
    ends = [i for i in (part.find("\n### ", 3), part.find("\n## ", 3)) if i > 0]
    assert "*A lemma inferred by the prover:" in part[:min(ends, default=len(part))]
    html = render_html(doc)
    card = html[html.index(f'id="{lemma["id"]}"'):]
    heading = card[:card.index("</div>")]
    kind = heading[heading.index('class="muted small">'):]
    assert kind.startswith('class="muted small">lemma, inferred by the prover (')
    assert kind.count("inferred") == 1  # said once, not "inferred lemma, inferred by"


def test_a_search_out_of_budget_keeps_no_lemma(twins, monkeypatch):
    import rulespec.check.infer as infer_module
    found = candidates(twins, played_states(twins))
    assert houdini(twins, found, RLIMIT)[0]  # within budget: some survive
    monkeypatch.setattr(infer_module, "SEARCH_QUERIES", 0)
    kept, units, _ = houdini(twins, found, RLIMIT)
    assert kept == [] and units > 0


BELLS = '''
bells = game.field("bells", range(0, 9), source=SRC, doc="bells rung, apart from the rest")


@game.action(text="ring", source=SRC)
def ring(rule):
    """A bell, which no goal reads."""
    rule.require(bells < 4, "fewer than four bells", source=SRC)
    rule.add(bells, 1)
'''


def test_only_candidates_about_the_open_goals_fields_are_tried(tmp_path, monkeypatch):
    # a large game's candidates are thousands: one Houdini query over all of them spent
    # Hawaii's whole search budget; those that name no field the open step goals read
    # cannot be what the goal lacks on their own, so they are not tried
    monkeypatch.setenv("RULESPEC_STORE", "off")
    model = _load(tmp_path, "bells.py", BELLS)
    everything = infer(model, RLIMIT, [GOAL])
    focused = infer(model, RLIMIT, [GOAL], open_steps=[GOAL])
    assert [c.text for c in focused.lemmas] == [c.text for c in everything.lemmas]
    assert "steps = marks" in [c.text for c in focused.lemmas]
    assert everything.unfocused == 0 and focused.unfocused > 0
    assert focused.candidates + focused.unfocused == everything.candidates
    assert any("bells" in t for t in everything.dropped + everything.unneeded)
    tried = focused.dropped + focused.unneeded + [c.text for c in focused.lemmas]
    assert tried and all("marks" in t for t in tried)  # the goal reads marks alone
    # a field's bounds name that field; the rules' errors may read any: no focus
    assert focus(model, ["fields_within_bounds[bells]"]) == {
        f for f in model.spec.fields if f.name == "bells"}
    assert focus(model, ["rules_evaluate_without_error"]) is None
    run = prove(model, trace_dir=tmp_path, rlimit=RLIMIT)
    assert run.inference["not_about_the_open_goals"] > 0
    assert _induction(run, GOAL) == ["PROVED"]


def test_the_second_runs_costs_are_added_to_the_firsts(twins, tmp_path):
    """With lemmas, the run reported is the second one; what the first run spent stays
    counted job by job, with the search's units apart."""
    alone = prove(twins, rlimit=RLIMIT, infer=False, trace_dir=tmp_path)
    run = prove(twins, rlimit=RLIMIT, trace_dir=tmp_path)
    again = {k for k in run.units if k.endswith(" (again)")}
    assert again and set(run.units) - again == set(alone.units)
    assert run.rlimit == sum(run.units.values()) + run.inference["rlimit_spent"]
    for kind, row in alone.step_stats.items():   # the first run's queries are in the sum
        assert run.step_stats[kind][0] >= row[0]
    assert sum(r[0] for r in run.step_stats.values()) > sum(
        r[0] for r in alone.step_stats.values())


BOUNDED = '''
from rulespec.spec import Game

SRC = "test: a counter kept within its bounds by another"
game = Game("bounded", title="Bounded", players=(1, 2), source=SRC)
steps = game.field("steps", range(0, 10), source=SRC, doc="steps taken")
marks = game.field("marks", range(0, 4), source=SRC, doc="marks made, at most three")
bells = game.field("bells", range(0, 10), source=SRC, doc="bells rung, fewer than marks")


@game.action(text="step", source=SRC)
def step(rule):
    """One step and one mark."""
    rule.require(steps < 3, "fewer than three steps", source=SRC)
    rule.add(steps, 1)
    rule.add(marks, 1)


@game.action(text="ring", source=SRC)
def ring(rule):
    """A bell, while there are more marks than bells."""
    rule.require(bells < marks, "fewer bells than marks", source=SRC)
    rule.add(bells, 1)


game.current_player(0, source=SRC)
game.terminal(steps == 3, source=SRC)
game.max_steps(6, source=SRC)
game.score(lambda p: marks, source=SRC)
SPEC = game.build()
'''


def test_a_bounds_goal_keeps_only_the_lemma_its_step_proof_uses(tmp_path, monkeypatch):
    # marks' bounds (0..3) are not inductive alone: from steps = 0, marks = 3 a step makes
    # four. 'bells ≤ marks' is kept by every step too, and names marks, but the bounds'
    # step proof does not use it: the unsat core of that proof drops it
    monkeypatch.setenv("RULESPEC_STORE", "off")
    path = tmp_path / "bounded.py"
    path.write_text(BOUNDED)
    model = rulespec.load(str(path))
    run = prove(model, rlimit=RLIMIT, trace_dir=tmp_path)
    assert _induction(run, "fields_within_bounds") == ["PROVED"]
    assert len(run.inference["lemmas"]) == 1
    assert run.inference["lemmas"][0] in {"steps = marks", "marks ≤ steps"}
    assert "bells ≤ marks" in run.inference["unneeded"]
    assert run.inference["dropped"] == [] or "bells ≤ marks" not in run.inference["dropped"]


# Two arrays of one shape: a card is shown only once it is dealt. The goal (a shown card
# has scored) holds in every reachable state but is not inductive on its own: from the
# unreachable state "shown, scored, but no card" a recount scores 0. The lemma "where a
# card is shown, it is not none" (a fact about two arrays, cell by cell) makes it so.
SHOWN = '''
from rulespec.spec import PLAYERS, Game, all_of, forall, if_, implies, not_

SRC = "test: a card is shown after it is dealt"
game = Game("shown", title="Shown", players=(2, 2), source=SRC)
Card = game.enum("Card", ["none", "low", "high"], source=SRC)
card = game.field("card", Card, shape=(PLAYERS,), initial=Card.none, source=SRC)
shown = game.field("shown", bool, shape=(PLAYERS,), source=SRC)
points = game.field("points", range(0, 3), shape=(PLAYERS,), source=SRC)
turns = game.field("turns", range(0, 7), source=SRC)


def worth(c):
    return if_(c == Card.high, 2, if_(c == Card.low, 1, 0))


@game.action(params={{"p": game.players(), "c": Card}}, text="deal {{c}} to {{p}}", source=SRC)
def deal(rule, p, c):
    rule.require(all_of(c != Card.none, card[p] == Card.none), "a card to an empty hand",
                 source=SRC)
    rule.set(card[p], c)
    rule.add(turns, 1)


@game.action(params={{"p": game.players()}}, text="show the card of {{p}}", source=SRC)
def show(rule, p):
    rule.require(not_(shown[p]), "a card not shown yet", source=SRC)
    {guard}
    rule.set(shown[p], True)
    rule.set(points[p], worth(card[p]))
    rule.add(turns, 1)


@game.action(text="count the shown cards again", source=SRC)
def recount(rule):
    rule.require(turns < 6, "the game goes on", source=SRC)
    for p in range(2):
        with rule.when(shown[p]):
            rule.set(points[p], worth(card[p]))
    rule.add(turns, 1)


game.invariant("a_shown_card_has_scored",
               forall(game.players(), lambda p: implies(shown[p], points[p] >= 1)),
               source=SRC)
game.current_player(0, source=SRC)
game.terminal(turns >= 6, source=SRC)
game.max_steps(6, source=SRC)
game.score(lambda p: points[p], source=SRC)
SPEC = game.build()
'''
DEALT = 'rule.require(card[p] != Card.none, "a dealt card", source=SRC)'
SHOWN_GOAL = "a_shown_card_has_scored"
SHOWN_LEMMA = "for every player p: if shown[p], then card[p] ≠ none"


def _shown(tmp_path, monkeypatch, guard):
    monkeypatch.setenv("RULESPEC_STORE", "off")
    path = tmp_path / "shown.py"
    path.write_text(SHOWN.format(guard=guard))
    return rulespec.load(str(path))


def test_a_fact_about_two_arrays_cell_by_cell_is_inferred(tmp_path, monkeypatch):
    model = _shown(tmp_path, monkeypatch, DEALT)
    without = prove(model, trace_dir=tmp_path, rlimit=RLIMIT, infer=False)
    assert _induction(without, SHOWN_GOAL) == []  # not inductive on its own
    run = prove(model, trace_dir=tmp_path, rlimit=RLIMIT)
    assert _induction(run, SHOWN_GOAL) == ["PROVED"]
    assert SHOWN_LEMMA in run.inference["lemmas"]
    assert _induction(run, "inferred: " + SHOWN_LEMMA) == ["PROVED"]


def test_a_card_shown_before_it_is_dealt_breaks_the_fact_and_the_goal(tmp_path, monkeypatch):
    # planted: show no longer asks for a dealt card; play shows "no card", so the fact is
    # no candidate, and the goal is violated (a card shown before it is dealt scores 0)
    model = _shown(tmp_path, monkeypatch, "pass")
    texts = {c.text for c in candidates(model, played_states(model))}
    assert SHOWN_LEMMA not in texts
    run = prove(model, trace_dir=tmp_path, rlimit=RLIMIT)
    assert "VIOLATED" in {r.status for r in run.results if r.property == SHOWN_GOAL}


# A phase and the seated players: the cards are dealt to every seated player, then each
# reveals hers, which scores from a table that has no value for "no card". Revealing is
# free of errors in every reachable state, but not inductively: from the unreachable
# state "reveal phase, no card" the lookup has no value. The lemma "in the reveal phase,
# every seated player's card is dealt" (over the players of the game, not every seat)
# makes it so; the rules' errors goal is open in one action, and the candidates tried are
# those about what decides whether it raises (the cards, not the points).
REVEAL = '''
from rulespec.spec import PLAYERS, Absent, Game, not_

SRC = "test: the cards are dealt, then revealed"
game = Game("reveal", title="Reveal", players=(2, 3), source=SRC)
Card = game.enum("Card", ["none", "low", "high"], source=SRC)
Phase = game.enum("Phase", ["deal", "reveal"], source=SRC)
phase = game.field("phase", Phase, flow=True, source=SRC)
game.phases(phase, {{Phase.deal: "the cards are being dealt",
                    Phase.reveal: "the cards are being revealed"}}, source=SRC)
card = game.field("card", Card, shape=(PLAYERS,), initial=Card.none, source=SRC)
shown = game.field("shown", bool, shape=(PLAYERS,), source=SRC)
points = game.field("points", range(0, 3), shape=(PLAYERS,), source=SRC)
turns = game.field("turns", range(0, 5), source=SRC)
WORTH = game.table("worth", {{Card.none: Absent("no card is dealt"), Card.low: 1,
                             Card.high: 2}}, source=SRC)


{deal}


@game.action(params={{"p": game.players()}}, phase=Phase.reveal, text="reveal the card of {{p}}",
             source=SRC)
def reveal(rule, p):
    rule.require(not_(shown[p]), "a card not shown yet", source=SRC)
    rule.set(shown[p], True)
    rule.set(points[p], WORTH[card[p]])
    rule.add(turns, 1)


game.current_player(0, source=SRC)
game.terminal(turns >= 3, source=SRC)
game.max_steps(5, source=SRC)
game.score(lambda p: points[p], source=SRC)
SPEC = game.build()
'''
DEAL_ALL = '''
@game.action(params={{"c": Card}}, phase=Phase.deal, text="deal {{c}} to everyone",
             source=SRC)
def deal(rule, c):
    rule.require(c != Card.none, "a card", source=SRC)
    for p in range({seats}):
        with rule.when(p < game.num_players):
            rule.set(card[p], c)
    rule.set(phase, Phase.reveal)
'''
ERRORS = "rules_evaluate_without_error"
SEATED_LEMMA = "if phase = reveal, then for every player p: card[p] ≠ none"


def _toy(tmp_path, monkeypatch, name, text):
    monkeypatch.setenv("RULESPEC_STORE", "off")
    path = tmp_path / name
    path.write_text(text)
    return rulespec.load(str(path))


def _reveal(tmp_path, monkeypatch, seats=3):
    return _toy(tmp_path, monkeypatch, "reveal.py",
                REVEAL.format(deal=DEAL_ALL.format(seats=seats)))


def _errors_need(model, tmp_path, lemma):
    """The rules' errors goal is open without inference, and proved with ``lemma``."""
    without = prove(model, trace_dir=tmp_path, rlimit=RLIMIT, infer=False)
    assert "UNKNOWN" in [r.status for r in without.results
                         if r.property == ERRORS and r.checker == "z3-step"]
    run = prove(model, trace_dir=tmp_path, rlimit=RLIMIT)
    assert lemma in run.inference["lemmas"]
    assert "UNKNOWN" not in {r.status for r in run.results if r.property == ERRORS}
    assert "PROVED" in {r.status for r in run.results if r.property == ERRORS}
    assert _induction(run, "inferred: " + lemma) == ["PROVED"]


def test_a_phase_fact_over_the_seated_players_is_inferred(tmp_path, monkeypatch):
    _errors_need(_reveal(tmp_path, monkeypatch), tmp_path, SEATED_LEMMA)


def test_the_rule_errors_goal_tries_only_the_candidates_about_what_may_raise(tmp_path,
                                                                              monkeypatch):
    model = _reveal(tmp_path, monkeypatch)
    reveal = next(i for i, a in enumerate(model.spec.actions) if a.name == "reveal")
    assert focus(model, [ERRORS]) is None            # no action named: it may read any field
    assert {f.name for f in focus(model, [ERRORS], [reveal])} == {"card"}


def test_a_deal_that_skips_a_seat_breaks_the_fact_and_keeps_the_error(tmp_path, monkeypatch):
    # planted: the deal gives a card to the first seat only; play reveals "no card", so
    # the fact is no candidate, and revealing raises in a reachable state
    model = _reveal(tmp_path, monkeypatch, seats=1)
    texts = {c.text for c in candidates(model, played_states(model))}
    assert SEATED_LEMMA not in texts
    run = prove(model, trace_dir=tmp_path, rlimit=RLIMIT)
    assert "VIOLATED" in {r.status for r in run.results if r.property == ERRORS}


# The same reveal, but the cards are dealt one seat at a time, a counter saying how many
# seats have one: the phase fact over the seated players is kept by the last deal only
# with the fact over the seats before the counter ("the first `dealt` seats have a card").
DEAL_ONE = '''
dealt = game.field("dealt", range(0, 4), flow=True, source=SRC)


@game.action(params={{"c": Card}}, phase=Phase.deal, text="deal {{c}} to the next seat",
             source=SRC)
def deal(rule, c):
    rule.require(c != Card.none, "a card", source=SRC)
    rule.set(card[dealt], c)
    rule.add(dealt, {step})
    with rule.when(dealt >= game.num_players):  # the counter as it is after the add
        rule.set(phase, Phase.reveal)
'''
PREFIX_LEMMA = "for every p in 0..2: if p < dealt, then card[p] ≠ none"


def _deal_one(tmp_path, monkeypatch, step=1):
    return _toy(tmp_path, monkeypatch, "deal_one.py",
                REVEAL.format(deal=DEAL_ONE.format(step=step)))


def test_a_fact_over_the_seats_before_a_counter_is_inferred(tmp_path, monkeypatch):
    model = _deal_one(tmp_path, monkeypatch)
    assert PREFIX_LEMMA in {c.text for c in candidates(model, played_states(model))}
    _errors_need(model, tmp_path, PREFIX_LEMMA)


def test_a_deal_that_skips_a_seat_is_no_prefix_and_keeps_the_error(tmp_path, monkeypatch):
    # planted: the counter moves two seats a deal; play leaves a seat before it without a
    # card, so the fact is no candidate, and revealing that seat raises
    model = _deal_one(tmp_path, monkeypatch, step=2)
    assert PREFIX_LEMMA not in {c.text for c in candidates(model, played_states(model))}
    run = prove(model, trace_dir=tmp_path, rlimit=RLIMIT)
    assert "VIOLATED" in {r.status for r in run.results if r.property == ERRORS}


def test_a_property_left_to_play_stays_skipped_when_lemmas_prove_again(tmp_path,
                                                                      monkeypatch):
    # the second run asks only what a proof can take: what the spec leaves to play is the
    # first run's SKIPPED, and stays in the answer
    text = REVEAL.format(deal=DEAL_ONE.format(step=1))
    model = _toy(tmp_path, monkeypatch, "left_to_play.py", text.replace(
        "SPEC = game.build()", '''
game.invariant("at_most_two_points_each", forall(game.players(), lambda p: points[p] <= 2),
               source=SRC)
game.left_to_play("at_most_two_points_each", reason="a test: left to play")
SPEC = game.build()''').replace("import PLAYERS, Absent, Game, not_",
                                "import PLAYERS, Absent, Game, forall, not_"))
    run = prove(model, trace_dir=tmp_path, rlimit=RLIMIT)
    assert run.lemmas  # the answer is the second run's
    assert [r.status for r in run.results
            if r.property == "at_most_two_points_each"] == ["SKIPPED"]


def test_the_candidates_about_the_open_arrays_are_tried_first_alone(tmp_path, monkeypatch):
    # deal reads card[dealt] (dealt decides whether it raises), reveal worth[card[p]] (the
    # cards do): the candidates naming the cards go first; the rest join them only if
    # those keep no lemma
    import rulespec.check.infer as inference
    model = _deal_one(tmp_path, monkeypatch)
    actions = [i for i, a in enumerate(model.spec.actions) if a.name in ("deal", "reveal")]
    calls = []

    def recording(keep):
        def houdini(model, found, rlimit, goals=None):
            calls.append([c.text for c in found])
            return ([0] if keep else []), 0, []
        return houdini
    for keep, runs in ((False, 2), (True, 1)):
        calls.clear()
        monkeypatch.setattr(inference, "houdini", recording(keep))
        infer(model, RLIMIT, [ERRORS], open_steps=[ERRORS], error_actions=actions)
        assert len(calls) == runs
        assert all("card" in t for t in calls[0])
        if runs == 2:
            assert set(calls[0]) < set(calls[1])
            assert any("card" not in t for t in calls[1])


def _houdini_calls(monkeypatch) -> list[int]:
    """How many candidates each Houdini search is given, in order (filled as it runs)."""
    import rulespec.check.infer as infer_module
    asked: list[int] = []
    real = infer_module.houdini
    monkeypatch.setattr(infer_module, "houdini",
                        lambda m, tried, *a, **k: asked.append(len(tried)) or real(
                            m, tried, *a, **k))
    return asked


def test_the_counterexamples_pick_the_candidates_tried_first(tmp_path, monkeypatch):
    """With the goal's counterexample to induction (``steps = 0, marks = 3``: the
    invariants allow it, a step makes four marks), the candidates tried first are those
    it breaks that name only the goal's fields and the flow fields; with ``steps`` a flow
    field, ``steps = marks`` is among them, a fact the counterexample keeps is not, and
    Houdini is asked about those few before the rest."""
    monkeypatch.setenv("RULESPEC_STORE", "off")
    path = tmp_path / "twins_flow.py"
    path.write_text(TWINS.format(extra="").replace(
        'steps = game.field("steps", range(0, 10),',
        'steps = game.field("steps", range(0, 10), flow=True,'))
    game = rulespec.load(str(path))
    found = candidates(game, played_states(game))
    state = list(game.initial_state(1).values)
    state[game.layout.slots["steps"].offset] = 0
    state[game.layout.slots["marks"].offset] = 3
    picked = [c.text for c in excluding(game, found, [(GOAL, tuple(state))])]
    assert "steps = marks" in picked
    assert "marks ≤ 3" not in picked and "steps ≤ 3" not in picked  # the state keeps them
    assert 0 < len(picked) < len(found)

    asked = _houdini_calls(monkeypatch)
    run = prove(game, rlimit=RLIMIT, trace_dir=tmp_path)
    assert _induction(run, GOAL) == ["PROVED"]
    assert "steps = marks" in run.inference["lemmas"]
    # Houdini was asked first about the counterexamples' few, not every candidate that
    # names the goal's field (what it was asked without them)
    from rulespec.ir.walk import fields_read
    about = focus(game, [GOAL])
    named = [c for c in found if fields_read([c.expr]) & about]
    assert asked and asked[0] == len(picked) < len(named)


ROUND_TRIP = '''
from rulespec.spec import Game, all_of, implies
SRC = "test: a flag raised in the last phase of a round"
game = Game("round_trip", title="Round trip", players=(1, 1), source=SRC)
Phase = game.enum("Phase", ["a", "b", "c", "d"], source=SRC)
phase = game.field("phase", Phase, flow=True, source=SRC)
x = game.field("x", range(0, 2), source=SRC)
laps = game.field("laps", range(0, 4), flow=True, source=SRC)


@game.action(source=SRC)
def to_b(rule):
    rule.require(phase == Phase.a, "in phase a", source=SRC)
    rule.set(phase, Phase.b)


@game.action(source=SRC)
def to_c(rule):
    rule.require(phase == Phase.b, "in phase b", source=SRC)
    rule.set(phase, Phase.c)


@game.action(source=SRC)
def to_d(rule):
    rule.require(phase == Phase.c, "in phase c", source=SRC)
    rule.set(phase, Phase.d)
    rule.set(x, 1)


@game.action(source=SRC)
def to_a(rule):
    rule.require(phase == Phase.d, "in phase d", source=SRC)
    rule.require(laps < 3, "three laps", source=SRC)
    rule.set(phase, Phase.a)
    rule.set(x, 0)
    rule.add(laps, 1)


game.invariant("no_flag_in_phase_c", implies(phase == Phase.c, x == 0), source=SRC)
game.current_player(0, source=SRC)
game.terminal(all_of(phase == Phase.d, laps == 3), source=SRC)
game.max_steps(16, source=SRC)
game.score(lambda p: laps, source=SRC)
SPEC = game.build()
'''


def test_a_picked_phase_fact_comes_with_its_siblings(tmp_path, monkeypatch):
    """The counterexample (``phase = b, x = 1``, then ``to_c``) breaks only "if phase = b,
    then x = 0"; alone it is not kept (``to_b`` from ``phase = a, x = 1``), so the facts
    of the other phases with the same conclusion come with it, and the first stage
    Houdini is asked about proves the goal."""
    monkeypatch.setenv("RULESPEC_STORE", "off")
    path = tmp_path / "round_trip.py"
    path.write_text(ROUND_TRIP)
    game = rulespec.load(str(path))
    found = candidates(game, played_states(game))
    state = list(game.initial_state(1).values)
    state[game.layout.slots["phase"].offset] = 1
    state[game.layout.slots["x"].offset] = 1
    picked = [c.text for c in excluding(game, found, [("no_flag_in_phase_c", tuple(state))])]
    assert "if phase = b, then x = 0" in picked
    assert "if phase = a, then x = 0" in picked  # a sibling: the counterexample keeps it
    assert len(picked) < len(found)

    asked = _houdini_calls(monkeypatch)
    run = prove(game, rlimit=RLIMIT, trace_dir=tmp_path)
    assert _induction(run, "no_flag_in_phase_c") == ["PROVED"]
    assert "if phase = a, then x = 0" in run.inference["lemmas"]
    assert len(asked) == 1  # the counterexamples' stage kept what the goal needs
