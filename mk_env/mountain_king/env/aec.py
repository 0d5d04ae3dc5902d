"""The PettingZoo environment (its documentation page: :data:`mk_env.mountain_king.env.env_doc.PAGE`, set as this
module's docstring below). The AEC cycle is the suite's (:class:`mk_env.core.env.aec.GameEnv`); this game adds
its teams and the "human" render mode."""

from __future__ import annotations

from typing import Any

from pettingzoo import AECEnv

from mk_env.core.env.aec import GameEnv, wrapped_env
from mk_env.core.env.safety import (_BoundsWrapper, _OrderWrapper, safety_wrappers,  # noqa: F401 - old pickles' names
                                    warn_illegal_action)
from mk_env.mountain_king.rules import Game, Phase, scoring

from .env_doc import PAGE
from .observation import Observer
from .version import ENV_NAME

__doc__ = PAGE  # the documentation page (PettingZoo's convention), kept in env_doc.py

RENDER_MODES = ("ansi", "rgb_array", "human")


def env(num_players: int = 4, render_mode: str | None = None, **kwargs: Any) -> AECEnv:
    """The environment with PettingZoo's usual safety wrappers; an illegal action ends the game with
    the offending agent losing (reward -1, others 0, ``infos[agent]["illegal_action"]`` says why; the
    first time, a warning). ``kwargs``: those of :class:`raw_env` (``observation``, ``reward``,
    game options)."""
    return wrapped_env(raw_env, num_players, render_mode, **kwargs)


class raw_env(GameEnv):  # noqa: N801 - PettingZoo's naming convention
    """*In the Hall of the Mountain King* as a PettingZoo AEC environment (see the module docstring).

    ``strict=True`` (the default of ``raw_env``): an illegal action raises the engine's
    :class:`~mk_env.core.errors.IllegalActionError` (what was chosen, why it is illegal, what is allowed)
    and changes nothing. ``strict=False``: the offending agent loses as in :func:`env`.
    ``observation``: ``"dict"`` (default), ``"flat"`` or ``"rllib"`` (see the module docstring).
    The game itself is ``game_state`` (a :class:`~mk_env.mountain_king.rules.GameState`); ``state()`` is
    PettingZoo's global state.
    """

    metadata = {"name": ENV_NAME, "render_modes": list(RENDER_MODES), "is_parallelizable": False,
                "render_fps": 1}
    game_class = Game
    observer_class = Observer
    game_over_phase = int(Phase.GAME_OVER)
    rendering_module = "mk_env.mountain_king.env.render"

    def _teams(self) -> dict[str, dict[str, Any]]:
        """Per agent, what its final infos say of its team in a team game (nothing otherwise)."""
        if not self.game.team_mode:
            return super()._teams()
        return {a: {"team": int(self.game.storage_of[p]),
                    "teammates": [self.possible_agents[q] for q in self.game.teammates[p] if q != p]}
                for p, a in enumerate(self.possible_agents)}

    def _ranks_and_returns(self, final_totals: list[int]) -> tuple[list[int], list[float]]:
        """The ranks from the totals already counted, and the returns from those ranks."""
        ranks = scoring.ranks(self.game_state, final_totals)
        return ranks, scoring.returns(self.game_state, ranks)
