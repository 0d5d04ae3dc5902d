"""The team variant for 4 players (rulebook, TEAM PLAY RULES), one test per rule."""

from __future__ import annotations

import numpy as np
import pytest

from mk_env.mountain_king.rules import ConfigError, Game
from mk_env.mountain_king.rules import economy as eco
from mk_env.mountain_king.rules.content import IRON, STONE
from rules_helpers import after_setup, clear_resources, give, make_test_game, place_tunnel


def test_team_mode_is_for_exactly_four_players():
    with pytest.raises(ConfigError, match="exactly 4 players"):
        Game(3, team_mode=True)


def test_turn_order_team1_team2_team2_team1():
    game = Game(4, team_mode=True)
    assert game.storage_of == [0, 1, 1, 0]
    assert game.teammates[0] == [0, 3] and game.teammates[1] == [1, 2]


def test_gates_beside_each_other_on_the_winter_side():
    game = Game(4, team_mode=True)
    assert game.board_side == "winter"
    for seed in range(5):
        st = game.new_initial_state(seed)
        rng = np.random.default_rng(seed)
        while st.decision_kind() == "setup_gate":
            st.apply(int(rng.choice(st.legal_actions())))
        ring = [game.geo.start_points[i][0] for i in game.geo.start_clockwise
                if game.geo.start_points[i][1] == 4]
        for a, b in ((0, 3), (1, 2)):
            i, j = ring.index(st.gate_sq[a]), ring.index(st.gate_sq[b])
            assert (i - j) % 4 in (1, 3)


def test_team_storage_and_no_seat_bonus():
    game = Game(4, team_mode=True)
    st = game.new_initial_state(2)
    while st.decision_kind() in ("setup_gate", "setup_draft"):
        st.apply(int(st.legal_actions()[0]))
    assert st.storage.shape[0] == 2
    starting = [len(c.starting) for c in game.cards]
    for team, seats in ((0, (0, 3)), (1, (1, 2))):
        own = sum(starting[int(c)] for p in seats for c in st.smoot[p, :4])
        assert st.storage[team].sum() == own  # starting resources only, into team storage


@pytest.fixture
def team():
    game = make_test_game(4, team_mode=True)
    st = after_setup(game, seed=1)
    for p in range(4):
        clear_resources(st, p)
    st.invalidate_caches()
    return game, st


def test_spend_from_own_trollsmoot_and_team_storage_not_the_partners(team):
    game, st = team
    give(st, 0, stone=1)  # team storage of seats 0 and 3
    st.tokens[3, 0, STONE] = 2  # the partner's troll
    st.supply[STONE] -= 2
    st.tokens[0, 0, IRON] = 1
    st.supply[IRON] -= 1
    assert eco.owned(st, 0)[STONE] == 1 and eco.owned(st, 3)[STONE] == 3
    assert eco.owned(st, 3)[IRON] == 0


def test_networks_may_connect_to_a_teammate_and_count_as_your_own(team):
    game, st = team
    g0, g3 = int(st.gate_sq[0]), int(st.gate_sq[3])
    assert game.storage_of[0] == game.storage_of[3]
    # join the two gates of team 1 with tunnels along the edge of the test board
    r0, c0 = game.geo.rc(g0)
    r3, c3 = game.geo.rc(g3)
    path = _edge_path(game, (r0, c0), (r3, c3))
    for a, b in zip(path[1:-1:2], path[2:-1:2]):
        place_tunnel(st, [a, b], shape=0)
    if (len(path) - 2) % 2:
        place_tunnel(st, [path[-2]], shape=0)
    assert st.reach[0, g3] and st.reach[3, g0]
    assert not st.reach[1, g0]


def _edge_path(game, a, b):
    """Squares along the outer ring of the test board from a to b (clockwise or not, the shorter)."""
    ring = [(0, c) for c in range(11)] + [(r, 10) for r in range(1, 11)] + \
           [(10, c) for c in range(9, -1, -1)] + [(r, 0) for r in range(9, 0, -1)]
    i, j = ring.index(a), ring.index(b)
    fwd = [ring[(i + k) % len(ring)] for k in range((j - i) % len(ring) + 1)]
    back = [ring[(i - k) % len(ring)] for k in range((i - j) % len(ring) + 1)]
    best = min(fwd, back, key=len)
    sites = {game.geo.rc(s) for s in game.geo.site_squares}
    assert not set(best) & sites
    return best


def test_one_team_score_statues_and_halls_once(team):
    game, st = team
    st.honour[0], st.honour[3] = 5, 7
    st.coronation[3] = 3
    b0, b3 = st.score_breakdown(0), st.score_breakdown(3)
    assert b0 == b3 and b0["tunnels"] == 12 and b0["coronation"] == 3
    g0 = int(st.gate_sq[0])
    st.statue[g0] = 0
    assert st.score_breakdown(0)["statues"] == st.score_breakdown(3)["statues"] == game.pack.statue_values[0]


def test_team_returns_and_ranks():
    game = Game(4, team_mode=True)
    rng = np.random.default_rng(0)
    st = game.new_initial_state(0)
    while not st.is_terminal():
        st.apply(int(rng.choice(st.legal_actions())))
    r = st.returns()
    assert r[0] == r[3] and r[1] == r[2] and sorted({r[0], r[1]}) in ([-1.0, 1.0], [0.0])
