"""The observation's buffers: each player's template is its own, every observation handed out is a fresh
copy that nothing changes later, and the encoder's memo follows direct edits of the state's arrays."""

from __future__ import annotations

import numpy as np
from rules_helpers import play_random

import mk_env
from mk_env.mountain_king.env.observation import Observer
from mk_env.mountain_king.rules import Game


def test_template_buffers_are_per_player_and_fresh():
    """Each player's template is its own; an observation's arrays are views of one fresh buffer."""
    game = Game(4)
    st = game.new_initial_state(2)
    ob = Observer(game)
    a, b = ob.encode(st, 0), ob.encode(st, 1)
    assert not np.shares_memory(a["players"], b["players"])
    assert all(v.dtype == np.float32 and v.flags.c_contiguous for v in a.values())
    assert not np.array_equal(a["players"], b["players"])  # egocentric
    assert all(np.array_equal(a[k], Observer(game).encode(st, 0)[k]) for k in a)


def test_observation_arrays_are_fresh_and_never_changed_later():
    """The memoised encoder hands out copies: changing a returned array, or playing on, changes no
    observation already returned (PettingZoo and SB3 keep references)."""
    env = mk_env.env(num_players=3)
    env.reset(seed=3)
    rng = np.random.default_rng(3)
    kept = []
    for _ in range(60):
        obs = env.observe(env.agent_selection)
        kept.append((obs, {k: v.copy() for k, v in obs["observation"].items()}, obs["action_mask"].copy()))
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(legal[rng.integers(len(legal))]))
    for obs, inner, mask in kept:
        assert all(np.array_equal(obs["observation"][k], inner[k]) for k in inner)
        assert np.array_equal(obs["action_mask"], mask)
    st = env.unwrapped.game_state
    ob = env.unwrapped.observer
    a = ob.encode(st, 0)
    for v in a.values():
        v[...] = 0.5  # the caller scribbles on its arrays
    b = Observer(st.game).encode(st, 0)
    c = ob.encode(st, 0)
    assert all(np.array_equal(b[k], c[k]) for k in b)


def test_encoder_memo_follows_direct_changes_to_the_state():
    """Tests and tools edit state arrays directly: the memo is keyed by the arrays' bytes, so the
    next observation shows the edit exactly as a fresh encoder does."""
    st = play_random(Game(4).new_initial_state(5), np.random.default_rng(5), 80)
    ob = Observer(st.game)
    for p in range(4):
        ob.encode(st, p)
    st.storage[1, 2] += 1
    st.tokens[2, 0, 3] += 1
    empty = int(np.flatnonzero(st.kind[:-1] == 0)[0])
    st.kind[empty] = 2
    st.statue[empty] = 1
    st.horde_bribes[0, 0] += 1
    st.spell_runes[0] += 1
    st.track_taken[0, 0] = 3
    st.reach[0, empty] = True
    for p in range(4):
        got, want = ob.encode(st, p), Observer(st.game).encode(st, p)
        assert all(np.array_equal(got[k], want[k]) for k in want), p
