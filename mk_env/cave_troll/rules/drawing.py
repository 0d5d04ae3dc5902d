"""Action: Draw a Counter, and the event counters ("Count the Loot!", "Find an Artifact!", "Treasure").

The pile is shuffled at setup, so drawing takes the top counter (the last of ``state.piles[seat]``). An
adventurer goes into an entrance of the player's choice, the Wraith and the Orc into the pit, the Cave
Troll and a Treasure into a room of the player's choice (:data:`~.vocabulary.Phase.PLACE`). A Treasure
"may" be put into play: its player may decline it instead, and it is out of the game (:func:`decline_treasure`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import monsters
from .board import CAVE_TROLL, TREASURE, discard, enter, occupancy, relocate
from .scoring import count_the_loot
from .turn import complete_action, start_action
from .vocabulary import HAND, Kind, Pending, Phase

if TYPE_CHECKING:
    from .state import CaveTrollState

COUNT_THE_LOOT, FIND_AN_ARTIFACT = Kind.COUNT_THE_LOOT.value, Kind.FIND_AN_ARTIFACT.value


def can_draw(st: CaveTrollState) -> bool:
    return bool(st.piles[st.turn_player])


def apply_draw(st: CaveTrollState) -> None:
    """Draw the top counter of your pile, reveal it, and put it into play or resolve it."""
    start_action(st)
    seat = st.turn_player
    cid = st.piles[seat].pop()
    relocate(st, cid, HAND)
    g = st.game
    kind = g.kind_of[cid]
    if g.is_monster[cid] and kind != CAVE_TROLL:
        enter(st, cid, g.pack.lair.pit)
    elif kind == COUNT_THE_LOOT:
        discard(st, cid)
        count_the_loot(st)
    elif kind == FIND_AN_ARTIFACT:
        discard(st, cid)
        find_an_artifact(st, seat)
    else:
        st.phase, st.pending = Phase.PLACE, Pending(counter=cid)
        if not places(st):  # no room may take it (every room holds a Cave Troll or the Idol): discarded
            discard(st, cid)
        else:
            return
    complete_action(st)


def find_an_artifact(st: CaveTrollState, seat: int) -> None:
    """"You immediately draw the top artifact counter" (none when the stack is empty)."""
    if st.stack:
        st.art_at[st.stack.pop()] = seat


def places(st: CaveTrollState) -> list[int]:
    """Where the drawn counter may go: an adventurer into any entrance; the Cave Troll into any room
    (Knights' rooms included) but not one holding a Cave Troll or the Idol; a Treasure into any room but
    the Idol's or a Cave Troll's."""
    g = st.game
    lair = g.pack.lair
    cid = st.pending.counter
    if g.is_adventurer[cid]:
        return list(lair.entrances)
    troll = occupancy(st).troll
    return [r for r in range(lair.n_rooms) if r != st.idol_room and not troll[r]]


def may_decline(st: CaveTrollState) -> bool:
    """Whether the drawn counter awaiting its place may be declined: a Treasure ("you *may* put it into play
    in any room"); an adventurer, a monster and the Cave Troll must be put into play."""
    return st.game.kind_of[st.pending.counter] == TREASURE


def decline_treasure(st: CaveTrollState) -> None:
    """Decline the drawn Treasure: it is discarded from the game (as the other event counters once resolved),
    never back into the pile; the draw has spent the action, and if it was the pile's last counter the game
    ends."""
    discard(st, st.pending.counter)
    complete_action(st)


def apply_place(st: CaveTrollState, where: int) -> None:
    """Put the drawn counter into play at ``where`` (a Cave Troll then asks for escapes)."""
    cid = st.pending.counter
    if st.game.kind_of[cid] == CAVE_TROLL:
        monsters.troll_arrives(st, cid, where)
        return
    enter(st, cid, where)
    complete_action(st)



# -- explanation --------------------------------------------------------------------------------------
def why_not_draw(st: CaveTrollState, arg: int) -> str | None:
    """Why drawing is illegal now."""
    return None if can_draw(st) else "your pile is empty: there is no counter left to draw"


def why_not_place(st: CaveTrollState, where: int) -> str | None:
    """Why the drawn counter may not go into ``where`` (:func:`places`' rule, in the rule text's words)."""
    if where in places(st):
        return None
    g = st.game
    lair, cid = g.pack.lair, st.pending.counter
    name, what = lair.names[where], g.pack.slot_names[g.slot_of[cid]]
    if g.is_adventurer[cid]:
        return (f"when you draw an adventurer counter, you must put it into play in one of the four entrances, "
                f"not {name}")
    if not lair.is_room(where):
        return f"the {what} is played in a room, not in the pit or an entrance ({name})"
    if where == st.idol_room:
        return f"{name} holds the Idol of El'darr: no counter may be played there"
    return f"{name} is occupied by a Cave Troll: the {what} may not be played there"


def why_not_decline(st: CaveTrollState, arg: int) -> str | None:
    """Why the drawn counter may not be declined."""
    if may_decline(st):
        return None
    g = st.game
    what = g.pack.slot_names[g.slot_of[st.pending.counter]]
    return f"only a Treasure may be left out of play: the drawn {what} must be put into play"
