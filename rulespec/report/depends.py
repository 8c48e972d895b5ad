"""What each verdict of the report rests on: its evidence, and the assumptions it reads.

:func:`annotate` adds to the report's JSON document (``document.build_document``), from the
checkers' results and the static slice of ``rulespec.check.depends``:

* under every property result: ``evidence`` (the checker's facts), ``evidence_text`` (one
  line) and ``rests_on`` (the assumptions its slice reaches);
* under every scenario, every difference between readings and every impact figure, and
  every dead-rule flag of the rule index: ``rests_on`` (and a dead rule's evidence);
* per assumption: ``read_by`` (the rule elements carrying it, from the IR) and
  ``verdicts`` (the results, scenarios and questions resting on it);
* at a glance: ``rests_on``, how many results rest on the printed rules only, on
  assumptions, and on constructed values (an origin that says the value is constructed,
  invented or not found), with their names.
"""

from __future__ import annotations

from typing import Any, Iterable

from ..check.depends import Dependence, Rests, Site
from ..check.property import all_properties
from ..runtime.model import Model
from .collect import Collected
from .evidence import sentence
from .rules import slug

#: origin kinds (``provenance.origin_kinds``) that make an assumption a constructed value
CONSTRUCTED = ("constructed", "not found")
#: the verdicts that say something: the glance splits these
DECIDED = ("PROVED", "PASSED", "VIOLATED")
DEAD = "rule_can_apply:"


def annotate(doc: dict[str, Any], c: Collected) -> None:
    """Add evidence and ``rests_on`` throughout ``doc`` (see the module doc)."""
    model = c.model
    dep = Dependence(c.proved_spec())  # an inferred lemma reads what its expression reads
    kinds = {a["name"]: a["origin_kinds"] for a in doc["assumptions"]}
    constructed = {n for n, k in kinds.items() if set(k) & set(CONSTRUCTED)}
    entries = {a.name: a.entries for a in model.spec.assumptions}
    shown = _Shown(dep, entries, constructed, catalogue_entries(model.spec))
    by_key = {(r.property, r.checker): r for r in c.check + c.prove}
    props = {p.name: p for p in all_properties(model)}
    for p in doc["properties"]:
        for row in p["results"]:
            r = by_key.get((p["name"], row["checker"]))
            if r is None:
                continue
            row["evidence"] = r.evidence
            row["evidence_text"] = sentence(r.evidence) or row["detail"] or row["budget"]
            row["rests_on"] = (shown.nothing() if r.status == "SKIPPED" else
                               shown.json(dep.for_result(r, props.get(p["name"])),
                                          ("property", p["id"], row["checker"])))
    for e in doc["rules"]:
        key = _dead_key(e, model)
        r = by_key.get((DEAD + key, "z3-dead-rules")) if key else None
        if r is not None:
            e["dead_evidence"] = sentence(r.evidence)
            if e["dead"] != "alive":  # a finding (or undecided): what it rests on
                e["rests_on"] = shown.json(dep.for_rule(r.property, r.evidence or {}),
                                           ("rule", e["id"], None))
    for s, (sf, sc, res) in zip(doc["scenarios"], _scenarios(c)):
        fields, words = _scenario_reads(model, sc)
        s["rests_on"] = shown.json(dep.for_scenario(fields, _played(model, sf, sc, res),
                                                    words), ("scenario", s["id"], None))
    for q in doc["questions"]:
        for d in q["differences"]:
            if d["status"] == "SKIPPED":
                continue
            d["evidence_text"] = _search_text(d, doc["budget"])
            d["rests_on"] = shown.json(dep.for_point(q["name"]), ("question", q["id"], None))
            for m in d.get("impacts") or ():   # under each policy played (faq.py)
                m["rests_on"] = shown.json(dep.for_point(q["name"], outcome=True),
                                           ("impact", q["id"], None))
    for a in doc["assumptions"]:
        a["read_by"], a["read_by_ids"] = readers(dep, a["name"])
        a["verdicts"] = shown.resting.get(a["name"], {"results": 0, "properties": [],
                                                       "scenarios": 0, "questions": [],
                                                       "impact": 0, "rules": []})
        a["entries_read"] = sorted(shown.read.get(a["name"], set()))
        a["entries"] = len(entries.get(a["name"]) or ())
        a["traced"] = a["name"] not in dep.untraced
        a["constructed"] = a["name"] in constructed
    doc["glance"]["rests_on"] = shown.glance(doc)
    doc["assumption_sets"] = list(shown.sets.values())


