"""The Cave Troll environment's pickling, global state, rendering, single-seat Gymnasium view and its
generated documentation page."""

from __future__ import annotations

import pickle
from pathlib import Path

import numpy as np
import pytest

from mk_env.cave_troll import env as cave_troll_env
from mk_env.cave_troll.env import docs
from mk_env.mountain_king.env.wrappers import FlattenObservation

ROOT = Path(__file__).resolve().parents[3]


def _advance(env, steps: int, seed: int = 0) -> None:
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        obs, _, term, trunc, _ = env.last()
        env.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))


@pytest.mark.parametrize("observation", ["dict", "flat"])
def test_an_environment_pickled_mid_game_continues_the_same_game(observation):
    env = cave_troll_env.env(num_players=4, observation=observation, reward="dense")
    env.reset(seed=7)
    _advance(env, 150)
    copy = pickle.loads(pickle.dumps(env))
    assert copy.unwrapped.game_state == env.unwrapped.game_state
    for _ in range(2):  # the same observations, rewards and future for the same actions
        for agent in env.possible_agents:
            a, b = env.observe(agent), copy.observe(agent)
            np.testing.assert_array_equal(np.asarray(a["action_mask"]), np.asarray(b["action_mask"]))
            flat = env.unwrapped.observer.flatten
            np.testing.assert_array_equal(flat(a["observation"]) if observation == "dict" else a["observation"],
                                          flat(b["observation"]) if observation == "dict" else b["observation"])
        assert env.agent_selection == copy.agent_selection and env.rewards == copy.rewards
        _advance(env, 60, seed=3)
        _advance(copy, 60, seed=3)
    assert copy.unwrapped.game_state == env.unwrapped.game_state
    assert pickle.loads(pickle.dumps(cave_troll_env.env)) is cave_troll_env.env


def test_global_state_holds_the_hidden_parts():
    env = cave_troll_env.raw_env(num_players=3)
    env.reset(seed=1)
    state = env.state()
    assert state.shape == env.state_space.shape and env.state_space.contains(state)
    slices = env.state_slices()
    a, b, shape = slices["pile_order"]
    order = state[a:b].reshape(shape)
    st = env.game_state
    top = st.piles[0][-1]
    assert order[0, top % st.game.pack.slots] == pytest.approx(1 / st.game.pack.slots)  # drawn next
    np.testing.assert_array_equal(state[:env.observer.size], env.observer.encode_flat(st, 0))


def test_flatten_observation_wrapper_works_on_cave_troll():
    env = FlattenObservation(cave_troll_env.env(num_players=2), style="rllib")
    env.reset(seed=0)
    obs = env.observe(env.agent_selection)
    assert obs["observations"].shape == (env.unwrapped.observer.size,)
    assert obs["action_mask"].dtype == np.float32


def test_ansi_rendering_shows_rooms_values_counters_and_players():
    env = cave_troll_env.env(num_players=3, render_mode="ansi")
    env.reset(seed=2)
    _advance(env, 200)
    text = env.render()
    assert "R11:5" in text and "north-west entrance" in text and "PIT" in text
    assert "red (seat 0)" in text and "Now:" in text
    assert any(line.startswith("  R") and "->" in line for line in text.splitlines())


@pytest.mark.parametrize("num_players", [2, 4])
def test_rgb_rendering_draws_the_lair(num_players):
    pytest.importorskip("PIL")
    env = cave_troll_env.env(num_players=num_players, render_mode="rgb_array")
    env.reset(seed=3)
    _advance(env, 120)
    image = env.render()
    assert image.ndim == 3 and image.shape[2] == 3 and image.dtype == np.uint8
    assert len(np.unique(image.reshape(-1, 3), axis=0)) > 5  # rooms, doorways, the pit, counters


def test_render_without_a_mode_warns_and_returns_nothing():
    env = cave_troll_env.raw_env(num_players=2)
    env.reset(seed=0)
    with pytest.warns(UserWarning, match="without a render_mode"):
        assert env.render() is None


def test_single_seat_view_plays_a_whole_game_with_masks():
    gym_env = cave_troll_env.single_seat_env(num_players=3, seat=2, observation="flat")
    obs, info = gym_env.reset(seed=5)
    rng = np.random.default_rng(5)
    done, steps = False, 0
    while not done:
        assert gym_env.observation_space.contains(obs) and info["seat"] == 2
        mask = gym_env.action_masks()
        assert mask.any()
        obs, reward, done, _, info = gym_env.step(int(rng.choice(np.flatnonzero(mask))))
        steps += 1
    assert "score_breakdown" in info and "rank" in info and steps > 10
    copy = pickle.loads(pickle.dumps(gym_env))
    assert copy.aec.game_state == gym_env.aec.game_state


def test_docs_page_is_up_to_date():
    """docs/cave-troll/environment.md is ``python -m mk_env.cave_troll.env.docs``'s output, and the tables
    in the docstring are current (``--update-docstring``)."""
    assert (ROOT / "docs" / "cave-troll" / "environment.md").read_text() == docs.page(), (
        "regenerate: python -m mk_env.cave_troll.env.docs > docs/cave-troll/environment.md")
    assert docs.with_tables(docs.DOC_PATH.read_text()) == docs.DOC_PATH.read_text(), (
        "regenerate: python -m mk_env.cave_troll.env.docs --update-docstring")
