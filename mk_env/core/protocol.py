"""The engine protocol: what every game of the suite offers, so that agents (random, MCTS), tournaments,
records, soaks and the AEC machinery serve any game without knowing which (OpenSpiel's Game/State split).

A :class:`Game` holds the options and the content; it makes states. A :class:`State` is one position:
whose decision it is, which action numbers are legal (a list and an exact mask over one flat action
space), applying one, copying, sampling the hidden information a player cannot see, saving to JSON, and
the end (terminal test, returns, the score's categories, ranks). Chance is not a player: each state carries
its own ``numpy.random.Generator`` and every draw comes from it, so a seed fixes a whole game.
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

import numpy as np


@runtime_checkable
class State(Protocol):
    """One position of a game; ``apply`` changes it in place, everything else only reads it."""

    game: Any  # the :class:`Game` that made this state

    @property
    def num_players(self) -> int:
        """The number of seats, 0..num_players-1."""

    @property
    def rng(self) -> np.random.Generator:
        """The state's own generator: every chance draw of the game comes from it."""

    def current_player(self) -> int:
        """The seat whose decision it is (not always the seat whose turn it is); -1 once the game is over."""

    def legal_actions(self) -> np.ndarray:
        """The legal action numbers, ascending."""

    def legal_mask(self) -> np.ndarray:
        """An int8 mask over the whole action space: 1 exactly at the legal actions."""

    def is_legal(self, action: int) -> bool:
        """Whether ``action`` is legal now (False for anything that is not an action number)."""

    def apply(self, action: int) -> None:
        """Play ``action`` for the current player; an illegal one raises
        :class:`~mk_env.core.errors.IllegalActionError` and leaves the state unchanged."""

    def clone(self) -> State:
        """An independent copy (its generator too): the copy's future equals this state's."""

    def determinize(self, player: int, rng: np.random.Generator) -> State:
        """A copy in which everything ``player`` cannot see is resampled with ``rng`` (for search)."""

    def to_json(self) -> str:
        """The exact state as JSON; ``game.state_from_json`` reads it back."""

    def is_terminal(self) -> bool:
        """Whether the game is over."""

    def returns(self) -> list[float]:
        """Each seat's result: +1 for the winner(s), -1/(n-1) otherwise; zeros before the end."""

    def score_breakdown(self, player: int) -> dict[str, int]:
        """``player``'s score by the game's scoring categories."""

    def ranks(self) -> list[int]:
        """Each seat's place (0 = the winner or winners; ties share a place)."""

    def seat_starts(self) -> list[int]:
        """Each seat's start, for seat-balance tables: its place in the turn order (0: the first player), or
        the game's own start (the first game: the start point its gate took)."""

    def describe_action(self, action: int) -> str:
        """``action`` in the game's words, for logs, records and people."""


@runtime_checkable
class Game(Protocol):
    """A game's options and content; it makes and reads states."""

    num_players: int

    def new_initial_state(self, seed: int | np.random.Generator | None = None) -> State:
        """A new game's first state, every chance draw from ``seed``."""

    def state_from_json(self, text: str | dict) -> State:
        """The state :meth:`State.to_json` wrote, checked; a bad one raises
        :class:`~mk_env.core.errors.StateError`."""


#: the methods of :class:`State`, in the order above (what a conformance test checks)
STATE_METHODS = ("current_player", "legal_actions", "legal_mask", "is_legal", "apply", "clone", "determinize",
                 "to_json", "is_terminal", "returns", "score_breakdown", "ranks", "seat_starts", "describe_action")
