"""Action: Play an Artifact ("ARTIFACT COUNTERS"): each artifact's legal targets and its effect side by
side, in :data:`POWERS` (artifact kind -> action block, targets, effect). Playing one takes an action and
the artifact leaves the hand (the Idol stays on the board).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, NamedTuple

from . import moving
from .board import ORC, Occupancy, adventurers_at, discard, enter, occupancy, whereabouts
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
    occ, origin, others = occupancy(st), st.pending.room, ~(1 << st.turn_player)
    limit = st.game.pack.rules.room_limit
    return [d for d in range(st.game.pack.lair.pit) if _teleport_refusal(st, occ, d, origin, others, limit) is None]


def _teleport_refusal(st: CaveTrollState, occ: Occupancy, d: int, origin: int, others: int,
                      limit: int) -> str | None:
    """The Chalice's limit that keeps a traveller out of ``d`` (a key of :data:`_TELEPORT_WORDS`; None: it may
    go there): the one test of :func:`teleport_destinations` and of its explanation. ``others``: the bits of
    the opponents' Knights."""
    if d == origin:
        return "origin"
    if d >= st.game.pack.lair.pit:
        return "pit"
    if occ.troll[d]:
        return "troll"
    if occ.knights[d] & others:
        return "knight"
    if d < st.game.pack.lair.n_rooms and (d == st.idol_room or occ.crowd[d] >= limit):
        return "idol" if d == st.idol_room else "full"
    return None


#: the words of each limit on the Chalice's destinations ({name}: the destination)
_TELEPORT_WORDS = {
    "origin": "the Chalice moves your adventurers to any *other* room or entrance than {name}",
    "pit": "{name} is not a room or entrance",
    "troll": "{name} is occupied by a Cave Troll (the Chalice moves adventurers to a room or entrance not occupied "
             "by a Cave Troll or an opponent's Knight)",
    "knight": "{name} is occupied by an opponent's Knight (the Chalice moves adventurers to a room or entrance not "
              "occupied by a Cave Troll or an opponent's Knight)",
    "idol": "{name} holds the Idol of El'darr: adventurers and monsters may not enter this room",
    "full": "{name} already contains {limit} adventurers and monsters (the room limit)",
}


def why_not_teleport(st: CaveTrollState, dest: int) -> str | None:
    """Why the next traveller of the Chalice may not go to ``dest``."""
    limit = st.game.pack.rules.room_limit
    key = _teleport_refusal(st, occupancy(st), dest, st.pending.room, ~(1 << st.turn_player), limit)
    return key and _TELEPORT_WORDS[key].format(name=st.game.pack.lair.names[dest], limit=limit)


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


# -- explanation --------------------------------------------------------------------------------------
def _artifact_name(st: CaveTrollState, kind: Artifact) -> str:
    return next(a.name for a in st.game.pack.artifacts if a.kind == kind)


def _why_not_helm(st: CaveTrollState, cid: int) -> str:
    g = st.game
    what = g.layout.counter_name(cid)
    if g.owner_of[cid] == st.turn_player:
        return f"the Helm moves one of an opponent's adventurers or monsters, and the {what} is yours"
    if st.loc[cid] < 0:
        return f"the {what} is not in play: it is {whereabouts(st, cid)}"
    if not g.is_mover[cid]:
        return f"the Helm moves an adventurer or monster (but not the Cave Troll), not the {what}"
    return f"the {what} has no legal room or entrance to move to from {g.pack.lair.names[st.loc[cid]]}"


def _why_not_chalice(st: CaveTrollState, x: int) -> str:
    return f"none of your adventurers is in {st.game.pack.lair.names[x]} (the Chalice moves your adventurers)"


def _why_not_idol(st: CaveTrollState, room: int) -> str:
    n = len(occupancy(st).at[room])
    return f"the Idol is placed in a room with no counters in it, and {st.game.pack.lair.names[room]} holds {n}"


def _why_not_cloak(st: CaveTrollState, slot: int) -> str:
    g = st.game
    cid = g.counters_of[st.turn_player][slot]
    if not g.is_adventurer[cid]:
        return f"the Cloak goes to one of your adventurers, and the {g.layout.counter_name(cid)} is not one"
    return f"the {g.layout.counter_name(cid)} is not in play: it is {whereabouts(st, cid)}"


def _why_not_sword(st: CaveTrollState, room: int) -> str:
    g = st.game
    occ = occupancy(st)
    mine = sum(g.owner_of[c] == st.turn_player for c in adventurers_at(st, occ, room))
    orcs = sum(g.kind_of[c] == ORC for c in occ.at[room])
    return (f"the Sword is played in a room occupied by at least one of your adventurers and at least one Orc, "
            f"and {g.pack.lair.names[room]} holds {mine} of your adventurers and {orcs} Orcs")


#: why an artifact's argument is not among its targets (the Wand of Speed may score any room)
_TARGET_WORDS: dict[Artifact, Callable[[CaveTrollState, int], str]] = {
    Artifact.HELM_OF_MIND_CONTROL: _why_not_helm, Artifact.CHALICE_OF_TELEPORTATION: _why_not_chalice,
    Artifact.IDOL_OF_ELDARR: _why_not_idol, Artifact.CLOAK_OF_INVISIBILITY: _why_not_cloak,
    Artifact.SWORD_OF_SLAYING: _why_not_sword,
}


def why_not_play(block: Block) -> Callable[[CaveTrollState, int], str | None]:
    """Why playing the artifact of ``block`` on an argument is illegal now: not in your hand (already played,
    or not yours), or the argument is not among its targets (:data:`POWERS`)."""
    kind = BLOCK_ARTIFACT[block]

    def why(st: CaveTrollState, arg: int) -> str | None:
        arts = st.game.pack.artifacts
        if not any(arts[i].kind == kind for i in held(st, st.turn_player)):
            played = all(st.art_at[i] == PLAYED for i, a in enumerate(arts) if a.kind == kind)
            return f"the {_artifact_name(st, kind)} " + ("has already been played" if played else
                                                        "is not yours: it is not in your hand")
        if arg in POWERS[kind].targets(st, occupancy(st)) or kind not in _TARGET_WORDS:
            return None
        return _TARGET_WORDS[kind](st, arg)

    return why
