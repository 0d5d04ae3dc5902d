"""Observation styles and :class:`FlattenObservation`: the suite's (:mod:`mk_env.core.env.wrappers`), named
here as before; and :func:`observation_slices` of this game."""

from __future__ import annotations

from typing import Any

from mk_env.core.env.wrappers import (OBSERVATION_STYLES, FlattenObservation, StateMethod, check_style, state_property,
                                      style_space, styled)

from .observation import Observer

__all__ = ["OBSERVATION_STYLES", "FlattenObservation", "StateMethod", "check_style", "observation_slices",
           "state_property", "style_space", "styled"]


def observation_slices(num_players: int = 4, **game_options: Any) -> dict[str, tuple[int, int, tuple[int, ...]]]:
    """``{key: (start, stop, shape)}``: where each observation array lies in the flat vector of a game
    with these options (``flat[start:stop].reshape(shape)`` is the array, e.g. the board for a CNN)."""
    from mk_env.mountain_king.rules import Game

    return dict(Observer(Game(num_players, **game_options)).slices)
