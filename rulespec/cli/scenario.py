"""`rulespec scenario`: given/when/then scenario files."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Sequence

import click
from rich.markup import escape

from ..check.progress import Progress
from .options import (BadInput, Command, check_outputs, components_for, components_option,
                      emit_json, out, quiet_option, verbose_option)


def _scenario_files(files: Sequence[str]) -> list[tuple[str, str | None]]:
    """The files to run, each with the spec the user named for it (or None): a bundled
    game's name, a spec folder or a spec file stands for all of its scenario files."""
    from ..runtime.registry import available_games, spec_path
    expanded: list[tuple[str, str | None]] = []
    for f in files:
        named = f in available_games() and not Path(f).exists()
        if not named and (Path(f).is_dir() or Path(f).suffix == ".py"):
            try:
                spec_path(f)
                named = True
            except ValueError:
                pass
        if not named:
            expanded.append((f, None))
            continue
        spec = spec_path(f)
        found = sorted(shown_path(p) for p in (spec.parent / "scenarios").glob("*.toml"))
        if not found:
            raise BadInput(f"{f} has no scenario files (none in its scenarios/ folder); "
                           "give scenario .toml files")
        expanded += [(p, str(spec)) for p in found]
    return expanded


def shown_path(path: str | Path) -> str:
    """A path as a person reads it: relative to the working folder when it is inside it
    (an absolute path in a deep clone would wrap the output)."""
    import os
    p = os.path.abspath(path)
    rel = os.path.relpath(p)
    return p if rel.startswith("..") else rel


@click.command(cls=Command)
@click.argument("files", nargs=-1, required=True, type=click.Path())
@click.option("--trace-dir", default="traces", show_default=True,
              help="Where a failed scenario's actions are saved as a trace.")
@click.option("--states", is_flag=True,
              help="With --json: include each scenario's start and final states.")
@click.option("--json", "as_json", is_flag=True, help="One JSON document on stdout.")
@quiet_option
@verbose_option
@components_option
def scenario(files: Sequence[str], trace_dir: str, states: bool, as_json: bool, quiet: bool,
             verbose: bool) -> None:
    """Run given/when/then scenario files (TOML; see docs/scenarios.md). A bundled game's
    name, or a spec folder, stands for all of its scenario files (and lets them run that
    spec: a scenario file alone never runs a spec it names by path without its hash)."""
    from ..check.scenario import ScenarioFileError, load_scenario_file, run_scenario
    from ..formats.names import slug
    from ..runtime.trace import TraceWriteError, save_trace
    expanded = _scenario_files(files)
    loaded = []
    for f, spec in expanded:
        try:
            loaded.append(load_scenario_file(f, trusted=[spec] if spec else []))
        except ScenarioFileError as e:
            raise BadInput(str(e)) from None
    if click.get_current_context().meta.get("rulespec.components") is not None:
        from ..runtime.registry import load_spec
        try:   # --components: every game the files are about, its file read before the work
            for sf in loaded:
                components_for(sf.game_ref)
                load_spec(sf.game_ref, sha256=sf.spec_sha256)
        except ValueError as e:
            raise BadInput(str(e)) from None
    check_outputs("trace_dir")
    all_results = []
    total = sum(len(sf.scenarios) for sf in loaded)
    with Progress("scenarios", total=total, quiet=quiet) as progress:
        for (f, _), sf in zip(expanded, loaded):
            rs = []
            for sc in sf.scenarios:
                progress.note(sc.name[:40])
                try:
                    rs.append(run_scenario(sf, sc))
                except ScenarioFileError as e:
                    raise BadInput(str(e)) from None
                progress.advance()
            all_results.append((f, rs))
    saved: dict[int, str] = {}
    unsaved: dict[int, str] = {}
    for _, rs in all_results:
        for r in rs:
            trace = r.to_trace() if r.status != "PASSED" else None
            if trace is not None:
                name = f"{slug(r.game)}-scenario-{slug(r.name)}.json"
                try:
                    saved[id(r)] = str(save_trace(trace, Path(trace_dir) / name))
                except TraceWriteError as e:
                    unsaved[id(r)] = str(e)
    failed = sum(1 for _, rs in all_results for r in rs if r.status != "PASSED")
    code = 1 if failed else 0
    if as_json:
        emit_json({"files": [{"file": f, "scenarios": [
            {**r.to_dict(states=states), "trace_path": saved.get(id(r)),
             **({"trace_error": unsaved[id(r)]} if id(r) in unsaved else {})} for r in rs]}
            for f, rs in all_results], "passed": total - failed, "failed": failed})
        sys.exit(code)
    for f, rs in all_results:
        bad = [r for r in rs if r.status != "PASSED"]
        out.para(f"{shown_path(f)}: {len(rs) - len(bad)} passed, {len(bad)} failed",
                 style="bold")
        for r in rs:
            if r.status == "PASSED" and not verbose:
                continue
            colour = "green" if r.status == "PASSED" else "bold red"
            out.print(f"  [{colour}]{r.status}[/] {escape(r.name)}")
            for msg in r.failures:
                out.para(msg, indent=6)
            if id(r) in saved:
                out.para(f"trace saved to {saved[id(r)]}", indent=6)
            if id(r) in unsaved:
                out.para(f"trace not saved: {unsaved[id(r)]}", indent=6, style="yellow")
    out.print(f"{total - failed} passed, {failed} failed")
    sys.exit(code)

