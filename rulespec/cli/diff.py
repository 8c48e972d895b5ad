"""`rulespec diff`: where two readings of a game part, and how much it matters."""

from __future__ import annotations

import sys
from typing import Any, Sequence

import click

from ..check.progress import Progress
from ..check.results import DIFFER, SAME
from .options import (BadInput, Command, backend_option, check_outputs, components_option,
                      emit_json, load_model, out, policy_from, policy_options, quiet_option,
                      ruleset_option, steps_line, verbose_option)


@click.command("diff", cls=Command)
@click.argument("game")
@click.option("--interpretation", "reading_a", multiple=True, metavar="K=A",
              help="Reading A: an option of a point (repeatable), over --ruleset if given.")
@ruleset_option
@click.option("--against", "reading_b", multiple=True, required=True, metavar="NAME|K=B",
              help="Reading B: a ruleset NAME, and/or K=B options over reading A (repeatable).")
@click.option("--from", "start", default=None, metavar="FILE[#NAME]",
              help="Start from a scenario's given situation instead of the setup.")
@click.option("--depth", type=click.IntRange(min=1), default=3, show_default=True,
              help="Most actions after the start to search.")
@click.option("--setups", type=click.IntRange(min=1), default=2, show_default=True,
              help="Setups sampled per player count when the setup is random.")
@click.option("--games", type=click.IntRange(min=0), default=50, show_default=True,
              help="Seeded games in lockstep: how often the readings part and the winner "
                   "changes (95 % intervals).")
@policy_options
@backend_option
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--out-dir", default="traces", show_default=True,
              help="Where the difference is saved as a scenario file.")
@click.option("--json", "as_json", is_flag=True, help="One JSON document on stdout.")
@quiet_option
@verbose_option
@components_option
def diff_cmd(game: str, reading_a: Sequence[str], ruleset: str | None,
             reading_b: Sequence[str], start: str | None, depth: int, setups: int,
             games: int, policy_name: str | None, simulations: int | None,
             rollout: int | None, backend: str, seed: int, out_dir: str, as_json: bool,
             quiet: bool, verbose: bool) -> None:
    """Where two readings of GAME part: the simplest difference, explained in rule terms,
    and how much it matters (with --policy, between stronger players than random).

    Prints DIFFER (with the situation, saved as a scenario), SAME (no difference within
    the bound it states) or UNKNOWN. Exit code: 0 SAME, 1 DIFFER or UNKNOWN, 2 bad input."""
    from ..check.diff import diff
    policy = policy_from(policy_name, simulations, rollout, backend)
    if not reading_a and ruleset is None:
        raise BadInput("name reading A with --ruleset NAME and/or --interpretation K=A")
    ma = load_model(game, reading_a, ruleset)
    b_rulesets = [x for x in reading_b if "=" not in x]
    b_options = [x for x in reading_b if "=" in x]
    if len(b_rulesets) > 1:
        raise BadInput(f"--against names more than one ruleset: {', '.join(b_rulesets)}")
    if b_rulesets:   # B is that ruleset, with its own K=B options
        mb = load_model(game, b_options, b_rulesets[0])
    else:            # B is reading A with the K=B options changed
        over = dict(ma.interpretation)
        for x in b_options:
            k, v = x.split("=", 1)
            if k.strip() not in over:
                load_model(game, [x])  # the same one-line error as for reading A
            over[k.strip()] = v.strip()
        mb = load_model(game, [f"{k}={v}" for k, v in over.items()])
    if ma.interpretation == mb.interpretation:
        raise BadInput("the two readings are the same: --against must change an "
                       "interpretation point")
    if start is not None:   # a scenario that gives no usable start is refused before the search
        from ..check.diff import scenario_start
        try:
            scenario_start(ma, mb, start)
        except ValueError as e:
            raise BadInput(str(e)) from None
    check_outputs("out_dir")
    label_a = " + ".join(([f"ruleset {ruleset}"] if ruleset else []) + list(reading_a))
    label_b = " + ".join([f"ruleset {b}" for b in b_rulesets] + b_options)
    try:
        with Progress(f"diff {ma.name}", quiet=quiet or as_json) as progress:
            report = diff(ma, mb, depth=depth, setups=setups, games=games, seed=seed,
                          scenario_dir=out_dir, start=start, labels=(label_a, label_b),
                          progress=progress, policy=policy, backend=backend)
    except ValueError as e:
        raise BadInput(str(e)) from None
    # like diff(1): 0 the same (within the bound), 1 they differ; UNKNOWN is never the same
    code = 0 if report.status == SAME else 1
    if as_json:
        emit_json(report.to_json())
        sys.exit(code)
    _print_diff(report, verbose)
    sys.exit(code)


def _print_diff(report: Any, verbose: bool) -> None:
    # a difference is an answer to a question, not a failure: not in a failure's red
    colour = {DIFFER: "bold blue", SAME: "green"}.get(report.status, "yellow")
    out.para(f"{report.a_label}  against  {report.b_label}")
    out.para(f"{report.status}: {report.detail}", style=colour)
    out.para(f"the readings set {len(report.points)} point(s) differently:")
    for p in report.points:
        out.para(f"{p.point}: {p.question}", indent=2)
        out.para(f"{p.a} (A): {p.a_source}", indent=4)
        out.para(f"{p.b} (B): {p.b_source}", indent=4)
    d = report.difference
    if d is not None:
        out.print("[bold]the difference[/bold]")
        own = {f"{p.point}:" for p in report.points}
        sources = {f"{x}: " for p in report.points for x in (p.a, p.b)}
        for line in d.explanation:   # the points were listed above
            if line.split(" ")[0] in own or line.strip().startswith(tuple(sources)):
                continue
            if d.given and not verbose and "setup step(s)" in line:
                out.para(line, indent=2)
                out.para(f"setup: {steps_line(list(d.given), verbose)}", indent=4)
                continue
            body = line.lstrip(" ")
            out.para(body, indent=2 + len(line) - len(body))
        if report.scenario_path:
            out.para("saved as a scenario (run it with `rulespec scenario`):", indent=2)
            out.para(report.scenario_path, indent=4)
        if report.scenario_error:
            out.para(f"scenario not saved: {report.scenario_error}", indent=2, style="yellow")
    im = report.impact
    if im is not None:
        out.para(f"does it matter? {im.games} games in lockstep (seed {im.seed}, "
                 f"{min(im.players)}-{max(im.players)} players), played by {im.policy}:")
        out.para(f"the readings parted in {im.parted}", indent=2)
        out.para(f"the winner changed in {im.winner_changed}", indent=2)

