"""Recipe ``sb3`` of docs/ecosystem.md: MaskablePPO on the registered single-seat view."""

import pytest

from recipe_page import run_recipe

pytest.importorskip("sb3_contrib", reason="sb3-contrib is not installed: pip install -e '.[train]'")


def test_sb3_recipe_learns_and_predicts_a_legal_action():
    ns = run_recipe("sb3")
    model, env = ns["model"], ns["env"]
    assert model.num_timesteps >= 128
    assert env.action_masks()[int(ns["action"])]
    assert -1.0 <= ns["mean_return"] <= 1.0
