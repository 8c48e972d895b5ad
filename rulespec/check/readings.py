"""``rulespec conform GAME --readings``: which reading of each open point an implementation
follows.

The implementation is played in lockstep (``conform``) against the spec under each reading
in turn: each ruleset the spec declares, as a whole, and each option of each
interpretation point with the other points held at one *base* reading. A reading is
**consistent** when no game showed a difference, **excluded** by the smallest disagreement
found (shrunk as ``conform`` shrinks it, and told in rule terms), **unknown** when the
process did not answer in time. What one reading's games found is also replayed against
the other options of the point: a situation that excludes one option may exclude another.

The base is the reading the user chose (the defaults, ``--ruleset``, ``--interpretation``).
When nothing was chosen and that reading is excluded, a ruleset the implementation is
consistent with becomes the base (an online version departs at several points at once).
While a point has no consistent option, the base moves and the points are tried again: to
the first consistent option of a point whose base option is excluded (the implementation
departs there, and every trial of another point disagreed there too), or
else to the first consistent combination of the points without one (when they combine in
at most ``JOINT`` readings). The verdicts reported are all reached under the final base,
which the report names. Budgets are counts: ``examples`` games per reading.
"""

from __future__ import annotations

from typing import Any, Callable, Mapping, Sequence

import attrs

from ..runtime.model import Model, resolve_interpretation
from .conform import (HYPOTHESIS, Disagreement, _scripted, conform, play_lockstep)
from .conform_driver import ImplementationHung
from .progress import QUIET, Progress
from .results import PASSED, UNKNOWN, VIOLATED
from .runner import SHRINK_BUDGET

CONSISTENT, EXCLUDED, UNDECIDED = "consistent", "excluded", "unknown"


@attrs.frozen
class Verdict:
    """One reading against the implementation: consistent, excluded or unknown, with the
    games and states compared behind it and, when excluded, the smallest situation that
    excludes it."""

    option: str                       # the option of the point, or the ruleset's name
    status: str                       # CONSISTENT, EXCLUDED or UNDECIDED
    games: int
    steps: int
    excluded_by: Disagreement | None = None
    detail: str = ""
    #: where the excluding situation was found: "its own games" or "the games of O"
    found_in: str = ""

    def to_json(self) -> dict[str, Any]:
        d = self.excluded_by
        return {"option": self.option, "status": self.status, "games": self.games,
                "steps": self.steps, "detail": self.detail, "found_in": self.found_in,
                "excluded_by": None if d is None else {
                    "kind": d.kind, "message": d.message, "players": d.players,
                    "actions": list(d.actions)}}


@attrs.frozen
class PointReadings:
    """The verdict on each option of one interpretation point."""

    point: str
    question: str
    default: str
    base: dict[str, str]              # the other points' options while it was tried
    options: tuple[Verdict, ...]
    base_label: str = ""              # those that are not their default, or "the defaults"

    @property
    def consistent(self) -> list[str]:
        return [v.option for v in self.options if v.status == CONSISTENT]

    def to_json(self) -> dict[str, Any]:
        return {"point": self.point, "question": self.question, "default": self.default,
                "base": self.base, "base_label": self.base_label,
                "consistent": self.consistent,
                "options": [v.to_json() for v in self.options]}


@attrs.frozen
class ReadingsReport:
    """The answer of ``rulespec conform --readings``."""

    game: str
    implementation: str
    status: str                       # PASSED, VIOLATED (a point with no consistent
                                      # option) or UNKNOWN (a reading not decided)
    detail: str
    mode: str
    examples: int
    seed: int
    base: dict[str, str]
    base_label: str
    points: tuple[PointReadings, ...]
    rulesets: tuple[Verdict, ...]
    games: int
    steps: int

    def to_json(self) -> dict[str, Any]:
        return {"game": self.game, "implementation": self.implementation,
                "status": self.status, "detail": self.detail, "mode": self.mode,
                "examples": self.examples, "seed": self.seed, "base": self.base,
                "base_label": self.base_label, "games": self.games, "steps": self.steps,
                "points": [p.to_json() for p in self.points],
                "rulesets": [r.to_json() for r in self.rulesets]}


Reading = tuple[tuple[str, str], ...]


def _key(options: Mapping[str, str]) -> Reading:
    return tuple(sorted(options.items()))


