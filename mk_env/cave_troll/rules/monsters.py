"""The monsters' powers ("MONSTER COUNTERS"): the Wraith's push, the Orc's attack, the Cave Troll's
arrival and the escapes it allows. Legal choices and their application side by side.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .board import (BARBARIAN, CAVE_TROLL, ORC, WRAITH, Occupancy, adventurers_at, discard, doorways, enter, may_enter,
                    occupancy, whereabouts, why_not_enter)
from .turn import complete_action, start_action
from .vocabulary import Pending, Phase

if TYPE_CHECKING:
    from .state import CaveTrollState


# -- Wraith -----------------------------------------------------------------------------------------
def push_destinations(st: CaveTrollState, occ: Occupancy, adventurer: int, room: int) -> list[int]:
    """Where an adventurer in ``room`` may be pushed: "through a doorway into an adjacent room or
    entrance", never into the pit, a room holding five, a Cave Troll's room or a room of an opponent's
    Knight (opponent of the pushed adventurer: the limits of its own moves), nor the Idol's room."""
    lair = st.game.pack.lair
    return [d for d in lair.doors[room] if d != lair.pit and may_enter(st, occ, adventurer, d)]


def pushable(st: CaveTrollState, occ: Occupancy, room: int) -> list[int]:
    """Adventurers in ``room`` a Wraith may push: not Barbarians ("cannot be pushed by the Wraith"), and
    only those with somewhere to go. Any player's adventurers, the Wraith's owner's too."""
    kinds = st.game.kind_of
    return [c for c in adventurers_at(st, occ, room)
            if kinds[c] != BARBARIAN and push_destinations(st, occ, c, room)]


def push_actions(st: CaveTrollState, occ: Occupancy) -> list[int]:
    """The adventurers the turn player's Wraiths may push as an action ("If your Wraith is in a room with
    an adventurer, you may spend one action to push that adventurer"): only from a room."""
    g = st.game
    seat, n_rooms = st.turn_player, g.pack.lair.n_rooms
    out: set[int] = set()
    for c in g.counters_of[seat]:
        x = st.loc[c]
        if 0 <= x < n_rooms and g.kind_of[c] == WRAITH:
            out.update(pushable(st, occ, x))
    return sorted(out)


def apply_push_action(st: CaveTrollState, adventurer: int) -> None:
    start_action(st)
    st.phase, st.pending = Phase.PUSH_TO, Pending(counter=adventurer, room=st.loc[adventurer])


def wraith_entered(st: CaveTrollState, wraith: int, room: int) -> bool:
    """After the turn player's Wraith moved into ``room``: ask for its push if one is possible (True)."""
    if not pushable(st, occupancy(st), room):
        return False
    st.phase, st.pending = Phase.ENTRY_PUSH, Pending(counter=wraith, room=room)
    return True


def may_force_entry(st: CaveTrollState, wraith: int, room: int) -> bool:
    """"A Wraith may enter a room occupied by five adventurer or monster counters, but only if it pushes
    an adventurer into an adjacent room": tried on a copy of the occupancy with the Wraith moved in."""
    origin = st.loc[wraith]
    st.loc[wraith] = room
    try:
        return bool(pushable(st, Occupancy(st), room))
    finally:
        st.loc[wraith] = origin


def must_push(st: CaveTrollState) -> bool:
    """The entering Wraith made the room hold more than five: declining is not allowed."""
    return occupancy(st).crowd[st.pending.room] > st.game.pack.rules.room_limit


def apply_entry_push(st: CaveTrollState, adventurer: int) -> None:
    st.phase, st.pending = Phase.PUSH_TO, Pending(counter=adventurer, room=st.pending.room)


def apply_push_to(st: CaveTrollState, dest: int) -> None:
    enter(st, st.pending.counter, dest)
    complete_action(st)


