"""How much checking a report does: the ``quick`` and ``full`` budgets, all of them counts
(examples, games, steps, Z3 resource units per query), never seconds, so a report says
the same on any machine; it records every number it used.
"""

from __future__ import annotations

from typing import Any

import attrs

from ..check.budget import DEFAULT_RLIMIT


@attrs.frozen
class Budget:
    """Counts for every checker a report runs."""

    name: str
    #: Hypothesis examples: this share of the game's own ``check_examples`` (at least 5)
    examples_share: float
    seed: int
    #: Z3: resource units per query (``prove --rlimit``), bounded model checking depth (at
    #: most the game's own), processes
    solver_rlimit: int
    bmc_depth: int | None
    workers: int
    #: interpretation diffs: breadth-first depth, sampled setups, lockstep games, node budget
    diff_depth: int
    diff_setups: int
    diff_games: int
    diff_nodes: int
    #: coverage: seeded random games played, counting actions and effect branches
    coverage_games: int
    #: run the Z3 proofs at all (the tests' smoke budget does not: SKIPPED, saying so)
    prove: bool = True
    #: how properties are tested: "hypothesis" (shrinks) or "random" (plain playouts)
    check_mode: str = "hypothesis"
    min_examples: int = 5
    #: who plays the diffs' lockstep games: a policy name (random, greedy, mcts)
    diff_policy: str = "random"
    #: does it matter between stronger players? Each open question's lockstep games are
    #: also played by greedy players (by random ones when ``diff_policy`` is stronger
    #: already), this many: greedy play looks at every legal action at every step
    diff_second_games: int = 0
    #: prove's outer safety limit in seconds per game (``prove --timeout``), or None: a
    #: game too large to prove within it gets its undecided goals UNKNOWN, saying so, and
    #: the report goes on; the verdicts reached before it are the counted ones
    prove_safety_s: float | None = None
    #: the ``rulespec mutate`` budget (quick, full) of the mutation section, or None: no
    #: section. Judging every mutant costs more than the rest of a report, so it runs only
    #: when asked (``rulespec report --mutate``; docs/reports.md)
    mutate: str | None = None
    #: Z3: the resource units per query with which a step case a goal was undecided in is
    #: tried again (``prove --retry-rlimit``; a few cases at most), or None: so a small
    #: game's verdicts are the full budget's, and the quick budget is less deep, not less
    #: sure
    solver_retry_rlimit: int | None = None

    def examples(self, spec_examples: int) -> int:
        return max(self.min_examples, round(spec_examples * self.examples_share))

    @property
    def diff_second_policy(self) -> str:
        """Who plays the second set of lockstep games: greedy players beside random
        ones, random ones beside a stronger ``diff_policy``."""
        return "greedy" if self.diff_policy == "random" else "random"

    def depth(self, spec_depth: int) -> int:
        """Bounded model checking depth: the game's own, capped by this budget."""
        return spec_depth if self.bmc_depth is None else min(spec_depth, self.bmc_depth)

    def to_json(self) -> dict[str, Any]:
        return attrs.asdict(self)


QUICK = Budget("quick", examples_share=0.25, seed=0, solver_rlimit=10_000_000, bmc_depth=4,
               workers=2, diff_depth=4, diff_setups=4, diff_games=40, diff_nodes=4_000,
               coverage_games=10, prove_safety_s=1200.0, diff_second_games=20,
               solver_retry_rlimit=DEFAULT_RLIMIT)
FULL = Budget("full", examples_share=1.0, seed=0, solver_rlimit=DEFAULT_RLIMIT, bmc_depth=None,
              workers=2, diff_depth=6, diff_setups=8, diff_games=200, diff_nodes=20_000,
              coverage_games=40, diff_second_games=100)
BUDGETS = {b.name: b for b in (QUICK, FULL)}
#: for tests of the report itself: every section filled, in seconds; no proofs
SMOKE = Budget("smoke", examples_share=0.0, seed=0, solver_rlimit=1_000_000, bmc_depth=1,
               workers=1, diff_depth=2, diff_setups=1, diff_games=4, diff_nodes=200,
               coverage_games=2, prove=False, check_mode="random", min_examples=3,
               diff_second_games=2)

