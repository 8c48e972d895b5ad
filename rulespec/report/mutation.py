"""The report's mutation section (``rulespec report --mutate``): which rules nothing pins.

``rulespec mutate`` judges every mutant with the game's scenarios and ``check``: for a
large game that costs many times the rest of a quick report, so the section is made only
when asked (the report budget's ``mutate``). The section is ``rulespec mutate --json``'s
document, with each survivor tied to the rule index and the sources table.
"""

from __future__ import annotations

from typing import Any, Sequence

from ..check.mutate import SURVIVED, BaselineError, MutationReport, mutate_game
from .rules import slug, source_id


def run_mutation(game_ref: str, budget: str, seed: int, workers: int
                 ) -> tuple[MutationReport | None, str | None]:
    """The game's mutation run at the ``rulespec mutate`` budget named, or why there is
    none (the unmutated spec fails its own scenarios or checks, or the run failed)."""
    try:
        return mutate_game(game_ref, budget=budget, seed=seed, workers=workers), None
    except BaselineError as err:
        return None, f"no mutation score: {err}"
    except Exception as err:  # noqa: BLE001 - reported in the section, never as a score
        return None, f"mutation testing failed: {type(err).__name__}: {err}"


def mutation_section(report: MutationReport | None, error: str | None,
                     rules: Sequence[dict[str, Any]]) -> dict[str, Any] | None:
    """The section's JSON data; None when mutation testing was not asked for."""
    if report is None and error is None:
        return None
    if report is None:
        return {"error": error}
    doc = report.to_json()
    at = {}  # spec line -> the rule index entries written there
    for r in rules:
        if r.get("where"):
            at.setdefault(r["where"], []).append(r["id"])
    known = {r["id"] for r in rules}
    survivors = []
    for r in doc["results"]:
        if r["status"] != SURVIVED:
            continue
        # the rules written on the mutated line, else the actions the change reaches
        ids = at.get(r["where"] or "") or [i for e in r["elements"]
                                           if (i := f"a-{slug(e)}") in known]
        survivors.append({**r, "source_id": source_id(r["source"]), "rules": ids})
    return {**doc, "error": None, "survivors": survivors}
