"""The Cave Troll AEC environment: PettingZoo's conformance tests, registration, rewards, final infos and
illegal actions."""

from __future__ import annotations

import logging
import warnings
from functools import partial

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from mk_env.cave_troll import env as cave_troll_env
from mk_env.cave_troll.rules import ConfigError, IllegalActionError
from mk_env.mountain_king.rules import ActionTypeError

from cave_troll_env_helpers import play_random


@pytest.mark.parametrize("num_players", [2, 3, 4])
@pytest.mark.parametrize("observation", ["dict", "flat"])
def test_pettingzoo_api_test(num_players, observation):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # api_test's advice on Dict observation spaces
        api_test(cave_troll_env.env(num_players=num_players, observation=observation), num_cycles=200)


@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_pettingzoo_seed_test(num_players):
    seed_test(partial(cave_troll_env.env, num_players=num_players), num_cycles=200)


def test_registered_with_pettingzoo_on_import():
    import pettingzoo

    env = pettingzoo.make("aec", cave_troll_env.ENV_NAME, num_players=3)
    env.reset(seed=0)
    assert str(env) == cave_troll_env.ENV_NAME and env.unwrapped.game.num_players == 3


def test_agents_spaces_and_a_whole_game():
    env = cave_troll_env.env(num_players=4)
    env.reset(seed=5)
    assert env.possible_agents == ["player_0", "player_1", "player_2", "player_3"]
    n = env.unwrapped.game.layout.size
    assert env.action_space("player_0").n == n
    assert env.observation_space("player_0")["action_mask"].shape == (n,)
    play_random(env, 5)
    assert env.agents == []


def _finished(reward: str, seed: int = 3, num_players: int = 3):
    """A raw environment at the end of a random game, with every agent's accumulated rewards."""
    env = cave_troll_env.raw_env(num_players=num_players, reward=reward)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    total = dict.fromkeys(env.possible_agents, 0.0)
    infos = {}
    for agent in env.agent_iter():
        obs, rew, term, trunc, info = env.last()
        total[agent] += rew
        infos[agent] = info
        env.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return env, total, infos


def test_final_infos_hold_score_breakdown_and_rank():
    env, total, infos = _finished("win")
    st = env.game_state
    for p, agent in enumerate(env.possible_agents):
        assert infos[agent]["score_breakdown"] == st.score_breakdown(p)
        assert infos[agent]["rank"] == st.ranks()[p]
        assert infos[agent]["illegal_actions"] == 0


def test_win_rewards_are_the_engine_returns():
    env, total, _ = _finished("win", seed=4)  # seed 3 ends in a three-way tie (no winner)
    returns = env.game_state.returns()
    assert [total[a] for a in env.possible_agents] == pytest.approx(returns)
    assert sum(returns) == pytest.approx(0.0) and max(returns) > 0


def test_margin_rewards_are_the_gold_lead_over_the_best_other():
    env, total, _ = _finished("margin")
    gold = [env.game_state.score_breakdown(p)["total"] for p in range(3)]
    for p, agent in enumerate(env.possible_agents):
        best_other = max(g for q, g in enumerate(gold) if q != p)
        assert total[agent] == pytest.approx((gold[p] - best_other) / 100)


def test_dense_rewards_sum_to_the_gold_plus_the_win_reward():
    env, total, _ = _finished("dense")
    st = env.game_state
    for p, agent in enumerate(env.possible_agents):
        assert total[agent] == pytest.approx(st.score_breakdown(p)["total"] / 100 + st.returns()[p])


def test_raw_env_strict_raises_the_engine_error_and_changes_nothing():
    env = cave_troll_env.raw_env(num_players=2)
    env.reset(seed=1)
    before = env.game_state.to_json()
    illegal = int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"] == 0)[0])
    with pytest.raises(IllegalActionError, match="is not legal"):
        env.step(illegal)
    assert env.game_state.to_json() == before


def test_env_ends_the_game_on_an_illegal_action_with_a_warning(caplog):
    env = cave_troll_env.env(num_players=3)
    env.reset(seed=2)
    agent = env.agent_selection
    illegal = int(np.flatnonzero(env.last()[0]["action_mask"] == 0)[0])
    with caplog.at_level(logging.WARNING):
        env.step(illegal)
    assert f"{cave_troll_env.ENV_NAME}: {agent} chose an illegal action, {illegal}" in caplog.text
    _, reward, term, _, info = env.last()
    assert term and reward == -1.0
    assert info["illegal_action"]["agent"] == agent and "is not legal" in info["illegal_action"]["message"]
    for other in env.possible_agents:
        if other != agent:
            assert env.rewards[other] == 0.0


def test_action_of_the_wrong_type_and_bad_options_are_refused():
    env = cave_troll_env.env(num_players=2)
    env.reset(seed=0)
    with pytest.raises(ActionTypeError):
        env.step("draw")
    with pytest.raises(ConfigError, match="num_players must be 2, 3 or 4"):
        cave_troll_env.env(num_players=5)
    with pytest.raises(ValueError, match="reward='gold' is not allowed"):
        cave_troll_env.env(num_players=2, reward="gold")
    with pytest.raises(ValueError, match="observation='image' is not allowed"):
        cave_troll_env.env(num_players=2, observation="image")
    with pytest.raises(ValueError, match="render_mode='human' is not allowed"):
        cave_troll_env.raw_env(num_players=2, render_mode="human")


def test_describe_action_is_the_engine_sentence():
    env = cave_troll_env.raw_env(num_players=4)
    env.reset(seed=0)
    layout = env.game.layout
    assert env.describe_action(layout.index("draw")) == "draw a counter from your pile"
    assert env.describe_action(layout.move(2, 11)) == layout.describe(layout.move(2, 11))
    assert "Knight" in env.describe_action(layout.move(2, 11))
