"""``random``: uniform over the legal decisions."""

from __future__ import annotations

import numpy as np

from mk_env.core.view import PlayerView

from .base import BaseAgent, no_argument


class RandomAgent(BaseAgent):
    name = "random"

    def act(self, view: PlayerView, rng: np.random.Generator) -> int:
        legal = view.legal_actions()
        return int(legal[rng.integers(len(legal))])


def from_spec(arg: str) -> RandomAgent:
    """The ``random`` spec (no argument)."""
    no_argument("random", arg)
    return RandomAgent()
