"""The legal decisions of each phase, as sorted action numbers of the flat action space, gathered from
the mechanics' modules (each holds its own legal moves), and the fast test for a forced pass.

Phases with trades (steps 1-4 and the workshop) are assembled here block by block; every other phase
has one block of choices (besides pass), declared in :data:`CHOICES`."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy as np

from . import economy as eco
from .content import RUNE
from .digging import legal_digs, legal_pedestal_clans, payable_minerals, workshops_to_establish
from .great_halls import legal_halls
from .payment import legal_pay_tokens
from .recruiting import bag_clans, bribe_resources, legal_recruits
from .setup import legal_drafts, legal_gates
from .spells import castable_positions, spell_horde_slots, spell_options, spell_smoot_slots
from .statues import free_statues, selected_statue_destinations, statues_to_select
from .trades import any_trade, trade_actions
from .vocabulary import EMPTY, PASS_PHASES, TRADE_PHASES, Block, Phase
from .workshops import activatable_sites, legal_conversions

if TYPE_CHECKING:
    from .state import GameState

# the phases and blocks compared on every step, bound once as plain ints and strings (what the state and
# ``layout.decode`` hold: their comparisons and dict lookups take the fast paths an IntEnum or StrEnum
# member would miss; a global is also cheaper than ``Phase.STEP1``)
STEP1, STEP2, STEP3, STEP4, WORKSHOP, GAME_OVER = (
    int(Phase.STEP1), int(Phase.STEP2), int(Phase.STEP3), int(Phase.STEP4), int(Phase.WORKSHOP), int(Phase.GAME_OVER))
RECRUIT, DIG, HALL, SELECT_STATUE, WORKSHOP_USE, CAST, ACTIVATE_WORKSHOP = (
    Block.RECRUIT.value, Block.DIG.value, Block.HALL.value, Block.SELECT_STATUE.value, Block.WORKSHOP_USE.value,
    Block.CAST.value, Block.ACTIVATE_WORKSHOP.value)

#: the phases without trades: their one block of choices (besides pass) and its legal arguments
CHOICES: dict[int, tuple[str, Callable[[GameState, int], object]]] = {
    Phase.GATE: (Block.GATE, legal_gates),
    Phase.DRAFT: (Block.DRAFT, legal_drafts),
    Phase.SPELL_DIG: (Block.DIG, legal_digs),
    Phase.SPELL_STATUE: (Block.SELECT_STATUE, free_statues),
    Phase.STATUE_DEST: (Block.MOVE_STATUE, selected_statue_destinations),
    Phase.SPELL_OPTION: (Block.SPELL_OPTION, spell_options),
    Phase.SPELL_SMOOT: (Block.SMOOT_SLOT, spell_smoot_slots),
    Phase.SPELL_HORDE: (Block.HORDE_SLOT, spell_horde_slots),
    Phase.SPELL_PEDESTAL: (Block.PEDESTAL, bag_clans),
    Phase.RECRUIT_PEDESTAL: (Block.PEDESTAL, bag_clans),
    Phase.BRIBE: (Block.BRIBE, bribe_resources),
    Phase.DIG_MINERAL: (Block.MINERAL, payable_minerals),
    Phase.DIG_PEDESTAL: (Block.PEDESTAL, legal_pedestal_clans),
    Phase.DIG_WORKSHOP: (Block.ESTABLISH, workshops_to_establish),
    Phase.PAY: (Block.PAY_TOKEN, legal_pay_tokens),
}
CHOICES = {int(ph): (block.value, choices) for ph, (block, choices) in CHOICES.items()}  # plain keys (above)


def legal_actions(st: GameState) -> np.ndarray:
    """The legal decisions now, sorted (memoised on the state until the next decision)."""
    hit = st._cache.get("legal")
    if hit is not None:
        return hit
    out = _legal(st)
    st._cache["legal"] = out
    return out


def _legal(st: GameState) -> np.ndarray:
    """The legal actions, sorted: the blocks are gathered in the layout's block order, each one
    already sorted, so their concatenation is sorted (small blocks as Python lists: cheaper than
    numpy for a handful of numbers)."""
    ph, p, game = st.phase, st.current, st.game
    if ph == GAME_OVER:
        return EMPTY
    off = game.layout.offset
    small: list[int] = [0] if ph in PASS_PHASES else []  # pass and small blocks, in block order
    pieces: list = []  # then arrays and lists, in block order
    have = None
    if ph in TRADE_PHASES:
        have = eco.owned(st, p)
        trades = trade_actions(st, have)
    if ph == STEP1:
        pieces = [small + _step1_actions(st, p, have), trades]
    elif ph == STEP2:
        rec = legal_recruits(st, p, have)
        digs = legal_digs(st, p, have)
        if len(rec) == 0 and len(digs) == 0:
            small = [0]
        o = off[RECRUIT]
        pieces = [small, trades, [o + r for r in rec], digs + off[DIG] if len(digs) else (), _statues(st, p)]
    elif ph == STEP3:
        halls = legal_halls(st, p)
        pieces = [small, trades, halls + off[HALL] if len(halls) else (), _statues(st, p)]
    elif ph == STEP4:
        pieces = [small, trades, _statues(st, p)]
    elif ph == WORKSHOP:
        o = off[WORKSHOP_USE]
        pieces = [small + [o + j for j in legal_conversions(st, p, have)], trades]
    else:
        block, choices = CHOICES[ph]
        pieces = [small, np.asarray(choices(st, p), dtype=np.int64) + off[block]]
    out = np.concatenate([x for x in pieces if len(x)] or [EMPTY], dtype=np.int64)
    return out


def _statues(st: GameState, p: int) -> list[int]:
    """Steps 2 to 4's statue selections, as action numbers: free moves kept from a spell (steps 2-4),
    else moves paid with carts (step 4)."""
    o = st.game.layout.offset[SELECT_STATUE]
    return [o + s for s in statues_to_select(st, p)]


def _step1_actions(st: GameState, p: int, have: np.ndarray) -> list[int]:
    """Step 1's own actions (casts, then workshop activations), as action numbers."""
    off = st.game.layout.offset
    out: list[int] = []
    if not st.spell_cast and have[RUNE] >= 1:
        o = off[CAST]
        out += [o + i for i in castable_positions(st, p)]
    if st.workshops_left > 0:
        o = off[ACTIVATE_WORKSHOP]
        out += [o + i for i in activatable_sites(st, p)]
    return out


