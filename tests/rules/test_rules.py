"""One test per rule of the rulebook that the worked examples do not already pin down."""

from __future__ import annotations

import numpy as np
import pytest

from mk_env.mountain_king.rules import Game, IllegalActionError, Phase
from mk_env.mountain_king.rules.chance import refill
from mk_env.mountain_king.rules.statues import statue_destinations
from mk_env.mountain_king.rules import economy as eco
from mk_env.mountain_king.rules.actions import HORDE_ROW
from mk_env.mountain_king.rules.content import CART, COIN, IRON, STONE
from rules_helpers import (act, after_setup, blocks, clear_resources, empty_handed, give, make_test_game,
                           place_tunnel, placement, to_phase)


def random_play(state, rng, limit=20000):
    steps = 0
    while not state.is_terminal() and steps < limit:
        state.apply(int(rng.choice(state.legal_actions())))
        steps += 1
    return steps


# -- setup ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_general_setup(n):
    game = Game(n)
    st = game.new_initial_state(1)
    assert game.board_side == ("autumn" if n == 3 else "winter")
    levels = [game.card_level[c] for c in st.horde]
    assert levels == [1] * 5 + [2] * 4 + [3] * 3  # the pyramid 5/4/3
    assert all(st.horde_pedestal[h] >= 0 for h in range(12) if HORDE_ROW[h] == 1)  # pedestals on Level-2
    assert st.bag.sum() == 18 - 4
    assert st.coronation_left == ([3] if n == 2 else [5, 3])
    assert st.workshop_supply.sum() == 2 * n + 1
    assert (st.spellbook >= 0).sum() == 3
    assert sorted(st.track_value.reshape(-1).tolist()) == sorted(game.pack.pedestal_tokens)
    assert (st.tunnel_supply == [t.count for t in game.pack.tunnels]).all()


def test_statues_in_clockwise_clan_cycle():
    game = Game(4)
    st = game.new_initial_state(5)
    clans = [int(st.statue[game.geo.sq(r, c)]) for r, c in game.geo.side.statue_spots]
    start = next(i for i in range(len(clans)) if all(
        clans[(i + k) % len(clans)] == clans[(i + k % 3) % len(clans)] for k in range(len(clans) - len(clans) % 3)))
    assert len(set(clans)) == 3
    # consecutive spots clockwise hold three different clans, repeating
    cycle = [clans[(start + k) % len(clans)] for k in range(len(clans))]
    assert all(cycle[k] == cycle[k % 3] for k in range(len(cycle)))


def test_workshop_options():
    assert (Game(3, workshops="no_duplicates").new_initial_state(2).workshop_supply <= 1).all()
    names = [w.name for w in Game(2).pack.workshops][:5]
    st = Game(2, workshops=names).new_initial_state(0)
    assert st.workshop_supply.tolist()[:5] == [1] * 5 and st.workshop_supply.sum() == 5


def test_gates_on_start_points_marked_with_the_player_count():
    game = Game(4)
    st = game.new_initial_state(0)
    for a in st.legal_actions():
        assert game.geo.start_points[int(a) - game.layout.offset["gate"]][1] == 4


def test_two_players_use_matching_start_points():
    game = Game(2)
    st = game.new_initial_state(0)
    five = next(k for k, (_, m) in enumerate(game.geo.start_points) if m == 5)
    act(st, "gate", five)
    marks = {game.geo.start_points[int(a) - game.layout.offset["gate"]][1] for a in st.legal_actions()}
    assert marks == {5}


def test_starting_troll_draft_and_seat_bonus():
    game = Game(5)
    st = game.new_initial_state(4)
    while st.decision_kind() == "setup_gate":
        st.apply(int(st.legal_actions()[0]))
    hands, decks = [list(h) for h in st.draft_hand], [list(d) for d in st.draft_deck]
    assert all(len(h) == 2 for h in hands) and all(len(d) == 4 for d in decks)
    while st.decision_kind() == "setup_draft":
        st.apply(int(st.legal_actions()[0]))
    starting = [len(c.starting) for c in game.cards]
    for p in range(5):
        row = [int(c) for c in st.smoot[p, :4]]
        assert sorted(row + []) == sorted(set(row))  # four different starters
        gained = int(st.storage[p].sum())
        own = sum(starting[c] for c in row)
        rest = sorted(set(range(6)) - set(row))
        bonus = {0: 0, 1: 1, 2: 1, 3: 2, 4: 2}[p]
        assert gained in {own + sum(starting[c] for c in combo)
                          for combo in _subsets(rest, bonus)}
    assert st.decision_kind() == "step1_spells_workshops" and st.current == 0


