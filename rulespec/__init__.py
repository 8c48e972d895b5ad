"""rulespec: write a board game's rules once, as a spec that cites the rulebook; play it,
test it with Hypothesis and prove things about it with Z3.

>>> import rulespec
>>> game = rulespec.load("tic_tac_toe")
>>> state = game.initial_state()
>>> [str(a) for a in game.legal_actions(state)][:3]
['mark(0,0)', 'mark(0,1)', 'mark(0,2)']
"""

from .ir.errors import SpecError
from .runtime import (CHANCE, TERMINAL, Action, IllegalAction, Model, State, available_games,
                      load, load_spec)

__version__ = "0.1.0"


def __getattr__(name: str) -> object:
    """``rulespec.openspiel`` on first use (it needs the optional OpenSpiel only then)."""
    if name == "openspiel":
        import importlib
        return importlib.import_module(".openspiel", __name__)
    raise AttributeError(f"module 'rulespec' has no attribute {name!r}")

__all__ = ["CHANCE", "TERMINAL", "Action", "IllegalAction", "Model", "SpecError", "State",
           "available_games", "load", "load_spec", "__version__"]
