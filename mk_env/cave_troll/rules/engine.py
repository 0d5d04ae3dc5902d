"""The legal decisions of each phase and the dispatch of a decision to its mechanic: one table,
:data:`APPLY` (block -> how it is applied in each phase; :data:`DECLINE`: what declining means in each),
and :func:`legal_by_block` (phase -> the legal arguments of each block). Illegal decisions raise an error
that says what, why (the rule broken: :data:`REASONS`, each mechanic's own words) and what is allowed.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy as np

from mk_env.core import flat_engine

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
        if drawing.may_decline(st):
            out[Block.DECLINE] = [0]
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
    return flat_engine.legal_actions(st, legal_by_block)


#: what declining does in each phase that allows it
DECLINE = {
    Phase.PLACE: drawing.decline_treasure,  # the drawn Treasure out of the game
    Phase.ENTRY_PUSH: complete_action,  # no push on entering
    Phase.ESCAPE: monsters.decline_escape,  # no counter out of the Cave Troll's room
    Phase.STEP: complete_action,  # no more steps
}


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
    Block.DECLINE: lambda st, a: DECLINE[st.phase](st),
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
    flat_engine.apply_checked(st, action, legal_actions(st), why_illegal, APPLY)


#: the rule a decision of each (phase, block) breaks, in the rule text's words, from its mechanic's module
#: (None: no rule of that mechanic is broken); the blocks not listed get the generic words
REASONS: dict[tuple[Phase, Block], Callable[[CaveTrollState, int], str | None]] = {
    (Phase.ACTION, Block.DRAW): drawing.why_not_draw,
    (Phase.ACTION, Block.MOVE): moving.why_not_move,
    (Phase.ACTION, Block.PUSH): monsters.why_not_push,
    (Phase.ACTION, Block.ORC): monsters.why_not_orc,
    **{(Phase.ACTION, p.block): artifacts.why_not_play(p.block) for p in artifacts.POWERS.values()},
    (Phase.PLACE, Block.PLACE): drawing.why_not_place,
    (Phase.PLACE, Block.DECLINE): drawing.why_not_decline,
    (Phase.ENTRY_PUSH, Block.PUSH): monsters.why_not_entry_push,
    (Phase.ENTRY_PUSH, Block.DECLINE): monsters.why_not_keep_all,
    (Phase.PUSH_TO, Block.PUSH_TO): monsters.why_not_push_to,
    (Phase.ESCAPE, Block.MOVE): monsters.why_not_escape,
    (Phase.STEP, Block.STEP): moving.why_not_step,
    (Phase.STEP, Block.DECLINE): moving.why_not_stop,
    (Phase.TELEPORT, Block.TELEPORT): artifacts.why_not_teleport,
}


def broken_rule(st: CaveTrollState, block: Block, arg: int) -> str | None:
    """The rule decision ``arg`` of ``block`` (awaited now) breaks, in words; None where no reason is known.
    (No action is ever refused for want of actions: the turn passes the moment the last one is spent.)"""
    why = REASONS.get((Phase(st.phase), block))
    return why(st, arg) if why else None


def _refusal(st: CaveTrollState, legal: dict[Block, list[int]], block: Block, arg: int) -> str | None:
    """The reason part of the message: "no <block> decision is possible now (<rule>)" or "that <block> breaks
    a rule of the <phase> phase: <rule> (legal <block> decisions: ...)"; None: the generic words."""
    rule = broken_rule(st, block, arg)
    if rule is None:
        return None
    if block not in legal:
        return f"no {block} decision is possible now ({rule})"
    layout = st.game.layout
    some = "; ".join(layout.describe(layout.offset[block] + x) for x in legal[block][:6])
    more = ", ..." if len(legal[block]) > 6 else ""
    return (f"that {block} breaks a rule of the {PHASE_NAMES[st.phase]} phase: {rule} "
            f"(legal {block} decisions: {some}{more})")


def why_illegal(st: CaveTrollState, a: int) -> str:
    """The message of an illegal decision: the action, why it is refused (the rule it breaks), the legal ones."""
    legal = legal_by_block(st)
    return flat_engine.illegal_message(st.game.layout, a, st.current, st.phase == Phase.GAME_OVER,
                                       PHASE_NAMES[st.phase], PHASE_BLOCKS[Phase(st.phase)], legal,
                                       reason=lambda block, arg: _refusal(st, legal, block, arg))