def _subsets(items, k):
    import itertools
    return list(itertools.combinations(items, k))


# -- a turn ---------------------------------------------------------------------------------------
@pytest.fixture
def game():
    return make_test_game(2)


@pytest.fixture
def st(game):
    return empty_handed(game)


def test_spells_and_workshops_come_first_in_either_order(game, st):
    give(st, 0, rune=2)
    st.invalidate_caches()
    assert "cast" in blocks(st)
    act(st, "cast", int(np.flatnonzero(st.spellbook >= 0)[0]))
    while st.decision_kind().startswith("spell"):
        st.apply(int(st.legal_actions()[0]))
    if st.decision_kind() == "step1_spells_workshops":
        assert "cast" not in blocks(st)  # one spell per turn


def test_must_recruit_without_minerals(st):
    to_phase(st, "step2_recruit_or_dig")
    assert blocks(st) == {"recruit"}


def test_must_dig_with_ten_trolls(game, st):
    st.smoot[0, :] = np.arange(10) + game.n_starters
    give(st, 0, stone=2)
    st.invalidate_caches()
    to_phase(st, "step2_recruit_or_dig")
    assert blocks(st) == {"dig"}


def test_neither_recruit_nor_dig_skips_step_2(game, st):
    st.smoot[0, :] = np.arange(10) + game.n_starters
    st.invalidate_caches()
    act(st, "pass")
    assert st.current == 1  # player 0's step 2 (and the empty steps 3-4) were skipped


def test_trade_four_for_one_any_time(game, st):
    give(st, 0, stone=3, iron=1)
    st.invalidate_caches()
    give_vec = np.array([3, 1, 0, 0, 0, 0, 0])
    j = next(j for j in range(len(game.layout.trade_gives)) if (game.layout.trade_gives[j] == give_vec).all())
    act(st, "trade", j * 7 + COIN)
    assert st.storage[0].tolist() == [0, 0, 0, 1, 0, 0, 0]


def test_level_2_recruit_bribes_two_and_collects_pedestal(game, st):
    give(st, 0, coin=2)
    to_phase(st, "step2_recruit_or_dig")
    h = 5  # leftmost Level-2 troll: rests on Level-1 slots 0 and 1
    pedestal = int(st.horde_pedestal[h])
    st.apply(game.layout.recruit_index(h, 4))
    assert st.horde_bribes[0, COIN] == 1 and st.horde_bribes[1, COIN] == 1
    assert st.storage_pedestals[0, pedestal] == 1
    assert st.horde[h] >= 0 and st.horde_pedestal[h] >= 0  # refilled with a fresh pedestal


def test_level_3_recruit_bribes_five_and_chooses_a_pedestal(game, st):
    give(st, 0, coin=5)
    st.smoot[0, 4:6] = [game.n_starters, game.n_starters + 1]
    st.invalidate_caches()
    to_phase(st, "step2_recruit_or_dig")
    st.apply(game.layout.recruit_index(9, 7))
    for b in (0, 1, 2, 5, 6):
        assert st.horde_bribes[b, COIN] == 1
    assert st.decision_kind() == "recruit_pedestal"
    act(st, "pedestal", 2)
    assert st.storage_pedestals[0, 2] == 1


def test_cannot_recruit_without_the_bribes(game, st):
    give(st, 0, coin=1)
    to_phase(st, "step2_recruit_or_dig")
    with pytest.raises(IllegalActionError, match="needs 2 bribes"):
        st.apply(game.layout.recruit_index(5, 4))


def test_collect_bribes_when_recruiting(game, st):
    st.horde_bribes[0, COIN] = 2
    st.invalidate_caches()
    to_phase(st, "step2_recruit_or_dig")
    st.apply(game.layout.recruit_index(0, 4))
    assert st.storage[0, COIN] >= 2


def test_retiring_trolls_with_four_bribes(game, st):
    give(st, 0, coin=2)
    st.horde_bribes[1, COIN] = 3
    retiring = int(st.horde[1])
    st.invalidate_caches()
    to_phase(st, "step2_recruit_or_dig")
    supply = int(st.supply[COIN])
    st.apply(game.layout.recruit_index(5, 4))  # bribes slots 0 and 1: slot 1 reaches 4
    assert st.horde[1] != retiring and st.horde_bribes[1].sum() == 0
    assert st.decks[0][-1] == retiring  # to the bottom of its deck
    assert st.supply[COIN] == supply + 4