class _Trials:
    """Each reading played once (a reading reached twice -- the defaults are every
    point's default option -- is not played again), and what each found."""

    def __init__(self, model: Model, load: Callable[[dict[str, str]], Model], driver: Any,
                 name: str, run: Mapping[str, Any], progress: Progress) -> None:
        self.model, self.load, self.driver, self.name = model, load, driver, name
        self.run, self.progress = run, progress
        self.done: dict[Reading, Verdict] = {}
        self.games = self.steps = 0

    def verdict(self, options: dict[str, str], label: str) -> Verdict:
        key = _key(options)
        if key not in self.done:
            self.progress.note(f"reading {label}")
            report = conform(self.load(options), self.driver, name=self.name, **self.run)
            self.games += report.games
            self.steps += report.steps
            status = {PASSED: CONSISTENT, VIOLATED: EXCLUDED}.get(report.status, UNDECIDED)
            self.done[key] = Verdict(label, status, report.games, report.steps,
                                     report.disagreement, report.detail,
                                     "its own games" if status == EXCLUDED else "")
        return attrs.evolve(self.done[key], option=label)

    def replay(self, options: dict[str, str], found: Disagreement
               ) -> tuple[Disagreement | None, int]:
        """``found``'s game against the spec under ``options``: the disagreement it shows
        there (None: it agrees, or the game is not one by that reading), and the states
        compared."""
        counter = [0]
        shown = None
        try:
            play_lockstep(self.load(options), self.driver, found.players,
                          _scripted(found.actions), counter, steps=len(found.actions))
        except Disagreement as d:
            shown = d
        except (ValueError, StopIteration):
            pass
        self.games += 1
        self.steps += counter[0]
        return shown, counter[0]


def check_points(model: Model, points: Sequence[str] | None) -> None:
    """ValueError unless the spec has interpretation points and ``points`` names only
    them: what ``--readings`` can try, refused before any game."""
    spec = model.spec
    known = [p.name for p in spec.interpretations]
    if not known:
        raise ValueError(f"{spec.name} has no interpretation point: --readings has no "
                         "reading to tell apart (conform without it compares the spec)")
    for p in points or ():
        if p not in known:
            raise ValueError(f"{spec.name} has no interpretation point {p!r} (points: "
                             f"{', '.join(known) or 'none'})")


def readings(model: Model, driver: Any, *, load: Callable[[dict[str, str]], Model],
             name: str = "implementation", chosen: bool = False, examples: int = 100,
             seed: int = 0, players: int | None = None, mode: str = HYPOTHESIS,
             shrink_budget: int = SHRINK_BUDGET, points: Sequence[str] | None = None,
             progress: Progress = QUIET) -> ReadingsReport:
    """Which reading of each interpretation point (and which ruleset) ``driver`` follows
    (see the module docstring). ``model`` is the reading the user chose (``chosen``: they
    chose one) and the base of the points' trials; ``load(options)`` compiles another.
    ``points``: only these points are tried (and no ruleset); ValueError for a name the spec
    does not have."""
    spec = model.spec
    run = dict(examples=examples, seed=seed, players=players, mode=mode,
               shrink_budget=shrink_budget, trace_dir=None)
    check_points(model, points)
    trials = _Trials(model, load, driver, name, run, progress)
    try:
        return _readings(model, trials, chosen, name, mode, examples, seed, points)
    except ImplementationHung:   # a replay hung (conform's own games report it as UNKNOWN)
        return ReadingsReport(spec.name, name, UNKNOWN, "the implementation stopped "
                              "answering while a disagreement was replayed (no verdict)",
                              mode, examples, seed, dict(model.interpretation), "", (), (),
                              trials.games, trials.steps)


