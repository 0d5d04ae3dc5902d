"""The Cave Troll PettingZoo environment (its documentation page: :data:`mk_env.cave_troll.env.env_doc.PAGE`,
set as this module's docstring below).

The AEC cycle, the safety wrappers, the observation styles, the illegal-action handling and pickling are the
first game's (:mod:`mk_env.mountain_king.env.aec`, :mod:`mk_env.mountain_king.env.wrappers`): :class:`raw_env`
subclasses its ``raw_env``
and sets up the Cave Troll engine, observer, rewards and rendering in their place.
"""

from __future__ import annotations

import importlib
from typing import Any

import numpy as np
from pettingzoo import AECEnv

from mk_env.cave_troll.rules import Game, Phase
from mk_env.core.env.safety import safety_wrappers
from mk_env.mountain_king.env import aec as mk_aec

from .env_doc import PAGE
from .observation import CaveTrollObserver
from .rewards import final_rewards
from .version import ENV_NAME

__doc__ = PAGE  # the documentation page (PettingZoo's convention), kept in env_doc.py

RENDER_MODES = ("ansi", "rgb_array")


def env(num_players: int = 4, render_mode: str | None = None, **kwargs: Any) -> AECEnv:
    """The environment with PettingZoo's usual safety wrappers (the suite's): an illegal action ends
    the game with the offending agent losing (reward -1, others 0, ``infos[agent]["illegal_action"]`` says
    why; the first time, a warning). ``kwargs``: those of :class:`raw_env`."""
    kwargs.setdefault("strict", False)
    return safety_wrappers(raw_env(num_players, render_mode=render_mode, **kwargs))


class raw_env(mk_aec.raw_env):  # noqa: N801 - PettingZoo's naming convention
    """*Cave Troll* as a PettingZoo AEC environment (see the module docstring).

    ``strict=True`` (the default of ``raw_env``): an illegal action raises the engine's
    :class:`~mk_env.mountain_king.rules.IllegalActionError` (what was chosen, why it is illegal, what is allowed) and
    changes nothing. ``strict=False``: the offending agent loses as in :func:`env`. ``observation``:
    ``"dict"`` (default), ``"flat"`` or ``"rllib"``. ``pack``: a content pack (None: the default). The
    game itself is ``game_state`` (a :class:`~mk_env.cave_troll.rules.CaveTrollState`); ``state()`` is
    PettingZoo's global state.
    """

    #: the module with render_ansi/render_rgb for this game (a subclass for another game names its own)
    rendering_module = "mk_env.cave_troll.env.render"

    metadata = {"name": ENV_NAME, "render_modes": list(RENDER_MODES), "is_parallelizable": False,
                "render_fps": 1}

    game_class = Game
    observer_class = CaveTrollObserver

    def __init__(self, num_players: int = 4, render_mode: str | None = None, *, reward: str = "win",
                 strict: bool = True, illegal_reward: float = -1.0, observation: str = "dict", pack: Any = None):
        super().__init__(num_players, render_mode, reward=reward, strict=strict, illegal_reward=illegal_reward,
                         observation=observation, pack=pack)  # bad options raise the engine's ConfigError
        self._game_over = int(Phase.GAME_OVER)

    def _teams(self) -> dict[str, dict]:
        """Cave Troll has no teams: nothing in the final infos."""
        return {a: {} for a in self.possible_agents}

    def _finish(self) -> None:
        """The end: each agent's reward, ``score_breakdown`` and ``rank`` (0 = winner; ties share)."""
        st = self.game_state
        breakdowns = [st.score_breakdown(p) for p in range(st.num_players)]
        ranks = st.ranks()
        final = final_rewards(st, self.reward_scheme, [b["total"] for b in breakdowns])
        for p, a in enumerate(self.possible_agents):
            self.rewards[a] += final[p]
            self.terminations[a] = True
            self.infos[a] = {"score_breakdown": breakdowns[p], "rank": int(ranks[p]),
                             "illegal_actions": self._illegal_counts[a]}

    def render(self) -> str | np.ndarray | None:
        if self.render_mode is None:
            import gymnasium

            gymnasium.logger.warn("render() called without a render_mode; pass render_mode='ansi' or "
                                  "'rgb_array' when creating the environment")
            return None
        rendering = importlib.import_module(self.rendering_module)
        if self.render_mode == "ansi":
            return rendering.render_ansi(self.game_state)
        return rendering.render_rgb(self.game_state)

    def close(self) -> None:
        """Nothing to release (no window)."""

    def __str__(self) -> str:
        return ENV_NAME


__all__ = ["RENDER_MODES", "env", "raw_env"]
