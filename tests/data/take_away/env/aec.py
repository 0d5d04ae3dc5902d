"""The Take-away PettingZoo environment: the suite's AEC cycle (:class:`mk_env.core.env.aec.GameEnv`) naming the
Take-away engine, observer and rendering."""

from __future__ import annotations

from typing import Any

from mk_env.core.env.aec import GameEnv, wrapped_env

from ..rules import Game, Phase
from .observation import TakeAwayObserver
from .version import ENV_NAME


def env(num_players: int = 2, render_mode: str | None = None, **kwargs: Any):
    """The environment under the suite's safety wrappers (an illegal action loses the game)."""
    return wrapped_env(raw_env, num_players, render_mode, **kwargs)


class raw_env(GameEnv):  # noqa: N801 - PettingZoo's naming convention
    """*Take-away* as a PettingZoo AEC environment."""

    metadata = {"name": ENV_NAME, "render_modes": ["ansi", "rgb_array"], "is_parallelizable": False,
                "render_fps": 1}
    game_class = Game
    observer_class = TakeAwayObserver
    game_over_phase = int(Phase.GAME_OVER)
    rendering_module = "take_away.env.render"
