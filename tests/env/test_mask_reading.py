"""Reading an action mask: ``legal_action_numbers`` is ``np.flatnonzero`` for every mask type and layout,
and ``random_legal_action`` draws what ``rng.choice`` over the legal numbers draws."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

import mk_env
from mk_env.mountain_king.env import legal_action_numbers, random_legal_action


@pytest.mark.parametrize("dtype", [np.int8, np.uint8, np.bool_, np.int64, np.float32])
def test_legal_action_numbers_equal_flatnonzero(dtype):
    rng = np.random.default_rng(1)
    for density in (0.0, 0.001, 0.3, 1.0):
        mask = (rng.random(9790) < density).astype(dtype)
        got = legal_action_numbers(mask)
        assert np.array_equal(got, np.flatnonzero(mask))
        assert np.array_equal(legal_action_numbers(mask[::2]), np.flatnonzero(mask[::2]))  # strided
    grid = (rng.random((3, 5)) < 0.5).astype(np.int8)
    assert np.array_equal(legal_action_numbers(grid), np.flatnonzero(grid))


def test_random_legal_action_draws_what_rng_choice_draws():
    e = mk_env.env(num_players=3)
    e.reset(seed=5)
    a, b = np.random.default_rng(9), np.random.default_rng(9)
    for agent in itertools.islice(e.agent_iter(), 300):
        obs, _, term, trunc, _ = e.last()
        if term or trunc:
            e.step(None)
            continue
        mask = obs["action_mask"]
        mine = random_legal_action(mask, a)
        assert mine == int(b.choice(np.flatnonzero(mask))) and mask[mine] == 1
        e.step(mine)


def test_random_legal_action_on_an_empty_mask_says_why():
    with pytest.raises(ValueError, match="no legal action"):
        random_legal_action(np.zeros(10, np.int8), np.random.default_rng(0))
