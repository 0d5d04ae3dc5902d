"""The Cave Troll observation and mask: bounds, layout, egocentric rows, the exact mask, and hidden
information never encoded."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest

from mk_env.cave_troll import env as cave_troll_env
from mk_env.cave_troll.env.observation import BOARD_KINDS, CaveTrollObserver
from mk_env.cave_troll.rules import Game, IllegalActionError
from mk_env.cave_troll.rules.board import occupancy
from mk_env.cave_troll.rules.vocabulary import STACK, Phase

from cave_troll_env_helpers import random_states


@pytest.fixture(scope="module", params=[2, 3, 4])
def states(request):
    """States met along a random game, and their observer."""
    n = request.param
    return CaveTrollObserver(Game(n)), random_states(n, seed=10 + n, every=7)


def test_every_observation_lies_in_its_space_and_the_flat_vector_is_the_flattened_dict(states):
    ob, sts = states
    for st in sts[::3]:
        for p in range(st.num_players):
            obs = ob.encode(st, p)
            assert ob.space.contains(obs), [k for k in obs if not ob.space[k].contains(obs[k])]
            flat = ob.encode_flat(st, p)
            assert flat.dtype == np.float32 and ob.flat_space.contains(flat)
            np.testing.assert_array_equal(flat, gymnasium.spaces.flatten(ob.space, obs))
        state = ob.encode_state(st)
        assert ob.state_space.contains(state)


def test_rows_are_egocentric_and_the_seat_is_given(states):
    ob, sts = states
    st = sts[len(sts) // 2]
    n = st.num_players
    k, L = ob.slots, ob.n_loc
    for p in range(n):
        obs = ob.encode(st, p)
        assert obs["game"][ob.col["game"][f"seat_{p}"]] == 1.0
        for row in range(n):
            seat = (p + row) % n
            for slot in range(k):
                where = st.loc[seat * k + slot]
                column = where if where >= 0 else L - 1 - where  # pile, discarded, hand after the locations
                assert obs["counters"][row, slot, column] == 1.0
            assert obs["players"][row, ob.col["players"]["pile_left"]] == pytest.approx(len(st.piles[seat]) / k)


def test_lair_counts_are_the_engines_occupancy_by_player_and_kind(states):
    ob, sts = states
    g = ob.game
    per_colour = {kind: g.pack.slot_kinds.count(kind) for kind in BOARD_KINDS}
    for st in sts[::5]:
        occ = occupancy(st)
        for p in range(st.num_players):
            obs = ob.encode(st, p)
            for x in range(ob.n_loc):
                for row in range(st.num_players):
                    seat = (p + row) % st.num_players
                    for kind in BOARD_KINDS:
                        here = sum(1 for c in occ.at[x] if g.owner_of[c] == seat and g.kind_of[c] == kind)
                        column = ob.col["lair"][f"{'me' if row == 0 else f'+{row}'}_{kind.name.lower()}"]
                        assert obs["lair"][x, column] == pytest.approx(here / per_colour[kind])
            if st.idol_room >= 0:
                assert obs["lair"][st.idol_room, ob.col["lair"]["idol"]] == 1.0


def test_the_mask_is_exactly_the_legal_actions_both_ways(states):
    """Every action the mask allows applies; every other action raises and changes nothing."""
    _, sts = states
    rng = np.random.default_rng(0)
    for st in sts[::6]:
        mask = st.legal_mask()
        assert mask.dtype == np.int8
        np.testing.assert_array_equal(np.flatnonzero(mask), st.legal_actions())
        for a in np.flatnonzero(mask):
            st.clone().apply(int(a))
        refused = np.flatnonzero(mask == 0)
        for a in rng.choice(refused, size=min(40, len(refused)), replace=False):
            copy = st.clone()
            with pytest.raises(IllegalActionError):
                copy.apply(int(a))
            assert copy == st


def test_the_env_mask_is_the_deciding_agents_only():
    env = cave_troll_env.raw_env(num_players=3)
    env.reset(seed=4)
    st = env.game_state
    for agent in env.possible_agents:
        mask = env.observe(agent)["action_mask"]
        if agent == env.agent_selection:
            np.testing.assert_array_equal(mask, st.legal_mask())
        else:
            assert not mask.any()


def _hide_differently(st, viewer: int):
    """A copy of ``st`` that differs only in what ``viewer`` cannot see: every pile's order reversed, and
    an artifact of another player's hand swapped with one of the stack (when there are both)."""
    other = st.clone()
    for pile in other.piles:
        pile.reverse()
    held = [i for i, at in enumerate(other.art_at) if at >= 0 and at != viewer]
    stacked = [i for i, at in enumerate(other.art_at) if at == STACK]
    if held and stacked:
        i, j = held[0], stacked[0]
        other.art_at[i], other.art_at[j] = STACK, other.art_at[i]
        other.stack[other.stack.index(j)] = i
    other.invalidate_caches()
    return other