def test_running_out_of_trolls_draws_from_the_next_level(game, st):
    st.decks[0] = []
    st.deck_unseen[0] = 0
    to_phase(st, "step2_recruit_or_dig")
    top_of_level2 = st.decks[1][0]
    st.apply(game.layout.recruit_index(0, 4))
    assert st.horde[0] == top_of_level2
    st2 = after_setup(game, seed=4)
    st2.decks[2], st2.decks[1] = [], []
    st2.deck_unseen[2] = st2.deck_unseen[1] = 0
    refill(st2, 9)
    assert game.card_level[st2.horde[9]] == 1  # next-lower when nothing is higher


def test_running_out_of_pedestals(game, st):
    st.bag[:] = 0
    give(st, 0, coin=2)
    to_phase(st, "step2_recruit_or_dig")
    st.apply(game.layout.recruit_index(5, 4))
    assert st.horde_pedestal[5] == -1  # no new pedestal enters the game


def test_recruit_needs_two_trolls_beneath(game, st):
    to_phase(st, "step2_recruit_or_dig")
    assert not st.is_legal(game.layout.recruit_index(0, 7))  # slot 7 rests on empty slots 4 and 5


def test_no_tunnel_next_to_an_opponent(game, st):
    place_tunnel(st, [(9, 5), (8, 5), (7, 5)], shape=2)  # player 1's network grows up to (7, 5)
    place_tunnel(st, [(1, 5), (2, 5), (3, 5)], shape=2)
    give(st, 0, stone=2)
    to_phase(st, "step2_recruit_or_dig")
    # (5, 4)-(6, 4) touches nothing of player 0; (4, 5)-(4, 4)... the heart blocks (5, 5)
    touching = placement(game, "domino", [(6, 4), (7, 4)])
    assert not st.is_legal(game.layout.index("dig", touching))


def test_never_over_the_heart_a_site_or_a_tile(game):
    table = game.geo.tunnel_placements
    heart = game.geo.sq(5, 5)
    sites = set(game.geo.site_squares.tolist())
    for cells, size in zip(table.cells, table.size):
        c = set(cells[:size].tolist())
        assert heart not in c and not (c & sites)


def test_isolated_tunnels_leave_every_network_until_reconnected(game, st):
    place_tunnel(st, [(2, 7), (3, 7)], shape=0)  # not connected to any gate
    iso = game.geo.sq(2, 7)
    assert not st.reach[:, iso].any()
    place_tunnel(st, [(1, 5), (1, 6)], shape=0)
    give(st, 0, stone=2)
    to_phase(st, "step2_recruit_or_dig")
    st.apply(game.layout.index("dig", placement(game, "domino", [(2, 5), (2, 6)])))
    assert st.reach[0, iso]  # reconnected: now part of player 0's network


def test_statues_move_only_with_carts_of_their_clan_or_wild(game, st):
    place_tunnel(st, [(1, 5), (2, 5)], shape=0)
    st.statue[game.geo.sq(0, 5)] = 1  # an Ice statue on the gate
    st.tokens[0, 0, 7] = 1  # a Fire cart
    st.supply[CART] -= 1
    st.phase = Phase.STEP4
    st.invalidate_caches()
    assert "select_statue" not in blocks(st)
    give(st, 0, cart=1)
    st.invalidate_caches()
    act(st, "select_statue", game.geo.sq(0, 5))
    act(st, "move_statue", game.geo.sq(2, 5))
    assert st.tokens[0, 0, 7] == 1 and st.storage[0, CART] == 0  # the Fire cart could not pay


def test_no_statue_moves_through_workshops_or_onto_occupied_squares(game, st):
    place_tunnel(st, [(1, 5), (2, 5)], shape=0)
    st.statue[game.geo.sq(0, 5)] = 0
    st.statue[game.geo.sq(2, 5)] = 1
    dests = statue_destinations(st, 0, game.geo.sq(0, 5))
    assert game.geo.sq(2, 5) not in dests and game.geo.sq(1, 5) in dests


# -- the coronation and the end -------------------------------------------------------------------
def _cap(st, p, game):
    """Give p nine trolls and a free slot 9, ready to recruit the 10th."""
    st.smoot[p, :9] = np.arange(9) + game.n_starters
    st.smoot[p, 9] = -1
    st.invalidate_caches()


