"""Determinism: the same seed and actions give the same states in separate processes; a clone continues
exactly like the original, future chance included."""

from __future__ import annotations

import hashlib
import multiprocessing as mp

import numpy as np
import pytest

from mk_env.mountain_king.rules import Game
from rules_helpers import json_trace

CASES = [({"num_players": 2, "board_side": "autumn"}, 3), ({"num_players": 3}, 8),
         ({"num_players": 4, "team_mode": True}, 1), ({"num_players": 5, "workshops": "no_duplicates"}, 21)]


def seeded_game_digests(options: dict, seed: int) -> tuple[list[int], list[str], list[str]]:
    """Play a seeded random game; return its actions, the sha256 of ``to_json()`` after each decision,
    and of each seat's legal-action mask (what an agent observes of its choices). Runs in a child."""
    game = Game(**options)
    state = game.new_initial_state(seed)
    rng = np.random.default_rng(seed)
    actions, states, masks = [], [], []
    while not state.is_terminal():
        legal = state.legal_actions()
        masks.append(hashlib.sha256(state.legal_mask().tobytes()).hexdigest())
        a = int(legal[rng.integers(len(legal))])
        state.apply(a)
        actions.append(a)
        states.append(hashlib.sha256(state.to_json().encode()).hexdigest())
    return actions, states, masks


def test_same_seed_same_game_in_separate_processes() -> None:
    ctx = mp.get_context("spawn")  # fresh interpreters: no shared caches, hash seeds or imports
    with ctx.Pool(2) as pool:
        children = pool.starmap(seeded_game_digests, CASES + CASES)
    here = [seeded_game_digests(options, seed) for options, seed in CASES]
    for i, case in enumerate(CASES):
        assert children[i] == here[i], f"process A differs from this process for {case}"
        assert children[i + len(CASES)] == here[i], f"process B differs from this process for {case}"
    assert len({tuple(h[1]) for h in here}) == len(CASES)


def test_different_seeds_give_different_games() -> None:
    game = Game(num_players=3)
    assert game.new_initial_state(1).to_json() != game.new_initial_state(2).to_json()


def test_a_generator_seed_equals_the_int_seed() -> None:
    game = Game(num_players=4)
    assert game.new_initial_state(np.random.default_rng(17)) == game.new_initial_state(17)


@pytest.mark.parametrize("options, seed", CASES)
def test_a_clone_continues_exactly_like_the_original(options: dict, seed: int) -> None:
    game = Game(**options)
    actions, _, _ = seeded_game_digests(options, seed)
    rng = np.random.default_rng(seed + 100)
    for cut in sorted(rng.choice(len(actions), size=4, replace=False)):
        original = game.new_initial_state(seed)
        for a in actions[:cut]:
            original.apply(a)
        clone = original.clone()
        assert clone.to_json() == original.to_json()
        rest = actions[cut:]
        assert json_trace(clone, rest) == json_trace(original, rest)  # refills and pedestal draws included


def test_a_clone_is_independent_of_the_original() -> None:
    game = Game(num_players=2)
    state = game.new_initial_state(6)
    for _ in range(30):
        state.apply(int(state.legal_actions()[-1]))
    before = state.to_json()
    clone = state.clone()
    clone.apply(int(clone.legal_actions()[0]))
    clone.rng.integers(10, size=5)
    clone.supply[0] += 1
    clone.decks[0].append(-7)
    assert state.to_json() == before


def test_determinize_never_changes_the_original_or_what_the_player_sees() -> None:
    game = Game(num_players=3)
    state = game.new_initial_state(2)
    for _ in range(40):
        state.apply(int(state.legal_actions()[len(state.legal_actions()) // 2]))
    before = state.to_json()
    other = state.determinize(0, np.random.default_rng(1))
    assert state.to_json() == before
    for name in ("kind", "supply", "storage", "horde", "smoot", "tokens", "spellbook", "statue"):
        assert np.array_equal(getattr(other, name), getattr(state, name)), name
    assert [len(d) for d in other.decks] == [len(d) for d in state.decks]
    assert np.array_equal(other.legal_actions(), state.legal_actions())
