"""Hostile saves, refused the same way in every game: a generator state out of numpy's range (a raw
``OverflowError`` before) and, in Fall of the Mountain King, counters no game can reach (accepted before), each
a ``StateError`` naming the field; a sound save mid-game still loads to the same state."""

from __future__ import annotations

import json

import numpy as np
import pytest

from mk_env.core.errors import StateError
from mk_env.games import GAMES, make_game


def mid_game(name: str, players: int, steps: int = 60):
    """A game of ``name`` after ``steps`` random decisions (fewer in a game that ends sooner: the state before
    its last decision)."""
    state = make_game(name, players).new_initial_state(seed=1)
    rng = np.random.default_rng(0)
    for _ in range(steps):
        after = state.clone()
        after.apply(int(rng.choice(state.legal_actions())))
        if after.is_terminal():
            break
        state = after
    return state


@pytest.mark.parametrize("name", list(GAMES))
@pytest.mark.parametrize("rng", [{"bit_generator": "PCG64", "state": {"state": 2**200, "inc": 1}, "has_uint32": 0,
                                  "uinteger": 0}, {"bit_generator": "MT19937"}, [1, 2], None])
def test_a_generator_state_out_of_range_is_a_state_error(name, rng):
    state = mid_game(name, 2)
    data = json.loads(state.to_json())
    assert state.game.state_from_json(json.dumps(data)).to_json() == state.to_json()
    data["rng"] = rng
    with pytest.raises(StateError, match="'rng' is not a PCG64 state"):
        state.game.state_from_json(json.dumps(data))


@pytest.mark.parametrize("name", list(GAMES))
def test_a_save_holding_an_integer_of_thousands_of_digits_is_a_state_error(name):
    state = mid_game(name, 2)
    data = json.loads(state.to_json())
    data["rng"] = 0
    text = json.dumps(data).replace('"rng": 0', '"rng": ' + "9" * 5000)
    with pytest.raises(StateError):
        state.game.state_from_json(text)


@pytest.mark.parametrize("field, value, message", [
    ("turn", 10**6, "turn is 1000000, allowed -1..100000"), ("stamp", 10**6, "stamp is 1000000, allowed 0..100000"),
    ("falls", -1, "falls is -1, allowed 0"), ("desperation", [10**6, 0, 0], "desperation holds a value outside"),
    ("gnome_public", "first=7", "gnome_public holds a value other than 0 and 1"),
    ("hall_value", "first=-5", "hall_value holds a value that is no Great Hall token's"),
    ("votes", "first=[1000000]", "votes holds a value outside 0..100000"),
    ("influence_stamp", "first=[99999]", "above the counter stamp"),
    ("elder_bonus", [0, 10**6, 0], "elder_bonus holds a value outside")])
def test_fall_refuses_counters_no_game_reaches(field, value, message):
    state = mid_game("fall_of_the_mountain_king", 3)
    data = json.loads(state.to_json())
    if isinstance(value, str):  # change the first item (of the first row)
        new = json.loads(value.partition("=")[2])
        if isinstance(new, list):
            data[field][0] = new + data[field][0][1:]
        else:
            data[field][0] = new
    else:
        data[field] = value
    with pytest.raises(StateError, match=message):
        state.game.state_from_json(json.dumps(data))
