"""Solver budgets, counted in Z3's resource units (``rlimit``), never in seconds.

A resource unit is one of Z3's elementary solving steps: the same query spends the same
units on any machine, idle or loaded, so a budget in units gives the same verdicts
everywhere. (No Z3 import here: the command line reads the defaults cheaply.)

>>> Budget(2_000_000).quick, Budget(2_000_000).slice
(2000000, 2000000)
"""

from __future__ import annotations

import attrs

#: Z3 resource units per second of one CPU, measured on the step proofs of Hawaii with
#: z3-solver 5.4 (roughly 5 to 7 million): only to explain budgets in seconds to people
RLIMIT_PER_SECOND = 6_000_000

#: the default budget of one query, in resource units (roughly 8 s of one CPU here)
DEFAULT_RLIMIT = 50_000_000


@attrs.frozen
class Budget:
    """What one query may spend, in resource units.

    ``query`` is the full budget (``rulespec prove --rlimit``): a query that spends it
    undecided is UNKNOWN. The step proofs first try a goal with less (``quick``,
    ``slice``), splitting it into smaller cases instead of waiting; those are shortcuts
    that never decide a verdict on their own.
    """

    query: int = DEFAULT_RLIMIT
    #: the first try at a step goal, before the action is split into smaller cases
    quick_share: int = 10_000_000
    #: the try with only the premises that share a cell with the goal
    slice_share: int = 3_000_000
    #: whether the other premises imply a field's bounds (asked once per case and field)
    implied_share: int = 30_000_000

    @property
    def quick(self) -> int:
        return min(self.quick_share, self.query)

    @property
    def slice(self) -> int:
        return min(self.slice_share, self.query)

    @property
    def implied(self) -> int:
        return min(self.implied_share, self.query)
