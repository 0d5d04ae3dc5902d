"""``env()``'s wrappers are PettingZoo's own kinds, and their fast paths show exactly what PettingZoo's
unmodified wrappers show (observations, masks, rewards and their types, terminations, infos)."""

from __future__ import annotations

import numpy as np
import pytest
from pettingzoo.utils import wrappers

import mk_env
from mk_env.mountain_king.env.version import ENV_NAME


def _play(e, seed: int, steps: int) -> list:
    """Random masked play; per step what the AEC API shows (rewards with their Python types)."""
    e.reset(seed=seed)
    rng = np.random.default_rng(seed)
    seen = []
    for i, agent in enumerate(e.agent_iter()):
        obs, reward, term, trunc, info = e.last()
        seen.append((agent, reward, type(reward), term, trunc, dict(info),
                     {k: v.tobytes() for k, v in obs["observation"].items()}, obs["action_mask"].tobytes(),
                     [(a, r, type(r)) for a, r in e.rewards.items()]))
        if term or trunc:
            e.step(None)
        else:
            mask = obs["action_mask"]
            e.step(int(rng.choice(np.flatnonzero(mask if i < steps else mask == 0))))
    return seen


def test_env_wrappers_are_pettingzoos_own_kinds():
    e = mk_env.env(num_players=3)
    assert isinstance(e, wrappers.OrderEnforcingWrapper)
    assert isinstance(e.env, wrappers.AssertOutOfBoundsWrapper)
    assert str(e) == ENV_NAME


@pytest.mark.parametrize("reward", ["win", "dense"])
def test_fast_wrappers_show_what_pettingzoos_wrappers_show(reward):
    """env() against the same raw env under PettingZoo's unmodified wrappers: identical observations,
    masks, rewards (values and types), terminations and infos, up to an illegal action's forfeit."""
    fast = mk_env.env(num_players=3, reward=reward)
    raw = mk_env.env.raw_env(num_players=3, reward=reward, strict=False)
    plain = wrappers.OrderEnforcingWrapper(wrappers.AssertOutOfBoundsWrapper(raw))
    assert _play(fast, 4, 40) == _play(plain, 4, 40)


def test_out_of_range_and_ill_typed_actions_still_trip_the_bounds_assertion():
    e = mk_env.env(num_players=2)
    e.reset(seed=1)
    before = e.unwrapped.game_state.to_json()
    for bad in (-1, e.unwrapped.game.layout.size, 2**40, None):
        with pytest.raises(AssertionError):
            e.step(bad)
    for bad in (3.0, "3", np.float64(1.0)):  # not an action number at all: the engine's clear TypeError
        with pytest.raises(TypeError, match="an action must be an integer action number"):
            e.step(bad)
    assert e.unwrapped.game_state.to_json() == before
    with pytest.raises(AttributeError):
        mk_env.env(num_players=2).last()  # before reset, as PettingZoo says
