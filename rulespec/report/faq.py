"""Each open question of the report as an FAQ entry an editor could publish.

One entry per interpretation point: the question; the passage as the spec quotes it (the
original and the English the spec stores with it); each reading with its source and
English; then, against each other reading, what ``rulespec diff`` answered (DIFFER, SAME
within its bound, UNKNOWN) with the smallest situation: the setup folded into one line,
the steps, the deciding action, pictures drawn *before* it (the action drawn on it) and
*after* it under each reading (what differs marked, :mod:`.marks`), and in rule terms
what decides it (the precondition that refuses, or the values the action computes and
the cells its effects leave different, or the scores); whether it matters (how often the
winner changed, under random and under stronger players); and the suggested ruling with
its reason. The HTML and Markdown show this JSON and compute nothing.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Sequence

from ..check.diff import scenario_start
from ..check.difference import KIND_WORDS
from ..check.impact import Impact
from ..check.results import DIFFER, SAME
from ..runtime.model import CHANCE, Action, Model, State
from .marks import action_svg, cell_words, difference_svg, moves
from .rules import slug, source_id

#: a group of like setup steps lists at most this many of its values
VALUES_SHOWN = 6


def question_entry(model: Model, game_ref: str, point: Any, diffs: Sequence[tuple],
                   impacts: dict[tuple[str, str], list[Impact]], store: dict[str, Any]
                   ) -> dict[str, Any]:
    """The FAQ entry of interpretation point ``point``: ``diffs`` are the collected
    ``(point, option, DiffReport | None, error)``, ``impacts`` the lockstep figures per
    (point, option) and policy; pictures go into ``store`` (the report's, by id)."""
    comparisons = []
    for name, opt, report, error in diffs:
        if name != point.name:
            continue
        a, b = f"{name}={point.default}", f"{name}={opt}"
        entry: dict[str, Any] = {"against": opt, "readings": [a, b]}
        figures = [_impact(im) for im in impacts.get((name, opt), [])]
        if report is None:
            comparisons.append({**entry, "status": "SKIPPED", "detail": f"not compared: {error}",
                                "bound": None, "difference": None, "impacts": figures})
            continue
        entry.update(status=report.status, detail=report.detail, nodes=report.nodes,
                     scenario=report.scenario_path,
                     bound=None if report.bound is None else {
                         **_bound(report.bound), "words": str(report.bound)})
        other = _load(game_ref, {name: opt})
        d = report.difference
        entry["difference"] = (None if d is None else
                               _difference(model, other, point, opt, d, (a, b), store))
        if not figures and report.impact is not None:
            figures = [_impact(report.impact)]
        entry["impacts"] = figures
        comparisons.append(entry)
    return {"id": f"q-{slug(point.name)}", "name": point.name, "question": point.question,
            "passage": {"source": point.source, "source_id": source_id(point.source),
                        "english": point.english},
            "readings": [{"name": o, "source": s, "english": point.option_english.get(o),
                          "default": o == point.default} for o, s in point.options.items()],
            "default": point.default, "default_reason": point.default_reason,
            "differences": comparisons,
            "ruling": _ruling(point, comparisons)}


def _bound(bound: Any) -> dict[str, Any]:
    return {"depth": bound.depth, "start": bound.start, "setups": bound.setups,
            "players": list(bound.players), "nodes": bound.nodes,
            "exhaustive": bound.exhaustive, "games": bound.games}


def _load(game_ref: str, interp: dict[str, str]) -> Model:
    from ..runtime.registry import load
    return load(game_ref, interp)


# --- the smallest situation ---------------------------------------------------------------
def _difference(ma: Model, mb: Model, point: Any, opt: str, d: Any, labels: tuple[str, str],
                store: dict[str, Any]) -> dict[str, Any]:
    la, lb = labels
    start_a, start_b, edits = _start(ma, mb, d)
    given = list(d.given)
    # the states from the start: the given situation, then the steps up to the deciding
    # action (equal under both readings: the search only goes on while they are)
    states, acts = _replay(ma, ma.initial_state(d.players), given)
    # an edited situation: the given actions, then the edits (the state they make)
    situation = start_a if start_a is not None else states[-1]
    before_steps = list(d.steps[:-1] if d.action is not None else d.steps)
    more, more_acts = _replay(ma, situation, before_steps)
    before = more[-1]
    steps = _step_rows(ma, states, acts, setup=True) + _step_rows(
        ma, more, more_acts, setup=False, first=len(acts) + 1)
    # reading B plays the same actions from its own start (a setup may differ already)
    before_b = start_b if start_b is not None else mb.initial_state(d.players)
    for action in ([] if start_b is not None else acts) + more_acts:
        before_b = _apply(mb, before_b, action)
    action: Action | None = None
    after_a = after_b = None
    if d.action is not None:
        action = ma.action_from_str(before, d.action)
        legal_a = action.key in set(ma.compiled.legal(before.values))
        legal_b = action.key in set(mb.compiled.legal(before_b.values))
        after_a = ma.apply(before, action) if legal_a else None
        after_b = _apply(mb, before_b, action) if legal_b else None
        who = ma.current_player(before)
        steps.append({"n": len(steps) + 1, "who": _who(who), "action": d.action,
                      "setup": False})
    pid = f"q-{point.name}-{opt}"
    pictures = _pictures(ma, mb, d, before, before_b, after_a, after_b, labels, pid, store)
    moved = (moves(ma, before, after_a) if after_a is not None else
             moves(mb, before_b, after_b) if after_b is not None else [])
    rows = [{"field": k, "words": cell_words(ma, k), "before": old, "a": va, "b": vb}
            for k, (old, va, vb) in d.cells.items()]
    # a setup may already differ between the readings (reading B deals no Kings)
    from ..check.explain import changed_cells
    apart = [{"field": k, "words": cell_words(ma, k), "a": va, "b": vb}
             for k, (va, vb) in changed_cells(ma, before.values, before_b.values).items()]
    only = {"a": [d.action] if d.legal_under == ("a",) else [],
            "b": [d.action] if d.legal_under == ("b",) else []}
    rules = [{"kind": r.kind, "text": r.text, "words": _rule_words(r.kind, r.text),
              "source": r.source, "source_id": source_id(r.source), "points": list(r.points),
              **({"holds": {"a": d.legal_under == ("a",), "b": d.legal_under == ("b",)}}
                 if r.kind == "precondition" else {})}
             for r in (*d.refused_by, *d.rules)]
    values = [{"name": v.name, "a": v.a, "b": v.b, "where": v.where} for v in d.values]
    return {
        "players": d.players, "kind": d.kind, "kind_words": KIND_WORDS[d.kind],
        "found_by": d.found_by, "detail": "\n".join(d.explanation),
        "start": d.start if d.start in ("setup", "random play") else Path(d.start).name,
        "edits": edits,
        "setup": _setup_line(ma, d, states, acts, edits),
        "steps": steps,
        "action": None if d.action is None else {
            "n": len(steps), "who": steps[-1]["who"], "text": d.action},
        "allows": [{"reading": la, "only_here": only["a"], "more": 0},
                   {"reading": lb, "only_here": only["b"], "more": 0}],
        "fields": rows, "outcome": d.outcome,
        "rule_terms": {"sentence": _apart_words(apart, point, opt) + _sentence(
                           d, point, opt, rows, rules, values, moved, steps, apart),
                       "rules": rules, "values": values, "moves": moved,
                       "apart_before": apart},
        "pictures": pictures}


def _rule_words(kind: str, text: str) -> str:
    """A rule element as a reader names it: "the effect on feet", "the precondition
    “the player can pay …”", "the tie-break"."""
    return {"effect": f"the effect {text}", "precondition": f"the precondition “{text}”",
            "scoring": "the scoring rule", "tie-break": "the tie-break"}.get(kind, text)


def _start(ma: Model, mb: Model, d: Any
           ) -> tuple[State | None, State | None, list[dict[str, Any]]]:
    """The states of both readings a scenario's edited situation starts from (its given
    actions cannot reach them: the edits come after), and the edits; None from setup."""
    if d.start in ("setup", "random play") or not d.edited:
        return None, None, []
    st = scenario_start(ma, mb, d.start)
    return st.a, st.b, [{"field": ref, "value": v} for ref, v in st.edits]


def _apply(model: Model, state: State, action: Action) -> State:
    """Reading A's action on reading B's state (the same spec: the same key), as the
    search plays it."""
    return State(model.compiled.apply[action.key[0]](state.values, *action.key[1:]), model)


def _replay(model: Model, state: State, texts: Sequence[str]
            ) -> tuple[list[State], list[Action]]:
    states, acts = [state], []
    for text in texts:
        action = model.action_from_str(states[-1], text)
        acts.append(action)
        states.append(model.apply(states[-1], action))
    return states, acts


def _who(p: int) -> str:
    return "chance" if p == CHANCE else f"player {p}"


def _step_rows(model: Model, states: list[State], acts: list[Action], setup: bool,
               first: int = 1) -> list[dict[str, Any]]:
    return [{"n": first + i, "who": _who(model.current_player(s)), "action": str(a),
             "setup": setup} for i, (s, a) in enumerate(zip(states, acts))]


def _template(model: Model, action: Action) -> str:
    spec_action = model.spec.actions[action.key[0]]
    return spec_action.text or spec_action.name


def _setup_line(model: Model, d: Any, states: list[State], acts: list[Action],
                edits: list[dict[str, Any]]) -> dict[str, Any]:
    """The steps before the situation in one readable line: like chance steps grouped
    ("10 × lay … at the next board position (cottages_1, cottages_2, …)"), then the
    players' steps one by one, then a scenario's edits."""
    groups: list[list[Any]] = []   # [template, count, values]
    players: list[str] = []
    for state, action in zip(states, acts):
        if model.current_player(state) != CHANCE:
            players.append(f"{_who(model.current_player(state))}: {action}")
            continue
        template = _template(model, action)
        if groups and groups[-1][0] == template:
            groups[-1][1] += 1
        else:
            groups.append([template, 1, []])
        groups[-1][2].append(_varying(template, str(action)))
    parts = []
    for template, n, vals in groups:
        shown = re.sub(r"\{[^}]*\}", "…", template)
        listed = ", ".join(vals[:VALUES_SHOWN]) + (", …" if len(vals) > VALUES_SHOWN else "")
        parts.append(f"{n} × {shown}" + (f" ({listed})" if listed else ""))
    chance = sum(g[1] for g in groups)
    if d.start == "random play":
        where = f"a state of a random game, {len(acts)} steps from the setup"
    elif d.start == "setup":
        where = "the setup"
    else:
        where = f"the given situation of the scenario “{d.start.rsplit('#', 1)[-1]}” " \
                f"({Path(d.start.split('#')[0]).name})"
    line = f"From {where}, {d.players} player{'s' if d.players != 1 else ''}"
    if chance:
        line += f": {chance} chance step(s) — " + "; ".join(parts)
    if players:
        line += ("; then " if chance else ": ") + (
            "; ".join(players) if len(players) <= 8 else
            f"{len(players)} players' steps ({'; '.join(players[:3])}; …)")
    if edits:   # the JSON's edits list has them all
        line += "; then set " + ", ".join(f"{e['field']} = {_short(e['value'])}"
                                          for e in edits[:VALUES_SHOWN]) + (
            f" and {len(edits) - VALUES_SHOWN} more" if len(edits) > VALUES_SHOWN else "")
    return {"line": line + ".", "steps": len(acts), "chance_steps": chance}


def _short(value: Any, limit: int = 60) -> str:
    text = str(value)
    return text if len(text) <= limit else text[:limit - 1] + "…"


def _varying(template: str, text: str) -> str:
    """The parts of a step's text that fill its template's blanks ("cottages_1")."""
    pattern = "".join("(.+?)" if re.fullmatch(r"\{[^}]*\}", piece) else re.escape(piece)
                      for piece in re.split(r"(\{[^}]*\})", template))
    m = re.fullmatch(pattern, text)
    return "/".join(m.groups()) if m and m.groups() else ("" if m else text)


# --- pictures -----------------------------------------------------------------------------
def _pictures(ma: Model, mb: Model, d: Any, before: State, before_b: State,
              after_a: State | None, after_b: State | None, labels: tuple[str, str],
              pid: str, store: dict[str, Any]) -> dict[str, Any]:
    la, lb = labels
    out: dict[str, Any] = {"before": None, "after": []}
    if d.action is not None:
        caption = (f"Before: the situation ({d.players} players) and the deciding action, "
                   f"{d.action}, in the parts of the game it changes — marked: what it "
                   "changes; an arrow: what it moves")
        afters = [(start, end) for start, end in ((before, after_a), (before_b, after_b))
                  if end is not None]
        out["before"] = _store(store, f"{pid}-before", caption, action_svg(
            ma, before, afters, f"Before the deciding action: {d.action}"))
    # what each reading ends with: after the action, or the state as it is when refused
    end_a = after_a if after_a is not None else before
    end_b = after_b if after_b is not None else before_b
    extra: list[tuple[str, Any, Any]] = []
    if d.kind == "outcome":
        oa, ob = d.outcome.get("a", {}), d.outcome.get("b", {})
        extra = [("the game is over", oa.get("terminal"), ob.get("terminal")),
                 ("scores", oa.get("scores"), ob.get("scores")),
                 ("winners", oa.get("winners"), ob.get("winners"))]
    for tag, model, mine, other_model, theirs, here, there, refused in (
            ("a", ma, end_a, mb, end_b, la, lb, after_a is None and d.action is not None),
            ("b", mb, end_b, ma, end_a, lb, la, after_b is None and d.action is not None)):
        what = ("the action is refused: the situation stays as it was" if refused else
                "after the action" if d.action is not None else "the situation")
        caption = f"Under {here}: {what} — marked: what differs from {there}"
        try:   # the picture's own title is short: it is drawn at a column's width
            svg = difference_svg(model, mine, other_model, theirs, f"under {here}", here,
                                 there, extra if tag == "a" else
                                 [(label, y, x) for label, x, y in extra])
        except ValueError:   # nothing differs that a picture could show
            continue
        out["after"].append({"reading": here, "refused": refused,
                             "picture": _store(store, f"{pid}-{tag}", caption, svg)})
    return out


def _store(store: dict[str, Any], pid: str, caption: str, svg: str) -> str:
    pid = slug(pid)
    store[pid] = {"id": pid, "caption": caption, "svg": svg}
    return pid


# --- in rule terms ------------------------------------------------------------------------
def _v(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_v(x) for x in value) + "]"
    return str(value)


def _apart_words(apart: list[dict[str, Any]], point: Any, opt: str) -> str:
    if not apart:
        return ""
    shown = "; ".join(f"{c['words']} {_v(c['a'])} under `{point.default}`, {_v(c['b'])} "
                      f"under `{opt}`" for c in apart[:4])
    more = f" and {len(apart) - 4} more" if len(apart) > 4 else ""
    return f"The readings already differ before this action ({shown}{more}). "


def _sentence(d: Any, point: Any, opt: str, rows: list[dict[str, Any]],
              rules: list[dict[str, Any]], values: list[dict[str, Any]], moved: list[str],
              steps: list[dict[str, Any]], apart: list[dict[str, Any]] = ()) -> str:
    """What decides the question, in words: the cause and its values on each side."""
    a, b = f"`{point.default}`", f"`{opt}`"
    who = steps[-1]["who"] if steps else "the player"
    act = f"“{d.action}”" if d.action else None
    how = f" ({'; '.join(moved)})" if moved else ""
    cause = "; ".join(f"{v['name']} is {_v(v['a'])} under {a} but {_v(v['b'])} under {b}"
                      for v in values)
    if d.kind == "legality":
        ok, no = (a, b) if d.legal_under == ("a",) else (b, a)
        pres = [r for r in rules if r["kind"] == "precondition"]
        by = "; ".join(r["words"] + (f" [{r['source']}]" if r["source"] else "")
                       for r in pres) or "a precondition"
        text = (f"When {who} takes {act}{how}, it is allowed under {ok} but refused under "
                f"{no}: {by} holds under {ok} and fails under {no}")
        return text + (f" ({cause})." if cause else ".")
    if d.kind == "effect":
        effects = list(dict.fromkeys(r["words"] + (f" [{r['source']}]" if r["source"] else "")
                                     for r in rules if r["kind"] == "effect"))
        by = (", ".join(effects[:3]) + (f" and {len(effects) - 3} more" if len(effects) > 3
                                        else "")) or "its effects"
        if apart and not effects and not values:
            return (f"No rule of {act} reads the point: the readings set the game up "
                    f"differently, and {act} is the first step where that shows.")
        cells = "; ".join(f"{r['words']} {_v(r['before'])} → {_v(r['a'])} under {a}, "
                          f"→ {_v(r['b'])} under {b}" for r in rows)
        verb = "leaves" if len(effects) == 1 else "leave"
        text = f"When {who} takes {act}{how}, "
        text += f"{cause}, so {by} {verb} " if cause else f"{by} {verb} "
        return text + f"{cells}."
    oa, ob = d.outcome.get("a", {}), d.outcome.get("b", {})
    by = ", ".join(r["words"] + (f" [{r['source']}]" if r["source"] else "")
                   for r in rules) or "the end of the game"
    where = f"After {who} takes {act}, the" if act else "In this situation the"
    return (f"{where} game ends the same way, but {by} scores it differently: under {a} "
            f"the scores are {_v(oa.get('scores'))} and the winners {_v(oa.get('winners'))}; "
            f"under {b} the scores are {_v(ob.get('scores'))} and the winners "
            f"{_v(ob.get('winners'))}.")


# --- does it matter, and the ruling -------------------------------------------------------
def _impact(im: Impact) -> dict[str, Any]:
    return {"games": im.games, "seed": im.seed, "policy": im.policy,
            "players": [min(im.players), max(im.players)] if im.players else [],
            "parted": im.parted.count, "parted_ci": [im.parted.low, im.parted.high],
            "winners_differ": im.winner_changed.count,
            "winners_ci": [im.winner_changed.low, im.winner_changed.high]}


def _rate(count: int, games: int, ci: list[float]) -> str:
    return (f"{count} of {games} games (95 % interval {100 * ci[0]:.0f}–{100 * ci[1]:.0f} %)"
            if games else "no games")


def _ruling(point: Any, comparisons: list[dict[str, Any]]) -> dict[str, Any]:
    """The spec's default with its reason, and what the lockstep games say."""
    said = []
    changed = False
    for c in comparisons:
        if c["status"] == SAME:
            said.append(f"Against `{c['against']}` no difference was found "
                        f"({c['bound']['words'] if c.get('bound') else 'within the bound'}).")
            continue
        if c["status"] != DIFFER:
            said.append(f"Against `{c['against']}` the comparison is {c['status']}: "
                        f"{c['detail']}.")
            continue
        figures = "; ".join(f"between {im['policy'].split(' (')[0]} players in "
                            f"{_rate(im['winners_differ'], im['games'], im['winners_ci'])}"
                            for im in c["impacts"])
        changed = changed or any(im["winners_differ"] for im in c["impacts"])
        said.append(f"Against `{c['against']}` the readings differ"
                    + (f"; the winner changed {figures}." if figures else "."))
    verdict = ("The choice can change who wins: worth a published ruling." if changed else
               "In the games played the choice never changed the winner; the intervals "
               "say how often it still could." if any(c["status"] == DIFFER
                                                      for c in comparisons) else "")
    reason = point.default_reason or "the spec gives no reason for its default"
    return {"reading": point.default, "reason": reason, "impact": " ".join(said),
            "matters": changed, "verdict": verdict}
