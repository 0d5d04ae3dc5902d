"""Stable-Baselines3's route onto the batch API (issue 51, "a documented route for SB3 users"): MaskablePPO learns on
:class:`training.batch_vec_env.BatchVecEnv`, its masks come through ``env_method("action_masks")``, and each
finished game reports SB3's ``episode`` info."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from training.batch_vec_env import BatchVecEnv

torch.set_num_threads(1)


def test_maskable_ppo_learns_on_the_batch_and_games_end_with_episode_infos():
    from sb3_contrib import MaskablePPO
    from sb3_contrib.common.maskable.utils import get_action_masks

    venv = BatchVecEnv(num_envs=2, num_players=2, seed=0)
    assert get_action_masks(venv).shape == (2, venv.action_space.n)
    model = MaskablePPO("MlpPolicy", venv, n_steps=32, batch_size=32, n_epochs=1, seed=0,
                        policy_kwargs={"net_arch": [16]}, device="cpu")
    model.learn(64)
    assert model.num_timesteps == 64
    obs = venv.reset()
    episodes = []
    for _ in range(400):
        actions, _ = model.predict(obs, action_masks=get_action_masks(venv))
        obs, rewards, dones, infos = venv.step(actions)
        episodes += [info["episode"] for info, done in zip(infos, dones) if done]
    assert episodes and all(e["l"] > 0 and e["r"] in (-1.0, 1.0) for e in episodes)


def test_only_the_mask_method_is_served():
    venv = BatchVecEnv(num_envs=2, num_players=2)
    venv.reset()
    with pytest.raises(AttributeError, match="only 'action_masks'"):
        venv.env_method("render")
    assert len(venv.env_method("action_masks", indices=[1])) == 1
    assert venv.get_attr("render_mode") == [None, None]
    venv.seed(7)
    first = venv.reset()
    venv.seed(7)
    assert np.array_equal(first, venv.reset())


def test_dict_observations_serve_the_multi_input_policy_and_the_suites_cnn():
    from sb3_contrib import MaskablePPO

    from agents.networks import EXTRACTORS
    venv = BatchVecEnv(num_envs=2, num_players=2, seed=1, observation="dict")
    obs = venv.reset()
    assert set(obs) == set(venv.observation_space.spaces) and obs["board"].shape[0] == 2
    model = MaskablePPO("MultiInputPolicy", venv, n_steps=16, batch_size=16, n_epochs=1, seed=0, device="cpu",
                        policy_kwargs={"features_extractor_class": EXTRACTORS["cnn"], "net_arch": [16]})
    model.learn(32)
    assert model.num_timesteps == 32