def _readings(model: Model, trials: _Trials, chosen: bool, name: str, mode: str,
              examples: int, seed: int, only: Sequence[str] | None) -> ReadingsReport:
    spec = model.spec
    tried = [p for p in spec.interpretations if not only or p.name in only]
    rulesets = () if only else tuple(
        trials.verdict(resolve_interpretation(spec, None, r.name), r.name)
        for r in spec.rulesets)
    base = dict(model.interpretation)
    base_label = "as chosen" if chosen else "the defaults"
    if not chosen and rulesets:
        own = trials.verdict(base, "the defaults")
        follows = [r for r in rulesets if r.status == CONSISTENT]
        if own.status == EXCLUDED and follows:
            base = resolve_interpretation(spec, None, follows[0].option)
            base_label = f"ruleset {follows[0].option}"
    points: tuple[PointReadings, ...] = ()
    for _ in range(len(tried) + 2):
        points = tuple(_point(trials, p, base) for p in tried)
        if all(p.consistent for p in points):
            break
        # it departs from the base at a point whose base option is excluded: the others are
        # judged again with that point as it plays it (the first option consistent there)
        fix = {p.point: p.consistent[0] for p in points
               if p.consistent and base[p.point] not in p.consistent}
        if not fix:   # or at several points at once: their combinations, when few
            fix = _joint(trials, spec, base, [p.point for p in points if not p.consistent])
        if not fix:
            break
        base = {**base, **fix}
        base_label = _label(spec, base)
    status, detail = _summary(points, rulesets)
    return ReadingsReport(spec.name, name, status, detail, mode, examples, seed, base,
                          base_label, points, rulesets, trials.games, trials.steps)


#: points without a consistent option are tried together when they combine in at most
#: this many readings
JOINT = 16


def _joint(trials: _Trials, spec: Any, base: dict[str, str], names: Sequence[str]
           ) -> dict[str, str]:
    """The first combination of options of ``names`` (base elsewhere) the implementation
    is consistent with, {} if none or too many to try."""
    import itertools
    options = [list(spec.interpretation(n).options) for n in names]
    if len(names) < 2 or len(list(itertools.product(*options))) > JOINT:
        return {}
    for combo in itertools.product(*options):
        chosen = dict(zip(names, combo))
        reading = {**base, **chosen}
        if trials.verdict(reading, _label(spec, reading)).status == CONSISTENT:
            return chosen
    return {}


def _point(trials: _Trials, point: Any, base: dict[str, str]) -> PointReadings:
    verdicts = [trials.verdict({**base, point.name: o}, o) for o in point.options]
    # what excluded one option, replayed against the options still consistent
    for i, v in enumerate(verdicts):
        if v.status != CONSISTENT:
            continue
        for other in verdicts:
            if other.excluded_by is None or other is v:
                continue
            found, states = trials.replay({**base, point.name: v.option}, other.excluded_by)
            v = verdicts[i] = attrs.evolve(v, games=v.games + 1, steps=v.steps + states)
            if found is not None:
                verdicts[i] = attrs.evolve(v, status=EXCLUDED, excluded_by=found,
                                           detail=str(found),
                                           found_in=f"the games of {other.option}")
                break
    others = {k: o for k, o in base.items() if k != point.name}
    label = ", ".join(f"{p.name}={others[p.name]}" for p in trials.model.spec.interpretations
                      if p.name in others and others[p.name] != p.default)
    return PointReadings(point.name, point.question, point.default, others, tuple(verdicts),
                         label or "the defaults")


def _label(spec: Any, options: Mapping[str, str]) -> str:
    changed = [f"{p.name}={options[p.name]}" for p in spec.interpretations
               if options[p.name] != p.default]
    return ", ".join(changed) or "the defaults"


def _summary(points: Sequence[PointReadings], rulesets: Sequence[Verdict]) -> tuple[str, str]:
    none = [p.point for p in points if not p.consistent]
    undecided = [f"{p.point}={v.option}" for p in points for v in p.options
                 if v.status == UNDECIDED] + [r.option for r in rulesets
                                              if r.status == UNDECIDED]
    follows = [f"{p.point}={p.consistent[0]}" for p in points if len(p.consistent) == 1]
    open_ = [f"{p.point} ({' or '.join(p.consistent)})" for p in points
             if len(p.consistent) > 1]
    said = []
    if follows:
        said.append("follows " + ", ".join(follows))
    if open_:
        said.append("not told apart by the games played: " + ", ".join(open_))
    if none:
        said.append("follows no option of " + ", ".join(none) + " (each tried with the other "
                    "points as shown; one departing elsewhere too can be given with "
                    "--interpretation)")
    if undecided:
        said.append("undecided (the implementation did not answer in time): "
                    + ", ".join(undecided))
    sets = [r.option for r in rulesets if r.status == CONSISTENT]
    if rulesets:
        said.append(("consistent with ruleset " + ", ".join(sets)) if sets
                    else "consistent with no ruleset")
    status = VIOLATED if none else UNKNOWN if undecided else PASSED
    return status, "; ".join(said)


__all__ = ["CONSISTENT", "EXCLUDED", "PointReadings", "ReadingsReport", "UNDECIDED",
           "Verdict", "readings"]
