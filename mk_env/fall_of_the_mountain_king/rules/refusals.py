"""The rule a refused decision breaks, in the game's words: for a block awaited now, each mechanic's module
says why one of its decisions is illegal (``why_not_*`` beside its legal moves, from the same rule code);
:func:`why_not` picks the one of the phase. Only a refusal computes it, so the legal moves pay nothing."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from . import actions, ancestry, battle, champions, setup, swarm, wheel
from .vocabulary import Block, Phase

if TYPE_CHECKING:
    from .state import FallState

Reason = Callable[["FallState", int], str]


def _bolster_troll(st: FallState, src: int) -> str:
    """Bolster with an empty supply: a troll "from anywhere on the map" but the destination."""
    names = st.game.side.names
    if src == st.pending["dest"]:
        return f"{names[src]} is the destination"
    return f"you have no regular trolls in {names[src]}"


def _bolster_pawn(st: FallState, card: int) -> str:
    """Bolster with an empty supply: one of your champion pawns on the map, not in the destination."""
    if card >= len(st.champ_loc) or st.champ_owner[card] != st.decider:
        return "that champion is not yours"
    if st.champ_loc[card] < 0:
        return "that champion has no pawn on the map"
    return "that champion's pawn is already in the destination"


def _done(st: FallState, arg: int) -> str | None:
    """Why "done" is refused where the phase asks for more first."""
    if st.phase == Phase.GATHER:
        return battle.why_not_gather_done(st)
    if st.phase == Phase.ADVANCE_TROLL:
        return "an Advance moves at least 1 troll: choose one first"
    if st.phase == Phase.WILD_PAIR:
        return "wild symbols are covered in pairs: choose the second wild of this pair"
    return None


def _count(st: FallState, arg: int) -> str:
    """Bolster: "up to p trolls from your supply" (the limit :func:`actions.apply_bolster_dest` sets)."""
    return f"a Bolster adds up to its power from your supply: at most {st.pending['most']} trolls now"


def _route(st: FallState, loc: int) -> str:
    """A gnome running in goes to one of the goals :func:`swarm.goals` found (the tie being decided)."""
    names = st.game.side.names
    return "the gnome runs to one of the goals tied for it: " + ", ".join(names[x] for x in st.pending["options"])


def _lair(st: FallState, i: int) -> str:
    return "your two lairs are on the same space: choose lair 0"


#: (phase, block) -> the reason one of its decisions breaks; a block serving several phases has one per phase
_BY_PHASE: dict[tuple[Phase, Block], Reason] = {
    (Phase.ADVANCE_DEST, Block.DEST): actions.why_not_advance_dest,
    (Phase.BOLSTER_DEST, Block.DEST): actions.why_not_dominated,
    (Phase.PAWN_PLACE, Block.DEST): actions.why_not_dominated,
    (Phase.ADVANCE_TROLL, Block.TROLL): actions.why_not_advance_troll,
    (Phase.ADVANCE_TROLL, Block.CHAMPION): actions.why_not_advance_champion,
    (Phase.BOLSTER_FROM, Block.TROLL): _bolster_troll,
    (Phase.BOLSTER_FROM, Block.CHAMPION): _bolster_pawn,
}

#: block -> the reason one of its decisions breaks, whatever the phase
_BY_BLOCK: dict[Block, Reason] = {
    Block.LAIR_PAIR: setup.why_not_lair_pair,
    Block.LAIR_TROLL: setup.why_not_lair_troll,
    Block.ROUTE: _route,
    Block.PLACE: ancestry.why_not_place,
    Block.WILD: ancestry.why_not_wild,
    Block.WEAK: battle.why_not_weak,
    Block.STRONG: battle.why_not_strong,
    Block.END_TURN: battle.why_not_end_turn,
    Block.ADD: battle.why_not_add,
    Block.BOOST: battle.why_not_boost,
    Block.INFLUENCE: actions.why_not_influence,
    Block.WHEEL: wheel.why_not_wheel,
    Block.GATE: wheel.why_not_gate,
    Block.GNOME: wheel.why_not_gnome,
    Block.SHOVE_FROM: wheel.why_not_shove_from,
    Block.SHOVE: wheel.why_not_shove,
    Block.FALL: swarm.why_not_fall,
    Block.LAIR: _lair,
    Block.HALL: champions.why_not_hall,
    Block.COUNT: _count,
    Block.DONE: _done,
}


def why_not(st: FallState, block: Block, arg: int) -> str | None:
    """The rule decision ``arg`` of ``block`` (awaited now, yet illegal) breaks; None where no mechanic says."""
    reason = _BY_PHASE.get((Phase(st.phase), block)) or _BY_BLOCK.get(block)
    return reason(st, arg) if reason else None
