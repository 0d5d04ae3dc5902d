"""Action: Play an Artifact ("ARTIFACT COUNTERS"): each artifact's legal targets and its effect side by
side, in :data:`POWERS` (artifact kind -> action block, targets, effect). Playing one takes an action and
the artifact leaves the hand (the Idol stays on the board).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, NamedTuple

from . import moving
from .board import ORC, Occupancy, adventurers_at, discard, enter, occupancy
from .scoring import score_room
from .turn import complete_action, start_action
from .vocabulary import PLAYED, Artifact, Block, Pending, Phase

if TYPE_CHECKING:
    from .state import CaveTrollState


# -- Chalice of Teleportation -------------------------------------------------------------------------
def chalice_origins(st: CaveTrollState, occ: Occupancy) -> list[int]:
    """Rooms and entrances holding at least one of your adventurers."""
    owners = st.game.owner_of
    seat = st.turn_player
    return [x for x in range(st.game.pack.lair.pit) if any(owners[c] == seat for c in adventurers_at(st, occ, x))]


def teleport_destinations(st: CaveTrollState) -> list[int]:
    """"Any other room or entrance not occupied by a Cave Troll or an opponent's Knight": an entrance holding
    an opponent's Knight is refused too (the Chalice names its limits; the Knight's block on moves holds in
    rooms only), your own Knights never block, and no exception for a travelling Knight. As for every entry,
    never the pit, the Idol's room nor a room already holding five."""
    g = st.game
    occ, lair = occupancy(st), g.pack.lair
    origin, mine = st.pending.room, 1 << st.turn_player
    limit = g.pack.rules.room_limit
    return [d for d in range(lair.pit) if d != origin and not occ.troll[d] and not occ.knights[d] & ~mine
            and (d >= lair.n_rooms or (d != st.idol_room and occ.crowd[d] < limit))]


def _next_traveller(st: CaveTrollState, travellers: tuple[int, ...]) -> None:
    """Ask the next adventurer's destination; one with nowhere to go stays where it is."""
    st.phase = Phase.TELEPORT
    while travellers:
        st.pending = st.pending._replace(travellers=travellers)
        if teleport_destinations(st):
            return
        travellers = travellers[1:]
    complete_action(st)


def apply_chalice(st: CaveTrollState, origin: int) -> None:
    """Move each of your adventurers in ``origin`` elsewhere, one by one (separate places allowed)."""
    owners = st.game.owner_of
    travellers = tuple(c for c in adventurers_at(st, occupancy(st), origin) if owners[c] == st.turn_player)
    st.pending = Pending(room=origin)
    _next_traveller(st, travellers)


def apply_teleport(st: CaveTrollState, dest: int) -> None:
    travellers = st.pending.travellers
    enter(st, travellers[0], dest)
    _next_traveller(st, travellers[1:])


# -- Idol of El'darr ----------------------------------------------------------------------------------
def idol_rooms(st: CaveTrollState, occ: Occupancy) -> list[int]:
    """"A room with no counters in it": no adventurer, monster or Treasure."""
    return [r for r in range(st.game.pack.lair.n_rooms) if not occ.at[r]]


def apply_idol(st: CaveTrollState, room: int) -> None:
    st.idol_room, st.idol_owner = room, st.turn_player
    complete_action(st)


# -- Wand of Speed ------------------------------------------------------------------------------------
def wand_rooms(st: CaveTrollState, occ: Occupancy) -> list[int]:
    """Any room (one that nobody controls scores nothing)."""
    return list(range(st.game.pack.lair.n_rooms))


def apply_wand(st: CaveTrollState, room: int) -> None:
    """"Score one room as if you had just revealed a Count the Loot! counter"."""
    score_room(st, room)
    complete_action(st)


# -- Cloak of Invisibility ----------------------------------------------------------------------------
def cloak_slots(st: CaveTrollState, occ: Occupancy) -> list[int]:
    """Your adventurers on the board (in a room or an entrance)."""
    g = st.game
    return [g.slot_of[c] for c in g.counters_of[st.turn_player] if g.is_adventurer[c] and st.loc[c] >= 0]


def apply_cloak(st: CaveTrollState, slot: int) -> None:
    st.cloaked = st.game.counters_of[st.turn_player][slot]
    complete_action(st)


# -- Sword of Slaying ---------------------------------------------------------------------------------
def sword_rooms(st: CaveTrollState, occ: Occupancy) -> list[int]:
    """Rooms holding at least one of your adventurers and at least one Orc (any player's)."""
    g = st.game
    seat = st.turn_player
    return [r for r in range(g.pack.lair.n_rooms)
            if any(g.kind_of[c] == ORC for c in occ.at[r])
            and any(g.owner_of[c] == seat for c in adventurers_at(st, occ, r))]


def apply_sword(st: CaveTrollState, room: int) -> None:
    kinds = st.game.kind_of
    for c in [c for c in occupancy(st).at[room] if kinds[c] == ORC]:
        discard(st, c)
    complete_action(st)


class Power(NamedTuple):
    """An artifact's action block, its legal arguments now, and its effect."""

    block: Block
    targets: Callable[[CaveTrollState, Occupancy], list[int]]
    effect: Callable[[CaveTrollState, int], None]


POWERS: dict[Artifact, Power] = {
    Artifact.HELM_OF_MIND_CONTROL: Power(Block.HELM, moving.helm_targets, moving.apply_helm),
    Artifact.CHALICE_OF_TELEPORTATION: Power(Block.CHALICE, chalice_origins, apply_chalice),
    Artifact.IDOL_OF_ELDARR: Power(Block.IDOL, idol_rooms, apply_idol),
    Artifact.WAND_OF_SPEED: Power(Block.WAND, wand_rooms, apply_wand),
    Artifact.CLOAK_OF_INVISIBILITY: Power(Block.CLOAK, cloak_slots, apply_cloak),
    Artifact.SWORD_OF_SLAYING: Power(Block.SWORD, sword_rooms, apply_sword),
}
#: the artifact kind each artifact block plays
BLOCK_ARTIFACT = {p.block: kind for kind, p in POWERS.items()}


def held(st: CaveTrollState, seat: int) -> list[int]:
    """The artifacts (pack indices) in ``seat``'s hand."""
    return [i for i, at in enumerate(st.art_at) if at == seat]


def player_of(block: Block) -> Callable[[CaveTrollState, int], None]:
    """The decision of ``block`` (an artifact's): play the turn player's artifact of that kind on the
    argument (legality already checked): one action, the artifact leaves the hand, its effect."""
    kind = BLOCK_ARTIFACT[block]

    def play(st: CaveTrollState, arg: int) -> None:
        index = next(i for i in held(st, st.turn_player) if st.game.pack.artifacts[i].kind == kind)
        start_action(st)
        st.art_at[index] = PLAYED
        POWERS[kind].effect(st, arg)

    return play
