"""The observation's features are declared once (:mod:`mk_env.mountain_king.env.features`): the layout, offsets, scales
and memo keys follow the declaration, and a new feature is one declaration."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from mk_env.mountain_king.env import features, observation
from mk_env.mountain_king.env.observation import Observer
from mk_env.mountain_king.rules import Game


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


def _with_feature(monkeypatch, part: features.Part, feature: features.Feature) -> None:
    """PARTS with ``feature`` appended to ``part``'s features (for this test)."""
    grown = dataclasses.replace(part, features=part.features + (feature,))
    parts = tuple(grown if p is part else p for p in features.PARTS)
    monkeypatch.setattr(features, "PARTS", parts)
    monkeypatch.setattr(observation, "PARTS", parts)


def _mid_game(players: int, seed: int, decisions: int = 60):
    st = Game(players).new_initial_state(seed)
    rng = np.random.default_rng(seed)
    for _ in range(decisions):
        legal = st.legal_actions()
        st.apply(int(legal[rng.integers(len(legal))]))
    return st


def test_a_new_feature_is_one_declaration(monkeypatch):
    """How-to example: each player's network size, declared with its reads, scale and count, is laid
    out, encoded, in its space, and refreshed when the field it reads changes (its key holds it)."""
    _with_feature(monkeypatch, features.PLAYERS, NETWORK_SIZE)
    st = _mid_game(3, 4)
    ob = Observer(st.game)
    assert ob.fields[3].entries[-1] == "network_size"
    sizes = st.reach[:, :-1].sum(axis=1)
    obs = ob.encode(st, 1)
    assert ob.space.contains(obs)
    assert np.allclose(obs["players"][:, ob.at["players"].network_size], sizes[ob.orders[1]] / ob.hw)
    st.reach[0, np.flatnonzero(~st.reach[0, :-1])[0]] = True  # an edit only this feature reads
    assert obs["players"][2, -1] < ob.encode(st, 1)["players"][2, -1]  # seat 0 is row 2 for seat 1


@pytest.mark.parametrize("part, feature, want", [
    (features.PLAYERS, features.Feature("tokens_held", ("tokens",), "players", scale=1.0 / 64,
                                        count=lambda st, ob: st.tokens.sum(axis=(1, 2))),
     lambda st, ob: st.tokens.sum(axis=(1, 2))[ob.orders[0]] / 64),
    (features.TURN, features.Feature("decisions", ("history",), "call", scale=1.0 / 1000,
                                     count=lambda st, ob: min(len(st.history), 1000)),
     lambda st, ob: len(st.history) / 1000),
    (features.SUPPLY, features.Feature("spells_unseen", ("spell_unseen",), "supply",
                                       scale=lambda ob: 1.0 / ob.n_spells, count=lambda st, ob: st.spell_unseen),
     lambda st, ob: st.spell_unseen / ob.n_spells),
])
def test_counts_fill_players_call_and_supply_features(monkeypatch, part, feature, want):
    """A count fills a feature that changes at most decisions (players, every call) as well as a rarely
    changing one: no fill code for any of them."""
    _with_feature(monkeypatch, part, feature)
    ob = Observer(Game(4))
    st = _mid_game(4, 7)
    for _ in range(3):
        got = ob.encode(st, 0)[part.key][..., getattr(ob.at[part.key], feature.name)]
        assert np.allclose(got, want(st, ob))
        legal = st.legal_actions()
        st.apply(int(legal[-1]))


def test_a_count_where_no_fill_runs_it_is_refused(monkeypatch):
    _with_feature(monkeypatch, features.HORDE, features.Feature("bribed", ("horde_bribes",), "horde",
                                                                count=lambda st, ob: st.horde_bribes.sum(axis=1)))
    with pytest.raises(ValueError, match="horde.bribed: a declared count fills only"):
        Observer(Game(2))
