"""Mutation operators: every small change to a spec's rules, each named in rule terms.

A mutant is one change at one *site* of the spec: a place in the spec's source (file,
line and column) where a precondition, a statement or an operator was written. A helper
that a spec calls for several actions builds one node per call from the same site, so a
mutant changes every one of them, as editing that line would; its description lists the
actions it reaches. Constants are sites of their own (the name ``game.constant`` or a
table gave them), interpretation points and tie-breaks too.

Each mutant has a stable id, ``operator@site`` (``drop_precondition@49:4``,
``constant_plus_one@rows``), and makes its spec from the original with
:func:`~.rewrite.map_spec`: the IR is rewritten, never the source text.

>>> import rulespec
>>> ms = mutants(rulespec.load("tic_tac_toe").spec)
>>> m = next(m for m in ms if m.operator == DROP_PRECONDITION)
>>> m.description
"precondition 'the cell is empty' of mark removed"
>>> len(m.make(rulespec.load("tic_tac_toe").spec).action("mark").preconditions)
0
"""

from __future__ import annotations

import os
from collections import defaultdict
from typing import Any, Callable, Iterable, Sequence

import attrs

from ...ir.english import statements_to_english, to_english
from ...ir.location import Location
from ...ir.nodes import INT, Expr, Printed, Table
from ...ir.statements import If, Let
from ...ir.walk import walk
from ...spec.elements import GameSpec
from .rewrite import Place, map_spec, rule_exprs, rule_statements, statement_exprs_of

DROP_PRECONDITION = "drop_precondition"
NEGATE = "negate_comparison"
WEAKEN = "weaken_comparison"
STRENGTHEN = "strengthen_comparison"
PLUS_ONE = "constant_plus_one"
MINUS_ONE = "constant_minus_one"
DROP_EFFECT = "drop_effect"
SWAP_BRANCHES = "swap_branches"
DROP_BRANCH = "drop_branch"
FLIP_TIE_BREAK = "flip_tie_break"
SWAP_DEFAULT = "swap_default"

#: every operator, with what it does (``rulespec mutate --operators`` takes these names)
OPERATORS: dict[str, str] = {
    DROP_PRECONDITION: "remove a precondition of an action",
    NEGATE: "negate a comparison (< and >=, <= and >, == and != swap)",
    WEAKEN: "let a strict comparison accept equality (< becomes <=, > becomes >=)",
    STRENGTHEN: "make a comparison strict (<= becomes <, >= becomes >)",
    PLUS_ONE: "add one to a constant printed in the rules (game.constant) or a table entry",
    MINUS_ONE: "subtract one from a constant printed in the rules or a table entry",
    DROP_EFFECT: "remove an effect statement (an update, a whole 'when' block, a loop)",
    SWAP_BRANCHES: "swap the two branches of a 'when ... otherwise' or an if_ expression",
    DROP_BRANCH: "remove one branch of a 'when ... otherwise' block",
    FLIP_TIE_BREAK: "turn a tie-break's direction round (higher wins <-> lower wins)",
    SWAP_DEFAULT: "make another option an interpretation point's default",
}
#: a group name stands for several operators on the command line
GROUPS: dict[str, tuple[str, ...]] = {
    "comparison": (NEGATE, WEAKEN, STRENGTHEN),
    "constant": (PLUS_ONE, MINUS_ONE),
    "branch": (SWAP_BRANCHES, DROP_BRANCH),
}

_NEGATION = {"lt": "ge", "le": "gt", "gt": "le", "ge": "lt", "eq": "ne", "ne": "eq"}
_WEAKER = {"lt": "le", "gt": "ge"}
_STRONGER = {"le": "lt", "ge": "gt"}
#: how many actions a description names before "and N more"
_NAMED = 3


