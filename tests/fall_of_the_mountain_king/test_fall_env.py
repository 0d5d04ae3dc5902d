"""The Fall of the Mountain King AEC environment: PettingZoo's conformance tests for 2-5 players, registration,
rewards, final infos, illegal actions, the single-seat view and the ansi rendering."""

from __future__ import annotations

import logging
import pickle
import warnings
from functools import partial

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from mk_env.fall_of_the_mountain_king import env as fall
from mk_env.fall_of_the_mountain_king.rules import ConfigError, IllegalActionError
from mk_env.games import game_entry, make_game


@pytest.mark.parametrize("num_players", [2, 3, 4, 5])
def test_pettingzoo_api_test(num_players):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # api_test's advice on Dict observation spaces
        api_test(fall.env(num_players=num_players), num_cycles=60)


def test_pettingzoo_api_test_flat_observations():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(fall.env(num_players=3, observation="flat"), num_cycles=60)


@pytest.mark.parametrize("num_players", [2, 3, 4, 5])
def test_pettingzoo_seed_test(num_players):
    seed_test(partial(fall.env, num_players=num_players), num_cycles=60)


def test_registered_with_pettingzoo_and_in_the_game_table():
    import pettingzoo

    env = pettingzoo.make("aec", fall.ENV_NAME, num_players=5)
    env.reset(seed=0)
    assert str(env) == fall.ENV_NAME and env.unwrapped.game.num_players == 5
    entry = game_entry("fall_of_the_mountain_king")
    assert entry.player_counts == (2, 3, 4, 5)
    assert make_game("fall_of_the_mountain_king", 3).name == "fall_of_the_mountain_king"
    with pytest.raises(ValueError, match="Fall of the Mountain King is for 2-5 players, got 6"):
        make_game("fall_of_the_mountain_king", 6)


def _finished(reward: str, seed: int = 3, num_players: int = 3):
    """A raw environment at the end of a random game, with every agent's accumulated rewards and last infos."""
    env = fall.raw_env(num_players=num_players, reward=reward)
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


def test_a_whole_game_ends_with_score_breakdown_rank_and_the_engine_returns():
    env, total, infos = _finished("win", num_players=4)
    st = env.game_state
    assert st.is_terminal() and env.agents == []
    returns = st.returns()
    assert [total[a] for a in env.possible_agents] == pytest.approx(returns)
    for p, agent in enumerate(env.possible_agents):
        assert infos[agent]["score_breakdown"] == st.score_breakdown(p)
        assert infos[agent]["rank"] == st.ranks()[p]


def test_margin_and_dense_rewards_follow_the_honor():
    env, total, _ = _finished("margin")
    honor = [env.game_state.score_breakdown(p)["total"] for p in range(3)]
    for p, agent in enumerate(env.possible_agents):
        assert total[agent] == pytest.approx((honor[p] - max(h for q, h in enumerate(honor) if q != p)) / 100)
    env, total, _ = _finished("dense")
    st = env.game_state
    for p, agent in enumerate(env.possible_agents):
        assert total[agent] == pytest.approx(st.score_breakdown(p)["total"] / 100 + st.returns()[p])


def test_the_mask_is_the_engine_mask_only_for_the_deciding_agent():
    env = fall.raw_env(num_players=4)
    env.reset(seed=7)
    rng = np.random.default_rng(7)
    for _ in range(120):
        st = env.game_state
        decider = env.possible_agents[st.current_player()]
        assert env.agent_selection == decider
        for agent in env.possible_agents:
            mask = env.observe(agent)["action_mask"]
            if agent == decider:
                assert np.array_equal(np.flatnonzero(mask), st.legal_actions())
            else:
                assert not mask.any()
        env.step(int(rng.choice(st.legal_actions())))


def test_raw_env_strict_raises_the_engine_error_and_changes_nothing():
    env = fall.raw_env(num_players=2)
    env.reset(seed=1)
    before = env.game_state.to_json()
    illegal = int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"] == 0)[0])
    with pytest.raises(IllegalActionError):
        env.step(illegal)
    assert env.game_state.to_json() == before


def test_env_ends_the_game_on_an_illegal_action_with_a_warning(caplog):
    env = fall.env(num_players=3)
    env.reset(seed=2)
    agent = env.agent_selection
    illegal = int(np.flatnonzero(env.last()[0]["action_mask"] == 0)[0])
    with caplog.at_level(logging.WARNING):
        env.step(illegal)
    assert f"{fall.ENV_NAME}: {agent} chose an illegal action, {illegal}" in caplog.text
    _, reward, term, _, info = env.last()
    assert term and reward == -1.0 and info["illegal_action"]["agent"] == agent


def test_bad_options_are_refused_with_what_is_allowed():
    with pytest.raises(ConfigError, match="num_players must be 2, 3, 4 or 5"):
        fall.env(num_players=6)
    with pytest.raises(ValueError, match="reward='gold' is not allowed"):
        fall.env(num_players=2, reward="gold")
    with pytest.raises(ValueError, match="observation='image' is not allowed"):
        fall.env(num_players=2, observation="image")
    with pytest.raises(ValueError, match="render_mode='human' is not allowed"):
        fall.raw_env(num_players=2, render_mode="human")


def test_pickled_env_continues_the_same_game():
    env = fall.raw_env(num_players=3)
    env.reset(seed=4)
    rng = np.random.default_rng(4)
    for _ in range(40):
        env.step(int(rng.choice(env.game_state.legal_actions())))
    copy = pickle.loads(pickle.dumps(env))
    assert copy.game_state == env.game_state and copy.agent_selection == env.agent_selection
    a = int(env.game_state.legal_actions()[0])
    env.step(a)
    copy.step(a)
    assert copy.game_state == env.game_state


def test_single_seat_view_plays_whole_games_with_masks():
    view = fall.single_seat_env(num_players=3, seat=1, observation="flat")
    obs, info = view.reset(seed=3)
    rng = np.random.default_rng(3)
    assert view.observation_space.contains(obs)
    steps, done = 0, False
    while not done:
        mask = view.action_masks()
        assert view.aec.game_state.current_player() == 1 and mask.any()
        obs, reward, done, truncated, info = view.step(int(rng.choice(np.flatnonzero(mask))))
        steps += 1
    assert view.aec.game_state.is_terminal() and reward == view.aec.game_state.returns()[1] and steps > 20


def test_render_ansi_shows_the_map_boards_grids_and_the_decision():
    env = fall.raw_env(num_players=3, render_mode="ansi")
    env.reset(seed=1)
    rng = np.random.default_rng(0)
    for _ in range(150):
        env.step(int(rng.choice(env.game_state.legal_actions())))
    text = env.render()
    st = env.game_state
    for words in ("Map (", "Clan board", "Great Halls", "Champions on display", "Gnome wheel", "seat 2:",
                  f"{st.decision_kind()} decision of seat {st.current_player()}"):
        assert words in text
    assert all(name in text for name in env.game.pack.clans)
    for g, x in enumerate(st.gnome_at):  # a spectator never sees a facedown gnome's strength
        if x >= 0 and not st.gnome_public[g]:
            assert "?" in text
            break
