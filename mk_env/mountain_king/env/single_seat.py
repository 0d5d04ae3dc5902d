"""The single-seat Gymnasium view of *In the Hall of the Mountain King*: the suite's
:class:`mk_env.core.env.single_seat.SingleSeatEnv` (one learner seat, opponents played inside ``step``,
``action_masks()`` for MaskablePPO; its module says all) on this game's AEC environment, with the "human"
render mode.

Registered with Gymnasium on ``import mk_env`` as ``mk_env/MountainKing-v<N>`` (``<N>`` its ``ENV_VERSION``):
``gymnasium.make(f"mk_env/MountainKing-v{ENV_VERSION}", num_players=2)``, ``gymnasium.make_vec(..., num_envs=8,
vectorization_mode="sync")`` (without the mode, ``make_vec`` makes the batched vector env of
:mod:`~mk_env.mountain_king.env.vector`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from mk_env.core.env import single_seat
from mk_env.core.env.single_seat import Opponent, SeatView, random_opponent

from .aec import raw_env

__all__ = ["Opponent", "SeatView", "SingleSeatEnv", "random_opponent", "single_seat_env"]


class SingleSeatEnv(single_seat.SingleSeatEnv):
    """One learner seat of *In the Hall of the Mountain King* against opponents (see the module docstring;
    the view itself is the suite's, :class:`mk_env.core.env.single_seat.SingleSeatEnv`)."""

    metadata = {"render_modes": ["ansi", "rgb_array", "human"], "render_fps": 1}
    aec_class = raw_env


def single_seat_env(num_players: int = 2, seat: int | None = None,
                    opponents: Opponent | Sequence[Opponent] | None = None, reward: str = "win",
                    render_mode: str | None = None, observation: str = "dict",
                    **game_options: Any) -> SingleSeatEnv:
    """A :class:`SingleSeatEnv` (a ``gymnasium.Env``) for one learner seat; see its module.
    ``observation``: ``"dict"`` (default) or ``"flat"``."""
    return SingleSeatEnv(num_players, seat=seat, opponents=opponents, reward=reward,
                         render_mode=render_mode, observation=observation, **game_options)
