"""The Battle: turns and supplies, weak and strong actions (connected symbols through ancestry markers,
wilds, champion symbols), boosts, and seizing control."""

import numpy as np
from fall_helpers import (STOP, act, at_phase, cavern, cell, decide, give_champion, only, play, put_trolls,
                          set_grid, two_player_map)

from mk_env.fall_of_the_mountain_king.rules import Block, Game, Phase, Symbol
from mk_env.fall_of_the_mountain_king.rules.battle import battle_turn

A, B, I, G = (int(s) for s in (Symbol.ADVANCE, Symbol.BOLSTER, Symbol.INFLUENCE, Symbol.GNOME))


def test_a_turn_spends_one_supply_and_players_with_none_left_are_passed():
    st = two_player_map()
    st.supply = [0, 3]
    st.tasks = [STOP]
    battle_turn(st, 0)
    assert st.decider == 1 and st.supply == [0, 2] and st.phase == Phase.TURN
    st.supply = [0, 0]
    st.tasks = [STOP]
    battle_turn(st, 0)
    assert st.tasks[-1] == ["wave_end"]  # "until all players use up their supplies"


def test_the_battle_lasts_until_every_supply_is_spent():
    st = at_phase(3, Phase.TURN, seed=1)
    play(st, np.random.default_rng(1), until=lambda s: s.phase not in (Phase.TURN, Phase.GATHER, Phase.BOOST)
         and s.turn_player == -1)
    assert st.supply == [0, 0, 0]


def _turn(st, seat=0, rows=None, supply=0, desperation=0):
    if rows:
        set_grid(st, seat, rows)
    st.supply[seat], st.desperation[seat] = supply, desperation
    decide(st, Phase.TURN, seat, weak=0)


def test_a_weak_action_covers_one_unnumbered_symbol_and_a_second_may_follow():
    st = two_player_map()
    _turn(st, rows=["A B2 I", "G _ ."])
    L = st.game.layout
    weak = only(st, Block.WEAK)
    assert L.weak(A, cell(st, 0, 0)) - L.offset[Block.WEAK] in weak
    assert L.weak(B, cell(st, 0, 1)) - L.offset[Block.WEAK] not in weak  # numbered: never weak
    assert only(st, Block.END_TURN) == []  # an action is mandatory
    st.apply(L.weak(I, cell(st, 0, 2)))
    assert st.covered[0][cell(st, 0, 2)] == 1 and st.phase == Phase.INFLUENCE and st.pending["power"] == 1
    act(st, Block.INFLUENCE, 0)
    assert st.phase == Phase.TURN and st.pending["weak"] == 1
    assert only(st, Block.STRONG) == [] and only(st, Block.END_TURN) == [0]
    st.wheel = 3  # the next space moves trolls: none on the map, no effect
    st.apply(L.weak(G, cell(st, 1, 0)))
    act(st, Block.WHEEL, 0)
    while st.phase in (Phase.SCOUT_GATE, Phase.SCOUT_GNOME):
        act(st, Block.DONE)
    assert st.phase == Phase.KEEP_CHAMPION  # the turn is over after two weak actions (STOP reached)


def test_a_numbered_symbol_alone_is_a_strong_action():
    st = two_player_map()
    _turn(st, rows=["A B2 I", "G _ ."])
    L = st.game.layout
    assert L.strong(B, cell(st, 0, 1)) - L.offset[Block.STRONG] in only(st, Block.STRONG)
    assert L.strong(A, cell(st, 0, 0)) - L.offset[Block.STRONG] not in only(st, Block.STRONG)  # alone, weak
    st.apply(L.strong(B, cell(st, 0, 1)))
    assert only(st, Block.DONE) == [0] and st.pending["power"] == 2


def test_a_strong_action_over_connected_symbols_through_markers():
    """"Symbols are connected if they are orthogonally adjacent or are connected through orthogonally
    adjacent ancestry markers (from previous plays)"; diagonal symbols are not."""
    st = two_player_map()
    _turn(st, rows=["A  B* I* A",
                    "G  .  .  B*",
                    "I  A  .  A2"])
    L = st.game.layout
    st.apply(L.strong(A, cell(st, 0, 0)))
    assert only(st, Block.DONE) == []  # one unnumbered symbol is not a strong action
    # r0c3 through the markers at r0c1, r0c2; r2c3 through r1c3; r2c1 is only diagonal to nothing used
    assert only(st, Block.ADD) == [cell(st, 0, 3)]
    act(st, Block.ADD, cell(st, 0, 3))
    assert only(st, Block.ADD) == [cell(st, 2, 3)]
    act(st, Block.ADD, cell(st, 2, 3))
    assert st.pending["power"] == 1 + 1 + 2 and only(st, Block.DONE) == [0]
    act(st, Block.DONE)
    assert st.phase == Phase.KEEP_CHAMPION  # no troll on the map: the Advance does nothing


