"""Recipe ``gymnasium_batch`` of docs/ecosystem.md: ``gymnasium.make_vec`` of the batched vector env."""

import numpy as np

from mk_env.mountain_king.env.vector import BatchVectorEnv
from recipe_page import run_recipe


def test_batch_recipe_plays_masked_games_through_the_same_step_autoreset():
    ns = run_recipe("gymnasium_batch")
    envs, obs = ns["envs"], ns["obs"]
    assert isinstance(envs, BatchVectorEnv)
    assert obs.shape == (16, *envs.single_observation_space.shape) and obs.dtype == np.float32
    assert ns["games"] >= 16
