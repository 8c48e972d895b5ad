"""Print IR back as readable text: the answer to "why can't I do this?" uses it.

>>> from rulespec.ir.nodes import lift, all_of
>>> to_english(all_of(lift(1) < 2, lift(3) == 3))
'1 < 2 and 3 = 3'
"""

from __future__ import annotations

from typing import Callable

from .nodes import Expr
from .statements import Assign, ForEach, If, Let


def _const(e: Expr) -> str:
    v = e.args[0]
    if e.type.enum is not None:
        return e.type.enum.name_of(v)
    if isinstance(v, bool):
        return "true" if v else "false"
    return str(v)


def _field(e: Expr) -> str:
    f = e.args[0]
    idx = e.args[1:]
    if not idx:
        return f.name
    return f"{f.name}[{', '.join(to_english(i) for i in idx)}]"


def _bin(sym: str) -> Callable[[Expr], str]:
    return lambda e: f"{_paren(e.args[0])} {sym} {_paren(e.args[1])}"


_COMPARISONS = {"eq", "ne", "lt", "le", "gt", "ge", "not"}


def _nary(sym: str) -> Callable[[Expr], str]:
    def show(e: Expr) -> str:
        if not e.args:
            return "true" if sym == "and" else "false"
        return f" {sym} ".join(to_english(a) if a.op in _COMPARISONS else _paren(a)
                               for a in e.args)
    return show


def _binder(word: str) -> Callable[[Expr], str]:
    def show(e: Expr) -> str:
        var, dom, body = e.args
        return f"{word} {var.args[0]} in {_domain(dom)}: {to_english(body)}"
    return show


def _domain(d) -> str:  # noqa: ANN001
    if d.enum is not None:
        return d.enum.name
    hi = to_english(d.hi)
    return f"{d.lo}..{hi}-1" if d.hi.op != "const" else f"{d.lo}..{d.hi.args[0] - 1}"


ENGLISH: dict[str, Callable[[Expr], str]] = {
    "const": _const,
    "field": _field,
    "param": lambda e: e.args[0],
    "var": lambda e: e.args[0],
    "num_players": lambda e: "number of players",
    "interp": lambda e: f"interpretation {e.args[0].name}",
    "add": _bin("+"), "sub": _bin("-"), "mul": _bin("*"), "floordiv": _bin("div"),
    "mod": _bin("mod"),
    "min": lambda e: f"min({to_english(e.args[0])}, {to_english(e.args[1])})",
    "max": lambda e: f"max({to_english(e.args[0])}, {to_english(e.args[1])})",
    "abs": lambda e: f"|{to_english(e.args[0])}|",
    "eq": _bin("="), "ne": _bin("≠"), "lt": _bin("<"), "le": _bin("≤"), "gt": _bin(">"),
    "ge": _bin("≥"),
    "and": _nary("and"), "or": _nary("or"),
    "not": lambda e: f"not {_paren(e.args[0])}",
    "ite": lambda e: (f"(if {to_english(e.args[0])} then {to_english(e.args[1])} "
                      f"else {to_english(e.args[2])})"),
    "table": lambda e: f"{list(e.args[0])}[{to_english(e.args[1])}]",
    "exists": _binder("some"), "forall": _binder("every"),
    "sum": _binder("sum over"), "count": _binder("count of"),
    "ordinal": lambda e: f"position of {_paren(e.args[0])}",
    "enum_table": lambda e: f"{e.args[0].name}[{to_english(e.args[1])}]",
    "connected": lambda e: _connected(e),
    "component_size": lambda e: _component(e),
    "largest_component": lambda e: _largest(e),
}

_ATOMIC = {"const", "field", "param", "var", "num_players", "interp", "min", "max", "abs", "ite",
           "table", "enum_table"}


def _labels(graph, nodes) -> str:  # noqa: ANN001
    names = [graph.labels[n] for n in nodes]
    return ", ".join(names) if len(names) <= 4 else f"{', '.join(names[:3])}, ... {names[-1]}"


def _connected(e: Expr) -> str:
    graph, sources, targets, text = e.args[:4]
    if text:
        return f"({text})"
    return (f"(a path in {graph.name} joins {{{_labels(graph, sources)}}} to "
            f"{{{_labels(graph, targets)}}} through nodes where, for node 0, "
            f"{to_english(e.args[4])})")


def _component(e: Expr) -> str:
    graph, text, start = e.args[:3]
    what = text or f"the group of {graph.name} around node {to_english(start)}"
    return f"size of {what}"


def _largest(e: Expr) -> str:
    graph, text, labels = e.args[:3]
    what = text or f"the largest group of member nodes of {graph.name}"
    return f"size of {what}" + (" (in distinct labels)" if labels else "")


def _paren(e: Expr) -> str:
    s = to_english(e)
    return s if e.op in _ATOMIC else f"({s})"


def to_english(e: Expr) -> str:
    """A one-line reading of ``e``."""
    return ENGLISH[e.op](e)


def statements_to_english(stmts, indent: str = "") -> list[str]:  # noqa: ANN001
    """One line per statement, nested blocks indented."""
    lines: list[str] = []
    for st in stmts:
        if isinstance(st, Assign):
            lines.append(f"{indent}set {to_english(st.target)} to {to_english(st.value)}")
        elif isinstance(st, Let):
            lines.append(f"{indent}let {st.var.args[0]} be {to_english(st.value)}")
        elif isinstance(st, If):
            lines.append(f"{indent}if {to_english(st.cond)}:")
            lines.extend(statements_to_english(st.then, indent + "  "))
            if st.otherwise:
                lines.append(f"{indent}otherwise:")
                lines.extend(statements_to_english(st.otherwise, indent + "  "))
        elif isinstance(st, ForEach):
            lines.append(f"{indent}for each {st.var.args[0]} in {_domain(st.domain)}:")
            lines.extend(statements_to_english(st.body, indent + "  "))
    return lines
