"""Recipe ``gymnasium_vector`` of docs/ecosystem.md: ``gymnasium.make_vec`` of the single-seat view."""

import numpy as np

from recipe_page import run_recipe


def test_vector_recipe_plays_masked_games_through_the_autoreset():
    ns = run_recipe("gymnasium_vector")
    envs, obs = ns["envs"], ns["obs"]
    assert obs.shape == (2, *envs.single_observation_space.shape) and obs.dtype == np.float32
    assert ns["games"] >= 2          # games ended and the envs reset themselves (masks stayed valid)
