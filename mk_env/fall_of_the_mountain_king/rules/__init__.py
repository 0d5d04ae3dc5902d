"""The rules engine of *Fall of the Mountain King*: pure Python + numpy, no RL imports; the suite's engine
protocol (:mod:`mk_env.core.protocol`) and errors (:mod:`mk_env.core.errors`).

>>> from mk_env.fall_of_the_mountain_king.rules import Game
>>> state = Game(num_players=3).new_initial_state(seed=1)
"""

from mk_env.core.errors import ActionTypeError, ConfigError, IllegalActionError, PackError, StateError

from .content import Card, Champion, FallPack, MapSide, Rules, Wheel
from .game import PLAYERS, Game
from .pack import load_pack
from .state import FallState
from .vocabulary import CATEGORIES, PHASE_NAMES, Ability, Block, Phase, Space, Symbol

__all__ = [
    "CATEGORIES", "PHASE_NAMES", "PLAYERS", "Ability", "ActionTypeError", "Block", "Card", "Champion",
    "ConfigError", "FallPack", "FallState", "Game", "IllegalActionError", "MapSide", "PackError", "Phase", "Rules",
    "Space", "StateError", "Symbol", "Wheel", "load_pack",
]
