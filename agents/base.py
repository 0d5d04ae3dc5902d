"""The agent protocol.

Every agent implements ``act(view, rng) -> int``: given a :class:`~mk_env.core.view.PlayerView` (the
legal decisions and public facts of one seat, plus determinized copies) it returns one legal action
number. ``reset(seat, num_players)`` is called before each game. Agents never see the true state.
Spec strings (``heuristic``, ``mcts:400``) name agents through :mod:`agents.registry`.
"""

from __future__ import annotations

import math
import time
from typing import Any, Protocol, runtime_checkable

import numpy as np

from mk_env.core.view import PlayerView


@runtime_checkable
class Agent(Protocol):
    """One seat's decision maker."""

    name: str

    def act(self, view: PlayerView, rng: np.random.Generator) -> int:
        """A legal action number for the seat of ``view``."""
        ...

    def reset(self, seat: int, num_players: int) -> None:
        """Forget the previous game (optional)."""
        ...


class BaseAgent:
    """Convenience base: a name and a no-op :meth:`reset`."""

    name = "agent"

    def reset(self, seat: int, num_players: int) -> None:  # noqa: D401 - protocol hook
        self.seat, self.num_players = seat, num_players

    def act(self, view: PlayerView, rng: np.random.Generator) -> int:  # pragma: no cover
        raise NotImplementedError


class TimedAgent:
    """An agent whose decisions are counted and timed (``decisions``, ``seconds`` spent in its ``act``)."""

    def __init__(self, inner: Any, name: str | None = None):
        self.inner, self.name = inner, name or getattr(inner, "name", "agent")
        self.decisions, self.seconds = 0, 0.0

    def reset(self, seat: int, num_players: int) -> None:
        reset = getattr(self.inner, "reset", None)
        if reset:
            reset(seat, num_players)

    def act(self, view: PlayerView, rng: np.random.Generator) -> int:
        t0 = time.perf_counter()
        action = self.inner.act(view, rng)
        self.seconds += time.perf_counter() - t0
        self.decisions += 1
        return action


def no_argument(kind: str, arg: str) -> None:
    """Refuse ``kind:ARG`` for a kind that takes no argument."""
    if arg:
        raise ValueError(f"agent spec {kind!r} takes no argument, got '{kind}:{arg}'")


def search_budget(text: str) -> tuple[int | None, float | None]:
    """A search's budget per decision from its spec text: ``"400"`` -> ``(400, None)`` simulations,
    ``"0.5s"`` -> ``(None, 0.5)`` seconds. Raises ValueError for anything else (a number of simulations
    below 1, seconds not above 0 or not finite); the caller says which spec it was and what is allowed."""
    if text.endswith("s"):
        seconds = float(text[:-1])
        if not 0 < seconds < math.inf:
            raise ValueError(f"seconds must be above 0 and finite, got {text!r}")
        return None, seconds
    simulations = int(text)
    if simulations < 1:
        raise ValueError(f"simulations must be at least 1, got {text!r}")
    return simulations, None
