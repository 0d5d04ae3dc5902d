"""The Cave Troll PettingZoo environment (its documentation page: :data:`mk_env.cave_troll.env.env_doc.PAGE`,
set as this module's docstring below).

The AEC cycle, the safety wrappers, the observation styles, the reward schemes, the illegal-action handling
and pickling are the suite's (:class:`mk_env.core.env.aec.GameEnv`): :class:`raw_env` names the Cave Troll
engine, observer and rendering.
"""

from __future__ import annotations

from typing import Any

from pettingzoo import AECEnv

from mk_env.cave_troll.rules import Game, Phase
from mk_env.core.env.aec import GameEnv, wrapped_env

from .env_doc import PAGE
from .observation import CaveTrollObserver
from .version import ENV_NAME

__doc__ = PAGE  # the documentation page (PettingZoo's convention), kept in env_doc.py

RENDER_MODES = ("ansi", "rgb_array")


def env(num_players: int = 4, render_mode: str | None = None, **kwargs: Any) -> AECEnv:
    """The environment with PettingZoo's usual safety wrappers (the suite's): an illegal action ends
    the game with the offending agent losing (reward -1, others 0, ``infos[agent]["illegal_action"]`` says
    why; the first time, a warning). ``kwargs``: those of :class:`raw_env`."""
    return wrapped_env(raw_env, num_players, render_mode, **kwargs)


class raw_env(GameEnv):  # noqa: N801 - PettingZoo's naming convention
    """*Cave Troll* as a PettingZoo AEC environment (see the module docstring).

    ``strict=True`` (the default of ``raw_env``): an illegal action raises the engine's
    :class:`~mk_env.core.errors.IllegalActionError` (what was chosen, why it is illegal, what is allowed) and
    changes nothing. ``strict=False``: the offending agent loses as in :func:`env`. ``observation``:
    ``"dict"`` (default), ``"flat"`` or ``"rllib"``. ``pack``: a content pack (None: the default). The
    game itself is ``game_state`` (a :class:`~mk_env.cave_troll.rules.CaveTrollState`); ``state()`` is
    PettingZoo's global state.
    """

    metadata = {"name": ENV_NAME, "render_modes": list(RENDER_MODES), "is_parallelizable": False,
                "render_fps": 1}
    game_class = Game
    observer_class = CaveTrollObserver
    game_over_phase = int(Phase.GAME_OVER)
    rendering_module = "mk_env.cave_troll.env.render"


__all__ = ["RENDER_MODES", "env", "raw_env"]
