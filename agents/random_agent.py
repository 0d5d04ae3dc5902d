"""``random``: uniform over the legal decisions."""

from __future__ import annotations

import numpy as np

from mk_env.rules.view import PlayerView

from .base import BaseAgent, register_agent


class RandomAgent(BaseAgent):
    name = "random"

    def act(self, view: PlayerView, rng: np.random.Generator) -> int:
        legal = view.legal_actions()
        return int(legal[rng.integers(len(legal))])


def _make(arg: str) -> RandomAgent:
    if arg:
        raise ValueError(f"agent spec 'random' takes no argument, got 'random:{arg}'")
    return RandomAgent()


register_agent("random", _make, "uniform over legal actions")
