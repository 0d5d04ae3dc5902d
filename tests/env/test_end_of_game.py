"""The end of a game through the env: the final infos (score breakdowns, ranks) and rewards are the
engine's answers for every reward scheme, in free-for-all and team play."""

from __future__ import annotations

import numpy as np
import pytest

import mk_env
from mk_env.mountain_king.env import random_legal_action


@pytest.mark.parametrize("reward,team", [("win", False), ("margin", False), ("win", True), ("margin", True)])
def test_final_infos_and_rewards_are_the_engines(reward, team):
    """The env computes the final breakdowns once and derives ranks and rewards from them: the same
    as asking the engine for each."""
    from mk_env.mountain_king.env.rewards import final_rewards

    e = mk_env.raw_env(num_players=4, team_mode=team, reward=reward)
    e.reset(seed=12)
    rng = np.random.default_rng(12)
    while not e.game_state.is_terminal():
        obs = e.observe(e.agent_selection)
        e.step(random_legal_action(obs["action_mask"], rng))
    st = e.game_state
    ranks = st.ranks()
    for p, a in enumerate(e.possible_agents):
        info = {k: e.infos[a][k] for k in ("score_breakdown", "rank")}  # (beside illegal_actions, team)
        assert info == {"score_breakdown": st.score_breakdown(p), "rank": ranks[p]}
        assert e.terminations[a]
    assert [e.rewards[a] for a in e.possible_agents] == final_rewards(st, reward)
