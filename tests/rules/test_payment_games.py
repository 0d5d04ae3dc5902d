"""payment="choose" games play to the end for 2 to 5 players, the invariants holding after every decision,
with the heuristic (its quick policy answers the phase pay) and random agents at the table."""

from __future__ import annotations

import numpy as np
import pytest

from agents.registry import make_agent
from mk_env.invariants import check_end, check_invariants, check_step, component_totals
from mk_env.mountain_king.rules import Game
from mk_env.core.view import PlayerView

PAY_PHASE = "pay"


@pytest.mark.parametrize("num_players", [2, 3, 4, 5])
def test_choose_payment_games_play_to_the_end(num_players):
    game = Game(num_players, payment="choose")
    seed = 40 + num_players
    agents = [make_agent("heuristic" if seat % 2 == 0 else "random") for seat in range(num_players)]
    for seat, agent in enumerate(agents):
        agent.reset(seat, num_players)
    rng = np.random.default_rng(seed)
    st = game.new_initial_state(seed)
    baseline = component_totals(st)
    asked = {"heuristic": 0, "random": 0}
    while not st.is_terminal():
        p = st.current_player()
        if st.decision_kind() == PAY_PHASE:
            asked[agents[p].name] += 1
        action = agents[p].act(PlayerView(st, p), rng)
        before = st.clone()
        st.apply(action)
        check_invariants(st, baseline)
        check_step(before, st)
    check_end(st)
    assert asked["heuristic"] > 0 and asked["random"] > 0  # both kinds of agent met the choice
