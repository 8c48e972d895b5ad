"""A game compiled from another compiled game's functions plus the ones that differ plays
exactly as the game compiled whole (``compile_python(..., like=, only=)``): a mutant from
its spec, and a reading from another reading (``rulespec.load`` does that).

``rulespec mutate`` generates only the functions a mutant changes (:func:`regenerated`)
and takes the others from the spec's compiled model. Here every mutant of tic-tac-toe,
Connect Four and a sample of Crazy Eights' (chance), and one Hawaii mutant of each kind of
change, is compiled both ways and both are played side by side on seeded random games:
the same states, turns, legal actions, chance weights, scores and tie-break keys, the same
``step`` and ``apply`` for every action the spec or the mutant allows -- and the same
exception where one raises.
"""

from __future__ import annotations

import random
from typing import Any, Callable

import pytest

import rulespec
from rulespec.check.mutate import mutants
from rulespec.check.mutate.judge import BUDGETS, Judges, _Models, regenerated
from rulespec.compile.python_backend import CHANCE, compile_python
from rulespec.compile.reuse import functions_reading
from rulespec.runtime import registry
from rulespec.runtime.model import Model
from rulespec.ir.errors import SpecError


def _outcome(fn: Callable[..., Any], *args: Any) -> Any:
    try:
        return ("=", fn(*args))
    except Exception as err:  # noqa: BLE001 - a mutant's rules may raise; both must alike
        return ("raise", type(err).__name__)


def _differences(whole: Any, reused: Any, players: range, games: int, steps: int,
                 seed: int, keys_per_state: int = 1000) -> list[str]:
    """Where two compiled games disagree on seeded random games (empty: nowhere); ``step``
    and ``apply`` are compared on at most ``keys_per_state`` keys per state."""
    rng = random.Random(seed)
    out: list[str] = []

    def same(what: str, fn: str, *args: Any) -> Any:
        a = _outcome(getattr(whole, fn) if isinstance(fn, str) else fn, *args)
        b = _outcome(getattr(reused, fn) if isinstance(fn, str) else fn, *args)
        if a != b:
            out.append(f"{what}: {a} != {b}")
        return a

    for n in players:
        for _ in range(games):
            got = same(f"initial({n})", "initial", n)
            if got[0] != "=":
                break
            v = got[1]
            for _ in range(steps):
                same("terminal", "terminal", v)
                same("current_player", "current_player", v)
                same("scores", "scores", v)
                for k in range(len(whole.tie_keys)):
                    for p in range(n):
                        a = _outcome(whole.tie_keys[k], v, p)
                        if a != _outcome(reused.tie_keys[k], v, p):
                            out.append(f"tie key {k}")
                for name in ("invariants", "conserved"):
                    for k, (fw, fr) in enumerate(zip(getattr(whole, name),
                                                     getattr(reused, name))):
                        if _outcome(fw, v) != _outcome(fr, v):
                            out.append(f"{name} {k}")
                cw = same("chance_weights", "chance_weights", v)
                legal = same("legal", "legal", v)
                if out or legal[0] != "=" or not legal[1]:
                    break
                keys = list(legal[1])
                if cw[0] == "=" and whole.current_player(v) == CHANCE:
                    keys += [k for k, _ in cw[1]]
                if len(keys) > keys_per_state:
                    keys = rng.sample(keys, keys_per_state)
                for key in keys:   # every action the spec or the mutant may consider here
                    a = _outcome(whole.step[key[0]], v, key)
                    if a != _outcome(reused.step[key[0]], v, key):
                        out.append(f"step {key}")
                    a = _outcome(whole.apply[key[0]], v, *key[1:])
                    if a != _outcome(reused.apply[key[0]], v, *key[1:]):
                        out.append(f"apply {key}")
                if out:
                    break
                key = rng.choice(legal[1])
                nxt = _outcome(whole.step[key[0]], v, key)
                if nxt[0] != "=" or nxt[1] is None:
                    break   # the mutant's rules raise here (the same in both: compared)
                v = nxt[1]
            if out:
                return out
    return out


def _check_mutants(game: str, every: int = 1, games: int = 2, steps: int = 200) -> int:
    model = rulespec.load(game)
    spec = model.spec
    checked = 0
    for m in mutants(spec)[::every]:
        try:
            mut = m.make(spec)
            whole = compile_python(mut, model.interpretation)
        except (SpecError, ValueError, TypeError, KeyError, IndexError):
            continue   # killed by build either way
        only = regenerated(spec, mut)
        if only is None:
            continue   # compiled whole anyway
        reused = compile_python(mut, model.interpretation, like=model.compiled, only=only)
        found = _differences(whole, reused, range(spec.min_players, spec.max_players + 1),
                             games, steps, seed=checked)
        assert not found, (m.id, sorted(only), found[:3])
        checked += 1
    return checked


@pytest.mark.parametrize("game", ["tic_tac_toe", "connect_four"])
def test_every_mutant_reused_plays_as_compiled_whole(game):
    assert _check_mutants(game) >= 15


@pytest.mark.slow
def test_crazy_eights_mutants_with_chance_reused_play_as_compiled_whole():
    assert _check_mutants("crazy_eights", every=7, games=1) > 30


