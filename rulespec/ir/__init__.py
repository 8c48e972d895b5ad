"""The expression IR: nodes, builders, walkers and the English printer."""

from .assumed import Assumed, derived
from .closure import Graph, component_size, connected, largest_component
from .errors import SpecError
from .location import Location
from .nodes import (BOOL, INT, OPERATIONS, Absent, Dim, Domain, Enum, Expr, Field, Labels,
                    Table, Type, abs_, all_of, any_of, called, const, count, domain_of, exists,
                    forall, if_, implies, let_, lookup, lift, max_, min_, not_, ordinal, sum_of,
                    to_int)
from .statements import Assign, ForEach, If, Let

__all__ = [
    "BOOL", "INT", "OPERATIONS", "Absent", "Assign", "Assumed", "derived",
    "Dim", "Domain", "Enum", "Expr", "Field", "ForEach",
    "Graph", "called", "If", "Labels", "Let", "Location", "SpecError", "Table", "Type", "abs_",
    "all_of", "any_of",
    "component_size", "connected", "const", "count", "domain_of", "exists", "forall", "if_",
    "implies", "largest_component", "let_", "lookup", "lift", "max_", "min_", "not_", "ordinal",
    "sum_of", "to_int",
]
