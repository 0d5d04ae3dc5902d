"""The PettingZoo AEC environment: API conformance, seeding, observation bounds, the exact mask,
rewards, illegal actions and the generated documentation."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

import mk_env
from mk_env.mountain_king.env import docs
from mk_env.mountain_king.rules import ConfigError, Game, IllegalActionError
from mk_env.mountain_king.env.version import ENV_NAME

PLAYER_COUNTS = (2, 3, 4, 5)


def random_play(env, rng, steps=None):
    """Play masked random actions; yields (agent, observation) before each live step."""
    for k, agent in enumerate(env.agent_iter()):
        obs, _, term, trunc, _ = env.last()
        if steps is not None and k >= steps:
            return
        if term or trunc:
            env.step(None)
            continue
        yield agent, obs
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))


@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_pettingzoo_api_test(n):
    api_test(mk_env.env(num_players=n), num_cycles=60)


@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_pettingzoo_seed_test(n):
    seed_test(lambda: mk_env.env(num_players=n), num_cycles=40)


def test_raw_env_is_an_aec_env_with_seats_as_agents():
    env = mk_env.raw_env(num_players=3)
    env.reset(seed=0)
    assert env.agents == ["player_0", "player_1", "player_2"]
    assert env.action_space("player_1").n == env.game.layout.size
    assert env.describe_action(0).startswith("pass")


def test_bad_game_options_raise_the_engines_config_error():
    with pytest.raises(ConfigError, match="board_side"):
        mk_env.env(num_players=4, board_side="autumn")
    with pytest.raises(ConfigError, match="num_players"):
        mk_env.raw_env(num_players=6)
    with pytest.raises(ValueError, match="reward"):
        mk_env.raw_env(num_players=2, reward="points")


def test_game_options_pass_to_the_engine():
    env = mk_env.raw_env(num_players=2, board_side="autumn", workshops="no_duplicates")
    assert env.game.board_side == "autumn" and env.game.workshop_selection == "no_duplicates"
    assert env.observation_space("player_0")["observation"]["board"].shape[1:] == (13, 15)


@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_observations_stay_inside_the_declared_space(n):
    games = 5
    _observations_inside_space(n, games)


@pytest.mark.slow
@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_observations_stay_inside_the_declared_space_many_games(n):
    _observations_inside_space(n, 40)


def _observations_inside_space(n: int, games: int) -> None:
    env = mk_env.raw_env(num_players=n)
    space = env.observation_space("player_0")
    rng = np.random.default_rng(n)
    for g in range(games):
        env.reset(seed=100 * n + g)
        for agent, obs in random_play(env, rng):
            assert space.contains(obs), _where_outside(space, obs)
            other = env.possible_agents[(env.agent_seat[agent] + 1) % n]
            assert space.contains(env.observe(other))
        assert env.game_state.is_terminal()


def _where_outside(space, obs) -> str:
    for k, box in space["observation"].items():
        v = obs["observation"][k]
        if not box.contains(v):
            return f"{k}: shape {v.shape} min {v.min()} max {v.max()} dtype {v.dtype}"
    return "action_mask"


@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_mask_is_exact_both_ways(n):
    """Every masked-in action applies on a clone; a sample of masked-out ones raise."""
    env = mk_env.raw_env(num_players=n)
    rng = np.random.default_rng(7)
    size = env.game.layout.size
    for g in range(2):
        env.reset(seed=g)
        for k, (_, obs) in enumerate(random_play(env, rng)):
            if k % 3:
                continue
            mask = obs["action_mask"]
            assert mask.dtype == np.int8 and mask.shape == (size,)
            st = env.game_state
            for a in np.flatnonzero(mask):
                st.clone().apply(int(a))
            for a in rng.choice(np.flatnonzero(mask == 0), size=20, replace=False):
                with pytest.raises(IllegalActionError):
                    st.clone().apply(int(a))


def test_observation_is_egocentric_and_hides_the_decks():
    env = mk_env.raw_env(num_players=4)
    env.reset(seed=3)
    st = env.game_state
    for p in range(4):
        obs = env.observe(f"player_{p}")["observation"]
        net = env.observer.ch["network_0"]
        assert np.array_equal(obs["board"][net].reshape(-1).astype(bool), st.reach[p, :-1])
        assert obs["players"][0, 24] == 1.0  # teammate flag of myself
    # a state differing only in hidden information gives the same observation
    other = st.determinize(1, np.random.default_rng(5))
    a = env.observer.encode(st, 1)
    b = env.observer.encode(other, 1)
    assert all(np.array_equal(a[k], b[k]) for k in a)


def test_draft_hand_is_seen_only_by_its_owner():
    env = mk_env.raw_env(num_players=2)
    env.reset(seed=0)
    while env.game_state.decision_kind() != "setup_draft":
        env.step(int(env.game_state.legal_actions()[0]))
    me = env.game_state.current_player()
    mine = env.observe(f"player_{me}")["observation"]["draft"]
    theirs = env.observe(f"player_{1 - me}")["observation"]["draft"]
    hand = env.game_state.draft_hand[me]
    assert np.flatnonzero(mine[:-1]).tolist() == sorted(hand)
    assert not np.array_equal(mine, theirs) or env.game_state.draft_hand[1 - me] == hand


def test_pending_sub_decision_is_observed():
    env = mk_env.raw_env(num_players=2)
    rng = np.random.default_rng(1)
    seen = set()
    for seed in range(30):  # random seats rarely move a statue: about one game in ten
        env.reset(seed=seed)
        for _, obs in random_play(env, rng):
            pend = env.game_state.pending
            o = obs["observation"]
            if pend.statue_square is not None:
                ch = env.observer.ch["pending_statue"]
                assert o["board"][ch].reshape(-1)[pend.statue_square] == 1.0
                seen.add("statue")
            if pend.dig is not None:
                assert o["board"][env.observer.ch["pending_dig"]].sum() > 0
                seen.add("dig")
            if pend.spell is not None:
                assert o["pending"][pend.spell] == 1.0
                seen.add("spell")
    assert seen >= {"statue", "spell"}


@pytest.mark.parametrize("reward", ["win", "margin", "dense"])
def test_rewards_and_final_infos(reward):
    env = mk_env.raw_env(num_players=3, reward=reward)
    env.reset(seed=11)
    rng = np.random.default_rng(11)
    total = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        obs, r, term, trunc, info = env.last()
        total[agent] += r
        if term:
            assert set(info) >= {"score_breakdown", "rank"}
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    st = env.game_state
    scores = [st.score_breakdown(p)["total"] for p in range(3)]
    returns = st.returns()
    for p, a in enumerate(env.possible_agents):
        if reward == "win":
            assert total[a] == pytest.approx(returns[p])
        elif reward == "margin":
            assert total[a] == pytest.approx((scores[p] - max(scores[:p] + scores[p + 1:])) / 100)
        else:
            assert total[a] == pytest.approx(returns[p] + scores[p] / 100)


def test_strict_raw_env_raises_an_explaining_error_and_leaves_the_game():
    env = mk_env.raw_env(num_players=2)
    env.reset(seed=0)
    before = env.game_state.to_json()
    illegal = int(np.flatnonzero(env.game_state.legal_mask() == 0)[-1])
    with pytest.raises(IllegalActionError, match="illegal action .*Allowed now"):
        env.step(illegal)
    assert env.game_state.to_json() == before


def test_env_illegal_action_loses_and_is_reported():
    env = mk_env.env(num_players=3)
    env.reset(seed=0)
    agent = env.agent_selection
    illegal = int(np.flatnonzero(env.unwrapped.game_state.legal_mask() == 0)[-1])
    env.step(illegal)
    assert all(env.terminations.values())
    assert env.rewards[agent] == -1.0
    assert all(r == 0 for a, r in env.rewards.items() if a != agent)
    report = env.infos[agent]["illegal_action"]
    assert report["agent"] == agent and report["action"] == illegal and "illegal" in report["message"]


def test_reset_seed_reproduces_the_game():
    a, b = mk_env.raw_env(num_players=2), mk_env.raw_env(num_players=2)
    a.reset(seed=5)
    b.reset(seed=5)
    assert a.game_state == b.game_state
    b.reset(seed=6)
    assert a.game_state != b.game_state


def test_render_modes_are_declared_and_rendering_is_delegated():
    assert set(mk_env.raw_env.metadata["render_modes"]) == {"ansi", "rgb_array", "human"}
    env = mk_env.raw_env(num_players=2, render_mode="ansi")
    env.reset(seed=0)
    pytest.importorskip("mk_env.mountain_king.env.render")
    assert isinstance(env.render(), str)
    with pytest.raises(ValueError, match="render_mode"):
        mk_env.raw_env(num_players=2, render_mode="video")


def test_registered_with_pettingzoo_where_available():
    import pettingzoo
    if not hasattr(pettingzoo, "make"):
        pytest.skip("this PettingZoo has no registry")
    env = pettingzoo.make("aec", ENV_NAME, num_players=2)
    env.reset(seed=0)
    assert env.possible_agents == ["player_0", "player_1"]


def test_docs_page_is_up_to_date():
    path = Path(__file__).resolve().parents[2] / "docs" / "environment.md"
    assert path.read_text() == docs.page(), "run: python -m mk_env.mountain_king.env.docs > docs/environment.md"


def test_docstring_tables_are_up_to_date():
    from mk_env.mountain_king.env import aec
    assert docs.tables() in aec.__doc__, "run: python -m mk_env.mountain_king.env.docs --update-docstring"


def test_action_table_matches_the_layout():
    table = docs.action_table()
    for n in PLAYER_COUNTS:
        assert f"**{Game(n).layout.size}**" in table


def test_docstring_states_the_current_action_space_sizes():
    from mk_env.mountain_king.env import aec
    from mk_env.mountain_king.rules import Game
    winter, autumn = Game(4).layout.size, Game(3).layout.size
    assert f"({winter} on winter, {autumn} on autumn)" in aec.__doc__
