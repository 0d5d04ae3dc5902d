"""Recipe ``rllib`` of docs/ecosystem.md (own venv: ``bash tests/recipes/run_in_venv.sh rllib``)."""

import pytest

from recipe_page import run_recipe

ray = pytest.importorskip("ray", reason="Ray is not installed: see docs/ecosystem.md")


def test_rllib_recipe_trains_one_iteration_and_acts_legally():
    try:
        ns = run_recipe("rllib")
    finally:
        ray.shutdown()
    assert ns["result"]["num_env_steps_sampled_lifetime"] >= 256
    assert "shared" in ns["result"]["learners"]
    assert ns["obs"]["action_mask"][ns["action"]] == 1.0
