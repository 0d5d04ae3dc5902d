"""Trades with the supply (rulebook, *Trading*: "at any point on your turn", ``trade_rate`` tokens of any
kinds for one token of your choice). Offered in steps 1-4 and in the workshop, not in the middle of a
recruit, a dig or a spell's choices (:data:`mk_env.mountain_king.rules.vocabulary.TRADE_PHASES`). Legal moves,
application and explanation side by side."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from . import economy as eco
from .board import memo_key
from .content import N_RESOURCES, RESOURCES

if TYPE_CHECKING:
    from .state import GameState

#: most entries of a layout's trade memo (~1 KB each in random play: 4.2 MB when full)
TRADE_MEMO_LIMIT = 4096
#: the state fields :func:`trade_actions` reads: what the player owns (``tokens``, ``storage``, passed in as
#: ``have``; the memo's key: the counts capped at the trade rate) and the ``supply`` (applied after the memo)
TRADE_ACTIONS_READS = ("tokens", "storage", "supply")
#: how each field :func:`trade_actions` reads enters its memo's key: an expression of what the player owns
#: (``have``) and the trade rate; None: covered by another part, or read after the memo (the supply
#: filters the memoised trades)
_TRADE_KEY_PARTS = {
    "tokens": "np.minimum(have, rate).tobytes()",  # what is owned, capped at the trade rate
    "storage": None,  # with tokens
    "supply": None,  # applied to the memoised trades, never memoised
}
#: the key, derived from the declaration (a declared field without a part fails here, at import)
_trade_key = memo_key(TRADE_ACTIONS_READS, _TRADE_KEY_PARTS, "have, rate", {"np": np})


def any_trade(st: GameState, have: np.ndarray) -> bool:
    """Is some trade legal: ``trade_rate`` tokens of any kinds owned, and a supply pile not empty
    (exactly whether :func:`trade_actions` is non-empty: the trades give every multiset of that size)."""
    return sum(have.tolist()) >= st.game.trade_rate and bool(st.supply.any())


def trade_actions(st: GameState, have: np.ndarray) -> np.ndarray:
    """The legal trades as action numbers (int32; the caller must not change the array): the gives
    within what the player owns, each with every gain whose supply pile is not empty.

    The gives depend only on the owned counts capped at the trade rate; their action numbers are
    memoised on the action layout (shared by every game of that pack and board side) in an ordered
    dict kept in least-recently-used order and bounded by :data:`TRADE_MEMO_LIMIT` entries."""
    layout = st.game.layout
    rate = st.game.trade_rate
    key = _trade_key(have, rate)
    memo = layout.trade_memo
    actions = memo.get(key)
    if actions is None:
        within = (layout.trade_gives_by_kind <= have[:, None]).all(axis=0)
        actions = memo[key] = layout.trade_rows[within].reshape(-1)
        if len(memo) > TRADE_MEMO_LIMIT:
            try:
                memo.popitem(last=False)  # the least recently used
            except KeyError:  # emptied meanwhile by another thread
                pass
    else:
        try:
            memo.move_to_end(key)
        except KeyError:  # evicted meanwhile by another thread
            pass
    supply = st.supply
    if supply.all():
        return actions
    return actions.reshape(-1, N_RESOURCES)[:, supply > 0].reshape(-1)


def apply_trade(st: GameState, p: int, arg: int) -> None:
    """Give the trade's tokens to the supply and take the one chosen."""
    give, gain = st.game.layout.trade_args(arg)
    eco.pay_vector(st, p, give)
    eco.gain(st, p, gain, 1)


def why_not_trade(st: GameState, p: int, arg: int, have: np.ndarray) -> str:
    """Why trade ``arg`` is illegal now."""
    _give, gain = st.game.layout.trade_args(arg)
    if st.supply[gain] <= 0:
        return f"the supply has no {RESOURCES[gain]} left"
    return f"you own {dict(zip(RESOURCES, have.tolist()))}"
