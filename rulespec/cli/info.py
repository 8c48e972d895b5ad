"""`rulespec info`: one screen about a game, and its details on request."""

from __future__ import annotations

import json
from typing import Any, Sequence

import click
from rich.markup import escape

from ..console import summarise, width
from ..report.families import FAMILY_MIN, family_groups, family_key, family_name
from ..runtime.model import Model
from .options import (SHOWN, BadInput, Command, components_option, emit_json, load_model, out)
def _value(v: Any) -> Any:
    return v if isinstance(v, (int, str, bool, list, dict, type(None))) else repr(v)


def _info_doc(model: Model) -> dict[str, Any]:
    from ..check.property import all_properties
    from ..spec.components import Components, catalogues, describe
    from ..spec.elements import proof_aids
    from ..ir.english import definitions, to_english
    from ..ir.walk import statement_exprs
    spec = model.spec
    aids = proof_aids(spec)
    aid_props = {name for kind, name, _ in aids if kind in ("invariant", "law")}

    def named(a: Any) -> list[dict[str, str]]:
        used = [pre.cond for pre in a.preconditions] + list(statement_exprs(a.effects))
        return [{"name": n, "means": to_english(v)} for n, v in definitions(used)]

    return {
        "name": spec.name, "title": spec.title, "source": spec.source,
        "players": [spec.min_players, spec.max_players], "max_steps": spec.max_steps,
        "horizon": spec.horizon, "horizon_reason": spec.horizon_reason,
        "actions": [{"name": a.name, "chance": a.chance, "source": a.source,
                     "where": f"{a.where.file}:{a.where.line}" if a.where else None,
                     "params": {p.name: p.domain.label for p in a.params},
                     "preconditions": [{"text": pre.text, "rule": to_english(pre.cond),
                                        "source": pre.source} for pre in a.preconditions],
                     "definitions": named(a), "proof_aid": a.proof_aid}
                    for a in spec.actions],
        "properties": [{"name": p.name, "kind": p.kind, "source": p.source,
                        "checked_by": "python" if p.python_only else "python, z3",
                        "proof_aid": p.name in aid_props}
                       for p in all_properties(model)],
        # the parts written only so that a proof goes through (proof_aid=True), apart
        "proof_aids": [{"kind": kind, "name": name, "doc": doc} for kind, name, doc in aids],
        "interpretations": [{"name": i.name, "question": i.question, "default": i.default,
                             "default_reason": i.default_reason, "english": i.english,
                             "options": [{"name": o, "source": s} for o, s in i.options.items()]}
                            for i in spec.interpretations],
        "rulesets": [{"name": r.name, "source": r.source, "doc": r.doc,
                      "options": dict(r.options)} for r in spec.rulesets],
        "assumptions": [{"name": a.name, "value": _value(a.value), "reason": a.reason,
                         "origin": a.origin, "components": isinstance(a, Components)}
                        for a in spec.assumptions],
        "components": [describe(c) for c in catalogues(spec)],
    }


@click.command(cls=Command)
@click.argument("game")
@click.option("--action", "action_names", multiple=True, metavar="NAME",
              help="Everything about this action: parameters, preconditions and sources.")
@click.option("--assumptions", "show_assumptions", is_flag=True,
              help="Every assumption with its value, reason and origin.")
