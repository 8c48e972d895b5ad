"""Which assumptions a verdict rests on: a static slice of the IR, from a property to the
constructed values it can depend on.

Every rule element is a *site* (a precondition, an effect, a chance weight, a step of the
setup, a field's initial value, the flow rules, the scoring, an invariant): it reads some
fields and carries the assumption labels of the constants and table entries in it
(:mod:`rulespec.ir.assumed`), and of the assumptions its ``source`` cites ("assumption
board_slot": a modelling choice that is written as the rule's shape, not as a value).

A verdict rests on the sites its checker's argument uses:

* **reach** (a test by play, bounded model checking, a scenario, a difference between
  readings, a game played in lockstep): the states play reaches. From the fields the
  property reads: every effect that writes one of them, with the preconditions of its
  action, the conditions it sits under, the lets it reads and the chance weight of its
  outcome; the fields those read, to a fixpoint; the setup and the initial values of
  every field in the slice; and the flow rules (whose move it is, when the game ends,
  when chance moves), which decide which actions run at all.
* **step** (``z3-step``): one step from *any* state within the invariants. Only the
  actions that write a field the goal reads count: their preconditions and what their
  effects on those fields read, within the action (an effect may read what an earlier
  effect of the same action wrote); the state before the step is arbitrary, so what the
  fields held before is not followed. And the premises the proofs used.
* **induction** (``z3-induction``): the step slice, the setup's part (the base case) and
  the induction slices of the premises the step proofs used.
* **law** (``z3-law``): the law's own expression (it holds in every state within bounds).
* **witness** (dead rules): the rule's preconditions and conditions, and the invariants
  (a state within them enables it, or none does); a rule shown alive by a random game
  rests on what play reaches.

Python properties (``properties/*.py``) read what the IR cannot see: they rest on every
rule of the game (``Property.reads`` can name what one reads instead). An assumption that
no site carries or cites is *untraced* (a size taken with ``len``, a value the rules
copied): every verdict is taken to rest on it, and the slice says so.
"""

from __future__ import annotations

import re
from typing import Any, Iterable, Iterator, Sequence

import attrs

from ..ir.assumed import Assumed
from ..ir.nodes import Domain, Expr, Field
from ..ir.statements import Assign, ForEach, If, Let
from ..spec.elements import GameSpec
from .steps import BOUNDS, RULE_ERRORS

REACH, STEP, INDUCTION, LAW, WITNESS, PYTHON, NONE = (
    "reach", "step", "induction", "law", "witness", "python", "none")
#: words a Python property's ``reads`` may name besides fields
READ_WORDS = ("fields", "legal_actions", "effects", "scoring", "tie_breaks", "terminal",
              "current_player", "chance")


@attrs.frozen(eq=False)
class Site:
    """A rule element, what it reads and which assumption labels it carries."""

    kind: str           # precondition, effect, weight, parameters, setup, field, flow, scoring...
    owner: str | None   # the action (or invariant, rule) it belongs to
    index: Any          # a precondition's number, an effect's branch label, ...
    text: str           # how a person names it
    tags: frozenset     # of Assumed
    reads: frozenset    # of Field
    writes: Field | None = None
    points: frozenset = frozenset()  # interpretation points it reads


@attrs.frozen
class Rests:
    """What one verdict rests on: the assumption labels its slice reaches."""

    how: str
    assumptions: frozenset = frozenset()   # of Assumed
    #: why the slice takes in more than it reads (a Python property), or None
    conservative: str | None = None
    #: assumptions no rule carries or cites, taken in because they may be read anywhere
    untraced: frozenset = frozenset()
    #: the sites that carry each assumption's labels, by assumption name
    sites: dict = attrs.field(factory=dict, eq=False)

    def names(self) -> list[str]:
        return sorted({a.name for a in self.assumptions} | set(self.untraced))


