"""A difference ``rulespec diff`` found, saved as a scenario file: the same start and
actions, one expectation per reading, and what diff found (with the impact) in ``[diff]``.

The file is a document written by tomli-w (:func:`rulespec.formats.scenario.dump_scenario`),
never put together from strings: a spec's text with line breaks stays a string (or a safe
comment), and its name and options reach the file name only as a slug.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..formats.files import write_atomically
from ..formats.names import slug
from ..formats.scenario import dump_scenario
from ..runtime.model import Model
from ..runtime.trace import spec_identity

if TYPE_CHECKING:
    from .diff import DiffReport, Start


def save_scenario(ma: Model, mb: Model, report: "DiffReport", start: "Start", folder: Path
                  ) -> Path:
    """Write the difference as a scenario file in ``folder``; returns its path."""
    d = report.difference
    assert d is not None
    tag = "-".join(f"{p.point}-{p.a}-vs-{p.b}" for p in report.points)
    path = Path(folder) / f"{slug(ma.name)}-diff-{slug(tag, 120)}.toml"
    comments = [f"Found by `rulespec diff`: {report.a_label} against {report.b_label}.",
                *d.explanation]
    write_atomically(path, dump_scenario(scenario_document(ma, mb, report, start), comments))
    return path


def scenario_document(ma: Model, mb: Model, report: "DiffReport", start: "Start"
                      ) -> dict[str, Any]:
    """The scenario file's document (TOML values only)."""
    d = report.difference
    assert d is not None
    spec_path, sha = spec_identity(ma)
    doc: dict[str, Any] = {"game": ma.name if spec_path is None else spec_path}
    if sha is not None:
        doc["spec_sha256"] = sha
    doc["players"] = d.players
    found: dict[str, Any] = {"a": dict(report.a), "b": dict(report.b), "start": d.start,
                             "kind": d.kind, "steps": len(d.steps), "depth": report.depth,
                             "seed": report.seed}
    if report.impact is not None:
        im = report.impact
        found.update(games=im.games, policy=im.policy,
                     parted=[im.parted.count, im.parted.games],
                     parted_ci95=[im.parted.low, im.parted.high],
                     winner_changed=[im.winner_changed.count, im.winner_changed.games],
                     winner_changed_ci95=[im.winner_changed.low, im.winner_changed.high])
    doc["diff"] = found
    doc["scenario"] = [_side(ma, d, report, start, side, model, opts)
                       for side, model, opts in (("a", ma, report.a), ("b", mb, report.b))]
    return doc


def _side(ma: Model, d: Any, report: "DiffReport", start: "Start", side: str, model: Model,
          opts: dict[str, str]) -> dict[str, Any]:
    interp = {k: v for k, v in model.interpretation.items()
              if v != model.spec.interpretation(k).default or k in opts}
    label = ", ".join(f"{k}={v}" for k, v in opts.items())
    sc: dict[str, Any] = {"name": f"{label}: {d.kind} difference",
                          "source": f"rulespec diff; {_sources(report, side)}",
                          "interpretation": interp}
    if start.given or start.edits:
        given: dict[str, Any] = {}
        if start.given:
            given["actions"] = list(start.given)
        if start.edits:
            given["edits"] = {ref: _by_name(ma, ref, v) for ref, v in start.edits}
        sc["given"] = given
    # a legality difference checks its last action instead of playing it
    played = d.steps[:-1] if d.kind == "legality" else d.steps
    if played:
        sc["when"] = {"actions": list(played)}
    then: dict[str, Any] = {}
    if d.kind == "legality":
        last = d.steps[-1]
        if d.legal_under == (side,):
            then["legal"] = [last]
        else:
            reasons = [r.text for r in d.refused_by if r.points] or \
                [r.text for r in d.refused_by]
            then["illegal_because"] = {last: reasons}
    elif d.kind == "effect":
        idx = 1 if side == "a" else 2
        then["fields"] = {cell: v[idx] for cell, v in d.cells.items()}
    else:
        o = d.outcome[side]
        then["terminal"] = o["terminal"]
        if o["terminal"]:
            then["scores"] = list(o["scores"])
            then["winners"] = list(o["winners"])
    sc["then"] = then
    return sc


def _by_name(model: Model, ref: str, value: Any) -> Any:
    """A list over a dimension with named positions as a table of its non-zero entries
    (``{ "6/spear" = 1 }``), the way a person writes it in a scenario file."""
    from .scenario import _parse_ref
    field = model.layout.slots[ref.split("[")[0].strip()].field
    dims = field.dims[len(_parse_ref(model, ref).index):]

    def named(v: Any, rest: tuple) -> Any:
        if not isinstance(v, list) or not rest or field.type.enum is not None:
            return v
        names = rest[0].names()
        if names is None or len(v) != len(names):
            return [named(x, rest[1:]) for x in v]
        return {n: named(x, rest[1:]) for n, x in zip(names, v)
                if n is not None and x not in (0, False, [], {})}

    return named(value, dims)


def _sources(report: "DiffReport", side: str) -> str:
    return "; ".join(f"{p.point}={getattr(p, side)}: {getattr(p, side + '_source')}"
                     for p in report.points)


def game_ref(model: Model) -> str:
    """What a scenario's ``game`` says: a bundled game's name, else its spec's path (a
    copy of a bundled game is not the bundled game)."""
    path, _ = spec_identity(model)
    return model.name if path is None else path
