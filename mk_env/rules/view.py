"""What one seat may see of a game: the handle agents receive.

A :class:`PlayerView` wraps the true state but only hands out what the seat may know: the legal
decisions, public facts, and *determinized* copies in which hidden information (deck orders, other
players' starter hands, the future of the generator) is resampled. Search agents plan on those copies,
never on the true state.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

import numpy as np

if TYPE_CHECKING:
    from .game import Game
    from .state import GameState


class PlayerView:
    """Seat ``seat``'s view of ``state`` (read-only for the agent)."""

    __slots__ = ("_state", "seat", "_observe")

    def __init__(self, state: GameState, seat: int, observe: Callable[[], dict] | None = None):
        self._state = state
        self.seat = seat
        self._observe = observe

    def observation(self) -> dict:
        """The PettingZoo observation of this seat (``{"observation": ..., "action_mask": ...}``),
        when the view was made by an environment that can encode it."""
        if self._observe is None:
            raise RuntimeError("this PlayerView has no observation encoder; build it with "
                               "observe=... (the environments do) or use mk_env.env.Observer")
        return self._observe()

    @property
    def game(self) -> Game:
        return self._state.game

    @property
    def num_players(self) -> int:
        return self._state.num_players

    def legal_actions(self) -> np.ndarray:
        return self._state.legal_actions()

    def legal_mask(self) -> np.ndarray:
        return self._state.legal_mask()

    def decision_kind(self) -> str:
        return self._state.decision_kind()

    def describe_action(self, action: int) -> str:
        return self._state.describe_action(action)

    def score_breakdown(self, player: int) -> dict[str, int]:
        """Public: anyone can count anyone's honour on the table."""
        return self._state.score_breakdown(player)

    def determinize(self, rng: np.random.Generator) -> GameState:
        """A full state consistent with everything this seat knows, hidden parts resampled."""
        return self._state.determinize(self.seat, rng)

    def public_state(self) -> GameState:
        """A determinized copy drawn from a fixed generator: handy for reading public fields."""
        return self._state.determinize(self.seat, np.random.default_rng(0))
