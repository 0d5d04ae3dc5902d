"""The single-seat Gymnasium view of Cave Troll: the suite's
:class:`mk_env.core.env.single_seat.SingleSeatEnv`
(one learner seat, opponents played inside ``step``, ``action_masks()`` for MaskablePPO) on the Cave Troll
AEC environment. An escape from the Cave Troll is the learner's decision even when it is not the learner's
turn: ``step`` returns at every decision of the learner's seat."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from mk_env.core.env.single_seat import Opponent, SingleSeatEnv

from .aec import raw_env


class SingleSeatCaveTroll(SingleSeatEnv):
    """One learner seat of Cave Troll against opponents (see
    :class:`~mk_env.core.env.single_seat.SingleSeatEnv`).
    ``render_mode``: None, ``"ansi"`` or ``"rgb_array"``."""

    metadata = {"render_modes": ["ansi", "rgb_array"], "render_fps": 1}
    aec_class = raw_env


def single_seat_env(num_players: int = 2, seat: int | None = None,
                    opponents: Opponent | Sequence[Opponent] | None = None, reward: str = "win",
                    render_mode: str | None = None, observation: str = "dict", **game_options: Any
                    ) -> SingleSeatCaveTroll:
    """A :class:`SingleSeatCaveTroll` (a ``gymnasium.Env``) for one learner seat. ``observation``:
    ``"dict"`` (default) or ``"flat"``; ``game_options``: ``pack``."""
    return SingleSeatCaveTroll(num_players, seat=seat, opponents=opponents, reward=reward,
                               render_mode=render_mode, observation=observation, **game_options)