def only_pass(st: GameState) -> bool:
    """Exactly ``list(legal_actions(st)) == [0]``, cheaper: the phase's blocks are tested one by one
    (trades first, by counting) and the first non-empty one answers; the legal set is not built."""
    ph = st.phase
    if ph not in PASS_PHASES and ph != STEP2:
        return False
    hit = st._cache.get("legal")
    if hit is not None:
        return len(hit) == 1 and hit[0] == 0
    return _only_pass(st, ph, st.current, eco.owned(st, st.current) if ph in TRADE_PHASES else None)


def pass_is_forced(st: GameState) -> bool:
    """:func:`only_pass`, for the engine's automatic passes. Where pass is allowed the legal set is not
    built here (it is built when first asked for: a lookahead's leaves are evaluated, not played); step 2,
    rarely a forced pass, and the phases without pass build it at once and keep it."""
    ph = st.phase
    if st._cache.get("legal") is not None or ph == STEP2 or ph not in PASS_PHASES:
        legal = legal_actions(st)
        return len(legal) == 1 and legal[0] == 0
    return _only_pass(st, ph, st.current, eco.owned(st, st.current) if ph in TRADE_PHASES else None)


def _only_pass(st: GameState, ph: int, p: int, have: np.ndarray | None) -> bool:
    """The test of :func:`only_pass` in a phase where pass is legal (step 2: when alone)."""
    if ph in TRADE_PHASES:
        if any_trade(st, have):
            return False
        if ph == STEP1:
            return not _step1_actions(st, p, have)
        if ph == STEP2:
            return (not legal_recruits(st, p, have) and len(legal_digs(st, p, have)) == 0
                    and not statues_to_select(st, p))
        if ph == STEP3:
            return len(legal_halls(st, p)) == 0 and not statues_to_select(st, p)
        if ph == STEP4:
            return not statues_to_select(st, p)
        return not legal_conversions(st, p, have)  # WORKSHOP
    return len(CHOICES[ph][1](st, p)) == 0  # RECRUIT_PEDESTAL, DIG_PEDESTAL, DIG_WORKSHOP, SPELL_STATUE
