"""The report as one JSON document: the single data model the HTML and Markdown views read.

``build_document`` turns a spec and what the checkers found (:class:`~.collect.Collected`)
into plain JSON data, in the order a rules editor reads it: at a glance, open questions,
rule index (with its source index), assumptions, properties, scenarios, coverage and, when
asked, mutation; pictures are SVG documents keyed by id. ``report.schema.json`` beside
this file describes it.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Iterable

from .. import __version__
from ..check.infer import PREFIX, is_inferred
from ..check.property import all_properties
from ..check.results import DIFFER, STATUSES, VIOLATED, Result
from ..check.scenario import Scenario, ScenarioResult, Then
from ..ir.branches import SCORE
from ..ir.english import to_english
from ..runtime.model import CHANCE, Model, State
from ..runtime.registry import available_games, spec_path
from ..runtime.trace import load_trace
from ..spec.components import Components, describe
from .collect import Collected
from .coverage import branch_runs
from .faq import question_entry
from .glossary import legend
from .mutation import mutation_section
from .depends import annotate
from .provenance import catalogue_kinds, origin_kinds, spec_hash
from .rules import ENGLISH_LIMIT, EXPR_LIMIT, rule_entries, slug, source_id
from .svg import Picture
from ..draw.legend import abbreviations

FORMAT = "rulespec-report"
VERSION = 1
DEAD = "rule_can_apply:"


def build_document(c: Collected, game_ref: str) -> dict[str, Any]:
    """The whole report of one game as JSON data."""
    model = c.model
    spec = model.spec
    pictures = _Pictures(model)
    path = _spec_file(model, game_ref)
    start = pictures.after(_setup_steps(model), model.min_players, "the game after setup "
                           f"({model.min_players} players, chance outcomes by seed 0)", "setup")
    questions = [question_entry(model, game_ref, p, c.diffs, c.impacts, pictures.store)
                 for p in spec.interpretations]
    scenarios = _scenarios(c, pictures)
    properties = _properties(model, c, pictures)
    rules, sources = _rules(model, c, scenarios, properties)
    assumptions = _assumptions(model)
    results = [r for p in properties for r in p["results"]]
    counts = {s: sum(1 for r in results if r["status"] == s) for s in STATUSES}
    dead = [r for r in rules if r["dead"] == "dead"]
    doc = {
        "format": FORMAT, "version": VERSION,
        "game": {"name": spec.name, "title": spec.title, "summary": spec.summary,
                 "players": [spec.min_players, spec.max_players], "source": spec.source,
                 "spec_file": _shown_path(path), "spec_hash": _identity(model, path),
                 "rulespec_version": __version__,
                 "interpretation": dict(model.interpretation), "setup_picture": start},
        "budget": {**c.budget.to_json(), "examples": c.examples, "solver": c.solver,
                   "coverage_steps": c.coverage.steps if c.coverage else 0,
                   "seconds": c.seconds},
        "glance": {"counts": counts, "results": len(results), "properties": len(properties),
                   "open_questions": len(questions),
                   "questions_that_matter": sum(1 for q in questions
                                                if any(d["status"] == DIFFER
                                                       for d in q["differences"])),
                   "assumptions": len(assumptions), "rules": len(rules),
                   "dead_rules": len(dead),
                   "never_reached": sum(1 for r in rules if r["reached"] == 0),
                   "scenarios": len(scenarios),
                   "scenarios_failed": sum(1 for s in scenarios if s["status"] != "PASSED")},
        "questions": questions, "rules": rules, "sources": sources,
        "assumptions": assumptions, "properties": properties, "scenarios": scenarios,
        "scenario_errors": c.scenario_errors, "coverage": _coverage(model, c),
        "mutation": mutation_section(c.mutation, c.mutation_error, rules),
        "legend": legend(abbreviations(pictures.drawer.view)),
        "pictures": pictures.store,
    }
    annotate(doc, c)  # evidence and the assumptions each verdict rests on (depends.py)
    return json.loads(json.dumps(doc, ensure_ascii=False, default=_plain))


# --- pictures -----------------------------------------------------------------------------
class _Pictures:
    """SVG pictures of states reached by actions from setup, stored by id."""

    def __init__(self, model: Model) -> None:
        self.model = model
        self.drawer = Picture(model)
        self.store: dict[str, dict[str, Any]] = {}

    def after(self, actions: Iterable[str], players: int, caption: str, pid: str,
              model: Model | None = None, start: tuple[State, int] | None = None
              ) -> str | None:
        """The picture after ``actions`` from setup, or (``start``: a state and how many of
        the actions led to it) after the rest of them from that state."""
        m = model or self.model
        try:
            state = _replay(m, players, actions, start)
        except Exception:  # noqa: BLE001 - an unreplayable trace has no picture
            return None
        return self.of(state, caption, pid, m)

    def of(self, state: State, caption: str, pid: str, model: Model | None = None) -> str:
        drawer = self.drawer if model is None or model is self.model else Picture(model)
        pid = slug(pid)
        self.store[pid] = {"id": pid, "caption": caption, "svg": drawer.svg(state, caption)}
        return pid


def _replay(model: Model, players: int, actions: Iterable[str],
            start: tuple[State, int] | None = None) -> State:
    state = model.initial_state(players) if start is None else start[0]
    for text in list(actions)[0 if start is None else start[1]:]:
        state = model.apply(state, model.action_from_str(state, text))
    return state


def _setup_steps(model: Model) -> list[str]:
    """The chance steps of a seeded setup (seed 0), up to the first player's move."""
    import random

    from ..runtime.play import seeded_chooser
    state = model.initial_state(model.min_players)
    choose = seeded_chooser(model, random.Random(0))
    steps = []
    while model.current_player(state) == CHANCE:
        legal = model.legal_actions(state)
        action = legal[choose(state, legal)]
        steps.append(str(action))
        state = model.apply(state, action)
    return steps


