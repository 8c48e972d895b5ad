"""Scenario verdicts (``rulespec scenario``) through the verdict store (:mod:`.store`).

A scenario is keyed by the whole spec under its interpretation (its steps may run any
rule, its expectations read any field), the scenario itself (what it gives, plays and
expects, by content) and its file's path (the verdict names it).
"""

from __future__ import annotations

from . import scenario as scenarios
from .fingerprint import SpecPrint, _Hasher
from .scenario import Scenario, ScenarioFile, ScenarioResult
from .store import current

KIND = "scenario"


def stored_scenario(sf: ScenarioFile, sc: Scenario) -> ScenarioResult:
    """:func:`.scenario.run_scenario`, answered from the store when it holds the verdict."""
    store = current()
    if store is None:   # the module's function, looked up when called
        return scenarios.run_scenario(sf, sc)
    model = sf.model(sc)  # errors (a spec that changed) as run_scenario raises them
    key = {"spec": SpecPrint.of(model.spec).whole(model.interpretation),
           "scenario": _Hasher().of(sc), "file": str(sf.path)}
    got = store.get(KIND, key)
    if isinstance(got, ScenarioResult):
        return got
    r = scenarios.run_scenario(sf, sc)
    store.put(KIND, key, r)
    return r
