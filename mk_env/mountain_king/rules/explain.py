"""Why a decision is illegal, in words: which decision, why, and what is allowed now. Each mechanic's
module holds the reasons for its own blocks (:data:`REASONS`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy as np

from . import economy as eco
from .digging import why_not_dig
from .great_halls import why_not_hall
from .legal import legal_actions
from .payment import why_not_pay_token
from .recruiting import why_not_recruit
from .spells import why_not_cast
from .statues import why_not_move_statue, why_not_select_statue
from .trades import why_not_trade
from .vocabulary import PHASE_NAMES, Block
from .workshops import why_not_activate_workshop

if TYPE_CHECKING:
    from .state import GameState


def _why_not_pedestal(st: GameState, p: int, arg: int, have: np.ndarray) -> str:
    return "that pedestal is not available (none of that clan, or its clan already has a pedestal on this tier)"


#: the reason an action of each block is illegal when its block is allowed: (state, player, argument,
#: what the player owns) -> words; blocks not listed get a generic reason
REASONS: dict[Block, Callable[[GameState, int, int, np.ndarray], str]] = {
    Block.DIG: why_not_dig, Block.RECRUIT: why_not_recruit, Block.HALL: why_not_hall, Block.TRADE: why_not_trade,
    Block.CAST: why_not_cast, Block.ACTIVATE_WORKSHOP: why_not_activate_workshop,
    Block.SELECT_STATUE: why_not_select_statue, Block.MOVE_STATUE: why_not_move_statue,
    Block.PEDESTAL: _why_not_pedestal, Block.PAY_TOKEN: why_not_pay_token,
}


def explain_illegal(st: GameState, a: int) -> str:
    """The message of the :class:`IllegalActionError` for action ``a`` (in range) in ``st``."""
    layout = st.game.layout
    p = st.current
    block, arg = layout.decode(a)
    legal = legal_actions(st)
    allowed_blocks = sorted({layout.decode(int(x))[0] for x in legal})
    head = (f"illegal action {a} ({layout.describe(a)}) for player {p} in phase "
            f"{PHASE_NAMES[st.phase]}")
    if block not in allowed_blocks:
        reason = f"'{block}' decisions are not allowed in this phase"
    elif block in REASONS:
        reason = REASONS[block](st, p, arg, eco.owned(st, p))
    else:
        reason = "it is not legal in this state"
    examples = "; ".join(layout.describe(int(x)) for x in legal[:4])
    more = f" (and {len(legal) - 4} more)" if len(legal) > 4 else ""
    return (f"{head}: {reason}. Allowed now: {len(legal)} actions of kinds "
            f"{', '.join(allowed_blocks)}, e.g. {examples}{more}")
