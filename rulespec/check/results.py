"""The results vocabulary, the same everywhere: CLI, JSON and reports."""

from __future__ import annotations

from typing import Any

import attrs

PROVED = "PROVED"      # Z3: for every state within the declared bounds
PASSED = "PASSED"      # tested: N examples, seed
VIOLATED = "VIOLATED"  # with a minimal, replayable counterexample
UNKNOWN = "UNKNOWN"    # solver timeout or budget exhausted: never a pass
SKIPPED = "SKIPPED"    # with the reason

STATUSES = (PROVED, PASSED, VIOLATED, UNKNOWN, SKIPPED)


@attrs.frozen
class Result:
    """One property's outcome under one checker."""

    property: str
    status: str
    checker: str
    detail: str = ""
    source: str | None = None
    examples: int | None = None
    seed: int | None = None
    trace: list[str] | None = None
    trace_path: str | None = None
    #: why the counterexample could not be saved (the verdict stands without the file)
    trace_error: str | None = None
    #: games played by the search that gave this verdict, and how many of them were cut
    #: at the spec's horizon (truncated: no end, no winner); None without a horizon
    games: int | None = None
    truncated: int | None = None
    #: what stands behind the verdict, as plain data: the method and its bound (a test's
    #: games, examples, steps, players and seed; a proof's kind, resource units per query,
    #: depth, cases, players and the premises it used; why not, for SKIPPED and UNKNOWN).
    #: ``docs/verification.md`` lists the keys
    evidence: dict[str, Any] | None = attrs.field(default=None, eq=False)

    def __attrs_post_init__(self) -> None:
        if self.status not in STATUSES:
            raise ValueError(f"unknown status {self.status!r}")

    def to_json(self) -> dict[str, Any]:
        return {k: v for k, v in attrs.asdict(self).items() if v is not None}


def exit_code(results: list[Result]) -> int:
    """0 when nothing is violated or unknown, else 1."""
    return 1 if any(r.status in (VIOLATED, UNKNOWN) for r in results) else 0
