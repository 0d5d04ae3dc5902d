"""Action: Move a Counter, the Thief's jump, and the step-by-step moves of the Helm of Mind Control and
the Cloak of Invisibility (:data:`~.vocabulary.Phase.STEP`).

"Adventurers and monsters may only move through doorways"; "in one entrance may move to any other
entrance"; the limits are :func:`~.board.may_enter`'s. The Thief may instead go "to any room or entrance
on the board" in one action (under the same limits). A Wraith may enter a full room only to push.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import monsters
from .board import Occupancy, enter, may_enter, occupancy
from .turn import complete_action, start_action
from .vocabulary import Kind, Pending, Phase

if TYPE_CHECKING:
    from .state import CaveTrollState

THIEF, WRAITH = Kind.THIEF.value, Kind.WRAITH.value


def destinations(st: CaveTrollState, occ: Occupancy, cid: int) -> list[int]:
    """Where the turn player's counter ``cid`` may go for one move action."""
    g = st.game
    lair = g.pack.lair
    x = st.loc[cid]
    kind = g.kind_of[cid]
    cloaked = cid == st.cloaked
    if kind == THIEF:  # every room and entrance: may_enter's limits for a non-Knight, for all rooms at once
        limit, idol, others = g.pack.rules.room_limit, st.idol_room, ~(1 << g.owner_of[cid])
        crowd, troll, knights = occ.crowd, occ.troll, occ.knights
        return [d for d in range(lair.n_rooms) if d != x and crowd[d] < limit and d != idol and (
            cloaked or not (troll[d] or knights[d] & others))] + [e for e in lair.entrances if e != x]
    targets = lair.reach[x]
    out = [d for d in targets if may_enter(st, occ, cid, d, cloaked)]
    if kind == WRAITH:
        full = [d for d in targets if d < lair.n_rooms and d not in out and may_enter(st, occ, cid, d, crowded=True)]
        out += [d for d in full if monsters.may_force_entry(st, cid, d)]
        out.sort()
    return out


def move_actions(st: CaveTrollState, occ: Occupancy) -> list[tuple[int, int]]:
    """(slot, destination) of every legal move of the turn player."""
    g = st.game
    out = []
    for c in g.counters_of[st.turn_player]:
        if st.loc[c] >= 0 and g.is_mover[c]:
            slot = g.slot_of[c]
            out += [(slot, d) for d in destinations(st, occ, c)]
    return out


def apply_move(st: CaveTrollState, slot: int, dest: int) -> None:
    """Move one of your counters. A Wraith entering a room may push; the cloaked adventurer may go on one
    more room in the same action (after a move through a doorway or between entrances)."""
    start_action(st)
    g = st.game
    cid = g.counters_of[st.turn_player][slot]
    origin = st.loc[cid]
    enter(st, cid, dest)
    if g.kind_of[cid] == WRAITH and dest < g.pack.lair.n_rooms and monsters.wraith_entered(st, cid, dest):
        return
    extra = g.pack.rules.cloak_steps - 1
    if cid == st.cloaked and extra > 0 and dest in g.pack.lair.reach[origin]:
        st.phase, st.pending = Phase.STEP, Pending(counter=cid, steps_left=extra, stepped=True)
        if step_destinations(st):
            return
    complete_action(st)


# -- step by step (the Helm, the Cloak) ---------------------------------------------------------------
def step_destinations(st: CaveTrollState) -> list[int]:
    """The next step of the counter the Helm or the Cloak moves: through a doorway or between entrances,
    under the movement limits of its owner (the Cloak lifts the Cave Troll and Knight limits; the Helm's
    Wraith never pushes, so it never enters a full room)."""
    occ = occupancy(st)
    cid = st.pending.counter
    cloaked = cid == st.cloaked and st.game.owner_of[cid] == st.turn_player
    return [d for d in st.game.pack.lair.reach[st.loc[cid]] if may_enter(st, occ, cid, d, cloaked)]


def may_stop(st: CaveTrollState) -> bool:
    """The Helm moves its counter at least one step; after that, and for the Cloak, stopping is allowed."""
    return bool(st.pending.stepped)


def apply_step(st: CaveTrollState, dest: int) -> None:
    enter(st, st.pending.counter, dest)
    left = st.pending.steps_left - 1
    if left > 0 and st.loc[st.pending.counter] >= 0:
        st.pending = st.pending._replace(steps_left=left, stepped=True)
        if step_destinations(st):
            return
    complete_action(st)


def helm_targets(st: CaveTrollState, occ: Occupancy) -> list[int]:
    """Opponents' adventurers and monsters (not the Cave Troll) on the board with a legal first step."""
    g = st.game
    lair = g.pack.lair
    out = []
    for c, x in enumerate(st.loc):
        if x >= 0 and g.owner_of[c] != st.turn_player and g.is_mover[c]:
            if any(may_enter(st, occ, c, d) for d in lair.reach[x]):
                out.append(c)
    return out


def apply_helm(st: CaveTrollState, target: int) -> None:
    """The Helm of Mind Control: move an opponent's counter up to three legal rooms or entrances."""
    st.phase = Phase.STEP
    st.pending = Pending(counter=target, steps_left=st.game.pack.rules.helm_steps, stepped=False)

