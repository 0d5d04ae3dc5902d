"""The facts every reachable Cave Troll state obeys, checked by tests after every decision and by the save
reader (an impossible save is refused): every counter in exactly one place (pile, board, discarded) and
every artifact in one (stack, a hand, played); counters only where their kind may be; room limits; Cave
Troll and Idol rooms empty of others; the score track equal to the sum of the scorings; the turn's
bookkeeping consistent with the phase.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .board import CAVE_TROLL, TREASURE, Occupancy
from .vocabulary import HAND, PHASE_NAMES, PILE, PLAYED, STACK, Artifact, Kind, Phase

if TYPE_CHECKING:
    from .state import CaveTrollState


class InvariantError(AssertionError):
    """A state that no game can reach; the message names the broken fact."""


def problems(st: CaveTrollState) -> list[str]:
    """Every broken fact of ``st`` (empty: a consistent state)."""
    out: list[str] = []
    out += _counters(st)
    out += _artifacts(st)
    if not out:  # the board facts assume every counter has a single valid place
        out += _board(st)
    out += _turn(st)
    for p in range(st.num_players):
        if st.score[p] != sum(st.gold[p]):
            out.append(f"seat {p}'s score {st.score[p]} is not the sum of its scorings {st.gold[p]}")
    return out


def check(st: CaveTrollState) -> None:
    """Raise :class:`InvariantError` naming the broken facts, if any."""
    found = problems(st)
    if found:
        raise InvariantError("; ".join(found))


def _counters(st: CaveTrollState) -> list[str]:
    g = st.game
    out = []
    seen: dict[int, int] = {}
    for p, pile in enumerate(st.piles):
        for c in pile:
            if g.owner_of[c] != p:
                out.append(f"counter {c} of seat {g.owner_of[c]} lies in seat {p}'s pile")
            seen[c] = seen.get(c, 0) + 1
    for c, x in enumerate(st.loc):
        n = seen.get(c, 0)
        if (x == PILE) != (n == 1) or n > 1:
            out.append(f"counter {c} ({g.layout.counter_name(c)}) is at {x} and {n} times in a pile")
        if (x == HAND) != (st.phase == Phase.PLACE and st.pending.counter == c):
            out.append(f"counter {c} ({g.layout.counter_name(c)}) is at {x}: in hand exactly while its place "
                       "is being chosen")
    return out


def _artifacts(st: CaveTrollState) -> list[str]:
    out = []
    if sorted(st.stack) != [i for i, at in enumerate(st.art_at) if at == STACK]:
        out.append(f"the artifact stack {st.stack} does not hold exactly the artifacts marked as in it")
    idol = [i for i, a in enumerate(st.game.pack.artifacts) if a.kind == Artifact.IDOL_OF_ELDARR]
    placed = st.idol_room >= 0
    if placed != (st.idol_owner >= 0) or (placed and (not idol or st.art_at[idol[0]] != PLAYED)):
        out.append(f"the Idol's room {st.idol_room} and owner {st.idol_owner} disagree with its artifact")
    return out


def _board(st: CaveTrollState) -> list[str]:
    g = st.game
    lair = g.pack.lair
    occ = Occupancy(st)
    out = []
    kept = st._occ
    if kept is not None and (kept.at, kept.crowd, kept.troll, kept.knights) != (
            occ.at, occ.crowd, occ.troll, occ.knights):
        out.append("the occupancy kept up to date by the moves disagrees with the counters' places")
    events = (Kind.COUNT_THE_LOOT, Kind.FIND_AN_ARTIFACT)
    for c, x in enumerate(st.loc):
        k = g.kind_of[c]
        if x < 0:
            continue
        if k in events or (g.is_adventurer[c] and x == lair.pit) or (k in (CAVE_TROLL, TREASURE) and x >= lair.n_rooms):
            out.append(f"{g.layout.counter_name(c)} cannot be in {lair.names[x]}")
    # the room a Wraith entered (push still to come) or the Cave Troll's room (escapes still to come)
    pending_room = st.pending.room if st.phase in (Phase.ENTRY_PUSH, Phase.PUSH_TO, Phase.ESCAPE) else None
    troll_room = st.pending.room if st.phase == Phase.ESCAPE else None
    for r in range(lair.n_rooms):
        limit = g.pack.rules.room_limit + (r == pending_room)  # the entering Wraith or Cave Troll
        if occ.crowd[r] > limit:
            out.append(f"{lair.names[r]} holds {occ.crowd[r]} adventurers and monsters (limit {limit})")
        trolls = [c for c in occ.at[r] if g.kind_of[c] == CAVE_TROLL]
        if len(trolls) > 1 or (trolls and r != troll_room and any(
                c not in trolls and c != st.cloaked for c in occ.at[r])):
            out.append(f"{lair.names[r]} holds a Cave Troll and other counters")
        if r == st.idol_room and occ.at[r]:
            out.append(f"the Idol's room {lair.names[r]} holds counters")
    return out


#: the fields of the pending record each phase needs (the others may be set too)
PENDING_NEEDED = {
    Phase.PLACE: ("counter",), Phase.ENTRY_PUSH: ("counter", "room"), Phase.PUSH_TO: ("counter", "room"),
    Phase.ESCAPE: ("room", "seats"), Phase.STEP: ("counter", "steps_left", "stepped"),
    Phase.TELEPORT: ("room", "travellers"),
}


def _pending(st: CaveTrollState) -> list[str]:
    """The counters and rooms the sub-decision names are where it needs them."""
    g = st.game
    p, phase = st.pending, st.phase
    on_board = p.counter is None or st.loc[p.counter] >= 0
    if phase == Phase.PUSH_TO and (not on_board or not g.is_adventurer[p.counter] or st.loc[p.counter] != p.room):
        return [f"the pushed counter {p.counter} is not an adventurer in room {p.room}"]
    if phase == Phase.ENTRY_PUSH and (not on_board or st.loc[p.counter] != p.room
                                      or g.kind_of[p.counter] != Kind.WRAITH):
        return [f"the entering Wraith {p.counter} is not in room {p.room}"]
    if phase == Phase.STEP and not on_board:
        return [f"the counter {p.counter} taking steps is not on the board"]
    if phase == Phase.ESCAPE and (p.seats[0] != st.current or len(set(p.seats)) != len(p.seats)
                                  or not any(g.kind_of[c] == CAVE_TROLL and x == p.room for c, x in enumerate(st.loc))):
        return [f"the escapes from room {p.room} ask {p.seats} while seat {st.current} decides"]
    if phase == Phase.TELEPORT and any(st.loc[c] != p.room or g.owner_of[c] != st.turn_player or not g.is_adventurer[c]
                                       for c in p.travellers):
        return [f"the Chalice's travellers {p.travellers} are not the turn player's adventurers in {p.room}"]
    return []


def _turn(st: CaveTrollState) -> list[str]:
    g = st.game
    out = []
    over = st.phase == Phase.GAME_OVER
    if over != (st.ender >= 0):
        out.append(f"phase {st.phase} disagrees with the ender {st.ender}")
    if over and st.piles[st.ender]:
        out.append(f"seat {st.ender} ended the game with counters left in its pile")
    if not over:
        for p, pile in enumerate(st.piles):
            if not pile and not (p == st.turn_player and st.phase in (Phase.PLACE, Phase.ESCAPE, Phase.ENTRY_PUSH,
                                                                     Phase.PUSH_TO, Phase.STEP, Phase.TELEPORT)):
                out.append(f"seat {p}'s pile is empty but the game goes on")
    needed = PENDING_NEEDED.get(Phase(st.phase), ())
    set_fields = {k for k, v in st.pending._asdict().items() if v is not None and v != ()}
    if not set(needed) <= set_fields or (not needed and st.pending):
        out.append(f"the {PHASE_NAMES[st.phase]} phase needs the pending fields {needed or 'none'}, got {st.pending}")
    elif needed:
        out += _pending(st)
    if st.phase not in (Phase.ESCAPE, Phase.GAME_OVER) and st.current != st.turn_player:
        out.append(f"seat {st.current} decides outside an escape on seat {st.turn_player}'s turn")
    if st.cloaked >= 0 and (g.owner_of[st.cloaked] != st.turn_player or not g.is_adventurer[st.cloaked]
                            or st.loc[st.cloaked] < 0):
        out.append(f"counter {st.cloaked} wears the Cloak but is not the turn player's adventurer in play")
    return out