@attrs.frozen
class Mutant:
    """One change to a spec's rules.

    ``description`` says it in rule terms ("precondition 'the cell is empty' of mark
    removed"); ``source`` is the citation of the rule it changes; ``where`` the spec line.
    ``make(spec)`` builds the mutated spec from the original.
    """

    id: str
    operator: str
    description: str
    source: str | None
    where: str | None
    #: the rule elements it reaches: action names, or "setup", "score", "terminal", ...
    elements: tuple[str, ...]
    make: Callable[[GameSpec], GameSpec] = attrs.field(eq=False, repr=False)
    #: the constructed component entries (``catalogue[entry]``) the changed value comes
    #: from: such a mutant is counted apart from the rules' score (docs/mutation.md)
    constructed: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "operator": self.operator, "description": self.description,
                "source": self.source, "where": self.where, "elements": list(self.elements),
                "constructed": list(self.constructed)}


def select_operators(names: Sequence[str] | None) -> tuple[str, ...]:
    """The operators named (groups expanded), in their canonical order; every operator
    for None or empty. Unknown names raise ValueError listing the known ones."""
    if not names:
        return tuple(OPERATORS)
    wanted: set[str] = set()
    for raw in names:
        for name in (n.strip() for n in raw.split(",") if n.strip()):
            if name in OPERATORS:
                wanted.add(name)
            elif name in GROUPS:
                wanted.update(GROUPS[name])
            else:
                raise ValueError(f"unknown mutation operator {name!r} (operators: "
                                 f"{', '.join(OPERATORS)}; groups: {', '.join(GROUPS)})")
    return tuple(op for op in OPERATORS if op in wanted)


def mutants(spec: GameSpec, operators: Iterable[str] | None = None) -> list[Mutant]:
    """Every mutant of ``spec`` by the given operators (all by default), in a stable
    order: operator by operator, sites in the order the spec builds them."""
    chosen = set(select_operators(list(operators) if operators is not None else None))
    found: list[Mutant] = []
    home = spec.file
    found += _preconditions(spec, home)
    found += _comparisons(spec, home)
    found += _constants(spec)
    found += _statements(spec, home)
    found += _tie_breaks(spec)
    found += _defaults(spec)
    out = [m for m in found if m.operator in chosen]
    order = {op: k for k, op in enumerate(OPERATORS)}
    out.sort(key=lambda m: order[m.operator])  # stable: sites keep their spec order
    seen: dict[str, int] = {}
    for k, m in enumerate(out):  # two sites on one column of two files: keep ids apart
        if m.id in seen:
            seen[m.id] += 1
            out[k] = attrs.evolve(m, id=f"{m.id}#{seen[m.id]}")
        else:
            seen[m.id] = 0
    return out


# --- sites -------------------------------------------------------------------------------
Site = tuple[str, int, int | None]


def _site(where: Location | None) -> Site | None:
    return None if where is None else (where.file, where.line, where.column)


def _site_text(site: Site, home: str | None) -> str:
    file, line, col = site
    here = f"{line}:{col}" if col is not None else f"{line}"
    same = home is not None and os.path.normpath(os.path.abspath(file)) == os.path.normpath(
        os.path.abspath(home))
    return here if same else f"{os.path.basename(file)}:{here}"


def _where_text(site: Site) -> str:
    return f"{site[0]}:{site[1]}"


def _elements(places: Sequence[Place]) -> tuple[str, ...]:
    out: list[str] = []
    for p in places:
        name = p.action if p.action is not None else p.part
        if name not in out:
            out.append(name)
    return tuple(out)


def _of(elements: Sequence[str]) -> str:
    """``mark``, ``buy_a and buy_b``, ``buy_a, buy_b, buy_c and 18 more``."""
    names = list(elements)
    if len(names) == 1:
        return names[0]
    if len(names) <= _NAMED:
        return f"{', '.join(names[:-1])} and {names[-1]}"
    return f"{', '.join(names[:_NAMED])} and {len(names) - _NAMED} more"


def _context(place: Place, elements: Sequence[str]) -> str:
    """Where a node sits, in words: "precondition 'the cell is empty' of mark"."""
    actions = _of(elements)
    if place.part == "precondition":
        return f"precondition '{place.text}' of {actions}"
    if place.part == "effect":
        return f"the effects of {actions}"
    if place.part == "weight":
        return f"the chance weight of {actions}"
    if place.part == "tie_break":
        return place.text or "a tie-break"
    words = {"setup": "the setup", "current_player": "the current-player rule",
             "chance_node": "the chance-node rule", "terminal": "the end-of-game rule",
             "score": "the score"}
    if len(elements) > 1:
        return f"{words.get(place.part, place.part)} and {_of(elements[1:])}"
    return words.get(place.part, place.part)