def test_diagonal_symbols_are_not_connected():
    st = two_player_map()
    _turn(st, rows=["A _", "_ A"])
    assert only(st, Block.STRONG) == []


def test_wild_symbols_serve_as_any_action_weak_or_strong():
    st = two_player_map()
    _turn(st, rows=["W G", "_ _"])
    L = st.game.layout
    weak = only(st, Block.WEAK)
    assert all(L.weak(a, cell(st, 0, 0)) - L.offset[Block.WEAK] in weak for a in (A, B, I, G))
    assert only(st, Block.STRONG) == [L.strong(G, cell(st, 0, 0)) - L.offset[Block.STRONG],
                                      L.strong(G, cell(st, 0, 1)) - L.offset[Block.STRONG]]


def test_a_weak_action_is_boosted_by_desperation_tokens_and_a_strong_one_by_supplies():
    st = two_player_map()
    _turn(st, rows=["I B2", "_ _"], supply=3, desperation=2)
    L = st.game.layout
    st.apply(L.weak(I, cell(st, 0, 0)))
    assert st.phase == Phase.BOOST and only(st, Block.BOOST) == [0, 1, 2]
    act(st, Block.BOOST, 2)
    assert st.desperation[0] == 0 and st.supply[0] == 3 and st.pending["power"] == 3
    _turn(st, supply=3, desperation=2)
    st.apply(L.strong(B, cell(st, 0, 1)))
    act(st, Block.DONE)
    assert only(st, Block.BOOST) == [0, 1, 2, 3]
    act(st, Block.BOOST, 1)
    assert st.supply[0] == 2 and st.desperation[0] == 2 and st.pending["power"] == 3


def test_champion_symbols_join_any_strong_action_neglecting_adjacency_and_claws_limit_them():
    st = two_player_map()
    card = give_champion(st, 0, "Brunna Stonefist")  # an advance 2 symbol, 1 claw
    _turn(st, rows=["A _ _ A", "_ _ _ _"])
    L = st.game.layout
    champ_cell = st.game.cells + card
    st.apply(L.strong(A, cell(st, 0, 0)))
    assert only(st, Block.ADD) == [champ_cell]
    act(st, Block.ADD, champ_cell)
    assert st.claws_used[card] == 1 and st.pending["power"] == 3
    act(st, Block.DONE)
    _turn(st)
    assert L.strong(A, champ_cell) - L.offset[Block.STRONG] not in only(st, Block.STRONG)  # its claw is covered


def test_seizing_control_gains_a_vote_in_the_caverns_clan():
    """A cavern that was not empty and not controlled by you at the start of the action and is at its end."""
    st = two_player_map()
    side = st.game.side
    hollow, deep = cavern(st, "Moss Hollow"), cavern(st, "Moss Deep")
    put_trolls(st, 0, deep, 2)
    put_trolls(st, 1, hollow, 1)
    decide(st, Phase.ADVANCE_DEST, 0, tasks=[["seize_check", 0, [hollow]]], power=2, strong=0)
    act(st, Block.DEST, hollow)
    act(st, Block.TROLL, deep)
    act(st, Block.TROLL, deep)
    moss = side.clan_of[hollow]
    assert st.votes[moss] == [1, 0]


def test_a_strong_action_may_start_with_a_champion_symbol_and_join_any_grid_symbol():
    st = two_player_map()
    card = give_champion(st, 0, "Dorn Anvilborn")  # a wild symbol, 1 claw
    _turn(st, rows=["A _ _ A", "_ _ _ _"])
    L = st.game.layout
    champ_cell = st.game.cells + card
    st.apply(L.strong(A, champ_cell))
    assert only(st, Block.ADD) == [cell(st, 0, 0), cell(st, 0, 3)]
    act(st, Block.ADD, cell(st, 0, 3))
    assert only(st, Block.ADD) == [] and st.pending["power"] == 2


def test_the_state_counts_the_battle_turns_begun():
    """``turn`` is the turns begun minus one, as the suite's other games count (the game lasted turn + 1)."""
    assert Game(2).new_initial_state(1).turn == -1
    st = two_player_map()
    st.supply, st.turn = [2, 0], 5
    st.tasks = [STOP]
    battle_turn(st, 0)
    assert st.turn == 6 and st.turn_player == 0
