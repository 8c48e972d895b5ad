"""Comparing one state of the spec with what an implementation answers, in rule terms:
the precondition (and source) that forbids what the implementation allows, the rule whose
effect differs, the scoring rule (``rulespec conform``; docs/ecosystem.md)."""

from __future__ import annotations

import re
from typing import Any, Callable, Mapping, Sequence

from ..runtime.model import CHANCE, TERMINAL, Model, State


class ConformError(ValueError):
    """The implementation or its adapter cannot be used (one line: what is wrong)."""


_PATH = re.compile(r"^([A-Za-z_]\w*)((?:\[\d+\])*)$")


def _lookup(fields: Mapping[str, Any], key: str) -> Any:
    """``board`` or ``height[3]`` or ``board[0][2]`` in a state's JSON fields."""
    m = _PATH.match(key)
    if not m or m.group(1) not in fields:
        raise ConformError(f"the implementation's snapshot names {key!r}, which is no field "
                           f"(or cell) of the spec (fields: {', '.join(fields)})")
    value = fields[m.group(1)]
    for i in re.findall(r"\[(\d+)\]", m.group(2)):
        try:
            value = value[int(i)]
        except (IndexError, TypeError):
            raise ConformError(f"the implementation's snapshot names {key!r}, which is no "
                               "cell of the spec") from None
    return value


def _who(p: Any) -> str:
    if p in ("chance", CHANCE):
        return "chance"
    if p in ("terminal", TERMINAL):
        return "terminal"
    return f"player {p}"


def _reasons(model: Model, state: State, text: str) -> str:
    """Why the spec refuses ``text`` here: each failed precondition with its source."""
    try:
        action = model.action_from_str(state, text)
    except ValueError:
        return f"no action of {model.name} reads {text!r}"
    reasons = model.why_illegal(state, action)
    return "; ".join(str(r) for r in reasons) or "the spec does not offer it here"


def _rule_of(model: Model, action_text: str, state: State) -> str:
    """The spec rule an action text belongs to, with its source."""
    try:
        action = model.action_from_str(state, action_text)
    except ValueError:
        return action_text
    spec_action = model.spec.actions[action.key[0]]
    return f"rule {spec_action.name} [{spec_action.source}]"


def _cause(model: Model, before: State | None, state: State, last: str | None,
           expr: Any, flow: Callable[[State], Any]) -> str:
    """What the last action changed that decides the flow rule ``expr`` (whose turn, the
    end), with the source of the effect that wrote it: ": drop(3) set winner to 0 [...]".
    A changed cell decides it when putting its old value back changes ``flow(state)``
    (a counted move does not end the game; the winner set does)."""
    if before is None or last is None:
        return ""
    from ..ir.walk import walk
    from .explain import changed_cells
    read = {n.args[0].name for n in walk(expr) if n.op == "field"}
    changed = {cell: values for cell, values in changed_cells(model, before.values,
                                                              state.values).items()
               if cell.split("[", 1)[0] in read}
    if not changed:
        return ""
    try:
        action = model.spec.actions[model.action_from_str(before, last).key[0]]
    except ValueError:
        return ""
    decided = flow(state)
    deciding = {k for k, (a, b) in enumerate(zip(before.values, state.values)) if a != b
                and flow(State(state.values[:k] + (a,) + state.values[k + 1:], model))
                != decided}
    named = [cell for cell, index in _cells(model, deciding) if cell in changed]
    sources = _effect_sources(action)
    said = []
    for cell in (named or list(changed))[:2]:
        source = sources.get(cell.split("[", 1)[0])
        said.append(f"{last} set {cell} to {changed[cell][1]}"
                    + (f" [{source}]" if source else ""))
    return ": " + "; ".join(said)