def _short(text: str, limit: int = 70) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[:limit - 3] + "..."


# --- drop a precondition ------------------------------------------------------------------
def _preconditions(spec: GameSpec, home: str | None) -> list[Mutant]:
    groups: dict[Site, list[tuple[str, Any]]] = defaultdict(list)
    for a in spec.actions:
        for p in a.preconditions:
            s = _site(p.where)
            if s is not None:
                groups[s].append((a.name, p))
    out = []
    for s, found in groups.items():
        names = tuple(dict.fromkeys(n for n, _ in found))
        first = found[0][1]

        def make(spec: GameSpec, s: Site = s) -> GameSpec:
            return map_spec(spec, pfn=lambda a, p: _site(p.where) != s)
        out.append(Mutant(f"{DROP_PRECONDITION}@{_site_text(s, home)}", DROP_PRECONDITION,
                          f"precondition '{first.text}' of {_of(names)} removed",
                          first.source, _where_text(s), names, make))
    return out


# --- comparisons and conditional values ----------------------------------------------------
def _rule_nodes(spec: GameSpec) -> Iterable[tuple[Expr, Place]]:
    """Every node of the rules with the place of its top-level expression (a node shared
    within one expression once)."""
    for e, place in rule_exprs(spec):
        yield from ((n, place) for n in _distinct(walk(e)))
    for st, place in rule_statements(spec):
        for e in statement_exprs_of(st):
            yield from ((n, place) for n in _distinct(walk(e)))


def _distinct(nodes: Iterable[Expr]) -> Iterable[Expr]:
    seen: set[int] = set()
    for n in nodes:
        if id(n) not in seen:
            seen.add(id(n))
            yield n


def _comparisons(spec: GameSpec, home: str | None) -> list[Mutant]:
    groups: dict[tuple[Site, str], list[tuple[Expr, Place]]] = defaultdict(list)
    for n, place in _rule_nodes(spec):
        if n.op in _NEGATION or n.op == "ite":
            s = _site(n.where)
            if s is not None:
                groups[(s, n.op)].append((n, place))
    out = []
    for (s, op), found in groups.items():
        node, place = found[0]
        places = [p for _, p in found]
        elements = _elements(places)
        context = _context(place, elements)
        if op == "ite":
            c, t, e = (to_english(a, literal=True) for a in node.args)
            change = (f"`if {_short(c, 40)} then {_short(t, 20)} else {_short(e, 20)}` gives "
                      "its branches the other way round")
            out.append(_node_mutant(SWAP_BRANCHES, s, op, lambda n: Expr(
                "ite", (n.args[0], n.args[2], n.args[1]), n.type, n.where, n.label),
                f"in {context}: {change}", place.source, elements, home))
            continue
        for operator, table in ((NEGATE, _NEGATION), (WEAKEN, _WEAKER),
                                (STRENGTHEN, _STRONGER)):
            new = table.get(op)
            if new is None:
                continue
            before = to_english(node, literal=True)
            after = to_english(Expr(new, node.args, node.type), literal=True)
            out.append(_node_mutant(
                operator, s, op,
                lambda n, new=new: Expr(new, n.args, n.type, n.where, n.label),
                f"in {context}: `{_short(before)}` became `{_short(after)}`", place.source,
                elements, home))
    return out


def _node_mutant(operator: str, s: Site, op: str, change: Callable[[Expr], Expr],
                 description: str, source: str | None, elements: tuple[str, ...],
                 home: str | None) -> Mutant:
    def efn(n: Expr) -> Expr | None:
        return change(n) if n.op == op and _site(n.where) == s else None

    def make(spec: GameSpec) -> GameSpec:
        return map_spec(spec, efn=efn)
    return Mutant(f"{operator}@{_site_text(s, home)}", operator, description, source,
                  _where_text(s), elements, make)