class _Shown:
    """Slices as JSON, and what rests on each assumption."""

    def __init__(self, dep: Dependence, entries: dict[str, tuple[str, ...] | None],
                 constructed: set[str],
                 catalogues: dict[str, dict[str, set[str]]] | None = None) -> None:
        self.dep, self.entries, self.constructed = dep, entries, constructed
        #: catalogue -> provenance kind -> its entries: a verdict reading only printed
        #: entries rests on the printed rules; constructed only if it reads a constructed one
        self.catalogues = catalogues or {}
        self.resting: dict[str, dict[str, Any]] = {}
        self.read: dict[str, set[str]] = {}
        self.sets: dict[tuple, dict[str, Any]] = {}
        for s in dep.sites:
            for t in s.tags:
                if t.entry is not None:
                    self.read.setdefault(t.name, set()).add(t.entry)

    def json(self, rests: Rests, who: tuple[str, str, str | None],
             count: bool = True) -> dict[str, Any]:
        """A slice as JSON: its assumptions by name, the entries read of those read only in
        part, the untraced ones, and the id of its set (the same assumptions, shown once)."""
        by_name: dict[str, set[str | None]] = {}
        for t in rests.assumptions:
            by_name.setdefault(t.name, set()).add(t.entry)
        for name, kinds in self.catalogues.items():   # printed entries are the rules' own
            got = by_name.get(name)
            if got is not None and None not in got and got <= kinds.get("printed", set()):
                del by_name[name]
        names = sorted(by_name)
        made = [n for n in names if self._constructed(n, by_name[n])]
        part: dict[str, list[str]] = {}
        for name in names:
            got, every = by_name[name], self.entries.get(name)
            if None not in got and every and not set(every) <= got:
                part[name] = sorted(got, key=_entry_order(every))
        if count:
            for name in [*names, *sorted(rests.untraced)]:
                self._rests_on(name, who)
        key = (tuple(names), tuple((n, tuple(e)) for n, e in sorted(part.items())))
        if key not in self.sets:
            self.sets[key] = {"id": f"set-{len(self.sets) + 1}", "assumptions": names,
                              "entries": part, "constructed": made}
        return {"how": rests.how, "assumptions": names, "entries": part,
                "untraced": sorted(rests.untraced), "conservative": rests.conservative,
                "constructed": made, "set": self.sets[key]["id"]}

    def _constructed(self, name: str, got: set[str | None]) -> bool:
        """Whether reading ``got`` entries of ``name`` rests on a constructed value: for a
        catalogue, a constructed entry read (or any, when it is read whole)."""
        kinds = self.catalogues.get(name)
        if kinds is None:
            return name in self.constructed
        made = kinds.get("constructed", set())
        return bool(made) and (None in got or bool(got & made))

    def nothing(self) -> dict[str, Any]:
        """A verdict that checked nothing (SKIPPED) rests on nothing."""
        return {"how": "none", "assumptions": [], "entries": {}, "untraced": [],
                "conservative": None, "constructed": [], "set": None}

    def _rests_on(self, name: str, who: tuple[str, str, str | None]) -> None:
        """Count what rests on ``name``: results (and the properties they belong to),
        scenarios, questions and their impact figures, dead rules (with their ids)."""
        kind, ident, _ = who
        got = self.resting.setdefault(name, {"results": 0, "properties": [], "scenarios": 0,
                                             "questions": [], "impact": 0, "rules": []})
        if kind == "property":
            got["results"] += 1
            if ident not in got["properties"]:
                got["properties"].append(ident)
        elif kind == "scenario":
            got["scenarios"] += 1
        elif kind == "impact":
            got["impact"] += 1
        else:
            key = "questions" if kind == "question" else "rules"
            if ident not in got[key]:
                got[key].append(ident)

    def glance(self, doc: dict[str, Any]) -> dict[str, Any]:
        """How many results rest on the printed rules only, on assumptions, on constructed
        values; and the scenarios likewise."""
        rows = [r for p in doc["properties"] for r in p["results"] if "rests_on" in r
                and r["status"] in DECIDED]
        def split(items: Iterable[dict[str, Any]]) -> dict[str, int]:
            items = list(items)
            printed = sum(1 for x in items if not x["assumptions"])
            made = sum(1 for x in items if x["constructed"])
            return {"printed_only": printed, "constructed": made,
                    "other_assumptions": len(items) - printed - made}
        named = sorted({n for r in rows for n in r["rests_on"]["constructed"]})
        return {"decided": len(rows), "results": split(r["rests_on"] for r in rows),
                "scenarios": split(s["rests_on"] for s in doc["scenarios"] if "rests_on" in s),
                "constructed_values": named,
                "conservative": sum(1 for r in rows if r["rests_on"]["conservative"]),
                "untraced": sorted(self.dep.untraced)}


