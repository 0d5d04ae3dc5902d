"""``ppo:PATH``: a trained Stable-Baselines3 (sb3-contrib MaskablePPO) policy.

The policy acts on the same observation as the single-seat training env: the inner ``observation``
dict of :mod:`mk_env.env` for its seat, with the legal mask. ``ppo:default`` is the small checkpoint
shipped in ``agents/checkpoints/default.zip`` (see docs/training.md for its recipe).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from mk_env.rules.view import PlayerView

from .base import BaseAgent, register_agent


DEFAULT_CHECKPOINT = Path(__file__).parent / "checkpoints" / "default.zip"


class PPOAgent(BaseAgent):
    """Acts with ``model.predict(observation, action_masks=mask, deterministic=True)``."""

    name = "ppo"

    def __init__(self, path: str | Path):
        try:
            import torch
            from sb3_contrib import MaskablePPO
        except ImportError as e:  # pragma: no cover - depends on the install
            raise ValueError(f"agent spec 'ppo:{path}' needs stable-baselines3 and sb3-contrib "
                             f"(pip install 'mk-env[train]'): {e}") from None
        torch.set_num_threads(1)
        self.model = MaskablePPO.load(str(path), device="cpu")
        self._observers: dict[int, object] = {}

    def observation(self, view: PlayerView) -> dict:
        """The seat's observation dict, as the single-seat training env showed it to the learner."""
        try:
            return view.observation()["observation"]
        except RuntimeError:  # a view made outside an environment: encode it here
            from mk_env.env.observation import Observer

            observer = self._observers.get(id(view.game))
            if observer is None:
                observer = self._observers[id(view.game)] = Observer(view.game)
            return observer.encode(view.public_state(), view.seat)

    def act(self, view: PlayerView, rng: np.random.Generator) -> int:
        legal = view.legal_actions()
        if len(legal) == 1:
            return int(legal[0])
        action, _ = self.model.predict(self.observation(view), action_masks=view.legal_mask().astype(bool),
                                       deterministic=True)
        return int(action)


def _make(arg: str) -> PPOAgent:
    if not arg:
        raise ValueError("agent spec 'ppo' needs a model path, e.g. 'ppo:runs/x/final_model.zip' "
                         "or 'ppo:default'")
    path = DEFAULT_CHECKPOINT if arg == "default" else Path(arg)
    if not path.exists():
        raise ValueError(f"agent spec 'ppo:{arg}': no model file at {str(path)!r}")
    return PPOAgent(path)


register_agent("ppo", _make, "ppo:PATH, a trained MaskablePPO policy")
