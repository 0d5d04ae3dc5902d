"""Scoring ("SCORING", "GAME END") and the winner.

"The player with the most adventurers in a room controls that room, and receives an amount of gold
indicated by that room's gold value ... If the number of adventurers in a room is tied, no one receives
gold for that room." The Barbarian counts two when scoring; each Dwarf in the room (any player's) doubles
the printed value; each Treasure adds 4, not doubled; the Idol's owner claims the Idol's room. Gold is
kept by category (:data:`~.fields.CATEGORIES`); ``score`` is the score track, kept apart and checked
against the categories' sum by the invariants.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .board import BARBARIAN, DWARF, TREASURE, Occupancy, occupancy
from .fields import CATEGORIES

if TYPE_CHECKING:
    from .state import CaveTrollState

ROOMS, TREASURE_GOLD, IDOL, LAST_COUNTER, ARTIFACTS = range(len(CATEGORIES))


def add_gold(st: CaveTrollState, seat: int, category: int, amount: int) -> None:
    """Move ``seat``'s score counter on by ``amount`` gold, booked under ``category``."""
    if amount:
        st.gold[seat][category] += amount
        st.score[seat] += amount


def room_control(st: CaveTrollState, occ: Occupancy, room: int) -> tuple[int, int, int]:
    """(controlling seat or -1, gold from the printed value with the Dwarves' doubling, Treasure gold).
    Ties (and empty rooms) score nobody; the Idol's room goes to the Idol's owner."""
    g = st.game
    if room == st.idol_room:
        return st.idol_owner, g.pack.lair.gold[room], 0
    strength = [0] * g.num_players
    dwarves = treasures = 0
    kinds, owners, adv = g.kind_of, g.owner_of, g.is_adventurer
    for c in occ.at[room]:
        k = kinds[c]
        if adv[c]:
            strength[owners[c]] += 2 if k == BARBARIAN else 1
            if k == DWARF:
                dwarves += 1
        elif k == TREASURE:
            treasures += 1
    best = max(strength)
    if best == 0 or strength.count(best) > 1:
        return -1, 0, 0
    return strength.index(best), g.pack.lair.gold[room] << dwarves, treasures * g.pack.rules.treasure_bonus


def score_room(st: CaveTrollState, room: int) -> None:
    """Give the controller of ``room`` its gold (the Wand of Speed scores one room this way)."""
    seat, gold, treasure = room_control(st, occupancy(st), room)
    if seat >= 0:
        add_gold(st, seat, IDOL if room == st.idol_room else ROOMS, gold)
        add_gold(st, seat, TREASURE_GOLD, treasure)


def count_the_loot(st: CaveTrollState) -> None:
    """Score every room of the board ("Count the Loot!" and the final scoring)."""
    for room in range(st.game.pack.lair.n_rooms):
        score_room(st, room)


def final_scoring(st: CaveTrollState, ender: int) -> None:
    """The end: the board scored one last time, +3 to the player who played the last counter, each
    unplayed artifact's gold to its holder."""
    count_the_loot(st)
    add_gold(st, ender, LAST_COUNTER, st.game.pack.rules.last_counter_bonus)
    for i, holder in enumerate(st.art_at):
        if holder >= 0:
            add_gold(st, holder, ARTIFACTS, st.game.pack.artifacts[i].gold)


def breakdown(st: CaveTrollState, seat: int) -> dict[str, int]:
    """The seat's gold by category (unplayed artifacts count once the game is over) and ``total``."""
    out = dict(zip(CATEGORIES, st.gold[seat]))
    out["total"] = st.score[seat]
    return out


def ranks(st: CaveTrollState) -> list[int]:
    """0 for the winner(s): the most gold; tied seats share a rank (the text has no tie-break)."""
    return [sum(1 for other in st.score if other > mine) for mine in st.score]


def returns(st: CaveTrollState) -> list[float]:
    """Zeros before the end. At the end the winners share +1 so that the returns sum to zero: one
    winner gets +1 and each other player -1/(n-1); ``w`` tied winners get (n-w)/(w(n-1)) each."""
    n = st.num_players
    if not st.is_terminal():
        return [0.0] * n
    r = ranks(st)
    w = r.count(0)
    return [(n - w) / (w * (n - 1)) if x == 0 else -1.0 / (n - 1) for x in r]
