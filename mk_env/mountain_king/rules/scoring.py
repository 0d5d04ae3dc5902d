"""Final scoring (rulebook, *Final scoring*) and the winner.

Categories: ``tunnels`` (honour scored while digging), ``coronation``, ``pedestal_tokens``,
``leftover_sets`` (sets of 3 identical resources after the best 4:1 trades, clan carts counted as
carts), ``great_halls`` (the low value, or the high one with a statue on the altar) and ``statues``
(by tier, doubled on a pedestal of their clan; one statue per tunnel, the best; statues in great halls
score only through the altar). In team play a team's halls and statues count once.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from . import economy as eco
from .vocabulary import SquareKind

_GREAT_HALL = int(SquareKind.GREAT_HALL)  # numpy compares a plain int faster than an IntEnum member

if TYPE_CHECKING:
    from .state import GameState

CATEGORIES = ("tunnels", "coronation", "pedestal_tokens", "leftover_sets", "great_halls", "statues")


def _network(st: GameState, p: int) -> np.ndarray:
    """Squares counted for p: p's network, or the union of the team's networks."""
    return st.reach[st.game.teammates[p]].any(axis=0)


def great_hall_honour(st: GameState, net: np.ndarray) -> int:
    """Honour of the great halls whose altar lies in ``net``: the high value with a statue on the altar."""
    pack = st.game.pack
    total = 0
    for h, altar in enumerate(st.hall_altar.tolist()):
        if altar >= 0 and net[altar]:
            hall = pack.great_halls[h]
            total += hall.high if st.statue[altar] >= 0 else hall.low
    return total


def statue_honour(st: GameState, net: np.ndarray) -> int:
    """Best statue of each tunnel (tiles, protruding parts, the gate) in the network, outside halls."""
    pack = st.game.pack
    tier = st.game.geo.tier
    best: dict[int, int] = {}
    for sq in ((st.statue[:-1] >= 0) & net[:-1] & (st.kind[:-1] != _GREAT_HALL)).nonzero()[0].tolist():
        clan = int(st.statue[sq])
        value = pack.statue_values[int(tier[sq]) - 1]
        if st.pedestal[sq] == clan:
            value *= pack.pedestal_multiplier
        region = int(st.region[sq])
        best[region] = max(best.get(region, 0), value)
    return sum(best.values())


def leftover_sets(st: GameState, p: int) -> int:
    """Sets of identical resources p (or p's team) makes after the best trades."""
    counts = sum(eco.owned(st, q) for q in st.game.teammates[p]) if st.game.team_mode else eco.owned(st, p)
    if st.game.team_mode:  # team storage was counted once per teammate
        counts = counts - st.storage[st.game.storage_of[p]] * (len(st.game.teammates[p]) - 1)
    return eco.best_leftover_sets(counts, st.game.set_size, st.game.trade_rate)


def breakdown(st: GameState, p: int) -> dict[str, int]:
    """p's honour by category, as if the game ended now, with ``total``."""
    mates = st.game.teammates[p]
    net = _network(st, p)
    parts = {
        "tunnels": int(st.honour[mates].sum()),
        "coronation": int(st.coronation[mates].sum()),
        "pedestal_tokens": int(st.pedestal_points[mates].sum()),
        "leftover_sets": leftover_sets(st, p),
        "great_halls": great_hall_honour(st, net),
        "statues": statue_honour(st, net),
    }
    parts["total"] = sum(parts.values())
    return parts


def recruited_levels(st: GameState, p: int) -> int:
    """Tie-break: the sum of the levels of the trolls p recruited (starters are level 0)."""
    cards = st.smoot[st.game.teammates[p]]
    return int(st.game.card_level[cards[cards >= 0]].sum())


def ranks(st: GameState, totals: list[int] | None = None) -> list[int]:
    """0 for the winner(s): most honour, then the lowest sum of recruited levels; ties share.
    ``totals``: each seat's ``breakdown(st, p)["total"]``, when the caller already has them."""
    if totals is None:
        totals = [breakdown(st, p)["total"] for p in range(st.num_players)]
    keys = [(-totals[p], recruited_levels(st, p)) for p in range(st.num_players)]
    return [sum(1 for k in keys if k < mine) for mine in keys]


def returns(st: GameState, rank: list[int] | None = None) -> list[float]:
    """+1 to each winner and -1/(n-1) to each other player at the end (teams: +1 / -1, a draw 0);
    zeros before. ``rank``: :func:`ranks`, when the caller already has them."""
    n = st.num_players
    if not st.is_terminal():
        return [0.0] * n
    r = ranks(st) if rank is None else rank
    if st.game.team_mode:  # two teams: +1 to the winning team, -1 to the other (0 for a tie)
        return [0.0 if all(x == 0 for x in r) else (1.0 if x == 0 else -1.0) for x in r]
    return [1.0 if x == 0 else -1.0 / (n - 1) for x in r]
