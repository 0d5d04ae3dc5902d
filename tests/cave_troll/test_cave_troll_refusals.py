"""A refused action names the rule it breaks, in the rule text's words, one mechanic at a time, and changes
nothing: moves (not in play, not adjacent, the room limit, a Cave Troll, an opponent's Knight, the Idol),
placements, the Wraith's push, the Orc, the artifacts, escapes and the Helm's steps."""

import pytest
from cave_troll_helpers import act, action, give, lay, on_top, position, put, where

from mk_env.cave_troll.rules import Artifact, Block, Kind, Phase
from mk_env.core.errors import IllegalActionError


def refusal(st, a: int) -> str:
    """The message refusing action ``a``; the state is unchanged after it."""
    before = st.to_dict()
    with pytest.raises(IllegalActionError) as e:
        st.apply(a)
    assert st.to_dict() == before
    text = str(e.value)
    assert f"not legal for seat {st.current}" in text and "; legal now: " in text
    return text


def move_to(st, cid: int, dest: str) -> int:
    return st.game.layout.move(st.game.slot_of[cid], where(st, dest))


def test_a_move_must_go_through_a_doorway_and_names_the_doors():
    st = position(n=2)
    e = put(st, 0, Kind.EXPLORER, "R03")
    text = refusal(st, move_to(st, e, "R20"))
    assert ("that move breaks a rule of the action phase: R20 is not adjacent to R03: adventurers and monsters "
            "may only move through doorways (or between entrances), from R03 to R04, R08") in text
    assert "(legal move decisions: move your Explorer (#4) to R04; move your Explorer (#4) to R08)" in text


def test_a_counter_not_in_play_or_a_cave_troll_cannot_move():
    st = position(n=2)
    text = refusal(st, st.game.layout.move(4, where(st, "R08")))
    assert "no move decision is possible now (the red Explorer (#4) is not in play: it is still in its pile)" in text
    troll = put(st, 0, Kind.CAVE_TROLL, "R12")
    text = refusal(st, move_to(st, troll, "R13"))
    assert "the red Cave Troll (#15) cannot be moved: once played, a Cave Troll cannot be moved" in text


def test_a_move_into_a_room_of_five_breaks_the_room_limit():
    st = position(n=2)
    e = put(st, 0, Kind.EXPLORER, "R03")
    lay(st, *[(1, k, "R08") for k in (Kind.EXPLORER, Kind.EXPLORER, Kind.BARBARIAN, Kind.DWARF, Kind.ORC)])
    assert "R08 already contains 5 adventurers and monsters (the room limit)" in refusal(st, move_to(st, e, "R08"))


def test_a_move_into_a_cave_trolls_or_an_opponents_knights_room_is_blocked():
    st = position(n=2)
    e = put(st, 0, Kind.EXPLORER, "R03")
    lay(st, (1, Kind.CAVE_TROLL, "R08"), (1, Kind.KNIGHT, "R04"))
    text = refusal(st, move_to(st, e, "R08"))
    assert "R08 is occupied by a Cave Troll: adventurers and monsters may not enter it" in text
    text = refusal(st, move_to(st, e, "R04"))
    assert "no move decision is possible now (R04 is occupied by an opponent's Knight (blue): only Knights" in text


def test_a_move_into_the_idols_room_is_refused():
    st = position(n=2)
    e = put(st, 0, Kind.EXPLORER, "R03")
    st.idol_room, st.idol_owner = where(st, "R08"), 1
    st.invalidate_caches()
    text = refusal(st, move_to(st, e, "R08"))
    assert "R08 holds the Idol of El'darr: adventurers and monsters may not enter this room" in text


def test_a_wraith_enters_a_full_room_only_to_push():
    st = position(n=4)
    w = put(st, 0, Kind.WRAITH, "R07")
    lay(st, (1, Kind.BARBARIAN, "R08"), (2, Kind.BARBARIAN, "R08"), (3, Kind.BARBARIAN, "R08"), (1, Kind.ORC, "R08"),
        (1, Kind.WRAITH, "R08"))
    text = refusal(st, move_to(st, w, "R08"))
    assert "a Wraith may enter it only if it pushes an adventurer into an adjacent room, and none can be pushed" in text


def test_a_placement_names_where_the_drawn_counter_may_go():
    st = position(n=2)
    on_top(st, 0, Kind.KNIGHT)
    act(st, Block.DRAW)
    text = refusal(st, action(st, Block.PLACE, "R05"))
    assert "you must put it into play in one of the four entrances, not R05" in text
    assert "no decline decision is possible now (only a Treasure may be left out of play: the drawn Knight must" in (
        refusal(st, action(st, Block.DECLINE)))
    st = position(n=2)
    put(st, 1, Kind.CAVE_TROLL, "R12")
    on_top(st, 0, Kind.CAVE_TROLL)
    act(st, Block.DRAW)
    text = refusal(st, action(st, Block.PLACE, "the pit"))
    assert "the Cave Troll is played in a room, not in the pit or an entrance (the pit)" in text
    assert "R12 is occupied by a Cave Troll: the Cave Troll may not be played there" in refusal(
        st, action(st, Block.PLACE, "R12"))


