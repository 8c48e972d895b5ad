"""What a view shows of a state: its expressions compiled once, read on a state, and each
value as a person reads it. The SVG and the text renderer both draw from this.

A spec without a view gets one derived from its fields (:func:`default_view`).
"""

from __future__ import annotations

from typing import Any, Sequence

from ..compile.python_backend import compile_values
from ..ir.intervals import interval
from ..ir.nodes import BOOL, Expr, Field, lift
from ..spec.elements import GameSpec
from ..spec.view import View


class ViewValues:
    """A game's view with its expressions compiled: ``read(values)`` evaluates them all on
    a state's flat tuple of cells; ``of(e)`` and ``shown(e)`` then give one of them."""

    def __init__(self, spec: GameSpec, interpretation: dict[str, str]) -> None:
        self.spec = spec
        self.view: View = spec.view or default_view(spec)
        exprs = self.view.exprs()
        self._index = {id(e): k for k, e in enumerate(exprs)}
        self._fns = compile_values(spec, dict(interpretation), exprs)
        self._values: tuple = ()

    def read(self, cells: tuple) -> None:
        """Evaluate every expression of the view on a state's cells."""
        out = []
        for fn in self._fns:
            try:
                out.append(fn(cells))
            except Exception:  # noqa: BLE001 - an unreadable cell is drawn as unknown
                out.append(None)
        self._values = tuple(out)

    def index(self, e: Expr) -> int:
        """The number of a view expression, in the view's order."""
        return self._index[id(e)]

    def all(self) -> tuple:
        """Every expression's value on the state last read, by number (None: unreadable)."""
        return self._values

    def of(self, e: Expr) -> Any:
        """The value of ``e`` on the state last read."""
        return self._values[self._index[id(e)]]

    def shown(self, e: Expr, v: Any = ...) -> str:
        """A value as text: an enum member's name, yes / no, a number; "?" if unreadable."""
        v = self.of(e) if v is ... else v
        return shown(e, v)

    def widest(self, e: Expr) -> list[str]:
        """Every text ``e`` may show (an enum's members, yes / no, the ends of its range),
        so that a box sized for them fits every state alike."""
        if e.type.enum is not None:
            return list(e.type.enum.members)
        if e.type == BOOL:
            return ["yes", "no"]
        span = interval(e, self.spec.max_players)
        if span is None or max(abs(span[0]), abs(span[1])) >= 10 ** 6:
            return ["0000"]
        return [str(span[0]), str(span[1])]


def shown(e: Expr, v: Any) -> str:
    if v is None:
        return "?"
    if e.type.enum is not None:
        return e.type.enum.name_of(v)
    if e.type == BOOL:
        return "yes" if v else "no"
    return str(v)


# --- a view for a spec that declares none ------------------------------------------------
def default_view(spec: GameSpec) -> View:
    """A plain view from the fields: scalars as counters, per-player arrays as counters per
    player, one-dimensional arrays as slots and two-dimensional ones as grids."""
    from ..spec import view as v
    n = spec.max_players
    parts: list[Any] = []
    scalars = {f.name: lift(f) for f in spec.fields if not f.dims and f.name != "num_players"}
    if scalars:
        parts += v.counters("State", scalars).parts(n)
    per_player = [f for f in spec.fields if len(f.dims) == 1 and f.dims[0].players]
    if per_player:
        parts += v.counters("Each player", {f.name: (lambda p, f=f: f[p]) for f in per_player},
                            player=True).parts(n)
    for f in spec.fields:
        if len(f.dims) == 1 and not f.dims[0].players and f.dims[0].size <= 16:
            parts += v.slots(f.name, count=f.dims[0].size, value=lambda i, f=f: f[_index(f, 0, i)],
                             labels=_labels(f, 0)).parts(n)
        elif len(f.dims) == 2 and not any(d.players for d in f.dims) and f.size <= 400:
            parts += v.grid(f.name, rows=f.dims[0].size, cols=f.dims[1].size,
                            cell=lambda r, c, f=f: f[_index(f, 0, r), _index(f, 1, c)],
                            row_labels=_labels(f, 0), col_labels=_labels(f, 1)).parts(n)
    return View(tuple(parts))


def _index(f: Field, dim: int, i: int) -> Any:
    d = f.dims[dim]
    return d.enum[d.enum.members[i]] if d.enum is not None else i


def _labels(f: Field, dim: int) -> Sequence[str]:
    d = f.dims[dim]
    return list(d.enum.members) if d.enum is not None else [str(i) for i in range(d.size)]