# --- constants -------------------------------------------------------------------------
def _constants(spec: GameSpec) -> list[Mutant]:
    uses: dict[Printed, list[Place]] = defaultdict(list)
    values: dict[Printed, int] = {}
    tags: dict[Printed, set] = defaultdict(set)   # where each literal's value comes from
    tables = {t.name: t for t in spec.tables}
    for n, place in _rule_nodes(spec):
        if n.op == "const" and isinstance(n.label, Printed) and n.type == INT:
            uses[n.label].append(place)
            values[n.label] = n.args[0]
            tags[n.label] |= set(n.assumed or ())
        elif n.op == "table" and n.label is not None and n.type == INT:
            for k, (p, v) in enumerate(zip(n.label, n.args[0])):
                if p is not None:
                    uses[p].append(place)
                    values[p] = v
                    tags[p] |= set((n.assumed[k] if n.assumed else None) or ())
        elif n.op == "enum_table" and n.type == INT:
            t = n.args[0]
            for k, (member, v) in enumerate(zip(t.enum.members, t.values)):
                if t.absent_why(k) is not None:
                    continue   # no value to change: reading it is a rule error already
                p = Printed(t.name, member)
                uses[p].append(place)
                values[p] = v
                tags[p] |= set((t.assumed[k] if t.assumed else None) or ())
    made = constructed_entries(spec)
    sources = {c.name: c.source for c in spec.constants}
    wheres = {c.name: c.where for c in spec.constants}
    out = []
    for printed, places in uses.items():
        value = values[printed]
        table = tables.get(printed.name)
        source = (table.source if table is not None and printed.member is not None
                  else sources.get(printed.name))
        at = (getattr(table, "where", None) if table is not None and printed.member is not None
              else wheres.get(printed.name))
        elements = _elements(places)
        data = tuple(sorted(str(t) for t in tags[printed] if (t.name, t.entry) in made))
        for operator, delta in ((PLUS_ONE, 1), (MINUS_ONE, -1)):
            what = "table entry" if printed.member is not None else "constant"
            from_data = f", from constructed {', '.join(data)}" if data else ""
            out.append(Mutant(
                f"{operator}@{printed}", operator,
                f"{what} {printed} = {value} became {value + delta} (used in "
                f"{_of(elements)}{from_data})", source, str(at) if at is not None else None,
                elements, lambda spec, p=printed, d=delta: map_spec(spec, efn=_shift(p, d)),
                data))
    return out


def constructed_entries(spec: GameSpec) -> set[tuple[str, str]]:
    """``(catalogue, entry)`` of every constructed entry of the spec's component data."""
    from ...spec.components import catalogues
    return {(c.name, e) for c in catalogues(spec) for e in c.entries_of("constructed")}


def _shift(printed: Printed, delta: int) -> Callable[[Expr], Expr | None]:
    """Add ``delta`` to the one literal ``printed`` names, wherever it is used."""
    shifted: dict[int, Table] = {}

    def efn(n: Expr) -> Expr | None:
        if n.op == "const" and n.label == printed and n.type == INT:
            return Expr("const", (n.args[0] + delta,), n.type, n.where, n.label)
        if n.op == "table" and n.label is not None and printed in n.label and n.type == INT:
            values = tuple(v + delta if p == printed else v
                           for v, p in zip(n.args[0], n.label))
            return Expr("table", (values, n.args[1]), n.type, n.where, n.label)
        if (n.op == "enum_table" and n.type == INT and printed.member is not None
                and n.args[0].name == printed.name):
            t = n.args[0]
            new = shifted.get(id(t))
            if new is None:
                k = t.enum.index_of(printed.member)
                new = shifted[id(t)] = attrs.evolve(t, values=tuple(
                    v + delta if i == k else v for i, v in enumerate(t.values)))
            return Expr("enum_table", (new, n.args[1]), n.type, n.where, n.label)
        return None
    return efn