def catalogue_entries(spec: Any) -> dict[str, dict[str, set[str]]]:
    """Each catalogue of component data's entries by provenance kind."""
    from ..spec.components import PROVENANCE, catalogues
    return {c.name: {k: set(c.entries_of(k)) for k in PROVENANCE} for c in catalogues(spec)}


def _search_text(d: dict[str, Any], budget: dict[str, Any]) -> str:
    """What stands behind a comparison of two readings: the search and its bound."""
    found = (d.get("difference") or {}).get("found_by")
    how = ("found by random play beyond the search's bound, not the smallest"
           if found and found != "search" else "")
    return (f"Search: breadth-first, {d.get('nodes', 0):,} states within "
            f"{budget['diff_depth']} actions, {budget['diff_setups']} setup(s) per player "
            f"count, at most {budget['diff_nodes']:,} nodes, seed {budget['seed']}"
            + (f"; {how}" if how else ""))


def _entry_order(every: tuple[str, ...]) -> Any:
    order = {e: k for k, e in enumerate(every)}
    return lambda e: order.get(e, len(order))


def readers(dep: Dependence, name: str) -> tuple[list[str], list[str]]:
    """The rule elements that carry ``name``'s labels (or cite it), from the IR, and the
    rule index ids of the actions among them."""
    labels: dict[str, str | None] = {}
    for s in dep.sites:
        if any(t.name == name for t in s.tags):
            label, rid = _site_label(s)
            labels.setdefault(label, rid)
    return sorted(labels), sorted({r for r in labels.values() if r})


def _site_label(s: Site) -> tuple[str, str | None]:
    if s.kind in ("precondition", "effect", "weight", "parameters", "condition"):
        return f"action {s.owner}", f"a-{slug(s.owner or '')}"
    if s.kind == "field":
        return f"field {s.owner}", None
    if s.kind == "flow":
        return str(s.owner), None
    if s.kind == "tie-break":
        return f"tie-break {s.index + 1}", f"tie-{s.index}"
    if s.kind in ("invariant", "law", "conservation"):
        return f"{s.kind} {s.owner}", None
    return s.kind, "score" if s.kind == "scoring" else None


def _dead_key(e: dict[str, Any], model: Model) -> str | None:
    """The dead-rule checker's name for a rule index entry (without ``rule_can_apply:``)."""
    if e["kind"] in ("action", "chance"):
        return e["name"]
    if e["kind"] == "branch":
        action = next((a.name for a in model.spec.actions if f"a-{slug(a.name)}" == e["parent"]),
                      None)
        return f"{action}:{e['name']}" if action else None
    if e["kind"] == "scoring clause":
        return e["name"]
    return None


def _scenarios(c: Collected) -> list[tuple[Any, Any, Any]]:
    return [(sf, sc, res) for sf, results in c.scenarios
            for sc, res in zip(sf.scenarios, results)]


def _scenario_reads(model: Model, sc: Any) -> tuple[set[Any], list[str]]:
    """The fields a scenario's expectations read, and the words of what else they read."""
    t = sc.then
    by_name = {f.name: f for f in model.spec.fields}
    fields = {by_name[ref.field] for ref, _ in t.fields if ref.field in by_name}
    words = []
    if t.legal or t.illegal or t.illegal_because or t.only_legal is not None or t.refused:
        words.append("legal_actions")
    if t.scores is not None or t.winners is not None:
        words += ["scoring", "tie_breaks"]
    if t.terminal is not None or t.current_player is not None:
        words.append("terminal")
    if t.outcomes is not None:
        words.append("chance")
    return fields, words


def _played(model: Model, sf: Any, sc: Any, res: Any) -> list[str]:
    """The actions a scenario plays (given and when), by name: replayed from setup (or, with
    edits, from the state they make); every action if they cannot be replayed."""
    m = sf.model(sc)
    names: list[str] = []
    try:
        if res.edited:
            state = m.initial_state(sc.players)
            for text in sc.given.actions:
                a = m.action_from_str(state, text)
                names.append(m.spec.actions[a.key[0]].name)
                state = m.apply(state, a)
            state = m.state_from_json(dict(res.start))
            texts = list(res.when_played)
        else:
            state, texts = m.initial_state(sc.players), list(res.played)
        for text in texts:
            a = m.action_from_str(state, text)
            names.append(m.spec.actions[a.key[0]].name)
            state = m.apply(state, a)
    except Exception:  # noqa: BLE001 - a scenario that cannot be replayed: every action
        return [a.name for a in model.spec.actions]
    return sorted(set(names))
