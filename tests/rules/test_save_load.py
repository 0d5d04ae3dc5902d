"""Exact JSON save/load (GameState.to_json, Game.state_from_json): a loaded state continues exactly like
the original, chance included; a bad save gets a clear StateError."""

from __future__ import annotations

import json

import numpy as np
import pytest

from mk_env.mountain_king.rules import Game, GameState, StateError
from mk_env.mountain_king.rules.state import FORMAT_VERSION
from rules_helpers import json_trace


def _random_play(state: GameState, rng: np.random.Generator, steps: int) -> list[int]:
    """Apply up to ``steps`` random legal actions; return them."""
    actions = []
    while len(actions) < steps and not state.is_terminal():
        legal = state.legal_actions()
        a = int(legal[rng.integers(len(legal))])
        state.apply(a)
        actions.append(a)
    return actions


@pytest.mark.parametrize("options", [{"num_players": 2, "board_side": "autumn"}, {"num_players": 3},
                                     {"num_players": 4, "team_mode": True},
                                     {"num_players": 5, "workshops": "no_duplicates"}])
def test_save_at_random_points_load_and_continue_identically(options: dict) -> None:
    game = Game(**options)
    rng = np.random.default_rng(options["num_players"])
    for seed in range(3):
        full = game.new_initial_state(seed)
        actions = _random_play(full.clone(), np.random.default_rng(seed), 10_000)
        for cut in sorted(rng.choice(len(actions), size=3, replace=False)):
            original = game.new_initial_state(seed)
            for a in actions[:cut]:
                original.apply(a)
            text = original.to_json()
            loaded = game.state_from_json(text)
            assert loaded.to_json() == text
            assert loaded == original
            assert np.array_equal(loaded.legal_actions(), original.legal_actions())
            rest = actions[cut:]
            assert json_trace(loaded, rest) == json_trace(original, rest)
            assert loaded.is_terminal() and loaded.returns() == original.returns()


def test_loaded_state_draws_the_same_future_chance() -> None:
    """The generator is part of the save: the same draws come out after loading."""
    game = Game(num_players=3)
    state = game.new_initial_state(11)
    _random_play(state, np.random.default_rng(0), 40)
    loaded = game.state_from_json(state.to_json())
    assert np.array_equal(state.rng.integers(1 << 30, size=8), loaded.rng.integers(1 << 30, size=8))


def test_a_dict_save_loads_too() -> None:
    game = Game(num_players=2)
    state = game.new_initial_state(4)
    _random_play(state, np.random.default_rng(4), 25)
    assert game.state_from_json(json.loads(state.to_json())) == state


def test_a_finished_game_round_trips() -> None:
    game = Game(num_players=2)
    state = game.new_initial_state(9)
    _random_play(state, np.random.default_rng(9), 10_000)
    loaded = game.state_from_json(state.to_json())
    assert loaded.is_terminal() and loaded.ranks() == state.ranks()
    assert [loaded.score_breakdown(p) for p in range(2)] == [state.score_breakdown(p) for p in range(2)]


# ---------------------------------------------------------------------------------------------- bad saves
@pytest.fixture(scope="module")
def saved() -> tuple[Game, str]:
    game = Game(num_players=3)
    state = game.new_initial_state(5)
    _random_play(state, np.random.default_rng(5), 60)
    return game, state.to_json()


def _edited(text: str, **changes) -> str:
    data = json.loads(text)
    for key, value in changes.items():
        if value is ...:
            del data[key]
        else:
            data[key] = value
    return json.dumps(data)


def test_truncated_save_is_refused(saved: tuple[Game, str]) -> None:
    game, text = saved
    for cut in (0, 1, len(text) // 3, len(text) - 1):
        with pytest.raises(StateError, match="not valid JSON .*truncated or corrupt"):
            game.state_from_json(text[:cut])


def test_corrupted_bytes_are_refused(saved: tuple[Game, str]) -> None:
    game, text = saved
    with pytest.raises(StateError, match="not valid JSON"):
        game.state_from_json(text.replace(",", ";", 3))
    with pytest.raises(StateError, match="must be a JSON object"):
        game.state_from_json("[1, 2, 3]")


def test_save_from_another_data_pack_is_refused(saved: tuple[Game, str]) -> None:
    game, text = saved
    with pytest.raises(StateError, match=r"from data pack 'other@2\+abc'.*this game uses 'default@"):
        game.state_from_json(_edited(text, pack_id="other@2+abc"))


@pytest.mark.parametrize("version", [FORMAT_VERSION + 1, 0, "1", None])
def test_unknown_format_version_is_refused(saved: tuple[Game, str], version: object) -> None:
    game, text = saved
    with pytest.raises(StateError, match=rf"format_version {version!r}; this engine reads version {FORMAT_VERSION}"):
        game.state_from_json(_edited(text, format_version=version))


def test_missing_format_version_is_refused(saved: tuple[Game, str]) -> None:
    game, text = saved
    with pytest.raises(StateError, match="format_version None"):
        game.state_from_json(_edited(text, format_version=...))


def test_save_of_other_options_is_refused(saved: tuple[Game, str]) -> None:
    _, text = saved
    with pytest.raises(StateError, match="saved state has options .* but this game has"):
        Game(num_players=2).state_from_json(text)


def test_missing_field_is_named(saved: tuple[Game, str]) -> None:
    game, text = saved
    with pytest.raises(StateError, match="missing fields: supply"):
        game.state_from_json(_edited(text, supply=...))


def test_wrong_shape_is_named(saved: tuple[Game, str]) -> None:
    game, text = saved
    with pytest.raises(StateError, match=r"field 'storage' has shape \(2, 7\), expected \(3, 7\)"):
        game.state_from_json(_edited(text, storage=[[0] * 7] * 2))


def test_non_numeric_array_is_named(saved: tuple[Game, str]) -> None:
    game, text = saved
    with pytest.raises(StateError, match="field 'supply' is not a numeric array"):
        game.state_from_json(_edited(text, supply=["a"] * 7))


def test_wrong_scalar_type_is_named(saved: tuple[Game, str]) -> None:
    game, text = saved
    with pytest.raises(StateError, match="field 'decks' should be list, got str"):
        game.state_from_json(_edited(text, decks="none"))


def test_bad_generator_is_named(saved: tuple[Game, str]) -> None:
    game, text = saved
    with pytest.raises(StateError, match="field 'rng' is not a PCG64 state"):
        game.state_from_json(_edited(text, rng={"bit_generator": "MT19937"}))


def test_phase_out_of_range_is_named(saved: tuple[Game, str]) -> None:
    game, text = saved
    with pytest.raises(StateError, match="phase 99 / current .* out of range"):
        game.state_from_json(_edited(text, phase=99))