def test_hidden_information_is_never_encoded():
    """Pile order, the other players' artifacts and the artifact stack: two states that differ only there
    give the same observation to whoever cannot see the difference (and a determinized copy too)."""
    rng = np.random.default_rng(1)
    swapped = 0
    for n in (2, 3, 4):
        ob = CaveTrollObserver(Game(n))
        for st in random_states(n, seed=20 + n, every=25):
            for p in range(n):
                twin = _hide_differently(st, p)
                swapped += twin.art_at != st.art_at
                np.testing.assert_array_equal(ob.encode_flat(st, p), ob.encode_flat(twin, p))
                np.testing.assert_array_equal(ob.encode_flat(st, p), ob.encode_flat(st.determinize(p, rng), p))
    assert swapped > 0  # some states had artifacts in hands and in the stack


def test_own_artifacts_are_encoded_by_kind_and_others_only_counted():
    ob = CaveTrollObserver(Game(2))
    st = Game(2).new_initial_state(0)
    st.art_at[st.stack[-1]] = 0  # seat 0 holds the artifact on top of the stack
    st.stack.pop()
    held = [i for i, at in enumerate(st.art_at) if at == 0][0]
    mine, theirs = ob.encode(st, 0), ob.encode(st, 1)
    assert mine["artifacts"][0, held] == 1.0 and mine["artifacts"].sum() == 1.0
    assert theirs["artifacts"].sum() == 0.0
    assert theirs["players"][1, ob.col["players"]["artifacts_held"]] == pytest.approx(1 / 6)


def test_an_escape_is_the_escaping_players_decision_and_is_encoded():
    """Play random games until a Cave Troll makes someone escape out of turn: the pending part says so."""
    for seed in range(40):
        for st in random_states(3, seed=seed):
            if st.phase == Phase.ESCAPE and st.current != st.turn_player:
                ob = CaveTrollObserver(st.game)
                obs = ob.encode(st, st.current)
                assert obs["pending"][ob.col["pending"]["phase_escape"]] == 1.0
                assert obs["game"][ob.col["game"]["my_decision"]] == 1.0
                assert obs["pending"][ob.col["pending"]["to_escape_me"]] == 1.0
                assert obs["pending"][ob.col["pending"]["room_" + st.game.pack.lair.names[st.pending.room]]] == 1.0
                return
    pytest.fail("no out-of-turn escape met in 40 random 3-player games")


def test_the_gold_and_artifacts_memo_follows_every_change():
    """The per-seat template of gold and artifacts is keyed by the fields it reads: a state edited by hand,
    or another game's state, is encoded anew."""
    game = Game(2)
    ob = CaveTrollObserver(game)
    st = game.new_initial_state(0)
    score = ob.col["players"]["score"]
    assert ob.encode(st, 0)["players"][0, score] == 0.0
    st.gold[0][0] += 20
    st.score[0] += 20
    st.invalidate_caches()
    assert ob.encode(st, 0)["players"][0, score] == pytest.approx(20 / 200)
    assert ob.encode(st, 1)["players"][1, score] == pytest.approx(20 / 200)  # seat 0 seen from seat 1
    other = game.new_initial_state(1)
    assert ob.encode(other, 0)["players"][0, score] == 0.0
