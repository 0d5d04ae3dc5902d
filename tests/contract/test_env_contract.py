"""One contract, every game: each game of the card at each player count its rules allow passes PettingZoo's
API and seed tests, pickles mid-game and continues the same game, and refuses misuse (a call before
``reset()``, a step after the end) with a clear error instead of an ``AttributeError``. A game added to
:mod:`mk_env.games` is tested here without another line."""

from __future__ import annotations

import importlib
import pickle
from functools import partial

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from mk_env.core.errors import ResetNeededError
from mk_env.games import GAMES

CONFIGS = [(entry, n) for entry in GAMES.values() for n in entry.player_counts]
IDS = [f"{entry.name}-{n}p" for entry, n in CONFIGS]


def package(entry):
    """The game's env package (``env``, ``raw_env``, ``single_seat_env``)."""
    return importlib.import_module(entry.env)


def play_random(env, steps: int, rng: np.random.Generator) -> None:
    """``steps`` random legal steps of an AEC env (or until its game ends)."""
    for _ in range(steps):
        if not env.agents:
            return
        observation, _, terminated, truncated, _ = env.last()
        env.step(None if terminated or truncated else int(rng.choice(np.flatnonzero(observation["action_mask"]))))


@pytest.mark.parametrize("entry, players", CONFIGS, ids=IDS)
def test_pettingzoo_api_and_seed_tests_pass(entry, players):
    with pytest.warns(UserWarning):  # PettingZoo's notes on Dict observations, as for its own classic envs
        api_test(package(entry).env(num_players=players), num_cycles=60)
    seed_test(partial(package(entry).env, num_players=players), num_cycles=60)


@pytest.mark.parametrize("entry, players", CONFIGS, ids=IDS)
def test_an_env_pickled_mid_game_continues_the_same_game(entry, players):
    env = package(entry).env(num_players=players)
    env.reset(seed=5)
    play_random(env, 40, np.random.default_rng(1))
    copy = pickle.loads(pickle.dumps(env))
    for a, b in ((env, np.random.default_rng(2)), (copy, np.random.default_rng(2))):
        play_random(a, 40, b)
    assert env.unwrapped.game_state.to_json() == copy.unwrapped.game_state.to_json()


@pytest.mark.parametrize("entry", GAMES.values(), ids=list(GAMES))
def test_calls_before_reset_say_reset_is_needed(entry):
    raw = package(entry).raw_env(num_players=entry.player_counts[0])
    for name, call in (("observe()", lambda: raw.observe("player_0")), ("step()", lambda: raw.step(0)),
                       ("last()", raw.last), ("state()", raw.state)):
        with pytest.raises(ResetNeededError, match=rf"reset\(\) needs to be called before {name}"):
            call()
    single = package(entry).single_seat_env(num_players=entry.player_counts[0])
    for name, call in (("step()", lambda: single.step(0)), ("action_masks()", single.action_masks),
                       ("observe()", lambda: single.observe(0))):
        with pytest.raises(ResetNeededError, match=rf"before {name}"):
            call()
    assert isinstance(ResetNeededError("x"), RuntimeError)


@pytest.mark.parametrize("entry", GAMES.values(), ids=list(GAMES))
def test_a_step_after_the_end_is_refused_clearly(entry):
    single = package(entry).single_seat_env(num_players=entry.player_counts[0])
    single.reset(seed=3)
    done, rng = False, np.random.default_rng(0)
    while not done:
        _, _, done, _, _ = single.step(int(rng.choice(np.flatnonzero(single.action_masks()))))
    with pytest.raises(RuntimeError, match="after the episode ended; call reset"):
        single.step(0)
    raw = package(entry).raw_env(num_players=entry.player_counts[0])
    raw.reset(seed=3)
    play_random(raw, 100_000, rng)
    assert not raw.agents and raw.game_state.is_terminal()


@pytest.mark.parametrize("entry, players", CONFIGS, ids=IDS)
def test_every_declared_render_mode_draws_mid_game(entry, players):
    """Each render mode of the env's metadata works (``human`` opens a window, so it is left out here)."""
    modes = [m for m in package(entry).raw_env.metadata["render_modes"] if m != "human"]
    assert {"ansi", "rgb_array"} <= set(modes)
    for mode in modes:
        env = package(entry).env(num_players=players, render_mode=mode)
        env.reset(seed=2)
        play_random(env, 30, np.random.default_rng(3))
        out = env.render()
        if mode == "ansi":
            assert isinstance(out, str) and out.strip()
        else:
            assert out.dtype == np.uint8 and out.ndim == 3 and out.shape[2] == 3 and out.std() > 0
        env.close()


@pytest.mark.parametrize("entry, players", CONFIGS, ids=IDS)
def test_max_cycles_truncates_every_agent_as_pettingzoo_envs_take_it(entry, players):
    """``max_cycles=N``: after N decisions in all every agent is truncated (``infos[agent]["truncated"]`` N, no
    final reward) and ``agent_iter`` ends once each has stepped with None; the single-seat view refuses it,
    naming Gymnasium's ``max_episode_steps``."""
    env = package(entry).env(num_players=players, max_cycles=5)
    env.reset(seed=1)
    rng, decisions = np.random.default_rng(0), 0
    for agent in env.agent_iter():
        observation, _, terminated, truncated, info = env.last()
        if terminated or truncated:
            assert truncated and info["truncated"] == 5 and not terminated
            env.step(None)
            continue
        decisions += 1
        env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    assert decisions == 5 and not env.agents
    copy = pickle.loads(pickle.dumps(package(entry).raw_env(num_players=players, max_cycles=3)))
    assert copy.max_cycles == 3
    for bad in (0, -2, 2.5, True):
        with pytest.raises(ValueError, match="max_cycles"):
            package(entry).raw_env(num_players=players, max_cycles=bad)
    with pytest.raises(ValueError, match="max_episode_steps"):
        package(entry).single_seat_env(num_players=players, max_cycles=5)


@pytest.mark.parametrize("entry", GAMES.values(), ids=list(GAMES))
def test_an_action_of_the_wrong_type_is_refused_and_changes_nothing(entry):
    """A string, a float, a bool, a list or None for a live agent raises (``ActionTypeError`` or
    ``ValueError`` naming what is allowed) in every env, strict or not, and the game is as it was; numpy
    integers and 0-d integer arrays are actions."""
    from mk_env.core.errors import ActionTypeError

    for make in (package(entry).raw_env, package(entry).env):
        env = make(num_players=entry.player_counts[0])
        env.reset(seed=4)
        before = env.unwrapped.game_state.to_json()
        for bad in ("3", 3.0, True, [3], np.float32(1.0)):
            with pytest.raises(ActionTypeError):
                env.step(bad)
            assert env.unwrapped.game_state.to_json() == before
        with pytest.raises(ValueError, match="must act"):
            env.unwrapped.step(None)
        legal = int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0])
        env.step(np.array(legal, dtype=np.int64))  # a 0-d integer array: what model.predict returns
        assert env.unwrapped.game_state.to_json() != before


@pytest.mark.parametrize("entry, players", CONFIGS, ids=IDS)
def test_the_global_state_fits_its_space_and_its_slices(entry, players):
    env = package(entry).raw_env(num_players=players)
    env.reset(seed=6)
    play_random(env, 25, np.random.default_rng(6))
    state = env.state()
    assert env.state_space.contains(state) and state.dtype == np.float32
    slices = env.state_slices()
    assert sum(stop - start for start, stop, _ in slices.values()) == state.size
    for start, stop, shape in slices.values():
        assert int(np.prod(shape)) == stop - start
