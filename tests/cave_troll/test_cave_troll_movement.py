"""Action: Move a Counter, the Thief, the Knight and the Barbarian during play."""

from cave_troll_helpers import act, can_move, legal_args, move, names, position, put, where

from mk_env.cave_troll.rules import Block, Kind
from mk_env.cave_troll.rules.vocabulary import DISCARDED


def test_moves_only_through_doorways():
    st = position()
    e = put(st, 0, Kind.EXPLORER, "R07")  # doorways: R06, R08, R12
    dests = sorted(d for s, d in [divmod(a, st.game.pack.lair.size) for a in legal_args(st, Block.MOVE)])
    assert names(st, dests) == ["R06", "R08", "R12"]
    move(st, e, "R12")
    assert st.loc[e] == where(st, "R12") and st.actions_left == 3


def test_from_an_entrance_to_any_other_entrance_but_the_pit_is_not_an_entrance():
    st = position()
    e = put(st, 0, Kind.EXPLORER, "north-west entrance")
    assert can_move(st, e, "south-east entrance") and can_move(st, e, "R05")
    wraith = put(st, 0, Kind.WRAITH, "the pit")
    assert not can_move(st, wraith, "north-west entrance") and can_move(st, wraith, "R12")


def test_adventurers_may_not_move_into_the_pit_but_monsters_may_go_back():
    st = position()
    e = put(st, 0, Kind.EXPLORER, "R12")
    orc = put(st, 0, Kind.ORC, "R13")
    assert not can_move(st, e, "the pit")
    assert can_move(st, orc, "the pit")  # decision: the text forbids only adventurers


def test_a_room_with_five_counters_refuses_entry():
    st = position(n=2)
    for kind in (Kind.EXPLORER, Kind.EXPLORER, Kind.DWARF, Kind.ORC):
        put(st, 1, kind, "R12")
    put(st, 0, Kind.WRAITH, "R12")  # five adventurers and monsters, any mix of players
    e = put(st, 0, Kind.EXPLORER, "R07")
    knight = put(st, 0, Kind.KNIGHT, "R11")
    assert not can_move(st, e, "R12") and not can_move(st, knight, "R12")
    put(st, 0, Kind.TREASURE, "R13")
    e2 = put(st, 0, Kind.EXPLORER, "R08")
    assert can_move(st, e2, "R13")  # a Treasure is not an adventurer or monster


def test_the_barbarian_counts_as_one_during_play():
    st = position(n=2)
    put(st, 1, Kind.BARBARIAN, "R12")
    for _ in range(3):
        put(st, 1, Kind.EXPLORER, "R12")
    e = put(st, 0, Kind.EXPLORER, "R07")
    move(st, e, "R12")  # Barbarian + 3 + this one: five
    assert not can_move(st, put(st, 0, Kind.EXPLORER, "R11"), "R12")


def test_no_entry_into_a_cave_trolls_room():
    st = position(n=2)
    put(st, 1, Kind.CAVE_TROLL, "R12")
    assert not can_move(st, put(st, 0, Kind.EXPLORER, "R07"), "R12")
    assert not can_move(st, put(st, 0, Kind.WRAITH, "the pit"), "R12")


def test_only_knights_enter_a_room_occupied_by_an_opponents_knight():
    st = position(n=2)
    put(st, 1, Kind.KNIGHT, "R12")
    assert not can_move(st, put(st, 0, Kind.EXPLORER, "R07"), "R12")
    assert not can_move(st, put(st, 0, Kind.ORC, "the pit"), "R12")
    assert can_move(st, put(st, 0, Kind.KNIGHT, "R11"), "R12")
    st2 = position(n=2)
    put(st2, 0, Kind.KNIGHT, "R12")
    assert can_move(st2, put(st2, 0, Kind.EXPLORER, "R07"), "R12")  # your own Knight does not block you


def test_a_knight_in_an_entrance_blocks_nobody():
    st = position(n=2)
    put(st, 1, Kind.KNIGHT, "north-west entrance")
    assert can_move(st, put(st, 0, Kind.EXPLORER, "R01"), "north-west entrance")


def test_a_knight_discards_its_own_orc():
    """"If a Knight enters a room or entrance occupied by one or more Orcs (even an Orc controlled by the
    same player), the Orcs are all immediately discarded." Other counters may remain."""
    st = position(n=2)
    mine = put(st, 0, Kind.ORC, "R12")
    theirs = put(st, 1, Kind.ORC, "R12")
    explorer = put(st, 1, Kind.EXPLORER, "R12")
    knight = put(st, 0, Kind.KNIGHT, "R07")
    move(st, knight, "R12")
    assert st.loc[mine] == DISCARDED and st.loc[theirs] == DISCARDED
    assert st.loc[explorer] == where(st, "R12")


def test_a_knight_entering_an_entrance_discards_the_orcs_there():
    st = position(n=2)
    orc = put(st, 1, Kind.ORC, "north-east entrance")
    knight = put(st, 0, Kind.KNIGHT, "north-west entrance")
    move(st, knight, "north-east entrance")
    assert st.loc[orc] == DISCARDED


def test_thief_moves_to_any_room_or_entrance_in_one_action():
    st = position(n=2)
    thief = put(st, 0, Kind.THIEF, "north-west entrance")
    put(st, 1, Kind.CAVE_TROLL, "R22")
    assert can_move(st, thief, "R24") and can_move(st, thief, "south-east entrance")
    assert not can_move(st, thief, "R22") and not can_move(st, thief, "the pit")  # the limits still hold
    move(st, thief, "R24")
    assert st.actions_left == 3


def test_the_cave_troll_and_treasure_never_move():
    st = position(n=2)
    troll = put(st, 0, Kind.CAVE_TROLL, "R12")
    treasure = put(st, 0, Kind.TREASURE, "R07")
    slots = {a // st.game.pack.lair.size for a in legal_args(st, Block.MOVE)}
    assert st.game.slot_of[troll] not in slots and st.game.slot_of[treasure] not in slots


def test_four_moves_of_one_counter_in_a_turn():
    st = position(n=2)
    e = put(st, 0, Kind.EXPLORER, "north-west entrance")
    for room in ("R01", "R02", "R06", "R07"):
        move(st, e, room)
    assert st.turn_player == 1 and st.loc[e] == where(st, "R07")
    act(st, Block.END_TURN)


def test_the_thiefs_jump_targets_are_exactly_the_locations_it_may_enter():
    """The jump's fast path (all rooms at once) agrees with the one movement-limit test, over random play."""
    import numpy as np

    from mk_env.cave_troll.rules import Game
    from mk_env.cave_troll.rules.board import may_enter, occupancy
    from mk_env.cave_troll.rules.moving import destinations
    st, rng, checked = Game(4).new_initial_state(8), np.random.default_rng(8), 0
    while not st.is_terminal():
        thief = st.game.counters_of[st.turn_player][1]
        if st.phase == 0 and st.loc[thief] >= 0:
            occ, worn = occupancy(st), st.cloaked
            for cloaked in (False, True):
                expected = [d for d in range(st.game.pack.lair.pit)
                            if d != st.loc[thief] and may_enter(st, occ, thief, d, cloaked)]
                st.cloaked = thief if cloaked else -1
                assert sorted(destinations(st, occ, thief)) == expected
            st.cloaked = worn
            checked += 1
        st.apply(int(rng.choice(st.legal_actions())))
    assert checked > 50
