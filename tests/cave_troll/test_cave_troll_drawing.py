"""Action: Draw a Counter, and the event counters."""

from cave_troll_helpers import act, legal_args, names, on_top, position, put, where

from mk_env.cave_troll.rules import Block, Kind, Phase
from mk_env.cave_troll.rules.vocabulary import DISCARDED, HAND, STACK


def test_an_adventurer_drawn_goes_into_any_of_the_four_entrances():
    st = position(seat=1)
    knight = on_top(st, 1, Kind.KNIGHT)
    act(st, Block.DRAW)
    assert st.phase == Phase.PLACE and st.loc[knight] == HAND and st.actions_left == 3
    assert names(st, legal_args(st, Block.PLACE)) == [
        "north-west entrance", "north-east entrance", "south-west entrance", "south-east entrance"]
    act(st, Block.PLACE, "south-west entrance")
    assert st.loc[knight] == where(st, "south-west entrance") and st.phase == Phase.ACTION


def test_any_number_of_adventurers_in_an_entrance():
    st = position()
    for _ in range(8):
        put(st, 0, Kind.EXPLORER, "north-west entrance")
    on_top(st, 0, Kind.EXPLORER)
    act(st, Block.DRAW)
    act(st, Block.PLACE, "north-west entrance")


def test_a_monster_drawn_goes_into_the_pit():
    st = position()
    wraith, orc = on_top(st, 0, Kind.WRAITH), None
    act(st, Block.DRAW)
    assert st.loc[wraith] == where(st, "the pit") and st.phase == Phase.ACTION
    orc = on_top(st, 0, Kind.ORC)
    act(st, Block.DRAW)
    assert st.loc[orc] == where(st, "the pit")


def test_the_cave_troll_may_be_played_in_any_room_with_knights_but_not_pit_or_entrance():
    st = position(n=2)
    put(st, 1, Kind.KNIGHT, "R12")
    put(st, 1, Kind.CAVE_TROLL, "R01")
    on_top(st, 0, Kind.CAVE_TROLL)
    act(st, Block.DRAW)
    rooms = names(st, legal_args(st, Block.PLACE))
    assert "R12" in rooms and "R01" not in rooms  # a Knight's room yes; a Cave Troll's room no
    assert len(rooms) == 32 and "the pit" not in rooms and "north-west entrance" not in rooms


def test_treasure_goes_into_a_room_not_an_entrance_nor_the_pit():
    st = position(n=2)
    put(st, 1, Kind.CAVE_TROLL, "R01")
    treasure = on_top(st, 0, Kind.TREASURE)
    act(st, Block.DRAW)
    rooms = names(st, legal_args(st, Block.PLACE))
    assert len(rooms) == 32 and "R01" not in rooms  # decision: not in a Cave Troll's room
    act(st, Block.PLACE, "R07")
    assert st.loc[treasure] == where(st, "R07")


def test_count_the_loot_scores_the_board_at_once_and_the_turn_resumes():
    st = position(n=2, actions=3)
    put(st, 0, Kind.EXPLORER, "R11")  # 5 gold
    loot = on_top(st, 0, Kind.COUNT_THE_LOOT)
    act(st, Block.DRAW)
    assert st.score == [5, 0] and st.loc[loot] == DISCARDED
    assert st.phase == Phase.ACTION and st.turn_player == 0 and st.actions_left == 2


def test_count_the_loot_as_the_last_action_ends_the_turn():
    st = position(n=2, actions=1)
    on_top(st, 0, Kind.COUNT_THE_LOOT)
    act(st, Block.DRAW)
    assert st.turn_player == 1


def test_find_an_artifact_draws_the_top_artifact_in_secret():
    st = position(n=2)
    top = st.stack[-1]
    find = on_top(st, 0, Kind.FIND_AN_ARTIFACT)
    act(st, Block.DRAW)
    assert st.art_at[top] == 0 and st.loc[find] == DISCARDED and len(st.stack) == 5


def test_find_an_artifact_with_an_empty_stack_finds_nothing():
    st = position(n=2)
    st.art_at = [1] * 6  # decision: nothing happens when the stack is empty
    st.stack = []
    on_top(st, 0, Kind.FIND_AN_ARTIFACT)
    act(st, Block.DRAW)
    assert st.art_at == [1] * 6 and STACK not in st.art_at
