"""Stable-Baselines3's route onto the batch API: :class:`BatchVecEnv`, an SB3 ``VecEnv`` over the batched vector
env of *In the Hall of the Mountain King* (:class:`mk_env.mountain_king.env.vector.BatchVectorEnv`: the games of
one :class:`~mk_env.mountain_king.env.batch.GameBatch`, compiled where the compiled engine is built, one learner
seat each, random opponents inside the step).

    from sb3_contrib import MaskablePPO
    from training.batch_vec_env import BatchVecEnv
    venv = BatchVecEnv(num_envs=16, num_players=2, seed=0)
    MaskablePPO("MlpPolicy", venv).learn(10_000)     # the masks: venv.env_method("action_masks")

``observation="dict"`` gives the single-seat env's observation dict instead, for ``MultiInputPolicy`` and the
suite's own extractors (``agents.networks.EXTRACTORS``, e.g. ``"cnn"``, which reads the board as a grid).

Each finished game's info holds ``episode`` (``r``: the learner's summed reward, ``l``: its decisions), as SB3's
``Monitor`` writes it, so SB3's episode logging works; ``final_points`` holds the game's points. The games end
by the rules only: no ``terminal_observation`` is needed (SB3 bootstraps only from truncated episodes).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from stable_baselines3.common.vec_env import VecEnv

from mk_env.mountain_king.env.vector import BatchVectorEnv


class BatchVecEnv(VecEnv):
    """``num_envs`` games of the batch API as an SB3 ``VecEnv`` (see the module docstring)."""

    render_mode = None

    def __init__(self, num_envs: int = 8, num_players: int = 2, seed: int = 0, **options: Any) -> None:
        self.envs = BatchVectorEnv(num_envs, num_players, seed=seed, **options)
        self._seed = seed
        super().__init__(num_envs, self.envs.single_observation_space, self.envs.single_action_space)
        self._actions: np.ndarray | None = None
        self._returns = np.zeros(num_envs)
        self._lengths = np.zeros(num_envs, np.int64)

    def reset(self) -> np.ndarray:
        """Begin every game afresh (from the seed :meth:`seed` set last, else the constructor's)."""
        seed = self._seeds[0] if self._seeds[0] is not None else self._seed
        self._seeds = [None] * self.num_envs
        obs, _ = self.envs.reset(seed=int(seed))
        self._returns[:] = 0
        self._lengths[:] = 0
        return obs

    def step_async(self, actions: np.ndarray) -> None:
        self._actions = np.asarray(actions)

    def step_wait(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[dict[str, Any]]]:
        if self._actions is None:
            raise RuntimeError("step_wait without step_async: call step(actions)")
        obs, rewards, terminated, _, infos = self.envs.step(self._actions)
        self._actions = None
        self._returns += rewards
        self._lengths += 1
        out: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        for i in np.flatnonzero(terminated).tolist():
            out[i] = {"episode": {"r": float(self._returns[i]), "l": int(self._lengths[i])},
                      "final_points": infos["final_points"][i].tolist()}
            self._returns[i], self._lengths[i] = 0.0, 0
        return obs, rewards.astype(np.float32), terminated.copy(), out

    def action_masks(self) -> np.ndarray:
        """The legal actions of every game (bool ``[num_envs, actions]``)."""
        return self.envs.action_masks()

    def env_method(self, method_name: str, *args: Any, indices: Any = None, **kwargs: Any) -> list[Any]:
        """Only ``action_masks`` (sb3-contrib's call): one mask per game."""
        if method_name != "action_masks":
            raise AttributeError(f"BatchVecEnv has no per-game method {method_name!r}; only 'action_masks'")
        masks = self.envs.action_masks()
        return [masks[i] for i in self._indices(indices)]

    def has_attr(self, attr_name: str) -> bool:
        """``action_masks`` (what sb3-contrib looks for) and ``render_mode``."""
        return attr_name in ("action_masks", "render_mode")

    def get_attr(self, attr_name: str, indices: Any = None) -> list[Any]:
        if attr_name == "render_mode":
            return [None for _ in self._indices(indices)]
        if attr_name == "action_masks":
            masks = self.envs.action_masks()
            return [(lambda row=masks[i]: row) for i in self._indices(indices)]
        raise AttributeError(f"BatchVecEnv's games have no attribute {attr_name!r}")

    def set_attr(self, attr_name: str, value: Any, indices: Any = None) -> None:
        raise AttributeError(f"BatchVecEnv's games have no settable attribute {attr_name!r}")

    def env_is_wrapped(self, wrapper_class: type, indices: Any = None) -> list[bool]:
        return [False for _ in self._indices(indices)]

    def close(self) -> None:
        return None

    def _indices(self, indices: Any) -> Sequence[int]:
        if indices is None:
            return range(self.num_envs)
        return [indices] if isinstance(indices, int) else list(indices)