class Dependence:
    """The sites of one spec and the slices over them."""

    def __init__(self, spec: GameSpec) -> None:
        self.spec = spec
        self.names = [a.name for a in spec.assumptions]
        self._lets: dict[str, Expr] = {}
        self._tables: dict[int, set[Assumed]] = {}
        for stmts in [spec.setup, *(a.effects for a in spec.actions)]:
            for st in _statements(stmts):
                if isinstance(st, Let):
                    self._lets[st.var.args[0]] = st.value
        self.sites: list[Site] = []
        self.action_sites: dict[str, list[Site]] = {}
        self.preconditions: dict[str, list[Site]] = {}
        #: per action, each branch label's ``when`` and the conditions it sits under
        self.branches: dict[str, dict[str, tuple[If, tuple]]] = {}
        self.writers: dict[Field, list[Site]] = {}
        self._build()
        carried = {t.name for s in self.sites for t in s.tags}
        #: assumptions no site carries or cites
        self.untraced = frozenset(n for n in self.names if n not in carried)
        self._reach_memo: dict[frozenset, tuple[frozenset, list[Site]]] = {}

    # --- the sites ----------------------------------------------------------------------
    def _site(self, kind: str, owner: str | None, index: Any, text: str,
              exprs: Iterable[Any], cites: Iterable[str | None] = (),
              writes: Field | None = None, tags: Iterable[Assumed] = ()) -> Site:
        reads, carried, points = self._scan(exprs)
        tags = carried | set(tags) | self._cited(cites)
        site = Site(kind, owner, index, text, frozenset(tags), frozenset(reads), writes,
                    frozenset(points))
        self.sites.append(site)
        if writes is not None:
            self.writers.setdefault(writes, []).append(site)
        return site

    def _build(self) -> None:
        spec = self.spec
        for f in spec.fields:
            if f.assumed or "assumption" in (f.source or ""):
                self._site("field", f.name, None, f"the field {f.name} (its size, range or "
                           "initial value)", (), [f.source], f, f.assumed or ())
        self.setup_shape = [self._site("setup", None, None, "the setup's shape", (), [],
                                       tags=spec.setup_rests_on)] if spec.setup_rests_on else []
        for st, ctx, cites, label in _writes(spec.setup):
            self._site("setup", None, label, f"the setup's effect on {st.target.args[0].name}",
                       [st.value, *st.target.args[1:], *ctx], [*cites, spec.setup_source],
                       st.target.args[0])
        for a in spec.actions:
            pres = [self._site("precondition", a.name, k, f"precondition '{p.text}' of {a.name}",
                               [p.cond], [p.source]) for k, p in enumerate(a.preconditions)]
            extra: list[Site] = []
            if a.weight is not None:
                extra.append(self._site("weight", a.name, None, f"the odds of {a.name}",
                                        [a.weight], [a.source]))
            if a.params or a.rests_on:
                extra.append(self._site("parameters", a.name, None,
                                        f"the parameters and shape of {a.name}",
                                        [p.domain.hi for p in a.params], [a.source],
                                        tags=a.rests_on))
            labels: dict[str, tuple[If, tuple]] = {}
            effects = [self._site("effect", a.name, label,
                                  f"{a.name}'s effect on {st.target.args[0].name}",
                                  [st.value, *st.target.args[1:], *ctx], cites,
                                  st.target.args[0])
                       for st, ctx, cites, label in _writes(a.effects, branches=labels)]
            self.preconditions[a.name] = pres + extra
            self.action_sites[a.name] = pres + extra + effects
            self.branches[a.name] = labels
        self.flow = [self._site("flow", what, None, f"the rule for {what}", [r.expr], [r.source])
                     for what, r in (("the player to move", spec.current_player),
                                     ("the end of the game", spec.terminal),
                                     ("chance moves", spec.chance_node)) if r is not None]
        sc = spec.scoring
        self.scoring = [self._site("scoring", None, None, "the scoring", [sc.score],
                                   [sc.source])]
        self.scoring += [self._site("tie-break", None, k, f"tie-break {k + 1}", [tb.key],
                                    [tb.source]) for k, tb in enumerate(spec.tie_breaks)]
        self.statements = {}
        for inv in spec.invariants:
            self.statements[inv.name] = self._site("law" if inv.law else "invariant", inv.name,
                                                   None, f"{'law' if inv.law else 'invariant'}"
                                                   f" {inv.name}", [inv.cond], [inv.source])
        for c in spec.conservation:
            self.statements[c.name] = self._site("conservation", c.name, None,
                                                 f"conservation law {c.name}", [c.total],
                                                 [c.source])

    def _scan(self, exprs: Iterable[Any]) -> tuple[set[Field], set[Assumed], set[str]]:
        """Fields read, labels carried and interpretation points read by ``exprs`` (lets
        resolved to their values)."""
        reads: set[Field] = set()
        tags: set[Assumed] = set()
        points: set[str] = set()
        seen: set[int] = set()
        stack = [e for e in exprs if isinstance(e, Expr)]
        while stack:
            n = stack.pop()
            if id(n) in seen:
                continue
            seen.add(id(n))
            if n.assumed:
                if n.op == "table":
                    for t in n.assumed:
                        tags.update(t or ())
                else:
                    tags.update(n.assumed)
            if n.op == "field":
                reads.add(n.args[0])
            elif n.op == "interp":
                points.add(n.args[0].name)
            elif n.op == "enum_table":
                for t in n.args[0].assumed or ():
                    tags.update(t or ())
                tags |= self._table_cites(n.args[0])
            elif n.op == "var" and n.args[1] is None and n.args[0] in self._lets:
                stack.append(self._lets[n.args[0]])
            for a in n.args:
                if isinstance(a, Expr):
                    stack.append(a)
                elif isinstance(a, Domain):
                    stack.append(a.hi)
        return reads, tags, points

    def _table_cites(self, table: Any) -> set[Assumed]:
        """The assumptions a table's source cites (the whole of each)."""
        key = id(table)
        if key not in self._tables:
            self._tables[key] = self._cited([table.source])
        return self._tables[key]

    def _cited(self, cites: Iterable[str | None]) -> set[Assumed]:
        """Assumptions a source cites by name next to the word 'assumption'."""
        out: set[Assumed] = set()
        for c in cites:
            if not c or "assumption" not in c:
                continue
            words = set(re.findall(r"[A-Za-z0-9_]+", c))
            out |= {Assumed(n) for n in self.names if n in words}
        return out

    # --- slices -------------------------------------------------------------------------
    def reach(self, fields: Iterable[Field], also: Iterable[Site] = ()) -> Rests:
        """What play reaching a state in which ``fields`` have their values rests on."""
        start = frozenset(fields)
        if start not in self._reach_memo:
            self._reach_memo[start] = self._reach(start)
        _, sites = self._reach_memo[start]
        return self._rests(REACH, [*sites, *also])

    def _reach(self, start: frozenset) -> tuple[frozenset, list[Site]]:
        taken: dict[int, Site] = {id(s): s for s in [*self.flow, *self.setup_shape]}
        fields = set(start)
        todo = list(start) + [f for s in self.flow for f in s.reads]
        while todo:
            f = todo.pop()
            fields.add(f)
            for w in self.writers.get(f, ()):
                group = [w] + (self.preconditions.get(w.owner, []) if w.kind == "effect" else [])
                for s in group:
                    if id(s) not in taken:
                        taken[id(s)] = s
                        todo.extend(g for g in s.reads if g not in fields)
        return frozenset(fields), list(taken.values())

    def step(self, reads: Iterable[Field], premises: Iterable[Site] = (),
             actions: Sequence[str] | None = None) -> Rests:
        """A step proof of a goal reading ``reads``, using ``premises``: every action that
        writes one of them (or the named ``actions``), within the action."""
        goal = frozenset(reads)
        sites: list[Site] = list(premises) + self.declarations(goal)
        for a in self.spec.actions:
            if actions is not None and a.name not in actions:
                continue
            own = [s for s in self.action_sites[a.name] if s.kind == "effect"]
            if actions is None and not any(s.writes in goal for s in own):
                continue
            sites += self.preconditions[a.name] + _local(own, goal if actions is None else None)
        return self._rests(STEP, sites)

    def base(self, reads: Iterable[Field]) -> list[Site]:
        """The setup's part of a goal reading ``reads``: the setup's effects on them (within
        the setup) and the initial values of every field they read."""
        setup = [s for s in self.sites if s.kind == "setup"]
        chosen = _local(setup, frozenset(reads))
        fields = set(reads) | {f for s in chosen for f in s.reads}
        return chosen + self.setup_shape + self.declarations(fields)

    def declarations(self, fields: Iterable[Field]) -> list[Site]:
        """The declarations of ``fields`` that carry or cite an assumption."""
        fields = set(fields)
        return [s for s in self.sites if s.kind == "field" and s.writes in fields]

    def everything(self) -> list[Site]:
        """Every rule of the game (not the invariants: they are checks, not rules)."""
        return [s for s in self.sites if s.kind not in ("invariant", "law", "conservation")]

    def reads_of(self, words: Iterable[str]) -> tuple[set[Field], list[Site]]:
        """The fields and sites a Python property's ``reads`` names."""
        by_name = {f.name: f for f in self.spec.fields}
        fields: set[Field] = set()
        sites: list[Site] = []
        for w in words:
            if w in by_name:
                fields.add(by_name[w])
            elif w == "fields":
                fields |= set(self.spec.fields)
            elif w in ("legal_actions", "chance"):
                for a in self.spec.actions:
                    if w == "legal_actions" or a.chance:
                        sites += self.preconditions[a.name]
            elif w == "effects":
                sites += [s for s in self.sites if s.kind == "effect"]
            elif w in ("scoring", "tie_breaks"):
                sites += [s for s in self.scoring if (s.kind == "scoring") == (w == "scoring")]
            elif w in ("terminal", "current_player"):
                sites += self.flow
            else:
                raise ValueError(f"a property reads {w!r}: not a field of {self.spec.name} "
                                 f"nor one of {', '.join(READ_WORDS)}")
        return fields | {f for s in sites for f in s.reads}, sites

    # --- verdicts -----------------------------------------------------------------------
    def goal(self, name: str) -> tuple[frozenset, list[Site]] | None:
        """What a property of the spec reads: its fields and its own site (an invariant's
        expression, a field's declaration); None for a Python property."""
        spec = self.spec
        if name in self.statements:
            site = self.statements[name]
            return site.reads, [site, *self.declarations(site.reads)]
        if name == BOUNDS:
            fields = frozenset(spec.fields)
            return fields, self.declarations(fields)
        if name.startswith(BOUNDS + "["):
            f = spec.field(name[len(BOUNDS) + 1:-1])
            return frozenset({f}), self.declarations({f})
        return None

    def for_result(self, r: Any, prop: Any = None,
                   step_premises: dict[str, list[str]] | None = None) -> Rests:
        """The slice of one verdict (``Result``), by its checker: see the module doc.
        ``prop`` is its :class:`~.property.Property` (for a Python property's ``reads``);
        ``step_premises`` the premises each goal's step proof used (for an induction)."""
        name, checker = r.property, r.checker
        ev = r.evidence or {}
        if name.startswith("rule_can_apply:"):
            return self.for_rule(name, ev)
        if name == RULE_ERRORS:
            if checker == "z3-step":
                return self.step((), self._premise_sites(ev.get("premises", ())),
                                 actions=[a.name for a in self.spec.actions])
            return self._rests(REACH, self.everything())
        goal = self.goal(name)
        if goal is None:  # a Python property
            reads = getattr(prop, "reads", None)
            if reads is None:
                return self._rests(PYTHON, self.everything(),
                                   "a property written in Python: it may read any rule")
            fields, sites = self.reads_of(reads)
            return self.reach(fields, sites)
        fields, own = goal
        if checker == "z3-step":
            return self.step(fields, [*own, *self._premise_sites(ev.get("premises", ()))])
        if checker == "z3-induction":
            parts = []
            for g in [name, *ev.get("premises", ())]:
                got = self.goal(g)
                if got is None:
                    continue
                gf, gown = got
                parts += [self.step(gf, gown), self._rests(INDUCTION, self.base(gf))]
            return self.union(INDUCTION, parts)
        if checker == "z3-law":
            return self._rests(LAW, own)
        return self.reach(fields, own)  # a test by play, bounded model checking

    def _premise_sites(self, names: Iterable[str]) -> list[Site]:
        out: list[Site] = []
        for n in names:
            got = self.goal(n)
            if got is not None:
                out += got[1]
        return out

    def for_rule(self, name: str, evidence: dict[str, Any]) -> Rests:
        """A dead-rule verdict (``rule_can_apply:<action>[:<branch>]`` or a scoring
        clause): the rule's preconditions and condition with what they read within the
        action; with the invariants when Z3 decided it, with what play reaches when a
        random game ran it."""
        _, what, *label = name.split(":", 2)
        if what.startswith("score@"):
            sites = [*self.scoring, *self.flow]
        else:
            if what not in self.action_sites:
                return self._rests(WITNESS, ())
            sites = list(self.preconditions[what])
            if label and label[0] in self.branches.get(what, {}):
                st, ctx = self.branches[what][label[0]]
                reads, tags, _ = self._scan([st.cond, *ctx])
                effects = [s for s in self.action_sites[what] if s.kind == "effect"]
                sites += _local(effects, frozenset(reads))
                sites.append(Site("condition", what, label[0], f"the condition of {what}'s "
                                  f"{label[0]}", frozenset(tags | self._cited([st.source])),
                                  frozenset(reads)))
        if evidence.get("witness") == "a random game":
            return self.reach({f for s in sites for f in s.reads}, sites)
        premises = [x for x in self.statements.values() if x.kind != "law"]
        return self._rests(WITNESS, [*sites, *premises])

    def for_point(self, point: str, outcome: bool = False) -> Rests:
        """A difference between two readings of ``point`` (``outcome``: who wins in games
        played to the end, as the impact games measure): the rules that read the point,
        and what play reaches in the fields they read (and the scoring's)."""
        rules = [s for s in self.sites if point in s.points]
        if outcome:
            rules += self.scoring
        return self.reach({f for s in rules for f in s.reads}, rules)

    def for_scenario(self, fields: Iterable[Field], actions: Iterable[str],
                     words: Iterable[str] = ()) -> Rests:
        """A scenario: the situation its steps reach and what its expectations read
        (``fields``; ``words``: the ``reads`` words of :meth:`reads_of`), with the
        preconditions of the ``actions`` it plays or names."""
        extra_fields, sites = self.reads_of(words)
        for a in actions:
            sites += self.preconditions.get(a, [])
        return self.reach(set(fields) | extra_fields | {f for s in sites for f in s.reads},
                          sites)

    def _rests(self, how: str, sites: Iterable[Site], conservative: str | None = None) -> Rests:
        tags: set[Assumed] = set()
        by_name: dict[str, list[Site]] = {}
        seen: set[int] = set()
        for s in sites:
            if id(s) in seen:
                continue
            seen.add(id(s))
            tags |= s.tags
            for n in {t.name for t in s.tags}:
                by_name.setdefault(n, []).append(s)
        return Rests(how, frozenset(tags), conservative, self.untraced, by_name)

    def union(self, how: str, parts: Iterable[Rests], conservative: str | None = None) -> Rests:
        """Several slices as one (the induction: a goal's and its premises')."""
        tags: set[Assumed] = set()
        by_name: dict[str, list[Site]] = {}
        for r in parts:
            tags |= r.assumptions
            for n, ss in r.sites.items():
                have = by_name.setdefault(n, [])
                have += [s for s in ss if all(s is not x for x in have)]
        return Rests(how, frozenset(tags), conservative, self.untraced, by_name)


