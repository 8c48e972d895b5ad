"""pytest plugin (entry point ``pytest11``): scenario files and game properties as tests.

Installed with rulespec, it adds two kinds of test items to any pytest run:

* **Scenario files.** A ``.toml`` file with ``[[scenario]]`` tables (in a ``scenarios/``
  folder, or anywhere) is collected as a file with one item per scenario, named after the
  scenario (``pytest models/hawaii -k "beach"``). A failing scenario is shown in rule
  terms, as ``rulespec scenario`` shows it: the expectations that do not hold, the actions
  played and the scenario's source. A broken file is one collection error naming its line.
* **A game's properties.** A folder with a rulespec ``spec.py`` (a game folder: a bundled
  ``models/<game>/`` or your own) gets a ``properties`` collector with one item per
  property of the game (generic, declared in the spec, the game's own), each a Hypothesis
  test: one Hypothesis search plays the game for every selected property at once (as
  ``rulespec check`` does), and each item reports its property's verdict; a violation
  fails with its minimal trace in rule terms. A property the spec waives is skipped with
  the reason.

Hypothesis settings profiles apply (``settings.load_profile`` in a conftest, or
``--hypothesis-profile``): ``derandomize``, ``verbosity`` and the explicit, generate and
shrink phases are the profile's, and its ``max_examples`` caps the games played (at most
the spec's own ``check_examples``, or the ``rulespec_examples`` ini value when set).

Options: the ini values ``rulespec_examples`` (games per property search instead of the
spec's ``check_examples``), ``rulespec_properties`` (false: collect scenarios only) and
``rulespec_trace_dir`` (where violations are saved as traces; unset: not saved). Markers
``rulespec_scenario`` and ``rulespec_property`` select either kind (``-m``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Iterator

import pytest

SCENARIO_MARK = "rulespec_scenario"
PROPERTY_MARK = "rulespec_property"


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addini("rulespec_examples", "rulespec: games per property search (default: the "
                  "spec's check_examples), capped by the Hypothesis profile's max_examples",
                  default="")
    parser.addini("rulespec_properties", "rulespec: collect each game folder's properties "
                  "(false: scenario files only)", type="bool", default=True)
    parser.addini("rulespec_trace_dir", "rulespec: where a property violation is saved as "
                  "a replayable trace (default: not saved)", default="")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", f"{SCENARIO_MARK}: a rulespec scenario file's case")
    config.addinivalue_line("markers", f"{PROPERTY_MARK}: a rulespec game's property, "
                            "checked with Hypothesis")


# =====================================================================================
# What is ours to collect
# =====================================================================================
def _is_scenario_file(path: Path) -> bool:
    """A TOML file with ``[[scenario]]`` tables (one in a ``scenarios/`` folder is ours even
    when broken: its error is then reported, not skipped)."""
    if path.suffix != ".toml":
        return False
    if path.parent.name == "scenarios":
        return True
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return False
    return "[[scenario]]" in text


def _is_game_folder(path: Path) -> bool:
    """A folder whose ``spec.py`` builds a rulespec game."""
    spec = path / "spec.py"
    try:
        return spec.is_file() and "rulespec" in spec.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return False


def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> pytest.Collector | None:
    if _is_scenario_file(file_path):
        return ScenarioFileCollector.from_parent(parent, path=file_path)
    return None


@pytest.hookimpl(tryfirst=True)
def pytest_collect_directory(path: Path, parent: pytest.Collector) -> pytest.Collector | None:
    if _is_game_folder(path) and parent.config.getini("rulespec_properties"):
        return GameFolder.from_parent(parent, path=path)
    return None


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    """A game's spec.py and its parts (the folder's other ``.py`` files but properties.py)
    are loaded by rulespec, never imported as a test or doctest module."""
    from .runtime.folder import NOT_PARTS
    if (collection_path.suffix == ".py" and collection_path.name not in NOT_PARTS
            and _is_game_folder(collection_path.parent)):
        return True
    return None


# =====================================================================================
# Scenarios
# =====================================================================================
class ScenarioFailure(Exception):
    """A scenario's expectations did not hold (``result`` is its ScenarioResult)."""

    def __init__(self, result: Any) -> None:
        super().__init__(result.name)
        self.result = result


class ScenarioFileCollector(pytest.File):
    """One scenario file: an item per ``[[scenario]]``."""

    def collect(self) -> Iterator[pytest.Item]:
        from .check.scenario import ScenarioFileError, load_scenario_file
        # pytest already runs the code of the tree it collects; a scenario file in a spec
        # folder's scenarios/ may run that spec (docs/security.md)
        own = self.path.parent.parent
        try:
            sf = load_scenario_file(self.path, trusted=[own] if (own / "spec.py").is_file()
                                    else [])
        except ScenarioFileError as err:
            raise self.CollectError(str(err)) from None
        seen: dict[str, int] = {}
        for sc in sf.scenarios:
            seen[sc.name] = seen.get(sc.name, 0) + 1
            name = sc.name if seen[sc.name] == 1 else f"{sc.name} #{seen[sc.name]}"
            item = ScenarioItem.from_parent(self, name=name, file=sf, scenario=sc)
            item.add_marker(SCENARIO_MARK)
            yield item


