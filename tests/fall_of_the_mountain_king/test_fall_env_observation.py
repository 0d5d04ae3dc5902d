"""The Fall of the Mountain King observation: shapes and bounds, the flat layout, egocentric rows, and only what
the observer may know (nothing changes when everything it cannot see is resampled; what it scouted shows)."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest

from mk_env.fall_of_the_mountain_king.env.observation import COUNT_SCALE, FallObserver
from mk_env.fall_of_the_mountain_king.env.version import layout_fingerprint
from mk_env.fall_of_the_mountain_king.rules import Game


def _states(num_players: int, seed: int, every: int = 7):
    """States of one random game, every ``every`` decisions."""
    st = Game(num_players).new_initial_state(seed)
    rng = np.random.default_rng(seed)
    out = []
    i = 0
    while not st.is_terminal():
        if i % every == 0:
            out.append(st.clone())
        st.apply(int(rng.choice(st.legal_actions())))
        i += 1
    return out + [st]


@pytest.mark.parametrize("num_players", [2, 5])
def test_every_array_fits_its_space_and_the_flat_vector_is_gymnasiums(num_players):
    ob = FallObserver(Game(num_players))
    for st in _states(num_players, 11, every=25):
        for p in range(num_players):
            obs = ob.encode(st, p)
            assert ob.space.contains(obs), [k for k, v in obs.items() if not ob.space[k].contains(v)]
            flat = ob.encode_flat(st, p)
            assert np.array_equal(flat, gymnasium.spaces.flatten(ob.space, obs))
            assert np.array_equal(ob.flatten(obs), flat)
        assert ob.state_space.contains(ob.encode_state(st))


@pytest.mark.parametrize("num_players", [2, 3, 4, 5])
def test_the_observation_is_blind_to_what_the_observer_cannot_know(num_players):
    """Resampling everything a seat cannot see (others' hands, the deck, facedown gnomes and gate cards it has
    not scouted, the champions dealt to others) never changes that seat's observation."""
    ob = FallObserver(Game(num_players))
    rng = np.random.default_rng(num_players)
    changed_truth = 0
    for st in _states(num_players, 20 + num_players, every=9):
        for p in range(num_players):
            other = st.determinize(p, rng)
            assert np.array_equal(ob.encode_flat(st, p), ob.encode_flat(other, p)), (p, st)
            if st.current_player() == p:  # nor the mask the deciding seat sees (a gnome's id tells nothing)
                assert np.array_equal(st.legal_mask(), other.legal_mask()), (p, st)
            changed_truth += not np.array_equal(ob.encode_state(st), ob.encode_state(other))
    assert changed_truth > 0  # the hidden parts really were resampled


def test_hidden_gnome_strengths_do_show_in_the_global_state():
    ob = FallObserver(Game(3))
    st = _states(3, 5, every=1000)[-1]
    a, b, shape = ob.state_slices["gnomes"]
    counts = np.rint(ob.encode_state(st)[a:b].reshape(shape) * COUNT_SCALE)
    for x in range(ob.n_loc):
        on = [st.strength[g] for g, at in enumerate(st.gnome_at) if at == x]
        assert [on.count(s) for s in (1, 2, 3)] == counts[x].tolist()


def _scouted_state():
    """A state in which some seat has peeked at a gnome still facedown on the map."""
    for seed in range(40):
        for st in _states(3, seed, every=3):
            for p in range(3):
                for g in st.known_gnomes[p]:
                    if st.gnome_at[g] >= 0 and not st.gnome_public[g]:
                        return st, p, g
    raise AssertionError("no scouted facedown gnome in 40 random games")


def test_a_scouted_gnome_shows_its_strength_to_the_scout_only():
    st, p, g = _scouted_state()
    ob = FallObserver(st.game)
    x, s = st.gnome_at[g], st.strength[g]
    mc = ob.col["map"]
    mine = ob.encode(st, p)["map"][x]
    known = [g2 for g2, at in enumerate(st.gnome_at) if at == x and (st.gnome_public[g2] or g2 in st.known_gnomes[p])]
    assert mine[mc[f"gnomes_{s}"]] >= 1 / COUNT_SCALE - 1e-6
    assert mine[mc["gnomes_unknown"]] == pytest.approx((sum(1 for at in st.gnome_at if at == x) - len(known)) / COUNT_SCALE)
    for q in range(3):
        if g not in st.known_gnomes[q]:
            theirs = ob.encode(st, q)["map"][x]
            assert theirs[mc["gnomes_unknown"]] > 0  # the same gnome is facedown to them


def test_rows_are_egocentric_and_the_seat_is_one_hot():
    st = _states(4, 2, every=1000)[-1]
    ob = FallObserver(st.game)
    pc = ob.col["players"]
    for p in range(4):
        obs = ob.encode(st, p)
        assert obs["game"][ob.col["game"][f"seat_{p}"]] == 1.0
        for k in range(4):
            seat = (p + k) % 4
            assert obs["players"][k, pc["honor"]] == pytest.approx(min(st.honor[seat], 200) / 200)
            assert np.array_equal(obs["ancestry"][k, :, -1], np.asarray(st.covered[seat], np.float32))


def test_the_layout_fingerprint_is_stable_and_depends_on_the_player_count():
    fps = {n: layout_fingerprint(Game(n)) for n in (2, 3, 4, 5)}
    assert len(set(fps.values())) == 4 and all(len(f) == 16 for f in fps.values())
    assert layout_fingerprint(Game(3)) == fps[3]
