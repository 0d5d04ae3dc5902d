"""The rules engine of *Cave Troll*: pure Python + numpy, no RL imports; the suite's engine protocol
(:mod:`mk_env.core.protocol`: ``Game(num_players, pack=None).new_initial_state(seed)``, ``current_player``,
``legal_actions``, ``apply``, ``clone``, ``determinize``, ``to_json`` / ``state_from_json``, ``returns``) and
the suite's errors (:mod:`mk_env.core.errors`).

>>> from mk_env.cave_troll.rules import Game
>>> state = Game(num_players=3).new_initial_state(seed=1)
"""

from mk_env.core.errors import ActionTypeError, ConfigError, IllegalActionError, PackError, StateError

from .content import ArtifactSpec, CaveTrollPack, Lair, Rules
from .fields import CATEGORIES
from .game import PLAYERS, Game
from .invariants import InvariantError
from .pack import load_pack
from .state import CaveTrollState
from .vocabulary import PHASE_NAMES, Artifact, Block, Kind, Pending, Phase

__all__ = [
    "CATEGORIES", "PHASE_NAMES", "PLAYERS", "ActionTypeError", "Artifact", "ArtifactSpec", "Block", "CaveTrollPack",
    "CaveTrollState", "ConfigError", "Game", "IllegalActionError", "InvariantError", "Kind", "Lair", "PackError",
    "Pending", "Phase", "Rules", "StateError", "load_pack",
]
