"""Action: Move a Counter, the Thief's jump, and the step-by-step moves of the Helm of Mind Control and
the Cloak of Invisibility (:data:`~.vocabulary.Phase.STEP`).

"Adventurers and monsters may only move through doorways"; "in one entrance may move to any other
entrance"; the limits are :func:`~.board.may_enter`'s. The Thief may instead go "to any room or entrance
on the board" in one action (under the same limits). A Wraith may enter a full room only to push.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import monsters
from .board import CAVE_TROLL, Occupancy, doorways, enter, may_enter, occupancy, whereabouts, why_not_enter
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
    cloaked = _steps_cloaked(st, cid)
    return [d for d in st.game.pack.lair.reach[st.loc[cid]] if may_enter(st, occ, cid, d, cloaked)]


def _steps_cloaked(st: CaveTrollState, cid: int) -> bool:
    """Whether the stepping counter is the turn player's cloaked adventurer (the Cloak's limits lifted)."""
    return cid == st.cloaked and st.game.owner_of[cid] == st.turn_player


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



# -- explanation --------------------------------------------------------------------------------------
def _unmoved(st: CaveTrollState, cid: int) -> str | None:
    """Why counter ``cid`` cannot move at all: not in play, or a counter that never moves."""
    g = st.game
    what = g.layout.counter_name(cid)
    if st.loc[cid] < 0:
        return f"the {what} is not in play: it is {whereabouts(st, cid)}"
    if not g.is_mover[cid]:
        return (f"the {what} cannot be moved: once played, a Cave Troll cannot be moved" if g.kind_of[cid]
                == CAVE_TROLL else f"the {what} is not an adventurer or monster: it cannot be moved")
    return None


def not_adjacent(st: CaveTrollState, cid: int, dest: int) -> str | None:
    """Why ``dest`` is not one move from counter ``cid``'s place ("only through doorways"; between entrances)."""
    lair = st.game.pack.lair
    x = st.loc[cid]
    if dest in lair.reach[x]:
        return None
    if dest == x:
        return f"the {st.game.layout.counter_name(cid)} is already in {lair.names[x]}"
    return (f"{lair.names[dest]} is not adjacent to {lair.names[x]}: adventurers and monsters may only move "
            f"through doorways (or between entrances), from {lair.names[x]} to {doorways(st, x, reach=True)}")


def why_not_move(st: CaveTrollState, arg: int) -> str | None:
    """Why move ``arg`` (slot * locations + destination) of the turn player is illegal now."""
    g = st.game
    slot, dest = divmod(arg, g.pack.lair.size)
    cid = g.counters_of[st.turn_player][slot]
    refused = _unmoved(st, cid)
    if refused:
        return refused
    occ = occupancy(st)
    if dest in destinations(st, occ, cid):
        return None
    if g.kind_of[cid] == THIEF:  # any room or entrance, under may_enter's limits
        return not_adjacent(st, cid, dest) if dest == st.loc[cid] else why_not_enter(st, occ, cid, dest)
    far = not_adjacent(st, cid, dest)
    if far:
        return far
    if g.kind_of[cid] == WRAITH and may_enter(st, occ, cid, dest, crowded=True):
        return (f"{g.pack.lair.names[dest]} already contains {g.pack.rules.room_limit} adventurers and monsters: a "
                f"Wraith may enter it only if it pushes an adventurer into an adjacent room, and none can be pushed")
    return why_not_enter(st, occ, cid, dest, cid == st.cloaked)


def why_not_step(st: CaveTrollState, dest: int) -> str | None:
    """Why the Helm's or the Cloak's next step to ``dest`` is illegal now."""
    cid = st.pending.counter
    return not_adjacent(st, cid, dest) or why_not_enter(st, occupancy(st), cid, dest, _steps_cloaked(st, cid))


def why_not_stop(st: CaveTrollState, arg: int) -> str | None:
    """Why declining the next step is illegal now (the Helm's first step)."""
    if may_stop(st):
        return None
    return "the Helm of Mind Control moves the counter at least one room or entrance before you may stop"
