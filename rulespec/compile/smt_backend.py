"""The Z3 backend: a spec, under one interpretation, as Z3 terms over a symbolic state.

A state is a list of terms, one per cell of the shared :class:`~.layout.Layout` (Int for
int and enum fields, Bool for bool fields; ``num_players`` is cell 0). Expressions
compile through :data:`SMT_TABLE`, keyed by IR operation like the Python backend's
``EXPR_TABLE``; an operation missing from it raises :class:`Unsupported` naming it, never a
fallback. Effects are a functional update of the state list in sequential order: ``If``
merges both branches cell by cell, ``ForEach`` is unrolled up to the domain's largest size
with a guard ``v < hi``, ``Let`` names a value.

**Run-time errors.** Where the Python backend raises (an index out of range, a lookup
outside its table, a division by zero), the encoding sets an *error flag* instead of
constraining the state: every evaluation returns a :class:`Checked` pair ``(value, error)``
whose ``error`` is exactly the condition under which Python raises. The flag is path
sensitive, like Python's short-circuit evaluation: the ``error`` of ``all_of(a, b)`` counts
``b``'s errors only where ``a`` holds. The value read at a bad index is unspecified (it is
some cell of the field), so it must only be used where ``error`` is false. Preconditions
follow the Model's rule that a guard which cannot be evaluated is not satisfied:
:meth:`SmtGame.precondition` is ``value and not error``. The ``*_checked`` methods give
both parts; the plain ones give the value (or, for ``apply``, the successor state).

Known values fold (see :mod:`.smt_terms`): on a concrete state nothing is left for the
solver, and a parameter fixed to a number selects its cells directly -- the cheap way to
split an obligation into one query per action instance.

>>> import rulespec, z3
>>> model = rulespec.load("tic_tac_toe")
>>> g = compile_smt(model.spec, model.interpretation)
>>> s, (r, c) = g.fresh_state("s"), g.params(0)
>>> after = g.apply_checked(0, s, [r, c])
>>> z3.prove(z3.Implies(z3.And(g.bounds(s), g.param_domain(0, s, [r, c]),
...                            g.preconditions(0, s, [r, c])),
...                     z3.And(z3.Not(after.error),
...                            g.conserved(0, after.value) == g.conserved(0, s))))
proved
>>> g.current_player(g.concrete_state(model.initial_state().values))
0
"""

from __future__ import annotations

import itertools
import operator
from typing import Any, Callable, Iterable, Mapping, Sequence

import z3

from ..ir.nodes import BOOL, Domain, Expr, Field
from ..ir.statements import Assign, ForEach, If, Let
from ..ir.walk import statement_exprs, walk
from ..spec.elements import Action, GameSpec
from . import smt_terms as T
from .layout import Layout
from .plan import CHANCE, TERMINAL
from .smt_expressions import SMT_TABLE
# Checked, Unsupported and _bool are imported from here too
from .smt_scope import Checked, Unsupported, _bool, _Pure, _reads_target, _Scope, _within
from .smt_terms import Val


_RECENT_STATES = 4


class _Lowered:
    """A state given to a query, its cells lowered to Vals, and the terms built on it."""

    __slots__ = ("given", "cells", "memo")

    def __init__(self, given: tuple, cells: tuple) -> None:
        self.given = given
        self.cells = cells
        self.memo: dict[tuple, tuple[tuple, Checked]] = {}