@click.option("--all", "show_all", is_flag=True, help="Every detail of every part.")
@click.option("--json", "as_json", is_flag=True, help="Everything, as one JSON document.")
@components_option
def info(game: str, action_names: Sequence[str], show_assumptions: bool, show_all: bool,
         as_json: bool) -> None:
    """An overview of GAME: players, actions, properties, interpretation points and
    assumptions (one screen; --action, --assumptions and --all give the details)."""
    model = load_model(game)
    actions = [a.name for a in model.spec.actions]
    unknown = [n for n in action_names if n not in actions]
    if unknown:   # with --json too: a name the spec lacks is never passed over in silence
        raise BadInput(f"{model.name} has no action {', '.join(map(repr, unknown))} "
                       f"(actions: {', '.join(actions)})")
    doc = _info_doc(model)
    if as_json:
        emit_json(doc)
        return
    known = {a["name"]: a for a in doc["actions"]}
    if action_names and not show_all:
        for name in action_names:
            _print_action(known[name], full=True)
        if show_assumptions:
            _print_assumptions(doc, full=True)
        return
    if show_assumptions and not show_all:
        _print_assumptions(doc, full=True)
        return
    spec = model.spec
    players = (str(spec.min_players) if spec.min_players == spec.max_players
               else f"{spec.min_players}-{spec.max_players}")
    length = (f"at most {spec.max_steps} steps" if spec.horizon is None else
              f"no bound in the rules, play stops at {spec.horizon} steps")
    out.print(f"[bold]{escape(spec.title)}[/bold] ({escape(spec.name)}): {players} players, "
              f"{length}")
    out.para(f"source: {spec.source}", hang=2)
    out.print(f"\n[bold]Actions[/bold] ({len(doc['actions'])})")
    for group in _families(doc["actions"]) if not show_all else [[a] for a in doc["actions"]]:
        if len(group) < FAMILY_MIN:
            for a in group:
                _print_action(a, full=show_all)
        else:
            _print_family(group)
    props = doc["properties"]
    kinds: dict[str, int] = {}
    for p in props:
        kinds[p["kind"]] = kinds.get(p["kind"], 0) + 1
    out.print(f"\n[bold]Properties[/bold] ({len(props)}: "
              + ", ".join(f"{v} on {'every ' if k != 'end' else 'the '}{k}"
                          for k, v in kinds.items())
              + ")")
    names = [p["name"] for p in props]
    if show_all:
        for p in props:
            aid = "; a proof aid" if p["proof_aid"] else ""
            out.para(f"{p['name']} ({p['kind']}; checked by {p['checked_by']}{aid}): "
                     f"{p['source']}", indent=2)
    else:
        out.para(summarise(names, SHOWN, more="--all lists them"), indent=2, hang=2)
    _print_proof_aids(doc, full=show_all)
    summary = not show_all and len(doc["interpretations"]) > 4
    out.print("\n[bold]Interpretation points[/bold]"
              + (f" ({len(doc['interpretations'])}" + ("; options, default first)" if summary
                                                        else ")")
                 if doc["interpretations"] else ": none"))
    if summary:   # one screen: the first few
        out.para(summarise([f"{i['name']} ({'/'.join(o['name'] for o in i['options'])})"
                            for i in doc["interpretations"]], POINTS_SHOWN,
                           more="--all lists them"),
                 indent=2, hang=2)
    for i in doc["interpretations"] if show_all or len(doc["interpretations"]) <= 4 else ():
        opts = ", ".join(o["name"] for o in i["options"])
        out.para(f"{i['name']}: {i['question']} ({opts}; default {i['default']})", indent=2)
        if show_all:
            for o in i["options"]:
                out.para(f"{o['name']}: {o['source']}", indent=6)
            if i["default_reason"]:
                out.para(f"why {i['default']} by default: {i['default_reason']}", indent=6)
    rulesets = [(r, ", ".join(f"{k}={v}" for k, v in r["options"].items()))
                for r in doc["rulesets"]]
    if rulesets and not show_all:   # one screen: what each sets is under --all
        out.para("rulesets: " + ", ".join(
            f"{r['name']} ({len(r['options'])} point{'s' if len(r['options']) != 1 else ''})"
            for r, _ in rulesets) + "; --all gives their readings", indent=2, hang=2)
    elif rulesets:
        out.print(f"\n[bold]Rulesets[/bold] ({len(rulesets)})")
        for r, opts in rulesets:
            out.para(f"{r['name']}: {opts}", indent=2)
            if r["doc"]:
                out.para(r["doc"], indent=6)
            out.para(f"source: {r['source']}", indent=6)
    if show_all:
        _print_assumptions(doc, full=True)
    else:
        _print_assumptions(doc, full=False)
        out.para(f"details: rulespec info {game} --action NAME | --assumptions | --all | --json")


#: the overview names this many interpretation points and lists this many catalogues in
#: full (one screen); the rest are counted
POINTS_SHOWN = 5
CATALOGUES_SHOWN = 2
#: a family of actions (from FAMILY_MIN members on) is one line naming this many of them
FAMILY_SHOWN = 4


def _print_proof_aids(doc: dict[str, Any], full: bool) -> None:
    """The parts marked proof_aid=True: checked like the others, but no rule a reader needs
    (the overview: one line under the properties; --all: each with its doc)."""
    aids = doc["proof_aids"]
    if not aids:
        return
    kinds: dict[str, int] = {}
    for a in aids:
        kinds[a["kind"]] = kinds.get(a["kind"], 0) + 1
    words = {"chance": "chance step"}
    counts = ", ".join(f"{n} {words.get(k, k)}{'s' if n > 1 else ''}" for k, n in kinds.items())
    why = "written only so that the proofs go through; a reader of the rules may skip them"
    if not full:
        out.para(f"proof aids: {counts}, written only so that the proofs go through (--all "
                 "lists them)", indent=2, hang=2)
        return
    out.print(f"\n[bold]Proof aids[/bold] ({counts})")
    out.para(why, indent=2)
    for a in aids:
        out.para(f"{a['name']} ({a['kind']})" + (f": {a['doc']}" if a["doc"] else ""), indent=2)


