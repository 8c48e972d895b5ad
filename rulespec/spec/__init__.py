"""Write a game's rules: the builder, the frozen spec records and static validation.

A spec module imports only this package (and the IR builders it re-exports)::

    from rulespec.spec import Game, PLAYERS, all_of, any_of, exists, ...
"""

from ..ir import (Absent, Graph, SpecError, Table, abs_, all_of, any_of, called, component_size,
                  connected, const, count, derived, exists, forall, if_, implies,
                  largest_component, let_, lookup, max_, min_, not_, ordinal, sum_of, to_int)
from . import view
from .builder import PLAYERS, Game, Option, RuleBuilder, option
from .cite import Citation, Text
from .rank import count_most, fewest, highest, lowest, most, rank
from .elements import (Action, Assumption, Conservation, Constant, GameSpec, Interpretation,
                       Invariant, Param, Precondition, Rule, Ruleset, Scoring, TieBreak,
                       proof_aids)

__all__ = [
    "PLAYERS", "Absent", "Action", "Assumption", "Citation", "Conservation", "Constant", "Game",
    "GameSpec",
    "Graph", "Text", "count_most", "fewest", "highest", "lowest", "most", "rank",
    "Interpretation", "Invariant", "Option", "Param", "option", "view", "Precondition", "Rule",
    "RuleBuilder", "Ruleset", "Scoring", "SpecError", "Table", "TieBreak", "abs_", "all_of",
    "called",
    "any_of",
    "component_size", "connected", "const", "count", "derived", "exists", "forall", "if_",
    "implies", "largest_component", "let_", "lookup", "max_", "min_", "not_", "ordinal", "sum_of",
    "to_int",
    "proof_aids",
]
