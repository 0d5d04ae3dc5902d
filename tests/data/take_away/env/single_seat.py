"""The single-seat Gymnasium view of Take-away: the suite's :class:`mk_env.core.env.single_seat.SingleSeatEnv`."""

from __future__ import annotations

from typing import Any

from mk_env.core.env.single_seat import SingleSeatEnv

from .aec import raw_env


class SingleSeatTakeAway(SingleSeatEnv):
    """One learner seat of Take-away against opponents."""

    metadata = {"render_modes": ["ansi", "rgb_array"], "render_fps": 1}
    aec_class = raw_env


def single_seat_env(num_players: int = 2, **kwargs: Any) -> SingleSeatTakeAway:
    """A :class:`SingleSeatTakeAway` for one learner seat."""
    return SingleSeatTakeAway(num_players, **kwargs)
