"""The single-seat Gymnasium view of Fall of the Mountain King: the suite's
:class:`mk_env.core.env.single_seat.SingleSeatEnv` (one learner seat, opponents played inside ``step``,
``action_masks()`` for MaskablePPO) on the Fall of the Mountain King AEC environment. A decision of the learner's
seat outside its own turn (a route's tie, a falling troll, vote or honor) is the learner's: ``step`` returns at
every decision of the learner's seat."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from mk_env.core.env.single_seat import Opponent, SingleSeatEnv

from .aec import raw_env


class SingleSeatFall(SingleSeatEnv):
    """One learner seat of Fall of the Mountain King against opponents (see
    :class:`~mk_env.core.env.single_seat.SingleSeatEnv`). ``render_mode``: None or ``"ansi"``."""

    metadata = {"render_modes": ["ansi"], "render_fps": 1}
    aec_class = raw_env


def single_seat_env(num_players: int = 2, seat: int | None = None,
                    opponents: Opponent | Sequence[Opponent] | None = None, reward: str = "win",
                    render_mode: str | None = None, observation: str = "dict", **game_options: Any) -> SingleSeatFall:
    """A :class:`SingleSeatFall` (a ``gymnasium.Env``) for one learner seat. ``observation``: ``"dict"``
    (default) or ``"flat"``; ``game_options``: ``pack``."""
    return SingleSeatFall(num_players, seat=seat, opponents=opponents, reward=reward, render_mode=render_mode,
                          observation=observation, **game_options)