def _steps(model: Model, players: int, actions: Iterable[str], setup: int = 0,
           start: tuple[State, int] | None = None) -> list[dict[str, Any]]:
    """Each step with who took it (chance or a player) and whether it is the setup (or
    the given situation of a scenario: ``start`` is the state it reaches, edits included,
    and how many of the actions lead to it)."""
    state = model.initial_state(players)
    out = []
    for i, text in enumerate(actions):
        if start is not None and i == start[1]:
            state = start[0]
        who = model.current_player(state)
        out.append({"n": i + 1, "who": "chance" if who == CHANCE else f"player {who}",
                    "action": text, "setup": i < setup})
        try:
            state = model.apply(state, model.action_from_str(state, text))
        except Exception:  # noqa: BLE001 - keep the rest as text
            setup = 0
    return out


# --- open questions: one FAQ entry each (faq.py) -------------------------------------------
# --- properties ---------------------------------------------------------------------------
def _method(checker: str) -> str:
    return "proof" if checker.startswith("z3") else "test"


def _properties(model: Model, c: Collected, pics: _Pictures) -> list[dict[str, Any]]:
    spec = model.spec
    declared = {p.name: p for p in all_properties(model)}
    invariants = {i.name: i for i in c.proved_spec().invariants}
    laws = {x.name: x for x in spec.conservation}
    results = [r for r in c.check + c.prove if not r.property.startswith(DEAD)]
    names = list(declared) + [r.property for r in results if r.property not in declared]
    out = []
    for name in dict.fromkeys(names):
        p = declared.get(name)
        aid = False   # a fact written only so that the proofs go through (proof_aid=True)
        if is_inferred(name) and name in invariants:
            statement = to_english(invariants[name].cond, limit=EXPR_LIMIT)
            kind = "lemma"
        elif name in invariants:
            inv = invariants[name]
            aid = inv.proof_aid
            statement = ((inv.doc + ": " if inv.doc else "")
                         + to_english(inv.cond, limit=EXPR_LIMIT, where=inv.where))
            kind = "law" if inv.law else "invariant"
        elif name in laws:
            law = laws[name]
            statement = ((law.doc + ": " if law.doc else "")
                         + f"the total {to_english(law.total, limit=EXPR_LIMIT, where=law.where)}"
                           " never changes")
            kind = "conservation"
        elif is_inferred(name):
            statement = name[len(PREFIX):]
            kind = "lemma"
        else:
            statement = p.doc if p is not None else _builtin_statement(name)
            kind = p.kind if p is not None else "proof goal"
        mine = [r for r in results if r.property == name]
        rows = [_result(model, r, c, pics) for r in mine]
        out.append({"id": f"p-{slug(name)}", "name": name,
                    "statement": _cut(statement), "kind": kind,
                    "source": (p.source if p else None) or next(
                        (r.source for r in mine if r.source), None),
                    "checked_by": "python" if p is not None and p.python_only else
                    "z3" if is_inferred(name) else "python, z3",
                    "witness": bool(p and p.witness), "proof_aid": aid,
                    "inferred": is_inferred(name),
                    "result": _headline([r["status"] for r in rows]), "results": rows})
    return out


