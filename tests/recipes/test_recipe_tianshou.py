"""Recipe ``tianshou`` of docs/ecosystem.md (own venv: ``bash tests/recipes/run_in_venv.sh tianshou``)."""

import pytest

from recipe_page import run_recipe

pytest.importorskip("tianshou", reason="Tianshou is not installed: see docs/ecosystem.md")


def test_tianshou_recipe_collects_with_random_policies_and_trains_dqn():
    ns = run_recipe("tianshou")
    assert ns["random_stats"].n_collected_steps == 100
    assert ns["result"].update_step >= 1
    buffer = ns["train_collector"].buffer
    assert len(buffer) >= 64
    data = buffer[buffer.sample_indices(0)]                    # every stored step
    assert len(data) == len(buffer)
    assert data.obs.mask[range(len(data)), data.act].all()    # every stored action was legal
