"""What one player sees of a state: generated once per spec, like the rest of the Python
backend.

Each field says who sees it (``game.field(..., visible=...)``): every player, its owner
(the player of the first index), nobody, or a condition per cell. The generated
``observe(s, p)`` returns the flat state with every cell ``p`` does not see replaced by
``None``, so two states look the same to ``p`` exactly when their observations are equal.
"""

from __future__ import annotations

import itertools
from typing import Any, Callable

from ..ir.nodes import Field
from ..spec.elements import GameSpec
from .layout import Layout
from .python_expressions import HELPERS, _ck, _Ctx, _Emitter


def _cell_code(em: _Emitter, f: Field, k: int, index: tuple[int, ...], ctx: _Ctx) -> str:
    cell = f"s[{k}]"
    if f.visible == "all":
        return cell
    if f.visible == "nobody":
        return "None"
    if f.visible == "owner":
        return f"({cell} if p == {index[0]} else None)"
    cond = em.expr(f.visible[_flat(f, index)], ctx)
    return f"({cell} if {cond} else None)"


def _flat(f: Field, index: tuple[int, ...]) -> int:
    k = 0
    for d, i in zip(f.dims, index):
        k = k * d.size + i
    return k


def compile_observation(spec: GameSpec, interpretation: dict[str, str]
                        ) -> Callable[[tuple, int], tuple]:
    """``observe(values, player)``: the flat state as ``player`` sees it (hidden: None)."""
    layout = Layout.of(spec)
    interp = {p.name: p.enum.index_of(interpretation[p.name]) for p in spec.interpretations}
    em = _Emitter(spec, layout, interp)
    parts = []
    for name, slot in layout.slots.items():
        f = slot.field
        ctx = _Ctx(interp, {f.observer.args[0]: "p"} if f.observer is not None else {})
        for k, index in enumerate(itertools.product(*(range(d.size) for d in f.dims))):
            parts.append(_cell_code(em, f, slot.offset + k, index, ctx))
    returned = "    return (" + "".join(f"{c}, " for c in parts) + ")"
    source = "\n".join(em.table_lines() + ["def observe(s, p):", returned]) + "\n"
    ns: dict[str, Any] = {"_ck": _ck, **HELPERS}
    exec(compile(source, f"<rulespec:{spec.name}:observation>", "exec"), ns)  # noqa: S102
    return ns["observe"]
