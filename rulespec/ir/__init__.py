"""The expression IR: nodes, builders, walkers and the English printer."""

from .errors import SpecError
from .location import Location
from .nodes import (BOOL, INT, OPERATIONS, Dim, Domain, Enum, Expr, Field, Labels, Type, abs_, all_of,
                    any_of, const, count, domain_of, exists, forall, if_, implies, lookup, lift, max_,
                    min_, not_, sum_of, to_int)
from .statements import Assign, ForEach, If, Let

__all__ = [
    "BOOL", "INT", "OPERATIONS", "Assign", "Dim", "Domain", "Enum", "Expr", "Field", "ForEach",
    "If", "Labels", "Let", "Location", "SpecError", "Type", "abs_", "all_of", "any_of", "const", "count",
    "domain_of", "exists", "forall", "if_", "implies", "lookup", "lift", "max_", "min_", "not_", "sum_of",
    "to_int",
]
