"""Hypothesis profiles: `dev` (default), `ci` (derandomized, set by .ci/run), `debug`; the
smoke-budget reports the report tests read; the long tests first."""

import os

import pytest
from hypothesis import HealthCheck, Verbosity, settings

settings.register_profile("dev", max_examples=100, deadline=None)
settings.register_profile("ci", max_examples=100, deadline=None, derandomize=True,
                          database=None, print_blob=True,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("debug", max_examples=20, deadline=None, verbosity=Verbosity.verbose)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))

# the verdict store (rulespec/check/store.py) is off in the tests, which check what the
# checkers compute; tests/test_store*.py open one of their own
os.environ.setdefault("RULESPEC_STORE", "off")
# a user's cluster is not the suite's: commands under test run on local workers unless a
# test names a cluster (tests/test_cluster.py; CI gives it as RULESPEC_TEST_CLUSTER)
os.environ.pop("RULESPEC_CLUSTER", None)

# spec files under fixtures/ are loaded by path in tests, never imported as test modules
collect_ignore_glob = ["fixtures/*"]

# tests/test_pytest_plugin.py runs pytest inside pytest
pytest_plugins = ["pytester"]


@pytest.fixture(scope="session")
def smoke_reports(tmp_path_factory):
    """Every bundled game's report (and two planted fixtures') at the smoke budget, built
    once per session: (folder, {name: document})."""
    from report_pages import MUTATED, PLANTED, build_reports

    from rulespec.runtime.registry import available_games
    out = tmp_path_factory.mktemp("smoke-reports")
    return out, build_reports(out, [*available_games(), PLANTED, MUTATED])


def pytest_collection_modifyitems(config, items):
    """The tests marked ``slow`` run first (in collection order otherwise): spread over
    processes (`make test`: pytest-xdist, `--dist load`), the longest then start early and
    end with the rest instead of after them, on one core."""
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)
