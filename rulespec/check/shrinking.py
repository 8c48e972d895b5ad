"""Games chosen by Hypothesis, the first failing one shrunk within a counted budget.

One search serves ``check`` (a game's properties) and ``conform`` (an implementation
against the spec): Hypothesis draws the number of players and every choice; ``play``
plays one game with them and raises its failure. The shrinker stops after
``shrink_budget`` test runs (a count, so one seed gives one trace on any machine), and
the shortest failure seen is kept.
"""

from __future__ import annotations

from typing import Callable, Generic, TypeVar

from hypothesis import HealthCheck, Phase, given, seed as hyp_seed, settings
from hypothesis import strategies as st
from hypothesis.control import current_build_context
from hypothesis.errors import Flaky

from ..runtime.model import Model, State
from .progress import Progress

F = TypeVar("F", bound=BaseException)
#: plays one game for ``players`` with ``choose(state, legal) -> index``; raises a failure
Play = Callable[[int, Callable[[State, list], int]], None]


class ShrinkBudgetSpent(KeyboardInterrupt):
    """Internal: stops Hypothesis's shrinker. Hypothesis lets an interrupt through at once
    without recording the run (any other exception would be a test outcome, or make the
    runs look inconsistent); :func:`shrink_search` catches it before anyone else can."""


class NotDeterministic(Exception, Generic[F]):
    """The same choices failed once and passed once; ``shortest`` is the shortest failure
    seen (None if none was kept), ``flaky`` Hypothesis's own error."""

    def __init__(self, shortest: F | None, flaky: Flaky) -> None:
        super().__init__(str(flaky))
        self.shortest = shortest
        self.flaky = flaky


def shrink_search(model: Model, play: Play, failure: type[F], *, examples: int, seed: int,
                  players: int | None, shrink_budget: int, progress: Progress,
                  shrinking_what: Callable[[F], str] = lambda f: "",
                  profile: settings | None = None) -> tuple[F | None, str]:
    """Search for a game where ``play`` raises ``failure`` and shrink it.

    Returns ``(failure or None, note)``: the minimal failure Hypothesis found, or, when
    shrinking spent ``shrink_budget`` runs, the shortest one seen (``note`` says so).
    Raises :class:`NotDeterministic` for a flaky game, and Hypothesis's own errors when it
    cannot search. ``profile`` (a settings profile, as the pytest plugin passes it) keeps
    its ``derandomize``, ``verbosity`` and phases, and draws its own seed unless
    derandomized; without it the search is seeded with ``seed``. There is never an
    example database: a failure is kept as a replayable trace instead.
    """
    last: list[F] = []
    best: list[F] = []
    tries = [0]
    wanted = [Phase.explicit, Phase.generate, Phase.shrink]
    fixed = dict(max_examples=examples, database=None, deadline=None,
                 suppress_health_check=list(HealthCheck), print_blob=False,
                 report_multiple_bugs=False)
    if profile is None:
        chosen = settings(derandomize=False, phases=wanted, **fixed)  # type: ignore[arg-type]
    else:
        chosen = settings(profile, phases=[p for p in wanted if p in profile.phases],
                          **fixed)  # type: ignore[arg-type]

    @chosen
    @given(st.data())
    def run(data: st.DataObject) -> None:
        if best and not current_build_context().is_final:  # shrinking the first failure
            tries[0] += 1
            if tries[0] > shrink_budget:
                raise ShrinkBudgetSpent
            what = shrinking_what(best[0])
            progress.note(f"shrinking{' ' + what if what else ''}: "
                          f"{len(best[0].actions)} steps (try {tries[0]}/{shrink_budget})")
        else:
            progress.advance()
        n = players if players is not None else data.draw(
            st.integers(model.min_players, model.max_players), label="players")

        def choose(state: State, legal: list) -> int:
            return 0 if len(legal) == 1 else data.draw(st.integers(0, len(legal) - 1))
        try:
            play(n, choose)
        except failure as found:
            last[:] = [found]  # the last failing run Hypothesis replays is the minimal one
            if not best or len(found.actions) <= len(best[0].actions):
                best[:] = [found]
            raise

    if profile is None:
        run = hyp_seed(seed)(run)
    try:
        run()
    except failure:
        return last[0], ""
    except ShrinkBudgetSpent:
        return best[0], (f"shrinking stopped after {shrink_budget} tries: the shortest "
                         "trace seen, maybe not the smallest")
    except Flaky as err:
        raise NotDeterministic(best[0] if best else None, err) from None
    return None, ""