def test_a_push_names_the_wraith_barbarian_and_doorway_rules():
    st = position(n=2)
    _, barbarian, dwarf = lay(st, (0, Kind.WRAITH, "R08"), (1, Kind.BARBARIAN, "R08"), (1, Kind.DWARF, "R13"))
    explorer, _ = lay(st, (1, Kind.EXPLORER, "R08"), (1, Kind.CAVE_TROLL, "R03"))
    text = refusal(st, action(st, Block.PUSH, barbarian))
    assert "the blue Barbarian (#0) is a Barbarian: the Barbarian cannot be pushed by the Wraith" in text
    text = refusal(st, action(st, Block.PUSH, dwarf))
    assert "none of your Wraiths is in a room with the blue Dwarf (#3): it is in R13" in text
    assert st.is_legal(action(st, Block.PUSH, explorer))
    act(st, Block.PUSH, explorer)
    assert st.phase == Phase.PUSH_TO
    text = refusal(st, action(st, Block.PUSH_TO, "R20"))
    assert "an adventurer is pushed through a doorway into an adjacent room or entrance (never the pit), " \
           "from R08 to R03, R07, R13" in text
    assert "R03 is occupied by a Cave Troll" in refusal(st, action(st, Block.PUSH_TO, "R03"))


def test_an_orc_discards_only_an_adventurer_it_is_with():
    st = position(n=2)
    _, e = lay(st, (0, Kind.ORC, "R05"), (1, Kind.EXPLORER, "R06"))
    text = refusal(st, action(st, Block.ORC, e))
    assert "no orc decision is possible now (none of your Orcs is in a room or entrance with the blue Explorer " \
           "(#4): it is in R06)" in text


def test_an_artifact_must_be_yours_and_unplayed():
    st = position(n=2)
    put(st, 0, Kind.EXPLORER, "R11")
    text = refusal(st, action(st, Block.CHALICE, "R11"))
    assert "no chalice decision is possible now (the Chalice of Teleportation is not yours: it is not in " \
           "your hand)" in text
    give(st, 0, Artifact.CHALICE_OF_TELEPORTATION)
    act(st, Block.CHALICE, "R11")
    act(st, Block.TELEPORT, "R01")
    assert "the Chalice of Teleportation has already been played" in refusal(st, action(st, Block.CHALICE, "R01"))


def test_the_chalice_refuses_a_cave_trolls_or_an_opponents_knights_place():
    st = position(n=3)
    lay(st, (1, Kind.CAVE_TROLL, "R22"), (2, Kind.KNIGHT, "north-east entrance"), (0, Kind.EXPLORER, "R11"))
    give(st, 0, Artifact.CHALICE_OF_TELEPORTATION)
    text = refusal(st, action(st, Block.CHALICE, "R12"))
    assert "none of your adventurers is in R12 (the Chalice moves your adventurers)" in text
    act(st, Block.CHALICE, "R11")
    text = refusal(st, action(st, Block.TELEPORT, "R22"))
    assert "that teleport breaks a rule of the teleport phase: R22 is occupied by a Cave Troll (the Chalice" in text
    text = refusal(st, action(st, Block.TELEPORT, "north-east entrance"))
    assert "north-east entrance is occupied by an opponent's Knight" in text
    assert "any *other* room or entrance than R11" in refusal(st, action(st, Block.TELEPORT, "R11"))


def test_the_other_artifacts_name_their_targets():
    st = position(n=2)
    for kind in (Artifact.IDOL_OF_ELDARR, Artifact.SWORD_OF_SLAYING, Artifact.HELM_OF_MIND_CONTROL,
                 Artifact.CLOAK_OF_INVISIBILITY):
        give(st, 0, kind)
    mine, _ = lay(st, (0, Kind.EXPLORER, "R05"), (1, Kind.EXPLORER, "R05"))
    assert "the Idol is placed in a room with no counters in it, and R05 holds 2" in refusal(
        st, action(st, Block.IDOL, "R05"))
    assert "R05 holds 1 of your adventurers and 0 Orcs" in refusal(st, action(st, Block.SWORD, "R05"))
    assert "the Helm moves one of an opponent's adventurers or monsters, and the red Explorer (#4) is yours" in (
        refusal(st, action(st, Block.HELM, mine)))
    wraith_slot = st.game.slot_of[put(st, 0, Kind.WRAITH, "the pit")]
    assert "the Cloak goes to one of your adventurers, and the red Wraith (#14) is not one" in refusal(
        st, action(st, Block.CLOAK, wraith_slot))


def test_an_escape_goes_through_a_doorway_of_the_cave_trolls_room():
    st = position(n=2)
    explorer = put(st, 1, Kind.EXPLORER, "R12")
    put(st, 0, Kind.KNIGHT, "R13")
    on_top(st, 0, Kind.CAVE_TROLL)
    act(st, Block.DRAW)
    act(st, Block.PLACE, "R12")
    assert st.phase == Phase.ESCAPE and st.current == 1
    text = refusal(st, move_to(st, explorer, "R20"))
    assert "that move breaks a rule of the escape phase: an escape goes through a doorway of R12, to R07, R11, " \
           "R13, the pit" in text
    assert "R13 is occupied by an opponent's Knight (red)" in refusal(st, move_to(st, explorer, "R13"))
    assert "adventurers may not move into the pit" in refusal(st, move_to(st, explorer, "the pit"))


def test_the_helms_steps_are_moves_and_the_first_is_compulsory():
    st = position(n=2)
    give(st, 0, Artifact.HELM_OF_MIND_CONTROL)
    e = put(st, 1, Kind.EXPLORER, "R03")
    put(st, 0, Kind.KNIGHT, "R08")
    act(st, Block.HELM, e)
    assert st.phase == Phase.STEP
    assert "no decline decision is possible now (the Helm of Mind Control moves the counter at least one room" in (
        refusal(st, action(st, Block.DECLINE)))
    assert "R20 is not adjacent to R03" in refusal(st, action(st, Block.STEP, "R20"))
    assert "R08 is occupied by an opponent's Knight (red)" in refusal(st, action(st, Block.STEP, "R08"))
