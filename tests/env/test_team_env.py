"""The team variant through the environment: `mk_env.env(num_players=4, team_mode=True)`."""

from __future__ import annotations

import numpy as np
import pytest
from pettingzoo.test import api_test

import mk_env


def _play(env, seed: int):
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    rewards = {a: 0.0 for a in env.possible_agents}
    infos = {}
    for agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        rewards[agent] += reward
        if term or trunc:
            infos[agent] = info
            env.step(None)
        else:
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return rewards, infos


def test_team_env_passes_the_pettingzoo_api_test():
    api_test(mk_env.env(num_players=4, team_mode=True), num_cycles=200)


@pytest.mark.parametrize("reward", ["win", "margin", "dense"])
def test_teammates_share_rewards_and_score(reward):
    env = mk_env.env(num_players=4, team_mode=True, reward=reward)
    for seed in range(3):
        rewards, infos = _play(env, seed)
        assert rewards["player_0"] == pytest.approx(rewards["player_3"])
        assert rewards["player_1"] == pytest.approx(rewards["player_2"])
        assert infos["player_0"]["score_breakdown"] == infos["player_3"]["score_breakdown"]
        assert infos["player_1"]["score_breakdown"] == infos["player_2"]["score_breakdown"]
        if reward == "win":
            assert rewards["player_0"] == -rewards["player_1"]


def test_teammates_see_their_team_storage():
    raw = mk_env.raw_env(num_players=4, team_mode=True)
    raw.reset(seed=3)
    st = raw.game_state
    while st.decision_kind() in ("setup_gate", "setup_draft"):
        raw.step(int(st.legal_actions()[0]))
    me = raw.observe("player_0")["observation"]["players"]
    mate = raw.observe("player_3")["observation"]["players"]
    assert np.array_equal(me[0, :7], mate[0, :7])  # storage columns: the same team storage
    assert st.storage[0].sum() > 0
