"""Recipe ``flat`` of docs/ecosystem.md: the flat observation and its slices."""

import numpy as np

from recipe_page import run_recipe


def test_flat_recipe_cuts_the_board_back_out_of_the_vector():
    ns = run_recipe("flat")
    env, vector, mask, board = ns["env"], ns["vector"], ns["mask"], ns["board"]
    agent = env.agent_selection
    assert vector.dtype == np.float32 and mask.dtype == np.int8 and mask.sum() >= 1
    assert env.observation_space(agent)["observation"].contains(vector)
    dict_obs = env.unwrapped.observer.encode(env.unwrapped.game_state, env.unwrapped.agent_seat[agent])
    np.testing.assert_array_equal(board, dict_obs["board"])
    assert env.state_space.contains(env.state())
