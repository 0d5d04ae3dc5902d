"""ARTIFACT COUNTERS: each artifact's effect, its targets, and that playing it takes an action."""

from cave_troll_helpers import act, can_move, cloaked_in_troll_room, give, lay, legal_args, move, names, on_top, position, put, where

from mk_env.cave_troll.rules import Artifact, Block, Kind, Phase
from mk_env.cave_troll.rules.vocabulary import DISCARDED, PLAYED


def test_helm_of_mind_control_moves_an_opponents_counter_up_to_three_rooms():
    st = position(n=2)
    helm = give(st, 0, Artifact.HELM_OF_MIND_CONTROL)
    theirs, troll, mine = lay(st, (1, Kind.EXPLORER, "R01"), (1, Kind.CAVE_TROLL, "R20"), (0, Kind.EXPLORER, "R33"))
    targets = legal_args(st, Block.HELM)
    assert theirs in targets and troll not in targets and mine not in targets
    act(st, Block.HELM, theirs)
    assert st.phase == Phase.STEP and st.art_at[helm] == PLAYED and st.actions_left == 3
    assert Block.DECLINE not in {st.game.layout.decode(int(a))[0] for a in st.legal_actions()}  # one step at least
    for room in ("R02", "R06", "R07"):
        act(st, Block.STEP, room)
    assert st.loc[theirs] == where(st, "R07") and st.phase == Phase.ACTION and st.actions_left == 3


def test_helm_may_stop_after_one_step_and_its_wraith_does_not_push():
    st = position(n=2)
    give(st, 0, Artifact.HELM_OF_MIND_CONTROL)
    wraith = put(st, 1, Kind.WRAITH, "the pit")
    mine = put(st, 0, Kind.EXPLORER, "R12")
    act(st, Block.HELM, wraith)
    act(st, Block.STEP, "R12")
    assert st.phase == Phase.STEP  # no push: the next step or stop
    act(st, Block.DECLINE)
    assert st.loc[wraith] == where(st, "R12") and st.loc[mine] == where(st, "R12")


def test_chalice_of_teleportation_moves_each_adventurer_anywhere_allowed():
    st = position(n=2)
    chalice = give(st, 0, Artifact.CHALICE_OF_TELEPORTATION)
    a, b, theirs, _, _ = lay(st, (0, Kind.EXPLORER, "north-west entrance"), (0, Kind.KNIGHT, "north-west entrance"),
                             (1, Kind.EXPLORER, "north-west entrance"), (1, Kind.CAVE_TROLL, "R22"),
                             (1, Kind.KNIGHT, "R24"))
    act(st, Block.CHALICE, "north-west entrance")
    assert st.art_at[chalice] == PLAYED and st.phase == Phase.TELEPORT
    dests = names(st, legal_args(st, Block.TELEPORT))
    assert "R22" not in dests and "R24" not in dests and "north-west entrance" not in dests
    assert "the pit" not in dests and "R11" in dests and "south-east entrance" in dests
    act(st, Block.TELEPORT, "R11")  # the Knight first (slot order), then the Explorer
    act(st, Block.TELEPORT, "R33")  # separate places
    assert (st.loc[b], st.loc[a]) == (where(st, "R11"), where(st, "R33"))
    assert st.loc[theirs] == where(st, "north-west entrance") and st.phase == Phase.ACTION


def test_idol_of_eldarr_goes_in_an_empty_room_keeps_everyone_out_and_scores_for_its_owner():
    st = position(n=2)
    idol = give(st, 1, Artifact.IDOL_OF_ELDARR)
    st.turn_player = st.current = 1
    put(st, 0, Kind.EXPLORER, "R12")
    treasure = put(st, 0, Kind.TREASURE, "R13")
    rooms = names(st, legal_args(st, Block.IDOL))
    assert "R12" not in rooms and "R13" not in rooms and len(rooms) == 31
    act(st, Block.IDOL, "R11")
    assert st.idol_room == where(st, "R11") and st.art_at[idol] == PLAYED
    act(st, Block.END_TURN)
    e = put(st, 0, Kind.EXPLORER, "R10")
    assert not can_move(st, e, "R11") and not can_move(st, put(st, 0, Kind.THIEF, "R01"), "R11")
    on_top(st, 0, Kind.COUNT_THE_LOOT)
    act(st, Block.DRAW)
    assert st.score == [4 + 2 + 1, 5] and st.score_breakdown(1)["idol"] == 5  # R12, R10, R01; the Idol's R11
    st.loc[treasure] = -1  # back on top of the pile, to be drawn again
    st.piles[0].append(treasure)
    st.invalidate_caches()
    act(st, Block.DRAW)
    assert "R11" not in names(st, legal_args(st, Block.PLACE))


def test_wand_of_speed_scores_one_room():
    st = position(n=2)
    give(st, 0, Artifact.WAND_OF_SPEED)
    put(st, 0, Kind.DWARF, "R13")
    put(st, 1, Kind.EXPLORER, "R11")
    act(st, Block.WAND, "R13")
    assert st.score == [10, 0] and st.actions_left == 3


def test_cloak_of_invisibility_two_rooms_for_one_action_into_troll_and_knight_rooms():
    st = position(n=2)
    give(st, 0, Artifact.CLOAK_OF_INVISIBILITY)
    e = put(st, 0, Kind.EXPLORER, "R06")
    put(st, 1, Kind.KNIGHT, "R07")
    put(st, 1, Kind.CAVE_TROLL, "R12")
    assert not can_move(st, e, "R07")
    act(st, Block.CLOAK, st.game.slot_of[e])
    assert st.cloaked == e and st.actions_left == 3
    move(st, e, "R07")  # an opponent's Knight's room
    assert st.phase == Phase.STEP
    act(st, Block.STEP, "R12")  # the second room of the same action: a Cave Troll's room
    assert st.loc[e] == where(st, "R12") and st.actions_left == 2 and st.phase == Phase.ACTION
    act(st, Block.END_TURN)
    assert st.loc[e] == DISCARDED and st.cloaked == -1  # in the Cave Troll's room at the end of the turn


def test_a_cloaked_adventurer_that_leaves_the_troll_room_survives():
    st = position(n=2)
    e = cloaked_in_troll_room(st)
    act(st, Block.STEP, "R11")
    act(st, Block.END_TURN)
    assert st.loc[e] == where(st, "R11")
    assert not can_move(st, put(st, 1, Kind.EXPLORER, "R13"), "R12")


def test_sword_of_slaying_discards_every_orc_in_a_room_with_your_adventurer():
    st = position(n=2)
    give(st, 0, Artifact.SWORD_OF_SLAYING)
    put(st, 0, Kind.EXPLORER, "R12")
    orcs = [put(st, 1, Kind.ORC, "R12"), put(st, 0, Kind.ORC, "R12")]
    put(st, 1, Kind.EXPLORER, "R13")
    far = put(st, 0, Kind.WRAITH, "R13")
    assert names(st, legal_args(st, Block.SWORD)) == ["R12"]
    act(st, Block.SWORD, "R12")
    assert [st.loc[o] for o in orcs] == [DISCARDED, DISCARDED] and st.loc[far] == where(st, "R13")


def test_an_artifact_not_held_cannot_be_played():
    st = position(n=2)
    put(st, 0, Kind.EXPLORER, "R12")
    give(st, 1, Artifact.WAND_OF_SPEED)
    assert legal_args(st, Block.WAND) == []