def _builtin_statement(name: str) -> str:
    return {"fields_within_bounds": "every field stays within its declared bounds",
            "rules_evaluate_without_error": "no rule raises (an index out of range, a "
                                            "table entry with no value, a division by "
                                            "zero) in any reachable state"}.get(name, name)


def _headline(statuses: list[str]) -> str:
    for s in ("VIOLATED", "PROVED", "PASSED", "UNKNOWN", "SKIPPED"):
        if s in statuses:
            return s
    return "SKIPPED"


def _result(model: Model, r: Result, c: Collected, pics: _Pictures) -> dict[str, Any]:
    method = _method(r.checker)
    if method == "test":
        seed = r.seed if r.seed is not None else c.budget.seed
        budget = f"{r.examples or c.examples} examples, seed {seed}"
    else:
        # the run's own budget, or the retry's where the result is a retried case's
        units = (r.evidence or {}).get("rlimit") or c.solver["rlimit"]
        budget = f"{units:,} Z3 resource units per query"
        if r.checker == "z3-bmc":
            budget += f", depth {c.solver['bmc_depth']}"
    row: dict[str, Any] = {"checker": r.checker, "method": method, "status": r.status,
                           "detail": r.detail, "budget": budget, "counterexample": None}
    if r.status == VIOLATED and r.trace is not None:
        players, interp = model.min_players, {}
        if r.trace_path:
            try:
                t = load_trace(r.trace_path)
                players, interp = t.players, t.interpretation
            except Exception:  # noqa: BLE001 - the steps are still shown
                pass
        m = _load_model(model, interp)
        pid = pics.after(r.trace, players, f"{r.property} is violated after "
                         f"{len(r.trace)} step(s) ({r.checker})", f"p-{r.property}-{r.checker}",
                         m)
        steps = _steps(m, players, r.trace)
        row["counterexample"] = {"players": players, "steps": steps,
                                 "trace": _shown_path(r.trace_path), "picture": pid,
                                 "step_pictures": _step_pictures(m, players, r, steps, pid,
                                                                 pics)}
    return row


#: how many of a counterexample's last steps get a picture each, to step through
STEP_PICTURES = 12


def _step_pictures(model: Model, players: int, r: Result, steps: list[dict[str, Any]],
                   last: str | None, pics: _Pictures) -> list[dict[str, Any]]:
    """The state before the trace's last :data:`STEP_PICTURES` steps (the setup, when the
    trace is that short; its chance steps are never pictured one by one), then after each;
    the failing state is picture ``last``."""
    if last is None:
        return []
    setup = sum(1 for s in steps if s["setup"])
    first = max(setup, len(r.trace) - STEP_PICTURES)
    state = model.initial_state(players)
    out = []
    try:
        for n in range(len(r.trace) + 1):
            if n:
                state = model.apply(state, model.action_from_str(state, r.trace[n - 1]))
            if n == len(r.trace):
                out.append({"n": n, "picture": last})
            elif n >= first:
                what = ("the setup" if n == setup else f"after step {n}") + f" of {len(r.trace)}"
                out.append({"n": n, "picture": pics.of(state, f"{r.property}: {what}",
                                                       f"p-{r.property}-{r.checker}-step-{n}",
                                                       model)})
    except Exception:  # noqa: BLE001 - a trace that does not replay has the steps as text
        return out
    return out


