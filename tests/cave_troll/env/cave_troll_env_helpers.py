"""Shared helpers of the Cave Troll environment tests: random games and the states met along them."""

from __future__ import annotations

import numpy as np

from mk_env.cave_troll.rules import CaveTrollState, Game


def random_states(num_players: int, seed: int, every: int = 1, limit: int | None = None) -> list[CaveTrollState]:
    """Clones of the states of one random game (every ``every``-th decision, at most ``limit``)."""
    rng = np.random.default_rng(seed)
    st = Game(num_players).new_initial_state(seed)
    out = []
    step = 0
    while not st.is_terminal() and (limit is None or len(out) < limit):
        if step % every == 0:
            out.append(st.clone())
        legal = st.legal_actions()
        st.apply(int(legal[rng.integers(len(legal))]))
        step += 1
    return out


def play_random(env, seed: int) -> None:
    """Random masked play of a whole game through a PettingZoo AEC environment."""
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    for agent in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        env.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
