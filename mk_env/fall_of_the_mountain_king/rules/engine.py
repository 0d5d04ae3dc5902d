"""The legal decisions of each phase and the dispatch of a decision to its mechanic: :func:`legal_by_block`
(phase -> the legal arguments of each block) and :data:`APPLY` (phase -> how a decision is applied).
Illegal decisions raise an error that says what, why and what is allowed.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy as np

from mk_env.core import flat_engine

# every mechanic's module (scoring and waveend only register their tasks: flow.TASKS)
from . import actions, ancestry, battle, champions, refusals, scoring, setup, swarm, waveend, wheel
from .flow import resume
from .vocabulary import PHASE_BLOCKS, PHASE_NAMES, Block, Phase

if TYPE_CHECKING:
    from .state import FallState

__all__ = ["APPLY", "apply_action", "legal_actions", "legal_by_block", "scoring", "waveend"]  # the last two: tasks


def legal_by_block(st: FallState) -> dict[Block, list[int]]:
    """The legal arguments of each block that has any, in the phase awaited."""
    ph = st.phase
    p = st.pending
    g = st.game
    out: dict[Block, list[int]] = {}
    if ph == Phase.KEEP_CHAMPION:
        out[Block.KEEP] = [0, 1]
    elif ph == Phase.LAIR_PAIR:
        out[Block.LAIR_PAIR] = setup.free_pairs(st)
    elif ph == Phase.LAIR_TROLL:
        out[Block.LAIR_TROLL] = setup.lair_troll_places(st, st.decider, p["lair"])
    elif ph == Phase.PAWN_SETUP:
        out[Block.PAWN_SETUP] = setup.pawn_setup_options(st)
    elif ph == Phase.PLACE_CARD:
        out[Block.PLACE] = ancestry.place_actions(st, st.decider)
    elif ph == Phase.WILD_PAIR:
        out[Block.WILD] = ancestry.wild_cells(st, st.decider)
        if p["covered"] == 0:
            out[Block.DONE] = [0]
    elif ph == Phase.TURN:
        w = g.layout.symbol_cells
        out[Block.WEAK] = [a * w + c for a, c in battle.weak_options(st)]
        out[Block.STRONG] = [a * w + c for a, c in battle.strong_options(st)]
        if battle.end_turn_legal(st):
            out[Block.END_TURN] = [0]
    elif ph == Phase.GATHER:
        out[Block.ADD] = battle.gather_candidates(st)
        if battle.gather_done_legal(st):
            out[Block.DONE] = [0]
    elif ph == Phase.BOOST:
        out[Block.BOOST] = battle.boost_options(st)
    elif ph == Phase.ADVANCE_DEST:
        out[Block.DEST] = actions.advance_destinations(st)
    elif ph == Phase.ADVANCE_TROLL:
        out[Block.TROLL] = actions.advance_trolls(st)
        out[Block.CHAMPION] = actions.advance_champions(st)
        if p["moved"]:
            out[Block.DONE] = [0]
    elif ph == Phase.BOLSTER_DEST:
        out[Block.DEST] = actions.bolster_destinations(st)
    elif ph == Phase.BOLSTER_COUNT:
        out[Block.COUNT] = list(range(p["most"]))
    elif ph == Phase.BOLSTER_FROM:
        out[Block.TROLL] = actions.bolster_sources(st, st.decider, p["dest"])
        out[Block.CHAMPION] = actions.bolster_pawns(st, st.decider, p["dest"])
        out[Block.DONE] = [0]
    elif ph == Phase.INFLUENCE:
        out[Block.INFLUENCE] = actions.influence_targets(st, st.decider)
    elif ph == Phase.WHEEL:
        out[Block.WHEEL] = list(range(p["most"]))
    elif ph == Phase.SCOUT_GATE:
        out[Block.GATE] = wheel.scoutable_gates(st, st.decider)
        out[Block.DONE] = [0]
    elif ph == Phase.SCOUT_GNOME:
        out[Block.GNOME] = wheel.scoutable_gnomes(st, st.decider)
        out[Block.DONE] = [0]
    elif ph == Phase.SWARM:
        out[Block.SWARM] = [0, 1, 2, 3, 4]
    elif ph == Phase.SHOVE_FROM:
        out[Block.SHOVE_FROM] = wheel.shove_sources(st, st.decider)
    elif ph == Phase.SHOVE:
        out[Block.SHOVE] = [q * g.side.size + d for q, d in wheel.shove_moves(st)]
        out[Block.DONE] = [0]
    elif ph == Phase.ROUTE:
        out[Block.ROUTE] = list(p["options"])
    elif ph == Phase.FALL:
        out[Block.FALL] = swarm.fall_options(st, st.decider, p["loc"])
    elif ph == Phase.LAIR_CHOICE:
        out[Block.LAIR] = [0, 1] if st.lairs[st.decider][0] != st.lairs[st.decider][1] else [0]
    elif ph == Phase.OUTSIDER:
        out[Block.CLAN] = list(range(len(g.pack.clans)))
    elif ph == Phase.VOTE_OR_HONOR:
        out[Block.VOTE_OR_HONOR] = [0, 1]
    elif ph == Phase.PAWN_PLACE:
        out[Block.DEST] = champions.pawn_places(st, st.decider)
    elif ph == Phase.STARBURST:
        out[Block.HALL] = [h for h, c in enumerate(st.starburst) if c < 0]
    return {b: sorted(v) for b, v in out.items() if v}


def legal_actions(st: FallState) -> np.ndarray:
    """The legal action numbers, sorted (memoised until the state changes)."""
    return flat_engine.legal_actions(st, legal_by_block)


def _done(st: FallState, arg: int) -> None:
    ph = st.phase
    if ph == Phase.GATHER:
        battle.apply_gather_done(st)
    elif ph == Phase.ADVANCE_TROLL:
        actions.apply_advance_done(st)
    else:  # no more wilds / trolls from the map / shoves; no peek
        resume(st)


def _dest(st: FallState, arg: int) -> None:
    {Phase.ADVANCE_DEST: actions.apply_advance_dest, Phase.BOLSTER_DEST: actions.apply_bolster_dest,
     Phase.PAWN_PLACE: champions.apply_pawn_place}[Phase(st.phase)](st, arg)


def _troll(st: FallState, arg: int) -> None:
    if st.phase == Phase.ADVANCE_TROLL:
        actions.apply_advance_troll(st, arg)
    else:
        actions.apply_bolster_from(st, arg)


def _champion(st: FallState, arg: int) -> None:
    if st.phase == Phase.ADVANCE_TROLL:
        actions.apply_advance_champion(st, arg)
    else:
        actions.apply_bolster_pawn(st, arg)


def _split(fn: Callable[[FallState, int, int], None], width: Callable[[FallState], int]) -> Callable:
    return lambda st, a: fn(st, *divmod(a, width(st)))


#: how each block's decision is applied (the phase picks the mechanic where a block serves two)
APPLY: dict[Block, Callable[[FallState, int], None]] = {
    Block.DONE: _done,
    Block.END_TURN: lambda st, a: battle.apply_end_turn(st),
    Block.KEEP: setup.apply_keep,
    Block.LAIR_PAIR: setup.apply_lair_pair,
    Block.LAIR_TROLL: setup.apply_lair_troll,
    Block.PAWN_SETUP: setup.apply_pawn_setup,
    Block.PLACE: ancestry.apply_place,
    Block.WILD: ancestry.apply_wild,
    Block.WEAK: _split(battle.apply_weak, lambda st: st.game.layout.symbol_cells),
    Block.STRONG: _split(battle.apply_strong, lambda st: st.game.layout.symbol_cells),
    Block.ADD: battle.apply_add,
    Block.BOOST: battle.apply_boost,
    Block.DEST: _dest,
    Block.TROLL: _troll,
    Block.CHAMPION: _champion,
    Block.INFLUENCE: actions.apply_influence,
    Block.WHEEL: wheel.apply_wheel,
    Block.GATE: wheel.apply_gate,
    Block.GNOME: wheel.apply_gnome,
    Block.SWARM: swarm.apply_swarm,
    Block.SHOVE_FROM: wheel.apply_shove_from,
    Block.SHOVE: _split(wheel.apply_shove, lambda st: st.game.side.size),
    Block.ROUTE: swarm.apply_route,
    Block.FALL: swarm.apply_fall,
    Block.LAIR: swarm.apply_lair,
    Block.CLAN: champions.apply_clan,
    Block.VOTE_OR_HONOR: champions.apply_vote_or_honor,
    Block.HALL: champions.apply_hall,
    Block.COUNT: actions.apply_bolster_count,
}


def apply_action(st: FallState, action: object) -> None:
    """Apply one decision, or raise :class:`IllegalActionError` (what, why, what is allowed) and change
    nothing."""
    flat_engine.apply_checked(st, action, legal_actions(st), why_illegal, APPLY)


def why_illegal(st: FallState, a: int) -> str:
    """The message of an illegal decision: the action, why it is refused (for a block awaited now, the rule it
    breaks: :mod:`.refusals`), the legal ones."""
    return flat_engine.illegal_message(st.game.layout, a, st.decider, st.phase == Phase.GAME_OVER,
                                       PHASE_NAMES[st.phase], PHASE_BLOCKS[Phase(st.phase)], legal_by_block(st),
                                       reason=lambda block, arg: refusals.why_not(st, block, arg))
