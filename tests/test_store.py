"""The verdict store (rulespec/check/store.py): what it keeps is what would be computed, an
edit recomputes exactly the verdicts that read it, a corrupt entry is computed again, and
an interrupted campaign goes on where it stopped."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import rulespec
from rulespec.check import job_store
from rulespec.check.dead import Played
from rulespec.check.fingerprint import SpecPrint
from rulespec.check.mutate.judge import MutantResult
from rulespec.check.prove import _step_groups, _teachers, prove
from rulespec.check.results import Result
from rulespec.check.steps import Lessons, step_cases
from rulespec.check.store import MISSING, Store, decode, encode, opened
from rulespec.compile.smt_backend import compile_smt
from rulespec.runtime.registry import available_games, models_dir

#: a small budget: every bundled game proves in seconds, with verdicts of every kind
RLIMIT, DEPTH = 300_000, 1


def _json(run) -> str:
    return json.dumps([r.to_json() for r in run.results], sort_keys=True)


# --- the entries: data, never code --------------------------------------------------------
def test_values_round_trip_through_json_with_their_types():
    lessons = Lessons()
    lessons.learned[(None, "g", None)] = {"core": {(1, "x"), (2, "y")}}
    lessons.note("split further", 0, "g", frozenset({1, 2}))
    lessons.split_on(0, "g", "bounds", "row")
    value = (1, [2.5, None], {"a": {(1, 2)}}, {(3, 4): frozenset({"b"})},
             Result("p", "PROVED", "z3-step", evidence={"premises": ["q"]}),
             Played(3, frozenset({1}), frozenset({(0, "when@3")})),
             MutantResult("m", "op", "d", None, None, ("e",), "KILLED"), lessons)
    text = json.dumps(encode(value))
    back = decode(json.loads(text))
    assert back[:7] == value[:7] and back[4].evidence == {"premises": ["q"]}
    assert vars(back[7]).keys() == vars(lessons).keys()
    assert back[7].learned == lessons.learned and back[7].split_kind("bounds", "row")


def test_an_entry_names_no_code_it_could_run():
    with pytest.raises(ValueError, match="not a stored record: 'Popen'"):
        decode({"record": "Popen", "fields": {"args": ["rm", "-rf", "/"]}})
    with pytest.raises(TypeError, match="not plain data"):
        encode(subprocess)


def test_a_corrupt_entry_is_ignored_with_one_line_and_computed_again(tmp_path, capsys):
    model = rulespec.load("tic_tac_toe")
    with opened(folder=tmp_path) as store:
        first = prove(model, rlimit=RLIMIT, depth=DEPTH)
    entries = sorted(tmp_path.rglob("*.json"))
    assert len(entries) == first.jobs == first.stored[1] and first.stored[0] == 0
    entries[0].write_text('{"kind": "proof-job", "value": {"tuple": [1')  # half an entry
    entries[1].write_text(json.dumps({"kind": "proof-job",
                                      "value": {"record": "os.system", "fields": {}}}))
    with opened(folder=tmp_path) as store:
        again = prove(model, rlimit=RLIMIT, depth=DEPTH)
    err = capsys.readouterr().err.splitlines()
    assert len([x for x in err if "ignored a corrupt stored verdict" in x]) == 2, err
    assert again.stored == (first.jobs - 2, first.jobs)
    assert _json(again) == _json(first) and again.rlimit == first.rlimit
    with opened(folder=tmp_path) as store:  # computed again, and kept whole this time
        third = prove(model, rlimit=RLIMIT, depth=DEPTH)
    assert third.stored == (first.jobs, first.jobs) and store.counts()[0] == first.jobs


def test_fresh_computes_anew_and_a_budget_is_part_of_the_key(tmp_path):
    model = rulespec.load("tic_tac_toe")
    with opened(folder=tmp_path):
        prove(model, rlimit=RLIMIT, depth=DEPTH)
    with opened(folder=tmp_path, fresh=True):
        assert prove(model, rlimit=RLIMIT, depth=DEPTH).stored[0] == 0
    with opened(folder=tmp_path):  # another budget: only what does not read it is stored
        other = prove(model, rlimit=RLIMIT + 1, depth=DEPTH)
        assert other.stored == (1, other.jobs)  # the random games played for dead rules
        assert all(r.evidence.get("rlimit") == RLIMIT + 1 for r in other.results
                   if r.evidence and "rlimit" in r.evidence)
        assert prove(model, rlimit=RLIMIT, depth=DEPTH).stored[0] == other.jobs
    store = Store(tmp_path)
    assert store.get("proof-job", {"another": "key"}) is MISSING


def test_the_store_is_off_in_the_tests_but_for_their_own():
    assert os.environ.get("RULESPEC_STORE") == "off"
    with opened() as store:
        assert store is None


# --- stored and fresh verdicts are the same ------------------------------------------------
#: the games whose whole proof is cheap; of the others (hex: 65 s for two proofs), a slice
WHOLE = ("tic_tac_toe", "connect_four", "crazy_eights")


@pytest.mark.slow
@pytest.mark.parametrize("game", [g for g in available_games() if g in WHOLE])
def test_stored_proofs_are_the_fresh_proofs_on_every_small_bundled_game(game, tmp_path):
    model = rulespec.load(game)
    with opened(folder=tmp_path, fresh=True):
        fresh = prove(model, rlimit=RLIMIT, depth=DEPTH)
    with opened(folder=tmp_path):
        stored = prove(model, rlimit=RLIMIT, depth=DEPTH)
    assert stored.stored == (fresh.jobs, fresh.jobs)
    assert _json(stored) == _json(fresh)
    assert (stored.rlimit, stored.jobs, stored.units) == (fresh.rlimit, fresh.jobs, fresh.units)


@pytest.mark.parametrize("game", [g for g in available_games() if g not in WHOLE])
def test_stored_proof_jobs_are_the_fresh_ones_on_a_slice_of_every_other_bundled_game(
        game, tmp_path):
    """A whole proof of a seed game takes minutes; its jobs are of two kinds, and the
    store keeps each the same way: the base case and laws, and a step job (two action
    cases of the fewest players, with what they learned) go through the store twice."""
    from rulespec.check.jobs import Jobs
    from rulespec.check.prove import _base_and_laws_job, _steps_job
    from rulespec.compile.smt_terms import own_context
    from rulespec.check.budget import Budget
    model = rulespec.load(game)
    with own_context():
        cases = step_cases(compile_smt(model.spec, model.interpretation))
    fewest = [c for c in cases if dict(c[1])[0] == model.spec.min_players][:2]
    budget = Budget(RLIMIT)

    def run(fresh: bool):
        with opened(folder=tmp_path, fresh=fresh), Jobs(model, workers=1) as jobs:
            stored = job_store.JobStore(model)
            done = [stored.submit(jobs, "steps", _steps_job, (fewest, budget, None),
                                  [a for a, _ in fewest]),
                    stored.submit(jobs, "base case and laws", _base_and_laws_job,
                                  (budget, None), [])]
            jobs.wait(done)
            out = [stored.answer(jobs, f) for f in done]
            return out, json.dumps(encode(out), sort_keys=True), jobs.rlimit, stored.counts()
    out, fresh, units, counts = run(fresh=True)
    assert counts == (0, 2)
    (steps, _), (base, laws) = out   # the cases' verdicts and lessons; the base, the laws
    assert [case for case, *_ in steps] == fewest and isinstance(base, dict)
    assert all(isinstance(r, Result) for r in laws)
    _, again, stored_units, counts = run(fresh=False)
    assert counts == (2, 2)
    assert again == fresh and stored_units == units > 0


def _cli(*args: str, cwd: Path, cache: Path) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "RULESPEC_STORE"}
    env["RULESPEC_CACHE"] = str(cache)
    return subprocess.run([sys.executable, "-m", "rulespec.cli", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=600)


@pytest.mark.slow
def test_stored_and_fresh_reports_mutations_and_scenarios_are_the_same(tmp_path):
    runs = {}
    for how in ("first", "stored", "fresh"):
        extra = ["--fresh"] if how == "fresh" else []
        runs[how] = [_cli("mutate", "tic_tac_toe", "--json", "-q", *extra, cwd=tmp_path,
                          cache=tmp_path / "cache"),
                     _cli("scenario", "hex", "--json", "-q", *extra, cwd=tmp_path,
                          cache=tmp_path / "cache"),
                     _cli("report", "tic_tac_toe", "-o", "out", "-q", *extra, cwd=tmp_path,
                          cache=tmp_path / "cache")]
        runs[how].append((tmp_path / "out" / "tic_tac_toe.json").read_text())
    first, stored, fresh = runs["first"], runs["stored"], runs["fresh"]
    for k in range(3):
        assert first[k].returncode == stored[k].returncode == fresh[k].returncode
        assert first[k].stdout.split("reports (")[0] == stored[k].stdout.split("reports (")[0]
        assert stored[k].stdout.split("reports (")[0] == fresh[k].stdout.split("reports (")[0]
    assert "rulespec: 22 of 22 mutant judgements from the verdict store" in stored[0].stderr
    assert "rulespec: 0 of 22 mutant judgements from the verdict store" in fresh[0].stderr
    assert "from the verdict store" in stored[1].stderr
    assert "rulespec: 1 of 1 reports from the verdict store" in stored[2].stderr
    assert "rulespec: 0 of 1 reports from the verdict store" in fresh[2].stderr
    assert stored[3] == first[3]   # the stored report document, word for word
    drop = lambda doc: {k: v for k, v in json.loads(doc).items() if k != "budget"}  # noqa: E731
    assert drop(fresh[3]) == drop(first[3])   # computed again: all but the time it took


# --- an edit recomputes what reads it -----------------------------------------------------
#: two edits of pass_turn, each on one line: a precondition written otherwise (every
#: verdict stays, the random games play as before), and a pass that counts twice (it jumps
#: over the end of the game: an invariant breaks)
EDITS = {"same_rule": ("any_of(can_pass, deck.size() == 0)",    # a size is never below 0
                       "any_of(can_pass, deck.size() <= 0)"),
         "breaks_an_invariant": ("if_(deck.size() == 0, passes + 1, 0)",
                                 "if_(deck.size() == 0, passes + 2, 0)")}


@pytest.fixture(scope="module")
def unedited_crazy_eights(tmp_path_factory):
    """Crazy Eights copied and proved once for both edits (a third of each test's work):
    (its folder, the store the proof filled, the proof run)."""
    where = tmp_path_factory.mktemp("unedited")
    folder = where / "crazy_eights"
    shutil.copytree(models_dir() / "crazy_eights", folder)
    with opened(folder=where / "cache"):
        run = prove(rulespec.load(str(folder / "spec.py")), rlimit=RLIMIT, depth=DEPTH)
    return folder, where / "cache", run


@pytest.mark.slow
@pytest.mark.parametrize("edit", sorted(EDITS))
def test_editing_one_rule_recomputes_exactly_the_proof_jobs_that_read_it(
        edit, tmp_path, monkeypatch, unedited_crazy_eights):
    from rulespec.check.prove import _dead_groups
    folder, stored, unedited = unedited_crazy_eights
    shutil.copytree(stored, tmp_path / "cache")   # this edit's own copy of the store
    spec = folder / "spec.py"
    before = rulespec.load(str(spec))
    asked: list[tuple[str, str, bool]] = []   # (job, what it proves, from the store)
    submit = job_store.JobStore.submit

    def noted(self, jobs, label, fn, args, actions):
        done = jobs.submitted
        f = submit(self, jobs, label, fn, args, actions)
        asked.append((fn.__name__, label, f.done() and jobs.submitted == done + 1
                      and label in jobs.units))
        return f
    monkeypatch.setattr(job_store.JobStore, "submit", noted)
    text = spec.read_text()
    old, new = EDITS[edit]
    assert text.count(old) == 1
    edited_folder = tmp_path / "edited" / "crazy_eights"   # a path not loaded before
    shutil.copytree(folder, edited_folder)
    (edited_folder / "spec.py").write_text(text.replace(old, new))
    after = rulespec.load(str(edited_folder / "spec.py"))
    p, q = SpecPrint.of(before.spec), SpecPrint.of(after.spec)
    changed = [a.name for a, x, y in zip(after.spec.actions, p.actions, q.actions) if x != y]
    assert changed == ["pass_turn"] and p.rest == q.rest  # the one rule, nothing else
    asked.clear()
    with opened(folder=tmp_path / "cache"):
        edited = prove(after, rlimit=RLIMIT, depth=DEPTH)
    jobs = list(asked)   # the edited run's jobs (not the fresh run's below)
    with opened(folder=tmp_path / "fresh", fresh=True):
        fresh = prove(after, rlimit=RLIMIT, depth=DEPTH)
    assert _json(edited) == _json(fresh) and edited.rlimit == fresh.rlimit
    assert edited.units == fresh.units
    was = {(r.property, r.checker): r.status for r in unedited.results}
    now = {(r.property, r.checker): r.status for r in edited.results}
    if edit == "breaks_an_invariant":   # the changed verdict is the edited run's
        step = ("passes_end_the_game_at_a_full_round", "z3-step")
        assert was[step] == "PROVED" and now.get(step) != "PROVED", {
            k: (v, now.get(k)) for k, v in was.items() if now.get(k) != v}
    else:   # the same verdicts (a dead-rule verdict names the branch as now written)
        assert {k: v for k, v in now.items() if "pass_turn" not in k[0]} == {
            k: v for k, v in was.items() if "pass_turn" not in k[0]}
        assert sorted(now.values()) == sorted(was.values())
    # which step jobs read pass_turn: those that prove it, and those they teach
    with rulespec.compile.smt_terms.own_context():
        cases = step_cases(compile_smt(after.spec))
    groups = _step_groups(after, cases)
    teachers = _teachers(groups)
    index = [a.name for a in after.spec.actions].index("pass_turn")
    reading = {i for i, g in enumerate(groups) if any(a == index for a, _ in g)}
    taught = {i for i, t in enumerate(teachers) if t in reading} - reading
    steps = [(label, hit) for fn, label, hit in jobs if fn == "_steps_job"]
    assert len(steps) == len(groups)
    recomputed = [label for label, hit in steps if not hit]
    assert "pass_turn" in " ".join(recomputed) or len(recomputed) >= len(reading)
    assert len(reading) <= len(recomputed) <= len(reading) + len(taught), recomputed
    assert len(steps) - len(recomputed) >= len(groups) - len(reading) - len(taught) > 0
    # a dead-rule job reads its own actions: only pass_turn's is searched again; the
    # scoring's and the base case read no action
    names = [a.name for a in after.spec.actions]
    reads = {f"dead rules: {names[g[0]]}" + (f" and {len(g) - 1} more" if len(g) > 1 else ""):
             index in g for g in _dead_groups(after, cases)}
    dead = {label: hit for fn, label, hit in jobs if fn == "_dead_job"}
    assert len(dead) == len(reads) > 1
    assert not any(dead[label] for label, reading in reads.items() if reading)
    others = {dead[label] for label, reading in reads.items() if not reading}
    assert len(others) == 1   # stored, or (the random games played otherwise) all anew
    if edit == "same_rule":   # the games play as before: the others are stored
        assert others == {True}
    assert [hit for fn, _, hit in jobs if fn == "_base_and_laws_job"] == [True]
    assert [hit for fn, _, hit in jobs if fn == "_score_job"] == list(others)
    # the random games and bounded model checking play or unroll every rule, and reading
    # the states tests every action's preconditions
    assert [hit for fn, _, hit in jobs if fn == "_reading_job"] == [False]
    assert not any(hit for fn, _, hit in jobs if fn in ("_played_job", "_bmc_job"))
    assert edited.stored == (sum(hit for *_, hit in jobs), len(jobs))


# --- runs that resume -----------------------------------------------------------------------
def test_an_interrupted_mutate_goes_on_where_it_stopped(tmp_path, monkeypatch):
    """Ctrl-C as a counted event, after the third mutant's judgement is kept: the entries
    left are whole, and the command run again judges only the mutants not judged, with
    the fresh run's report. (Ctrl-C from a terminal to ``mutate``'s process group, workers
    included, is tests/test_interrupt.py's.)"""
    from rulespec.check.mutate import mutate_game
    from rulespec.check.mutate.stored import Stored

    cache = tmp_path / "cache"
    listed = _cli("mutate", "tic_tac_toe", "--list", "--json", cwd=tmp_path, cache=cache)
    ids = [m["id"] for m in json.loads(listed.stdout)["mutants"]]
    chosen = [x for k, x in enumerate(ids) if k % (len(ids) // 8) == 0][:8]
    with monkeypatch.context() as m:
        stop = _Interrupt(m, Stored, "keep", after=3)
        with opened(folder=cache / "verdicts"), pytest.raises(KeyboardInterrupt):
            mutate_game("tic_tac_toe", only=chosen)
    assert stop.calls == 3
    kept = list((cache / "verdicts" / "mutant").rglob("*.json"))
    assert all(json.loads(p.read_text())["kind"] == "mutant" for p in kept)  # none half
    assert len(kept) - 1 == 3   # and the baseline
    command = ["mutate", "tic_tac_toe", "--json", *[a for i in chosen for a in ("--mutant", i)]]
    again = _cli(*command, cwd=tmp_path, cache=cache)
    assert f"3 of {len(chosen)} mutant judgements from the verdict store" in again.stderr
    fresh = _cli(*command, "--fresh", cwd=tmp_path, cache=cache)
    assert f"0 of {len(chosen)} mutant judgements" in fresh.stderr
    # the same report, though the judgements kept were made in another folder (this
    # process's), where the rule's file was named by another relative path
    assert json.loads(again.stdout) == json.loads(fresh.stdout)


class _Interrupt:
    """Ctrl-C as a counted event: ``fn`` (a method) runs, and after its ``after``-th
    call this run is interrupted (what that call did is kept: it was finished)."""

    def __init__(self, monkeypatch, owner: type, name: str, after: int) -> None:
        self.calls, self.after = 0, after
        original = getattr(owner, name)

        def counted(*args, **kwargs):
            out = original(*args, **kwargs)
            self.calls += 1
            if self.calls == self.after:
                raise KeyboardInterrupt
            return out
        monkeypatch.setattr(owner, name, counted)


def test_an_interrupted_diff_plays_only_the_games_it_had_not_played(tmp_path, monkeypatch):
    from rulespec.check import impact_store
    from rulespec.check.diff import diff
    ma = rulespec.load("crazy_eights")
    mb = rulespec.load("crazy_eights", {"penalty": "openspiel_code"})
    games = 12

    def run(**store) -> tuple[dict, tuple[int, int]]:
        with opened(**store) as s:
            report = diff(ma, mb, depth=1, setups=1, games=games, seed=3, budget=200,
                          scenario_dir=None)
            return report.to_json(), s.counts()
    whole, _ = run(folder=tmp_path / "whole")
    with monkeypatch.context() as m:
        _Interrupt(m, impact_store.LockstepStore, "put", after=5)
        with pytest.raises(KeyboardInterrupt):
            run(folder=tmp_path / "cache")
    kept = list((tmp_path / "cache" / impact_store.KIND).rglob("*.json"))
    assert len(kept) == 5
    resumed, counts = run(folder=tmp_path / "cache")
    assert counts == (5, games)   # the five games played before Ctrl-C, and the rest
    assert resumed == whole
    again, counts = run(folder=tmp_path / "cache")
    assert counts == (games, games) and again == whole


@pytest.mark.slow
def test_an_interrupted_report_all_goes_on_where_it_stopped(tmp_path, monkeypatch):
    """Two games' reports, Ctrl-C during the second one's proofs: the next run takes the
    first report whole and the second one's finished proof jobs from the store, and
    writes what an uninterrupted run writes."""
    import attrs

    from rulespec.report.budget import SMOKE
    from rulespec.report.run import report_games
    budget = attrs.evolve(SMOKE, prove=True, solver_rlimit=RLIMIT)
    games = ["tic_tac_toe", "connect_four"]

    def run(out: Path, folder: Path) -> list[dict]:
        with opened(folder=folder):
            return report_games(games, budget, str(out))

    def written(out: Path) -> list[dict]:
        docs = [json.loads((out / f"{g}.json").read_text()) for g in games]
        for d in docs:
            d["budget"].pop("seconds")   # how long it took: not a verdict
        return docs
    whole = run(tmp_path / "whole", tmp_path / "whole-cache")
    with monkeypatch.context() as m:   # how many proof jobs the first game answers
        first = _Interrupt(m, job_store.JobStore, "answer", after=0)
        with opened(folder=tmp_path / "first-cache"):
            report_games(games[:1], budget, str(tmp_path / "first"))
    first_jobs = first.calls
    with monkeypatch.context() as m:
        stop = _Interrupt(m, job_store.JobStore, "answer", after=first_jobs + 2)
        with pytest.raises(KeyboardInterrupt):
            run(tmp_path / "out", tmp_path / "cache")
    assert stop.calls == first_jobs + 2
    resumed = run(tmp_path / "out", tmp_path / "cache")
    assert resumed[0]["stored"]["report"] and not resumed[1]["stored"]["report"]
    assert resumed[1]["stored"]["hits"] >= 2   # its proof jobs answered before Ctrl-C
    assert written(tmp_path / "out") == written(tmp_path / "whole")
