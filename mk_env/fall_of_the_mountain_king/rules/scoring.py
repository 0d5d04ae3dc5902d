"""The End: each Great Hall (gnomes take part; ties split, fractions discarded), the elder symbols by the
printed table, the clan votes (1st/2nd/3rd by each clan's vote tile); the winner by honor, ties by total
votes, further ties shared. Also each seat's honor by category, the ranks and the returns."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .ancestry import count_symbols
from .board import controller, overrun
from .flow import gain_honor, standing, task
from .vocabulary import CATEGORIES, Phase, Symbol

if TYPE_CHECKING:
    from .state import FallState

HALLS, ELDER, VOTES = 5, 6, 7  # honor categories
GNOMES = -2  # the gnomes, as a contender for a Great Hall


def hall_shares(st: FallState, hall: int) -> list[int]:
    """Each seat's honor from Great Hall ``hall``: "The player who controls the most caverns touching the
    Great Hall gains honor equal to the hall's value"; gnomes take part; a tie splits the points evenly,
    discarding fractions. A starburst tile counts as one cavern its champion's holder controls."""
    n = st.num_players
    held = [0] * n
    gnomes = 0
    for c in st.game.side.halls[hall]:
        if overrun(st, c):
            gnomes += 1
        elif (p := controller(st, c)) >= 0:
            held[p] += 1
    if st.starburst[hall] >= 0:
        held[st.champ_owner[st.starburst[hall]]] += 1
    top = max(max(held), gnomes)
    out = [0] * n
    if top == 0:
        return out
    tied = [p for p in range(n) if held[p] == top]
    share = st.hall_value[hall] // (len(tied) + (gnomes == top))
    for p in tied:
        out[p] = share
    return out


def elder_honor(st: FallState, seat: int) -> int:
    """The printed table of elder symbols (beyond its end: its last value)."""
    table = st.game.pack.elder_table
    k = count_symbols(st, seat, Symbol.ELDER) + st.elder_bonus[seat]
    return table[min(k, len(table) - 1)]


def clan_honor(st: FallState, clan: int) -> list[int]:
    """"Players with the 1st, 2nd, and 3rd most votes score the corresponding honor shown on the vote tile";
    "the bottom marker of a stack leads"; no votes, no score."""
    tile = st.game.pack.vote_tiles[st.vote_tiles[clan]]
    out = [0] * st.num_players
    for place, seat in enumerate(standing(st.votes[clan], st.vote_stamp[clan])[:3]):
        out[seat] = tile[place]
    return out


@task("end_game")
def end_game(st: FallState) -> None:
    for h in range(len(st.game.side.halls)):
        for seat, honor in enumerate(hall_shares(st, h)):
            gain_honor(st, seat, honor, HALLS)
    for seat in range(st.num_players):
        gain_honor(st, seat, elder_honor(st, seat), ELDER)
    for clan in range(len(st.votes)):  # "from top of the clan board to bottom"
        for seat, honor in enumerate(clan_honor(st, clan)):
            gain_honor(st, seat, honor, VOTES)
    st.phase, st.decider, st.pending, st.turn_player = int(Phase.GAME_OVER), -1, {}, -1


def total_votes(st: FallState, seat: int) -> int:
    return sum(v[seat] for v in st.votes)


def breakdown(st: FallState, seat: int) -> dict[str, int]:
    """``seat``'s honor by category, and ``total``."""
    out = dict(zip(CATEGORIES, st.honor_by[seat]))
    out["total"] = st.honor[seat]
    return out


def ranks(st: FallState) -> list[int]:
    """0 for the winner(s): "The player with the most honor wins. Ties are won by most total votes on the
    clan board. Further ties are shared.\""""
    keys = [(-st.honor[p], -total_votes(st, p)) for p in range(st.num_players)]
    return [sum(1 for k in keys if k < mine) for mine in keys]


def returns(st: FallState) -> list[float]:
    """Zeros before the end; then the winners share +1 so that the returns sum to zero: one winner +1 and
    each other player -1/(n-1); ``w`` tied winners (n-w)/(w(n-1)) each."""
    n = st.num_players
    if st.phase != Phase.GAME_OVER:
        return [0.0] * n
    r = ranks(st)
    w = r.count(0)
    return [(n - w) / (w * (n - 1)) if x == 0 else -1.0 / (n - 1) for x in r]