# -- Orc ----------------------------------------------------------------------------------------------
def orc_actions(st: CaveTrollState, occ: Occupancy) -> list[int]:
    """"If your Orc is in a room or entrance with an adventurer, you may spend one action to discard that
    adventurer" (any player's adventurer; the pit holds none)."""
    g = st.game
    out: set[int] = set()
    for c in g.counters_of[st.turn_player]:
        x = st.loc[c]
        if x >= 0 and g.kind_of[c] == ORC:
            out.update(adventurers_at(st, occ, x))
    return sorted(out)


def apply_orc(st: CaveTrollState, adventurer: int) -> None:
    start_action(st)
    discard(st, adventurer)
    complete_action(st)


# -- Cave Troll ---------------------------------------------------------------------------------------
def troll_arrives(st: CaveTrollState, troll: int, room: int) -> None:
    """The Cave Troll is played in ``room``: "Starting with the opponent to your left, any players with
    adventurers or monsters in that room may move one of their counters to an adjacent room (as long as it
    is a legal move)"; the troll's owner is asked last. Then everything else there is discarded."""
    enter(st, troll, room)
    n, seat = st.num_players, st.turn_player
    order = tuple((seat + k) % n for k in range(1, n + 1))
    st.pending = Pending(room=room, seats=order)
    _ask_next_escape(st)


def escapes(st: CaveTrollState, seat: int, room: int) -> list[tuple[int, int]]:
    """(slot, destination) of each legal escape of ``seat``'s counters from the Cave Troll's room: an
    adventurer or monster (not a Treasure, not the troll) through a doorway, under the movement limits
    (no Wraith push, no Thief jump, no Cloak)."""
    g = st.game
    occ, lair = occupancy(st), g.pack.lair
    out = []
    for c in occ.at[room]:
        if g.owner_of[c] == seat and g.is_mover[c]:
            out += [(g.slot_of[c], d) for d in lair.doors[room] if may_enter(st, occ, c, d)]
    return sorted(out)


def _ask_next_escape(st: CaveTrollState) -> None:
    """Ask the next seat with a legal escape; when none is left, the troll discards the rest."""
    room, seats = st.pending.room, st.pending.seats
    while seats and not escapes(st, seats[0], room):
        seats = seats[1:]
    if seats:
        st.phase, st.current = Phase.ESCAPE, seats[0]
        st.pending = Pending(room=room, seats=seats)
        return
    kinds = st.game.kind_of
    for c in [c for c in occupancy(st).at[room] if kinds[c] != CAVE_TROLL]:
        discard(st, c)
    complete_action(st)


def apply_escape(st: CaveTrollState, slot: int, dest: int) -> None:
    """Move the escaping counter out, then ask the next seat."""
    seat = st.pending.seats[0]
    enter(st, st.game.counters_of[seat][slot], dest)
    st.pending = st.pending._replace(seats=st.pending.seats[1:])
    _ask_next_escape(st)


def decline_escape(st: CaveTrollState) -> None:
    st.pending = st.pending._replace(seats=st.pending.seats[1:])
    _ask_next_escape(st)


# -- explanation --------------------------------------------------------------------------------------
def _not_an_adventurer(st: CaveTrollState, cid: int, x: int | None = None) -> str | None:
    """Why ``cid`` is not an adventurer on the board (in ``x`` when given) a monster could act on."""
    g = st.game
    what = g.layout.counter_name(cid)
    if st.loc[cid] < 0:
        return f"the {what} is not in play: it is {whereabouts(st, cid)}"
    if not g.is_adventurer[cid]:
        return f"the {what} is not an adventurer"
    if x is not None and st.loc[cid] != x:
        return f"the {what} is not in {g.pack.lair.names[x]}: it is {whereabouts(st, cid)}"
    return None


def _door_refusals(st: CaveTrollState, occ: Occupancy, cid: int, room: int) -> str:
    """Why each doorway of ``room`` is closed to ``cid`` ("R05: ...; R07: ...")."""
    lair = st.game.pack.lair
    return "; ".join(f"{lair.names[d]}: {why_not_enter(st, occ, cid, d)}" for d in lair.doors[room]
                     if d == lair.pit or not may_enter(st, occ, cid, d))