# --- effect statements and branches ---------------------------------------------------------
def _statements(spec: GameSpec, home: str | None) -> list[Mutant]:
    groups: dict[tuple[Site, type], list[tuple[Any, Place]]] = defaultdict(list)
    for st, place in rule_statements(spec):
        if isinstance(st, Let):
            continue  # a name later statements read: dropping it is no rule change
        s = _site(st.where)
        if s is not None:
            groups[(s, type(st))].append((st, place))
    out = []
    for (s, kind), found in groups.items():
        st, place = found[0]
        elements = _elements([p for _, p in found])
        of = _of(elements)
        shown = _short(statements_to_english([st])[0].rstrip(":"))
        where = "the setup" if place.part == "setup" else of

        def matches(orig: Any, s: Site = s, kind: type = kind) -> bool:
            return isinstance(orig, kind) and _site(orig.where) == s
        out.append(_stmt_mutant(DROP_EFFECT, s, home, matches, lambda new: [],
                                f"effect `{shown}` of {where} removed", place.source,
                                elements))
        if kind is not If:
            continue
        with_else = any(x.otherwise for x, _ in found)
        out.append(_stmt_mutant(
            SWAP_BRANCHES, s, home, matches,
            lambda new: [attrs.evolve(new, then=new.otherwise, otherwise=new.then)],
            f"in {where}: `{shown}` runs its "
            + ("two branches the other way round" if with_else
               else "block when the condition does not hold"),
            place.source, elements))
        if with_else:
            out.append(_stmt_mutant(
                DROP_BRANCH, s, home, matches, lambda new: [attrs.evolve(new, then=())],
                f"in {where}: the block of `{shown}` removed (its 'otherwise' kept)",
                place.source, elements, suffix=":then"))
            out.append(_stmt_mutant(
                DROP_BRANCH, s, home, matches, lambda new: [attrs.evolve(new, otherwise=())],
                f"in {where}: the 'otherwise' block of `{shown}` removed", place.source,
                elements, suffix=":otherwise"))
    return out


def _stmt_mutant(operator: str, s: Site, home: str | None, matches: Callable[[Any], bool],
                 change: Callable[[Any], list], description: str, source: str | None,
                 elements: tuple[str, ...], suffix: str = "") -> Mutant:
    def sfn(orig: Any, new: Any) -> list | None:
        return change(new) if matches(orig) else None

    def make(spec: GameSpec) -> GameSpec:
        return map_spec(spec, sfn=sfn)
    return Mutant(f"{operator}@{_site_text(s, home)}{suffix}", operator, description, source,
                  _where_text(s), elements, make)


# --- tie-breaks and interpretation points ---------------------------------------------------
def _tie_breaks(spec: GameSpec) -> list[Mutant]:
    out = []
    for k, tb in enumerate(spec.tie_breaks):
        now, then = ("lower", "higher") if tb.lower_wins else ("higher", "lower")

        def make(spec: GameSpec, k: int = k) -> GameSpec:
            tbs = list(spec.tie_breaks)
            tbs[k] = attrs.evolve(tbs[k], lower_wins=not tbs[k].lower_wins)
            return attrs.evolve(spec, tie_breaks=tuple(tbs))
        out.append(Mutant(
            f"{FLIP_TIE_BREAK}@{k + 1}", FLIP_TIE_BREAK,
            f"tie-break {k + 1} (`{_short(to_english(tb.key), 50)}`): the {then} key wins "
            f"instead of the {now}", tb.source, str(tb.where) if tb.where else None,
            ("tie_break",), make))
    return out


def _defaults(spec: GameSpec) -> list[Mutant]:
    out = []
    for k, point in enumerate(spec.interpretations):
        for option in point.options:
            if option == point.default:
                continue

            def make(spec: GameSpec, k: int = k, option: str = option) -> GameSpec:
                points = list(spec.interpretations)
                points[k] = attrs.evolve(points[k], default=option)
                return attrs.evolve(spec, interpretations=tuple(points))
            out.append(Mutant(
                f"{SWAP_DEFAULT}@{point.name}={option}", SWAP_DEFAULT,
                f"interpretation {point.name}: the default reading {point.default!r} "
                f"became {option!r}", point.source, str(point.where) if point.where else None,
                (f"interpretation {point.name}",), make))
    return out
