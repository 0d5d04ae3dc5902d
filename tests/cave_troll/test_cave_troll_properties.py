"""Property-based tests (hypothesis): over seeds and 2-4 players, random play mixed with illegal attempts:
every illegal attempt raises and changes nothing; the invariants hold after every decision; a clone or a
save taken at any moment continues exactly like the game."""

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mk_env.cave_troll.rules import ActionTypeError, Game, IllegalActionError
from mk_env.cave_troll.rules.invariants import check

SETTINGS = settings(max_examples=15, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(players=st.integers(2, 4), seed=st.integers(0, 2**31 - 1), illegal_rate=st.floats(0.05, 0.5),
       steps=st.integers(50, 400))
def test_illegal_attempts_raise_and_change_nothing(players, seed, illegal_rate, steps):
    state = Game(players).new_initial_state(seed)
    rng = np.random.default_rng(seed)
    size = state.game.layout.size
    for _ in range(steps):
        if state.is_terminal():
            break
        legal = state.legal_actions()
        if rng.random() < illegal_rate:
            bad = int(rng.integers(-3, size + 3))
            if bad not in legal:
                before = state.to_json()
                with pytest.raises(IllegalActionError):
                    state.apply(bad)
                assert state.to_json() == before and np.array_equal(state.legal_actions(), legal)
                continue
        state.apply(int(rng.choice(legal)))
        check(state)
    with pytest.raises(ActionTypeError):
        state.apply("draw")


@SETTINGS
@given(players=st.integers(2, 4), seed=st.integers(0, 2**31 - 1), when=st.integers(0, 600))
def test_a_clone_or_a_save_taken_at_any_moment_continues_like_the_game(players, seed, when):
    state = Game(players).new_initial_state(seed)
    rng = np.random.default_rng(seed)
    for _ in range(when):
        if state.is_terminal():
            break
        state.apply(int(rng.choice(state.legal_actions())))
    copies = [state.clone(), state.game.state_from_json(state.to_json())]
    for s in [state, *copies]:
        r = np.random.default_rng(seed + 1)
        for _ in range(150):
            if s.is_terminal():
                break
            s.apply(int(r.choice(s.legal_actions())))
    assert copies[0].to_json() == state.to_json() == copies[1].to_json()
