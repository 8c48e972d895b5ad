"""The C backend plays the games the Python backend plays, draw for draw, and the commands
that use it give the Python backend's results for one seed.

* its random generator is CPython's (seeding, ``randrange``, ``random``), and a state moves
  between a Python generator and a C one both ways;
* its connectivity primitives give ``rulespec/ir/closure.py``'s answers on random graphs;
* a seeded game played in C is ``play_random``'s game (every bundled game);
* ``check --random`` (random and greedy players, planted bugs included), impact's lockstep
  games (random, greedy and MCTS players) and coverage give the same results on both;
* without a C compiler the commands run on the Python backend, with one line saying so.

The rules themselves -- every function on random states -- are held to the Python backend
in ``tests/test_backend_equivalence.py``.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rulespec
from rulespec.check.impact import lockstep
from rulespec.check.policy import GreedyPolicy, MctsPolicy
from rulespec.check.runner import RANDOM, check_game
from rulespec.ir.closure import Graph, is_connected, largest_group, size_of_component
from rulespec.report.coverage import play_coverage
from rulespec.runtime import native as N
from rulespec.runtime.play import play_random

ROOT = Path(__file__).resolve().parent.parent
GAMES = rulespec.available_games()
#: fixtures whose checks find planted bugs (a violation to shrink and replay)
PLANTED = ["tests/fixtures/occupied_cell_tic_tac_toe", "tests/fixtures/nim_unbounded",
           "tests/fixtures/observation_leak", "tests/fixtures/horizon_toy",
           "tests/fixtures/kit_market"]


def _native(name: str, interpretation: dict | None = None):
    model = rulespec.load(name, interpretation=interpretation)
    game = N.native_for(model)
    assert game is not None, "the C backend is not available on this machine"
    return model, game


# --- the random generator -----------------------------------------------------------
@pytest.mark.parametrize("seed", [0, 1, -7, 2 ** 40 + 5, 2 ** 63 - 1, "0:3", "coverage:0:1",
                                  b"bytes", 0.25])
def test_the_c_generator_is_cpythons(seed):
    _, game = _native("tic_tac_toe")
    c = N.Rng.seeded(game, seed)
    py = random.Random(seed)
    state = game.ffi.new("uint32_t[625]")
    game.rt.rs_rng_get(c.ptr, state)
    assert tuple(state) == py.getstate()[1]
    for n in [1, 2, 3, 7, 52, 100, 1000, 2 ** 31, 2 ** 40]:
        assert game.rt.rs_randbelow(c.ptr, n) == py.randrange(n), n
    assert [game.rt.rs_random(c.ptr) for _ in range(5)] == [py.random() for _ in range(5)]
    c.store(py)                       # Python draws on where C stopped...
    again = N.Rng.of(game, py)        # ...and C where Python is
    assert game.rt.rs_randbelow(again.ptr, 1000) == py.randrange(1000)


def test_a_generator_seeded_otherwise_than_python_would_is_caught():
    """The comparison above can fail: a generator one draw ahead is told apart."""
    _, game = _native("tic_tac_toe")
    c = N.Rng.seeded(game, 5)
    game.rt.rs_random(c.ptr)
    py = random.Random(5)
    assert [game.rt.rs_randbelow(c.ptr, 1000) for _ in range(4)] != \
        [py.randrange(1000) for _ in range(4)]


# --- connectivity ---------------------------------------------------------------------
@st.composite
def graphs(draw, max_nodes: int = 10):
    n = draw(st.integers(1, max_nodes))
    pairs = [(a, b) for a in range(n) for b in range(a + 1, n)]
    edges = draw(st.lists(st.sampled_from(pairs), unique=True)) if pairs else []
    return Graph.from_edges("random", n, edges)


def _csr(game, graph):
    start, nbr = [0], []
    for ns in graph.neighbours:
        nbr.extend(ns)
        start.append(len(nbr))
    return game.ffi.new("int32_t[]", start), game.ffi.new("int32_t[]", nbr or [0])


@settings(max_examples=200)
@given(data=st.data(), graph=graphs(), n_labels=st.integers(1, 4))
def test_c_connectivity_agrees_with_the_reference_search(data, graph, n_labels):
    _, game = _native("tic_tac_toe")
    f, rt = game.ffi, game.rt
    n = graph.size
    members = data.draw(st.lists(st.booleans(), min_size=n, max_size=n), label="members")
    sources = sorted(data.draw(st.sets(st.integers(0, n - 1), min_size=1), label="sources"))
    targets = sorted(data.draw(st.sets(st.integers(0, n - 1), min_size=1), label="targets"))
    labels = data.draw(st.lists(st.integers(-1, n_labels), min_size=n, max_size=n),
                       label="labels")
    start, nbr = _csr(game, graph)
    m = f.new("unsigned char[]", [int(x) for x in members])
    got = rt.rs_closure_connected(n, start, nbr, m, f.new("int32_t[]", sources), len(sources),
                                  f.new("int32_t[]", targets), len(targets))
    assert bool(got) == is_connected(graph.neighbours, sources, targets, members)
    for s in range(n):
        assert rt.rs_closure_component(n, start, nbr, m, s) == \
            size_of_component(graph.neighbours, s, members)
    assert rt.rs_closure_largest(n, start, nbr, m, f.NULL, 0) == \
        largest_group(graph.neighbours, members)
    try:
        expected = largest_group(graph.neighbours, members, labels, n_labels)
    except ValueError:   # a member's label out of range: a rule error in both
        expected = -1
    assert rt.rs_closure_largest(n, start, nbr, m, f.new("V[]", labels), n_labels) == expected


# --- whole games ----------------------------------------------------------------------
@pytest.mark.parametrize("name", GAMES)
def test_a_seeded_game_in_c_is_play_randoms_game(name):
    model, game = _native(name)
    spec = model.spec
    for seed in range(12):
        n = model.min_players + seed % (model.max_players - model.min_players + 1)
        final, steps = play_random(model, n, seed)
        limit = spec.max_steps + 1 if spec.horizon is None else spec.horizon
        played = N.play(game, N.Rng.seeded(game, seed), n, limit=limit)
        assert played is not None
        assert played.final == final.values
        assert list(played.keys) == [s.action.key for s in steps]


def _results(model, backend, **kw):
    return [attrs.asdict(r) for r in check_game(model, mode=RANDOM, trace_dir=None,
                                                backend=backend, **kw)]


@pytest.mark.parametrize("name", [*GAMES, *PLANTED])
def test_check_random_gives_the_same_verdicts_on_both_backends(name):
    model = rulespec.load(name)
    examples = 40 if model.layout.size < 200 else 3
    c = _results(model, "c", examples=examples, seed=1)
    assert c == _results(model, "python", examples=examples, seed=1)


def test_check_random_finds_the_planted_bugs_in_c():
    """The C path reports what the Python path reports: a planted bug is VIOLATED with
    the same shortened trace on both (not PASSED because C did not look)."""
    model = rulespec.load("tests/fixtures/occupied_cell_tic_tac_toe")
    found = {r["property"]: r for r in _results(model, "c", examples=50, seed=0)}
    assert found["cells_filled_one_per_move"]["status"] == "VIOLATED"
    assert found["cells_filled_one_per_move"]["trace"] == ["cell 0", "cell 0"]
    model = rulespec.load("tests/fixtures/nim_unbounded")
    found = {r["property"]: r for r in _results(model, "c", examples=50, seed=0)}
    assert found["fields_within_bounds"]["status"] == "VIOLATED"


@pytest.mark.parametrize("name", ["tic_tac_toe", "crazy_eights", "hex"])
def test_greedy_check_gives_the_same_verdicts_on_both_backends(name):
    model = rulespec.load(name)
    kw = dict(examples=8, seed=2, policy=GreedyPolicy())
    assert _results(model, "c", **kw) == _results(model, "python", **kw)


@pytest.mark.parametrize("name,a,b,policy,games", [
    ("hawaii", {"beach_return": "free"}, {"beach_return": "forbidden"}, None, 12),
    ("crazy_eights", {}, {"penalty": "openspiel_code"}, None, 30),
    ("crazy_eights", {}, {"penalty": "openspiel_code"}, GreedyPolicy(), 10),
    ("hex", {"board_size": "3"}, {"board_size": "4"}, GreedyPolicy(), 10),
    ("hawaii", {"beach_return": "free"}, {"beach_return": "forbidden"}, GreedyPolicy(), 3),
])
def test_lockstep_games_are_the_same_on_both_backends(name, a, b, policy, games):
    ma, mb = rulespec.load(name, interpretation=a), rulespec.load(name, interpretation=b)
    c = lockstep(ma, mb, games, 0, policy=policy, backend="c")
    assert c == lockstep(ma, mb, games, 0, policy=policy, backend="python")


def test_mcts_players_play_the_same_games_with_rollouts_in_c():
    pytest.importorskip("open_spiel")
    ma = rulespec.load("hawaii", interpretation={"beach_return": "free"})
    mb = rulespec.load("hawaii", interpretation={"beach_return": "forbidden"})
    got = [lockstep(ma, mb, 1, 0, policy=MctsPolicy(simulations=4, backend=backend),
                    backend=backend) for backend in ("c", "python")]
    assert got[0] == got[1]


@pytest.mark.parametrize("name", GAMES)
def test_coverage_counts_are_the_same_on_both_backends(name):
    model = rulespec.load(name)
    games = 4 if model.layout.size < 200 else 2
    c = play_coverage(model, games, 3, backend="c")
    assert c == play_coverage(model, games, 3, backend="python")
    assert c.steps > 0 and sum(c.actions.values()) == c.steps


# --- no compiler ------------------------------------------------------------------------
def test_without_a_compiler_the_python_backend_plays_and_one_line_says_so(tmp_path):
    """CC names no program and the cache is empty: the command still checks (on the
    Python backend), and says so once on stderr."""
    env = {**os.environ, "CC": str(tmp_path / "no-such-cc"),
           "RULESPEC_CACHE": str(tmp_path / "cache")}
    cmd = [sys.executable, "-m", "rulespec.cli", "check", "tic_tac_toe", "--random",
           "--examples", "30", "--quiet"]
    done = subprocess.run(cmd, env=env, capture_output=True, text=True, cwd=ROOT,
                          timeout=600)
    assert done.returncode == 0, done.stderr
    notes = [line for line in done.stderr.splitlines() if line.strip()]
    assert len(notes) == 1 and "no C compiler found" in notes[0] and "Python" in notes[0]
    assert "PASSED" in done.stdout
    with_c = subprocess.run([*cmd, "--backend", "python"], env=env, capture_output=True,
                            text=True, cwd=ROOT, timeout=600)
    assert with_c.stderr.strip() == ""   # asked for Python: nothing to say
    assert with_c.stdout == done.stdout


def test_a_path_without_any_compiler_falls_back_too(tmp_path):
    env = {k: v for k, v in os.environ.items() if k != "CC"}
    env.update(PATH=str(tmp_path), RULESPEC_CACHE=str(tmp_path / "cache"))
    code = ("import rulespec; from rulespec.runtime.native import native_for; "
            "print(native_for(rulespec.load('connect_four')))")
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                          text=True, cwd=ROOT, timeout=600)
    assert done.stdout.strip() == "None"
    assert "no C compiler found (looked for cc, gcc and clang" in done.stderr


@pytest.mark.parametrize("name", ["connect_four", "crazy_eights", "hawaii"])
def test_a_model_stepping_on_c_gives_the_api_answers_of_python(name):
    """``rulespec.load(name, backend="c")`` steps on the C module (its source is C) and
    answers every API call as the Python model does, refusals included."""
    py = rulespec.load(name)
    c = rulespec.load(name, backend="c")
    assert c.compiled.source.startswith('#include "rulespec_native.h"')
    assert py.compiled.source.lstrip().startswith(("def ", "_T"))
    rng = random.Random(4)
    state = py.initial_state(py.max_players)
    assert c.initial_state(py.max_players) == state
    for _ in range(60):
        legal = py.legal_actions(state)
        assert c.legal_actions(state) == legal
        assert c.current_player(state) == py.current_player(state)
        assert c.scores(state) == py.scores(state)
        assert c.violated_invariants(state) == py.violated_invariants(state)
        if not legal:
            assert c.winners(state) == py.winners(state)
            break
        refused = next((a for a in py._every_action().values() if a not in set(legal)), None)
        if refused is not None:
            with pytest.raises(rulespec.IllegalAction) as on_c:
                c.apply(state, refused)
            with pytest.raises(rulespec.IllegalAction) as on_py:
                py.apply(state, refused)
            assert str(on_c.value) == str(on_py.value)
        action = legal[rng.randrange(len(legal))]
        after = py.apply(state, action)
        assert c.apply(state, action) == after
        state = after
