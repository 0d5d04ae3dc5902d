"""The state's array shapes: ``Game.array_shapes`` (used to check a saved state without building one) is
what setup makes, for every player count, team play and the other board side."""

from __future__ import annotations

import numpy as np
import pytest
from rules_helpers import play_random

from mk_env.mountain_king.rules import Game


@pytest.mark.parametrize("options", [{"num_players": n} for n in (2, 3, 4, 5)]
                         + [{"num_players": 4, "team_mode": True}, {"num_players": 2, "board_side": "autumn"}])
def test_saved_state_shapes_match_a_new_state(options):
    """``Game.array_shapes`` (used to check a saved state without building one) is what setup makes."""
    game = Game(**options)
    st = game.new_initial_state(0)
    assert {k: getattr(st, k).shape for k in game.array_shapes()} == game.array_shapes()
    played = play_random(Game(**options).new_initial_state(2), np.random.default_rng(2), 40)
    assert game.state_from_json(played.to_json()) == played