def _why_not_pushable(st: CaveTrollState, occ: Occupancy, cid: int, room: int) -> str | None:
    """Why the Wraith may not push adventurer ``cid`` out of ``room`` (:func:`pushable`'s tests)."""
    if cid in pushable(st, occ, room):
        return None
    what = st.game.layout.counter_name(cid)
    if st.game.kind_of[cid] == BARBARIAN:
        return f"the {what} is a Barbarian: the Barbarian cannot be pushed by the Wraith"
    return f"the {what} has nowhere to be pushed through a doorway ({_door_refusals(st, occ, cid, room)})"


def why_not_push(st: CaveTrollState, cid: int) -> str | None:
    """Why your Wraith may not push counter ``cid`` as an action now."""
    g = st.game
    refused = _not_an_adventurer(st, cid)
    if refused:
        return refused
    occ, x = occupancy(st), st.loc[cid]
    wraiths = [c for c in g.counters_of[st.turn_player] if g.kind_of[c] == WRAITH and st.loc[c] >= 0]
    if not any(st.loc[c] == x for c in wraiths):
        return f"none of your Wraiths is in a room with the {g.layout.counter_name(cid)}: it is {whereabouts(st, cid)}"
    if not g.pack.lair.is_room(x):
        return f"a Wraith pushes an adventurer out of a room only, and {g.pack.lair.names[x]} is not a room"
    return _why_not_pushable(st, occ, cid, x)


def why_not_entry_push(st: CaveTrollState, cid: int) -> str | None:
    """Why the Wraith that just entered may not push counter ``cid``."""
    room = st.pending.room
    return _not_an_adventurer(st, cid, room) or _why_not_pushable(st, occupancy(st), cid, room)


def why_not_keep_all(st: CaveTrollState, arg: int) -> str | None:
    """Why the entering Wraith may not decline its push."""
    if not must_push(st):
        return None
    return (f"the Wraith entered {st.game.pack.lair.names[st.pending.room]}, a room of "
            f"{st.game.pack.rules.room_limit}, only by pushing an adventurer out: it must push")


def why_not_push_to(st: CaveTrollState, dest: int) -> str | None:
    """Why the pushed adventurer may not go into ``dest``."""
    g = st.game
    lair, cid, room = g.pack.lair, st.pending.counter, st.pending.room
    if dest not in lair.doors[room] or dest == lair.pit:
        return (f"an adventurer is pushed through a doorway into an adjacent room or entrance (never the pit), "
                f"from {lair.names[room]} to {doorways(st, room)}")
    return why_not_enter(st, occupancy(st), cid, dest)


def why_not_orc(st: CaveTrollState, cid: int) -> str | None:
    """Why your Orc may not discard counter ``cid`` now."""
    if cid in orc_actions(st, occupancy(st)):
        return None
    refused = _not_an_adventurer(st, cid)
    return refused or (f"none of your Orcs is in a room or entrance with the {st.game.layout.counter_name(cid)}"
                       f": it is {whereabouts(st, cid)}")


def why_not_escape(st: CaveTrollState, arg: int) -> str | None:
    """Why escape ``arg`` (slot * locations + destination) from the Cave Troll's room is illegal."""
    g = st.game
    lair, room = g.pack.lair, st.pending.room
    slot, dest = divmod(arg, lair.size)
    cid = g.counters_of[st.current][slot]
    what = g.layout.counter_name(cid)
    if st.loc[cid] != room:
        return f"only counters in the Cave Troll's room {lair.names[room]} may escape, and the {what} is " + (
            whereabouts(st, cid))
    if not g.is_mover[cid]:
        return f"the {what} cannot be moved"
    if dest not in lair.doors[room]:
        return f"an escape goes through a doorway of {lair.names[room]}, to {doorways(st, room)}"
    return why_not_enter(st, occupancy(st), cid, dest)
