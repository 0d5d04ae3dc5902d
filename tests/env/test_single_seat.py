"""The single-seat Gymnasium view: Gymnasium's checker, opponents, rewards, pickling, MaskablePPO."""

from __future__ import annotations

import pickle

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import mk_env
from mk_env.mountain_king.env import SingleSeatEnv


def play_random(env, rng):
    """Play one episode with masked random actions; returns (rewards, last info)."""
    obs, info = env.reset(seed=int(rng.integers(1000)))
    rewards = []
    while True:
        assert env.observation_space.contains(obs)
        a = int(rng.choice(np.flatnonzero(env.action_masks())))
        obs, r, term, trunc, info = env.step(a)
        rewards.append(r)
        if term or trunc:
            return rewards, info


def test_gymnasium_check_env_passes():
    env = mk_env.single_seat_env(num_players=2)
    check_env(env, skip_render_check=True)


@pytest.mark.parametrize("n", [2, 3, 5])
def test_learner_receives_the_terminal_reward(n):
    """Also when an opponent's move ends the game (the engine leaves ``current`` on the last mover)."""
    env = mk_env.single_seat_env(num_players=n)
    rng = np.random.default_rng(n)
    ended_by_opponent = 0
    for _ in range(12):
        rewards, info = play_random(env, rng)
        st = env.aec.game_state
        assert st.is_terminal()
        assert rewards[-1] == pytest.approx(st.returns()[env.seat])
        assert info["rank"] == st.ranks()[env.seat] and "score_breakdown" in info
        ended_by_opponent += st.current != env.seat
        if ended_by_opponent:
            break
    assert ended_by_opponent
    assert np.flatnonzero(env.action_masks()).tolist() == [0]  # after the end: only pass (vector envs' autoreset)


def test_fixed_and_random_seats():
    fixed = mk_env.single_seat_env(num_players=3, seat=2)
    for s in range(3):
        fixed.reset(seed=s)
        assert fixed.seat == 2 and fixed.aec.game_state.current_player() == 2
    rnd = mk_env.single_seat_env(num_players=3)
    seats = {rnd.reset(seed=s)[1]["seat"] for s in range(20)}
    assert seats == {0, 1, 2}
    with pytest.raises(ValueError, match="seat"):
        mk_env.single_seat_env(num_players=2, seat=2)


def test_opponents_see_their_own_pettingzoo_observation():
    seen = []

    class Recorder:  # an agent: it gets a PlayerView whose observation() is its PettingZoo view
        def act(self, view, rng):
            observation = view.observation()
            seen.append(observation)
            assert view.seat == 1 and np.array_equal(np.flatnonzero(observation["action_mask"]),
                                                     view.legal_actions())
            return int(rng.choice(np.flatnonzero(observation["action_mask"])))

    env = mk_env.single_seat_env(num_players=2, seat=0, opponents=[Recorder()])
    env.reset(seed=0)
    for _ in range(10):
        env.step(int(np.flatnonzero(env.action_masks())[0]))
    assert seen
    space = env.aec.observation_space("player_1")
    assert all(space.contains(o) for o in seen)
    assert all(o["action_mask"].any() for o in seen)
    assert np.array_equal(env.observe(0)["action_mask"].astype(bool), env.action_masks())


def test_plain_callable_opponents_get_the_observation_dict():
    seen = []

    def opponent(observation, rng):
        seen.append(observation)
        return int(np.flatnonzero(observation["action_mask"])[0])

    env = mk_env.single_seat_env(num_players=2, seat=0, opponents=opponent)
    env.reset(seed=1)
    for _ in range(10):
        env.step(int(np.flatnonzero(env.action_masks())[0]))
    assert seen and all(set(o) == {"observation", "action_mask"} for o in seen)


def test_callable_opponents_and_bad_opponents():
    calls = []

    def first_legal(observation, rng):
        calls.append(1)
        return int(np.flatnonzero(observation["action_mask"])[0])

    env = mk_env.single_seat_env(num_players=3, seat=0, opponents=first_legal)
    env.reset(seed=1)
    env.step(int(np.flatnonzero(env.action_masks())[0]))
    assert calls
    with pytest.raises(ValueError, match="opponents"):
        mk_env.single_seat_env(num_players=3, opponents=[first_legal])
    bad = mk_env.single_seat_env(num_players=2, seat=1, opponents=lambda o, r: 0)
    with pytest.raises(ValueError, match="illegal action"):
        bad.reset(seed=0)


def test_learner_illegal_action_loses():
    env = mk_env.single_seat_env(num_players=2, seat=0)
    env.reset(seed=0)
    illegal = int(np.flatnonzero(~env.action_masks())[-1])
    _, r, term, _, info = env.step(illegal)
    assert term and r == -1.0 and "illegal" in info["illegal_action"]["message"]


@pytest.mark.parametrize("observation", ["dict", "flat"])
def test_pickles_mid_game_and_continues_the_same_game(observation):
    env = mk_env.single_seat_env(num_players=3, reward="dense", observation=observation)
    env.reset(seed=4)
    for _ in range(5):
        env.step(int(np.flatnonzero(env.action_masks())[0]))
    copy = pickle.loads(pickle.dumps(env))
    assert isinstance(copy, SingleSeatEnv) and copy.seat == env.seat
    assert copy.aec.game_state == env.aec.game_state
    rng_a, rng_b = np.random.default_rng(1), np.random.default_rng(1)
    done = False
    while not done:  # the same future: the opponents' random draws and the engine's chance too
        a = int(rng_a.choice(np.flatnonzero(env.action_masks())))
        assert a == int(rng_b.choice(np.flatnonzero(copy.action_masks())))
        o1, r1, done, _, _ = env.step(a)
        o2, r2, *_ = copy.step(a)
        assert r1 == r2
        assert all(np.array_equal(o1[k], o2[k]) for k in o1) if observation == "dict" else np.array_equal(o1, o2)
    assert copy.aec.game_state == env.aec.game_state and copy.aec.game_state.is_terminal()


def test_maskable_ppo_trains_and_evaluates():
    torch = pytest.importorskip("torch")
    sb3c = pytest.importorskip("sb3_contrib")
    from sb3_contrib.common.maskable.evaluation import evaluate_policy
    from stable_baselines3.common.monitor import Monitor
    torch.set_num_threads(1)
    env = mk_env.single_seat_env(num_players=2)
    model = sb3c.MaskablePPO("MultiInputPolicy", env, n_steps=256, batch_size=64, n_epochs=1,
                             seed=0, verbose=0, device="cpu")
    model.learn(total_timesteps=2048)
    mean, _ = evaluate_policy(model, Monitor(env), n_eval_episodes=2, use_masking=True)
    assert -1.0 <= mean <= 1.0
