"""Fixtures shared by the training tests."""

from __future__ import annotations

import pytest
import torch

from agents.az_net import PolicyValueNet, save_net, shape_for
from mk_env.games import make_game


@pytest.fixture(scope="module")
def tiny_net(tmp_path_factory):
    """An untrained 2-player policy-value file (small)."""
    game = make_game("mountain_king", 2)
    torch.manual_seed(0)
    path = tmp_path_factory.mktemp("az") / "net.safetensors"
    return save_net(PolicyValueNet(shape_for(game, hidden=16, action_dim=8)), path, game)
