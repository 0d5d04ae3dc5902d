"""Recipe ``torchrl`` of docs/ecosystem.md (own venv: ``bash tests/recipes/run_in_venv.sh torchrl``)."""

import pytest

from recipe_page import run_recipe

pytest.importorskip("torchrl", reason="TorchRL is not installed: see docs/ecosystem.md")


def test_torchrl_recipe_collects_masked_legal_actions_over_parallel_envs():
    ns = run_recipe("torchrl")
    batch = ns["batch"]
    assert tuple(batch.batch_size) == (2, 32)
    acting = batch["agents", "mask"]
    assert bool((acting.sum(-1) == 1).all())      # exactly one seat acts at each step (AEC)
    assert bool(ns["legal"])
    assert batch["state"].shape[:2] == (2, 32)