def _load_model(model: Model, interp: dict[str, str]) -> Model:
    if not interp or interp == dict(model.interpretation):
        return model
    return Model(model.spec, interp)


# --- scenarios ----------------------------------------------------------------------------
def _scenarios(c: Collected, pics: _Pictures) -> list[dict[str, Any]]:
    out = []
    for sf, results in c.scenarios:
        for sc, res in zip(sf.scenarios, results):
            sid = f"s-{slug(Path(sf.path).stem)}-{slug(sc.name)}"[:90]
            entry = {"id": sid, "name": sc.name, "file": _shown_path(sf.path), "line": sc.line,
                     "source": sc.source, "source_id": source_id(sc.source),
                     "players": sc.players, "interpretation": dict(sc.interpretation),
                     "given": {"actions": list(sc.given.actions),
                               "edits": [f"{ref.text} = {_show(v)}" for ref, v in sc.given.edits]},
                     "when": list(sc.when.actions), "then": then_words(sc.then),
                     "status": res.status, "failures": list(res.failures), "picture": None,
                     "pins": _pins(c.model, sf, sc, res)}
            if res.status != "PASSED" and res.state is not None:
                model = sf.model(sc)
                try:
                    state = model.state_from_json(dict(res.state))
                    entry["picture"] = pics.of(state, f"scenario '{sc.name}' fails here",
                                               sid, model)
                except Exception:  # noqa: BLE001 - the failure text is still shown
                    pass
            out.append(entry)
    return out


def then_words(t: Then) -> list[str]:
    """A scenario's expectations as sentences."""
    words = [f"{a} is legal" for a in t.legal]
    words += [f"{a} is illegal" for a in t.illegal]
    words += [f"{a} is illegal because {', '.join(why)}" for a, why in t.illegal_because]
    if t.only_legal is not None:
        words.append("the only legal actions are: " + (", ".join(t.only_legal) or "none"))
    if t.refused is not None:
        words.append(f"{t.refused} is refused"
                     + (f" because {', '.join(t.refused_because)}" if t.refused_because else ""))
    words += [f"{ref.text} is {_show(v)}" for ref, v in t.fields]
    if t.scores is not None:
        words.append(f"the scores are {list(t.scores)}")
    if t.winners is not None:
        words.append(f"the winners are {list(t.winners)}")
    if t.terminal is not None:
        words.append("the game is over" if t.terminal else "the game is not over")
    if t.current_player is not None:
        words.append(f"the player to move is {t.current_player}")
    if t.outcomes is not None:
        words.append("the chance outcomes are " + ", ".join(f"{a} ({p})" for a, p in t.outcomes))
    return words


def _pins(model: Model, sf: Any, sc: Scenario, res: ScenarioResult) -> dict[str, list[str]]:
    """What a scenario pins: the actions it plays in ``when``, the branches they run, the
    preconditions it names as reasons."""
    m = sf.model(sc)
    if m.spec is not model.spec:
        return {"actions": [], "branches": [], "preconditions": []}
    actions, branches = set(), set()
    try:
        start = (m.state_from_json(dict(res.start)) if res.start is not None
                 else m.initial_state(sc.players))
        state = start
        for text in res.when_played:
            a = m.action_from_str(state, text)
            actions.add(m.spec.actions[a.key[0]].name)
            state = m.apply(state, a)
        branches = {f"{a}:{b}" for a, b in branch_runs(m, start, res.when_played)}
        if sc.then.refused is not None:
            actions.add(m.spec.actions[m.action_from_str(state, sc.then.refused).key[0]].name)
    except Exception:  # noqa: BLE001 - a failing scenario pins what it could play
        pass
    reasons = {w for _, why in sc.then.illegal_because for w in why} | set(sc.then.refused_because)
    pres = [f"{a.name}:{k}" for a in m.spec.actions for k, pre in enumerate(a.preconditions)
            if pre.text in reasons]
    return {"actions": sorted(actions), "branches": sorted(branches), "preconditions": pres}


