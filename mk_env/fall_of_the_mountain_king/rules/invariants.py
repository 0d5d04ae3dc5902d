"""The facts every reachable Fall of the Mountain King state obeys, checked by tests after every decision
and by the save reader: every troll, gnome, champion and ancestry card in exactly one place; no cavern
holding both trolls and gnomes; lairs holding only their owner's trolls; honor equal to the sum of its
categories; supplies and tokens in range; the decision awaited consistent with its context; the choices
committed in a simultaneous decision possible for their seats.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from .ancestry import code
from .board import lair_owner
from .fields import DEALT, DISPLAY, HELD, IN_DECK, REMOVED
from .simultaneous import committed_problems
from .stack_checks import stack_problems
from .vocabulary import Phase, Symbol

if TYPE_CHECKING:
    from .state import FallState


class InvariantError(AssertionError):
    """A state that no game can reach; the message names the broken fact."""


#: no count of a game reaches this (a 5-player game takes about 450 decisions and stamps about 50 markers): a
#: saved counter above it is refused
COUNTER_MAX = 100_000

def _shape(st: FallState) -> list[str]:
    """The lengths and ranges every other fact relies on (a hostile save is refused, not crashed on)."""
    g = st.game
    n, size, cells = st.num_players, g.side.size, g.cells
    champs, clans = len(g.pack.champions), len(g.pack.clans)
    want = {"supply": n, "desperation": n, "honor": n, "honor_by": n, "boost": n, "troll_supply": n, "trolls": size,
            "lairs": n, "gnome_at": len(g.gnome_strength), "gnome_public": len(g.gnome_strength),
            "strength": len(g.gnome_strength),
            "known_gates": n, "known_gnomes": n, "hands": n, "seen": n, "grid": n, "covered": n, "placed": n,
            "committed": n,
            "champ_decks": 3, "champ_state": champs, "champ_owner": champs, "champ_loc": champs,
            "claws_used": champs, "dealt": n, "influence": champs, "influence_stamp": champs, "votes": clans,
            "vote_stamp": clans, "vote_tiles": clans, "hall_value": len(g.side.halls),
            "starburst": len(g.side.halls), "elder_bonus": n}
    out = [f"{k} has {len(getattr(st, k))} entries, {v} expected" for k, v in want.items() if len(getattr(st, k)) != v]
    inner = {"trolls": n, "honor_by": 8, "grid": cells, "covered": cells, "influence": n, "influence_stamp": n,
             "votes": n, "vote_stamp": n}
    out += [f"{k} has an entry of the wrong length" for k, v in inner.items()
            if any(len(x) != v for x in getattr(st, k))]
    ranges = {"phase": (0, len(Phase) - 1), "wave": (1, 3), "start_player": (0, n - 1),
              "wheel": (0, len(g.pack.wheel.spaces) - 1), "swarm": (0, clans - 1), "decider": (-1, n - 1),
              "turn_player": (-1, n - 1)}
    out += [f"{k} is {getattr(st, k)}, allowed {lo}..{hi}" for k, (lo, hi) in ranges.items()
            if not lo <= getattr(st, k) <= hi]
    refs = [("gnome_at", -3, size - 1), ("champ_loc", -1, size - 1), ("champ_owner", -1, n - 1),
            ("champ_state", 0, 4), ("invasion", 0, clans - 1), ("gates_aside", 0, clans - 1),
            ("display", 0, champs - 1), ("deck", 0, len(g.pack.cards) - 1), ("starburst", -1, champs - 1)]
    out += [f"{k} holds a value outside {lo}..{hi}" for k, lo, hi in refs
            if any(not lo <= x <= hi for x in getattr(st, k))]
    out += [f"lairs hold a location outside 0..{size - 1}" for lairs in st.lairs
            if any(not 0 <= x < size for x in lairs)]
    big = COUNTER_MAX
    nested = [("grid", -1, code(max(Symbol), 3)), ("covered", 0, 1), ("hands", 0, len(g.pack.cards) - 1),
              ("seen", 0, len(g.pack.cards) - 1), ("dealt", 0, champs - 1), ("champ_decks", 0, champs - 1),
              ("known_gnomes", 0, len(g.gnome_strength) - 1), ("known_gates", 0, max(g.pack.rules.invasion_cards) - 1),
              ("influence", 0, big), ("influence_stamp", 0, big), ("votes", 0, big), ("vote_stamp", 0, big),
              ("honor_by", 0, big)]
    out += [f"{k} holds a value outside {lo}..{hi}" for k, lo, hi in nested
            if any(not lo <= x <= hi for row in getattr(st, k) for x in row)]
    flat = [("boost", 0, g.pack.wheel.boost_track), ("elder_bonus", 0, big)]
    out += [f"{k} holds a value outside {lo}..{hi}" for k, lo, hi in flat
            if any(not lo <= x <= hi for x in getattr(st, k))]
    if not 0 <= st.stamp <= big:
        out.append(f"stamp is {st.stamp}, allowed 0..{big}")
    if any(x > st.stamp for rows in (st.influence_stamp, st.vote_stamp) for row in rows for x in row):
        out.append(f"a marker's stamp is above the counter stamp {st.stamp} that stamps them")
    if any(x not in (0, 1) for x in st.gnome_public):
        out.append("gnome_public holds a value other than 0 and 1")
    if any(not 0 <= x <= big for x in st.desperation):
        out.append(f"desperation holds a value outside 0..{big}")
    tokens = {0, *(int(t) for t in g.pack.hall_tokens)}
    if any(x not in tokens for x in st.hall_value):
        out.append(f"hall_value holds a value that is no Great Hall token's (allowed: {sorted(tokens)})")
    out += [f"champion {c} has {u} claws used, allowed 0..{ch.claws}" for c, (u, ch)
            in enumerate(zip(st.claws_used, g.pack.champions)) if not 0 <= u <= max(ch.claws, 0)]
    out += [f"placed[{p}] is not (card, canvas cell) pairs" for p, row in enumerate(st.placed)
            if len(row) % 2 or any(not 0 <= a < cells for a in row[1::2])
            or any(not 0 <= c < len(g.pack.cards) for c in row[0::2])]
    if sorted(st.vote_tiles) != list(range(clans)):
        out.append(f"vote_tiles is not one tile per clan (a permutation of 0..{clans - 1})")
    if st.invasion and sorted(st.invasion + st.gates_aside) != list(range(clans)):
        out.append(f"invasion and gates_aside are not the {clans} gate cards, each once")
    if len(set(st.display)) != len(st.display):
        out.append("display holds a champion twice")
    out += [f"{k} is {getattr(st, k)}, allowed {lo}..{hi}" for k, lo, hi in
            (("revealed", 0, len(st.invasion)), ("falls", 0, big), ("turn", -1, big))
            if not lo <= getattr(st, k) <= hi]
    return out


def problems(st: FallState) -> list[str]:
    """Every broken fact of ``st`` (empty: a consistent state)."""
    shape = _shape(st)
    if shape:
        return shape
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
    if sorted(st.strength) != sorted(g.gnome_strength):
        out.append("the gnomes' strengths are not the pack's gnomes")
    out += _champions(st)
    out += _cards(st)
    out += committed_problems(st)
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
    """Raise :class:`InvariantError` naming the broken facts, if any (the engine's task stack and the
    decision's context included: :func:`~.stack_checks.stack_problems`)."""
    found = problems(st) or stack_problems(st)
    if found:
        raise InvariantError("; ".join(found))
