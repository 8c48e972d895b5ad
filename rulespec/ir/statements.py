"""Effects: assignments, conditionals and loops over finite domains, run in order.

Each statement sees the state as the statements before it left it (sequential semantics),
in every backend.
"""

from __future__ import annotations

import attrs

from .location import Location
from .nodes import Domain, Expr


@attrs.frozen(eq=False)
class Assign:
    """``target := value``; ``target`` is a field node (``op == 'field'``)."""

    target: Expr
    value: Expr
    where: Location | None = None
    source: str | None = None


@attrs.frozen(eq=False)
class If:
    """Run ``then`` when ``cond`` holds, else ``otherwise``. ``name`` is the spec's name for
    the rule the ``then`` side states (reports and dead-rule verdicts use it)."""

    cond: Expr
    then: tuple
    otherwise: tuple = ()
    where: Location | None = None
    source: str | None = None
    name: str | None = None
    #: the source of the ``otherwise`` side, when the text gives it its own
    #: (``with rule.otherwise(source=...)``); without one it is ``source``'s
    otherwise_source: str | None = None

    @property
    def else_source(self) -> str | None:
        """What the ``otherwise`` side cites."""
        return self.otherwise_source or self.source


@attrs.frozen(eq=False)
class ForEach:
    """Run ``body`` once for each value of ``var`` in ``domain``, in increasing order."""

    var: Expr
    domain: Domain
    body: tuple
    where: Location | None = None
    source: str | None = None


@attrs.frozen(eq=False)
class Let:
    """Name ``value`` (evaluated now) as ``var`` for the statements after it in its block."""

    var: Expr
    value: Expr
    where: Location | None = None
    source: str | None = None


Statement = Assign | If | ForEach | Let
#: every kind of statement; each backend's statement table covers exactly these, as its
#: expression table covers ``OPERATIONS``
STATEMENTS = frozenset({Assign, If, ForEach, Let})