class SmtGame:
    """One spec under one interpretation, as Z3 terms (build with :func:`compile_smt`)."""

    def __init__(self, spec: GameSpec, interpretation: dict[str, str]) -> None:
        self.spec = spec
        self.interpretation = dict(interpretation)
        self.layout = Layout.of(spec)
        self.size = self.layout.size
        self.interp = {p.name: p.enum.index_of(interpretation[p.name])
                       for p in spec.interpretations}
        self._is_bool: list[bool] = []
        self._names: list[str] = []
        self._cell_field: list[Field] = []
        for name, slot in self.layout.slots.items():
            f = slot.field
            for k, idx in enumerate(itertools.product(*(range(d.size) for d in f.dims))):
                self._is_bool.append(f.type == BOOL)
                self._cell_field.append(f)
                self._names.append(f"{name}[{','.join(map(str, idx))}]" if f.dims else name)
        assert len(self._names) == self.size
        self._checked: dict[int, Any] = {}  # id -> expression or statements found encodable
        #: called as ``probe(if_statement, path_condition, condition)`` for each branch met
        #: while encoding effects (dead-rule detection); None when nobody is watching
        self.branch_probe: Callable[[If, Any, Any], None] | None = None
        #: called as ``seen(if_statement, taken)`` for each branch decided by known values
        #: (a concrete state: which branches a played game runs); None when nobody watches
        self.branch_seen: Callable[[If, bool], None] | None = None
        self._recent: list[_Lowered] = []  # the last few states queried, most recent first
        self._pinned: tuple[Expr, int] | None = None  # (target read, its cell) while assigning
        self._pure: _Pure | None = None  # while evaluating an expression (see _Pure)
        self._read: dict[int, tuple[Expr, tuple[str, ...]]] = {}  # see _Pure.names_read

    # --- states and parameters ---------------------------------------------------------
    def cell_names(self) -> list[str]:
        """A readable name per cell: ``board[1,2]``, ``to_move``."""
        return list(self._names)

    def fresh_state(self, prefix: str = "s") -> list[z3.ExprRef]:
        """One fresh Z3 constant per cell, named ``<prefix>.<cell>``."""
        return [z3.Bool(f"{prefix}.{n}") if b else z3.Int(f"{prefix}.{n}")
                for n, b in zip(self._names, self._is_bool)]

    def concrete_state(self, values: Sequence[Any]) -> list[z3.ExprRef]:
        """A concrete state (the Python backend's flat tuple) as Z3 literals."""
        self._check_len(values)
        return [T.term(T.lower(v, b)) for v, b in zip(values, self._is_bool)]

    def state_from_model(self, model: z3.ModelRef, state: Sequence[z3.ExprRef]) -> tuple:
        """The Python backend's flat tuple for ``state`` in a solver model (a counterexample)."""
        self._check_len(state)
        out = []
        for t, b in zip(state, self._is_bool):
            v = T.value(model.eval(T.term(t), model_completion=True))
            out.append(bool(v) if b else int(v))
        return tuple(out)

    def bounds(self, state: Sequence[Val]) -> z3.BoolRef:
        """Every cell within its field's declared bounds (``num_players`` within min..max)."""
        self._check_len(state)
        return _bool(T.and_([_within(f, t) for t, b, f in
                             zip(state, self._is_bool, self._cell_field) if not b]))

    def field_bounds(self, name: str, state: Sequence[Val]) -> z3.BoolRef:
        """The cells of one field within its declared bounds (True for bools and enums
        never leave their range: Z3 sees them as Bool or Int, so enums are checked too)."""
        self._check_len(state)
        slot = self.layout.slots[name]
        f = slot.field
        if f.type == BOOL:
            return z3.BoolVal(True)
        return _bool(T.and_([_within(f, t) for t in state[slot.offset:slot.offset + f.size]]))

    def cell_bounds(self, name: str, state: Sequence[Val]) -> list[z3.BoolRef]:
        """:meth:`field_bounds`, one term per cell (in the field's cell order)."""
        self._check_len(state)
        slot = self.layout.slots[name]
        f = slot.field
        if f.type == BOOL:
            return [z3.BoolVal(True)] * f.size
        return [_bool(_within(f, t)) for t in state[slot.offset:slot.offset + f.size]]

    def params(self, action: int, prefix: str | None = None) -> list[z3.ArithRef]:
        """Fresh Int constants for an action's parameters, named ``<prefix>.<param>``."""
        a = self.spec.actions[action]
        pre = a.name if prefix is None else prefix
        return [z3.Int(f"{pre}.{p.name}") for p in a.params]

    def param_domain(self, action: int, state: Sequence[Val], params: Sequence[Val]) -> z3.BoolRef:
        """Each parameter within its domain ``lo <= v < hi`` (``hi`` may read the state)."""
        a = self.spec.actions[action]
        self._require_encodable(a.params, (p.domain.hi for p in a.params))
        sc = self._scope(state, {})
        parts = []
        for p, v in zip(a.params, self._lower_params(a, params)):
            hi = self._expr(p.domain.hi, sc)
            parts.append(T.and_([T.le(p.domain.lo, v), T.lt(v, hi)]))
        return _bool(T.and_(parts))

    def instances(self, action: int) -> list[tuple[int, ...]]:
        """Every parameter tuple within the domains' largest sizes (to split obligations)."""
        a = self.spec.actions[action]
        return list(itertools.product(*(range(p.domain.lo, p.domain.max_hi) for p in a.params)))

    # --- actions -----------------------------------------------------------------------
    def precondition_checked(self, action: int, j: int, state: Sequence[Val],
                             params: Sequence[Val]) -> Checked:
        """Precondition ``j`` of an action: its value and its error flag."""
        a = self.spec.actions[action]
        return self._memo(("pre", action, j), state, params, lambda: self._eval(
            a.preconditions[j].cond, state, self._param_names(a, params)))

    def precondition(self, action: int, j: int, state: Sequence[Val],
                     params: Sequence[Val]) -> z3.BoolRef:
        """Precondition ``j`` holds (and can be evaluated: an error counts as false)."""
        return self.precondition_checked(action, j, state, params).holds()

    def preconditions(self, action: int, state: Sequence[Val], params: Sequence[Val]
                      ) -> z3.BoolRef:
        """Every precondition of the action holds."""
        a = self.spec.actions[action]
        return _bool(T.and_([self.precondition(action, j, state, params)
                             for j in range(len(a.preconditions))]))

    def weight_checked(self, action: int, state: Sequence[Val], params: Sequence[Val]) -> Checked:
        """A chance outcome's weight (1 when the spec gives none)."""
        a = self.spec.actions[action]
        if a.weight is None:
            return Checked(z3.IntVal(1), z3.BoolVal(False))
        weight = a.weight
        return self._memo(("weight", action), state, params, lambda: self._eval(
            weight, state, self._param_names(a, params)))

    def legal(self, action: int, state: Sequence[Val], params: Sequence[Val]) -> z3.BoolRef:
        """The action instance is legal, exactly as ``Model.why_illegal`` returns no reason.

        Not over; a player's action at a player's turn, a chance outcome at a chance node;
        parameters within their domains; every precondition holds; a chance outcome has a
        positive weight. Anything that cannot be evaluated makes it illegal.
        """
        a = self.spec.actions[action]
        cp = self.current_player_checked(state)
        is_chance = cp.value == CHANCE
        parts = [z3.Not(cp.error), cp.value != TERMINAL,
                 is_chance if a.chance else z3.Not(is_chance),
                 self.param_domain(action, state, params),
                 self.preconditions(action, state, params)]
        if a.chance:
            w = self.weight_checked(action, state, params)
            parts += [z3.Not(w.error), w.value > 0]
        return z3.And(*parts)

    def apply_checked(self, action: int, state: Sequence[Val], params: Sequence[Val]) -> Checked:
        """The successor cells after the action's effects, and the effects' error flag."""
        a = self.spec.actions[action]
        self._require_encodable(a.effects, statement_exprs(a.effects))

        def compute() -> Checked:
            sc = self._scope(state, self._param_names(a, params))
            self._block(a.effects, sc)
            return Checked([T.term(v) for v in sc.state], _bool(T.or_(sc.errors)))
        return self._memo(("apply", action), state, params, compute)

    def run_concrete(self, action: int, values: Sequence[Any], params: Sequence[int]) -> None:
        """Run the action's effects on a concrete state (the Python backend's flat tuple)
        for what they report to :attr:`branch_seen`, building no term: the cells stay
        Python values, so every condition folds (what ``apply_checked`` on
        ``concrete_state(values)`` would see, at a fraction of its cost)."""
        a = self.spec.actions[action]
        self._require_encodable(a.effects, statement_exprs(a.effects))
        self._check_len(values)
        cells = [T.lower(v, b) for v, b in zip(values, self._is_bool)]
        self._block(a.effects, _Scope(cells, self._param_names(a, params), (), []))

    def apply(self, action: int, state: Sequence[Val], params: Sequence[Val]) -> list[z3.ExprRef]:
        """The successor cells (unspecified where ``apply_checked(...).error`` holds)."""
        return self.apply_checked(action, state, params).value

    def initial_checked(self, num_players: Val) -> Checked:
        """The state after setup for ``num_players`` players (an int or an Int term)."""
        values: list[Any] = self.layout.initial_vector()
        values[0] = num_players
        self._require_encodable(self.spec.setup, statement_exprs(self.spec.setup))
        sc = self._scope(values, {})
        self._block(self.spec.setup, sc)
        return Checked([T.term(v) for v in sc.state], _bool(T.or_(sc.errors)))

    def initial(self, num_players: Val) -> list[z3.ExprRef]:
        """The state after setup (see :meth:`initial_checked`)."""
        return self.initial_checked(num_players).value

    # --- flow, scoring and declared properties -------------------------------------------
    def terminal_checked(self, state: Sequence[Val]) -> Checked:
        """The terminal rule: its value and its error flag."""
        return self._eval(self.spec.terminal.expr, state, {})

    def terminal(self, state: Sequence[Val]) -> z3.BoolRef:
        """The game is over (value part; see :meth:`terminal_checked`)."""
        return self.terminal_checked(state).value

    def chance_node_checked(self, state: Sequence[Val]) -> Checked:
        """The chance-node rule (False when the game has none) and its error flag."""
        if self.spec.chance_node is None:
            return Checked(z3.BoolVal(False), z3.BoolVal(False))
        return self._eval(self.spec.chance_node.expr, state, {})

    def chance_node(self, state: Sequence[Val]) -> z3.BoolRef:
        """The chance-node rule's value (False when the game has none)."""
        return self.chance_node_checked(state).value

    def current_player_checked(self, state: Sequence[Val]) -> Checked:
        """As ``Model.current_player``: TERMINAL when over, CHANCE at a chance node, else
        the current-player rule (each evaluated only if the ones before are false)."""
        return self._memo(("current_player",), state, (), lambda: self._current_player(state))

    def _current_player(self, state: Sequence[Val]) -> Checked:
        rules = [self.spec.terminal.expr, self.spec.current_player.expr]
        if self.spec.chance_node is not None:
            rules.append(self.spec.chance_node.expr)
        self._require_encodable(self.spec.current_player, rules)
        sc = self._scope(state, {})
        term = self._expr(self.spec.terminal.expr, sc)
        inner = sc.under(T.not_(term))
        chance: Val = False
        if self.spec.chance_node is not None:
            chance = self._expr(self.spec.chance_node.expr, inner)
        cp = self._expr(self.spec.current_player.expr, inner.under(T.not_(chance)))
        v = T.ite(term, TERMINAL, T.ite(chance, CHANCE, cp))
        return Checked(T.term(v), _bool(T.or_(sc.errors)))

    def current_player(self, state: Sequence[Val]) -> z3.ArithRef:
        """The player to move, CHANCE (-1) or TERMINAL (-4), as ``Model.current_player``."""
        return self.current_player_checked(state).value

    def score_checked(self, state: Sequence[Val], player: Val) -> Checked:
        """A player's score and its error flag."""
        sc = self.spec.scoring
        return self._eval(sc.score, state, {sc.var.args[0]: T.lower(player, False)})

    def score(self, state: Sequence[Val], player: Val) -> z3.ArithRef:
        """Player ``player``'s score (meaningful for ``player < num_players``)."""
        return self.score_checked(state, player).value

    def tie_key_checked(self, k: int, state: Sequence[Val], player: Val) -> Checked:
        """Tie-break key ``k`` of a player and its error flag."""
        tb = self.spec.tie_breaks[k]
        return self._eval(tb.key, state, {tb.var.args[0]: T.lower(player, False)})

    def tie_key(self, k: int, state: Sequence[Val], player: Val) -> z3.ArithRef:
        """Tie-break key ``k`` of a player."""
        return self.tie_key_checked(k, state, player).value

    def invariant_checked(self, k: int, state: Sequence[Val]) -> Checked:
        """Declared invariant ``k`` and its error flag (``.holds()``: true and evaluable)."""
        return self._eval(self.spec.invariants[k].cond, state, {})

    def invariant(self, k: int, state: Sequence[Val]) -> z3.BoolRef:
        """Declared invariant ``k`` (value part; see :meth:`invariant_checked`)."""
        return self.invariant_checked(k, state).value

    def conserved_checked(self, k: int, state: Sequence[Val]) -> Checked:
        """Declared conserved total ``k`` and its error flag."""
        return self._eval(self.spec.conservation[k].total, state, {})

    def conserved(self, k: int, state: Sequence[Val]) -> z3.ArithRef:
        """Declared conserved total ``k``."""
        return self.conserved_checked(k, state).value

    def evaluate(self, e: Expr, state: Sequence[Val],
                 names: Mapping[str, Val] | None = None) -> Checked:
        """Any IR expression (a property) on ``state``; ``names`` binds its params/vars."""
        bound = {k: T.lower(v, isinstance(v, bool) or (isinstance(v, z3.ExprRef) and z3.is_bool(v)))
                 for k, v in (names or {}).items()}
        return self._eval(e, state, bound)

    # --- the compiler ------------------------------------------------------------------
    def _expr(self, e: Expr, sc: _Scope) -> Val:
        enc = SMT_TABLE.get(e.op)
        if enc is None:
            raise Unsupported(e.op)
        pure = self._pure
        if pure is None or e.op in _Pure.LEAVES:
            return enc(self, e, sc)
        read = tuple(sc.names.get(n, _Pure) for n in _Pure.names_read(e, self._read))
        key = (id(e), *(v if isinstance(v, (int, bool)) and not isinstance(v, z3.AstRef)
                        else id(v) for v in read))
        hit = pure.values.get(key)
        if hit is not None:
            return hit[0]
        raised = _Pure.raised
        v = enc(self, e, sc)
        if _Pure.raised == raised:
            pure.values[key] = (v, read)  # the names' values stay alive: their ids hold
        return v

    def _require_encodable(self, key: Any, exprs: Iterable[Expr]) -> None:
        """Raise :class:`Unsupported` for any operation without an encoding, before folding
        could skip it (a short-circuit on a concrete state must not hide it)."""
        if id(key) in self._checked:
            return
        for e in exprs:
            for node in walk(e):
                if node.op not in SMT_TABLE:
                    raise Unsupported(node.op)
        self._checked[id(key)] = key

    def _eval(self, e: Expr, state: Sequence[Val], names: dict[str, Val]) -> Checked:
        self._require_encodable(e, (e,))
        sc = self._scope(state, names)
        outer, self._pure = self._pure, _Pure()  # an expression changes no cell
        try:
            v = self._expr(e, sc)
        finally:
            self._pure = outer
        return Checked(T.term(v), _bool(T.or_(sc.errors)))

    def _lowered(self, state: Sequence[Val]) -> "_Lowered":
        """The state's cells as Vals, lowered once per state (the same cell objects as a
        recent query's: reuse its lowering and its memo)."""
        self._check_len(state)
        for k, low in enumerate(self._recent):
            if all(map(operator.is_, low.given, state)):
                if k:
                    self._recent.insert(0, self._recent.pop(k))
                return low
        low = _Lowered(tuple(state), tuple(T.lower(v, b) for v, b in zip(state, self._is_bool)))
        self._recent.insert(0, low)
        del self._recent[_RECENT_STATES:]
        return low

    def _scope(self, state: Sequence[Val], names: dict[str, Val]) -> _Scope:
        return _Scope(list(self._lowered(state).cells), dict(names), (), [])

    def _memo(self, key: tuple, state: Sequence[Val], params: Sequence[Val],
              compute: Callable[[], Checked]) -> Checked:
        """``compute()``, remembered for this state and these parameter objects (a legality
        query reuses the precondition terms an earlier query built)."""
        memo = self._lowered(state).memo
        sig = (*key, *((("v", v) if isinstance(v, int) else ("id", id(v))) for v in params))
        hit = memo.get(sig)
        if hit is None:
            hit = memo[sig] = (tuple(params), compute())  # keeps the params alive: ids hold
        c = hit[1]
        return Checked(list(c.value), c.error) if isinstance(c.value, list) else c

    def _check_len(self, state: Sequence[Any]) -> None:
        if len(state) != self.size:
            raise ValueError(f"a {self.spec.name} state has {self.size} cells, got {len(state)}")

    def _lower_params(self, a: Action, params: Sequence[Val]) -> list[Val]:
        if len(params) != len(a.params):
            raise ValueError(f"action {a.name} takes {len(a.params)} parameter(s), "
                             f"got {len(params)}")
        return [T.lower(v, False) for v in params]

    def _param_names(self, a: Action, params: Sequence[Val]) -> dict[str, Val]:
        return {p.name: v for p, v in zip(a.params, self._lower_params(a, params))}

    def _dims(self, e: Expr, sc: _Scope) -> tuple[int, list[list[tuple[Val, int]]]]:
        """For a field node: its offset and, per dimension, the (condition, offset) choices.

        A known index gives one choice; a symbolic one, every in-range value, and an error
        where it is out of range (checked per dimension, as Python's ``_ck`` does).
        """
        f: Field = e.args[0]
        slot = self.layout.slots[f.name]
        choices = []
        for d, stride, ix in zip(f.dims, slot.strides, e.args[1:]):
            v = self._expr(ix, sc)
            if T.known(v):
                if not 0 <= v < d.size:  # type: ignore[operator]
                    sc.fail(True)
                    v = min(max(v, 0), d.size - 1)  # type: ignore[type-var, call-overload]
                choices.append([(True, v * stride)])  # type: ignore[operator]
            else:
                sc.fail(T.or_([T.lt(v, 0), T.ge(v, d.size)]))
                choices.append([(T.eq(v, k), k * stride) for k in range(d.size)])
        return slot.offset, choices

    def _block(self, stmts: Iterable, sc: _Scope) -> None:
        """Run statements in order, updating ``sc.state`` in place."""
        for st in stmts:
            SMT_STATEMENTS[type(st)](self, st, sc)

    def _assign(self, st: Assign, sc: _Scope) -> None:
        base, choices = self._dims(st.target, sc)
        if any(len(c) > 1 for c in choices) and _reads_target(st):
            self._assign_each(st, base, choices, sc)
            return
        val = self._expr(st.value, sc)
        for combo in itertools.product(*choices):
            k = base + sum(off for _, off in combo)
            sc.state[k] = T.ite(T.and_([c for c, _ in combo]), val, sc.state[k])

    def _let(self, st: Let, sc: _Scope) -> None:
        sc.names[st.var.args[0]] = self._expr(st.value, sc)

    def _if(self, st: If, sc: _Scope) -> None:
        cond = self._expr(st.cond, sc)
        if self.branch_probe is not None and not T.known(cond):
            # dead-rule detection watches branches the state decides (a branch
            # fixed by the interpretation or a constant is not a rule's choice)
            self.branch_probe(st, _bool(T.and_(sc.guard)), _bool(cond))
        elif self.branch_seen is not None and T.known(cond):
            self.branch_seen(st, bool(cond))
        self._branch(cond, st.then, st.otherwise, sc)

    def _for_each(self, st: ForEach, sc: _Scope) -> None:
        d: Domain = st.domain
        hi = self._expr(d.hi, sc)  # evaluated once, as range() does
        for v in range(d.lo, d.max_hi):
            inside = T.lt(v, hi)
            if T.known(inside) and not inside:
                break
            self._branch(inside, st.body, (), sc.bind(st.var.args[0], v))

    def _assign_each(self, st: Assign, base: int, choices: list, sc: _Scope) -> None:
        """``x[i] := f(x[i])`` with ``i`` symbolic: cell ``k`` becomes ``f(cell k)`` where
        ``i`` is ``k`` -- what Python reads there -- instead of ``f`` of a read over every
        cell. Small terms, and a count that moves one unit stays visibly balanced. Every
        value is computed on the state before the assignment, each under its condition
        (so an error it raises is flagged only where that cell is the one written)."""
        new = []
        for combo in itertools.product(*choices):
            cond = T.and_([c for c, _ in combo])
            if T.known(cond) and not cond:
                continue
            k = base + sum(off for _, off in combo)
            self._pinned = (st.target, k)
            try:
                new.append((k, cond, self._expr(st.value, sc.under(cond))))
            finally:
                self._pinned = None
        for k, cond, val in new:
            sc.state[k] = T.ite(cond, val, sc.state[k])

    def _branch(self, cond: Val, then: tuple, otherwise: tuple, sc: _Scope) -> None:
        """``if cond: then else: otherwise``, merging the two successor states cell by cell."""
        if T.known(cond):
            self._block(then if cond else otherwise, sc.block())
            return
        a, b = sc.fork(cond), sc.fork(T.not_(cond))
        self._block(then, a)
        self._block(otherwise, b)
        for k, (x, y) in enumerate(zip(a.state, b.state)):
            if x is not y:
                sc.state[k] = T.ite(cond, x, y)


#: every statement kind's encoding (a test holds it to ``STATEMENTS`` and the other tables)
SMT_STATEMENTS: dict[type, Callable[[SmtGame, Any, _Scope], None]] = {
    Assign: SmtGame._assign, Let: SmtGame._let, If: SmtGame._if, ForEach: SmtGame._for_each,
}


def compile_smt(spec: GameSpec, interpretation: Mapping[str, str] | None = None) -> SmtGame:
    """The Z3 encoding of ``spec`` under ``interpretation`` (missing points: their default).

    Raises ValueError for an unknown interpretation point or option. Nothing is encoded
    yet: each method builds its terms on demand, so an :class:`Unsupported` operation only
    fails the queries that need it.
    """
    chosen = {p.name: p.default for p in spec.interpretations}
    for k, v in (interpretation or {}).items():
        if k not in chosen:
            raise ValueError(f"{spec.name} has no interpretation point {k!r}")
        if v not in spec.interpretation(k).options:
            raise ValueError(f"interpretation {k} has no option {v!r}")
        chosen[k] = v
    return SmtGame(spec, chosen)
