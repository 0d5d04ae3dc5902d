"""What one seat may see of a game, in every game of the suite: the handle agents receive.

A :class:`PlayerView` wraps the true state but only hands out what the seat may know: the legal
decisions, public facts, and *determinized* copies in which hidden information (deck orders, other
players' starter hands, the future of the generator) is resampled. Search agents plan on those copies,
never on the true state. The view knows nothing of observations: an agent that wants the env's
encoding makes it from :meth:`PlayerView.public_state` (as ``agents/ppo.py`` does with
its game's observer); the single-seat env (:mod:`mk_env.core.env.single_seat`) hands its agent opponents a
subclass whose ``observation()`` is that seat's PettingZoo observation. The view needs of the state only the
engine protocol (:mod:`mk_env.core.protocol`): ``legal_actions``, ``legal_mask``, ``decision_kind``,
``describe_action``, ``score_breakdown``, ``determinize`` and ``game``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from .protocol import Game
    from .protocol import State as GameState


class PlayerView:
    """Seat ``seat``'s view of ``state`` (read-only for the agent)."""

    __slots__ = ("_state", "seat")

    def __init__(self, state: GameState, seat: int):
        self._state = state
        self.seat = seat

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
        """Public: anyone can count anyone's points on the table."""
        return self._state.score_breakdown(player)

    def determinize(self, rng: np.random.Generator) -> GameState:
        """A full state consistent with everything this seat knows, hidden parts resampled."""
        return self._state.determinize(self.seat, rng)

    def public_state(self) -> GameState:
        """A determinized copy drawn from a fixed generator: handy for reading public fields."""
        return self._state.determinize(self.seat, np.random.default_rng(0))
