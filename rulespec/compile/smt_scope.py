"""What the Z3 backend's encoders share: a value with its error condition (:class:`Checked`),
the scope an expression or block is encoded in (:class:`_Scope`), the memo of one
side-effect-free evaluation (:class:`_Pure`), and the operation no encoding covers
(:class:`Unsupported`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Sequence

import attrs
import z3

from ..ir.nodes import Expr, Field
from ..ir.statements import Assign
from ..ir.walk import walk
from . import smt_terms as T
from .smt_terms import Val

if TYPE_CHECKING:
    from .smt_backend import SmtGame


class Unsupported(Exception):
    """The Z3 backend cannot encode an operation: a property needing it is SKIPPED.

    >>> str(Unsupported("longest_path"))
    "operation 'longest_path' has no Z3 encoding"
    """

    def __init__(self, operation: str, reason: str = "has no Z3 encoding") -> None:
        self.operation = operation
        self.reason = reason
        super().__init__(f"operation {operation!r} {reason}")


@attrs.frozen
class Checked:
    """A value with the condition under which the Python backend would raise instead.

    ``value`` is a Z3 term (or, for an effect, the list of successor cells); it is
    unspecified where ``error`` holds.
    """

    value: Any
    error: z3.BoolRef

    def holds(self) -> z3.BoolRef:
        """For a Bool value: it can be evaluated and it is true."""
        return z3.And(z3.Not(self.error), self.value)


class _Scope:
    """What an expression or a block sees: the current cells, names in scope, the path
    condition (a tuple of conjuncts) and the shared list of error conditions."""

    __slots__ = ("state", "names", "guard", "errors")

    def __init__(self, state: list[Val], names: dict[str, Val], guard: tuple[Val, ...],
                 errors: list[Val]) -> None:
        self.state = state
        self.names = names
        self.guard = guard
        self.errors = errors

    def under(self, cond: Val) -> "_Scope":
        """The same scope, reached only where ``cond`` holds (Python's short-circuit)."""
        if T.known(cond) and cond:
            return self
        return _Scope(self.state, self.names, self.guard + (cond,), self.errors)

    def bind(self, name: str, v: Val) -> "_Scope":
        names = dict(self.names)
        names[name] = v
        return _Scope(self.state, names, self.guard, self.errors)

    def block(self) -> "_Scope":
        """A nested block: same cells (updated in place), its own names."""
        return _Scope(self.state, dict(self.names), self.guard, self.errors)

    def fork(self, cond: Val) -> "_Scope":
        """A branch taken where ``cond`` holds, on a copy of the cells."""
        return _Scope(list(self.state), dict(self.names), self.guard + (cond,), self.errors)

    def fail(self, cond: Val) -> None:
        """Python raises here where ``cond`` holds (and this point is reached)."""
        if T.known(cond) and not cond:
            return
        _Pure.raised += 1
        g = T.and_((*self.guard, cond))
        if T.known(g) and not g:
            return
        self.errors.append(g)


class _Pure:
    """What one side-effect-free evaluation (:meth:`SmtGame._eval`) already built: an
    expression node's value by the values of the names it reads. The body of a binder is
    evaluated once per value of its variable, and a part of it that does not read the
    variable (the card's shape, looked up for every cell a placement may cover) would be
    built again each time: the same terms, in Python, over and over.

    Only a value whose evaluation could raise nowhere is kept (``raised`` did not move):
    its error conditions would depend on the path to it, the value never does."""

    raised = 0  # fail() calls with a condition not known to be false, ever (a counter)
    #: operations cheaper to evaluate than to look up
    LEAVES = frozenset({"const", "param", "var", "num_players", "interp"})

    def __init__(self) -> None:
        self.values: dict[tuple, tuple[Val, tuple]] = {}
        #: a field read by its indices: the cell's value, and the indices kept alive
        self.reads: dict[tuple, tuple[Val, list[Val]]] = {}
        #: (symbolic index, size): the index out of range, and the index kept alive
        self.outside: dict[tuple[int, int], tuple[Val, Val]] = {}

    def read(self, g: "SmtGame", e: Expr, sc: _Scope) -> Val:
        """A field read with indices, as :meth:`SmtGame._dims` and :func:`_select` build
        it (the same terms, the same error conditions in the same order), each cell's
        term built once: a placement rule reads each village cell once per position and
        side of the card that covers it."""
        f: Field = e.args[0]
        slot = g.layout.slots[f.name]
        ixs = []
        for d, ix in zip(f.dims, e.args[1:]):
            v = g._expr(ix, sc)
            if T.known(v):
                if not 0 <= v < d.size:  # type: ignore[operator]
                    sc.fail(True)
                    v = min(max(v, 0), d.size - 1)  # type: ignore[type-var, call-overload]
            else:
                got = self.outside.get((id(v), d.size))
                if got is None:
                    got = self.outside[(id(v), d.size)] = (
                        T.or_([T.lt(v, 0), T.ge(v, d.size)]), v)
                sc.fail(got[0])
            ixs.append(v)
        key = (f.name, *(v if T.known(v) else ("t", id(v)) for v in ixs))
        hit = self.reads.get(key)
        if hit is None:
            choices = [[(True, v * stride)] if T.known(v)  # type: ignore[operator]
                       else [(T.eq(v, k), k * stride) for k in range(d.size)]
                       for d, stride, v in zip(f.dims, slot.strides, ixs)]
            hit = self.reads[key] = (_select(sc.state, choices, slot.offset), ixs)
        return hit[0]

    @staticmethod
    def names_read(e: Expr, cache: dict[int, tuple[Expr, tuple[str, ...]]]) -> tuple[str, ...]:
        """Every name a ``var`` or ``param`` node under ``e`` reads (bound below or not:
        more names than needed only costs hits)."""
        got = cache.get(id(e))
        if got is None:
            names = sorted({n.args[0] for n in walk(e) if n.op in ("var", "param")})
            got = cache[id(e)] = (e, tuple(names))  # keeps e alive: its id stays its own
        return got[1]


def _select(state: Sequence[Val], dims: list[list[tuple[Val, int]]], off: int) -> Val:
    """The cell the (condition, offset) choices of each dimension pick, from ``off``."""
    if not dims:
        return state[off]
    options = [(c, _select(state, dims[1:], off + o)) for c, o in dims[0]]
    acc = options[-1][1]  # also what a bad index reads (unspecified; flagged)
    for c, v in reversed(options[:-1]):
        acc = T.ite(c, v, acc)
    return acc


def _within(f: Field, cell: Val) -> Val:
    """One int cell within its field's bounds (a count without a cap: its lower bound)."""
    v = T.lower(cell, False)
    return T.le(f.lo, v) if f.hi is None else T.and_([T.le(f.lo, v), T.le(v, f.hi)])


def _bool(v: Val) -> z3.BoolRef:
    return T.term(v)  # type: ignore[return-value]


def _reads_target(st: Assign) -> bool:
    """The assigned value reads the target cell itself (``x[i] += 1``)."""
    return any(n is st.target for n in walk(st.value))
