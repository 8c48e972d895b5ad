"""Play compiled games: the Model API, states, actions and the game registry."""

from ..compile.python_backend import CHANCE, TERMINAL, RuleError
from .model import Action, IllegalAction, Model, Reason, State
from .registry import available_games, load, load_spec

__all__ = ["CHANCE", "TERMINAL", "Action", "IllegalAction", "Model", "Reason", "RuleError",
           "State", "available_games", "load", "load_spec"]
