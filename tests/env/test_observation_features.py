"""The observation's features are declared once (:mod:`mk_env.env.features`): the layout, offsets, scales
and memo keys follow the declaration, and a new feature is one declaration."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from mk_env.env import features, observation
from mk_env.env.observation import Observer
from mk_env.rules import Game


def test_offsets_name_the_entries_they_point_at():
    ob = Observer(Game(3))
    fields = {f.key: f for f in ob.fields}
    for part in features.PARTS:
        at = ob.at[part.key]
        for f in part.features:
            where = getattr(at, f.name)
            got = fields[part.key].entries[where]
            assert ((got,) if isinstance(where, int) else got) == f.entry_names(ob), (part.key, f.name)


def test_scales_follow_the_declaration():
    ob = Observer(Game(4))
    at = ob.at["players"]
    assert ob.player_scale[at.storage] == pytest.approx(1.0 / ob.res_total)
    assert ob.player_scale[at.draft_placed] == pytest.approx(1.0 / 4)
    assert ob.supply_scale[ob.at["supply"].deck] == pytest.approx(1.0 / ob.deck_total)


NETWORK_SIZE = features.Feature("network_size", ("reach",), "players_slow",
                                scale=lambda ob: 1.0 / ob.hw, count=lambda st, ob: st.reach[:, :-1].sum(axis=1))


def _with_players_feature(monkeypatch, feature: features.Feature) -> None:
    players = dataclasses.replace(features.PLAYERS, features=features.PLAYERS.features + (feature,))
    parts = tuple(players if p is features.PLAYERS else p for p in features.PARTS)
    monkeypatch.setattr(features, "PARTS", parts)
    monkeypatch.setattr(observation, "PARTS", parts)


def test_a_new_feature_is_one_declaration(monkeypatch):
    """How-to example: each player's network size, declared with its reads, scale and count, is laid
    out, encoded, in its space, and refreshed when the field it reads changes (its key holds it)."""
    _with_players_feature(monkeypatch, NETWORK_SIZE)
    game = Game(3)
    st = game.new_initial_state(4)
    rng = np.random.default_rng(4)
    for _ in range(60):
        legal = st.legal_actions()
        st.apply(int(legal[rng.integers(len(legal))]))
    ob = Observer(game)
    assert ob.fields[3].entries[-1] == "network_size"
    sizes = st.reach[:, :-1].sum(axis=1)
    obs = ob.encode(st, 1)
    assert ob.space.contains(obs)
    assert np.allclose(obs["players"][:, -1], sizes[ob.orders[1]] / ob.hw)
    st.reach[0, np.flatnonzero(~st.reach[0, :-1])[0]] = True  # an edit only this feature reads
    assert obs["players"][2, -1] < ob.encode(st, 1)["players"][2, -1]  # seat 0 is row 2 for seat 1


def test_a_count_where_no_fill_runs_it_is_refused(monkeypatch):
    _with_players_feature(monkeypatch, dataclasses.replace(NETWORK_SIZE, memo="players"))
    with pytest.raises(ValueError, match="players.network_size: a declared count fills only"):
        Observer(Game(2))
