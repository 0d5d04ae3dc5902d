"""Who is where in the lair, and the movement limits every entry obeys ("Action: Move a Counter").

:func:`occupancy` groups the counters by location (memoised until a counter moves); :func:`may_enter`
is the one test of whether a counter may go into a location; :func:`enter` puts it there, with the
Knight's power over Orcs; :func:`discard` takes a counter out of the game.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .vocabulary import DISCARDED, Kind

if TYPE_CHECKING:
    from .state import CaveTrollState

KNIGHT, ORC, CAVE_TROLL, TREASURE = Kind.KNIGHT.value, Kind.ORC.value, Kind.CAVE_TROLL.value, Kind.TREASURE.value
BARBARIAN, WRAITH, DWARF = Kind.BARBARIAN.value, Kind.WRAITH.value, Kind.DWARF.value
#: what a counter is to the occupancy (``game.role_of``): counted in the crowd, a Cave Troll, a Knight, a
#: Treasure (not counted)
ROLE_CROWD, ROLE_TROLL, ROLE_KNIGHT, ROLE_TREASURE = range(4)


class Occupancy:
    """The counters by location: ``at[x]`` (ids), ``crowd[x]`` (adventurers and monsters, the number the
    five-counter limit counts), ``troll[x]`` (a Cave Troll is there), ``knights[x]`` (bit ``s`` set: seat
    ``s`` has a Knight there)."""

    __slots__ = ("at", "crowd", "troll", "knights")

    def __init__(self, st: CaveTrollState):
        g = st.game
        n_loc = g.pack.lair.size
        at: list[list[int]] = [[] for _ in range(n_loc)]
        crowd, troll, knights = [0] * n_loc, [False] * n_loc, [0] * n_loc
        role, owners = g.role_of, g.owner_of
        for c, x in enumerate(st.loc):
            if x >= 0:
                at[x].append(c)
                r = role[c]
                if r != ROLE_TREASURE:
                    crowd[x] += 1
                    if r == ROLE_TROLL:
                        troll[x] = True
                    elif r == ROLE_KNIGHT:
                        knights[x] |= 1 << owners[c]
        self.at, self.crowd, self.troll, self.knights = at, crowd, troll, knights


def occupancy(st: CaveTrollState) -> Occupancy:
    """The state's occupancy, memoised until a counter moves (:func:`relocate` forgets it)."""
    occ = st._cache.get("occ")
    if occ is None:
        occ = st._cache["occ"] = Occupancy(st)
    return occ


def relocate(st: CaveTrollState, cid: int, where: int) -> None:
    """Set a counter's place (a location, the pile or discarded) and forget the memos."""
    st.loc[cid] = where
    st._cache.clear()


def may_enter(st: CaveTrollState, occ: Occupancy, cid: int, dest: int, cloaked: bool = False) -> bool:
    """Whether counter ``cid`` may go into location ``dest`` under the movement limits: adventurers never
    into the pit; never into the Idol's room; into a room only if it holds fewer than five adventurers
    and monsters, no Cave Troll and no opponent's Knight (a Knight may enter an opponent's Knight's room);
    an entrance always. ``cloaked``: the Cloak of Invisibility lifts the Cave Troll and Knight limits."""
    g = st.game
    lair = g.pack.lair
    if dest == lair.pit:
        return g.is_monster[cid]
    if dest >= lair.n_rooms:
        return True
    if dest == st.idol_room or occ.crowd[dest] >= g.pack.rules.room_limit:
        return False
    if cloaked:
        return True
    if occ.troll[dest]:
        return False
    return not (occ.knights[dest] & ~(1 << g.owner_of[cid])) or g.role_of[cid] == ROLE_KNIGHT


def enter(st: CaveTrollState, cid: int, dest: int) -> None:
    """Put counter ``cid`` into ``dest`` (a move, a push, a teleport, coming into play). A Knight entering
    a room or entrance discards every Orc there, its owner's too ("even an Orc controlled by the same
    player")."""
    relocate(st, cid, dest)
    if st.game.kind_of[cid] == KNIGHT:
        kinds = st.game.kind_of
        for c in [c for c in occupancy(st).at[dest] if kinds[c] == ORC]:
            discard(st, c)


def discard(st: CaveTrollState, cid: int) -> None:
    """Take counter ``cid`` out of the game (and the Cloak with it)."""
    relocate(st, cid, DISCARDED)
    if st.cloaked == cid:
        st.cloaked = -1


def adventurers_at(st: CaveTrollState, occ: Occupancy, x: int) -> list[int]:
    """The adventurers in location ``x`` (ids, ascending)."""
    adv = st.game.is_adventurer
    return [c for c in occ.at[x] if adv[c]]
