"""Every game of the card satisfies the suite's engine protocol (mk_env.core.protocol), method by method with as
many parameters, and behaves as it says on a played position: a mask exact to the legal list, apply refusing an
illegal action, clone and JSON round trips, the end's returns, ranks and seat starts."""

from __future__ import annotations

import inspect
import json

import numpy as np
import pytest

from mk_env.core import protocol
from mk_env.core.errors import IllegalActionError
from mk_env.games import GAMES


def _parameters(function) -> list[str]:
    return [p for p in inspect.signature(function).parameters][1:]  # without self


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_games_classes_have_every_method_of_the_protocol_with_as_many_parameters(name):
    game = GAMES[name].make(2)
    state = game.new_initial_state(seed=0)
    assert isinstance(game, protocol.Game) and isinstance(state, protocol.State)
    for method in protocol.STATE_METHODS:
        # callers pass the arguments by position (a game names them in its own words: player, seat)
        assert len(_parameters(getattr(type(state), method))) == len(_parameters(getattr(protocol.State, method)))
    for method in ("new_initial_state", "state_from_json"):
        assert len(_parameters(getattr(type(game), method))) == len(_parameters(getattr(protocol.Game, method)))


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_played_position_behaves_as_the_protocol_says(name):
    game = GAMES[name].make(3)
    state = game.new_initial_state(seed=7)
    rng = np.random.default_rng(7)
    for _ in range(30):
        legal = state.legal_actions()
        assert np.array_equal(np.flatnonzero(state.legal_mask()), legal)
        after = state.clone()
        after.apply(int(rng.choice(legal)))
        if after.is_terminal():  # a short game: the position before its last decision
            break
        state = after
    illegal = int(np.flatnonzero(state.legal_mask() == 0)[0])
    before = state.to_json()
    with pytest.raises(IllegalActionError):
        state.apply(illegal)
    assert state.to_json() == before and not state.is_legal(illegal)
    assert game.state_from_json(before).to_json() == before == state.clone().to_json()
    seat = state.current_player()
    assert isinstance(state.determinize(seat, np.random.default_rng(1)), type(state))
    assert isinstance(state.describe_action(int(state.legal_actions()[0])), str)
    while not state.is_terminal():
        state.apply(int(rng.choice(state.legal_actions())))
    assert len(state.returns()) == len(state.ranks()) == 3 and max(state.returns()) > 0
    assert sorted(state.ranks())[0] == 0 and len(state.seat_starts()) == 3
    assert all(isinstance(v, int) for v in state.score_breakdown(0).values())
    json.loads(state.to_json())
