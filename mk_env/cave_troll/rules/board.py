"""Who is where in the lair, and the movement limits every entry obeys ("Action: Move a Counter").

:func:`occupancy` groups the counters by location (memoised until a counter moves); :func:`may_enter`
is the one test of whether a counter may go into a location; :func:`enter` puts it there, with the
Knight's power over Orcs; :func:`discard` takes a counter out of the game.
"""

from __future__ import annotations

from bisect import insort
from typing import TYPE_CHECKING

from .vocabulary import DISCARDED, HAND, PILE, Kind

if TYPE_CHECKING:
    from .state import CaveTrollState

KNIGHT, ORC, CAVE_TROLL, TREASURE = Kind.KNIGHT.value, Kind.ORC.value, Kind.CAVE_TROLL.value, Kind.TREASURE.value
BARBARIAN, WRAITH, DWARF = Kind.BARBARIAN.value, Kind.WRAITH.value, Kind.DWARF.value
#: what a counter is to the occupancy (``game.role_of``): counted in the crowd, a Cave Troll, a Knight, a
#: Treasure (not counted)
ROLE_CROWD, ROLE_TROLL, ROLE_KNIGHT, ROLE_TREASURE = range(4)


class Occupancy:
    """The counters by location: ``at[x]`` (ids, ascending), ``crowd[x]`` (adventurers and monsters, the
    number the five-counter limit counts), ``troll[x]`` (a Cave Troll is there), ``knights[x]`` (bit ``s``
    set: seat ``s`` has a Knight there). Built once, then kept up to date by :func:`relocate`."""

    __slots__ = ("at", "crowd", "troll", "knights", "_role", "_owner")

    def __init__(self, st: CaveTrollState):
        g = st.game
        n_loc = g.pack.lair.size
        self._role, self._owner = g.role_of, g.owner_of
        self.at: list[list[int]] = [[] for _ in range(n_loc)]
        self.crowd, self.troll, self.knights = [0] * n_loc, [False] * n_loc, [0] * n_loc
        for c, x in enumerate(st.loc):
            if x >= 0:
                self.at[x].append(c)
        for x, here in enumerate(self.at):
            if here:
                self.recount(x)

    def recount(self, x: int) -> None:
        """Recompute the counts of location ``x`` from the counters there."""
        role, owner = self._role, self._owner
        crowd, troll, knights = 0, False, 0
        for c in self.at[x]:
            r = role[c]
            if r != ROLE_TREASURE:
                crowd += 1
                if r == ROLE_TROLL:
                    troll = True
                elif r == ROLE_KNIGHT:
                    knights |= 1 << owner[c]
        self.crowd[x], self.troll[x], self.knights[x] = crowd, troll, knights

    def shift(self, cid: int, origin: int, dest: int) -> None:
        """Counter ``cid`` went from ``origin`` to ``dest`` (either may be off the board: negative)."""
        if origin >= 0:
            self.at[origin].remove(cid)
            self.recount(origin)
        if dest >= 0:
            insort(self.at[dest], cid)
            self.recount(dest)


def occupancy(st: CaveTrollState) -> Occupancy:
    """The state's occupancy (built on first use after a clone or a hand edit, then kept up to date)."""
    occ = st._occ
    if occ is None:
        occ = st._occ = Occupancy(st)
    return occ


def relocate(st: CaveTrollState, cid: int, where: int) -> None:
    """Set a counter's place (a location, the pile, the hand or discarded), keeping the occupancy."""
    origin = st.loc[cid]
    st.loc[cid] = where
    if st._occ is not None:
        st._occ.shift(cid, origin, where)
    st._cache.clear()


def may_enter(st: CaveTrollState, occ: Occupancy, cid: int, dest: int, cloaked: bool = False,
              crowded: bool = False) -> bool:
    """Whether counter ``cid`` may go into location ``dest`` under the movement limits: adventurers never
    into the pit; never into the Idol's room; into a room only if it holds fewer than five adventurers
    and monsters, no Cave Troll and no opponent's Knight (a Knight may enter an opponent's Knight's room);
    an entrance always. ``cloaked``: the Cloak of Invisibility lifts the Cave Troll and Knight limits;
    ``crowded``: the five-counter limit is not asked (a Wraith entering to push)."""
    g = st.game
    lair = g.pack.lair
    if dest == lair.pit:
        return g.is_monster[cid]
    if dest >= lair.n_rooms:
        return True
    if dest == st.idol_room or (not crowded and occ.crowd[dest] >= g.pack.rules.room_limit):
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


def why_not_enter(st: CaveTrollState, occ: Occupancy, cid: int, dest: int, cloaked: bool = False,
                  crowded: bool = False) -> str | None:
    """The movement limit that keeps counter ``cid`` out of ``dest``, in the rule text's words (None: it may
    enter). Each limit is found by asking :func:`may_enter` itself with the limits it can lift, so the words
    follow the one rule (the explanation path only: the legal moves call :func:`may_enter` alone)."""
    if may_enter(st, occ, cid, dest, cloaked, crowded):
        return None
    g = st.game
    lair = g.pack.lair
    name = lair.names[dest]
    if dest == lair.pit:
        return "adventurers may not move into the pit"
    if not may_enter(st, occ, cid, dest, cloaked=True, crowded=True):
        return f"{name} holds the Idol of El'darr: adventurers and monsters may not enter this room"
    if not may_enter(st, occ, cid, dest, cloaked=True, crowded=crowded):
        return (f"{name} already contains {g.pack.rules.room_limit} adventurers and monsters "
                f"(the room limit)")
    if occ.troll[dest]:
        return f"{name} is occupied by a Cave Troll: adventurers and monsters may not enter it"
    seats = occ.knights[dest] & ~(1 << g.owner_of[cid])
    colours = " and ".join(g.pack.colours[s] for s in range(g.num_players) if seats >> s & 1)
    return f"{name} is occupied by an opponent's Knight ({colours}): only Knights may enter it"


def whereabouts(st: CaveTrollState, cid: int) -> str:
    """Where counter ``cid`` is, in words ("in R12", "still in its pile", "out of the game")."""
    x = st.loc[cid]
    if x >= 0:
        return f"in {st.game.pack.lair.names[x]}"
    return {PILE: "still in its pile", DISCARDED: "out of the game", HAND: "just drawn"}[x]


def doorways(st: CaveTrollState, x: int, reach: bool = False) -> str:
    """The places one move from ``x`` goes to, in words: its doorways (``reach``: and, from an entrance,
    the other entrances)."""
    lair = st.game.pack.lair
    to = lair.reach[x] if reach else lair.doors[x]
    return ", ".join(lair.names[d] for d in to) or "nowhere"
