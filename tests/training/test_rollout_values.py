"""The rollout-value fine-tuning of a policy-value network (``python -m training.az.rollout_values``)."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from agents.az_net import load_net
from mk_env.games import make_game
from training.az.buffer import ReplayBuffer
from training.az.rollout_values import fine_tune, main, rollout_positions, value_error
from training.play import run_game

torch.set_num_threads(1)


@pytest.fixture(scope="module")
def positions(tiny_net):
    """Positions of game 1 (the network in a seat against the heuristic), a quarter of the decisions."""
    return rollout_positions(tiny_net, range(1, 2), seed=77, share=0.25)


def test_positions_carry_the_networks_priors_and_the_rollouts_values(tiny_net, positions):
    assert len(positions) > 10
    net, _, _ = load_net(tiny_net)
    for p in positions:
        assert len(p.legal) > 1 and len(p.policy) == len(p.legal)
        assert p.policy.sum() == pytest.approx(1.0, abs=1e-5)
        assert p.outcome.shape == (2,) and np.all(np.abs(p.outcome) <= 1.0)
        # two seats: each seat's margin over the other, squashed, so the values are opposite
        assert p.outcome[0] == pytest.approx(-p.outcome[1], abs=1e-5)
    first = positions[0]
    dense = ReplayBuffer(1, net.shape.observation_size).dense([(first.index, first.value)])
    priors, _ = net.evaluate(dense, [first.legal])
    assert np.allclose(priors[0], first.policy, atol=1e-3)
    assert np.std([p.outcome[0] for p in positions]) > 0  # the targets vary along the game


def test_the_same_games_give_the_same_positions(tiny_net, positions):
    again = rollout_positions(tiny_net, range(1, 2), seed=77, share=0.25)
    assert len(again) == len(positions)
    assert all(np.array_equal(a.outcome, b.outcome) and np.array_equal(a.legal, b.legal)
               for a, b in zip(again, positions))


def test_fine_tuning_lowers_the_value_error_on_its_positions(tiny_net, positions):
    net = load_net(tiny_net)[0]
    before = value_error(net, positions)
    tuned = fine_tune(net, positions, steps=40, lr=3e-3, batch=32, seed=0, log=lambda _: None)
    assert value_error(tuned, positions) < before


def test_the_command_writes_a_network_the_az_agents_play_and_reuses_its_positions(tiny_net, tmp_path, capsys):
    out = tmp_path / "rv"
    args = ["--init", str(tiny_net), "--games", "2", "--steps", "3", "--batch", "8", "--seed", "5",
            "--held-out", "0.5", "--out", str(out)]
    assert main(args) == 0
    assert (out / "positions.npz").is_file() and (out / "net.safetensors").is_file()
    net, config, _ = load_net(out / "net.safetensors")
    assert config["training"]["rollout_values"]["steps"] == 3
    game = make_game("mountain_king", 2)
    state = run_game([f"aznet:{out / 'net.safetensors'}", "random"], seed=3, game=game)
    assert state.is_terminal()
    assert main(args) == 0
    assert "read from" in capsys.readouterr().out
