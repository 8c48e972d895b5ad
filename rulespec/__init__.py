"""rulespec: write a board game's rules once, as a spec that cites the rulebook; play it,
test it with Hypothesis and prove things about it with Z3.

>>> import rulespec
>>> game = rulespec.load("tic_tac_toe")
>>> state = game.initial_state()
>>> [str(a) for a in game.legal_actions(state)][:3]
['mark(0,0)', 'mark(0,1)', 'mark(0,2)']

The names below are imported on first use, so that ``rulespec`` (the command) can set up
its Ctrl-C handling before the compiler, Z3 and Hypothesis are loaded.
"""

from __future__ import annotations

import importlib
from typing import Any

__version__ = "0.1.0"

_LAZY = {"SpecError": ".ir.errors", "CHANCE": ".runtime", "TERMINAL": ".runtime",
         "Action": ".runtime", "IllegalAction": ".runtime", "Model": ".runtime",
         "State": ".runtime", "available_games": ".runtime", "load": ".runtime",
         "load_spec": ".runtime"}


def __getattr__(name: str) -> Any:
    """The public names on first use; ``rulespec.openspiel`` needs the optional OpenSpiel
    only then."""
    if name == "openspiel":
        return importlib.import_module(".openspiel", __name__)
    if name in _LAZY:
        value = getattr(importlib.import_module(_LAZY[name], __name__), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'rulespec' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted([*globals(), *_LAZY, "openspiel"])


__all__ = ["CHANCE", "TERMINAL", "Action", "IllegalAction", "Model", "SpecError", "State",
           "available_games", "load", "load_spec", "__version__"]