class ScenarioItem(pytest.Item):
    """One scenario: run it; a failure is told as ``rulespec scenario`` tells it."""

    def __init__(self, *, file: Any, scenario: Any, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.file = file
        self.scenario = scenario

    def runtest(self) -> None:
        from .check.scenario import run_scenario
        result = run_scenario(self.file, self.scenario)
        if not result.passed:
            raise ScenarioFailure(result)

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException],
                     style: Any = None) -> str | Any:
        if isinstance(excinfo.value, ScenarioFailure):
            return scenario_failure_text(excinfo.value.result)
        return super().repr_failure(excinfo, style)

    def reportinfo(self) -> tuple[Path, int, str]:
        line = self.scenario.line
        return self.path, 0 if line is None else line - 1, f"scenario: {self.name}"


def scenario_failure_text(r: Any) -> str:
    """A failed scenario in rule terms: where, what was played, what did not hold."""
    where = f"{r.file}:{r.line}" if r.line else r.file
    lines = [f"scenario {r.name!r} ({where}) VIOLATED",
             f"  game {r.game}, {r.players} players"
             + (f", {', '.join(f'{k}={v}' for k, v in r.interpretation.items())}"
                if r.interpretation else ""),
             f"  source: {r.source}"]
    if r.played:
        lines.append(f"  played: {'; '.join(r.played)}")
    lines += [f"  - {msg}" for msg in r.failures]
    return "\n".join(lines)


# =====================================================================================
# Properties
# =====================================================================================
class GameFolder(pytest.Dir):
    """A game folder: its properties, then whatever else it holds (scenario files...)."""

    def collect(self) -> Iterator[Any]:
        yield GameProperties.from_parent(self, name="properties", path=self.path / "spec.py")
        yield from super().collect()


class PropertyFailure(Exception):
    """A property's verdict was not PASSED (``result`` is its Result)."""

    def __init__(self, game: str, result: Any) -> None:
        super().__init__(result.property)
        self.game = game
        self.result = result


class GameProperties(pytest.Collector):
    """A game's properties: an item each; one Hypothesis search for all that are run."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._model: Any = None
        self._verdicts: dict[str, Any] | None = None

    def model(self) -> Any:
        if self._model is None:
            from .runtime.registry import load
            self._model = load(self.path.parent)
        return self._model

    def collect(self) -> Iterator[pytest.Item]:
        from .check.property import all_properties, skip_reason
        from .check.walk import RULES_EVALUATE
        from .ir.errors import SpecError
        try:
            model = self.model()
            props = all_properties(model)
        except (SpecError, ValueError) as err:
            raise self.CollectError(f"{self.path}: {err}") from None
        for p in props:
            why = skip_reason(model, p)
            item = PropertyItem.from_parent(self, name=p.name, skip=why)
            item.add_marker(PROPERTY_MARK)
            if why is not None:
                item.add_marker(pytest.mark.skip(reason=why))
            yield item
        item = PropertyItem.from_parent(self, name=RULES_EVALUATE, skip=None)
        item.add_marker(PROPERTY_MARK)
        yield item

    def verdicts(self) -> dict[str, Any]:
        """Every selected property's Result, from one search (run on first need)."""
        if self._verdicts is None:
            from hypothesis import settings

            from .check.runner import HYPOTHESIS, check_game
            from .check.walk import RULES_EVALUATE
            model = self.model()
            mine = [i for i in self.session.items if i.parent is self]
            names = [i.name for i in mine if i.name != RULES_EVALUATE and i.skip is None]
            cap = self.config.getini("rulespec_examples")
            examples = int(cap) if cap else model.spec.check_examples
            profile = settings.default
            examples = max(1, min(examples, profile.max_examples))
            trace_dir = self.config.getini("rulespec_trace_dir") or None
            results = check_game(model, property_names=names, examples=examples,
                                 mode=HYPOTHESIS, trace_dir=trace_dir,
                                 profile=profile) if names else []
            self._verdicts = {r.property: r for r in results}
        return self._verdicts


class PropertyItem(pytest.Item):
    """One property of a game: its verdict from the game's search."""

    def __init__(self, *, skip: str | None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.skip = skip

    def runtest(self) -> None:
        from .check.results import PASSED, SKIPPED
        parent = self.parent
        assert isinstance(parent, GameProperties)
        r = parent.verdicts().get(self.name)
        if r is None:       # rules_evaluate_without_error: reported only when a rule raised
            return
        if r.status == SKIPPED:
            pytest.skip(r.detail)
        if r.status != PASSED:
            raise PropertyFailure(parent.model().name, r)

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException],
                     style: Any = None) -> str | Any:
        if isinstance(excinfo.value, PropertyFailure):
            return property_failure_text(excinfo.value.game, excinfo.value.result)
        return super().repr_failure(excinfo, style)

    def reportinfo(self) -> tuple[Path, int, str]:
        return self.path, 0, f"property: {self.name}"


def property_failure_text(game: str, r: Any) -> str:
    """A property verdict in rule terms: the verdict, why, the minimal trace, its source."""
    lines = [f"{game}: {r.property} {r.status} ({r.checker}, {r.examples} examples)",
             f"  {r.detail}"]
    if r.source:
        lines.append(f"  source: {r.source}")
    if r.trace is not None:
        lines.append(f"  counterexample, {len(r.trace)} step(s) from setup: "
                     + ("; ".join(r.trace) or "(the setup itself)"))
    if r.trace_path:
        lines.append(f"  saved to {r.trace_path}; replay with: rulespec replay {r.trace_path}")
    return "\n".join(lines)