def _play_turn_recruiting(st, game):
    to_phase(st, "step2_recruit_or_dig")
    rec = [int(a) for a in st.legal_actions() if game.layout.decode(int(a))[0] == "recruit"]
    seat = st.current
    st.apply(rec[0])
    while not st.is_terminal() and st.current == seat:
        act(st, "pass")


def _finish_turn(st):
    seat = st.current
    while not st.is_terminal() and st.current == seat:
        st.apply(int(st.legal_actions()[0]))


def _turns_until_end(st, trigger_turn):
    """Play on (first legal decision) to the end; the number of turns after the trigger turn."""
    steps = 0
    while not st.is_terminal():
        st.apply(int(st.legal_actions()[0]))
        steps += 1
        assert steps < 5000
    return st.turn - trigger_turn


def test_coronation_two_players_only_the_3(game, st):
    _cap(st, 0, game)
    trigger = st.turn
    _play_turn_recruiting(st, game)
    assert st.coronation[0] == 3 and st.coronation_left == []
    # the first player triggered it: the round finishes (player 1), then 2 more turns each
    assert _turns_until_end(st, trigger) == 1 + 4


def test_endgame_when_the_last_seat_of_the_round_triggers_it():
    game = make_test_game(4)
    st = after_setup(game, seed=1)
    for p in range(4):
        clear_resources(st, p)
    _cap(st, 0, game)
    _play_turn_recruiting(st, game)
    assert st.coronation[0] == 5 and st.final_turns_left == -1
    while st.current != 3:
        _finish_turn(st)
    _cap(st, 3, game)
    trigger = st.turn
    _play_turn_recruiting(st, game)
    assert st.coronation[3] == 3
    assert _turns_until_end(st, trigger) == 8  # the round is over at once: exactly 2 more turns each


def test_endgame_when_another_seat_triggers_it():
    game = make_test_game(4)
    st = after_setup(game, seed=1)
    for p in range(4):
        clear_resources(st, p)
    st.coronation_left = [3]
    _finish_turn(st)
    _cap(st, 1, game)
    trigger = st.turn
    _play_turn_recruiting(st, game)
    assert _turns_until_end(st, trigger) == 2 + 8  # seats 2 and 3 finish the round, then 2 turns each


def test_tie_break_lowest_recruited_levels(game, st):
    st.honour[:] = 10
    st.smoot[0, 4] = next(i for i, c in enumerate(game.cards) if c.level == 3)
    st.smoot[1, 4] = next(i for i, c in enumerate(game.cards) if c.level == 1)
    assert st.score_breakdown(0)["total"] == st.score_breakdown(1)["total"]
    assert st.ranks() == [1, 0]


# -- the whole game -------------------------------------------------------------------------------
@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_random_play_reaches_the_end_with_consistent_scores(n):
    rng = np.random.default_rng(n)
    game = Game(n)
    for seed in range(4):
        st = game.new_initial_state(seed)
        random_play(st, rng)
        assert st.is_terminal()
        for p in range(n):
            b = st.score_breakdown(p)
            assert b["total"] == sum(v for k, v in b.items() if k != "total")
        returns = st.returns()
        assert 0 in st.ranks() and max(returns) == 1.0 and min(returns) == -1.0 / (n - 1)


def test_illegal_decision_leaves_the_state_unchanged(game, st):
    before = st.to_json()
    for bad in (-1, game.layout.size, 1.5, "3", True, game.layout.index("hall", 0)):
        with pytest.raises(IllegalActionError):
            st.apply(bad)
    assert st.to_json() == before


def test_payment_default_order():
    """Trolls before storage, bottom row first, clan carts before wild ones."""
    game = make_test_game(2)
    st = after_setup(game, seed=0)
    clear_resources(st, 0)
    st.tokens[0, 5, IRON] = 1
    st.tokens[0, 0, IRON] = 1
    st.tokens[0, 1, 7] = 1  # a Fire cart
    st.tokens[0, 0, CART] = 1
    st.storage[0, IRON] = 1
    st.supply[IRON] -= 3
    st.supply[CART] -= 2
    eco.pay(st, 0, IRON, 1)
    assert st.tokens[0, 0, IRON] == 0 and st.tokens[0, 5, IRON] == 1
    eco.pay(st, 0, CART, 1)
    assert st.tokens[0, 1, 7] == 0 and st.tokens[0, 0, CART] == 1
    assert eco.owned(st, 0)[STONE] == 0