def _cells(model: Model, offsets: set[int]) -> list[tuple[str, int]]:
    """The cell name of each offset of the flat state vector."""
    from .explain import cell_name
    out = []
    for name, slot in model.layout.slots.items():
        for k in sorted(offsets):
            if slot.offset <= k < slot.offset + slot.field.size:
                index = tuple(((k - slot.offset) // s) % d.size
                              for s, d in zip(slot.strides, slot.field.dims))
                out.append((cell_name(model, name, index), k))
    return out


def _effect_sources(action: Any) -> dict[str, str]:
    """For each field ``action`` writes: the source of the (first) effect that writes it,
    its own or that of the condition it is under."""
    from ..ir.statements import Assign, ForEach, If
    out: dict[str, str] = {}

    def visit(stmts: Sequence[Any], source: str | None) -> None:
        for st in stmts:
            if isinstance(st, Assign):
                out.setdefault(st.target.args[0].name, st.source or source or "")
            elif isinstance(st, If):
                visit(st.then, st.source or source)
                visit(st.otherwise, st.else_source or source)
            elif isinstance(st, ForEach):
                visit(st.body, st.source or source)
    visit(action.effects, action.source)
    return out


def _short(items: Sequence[str], limit: int = 8) -> str:
    shown = ", ".join(items[:limit])
    return shown + (f", ... ({len(items) - limit} more)" if len(items) > limit else "")


def compare(model: Model, state: State, impl: Any, taken: Sequence[str],
            before: State | None) -> tuple[str, str] | None:
    """The first difference between the spec's ``state`` and the implementation, as
    (kind, message in rule terms), or None. ``taken``: the actions from setup."""
    last = taken[-1] if taken else None
    at = f"after step {len(taken)} ({last})" if last else "at setup"
    ours = model.current_player(state)
    theirs = impl.current_player()
    over = model.is_terminal(state)
    if over and _who(theirs) != "terminal":
        why = _cause(model, before, state, last, model.spec.terminal.expr,
                     model.is_terminal)
        return ("terminal", f"{at}: the game is over by the spec "
                            f"[{model.spec.terminal.source}]{why}; the implementation goes "
                            f"on ({_who(theirs)} moves)")
    if not over and _who(theirs) == "terminal":
        return ("terminal", f"{at}: the implementation ends the game; by the spec it goes "
                            f"on ({_who(ours)} moves) [{model.spec.terminal.source}]")
    if not over and _who(ours) != _who(theirs):
        why = _cause(model, before, state, last, model.spec.current_player.expr,
                     model.current_player)
        return ("player", f"{at}: by the spec {_who(ours)} moves "
                          f"[{model.spec.current_player.source}]{why}; the implementation "
                          f"says {_who(theirs)}")
    if not over:
        legal = [str(a) for a in model.legal_actions(state)]
        other = [str(a) for a in impl.legal_actions()]
        extra = [t for t in other if t not in legal]
        missing = [t for t in legal if t not in other]
        if extra:
            t = extra[0]
            more = f" (and {len(extra) - 1} more: {_short(extra[1:])})" if len(extra) > 1 else ""
            return ("legal actions", f"{at}: the implementation allows {t}{more}, which the "
                                     f"spec forbids: {_reasons(model, state, t)}")
        if missing:
            t = missing[0]
            more = (f" (and {len(missing) - 1} more: {_short(missing[1:])})"
                    if len(missing) > 1 else "")
            return ("legal actions", f"{at}: the implementation does not allow {t}{more}, "
                                     f"which the spec allows ({_rule_of(model, t, state)})")
        if ours == CHANCE and impl.supports("chance_outcomes"):
            mine = {str(a): p for a, p in model.chance_outcomes(state)}
            for text, p in impl.chance_outcomes():
                if abs(mine.get(str(text), 0.0) - float(p)) > 1e-9:
                    return ("chance", f"{at}: outcome {text} has probability "
                                      f"{mine.get(str(text), 0.0):.6g} by the spec, "
                                      f"{float(p):.6g} in the implementation")
    because = f" ({_rule_of(model, last, before)})" if last and before is not None else ""
    if impl.supports("snapshot"):
        found = _fields_differ(state.to_dict()["fields"], impl.snapshot(), "")
        if found:
            return "snapshot", f"{at}: {found}{because}"
    if impl.supports("observation") and not over:
        for p in range(state.values[0]):
            theirs_seen = impl.observation(p)
            if not theirs_seen:
                continue
            found = _fields_differ(model.observation(state, p), theirs_seen,
                                   f"what player {p} sees: ")
            if found:
                return "observation", f"{at}: {found}{because}"
    if over:
        scores = model.scores(state)
        got = [float(r) for r in impl.returns()]
        if got != [float(s) for s in scores]:
            return ("returns", f"{at}: the game is over; the spec scores {scores} "
                               f"[{model.spec.scoring.source}], the implementation returns "
                               f"{_numbers(got)}")
    return None


def _numbers(values: Sequence[float]) -> str:
    return "[" + ", ".join(f"{v:g}" for v in values) + "]"


def _fields_differ(fields: Mapping[str, Any], theirs: Mapping[str, Any], what: str
                   ) -> str | None:
    if not isinstance(theirs, Mapping):
        raise ConformError(f"snapshot() and observation() must return a dict of field "
                           f"values, got {type(theirs).__name__}")
    for key, value in theirs.items():
        mine = _lookup(fields, key)
        if mine != value:
            return f"{what}{key} is {mine!r} by the spec, {value!r} in the implementation"
    return None


