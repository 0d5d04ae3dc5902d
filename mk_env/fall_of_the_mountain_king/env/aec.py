"""The Fall of the Mountain King PettingZoo environment (its documentation page:
docs/fall-of-the-mountain-king/environment.md).

The AEC cycle, the safety wrappers, the observation styles (``"dict"``, ``"flat"``, ``"rllib"``), the
illegal-action handling, the reward schemes, the end of a game (final infos: ``score_breakdown``, ``rank``,
``illegal_actions``) and pickling are the suite's (:class:`mk_env.core.env.aec.GameEnv`): :class:`raw_env`
names the Fall of the Mountain King engine, observer and rendering.
One agent per seat, ``player_0`` .. ``player_{n-1}``; ``agent_selection`` is the seat deciding now, which is
not always the seat whose battle turn it is (a tie in an invasion's route is the clan's vote leader's, a
falling troll its owner's, vote or honor each non-victor's). Observations:
:class:`~mk_env.fall_of_the_mountain_king.env.observation.FallObserver`; actions: one flat ``Discrete`` space
laid out in named blocks (``game.layout``), with an exact mask.
"""

from __future__ import annotations

from typing import Any

from pettingzoo import AECEnv

from mk_env.core.env.aec import GameEnv, wrapped_env
from mk_env.fall_of_the_mountain_king.rules import Game, Phase

from .observation import FallObserver
from .version import ENV_NAME

RENDER_MODES = ("ansi", "rgb_array")


def env(num_players: int = 4, render_mode: str | None = None, **kwargs: Any) -> AECEnv:
    """The environment with PettingZoo's usual safety wrappers (the suite's): an illegal action ends the game
    with the offending agent losing (reward -1, others 0, ``infos[agent]["illegal_action"]`` says why; the first
    time, a warning). ``kwargs``: those of :class:`raw_env`."""
    return wrapped_env(raw_env, num_players, render_mode, **kwargs)


class raw_env(GameEnv):  # noqa: N801 - PettingZoo's naming convention
    """*Fall of the Mountain King* for 2-5 players as a PettingZoo AEC environment (see the module docstring).

    ``strict=True`` (the default of ``raw_env``): an illegal action raises the engine's ``IllegalActionError``
    (what was chosen, why, what is allowed) and changes nothing. ``strict=False``: the offending agent loses as
    in :func:`env`. ``reward``: ``"win"`` (the engine's returns), ``"margin"`` ((own honor - the best other's) /
    100) or ``"dense"`` (each step's honor change / 100, plus the win reward). ``pack``: a content pack (None:
    the default). The game itself is ``game_state`` (a
    :class:`~mk_env.fall_of_the_mountain_king.rules.FallState`); ``state()`` is PettingZoo's global state.
    """

    metadata = {"name": ENV_NAME, "render_modes": list(RENDER_MODES), "is_parallelizable": False, "render_fps": 1}
    game_class = Game
    observer_class = FallObserver
    game_over_phase = int(Phase.GAME_OVER)
    rendering_module = "mk_env.fall_of_the_mountain_king.env.render"


__all__ = ["RENDER_MODES", "env", "raw_env"]
