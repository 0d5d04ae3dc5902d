"""The rules' memos and indexes give exactly what the plain computations give: the square index, the
trade actions and their bounded memo shared by a layout, the memoised legal sets and legal digs along
random games, and the read-only card symbol table; legal sets are sorted and unique."""

from __future__ import annotations

import numpy as np
import pytest

from mk_env.mountain_king.rules import Game, legal, trades
from mk_env.mountain_king.rules import economy as eco
from mk_env.mountain_king.rules.digging import dig_geometry, legal_digs
from mk_env.mountain_king.rules.trades import trade_actions
from mk_env.mountain_king.rules.content import HAMMER, N_RESOURCES

#: the Python engine's own memos and representation (the compiled engine's parity: tests/native/)
pytestmark = pytest.mark.usefixtures("python_engine")


# -- the square index --------------------------------------------------------------------------------
def test_square_index_lookup_equals_the_union_of_its_lists():
    game = Game(4)
    rng = np.random.default_rng(2)
    for index in (game.geo.tunnels_beside, game.geo.halls_over):
        n = len(index.ptr) - 2
        for k in (0, 1, 2, 7, 40, n):
            squares = np.sort(rng.choice(n, k, replace=False))
            want = sorted({int(i) for s in squares for i in index.idx[index.ptr[s]:index.ptr[s + 1]]})
            assert index.lookup(squares).tolist() == want


# -- trades ------------------------------------------------------------------------------------------
def _reference_trades(game: Game, have: np.ndarray, supply: np.ndarray) -> list[int]:
    """Every give within what is owned, with every gain whose pile is not empty, by give then gain."""
    layout = game.layout
    return [layout.offset["trade"] + g * N_RESOURCES + r
            for g, give in enumerate(layout.trade_gives) if (give <= have).all()
            for r in range(N_RESOURCES) if supply[r] > 0]


def test_trade_actions_equal_the_rule_with_empty_piles_too():
    game = Game(4)
    st = game.new_initial_state(3)
    rng = np.random.default_rng(4)
    for _ in range(600):
        have = rng.integers(0, 7, N_RESOURCES).astype(np.int32)
        st.supply[:] = rng.integers(0, 3, N_RESOURCES) * (rng.random(N_RESOURCES) < 0.8)
        got = trade_actions(st, have)
        assert got.tolist() == _reference_trades(game, have, st.supply)


def test_trade_memo_is_shared_by_games_of_a_layout_and_bounded(monkeypatch):
    a, b = Game(4), Game(2)
    assert a.layout is b.layout  # same pack and side: one memo
    monkeypatch.setattr(trades, "TRADE_MEMO_LIMIT", 50)
    memo = a.layout.trade_memo
    memo.clear()
    rng = np.random.default_rng(5)
    for seed in range(6):
        st = (a if seed % 2 else b).new_initial_state(seed)
        while not st.is_terminal():
            acts = st.legal_actions()
            st.apply(int(acts[rng.integers(len(acts))]))
            assert len(memo) <= 50
    assert len(memo) == 50  # it filled up and evicted
    st = a.new_initial_state(11)
    for _ in range(200):  # after evictions the answers are still the rule's
        have = rng.integers(0, 6, N_RESOURCES).astype(np.int32)
        assert trade_actions(st, have).tolist() == _reference_trades(a, have, st.supply)


# -- legal sets and activation along play ------------------------------------------------------------
@pytest.mark.parametrize("players,team", [(2, False), (3, False), (4, False), (5, False), (4, True)])
def test_memoised_legal_sets_equal_fresh_ones(players, team):
    """Along random games: the legal set with everything the state memoised (dig sets, geometry)
    equals the one of a cache-free copy, and legal digs equal the rule applied to the geometry."""
    game = Game(players, team_mode=team)
    rng = np.random.default_rng(players)
    table = game.geo.tunnel_placements
    for seed in range(3):
        st = game.new_initial_state(seed)
        while not st.is_terminal():
            fresh = st.clone()
            fresh.invalidate_caches()
            assert np.array_equal(legal._legal(fresh), st.legal_actions())
            p = st.current
            have = eco.owned(st, p)
            cand = dig_geometry(fresh, p)
            ok = (table.size[cand] <= have[:3].max()) & (st.tunnel_supply[table.piece[cand]] > 0)
            if not st.ignore_rubble:
                ok &= table.rubble[cand] <= have[HAMMER]
            assert np.array_equal(legal_digs(st, p, have), cand[ok])
            acts = st.legal_actions()
            st.apply(int(acts[rng.integers(len(acts))]))


def test_card_symbol_table_is_read_only():
    game = Game(2)
    with pytest.raises(ValueError):
        game.card_symbols[0, 0] = 3
    assert game.card_symbol_rows == game.card_symbols.tolist()



def test_legal_actions_are_sorted_and_unique_along_games():
    for options, seed in (({"num_players": 2}, 1), ({"num_players": 5}, 2)):
        game = Game(**options)
        st = game.new_initial_state(seed)
        rng = np.random.default_rng(seed)
        while not st.is_terminal():
            legal = st.legal_actions()
            assert legal.dtype == np.int64 and np.all(np.diff(legal) > 0)
            st.apply(int(legal[rng.integers(len(legal))]))
