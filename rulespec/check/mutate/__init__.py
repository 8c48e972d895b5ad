"""``rulespec mutate``: which rules does nothing pin? Mutation testing of specs, in rule
terms (docs/mutation.md).

>>> report = mutate_game("tic_tac_toe", only=["drop_precondition@44:4"])
>>> [(r.status, r.by, r.killer) for r in report.results]
[('KILLED', 'scenario', "scenario 'marking an occupied cell is refused' (rules.toml:139)")]
"""

from .judge import BUDGETS, EQUIVALENT, KILLED, SURVIVED, BaselineError, MutantResult
from .operators import GROUPS, OPERATORS, Mutant, mutants, select_operators
from .run import FORMAT, MutationReport, mutate_game

__all__ = ["BUDGETS", "EQUIVALENT", "FORMAT", "GROUPS", "KILLED", "OPERATORS", "SURVIVED",
           "BaselineError", "Mutant", "MutantResult", "MutationReport", "mutate_game",
           "mutants", "select_operators"]