def test_one_hawaii_mutant_of_each_kind_reused_plays_as_compiled_whole():
    model = rulespec.load("hawaii")
    spec = model.spec
    kinds: dict[str, Any] = {}
    for m in mutants(spec):
        mut = m.make(spec)
        only = regenerated(spec, mut)
        if not only:
            continue
        kind = ("legal" if "legal" in only else "chance" if "chance_weights" in only
                else "setup" if "initial" in only else "score" if "scores" in only
                else "tie" if any(n.startswith("tie_") for n in only) else "effects")
        kinds.setdefault(kind, (m, mut, only))
    assert {"legal", "chance", "setup", "effects"} <= set(kinds)
    for m, mut, only in kinds.values():
        whole = compile_python(mut, model.interpretation)
        reused = compile_python(mut, model.interpretation, like=model.compiled, only=only)
        found = _differences(whole, reused, range(spec.max_players, spec.max_players + 1),
                             1, 400, seed=0, keys_per_state=20)
        assert not found, (m.id, sorted(only), found[:3])


def test_a_function_left_out_of_only_is_noticed():
    """The comparison can fail: a dropped precondition compiled without its ``legal``."""
    model = rulespec.load("tic_tac_toe")
    drop = next(m for m in mutants(model.spec, ["drop_precondition"]))
    mut = drop.make(model.spec)
    only = regenerated(model.spec, mut)
    assert only is not None and "legal" in only
    whole = compile_python(mut, model.interpretation)
    short = compile_python(mut, model.interpretation, like=model.compiled,
                           only=only - {"legal"})
    assert _differences(whole, short, range(2, 3), 2, 20, seed=0)


def test_judges_compile_a_mutant_from_the_spec_s_functions():
    """A mutant's model in ``rulespec mutate`` is the spec's compiled functions, but for
    those the change reaches; one that changes the flow rules is compiled whole."""
    model = rulespec.load("connect_four")
    judges = Judges(model.spec, model, (), BUDGETS["quick"])
    drop = next(m for m in mutants(model.spec, ["drop_effect"]))
    mut = drop.make(model.spec)
    got = _Models(mut, judges.models(model.spec))(None)
    assert got.spec is mut
    assert got.compiled.legal is model.compiled.legal          # unchanged: the spec's own
    assert got.compiled.step[0] is not model.compiled.step[0]  # the changed action's
    assert got.compiled.terminal is model.compiled.terminal
    flow = next(m for m in mutants(model.spec) if regenerated(model.spec, m.make(model.spec))
                is None)
    fresh = _Models(flow.make(model.spec), judges.models(model.spec))(None)
    assert fresh.compiled.terminal is not model.compiled.terminal


def test_compile_python_wants_like_and_only_together():
    model = rulespec.load("tic_tac_toe")
    with pytest.raises(ValueError):
        compile_python(model.spec, model.interpretation, like=model.compiled)


# --- a reading compiled from another ---------------------------------------------------

@pytest.mark.parametrize("game,every", [("hawaii", 1), ("aquatica", 1), ("motu", 2),
                                        ("hex", 1), ("crazy_eights", 1)])
def test_every_reading_loaded_from_another_plays_as_compiled_whole(game, every):
    """``load`` under one other option, after the defaults: only the functions that read
    that point are new; the game plays as when compiled whole."""
    base = rulespec.load(game)
    spec = base.spec
    others = [(p.name, o) for p in spec.interpretations for o in p.options if o != p.default]
    for point, option in others[::every]:
        loaded = rulespec.load(game, {point: option})
        new = functions_reading(spec, [point])
        assert new is not None
        assert (loaded.compiled.legal is base.compiled.legal) == ("legal" not in new)
        assert (loaded.compiled.scores is base.compiled.scores) == ("scores" not in new)
        whole = Model(spec, dict(loaded.interpretation)).compiled
        found = _differences(whole, loaded.compiled, range(spec.min_players,
                             spec.max_players + 1), 1, 300, seed=len(point),
                             keys_per_state=20)
        assert not found, (point, option, sorted(new), found[:3])


def test_a_reading_that_skips_a_function_it_changes_is_noticed():
    """The comparison can fail: Hawaii's ``price_cap`` changes the price action, which a
    model reusing every function of the defaults misses."""
    base = rulespec.load("hawaii")
    chosen = {**base.interpretation, "price_cap": "below"}
    whole = Model(base.spec, chosen).compiled
    stale = compile_python(base.spec, chosen, like=base.compiled, only=frozenset())
    assert _differences(whole, stale, range(2, 6), 4, 400, seed=0, keys_per_state=20)


FLOW_SPEC = """
from rulespec.spec import Game

SRC = "fixture: a counter whose end is a reading"
game = Game("flow_reading", title="Flow reading", players=1, source=SRC)
pos = game.field("pos", range(0, 5), source=SRC)
end = game.interpretation("end", question="Where does it end?",
                          options={"three": "at 3", "four": "at 4"}, default="three",
                          source=SRC)


@game.action(source=SRC)
def step(rule):
    rule.require(pos < 4, "not at the end", source=SRC)
    rule.set(pos, pos + 1)


game.current_player(0, source=SRC)
game.terminal((pos >= 3) & end.is_("three") | (pos >= 4), source=SRC)
game.max_steps(5, source=SRC)
game.score(lambda p: pos, source=SRC)

SPEC = game.build()
"""


def test_a_reading_of_the_turn_or_end_rules_compiles_whole(tmp_path):
    """Every function writes the end rule inline: a point it reads changes them all."""
    path = tmp_path / "spec.py"
    path.write_text(FLOW_SPEC)
    three = registry.load(str(path))
    four = registry.load(str(path), {"end": "four"})
    assert functions_reading(three.spec, ["end"]) is None
    assert four.compiled.legal is not three.compiled.legal
    for model, steps in ((three, 3), (four, 4)):
        s = model.initial_state(1)
        for _ in range(steps):
            assert not model.is_terminal(s)
            s = model.apply(s, model.legal_actions(s)[0])
        assert model.is_terminal(s) and model.scores(s) == [steps]
