"""The facts every reachable Fall of the Mountain King state obeys, checked by tests after every decision
and by the save reader: every troll, gnome, champion and ancestry card in exactly one place; no cavern
holding both trolls and gnomes; lairs holding only their owner's trolls; honor equal to the sum of its
categories; supplies and tokens in range; the decision awaited consistent with its context.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from .board import lair_owner
from .fields import DEALT, DISPLAY, HELD, IN_DECK, REMOVED
from .vocabulary import Phase

if TYPE_CHECKING:
    from .state import FallState


class InvariantError(AssertionError):
    """A state that no game can reach; the message names the broken fact."""


def problems(st: FallState) -> list[str]:
    """Every broken fact of ``st`` (empty: a consistent state)."""
    out: list[str] = []
    g = st.game
    side = g.side
    n = st.num_players
    for p in range(n):
        on_map = sum(st.trolls[x][p] for x in range(side.size))
        if on_map + st.troll_supply[p] != g.pack.rules.trolls or st.troll_supply[p] < 0:
            out.append(f"seat {p} has {on_map} trolls on the map and {st.troll_supply[p]} in supply "
                       f"(together {g.pack.rules.trolls})")
        if st.honor[p] != sum(st.honor_by[p]):
            out.append(f"seat {p}'s honor {st.honor[p]} is not the sum of its categories {st.honor_by[p]}")
        if not 0 <= st.supply[p] <= g.pack.rules.supply_max or st.desperation[p] < 0:
            out.append(f"seat {p}'s supply {st.supply[p]} / desperation {st.desperation[p]} out of range")
        if len(st.lairs[p]) not in (0, 2):
            out.append(f"seat {p} has {len(st.lairs[p])} lairs (0 before setup, then 2)")
    # trolls advancing into an overrun cavern stand with the gnomes until the battle (and a repulse's lair)
    battling = st.pending.get("dest") if st.phase == Phase.ADVANCE_TROLL else (
        st.pending.get("loc") if st.phase == Phase.LAIR_CHOICE and st.pending.get("reason") == "repelled" else None)
    for x in range(side.size):
        f = st.trolls[x]
        if min(f) < 0:
            out.append(f"{side.names[x]} holds a negative number of trolls {f}")
        here = [c for c, at in enumerate(st.champ_loc) if at == x]
        if x in st.gnome_at and (sum(f) or here) and x != battling:
            out.append(f"{side.names[x]} holds gnomes and trolls")
        if x >= side.n_caverns:
            owner = lair_owner(st, x)
            others = [p for p in range(n) if p != owner and f[p]] + [c for c in here if st.champ_owner[c] != owner]
            if x in st.gnome_at or others:
                out.append(f"lair space {side.names[x]} holds pieces other than its owner's trolls")
    out += _champions(st)
    out += _cards(st)
    if st.phase != Phase.GAME_OVER and not 0 <= st.decider < n:
        out.append(f"the decider {st.decider} is not a seat")
    for cell, (v, m) in enumerate(zip(sum(st.grid, []), sum(st.covered, []))):
        if m and v <= 0:
            out.append(f"an ancestry marker lies on canvas cell {cell % g.cells} without a symbol")
            break
    return out


def _champions(st: FallState) -> list[str]:
    out = []
    where = Counter(c for d in st.champ_decks for c in d)
    for c, state in enumerate(st.champ_state):
        in_deck = where.get(c, 0)
        if (state == IN_DECK) != (in_deck == 1) or in_deck > 1:
            out.append(f"champion {c} is {state} and {in_deck} times in a deck")
        if state == DISPLAY and c not in st.display:
            out.append(f"champion {c} is face-up by the board but not in the display")
        if state in (HELD, DEALT) and st.champ_owner[c] < 0 or state in (IN_DECK, DISPLAY, REMOVED) and \
                st.champ_owner[c] >= 0:
            out.append(f"champion {c} is {state} with owner {st.champ_owner[c]}")
        if st.champ_loc[c] >= 0 and (state != HELD or not st.game.pack.champions[c].letter):
            out.append(f"champion {c} has a pawn on the map but is not a held lettered champion")
    return out


def _cards(st: FallState) -> list[str]:
    placed = [c for p in st.placed for c in p[0::2]]
    cards = st.deck + [c for h in st.hands for c in h] + placed
    dup = [c for c, k in Counter(cards).items() if k > 1]
    return [f"ancestry card {dup[0]} is in two places"] if dup else []


def check(st: FallState) -> None:
    """Raise :class:`InvariantError` naming the broken facts, if any."""
    found = problems(st)
    if found:
        raise InvariantError("; ".join(found))
