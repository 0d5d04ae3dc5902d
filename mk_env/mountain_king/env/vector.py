"""The Gymnasium vector env of *In the Hall of the Mountain King* on the batch API
(:class:`~mk_env.mountain_king.env.batch.GameBatch`): ``num_envs`` games stepped in one call, compiled where the
compiled engine is built, with one learner seat per game and random opponents playing inside the step.

    envs = gymnasium.make_vec("mk_env/MountainKing-v<N>", num_envs=64, vectorization_mode="vector_entry_point",
                              num_players=2)
    obs, infos = envs.reset(seed=0)            # obs: float32 [64, size]; infos["action_mask"]: bool [64, actions]
    obs, rewards, terminated, truncated, infos = envs.step(actions)

Observations are the flat vector (``Observer.encode_flat``'s layout; ``single_observation_space`` a ``Box``), or
with ``observation="dict"`` the single-seat env's observation dict (each array with a leading axis of games),
actions one ``Discrete`` space, and ``action_masks()`` (or ``infos["action_mask"]``) the legal ones of each row.
Rewards are the learner's under ``reward`` (``"win"``, ``"margin"``, ``"dense"``). Auto-reset is Gymnasium's
``SAME_STEP``: a row whose game ended holds the next game's first observation, its reward the finished game's;
``infos["final_points"]`` (masked by ``infos["_final_points"]``) gives that game's points; no final observation is
kept (the games end by the rules, never by a time limit, so nothing bootstraps from one). The learner's seat is
``seat``, or (None) seat ``k % players`` in game ``k``: ``infos["seat"]``. Game ``k`` is
``Game(...).new_initial_state(seed + k)``; the opponents draw from ``default_rng([seed, 1])``. ``copy=False``
returns the batch's own observation array, rewritten in place by the next step (no copy of N rows per step).

For Stable-Baselines3 (which takes its own ``VecEnv``), :class:`training.batch_vec_env.BatchVecEnv` wraps the same
batch, with ``env_method("action_masks")`` for MaskablePPO.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from .batch import GameBatch


class BatchVectorEnv(VectorEnv):
    """``num_envs`` games, one learner seat each, random opponents (see the module docstring)."""

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP, "render_modes": []}

    def __init__(self, num_envs: int = 8, num_players: int = 2, seat: int | None = None, reward: str = "win",
                 seed: int = 0, backend: str | None = None, opponents: str = "random", observation: str = "flat",
                 copy: bool = True, **game_options: Any) -> None:
        if opponents != "random" or observation not in ("flat", "dict"):
            raise ValueError(f"the batched vector env plays random opponents with flat or dict observations "
                             f"(opponents={opponents!r}, observation={observation!r} asked): for other opponents "
                             "or observations use gymnasium.make_vec(..., vectorization_mode='sync'), the "
                             "single-seat env in each copy")
        self.batch = GameBatch(num_envs, num_players, seed=seed, reward=reward, opponents="random", seat=seat,
                               backend=backend, **game_options)
        self.num_envs = num_envs
        size, actions = self.batch.observer.size, self.batch.num_actions
        self.observation, self.copy = observation, bool(copy)
        self.single_observation_space = (spaces.Box(0.0, 1.0, (size,), np.float32) if observation == "flat"
                                         else self.batch.observer.space)
        self.single_action_space = spaces.Discrete(actions)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._rows = np.arange(num_envs)
        self._learners = np.zeros(num_envs, np.int32)

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[np.ndarray, dict[str, Any]]:
        """Begin every game afresh (from ``seed``, else the batch's seed); ``(observations, infos)``."""
        if seed is not None and type(seed) is not int:
            raise ValueError(f"seed={seed!r}: one integer seeds every game of the batch (game k: seed + k)")
        super().reset(seed=seed)
        obs = self.batch.reset(seed)
        np.copyto(self._learners, self.batch.seats)
        return self._observations(obs), self._infos(None)

    def step(self, actions: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """One learner decision in every game (its opponents then play up to the learner's next turn)."""
        obs, rewards, terminated, seats = self.batch.step(actions)
        reward = rewards[self._rows, self._learners].astype(np.float64)
        np.copyto(self._learners, seats)
        ended = terminated.copy()
        return self._observations(obs), reward, ended, np.zeros(self.num_envs, bool), self._infos(ended)

    def _observations(self, flat: np.ndarray) -> np.ndarray | dict[str, np.ndarray]:
        """The batch's rows (a copy, unless ``copy=False``: then the batch's own array, rewritten by the next
        step, as Gymnasium's ``copy`` flag means): flat, or (``observation="dict"``) each array of the observation dict
        with a leading axis of games (the single-seat env's dict, batched: ``observation_space``)."""
        rows = flat.copy() if self.copy else flat
        if self.observation == "flat":
            return rows
        return {key: rows[:, a:b].reshape((self.num_envs,) + shape)
                for key, (a, b, shape) in self.batch.observer.slices.items()}

    def action_masks(self) -> np.ndarray:
        """The legal actions of every row (bool ``[num_envs, actions]``): MaskablePPO's method."""
        return self.batch.action_masks.copy()

    def call(self, name: str, *args: Any, **kwargs: Any) -> tuple[Any, ...]:
        """``call("action_masks")``, as on Gymnasium's copies of the single-seat env: one mask per row."""
        if name != "action_masks":
            raise AttributeError(f"the batched vector env's games have no method {name!r}; only 'action_masks' "
                                 "(the copies of vectorization_mode='sync' have the single-seat env's)")
        return tuple(self.action_masks())

    def _infos(self, ended: np.ndarray | None) -> dict[str, Any]:
        infos: dict[str, Any] = {"action_mask": self.batch.action_masks.copy(), "seat": self.batch.seats.copy()}
        if ended is not None and ended.any():
            infos["final_points"] = self.batch.final_points.copy()
            infos["_final_points"] = ended
        return infos
