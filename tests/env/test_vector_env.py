"""The batched Gymnasium vector env (issue 51, "a Gymnasium vector env"): ``gymnasium.make_vec`` makes it from the
game's id, its rows are the learner's turns, its rewards the learner's, a finished game is replaced in the same
step, seeds reproduce, and the options it cannot serve are refused with the way to the copies of the
single-seat env."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest

import mk_env
from mk_env.mountain_king.env.vector import BatchVectorEnv
from mk_env.mountain_king.env.version import ENV_VERSION

ID = f"mk_env/MountainKing-v{ENV_VERSION}"
assert mk_env  # imported for its registration of the ids


def first_legal(masks: np.ndarray) -> np.ndarray:
    return masks.argmax(axis=1)


def test_make_vec_makes_the_batched_env_and_its_rows_are_the_learners_turns():
    envs = gymnasium.make_vec(ID, num_envs=3, num_players=3, reward="margin")
    assert isinstance(envs, BatchVectorEnv)
    assert envs.metadata["autoreset_mode"] == gymnasium.vector.AutoresetMode.SAME_STEP
    obs, infos = envs.reset(seed=5)
    assert obs.shape == (3,) + envs.single_observation_space.shape and obs.dtype == np.float32
    assert envs.observation_space.contains(obs) and infos["action_mask"].shape == (3, envs.single_action_space.n)
    ended = 0
    for _ in range(400):
        seats = infos["seat"]
        assert all(seats[i] == envs.batch.learner_seat(i) for i in range(3))
        actions = first_legal(envs.action_masks())
        obs, rewards, terminated, truncated, infos = envs.step(actions)
        assert not truncated.any() and rewards.dtype == np.float64
        for i in range(3):
            assert rewards[i] == pytest.approx(envs.batch.rewards[i, seats[i]])
            if not terminated[i]:
                assert rewards[i] == 0.0  # "margin" pays at the end only
        if terminated.any():
            assert infos["_final_points"].tolist() == terminated.tolist()
            assert (infos["final_points"][terminated] > 0).any()
        ended += int(terminated.sum())
    assert ended >= 3


def test_the_same_seed_gives_the_same_rows_and_a_fixed_seat_stays():
    a = gymnasium.make_vec(ID, num_envs=2, num_players=2, seat=1)
    b = BatchVectorEnv(2, 2, seat=1, seed=99)
    oa, ia = a.reset(seed=99)
    ob, ib = b.reset()
    assert np.array_equal(oa, ob) and ia["seat"].tolist() == [1, 1]
    for _ in range(50):
        ra = a.step(first_legal(a.action_masks()))
        rb = b.step(first_legal(b.action_masks()))
        assert all(np.array_equal(x, y) for x, y in zip(ra[:4], rb[:4])) and ra[4]["seat"].tolist() == [1, 1]


def test_what_it_cannot_serve_is_refused_and_the_copies_still_serve():
    with pytest.raises(ValueError, match="vectorization_mode='sync'"):
        gymnasium.make_vec(ID, num_envs=2, num_players=2, opponents="heuristic")
    with pytest.raises(AttributeError, match="only 'action_masks'"):
        BatchVectorEnv(2, 2).call("render")
    with pytest.raises(ValueError, match="one integer"):
        BatchVectorEnv(2, 2).reset(seed=[1, 2])
    copies = gymnasium.make_vec(ID, num_envs=2, num_players=2, vectorization_mode="sync")
    assert not isinstance(copies, BatchVectorEnv)
    copies.close()


def test_copy_false_hands_out_the_batchs_own_rows():
    envs = BatchVectorEnv(2, 2, copy=False)
    obs, _ = envs.reset(seed=0)
    assert np.shares_memory(obs, envs.batch.observations)
    kept = obs.copy()
    after, *_ = envs.step(first_legal(envs.action_masks()))
    assert after is obs and not np.array_equal(kept, after)  # rewritten in place by the step
