"""Skip a mutant's ``check`` when it would replay the spec's own check, call for call.

``check`` is a seeded Hypothesis search (no database, no deadline): what it does is a
function of the seed and of what the model's functions answer. The spec's run is made once,
in the baseline, on a model that records every call the checker makes into the compiled
rules -- ``initial``, ``legal``, each action's ``step`` and ``apply``, the preconditions and
the facts ``why_illegal`` reads, ``terminal``, ``scores``, the tie-break keys, the
invariants -- with its arguments and what it gave.

A mutant's model is the spec's but for a few functions (the others are the very same
objects: :mod:`.judge`, :mod:`.share`). If each of those answers every recorded call as
the spec did, the mutant's check makes the same calls, gets the same answers and draws the
same examples: it passes, as the spec's did, and running it would say nothing new. If one
answer differs anywhere, the check is run as usual. The rule parts a model reads without
calling a compiled function (action texts, parameters, precondition texts and sources,
tie-break directions, every non-rule part of the spec) must be the spec's own, or the
check is run. A state an answer gave is compared by its hash (64 bits): keeping every
successor state the checker looked at would cost gigabytes on MOTU at the full budget.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any, Callable, Iterator

import attrs

from ...compile.python_backend import CompiledGame
from ...runtime.model import Model
from ...spec.elements import GameSpec
from .share import SharedFacts, _facts

#: compiled functions of one value each, and tuples of them (one per action, key, law)
SINGLE = ("initial", "current_player", "legal", "chance_weights", "terminal", "scores")
PER = ("apply", "step", "tie_keys", "invariants", "conserved")
#: the rule parts a mutant may change (the compiled functions say what they do)
RULE_PARTS = {"setup", "actions", "current_player", "chance_node", "terminal", "scoring",
              "tie_breaks"}


def _frozen(x: Any) -> Any:
    if isinstance(x, (list, tuple)):
        return tuple(_frozen(y) for y in x)
    return x


def _answer(got: Any) -> tuple:
    """An answer as it is kept: a state or a long list by its hash, the rest as it is."""
    value = _frozen(got)
    if isinstance(value, tuple) and len(value) > 16:
        return ("#", len(value), hash(value))
    return ("=", value)


def outcome(fn: Callable[..., Any], args: tuple) -> tuple:
    """What ``fn(*args)`` gives (:func:`_answer`), or ("raise", type, message)."""
    try:
        got = fn(*args)
    except Exception as err:  # noqa: BLE001 - a rule that raises is an answer too
        return ("raise", type(err).__name__, str(err))
    return _answer(got)


class Recording:
    """Every call the checker made into one model's compiled rules: slot -> args -> what it
    gave. ``model`` is the spec's model that records them (use it for the check)."""

    def __init__(self, like: Model) -> None:
        self.like = like
        self.calls: dict[tuple, dict[tuple, tuple]] = defaultdict(dict)
        c = like.compiled
        wrapped: dict[str, Any] = {n: self._wrap((n,), getattr(c, n)) for n in SINGLE}
        for n in PER:
            wrapped[n] = tuple(self._wrap((n, k), f) for k, f in enumerate(getattr(c, n)))
        wrapped["preconditions"] = tuple(
            tuple(self._wrap(("pre", i, j), f) for j, f in enumerate(fs))
            for i, fs in enumerate(c.preconditions))
        self.model = Model(like.spec, like.interpretation, attrs.evolve(c, **wrapped))
        facts = _facts(self.model)
        table = self.calls[("facts",)]

        def recorded_facts(i: int, j: int, values: tuple, params: tuple) -> Any:
            got = facts(i, j, values, params)   # Facts never raises
            table[(i, j, values, params)] = _answer(got)
            return got
        self.model.__dict__["_facts"] = recorded_facts

    def _wrap(self, slot: tuple, fn: Callable[..., Any]) -> Callable[..., Any]:
        table = self.calls[slot]

        def recorded(*args: Any) -> Any:
            try:
                got = fn(*args)
            except Exception as err:
                table[args] = ("raise", type(err).__name__, str(err))
                raise
            table[args] = _answer(got)
            return got
        return recorded

    def replays(self, model: Model) -> bool:
        """Whether the check of ``model`` (a mutant's, under the recorded reading) would
        make exactly the recorded run: the same rule texts and every changed function
        answering every recorded call as the spec's did."""
        like = self.like
        # the layout is a function of the fields alone (Layout.of), and the fields are
        # the spec's very objects when nothing outside the functions changed: a mutant
        # compiled anew has a layout object of its own, with the same cells (a Layout
        # compares by identity, so == said no to every mutant: no check was ever skipped)
        if (model.interpretation != like.interpretation
                or not same_outside_functions(like.spec, model.spec)):
            return False
        for slot, mine, theirs in _changed(model.compiled, like.compiled):
            if slot == ("facts",):
                continue
            for args, want in self.calls.get(slot, {}).items():
                if outcome(mine, args) != want:
                    return False
        return self._facts_replay(model)

    def _facts_replay(self, model: Model) -> bool:
        facts = _facts(model)
        same = facts._same if isinstance(facts, SharedFacts) else {}
        for (i, j, values, params), want in self.calls.get(("facts",), {}).items():
            if same.get((i, j)) == j:
                continue   # the spec's own facts (SharedFacts delegates to them)
            if outcome(facts, (i, j, values, params)) != want:
                return False
        return True


def _changed(mine: CompiledGame, theirs: CompiledGame
             ) -> Iterator[tuple[tuple, Callable, Callable]]:
    """The compiled functions of ``mine`` that are not ``theirs`` (by identity)."""
    for n in SINGLE:
        a, b = getattr(mine, n), getattr(theirs, n)
        if a is not b:
            yield (n,), a, b
    for n in PER:
        for k, (a, b) in enumerate(zip(getattr(mine, n), getattr(theirs, n))):
            if a is not b:
                yield (n, k), a, b
    for i, (fa, fb) in enumerate(zip(mine.preconditions, theirs.preconditions)):
        for j, (a, b) in enumerate(zip(fa, fb)):
            if a is not b:
                yield ("pre", i, j), a, b


def same_outside_functions(orig: GameSpec, mut: GameSpec) -> bool:
    """Everything of the mutant that a model reads without calling a compiled function is
    the spec's: every part but the rules (the same objects), the actions' names, texts,
    parameters, kinds, sources and precondition texts, the flow rules' and the score's
    sources, the tie-breaks' directions."""
    for f in attrs.fields(GameSpec):
        if f.name not in RULE_PARTS and getattr(orig, f.name) is not getattr(mut, f.name):
            return False
    if len(orig.actions) != len(mut.actions) or len(orig.tie_breaks) != len(mut.tie_breaks):
        return False
    for a, b in zip(orig.actions, mut.actions):
        if (a.name, a.params, a.source, a.text, a.chance, a.doc) != (
                b.name, b.params, b.source, b.text, b.chance, b.doc) or [
                (p.text, p.source) for p in a.preconditions] != [
                (p.text, p.source) for p in b.preconditions]:
            return False
    if any(x.lower_wins != y.lower_wins or x.source != y.source
           for x, y in zip(orig.tie_breaks, mut.tie_breaks)):
        return False
    rules = [(orig.current_player, mut.current_player), (orig.terminal, mut.terminal),
             (orig.scoring, mut.scoring)]
    if (orig.chance_node is None) != (mut.chance_node is None):
        return False
    if orig.chance_node is not None:
        rules.append((orig.chance_node, mut.chance_node))
    return all(x.source == y.source for x, y in rules) and orig.setup_source == mut.setup_source