# --- rule index ---------------------------------------------------------------------------
def _rules(model: Model, c: Collected, scenarios: list[dict[str, Any]],
           properties: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    from ..ir.walk import fields_read
    spec = model.spec
    dead = {r.property[len(DEAD):]: r for r in c.prove if r.property.startswith(DEAD)}
    reads = {i.name: {f.name for f in fields_read([i.cond])} for i in spec.invariants}
    reads.update({x.name: {f.name for f in fields_read([x.total])} for x in spec.conservation})
    by_action = {a.name: a for a in spec.actions}
    rules = []
    for e in rule_entries(spec):
        key, reached = _rule_key(e, by_action)
        if e["kind"] in ("action", "chance") and c.coverage:
            reached = c.coverage.actions.get(e["name"])
        elif e["kind"] == "branch" and c.coverage:
            reached = c.coverage.branches.get(e["parent_name"], {}).get(e["name"])
        verdict = dead.get(key) if key else None
        e["reached"] = reached
        e["dead"] = (None if verdict is None else
                     {"VIOLATED": "dead", "PROVED": "alive"}.get(verdict.status, "unknown"))
        e["dead_detail"] = verdict.detail if verdict is not None else None
        e["pinned_by"] = {"scenarios": _pinned_scenarios(e, scenarios),
                          "properties": sorted(n for n, fs in reads.items()
                                               if fs & set(e.get("writes", ())))}
        e.pop("parent_name", None)
        rules.append(e)
    sources: dict[str, dict[str, Any]] = {}
    for e in rules:
        if e["source"]:
            s = sources.setdefault(e["source"], {"id": e["source_id"], "source": e["source"],
                                                 "section": e["source"].split(":")[0],
                                                 "rules": []})
            s["rules"].append(e["id"])
    ordered = sorted(sources.values(), key=lambda s: (s["section"], s["source"]))
    return rules, ordered


def _rule_key(e: dict[str, Any], by_action: dict[str, Any]) -> tuple[str | None, int | None]:
    """The dead-rule checker's name for a rule index entry (and the parent action's name)."""
    if e["kind"] in ("action", "chance"):
        return e["name"], None
    if e["kind"] == "branch":
        name = next((n for n in by_action if f"a-{slug(n)}" == e["parent"]), e["parent"][2:])
        e["parent_name"] = name
        return f"{name}:{e['name']}", None
    if e["kind"] == "scoring clause":
        return f"{SCORE}:{e['name']}", None
    return None, None


def _pinned_scenarios(e: dict[str, Any], scenarios: list[dict[str, Any]]) -> list[str]:
    out = []
    for s in scenarios:
        pins = s["pins"]
        if e["kind"] in ("action", "chance") and e["name"] in pins["actions"]:
            out.append(s["id"])
        elif (e["kind"] == "branch"
              and f"{e.get('parent_name', '')}:{e['name']}" in pins["branches"]):
            out.append(s["id"])
        elif e["kind"] == "precondition":
            action, k = e["parent"], e["id"].rsplit("-", 1)[1]
            if any(f"a-{slug(p.split(':')[0])}" == action and p.split(":")[1] == k
                   for p in pins["preconditions"]):
                out.append(s["id"])
    return out


# --- assumptions --------------------------------------------------------------------------
def _assumptions(model: Model) -> list[dict[str, Any]]:
    """Every assumption; what reads it and what rests on it are added by ``annotate``. A
    catalogue of component data says where each entry comes from (``components``)."""
    out = []
    for a in model.spec.assumptions:
        row = {"id": f"as-{slug(a.name)}", "name": a.name, "value": _plain(a.value),
               "value_text": _cut(_show(a.value), 400), "reason": a.reason,
               "origin": a.origin, "origin_kinds": origin_kinds(a.origin),
               "read_by": [], "read_by_ids": []}
        if isinstance(a, Components):
            row["components"] = {**describe(a), "summary": _catalogue_summary(a)}
            row["origin_kinds"] = catalogue_kinds(a)
            row["value_text"] = _cut(f"{len(a.provenance)} entries in {_shown_path(a.file)}: "
                                     + ", ".join(a.provenance), 400)
        out.append(row)
    return out


# --- coverage -----------------------------------------------------------------------------
def _coverage(model: Model, c: Collected) -> dict[str, Any] | None:
    cov = c.coverage
    if cov is None:
        return None
    actions = [{"name": a.name, "id": f"a-{slug(a.name)}", "chance": a.chance,
                "count": cov.actions.get(a.name, 0),
                "branches": [{"label": label, "id": f"a-{slug(a.name)}-{slug(label)}",
                              "count": n} for label, n in cov.branches.get(a.name, {}).items()]}
               for a in model.spec.actions]
    total = sum(len(a["branches"]) for a in actions)
    run = sum(1 for a in actions for b in a["branches"] if b["count"] > 0)
    return {"games": cov.games, "seed": cov.seed, "steps": cov.steps,
            "actions_reached": sum(1 for a in actions if a["count"] > 0),
            "actions_total": len(actions), "branches_reached": run, "branches_total": total,
            "actions": actions}


# --- small helpers ------------------------------------------------------------------------
def _catalogue_summary(c: Components, shown: int = 20) -> str:
    """``52 entries: 52 printed`` and, when only some are, the constructed entries (the
    first ``shown``, then how many more)."""
    counts = ", ".join(f"{n} {k}" for k, n in c.counts().items())
    text = f"{len(c.provenance)} entries: {counts}" + (
        "; replacing the game's own list (--components)" if c.replaced else "")
    made = c.entries_of("constructed")
    if made and len(made) < len(c.provenance):
        more = f" and {len(made) - shown} more" if len(made) > shown else ""
        text += f"; constructed: {', '.join(made[:shown])}{more}"
    return text + "."


def _identity(model: Model, path: Path | None) -> str | None:
    """The spec's SHA-256 as traces vouch for it: of its file, or of its game folder's files
    and a --components file (``rulespec.runtime.folder.identity``)."""
    from ..runtime.registry import origin
    found = origin(model.spec)
    return found.sha256 if found is not None else spec_hash(path)


def _spec_file(model: Model, game_ref: str) -> Path | None:
    try:
        return spec_path(game_ref)
    except ValueError:
        return Path(model.spec.file) if model.spec.file else None


def _shown_path(path: str | Path | None) -> str | None:
    """A path as a reader can use it: relative to the working folder when inside it, the
    bundled game's folder otherwise."""
    if path is None:
        return None
    p = Path(path)
    try:
        return str(p.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        pass
    for g in available_games():
        if f"/models/{g}/" in str(p):
            return "models/" + str(p).split("/models/", 1)[1]
    return str(p)


def _cut(text: str, limit: int = ENGLISH_LIMIT) -> str:
    text = " ".join(text.split())  # docstrings are indented
    return text if len(text) <= limit else text[:limit] + "…"


def _show(v: Any) -> str:
    return json.dumps(_plain(v), ensure_ascii=False)


def _plain(v: Any) -> Any:
    """JSON-ready data: tuples as lists, other objects as their text."""
    if isinstance(v, (str, int, float, bool)) or v is None:
        return v
    if isinstance(v, dict):
        return {str(k): _plain(x) for k, x in v.items()}
    if isinstance(v, (list, tuple, set)):
        return [_plain(x) for x in v]
    return str(v)
