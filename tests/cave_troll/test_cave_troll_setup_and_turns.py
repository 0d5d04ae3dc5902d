"""SETUP, PLAYING THE GAME and The First Round Rule."""

from collections import Counter

import pytest
from cave_troll_helpers import act, position

from mk_env.cave_troll.rules import Block, Game, Kind, Phase
from mk_env.cave_troll.rules.vocabulary import STACK


@pytest.mark.parametrize("n", [2, 3, 4])
def test_setup_piles_stack_scores_and_first_player(n):
    """Each player's 20 counters shuffled into a face-down pile, the artifacts in a face-down stack, scores
    at zero; the first player is chosen at random."""
    g = Game(n)
    firsts = set()
    for seed in range(12):
        st = g.new_initial_state(seed)
        assert [sorted(p) for p in st.piles] == [list(c) for c in g.counters_of]
        assert sorted(st.stack) == list(range(6)) and st.art_at == [STACK] * 6
        assert st.score == [0] * n and st.current_player() == st.first_player
        firsts.add(st.first_player)
    assert firsts == set(range(n))
    assert g.new_initial_state(1).piles != g.new_initial_state(2).piles


def test_each_colour_has_14_adventurers_3_monsters_3_events():
    kinds = Counter(Game(4).pack.slot_kinds)
    assert kinds == {Kind.BARBARIAN: 1, Kind.THIEF: 1, Kind.KNIGHT: 1, Kind.DWARF: 1, Kind.EXPLORER: 10,
                     Kind.WRAITH: 1, Kind.CAVE_TROLL: 1, Kind.ORC: 1, Kind.TREASURE: 1, Kind.COUNT_THE_LOOT: 1,
                     Kind.FIND_AN_ARTIFACT: 1}


@pytest.mark.parametrize("n", [2, 3, 4])
def test_first_round_rule(n):
    """"The first player only gets one action, the second player gets two actions, and the third player
    gets three actions. After this, each player gets four actions." Play rotates to the left."""
    st = Game(n).new_initial_state(5)
    first = st.first_player
    expected = [1, 2, 3][:n] + [4] * (2 * n - min(n, 3))
    for turn, actions in enumerate(expected):
        assert st.turn_player == (first + turn) % n
        for _ in range(actions):
            assert st.turn == turn and st.phase == Phase.ACTION
            act(st, Block.DRAW)
            while st.phase != Phase.ACTION:  # place what was drawn
                st.apply(int(st.legal_actions()[0]))
        assert st.turn == turn + 1


def test_end_turn_gives_up_the_actions_left_and_play_passes_left():
    st = position(n=3, seat=2, actions=3)
    act(st, Block.END_TURN)
    assert (st.turn_player, st.actions_left, st.current_player()) == (0, 4, 0)


def test_each_action_is_one_of_draw_move_or_artifact_and_counts():
    st = position(n=2, seat=0, actions=2)
    act(st, Block.DRAW)
    while st.phase != Phase.ACTION:
        st.apply(int(st.legal_actions()[0]))
    assert st.actions_left == 1 and st.turn_player == 0
