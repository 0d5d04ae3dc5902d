"""The rules engine of *In the Hall of the Mountain King*: pure Python + numpy, no RL imports.

>>> from mk_env.mountain_king.rules import Game
>>> state = Game(num_players=2).new_initial_state(seed=1)
"""

from .content import CLANS, MINERALS, RESOURCES, TOKEN_KINDS, ContentPack
from .game import ConfigError, Game, StateError
from .pack import PackError, load_pack
from .scoring import CATEGORIES
from .state import GameState
from .errors import ActionTypeError, IllegalActionError, StalledGameError, action_number
from .vocabulary import PHASE_NAMES, Block, Pending, Phase, SquareKind

__all__ = [
    "CATEGORIES", "CLANS", "MINERALS", "PHASE_NAMES", "RESOURCES", "TOKEN_KINDS", "ActionTypeError", "Block",
    "ConfigError", "ContentPack", "Game", "GameState", "IllegalActionError", "PackError", "Pending", "Phase",
    "SquareKind", "StalledGameError", "StateError", "action_number", "load_pack",
]
