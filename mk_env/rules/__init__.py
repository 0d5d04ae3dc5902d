"""The rules engine of *In the Hall of the Mountain King*: pure Python + numpy, no RL imports.

>>> from mk_env.rules import Game
>>> state = Game(num_players=2).new_initial_state(seed=1)
"""

from .content import CLANS, MINERALS, RESOURCES, TOKEN_KINDS, ContentPack
from .game import ConfigError, Game, StateError
from .pack import PackError, load_pack
from .scoring import CATEGORIES
from .state import GameState
from .turn import PHASE_NAMES, IllegalActionError, StalledGameError

__all__ = [
    "CATEGORIES", "CLANS", "MINERALS", "PHASE_NAMES", "RESOURCES", "TOKEN_KINDS", "ConfigError",
    "ContentPack", "Game", "GameState", "IllegalActionError", "PackError", "StalledGameError", "StateError",
    "load_pack",
]