def _families(actions: list[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    """The actions in the spec's order, the members of a family (one spec line, one
    passage: the report's :func:`family_key`) together where its first member stands."""
    fams = family_groups(actions, lambda a: family_key(
        "chance" if a["chance"] else "action", a["source"], a["where"]))
    first = {id(m[0]): m for m in fams.values()}
    member = {id(a) for m in fams.values() for a in m}
    return [first[id(a)] if id(a) in first else [a] for a in actions
            if id(a) in first or id(a) not in member]


def _print_family(group: list[dict[str, Any]]) -> None:
    """One line for a family: its name, its members (the first few) and their preconditions."""
    names = [a["name"] for a in group]
    kind = "chance outcomes" if group[0]["chance"] else "actions"
    counts = sorted({len(a["preconditions"]) for a in group})
    pre = f"{counts[0]}" if len(counts) == 1 else f"{counts[0]}-{counts[-1]}"
    out.para(f"{family_name(names)} ({len(group)} {kind}: "
             f"{summarise(names, FAMILY_SHOWN, more='--all lists them')}) — {pre} "
             "preconditions each", indent=2, hang=2)


def _print_action(a: dict[str, Any], full: bool) -> None:
    kind = "chance outcome" if a["chance"] else "action"
    params = ", ".join(f"{k} in {v}" for k, v in a["params"].items())
    n = len(a["preconditions"])
    if not full:
        head = f"  {a['name']}({params})"
        tail = f" — {kind}, {n} precondition{'s' if n != 1 else ''}"
        room = width() - len(tail)
        if len(head) > room:
            head = head[:room - 4] + "...)"
        out.print(escape(head + tail))
        return
    out.para(f"{a['name']}({params}) — {kind}", indent=2)
    out.para(f"source: {a['source']}", indent=4)
    for pre in a["preconditions"]:
        out.para(f"requires: {pre['text']} [{pre['source']}]", indent=4)
        out.para(f"means: {pre['rule']}", indent=8)
    for d in a.get("definitions", ()):
        out.para(f"where {d['name']}: {d['means']}", indent=4)


def _print_assumptions(doc: dict[str, Any], full: bool) -> None:
    _print_components(doc, full)
    items = [a for a in doc["assumptions"] if not a["components"]]
    out.print("\n[bold]Assumptions[/bold]" + (f" ({len(items)})" if items else ": none"))
    if not full:
        if items:
            out.para(", ".join(a["name"] for a in items), indent=2, hang=2)
        return
    for a in items:
        value = json.dumps(a["value"], ensure_ascii=False)
        out.para(f"{a['name']} = {value}", indent=2)
        out.para(f"why: {a['reason']}", indent=6)
        if a["origin"]:
            out.para(f"origin: {a['origin']}", indent=6)



def _print_components(doc: dict[str, Any], full: bool) -> None:
    """The catalogues of component data: one line each (which entries are constructed,
    summarised); in full, each provenance with its entries and its source or reason."""
    cats = doc["components"]
    if not cats:
        return
    out.print(f"\n[bold]Components[/bold] ({len(cats)})")
    rest = [] if full or len(cats) <= CATALOGUES_SHOWN + 1 else cats[CATALOGUES_SHOWN:]
    for c in cats[:len(cats) - len(rest)]:
        counts = ", ".join(f"{n} {k}" for k, n in c["counts"].items())
        shown = c["file"].rsplit("/", 1)[-1] + (", replaced" if c["replaced"] else "")
        n = len(c["entries"])
        line = f"{c['name']} ({shown}): {n} entr{'y' if n == 1 else 'ies'}, {counts}"
        made = c["constructed"]
        if made and len(made) < len(c["entries"]) and not full:
            line += "; constructed: " + summarise(made, 6, more="--assumptions lists them")
        out.para(line, indent=2, hang=4)
        if not full:
            continue
        if c["about"]:
            out.para(c["about"], indent=6)
        groups: dict[tuple[str, str], list[str]] = {}
        for e in c["entries"]:
            groups.setdefault((e["provenance"], e["text"]), []).append(e["name"])
        for (kind, text), names in groups.items():
            why = "why" if kind == "constructed" else "source"
            out.para(f"{kind} ({len(names)}): {', '.join(names)}", indent=6, hang=2)
            out.para(f"{why}: {text}", indent=8, hang=2)
    if rest:   # one screen: the others by name and size
        out.para(summarise([f"{c['name']} ({len(c['entries'])} entries)" for c in rest],
                           len(rest)) + "; --assumptions lists them", indent=2, hang=4)
