"""The legal decisions of each phase and the dispatch of a decision to its mechanic: one table,
:data:`APPLY` (block -> how it is applied in each phase), and :func:`legal_by_block` (phase -> the legal
arguments of each block). Illegal decisions raise an error that says what, why and what is allowed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from mk_env.core.errors import IllegalActionError, action_number

from . import artifacts, drawing, monsters, moving
from .board import occupancy
from .turn import complete_action, end_turn
from .vocabulary import PHASE_BLOCKS, PHASE_NAMES, Block, Phase

if TYPE_CHECKING:
    from .state import CaveTrollState


def legal_by_block(st: CaveTrollState) -> dict[Block, list[int]]:
    """The legal arguments of each block that has any, in the phase awaited."""
    phase = st.phase
    g = st.game
    n_loc = g.pack.lair.size
    out: dict[Block, list[int]] = {}
    if phase == Phase.ACTION:
        occ = occupancy(st)
        out[Block.END_TURN] = [0]
        if drawing.can_draw(st):
            out[Block.DRAW] = [0]
        out[Block.MOVE] = [slot * n_loc + d for slot, d in moving.move_actions(st, occ)]
        out[Block.PUSH] = monsters.push_actions(st, occ)
        out[Block.ORC] = monsters.orc_actions(st, occ)
        for i in artifacts.held(st, st.turn_player):
            power = artifacts.POWERS[g.pack.artifacts[i].kind]
            out[power.block] = power.targets(st, occ)
    elif phase == Phase.PLACE:
        out[Block.PLACE] = drawing.places(st)
    elif phase == Phase.ENTRY_PUSH:
        out[Block.PUSH] = monsters.pushable(st, occupancy(st), st.pending.room)
        if not monsters.must_push(st):
            out[Block.DECLINE] = [0]
    elif phase == Phase.PUSH_TO:
        out[Block.PUSH_TO] = monsters.push_destinations(st, occupancy(st), st.pending.counter, st.pending.room)
    elif phase == Phase.ESCAPE:
        out[Block.MOVE] = [slot * n_loc + d for slot, d in monsters.escapes(st, st.current, st.pending.room)]
        out[Block.DECLINE] = [0]
    elif phase == Phase.STEP:
        out[Block.STEP] = moving.step_destinations(st)
        if moving.may_stop(st):
            out[Block.DECLINE] = [0]
    elif phase == Phase.TELEPORT:
        out[Block.TELEPORT] = artifacts.teleport_destinations(st)
    return {b: v for b, v in out.items() if v}


def legal_actions(st: CaveTrollState) -> np.ndarray:
    """The legal action numbers, sorted (memoised until the state changes)."""
    legal = st._cache.get("legal")
    if legal is None:
        offset = st.game.layout.offset
        nums = [offset[b] + a for b, args in legal_by_block(st).items() for a in args]
        legal = np.array(sorted(nums), dtype=np.int64)
        legal.flags.writeable = False
        st._cache["legal"] = legal
    return legal


def _decline(st: CaveTrollState) -> None:
    if st.phase == Phase.ESCAPE:
        monsters.decline_escape(st)
    else:  # no push on entering, or no more steps
        complete_action(st)


def _move(st: CaveTrollState, arg: int) -> None:
    slot, dest = divmod(arg, st.game.pack.lair.size)
    if st.phase == Phase.ESCAPE:
        monsters.apply_escape(st, slot, dest)
    else:
        moving.apply_move(st, slot, dest)


def _push(st: CaveTrollState, arg: int) -> None:
    if st.phase == Phase.ENTRY_PUSH:
        monsters.apply_entry_push(st, arg)
    else:
        monsters.apply_push_action(st, arg)


#: how each block's decision is applied (the phase picks the mechanic where a block serves two)
APPLY = {
    Block.END_TURN: lambda st, a: end_turn(st),
    Block.DRAW: lambda st, a: drawing.apply_draw(st),
    Block.DECLINE: lambda st, a: _decline(st),
    Block.PLACE: drawing.apply_place,
    Block.MOVE: _move,
    Block.PUSH: _push,
    Block.PUSH_TO: monsters.apply_push_to,
    Block.ORC: monsters.apply_orc,
    Block.STEP: moving.apply_step,
    Block.TELEPORT: artifacts.apply_teleport,
    **{p.block: artifacts.player_of(p.block) for p in artifacts.POWERS.values()},
}


def apply_action(st: CaveTrollState, action: object) -> None:
    """Apply one decision, or raise :class:`IllegalActionError` (what, why, what is allowed) and change
    nothing."""
    layout = st.game.layout
    a = action_number(action, layout.size)
    legal = legal_actions(st)
    i = int(legal.searchsorted(a))
    if i >= len(legal) or int(legal[i]) != a:
        raise IllegalActionError(why_illegal(st, a))
    block, arg = layout.decode(a)
    st._cache.clear()
    APPLY[block](st, arg)


def why_illegal(st: CaveTrollState, a: int) -> str:
    """The message of an illegal decision: the action, why it is refused, the legal ones."""
    layout = st.game.layout
    if not 0 <= a < layout.size:
        return f"action {a} is outside the action space 0..{layout.size - 1}"
    block, _ = layout.decode(a)
    what = f"action {a} ({layout.describe(a)})"
    if st.phase == Phase.GAME_OVER:
        return f"{what} is not legal: the game is over"
    phase = PHASE_NAMES[st.phase]
    legal = legal_by_block(st)
    if block not in PHASE_BLOCKS[Phase(st.phase)]:
        why = f"a {block} decision is not awaited in the {phase} phase"
    elif block not in legal:
        why = f"no {block} decision is possible now (its conditions are not met)"
    else:
        some = "; ".join(layout.describe(layout.offset[block] + x) for x in legal[block][:6])
        why = f"that {block} breaks a rule of the {phase} phase (legal {block} decisions: {some}" + (
            ", ..." if len(legal[block]) > 6 else "") + ")"
    allowed = "; ".join(f"{b}: {len(v)} ({layout.describe(layout.offset[b] + v[0])}, ...)" for b, v in legal.items())
    return f"{what} is not legal for seat {st.current}: {why}; legal now: {allowed}"
