"""MONSTER COUNTERS: the Wraith's push, the Orc, the Cave Troll and its escapes."""

from cave_troll_helpers import act, can_move, legal_args, move, names, on_top, position, put, where

from mk_env.cave_troll.rules import Block, Kind, Phase
from mk_env.cave_troll.rules.vocabulary import DISCARDED


def _full_room(st, room="R12"):
    return [put(st, 1, k, room) for k in (Kind.EXPLORER, Kind.EXPLORER, Kind.BARBARIAN, Kind.DWARF, Kind.ORC)]


def test_a_wraith_enters_a_full_room_by_pushing():
    st = position(n=2)
    explorer, _, barbarian, _, _ = _full_room(st)
    wraith = put(st, 0, Kind.WRAITH, "the pit")
    assert can_move(st, wraith, "R12")
    move(st, wraith, "R12")
    assert st.phase == Phase.ENTRY_PUSH and not st.is_legal(st.game.layout.index(Block.DECLINE))
    pushable = legal_args(st, Block.PUSH)
    assert explorer in pushable and barbarian not in pushable  # the Barbarian cannot be pushed
    act(st, Block.PUSH, explorer)
    assert st.phase == Phase.PUSH_TO and "the pit" not in names(st, legal_args(st, Block.PUSH_TO))
    act(st, Block.PUSH_TO, "R07")
    assert st.loc[explorer] == where(st, "R07") and st.loc[wraith] == where(st, "R12")
    assert st.phase == Phase.ACTION and st.actions_left == 3


def test_a_wraith_cannot_enter_a_full_room_when_no_push_is_possible():
    st = position(n=2)
    for k in (Kind.BARBARIAN, Kind.ORC, Kind.WRAITH):
        put(st, 1, k, "R12")
    put(st, 0, Kind.ORC, "R12")
    put(st, 0, Kind.BARBARIAN, "R12")  # five, none pushable
    assert not can_move(st, put(st, 0, Kind.WRAITH, "R07"), "R12")


def test_a_wraith_entering_may_push_or_decline():
    st = position(n=2)
    e = put(st, 1, Kind.EXPLORER, "R07")
    wraith = put(st, 0, Kind.WRAITH, "R12")
    move(st, wraith, "R07")
    assert st.phase == Phase.ENTRY_PUSH and legal_args(st, Block.PUSH) == [e]
    act(st, Block.DECLINE)
    assert st.phase == Phase.ACTION and st.loc[e] == where(st, "R07")


def test_wraith_push_as_an_action():
    st = position(n=2)
    e = put(st, 1, Kind.EXPLORER, "R07")
    put(st, 0, Kind.WRAITH, "R07")
    act(st, Block.PUSH, e)
    assert st.actions_left == 3
    act(st, Block.PUSH_TO, "R06")
    assert st.loc[e] == where(st, "R06")


def test_pushes_avoid_full_troll_and_opponents_knight_rooms():
    st = position(n=2)
    e = put(st, 1, Kind.EXPLORER, "R07")  # doorways R06, R08, R12
    put(st, 0, Kind.WRAITH, "R07")
    put(st, 0, Kind.CAVE_TROLL, "R06")
    knight = put(st, 0, Kind.KNIGHT, "R08")  # the pushed adventurer's opponent
    for _ in range(5):
        put(st, 0, Kind.EXPLORER, "R12")
    assert legal_args(st, Block.PUSH) == []  # R06 troll, R08 Knight, R12 full: nowhere to go
    st.loc[knight] = DISCARDED
    st.invalidate_caches()
    assert legal_args(st, Block.PUSH) == [e]
    act(st, Block.PUSH, e)
    assert names(st, legal_args(st, Block.PUSH_TO)) == ["R08"]


def test_no_push_from_an_entrance():
    st = position(n=2)
    put(st, 1, Kind.EXPLORER, "north-west entrance")
    put(st, 0, Kind.WRAITH, "north-west entrance")
    assert legal_args(st, Block.PUSH) == []


def test_orc_discards_an_adventurer_in_its_room_or_entrance():
    st = position(n=2)
    put(st, 0, Kind.ORC, "north-west entrance")
    e = put(st, 1, Kind.EXPLORER, "north-west entrance")
    far = put(st, 1, Kind.EXPLORER, "R01")
    assert legal_args(st, Block.ORC) == [e]
    act(st, Block.ORC, e)
    assert st.loc[e] == DISCARDED and st.loc[far] == where(st, "R01") and st.actions_left == 3


def test_cave_troll_on_a_room_with_three_players_asks_escapes_from_the_left():
    """Seat 1 plays the Cave Troll into R12 holding counters of seats 0, 2, 3 and its own: seat 2 (its
    left) is asked first, then 3, then 0, then seat 1 itself; each is current_player() while deciding.
    What stays is discarded, the Treasure included."""
    st = position(n=4, seat=1)
    c0 = put(st, 0, Kind.EXPLORER, "R12")
    c2 = put(st, 2, Kind.ORC, "R12")
    c3 = put(st, 3, Kind.DWARF, "R12")
    c1 = put(st, 1, Kind.EXPLORER, "R12")
    stays = put(st, 3, Kind.EXPLORER, "R12")
    treasure = put(st, 0, Kind.TREASURE, "R12")
    troll = on_top(st, 1, Kind.CAVE_TROLL)
    act(st, Block.DRAW)
    act(st, Block.PLACE, "R12")
    asked = []
    for cid, dest in ((c2, "the pit"), (c3, "R13"), (c0, "R07"), (c1, None)):
        assert st.phase == Phase.ESCAPE
        asked.append(st.current_player())
        if dest is None:
            act(st, Block.DECLINE)
        else:
            move(st, cid, dest)
    assert asked == [2, 3, 0, 1]
    assert st.loc[c2] == where(st, "the pit") and st.loc[c3] == where(st, "R13") and st.loc[c0] == where(st, "R07")
    assert st.loc[c1] == DISCARDED and st.loc[stays] == DISCARDED and st.loc[treasure] == DISCARDED
    assert st.loc[troll] == where(st, "R12") and st.current_player() == 1 and st.phase == Phase.ACTION


def test_escapes_are_legal_moves_only():
    st = position(n=2, seat=0)
    e = put(st, 1, Kind.EXPLORER, "R05")  # R05's only doorway leads to the north-west entrance
    put(st, 1, Kind.EXPLORER, "R12")
    on_top(st, 0, Kind.CAVE_TROLL)
    act(st, Block.DRAW)
    act(st, Block.PLACE, "R05")
    assert st.current_player() == 1
    assert names(st, [a % st.game.pack.lair.size for a in legal_args(st, Block.MOVE)]) == ["north-west entrance"]
    act(st, Block.DECLINE)
    assert st.loc[e] == DISCARDED and st.current_player() == 0


def test_a_player_with_no_legal_escape_is_not_asked():
    st = position(n=2, seat=0)
    for k in (Kind.EXPLORER, Kind.EXPLORER, Kind.DWARF, Kind.THIEF, Kind.KNIGHT):
        put(st, 0, k, "R07")
    trapped = put(st, 1, Kind.EXPLORER, "R05")
    for k in (Kind.EXPLORER,) * 5:
        put(st, 0, k, "north-west entrance")
    on_top(st, 0, Kind.CAVE_TROLL)
    act(st, Block.DRAW)
    act(st, Block.PLACE, "R05")  # entrance: always enterable, so seat 1 is asked
    assert st.current_player() == 1
    act(st, Block.DECLINE)
    assert st.loc[trapped] == DISCARDED
