"""The map: who is where and the caverns' statuses relative to a player ("Lair", "Dominated",
"Controlled", "Established", "Empty", "Overrun"). A champion pawn is a troll: it counts for every status.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .fields import HELD, SUPPLY
from .vocabulary import Ability

if TYPE_CHECKING:
    from .state import FallState


def pawns_at(st: FallState, loc: int) -> list[int]:
    """The champion cards whose pawns are at ``loc``."""
    return [c for c, x in enumerate(st.champ_loc) if x == loc]


def force(st: FallState, loc: int) -> list[int]:
    """Each seat's trolls at ``loc``, champion pawns included."""
    out = st.trolls[loc][:]
    for c, x in enumerate(st.champ_loc):
        if x == loc:
            out[st.champ_owner[c]] += 1
    return out


def forces(st: FallState) -> list[list[int]]:
    """Every location's :func:`force` at once (one pass over the pawns)."""
    out = [row[:] for row in st.trolls]
    for c, x in enumerate(st.champ_loc):
        if x >= 0:
            out[x][st.champ_owner[c]] += 1
    return out


def gnomes_at(st: FallState, loc: int) -> list[int]:
    """The gnome ids at ``loc``."""
    return [g for g, x in enumerate(st.gnome_at) if x == loc]


def overrun(st: FallState, loc: int) -> bool:
    """Overrun: "a cavern with one or more gnomes"."""
    return loc in st.gnome_at


def lair_owner(st: FallState, loc: int) -> int:
    """The seat whose lair ``loc`` is, -1 if it is none's."""
    for p, lairs in enumerate(st.lairs):
        if loc in lairs:
            return p
    return -1


def controller(st: FallState, loc: int, f: list[int] | None = None) -> int:
    """The seat controlling ``loc`` ("more trolls than any other single player"; a lair: its owner), -1.
    ``f``: the location's :func:`force`, when the caller has it."""
    owner = lair_owner(st, loc)
    if owner >= 0:
        return owner
    if f is None:
        f = force(st, loc)
    best = max(f)
    if best == 0 or f.count(best) > 1:
        return -1
    return f.index(best)


def dominates(st: FallState, seat: int, loc: int, f: list[int] | None = None) -> bool:
    """Dominated: "a cavern where you and only you have trolls" (your lair: always). ``f``: the location's
    :func:`force`, when the caller has it."""
    if loc in st.lairs[seat]:
        return True
    if loc >= st.game.side.n_caverns:
        return False
    if f is None:
        f = force(st, loc)
    return f[seat] > 0 and sum(f) == f[seat]


def established(st: FallState, seat: int, loc: int) -> bool:
    """Established: "a cavern where you have at least one troll" (your lair: always)."""
    return loc in st.lairs[seat] or force(st, loc)[seat] > 0


def empty(st: FallState, loc: int) -> bool:
    """Empty: "a cavern with nothing in it"."""
    return not overrun(st, loc) and sum(force(st, loc)) == 0


def enterable(st: FallState, seat: int, loc: int) -> bool:
    """Whether ``seat``'s trolls may be at ``loc``: any cavern, or its own lair (no other lair space)."""
    return loc < st.game.side.n_caverns or loc in st.lairs[seat]


def uncontrolled_nonempty(st: FallState, seat: int) -> list[int]:
    """The caverns that are not empty and not controlled by ``seat`` (the start of "Seize control")."""
    n = st.game.side.n_caverns
    f = forces(st)
    return [c for c in range(n) if (sum(f[c]) or overrun(st, c)) and controller(st, c, f[c]) != seat]


def has_ability(st: FallState, seat: int, ability: Ability) -> list[int]:
    """The champion cards ``seat`` holds with ``ability``."""
    champs = st.game.pack.champions
    return [c for c, o in enumerate(st.champ_owner) if o == seat and st.champ_state[c] == HELD
            and champs[c].ability == ability]


def draw_gnome(st: FallState) -> int:
    """A random gnome from the supply (-1 if the supply is empty); it stays in the supply until placed."""
    pool = [g for g, x in enumerate(st.gnome_at) if x == SUPPLY]
    if not pool:
        return -1
    return pool[int(st.rng.integers(len(pool)))]


def strength(st: FallState, gnome: int) -> int:
    """A gnome's strength."""
    return st.strength[gnome]