def _statements(stmts: Iterable) -> Iterator:
    for st in stmts:
        yield st
        if isinstance(st, If):
            yield from _statements(st.then)
            yield from _statements(st.otherwise)
        elif isinstance(st, ForEach):
            yield from _statements(st.body)


def _writes(stmts: Iterable, ctx: tuple = (), cites: tuple = (), label: str | None = None,
            lines: dict | None = None, branches: dict | None = None
            ) -> Iterator[tuple[Assign, tuple, tuple, str | None]]:
    """Each assignment with the conditions and loop bounds it sits under, the sources on
    the way and the label of its innermost branch (``when@LINE``, ``otherwise@LINE``,
    ``#k`` for a line seen again: the dead-rule checker's and the rule index's labels).
    ``branches`` collects each label's ``when`` with the conditions it sits under."""
    lines = {} if lines is None else lines
    branches = {} if branches is None else branches
    for st in stmts:
        if isinstance(st, Assign):
            yield st, ctx, (*cites, st.source), label
        elif isinstance(st, If):
            line = st.where.line if st.where else "?"
            lines[line] = lines.get(line, 0) + 1
            at = f"{line}" if lines[line] == 1 else f"{line}#{lines[line]}"
            inner = (*ctx, st.cond)
            branches[f"when@{at}"] = branches[f"otherwise@{at}"] = (st, ctx)
            yield from _writes(st.then, inner, (*cites, st.source), f"when@{at}", lines,
                               branches)
            yield from _writes(st.otherwise, inner, (*cites, st.else_source), f"otherwise@{at}",
                               lines, branches)
        elif isinstance(st, ForEach):
            yield from _writes(st.body, (*ctx, st.domain.hi), (*cites, st.source), label, lines,
                               branches)


def _local(writes: list[Site], goal: frozenset | None) -> list[Site]:
    """The effects among ``writes`` that what ``goal`` reads depends on within one action
    (or the setup): those writing a goal field, then those writing what they read, to a
    fixpoint. ``goal`` None: all of them."""
    if goal is None:
        return list(writes)
    fields = set(goal)
    chosen: dict[int, Site] = {}
    changed = True
    while changed:
        changed = False
        for s in writes:
            if id(s) not in chosen and s.writes in fields:
                chosen[id(s)] = s
                new = s.reads - fields
                if new:
                    fields |= new
                    changed = True
    return [s for s in writes if id(s) in chosen]
