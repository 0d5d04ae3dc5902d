"""Digging (rulebook, *Step 2: Dig*): where a tunnel may go, paying for it, placing it, the buried
resources, the pedestal on its anchor and a workshop on each newly touched site. Legal moves, their
application and why one is illegal, side by side. A dig is one decision or a few: the placement
(``Block.DIG``), then the mineral when several would pay (``DIG_MINERAL``), a pedestal (``DIG_PEDESTAL``,
may decline) and a workshop per empty site touched (``DIG_WORKSHOP``, may decline)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from . import economy as eco
from .board import board_memo, memo_key, opponent_network, place_tile
from .content import HAMMER, MINERALS, N_CLANS
from .spellbook import finish_spell
from .vocabulary import NO_PENDING, Phase, SquareKind

if TYPE_CHECKING:
    from .state import GameState

SPELL_DIG, DIG_MINERAL, DIG_PEDESTAL, DIG_WORKSHOP, STEP3 = (
    int(Phase.SPELL_DIG), int(Phase.DIG_MINERAL), int(Phase.DIG_PEDESTAL), int(Phase.DIG_WORKSHOP), int(Phase.STEP3))
_EMPTY_SQUARE = int(SquareKind.EMPTY)  # numpy compares a plain int faster than an IntEnum member
#: the state fields :func:`legal_digs` reads: the board's (``kind``, ``reach``; keyed by ``board_version``),
#: what the player owns (``tokens``, ``storage``: keyed by the largest mineral count and the hammers),
#: Clear Passage (``ignore_rubble``) and the tiles left (``tunnel_supply``)
LEGAL_DIGS_READS = ("board_version", "kind", "reach", "tokens", "storage", "ignore_rubble", "tunnel_supply")
#: how each field :func:`legal_digs` reads enters its memo key: an expression of the state ``st`` and what
#: the player owns (``have``); None: covered by another part. Board fields enter through ``board_version``.
_DIGS_KEY_PARTS = {
    "board_version": "st.board_version",
    "tokens": "max(have[:3].tolist()), int(have[HAMMER])",  # what is owned: the largest mineral count, hammers
    "storage": None,  # with tokens
    "ignore_rubble": "st.ignore_rubble",
    "tunnel_supply": "st.tunnel_supply.tobytes()",
}
#: the key, derived from the declaration (a declared field without a part fails here, at import)
_digs_key = memo_key(LEGAL_DIGS_READS, _DIGS_KEY_PARTS, "st, have", {"HAMMER": HAMMER})


# -- legal moves -------------------------------------------------------------------------------------
def dig_geometry(st: GameState, p: int) -> np.ndarray:
    """Tunnel placements that are free, beside p's network and not beside an opponent's."""
    def compute() -> np.ndarray:
        geo = st.game.geo
        table = geo.tunnel_placements
        cand = geo.tunnels_beside.lookup(st.reach[p].nonzero()[0])
        if len(cand):
            free = st.kind == _EMPTY_SQUARE
            cand = cand[free[table.cells[cand]].all(axis=1)]
            opp = opponent_network(st, p)
            cand = cand[~opp[table.nbrs[cand]].any(axis=1)]
        return cand
    return board_memo(st, "dig", p, compute)


def legal_digs(st: GameState, p: int, have: np.ndarray | None = None) -> np.ndarray:
    """Tunnel placements p may dig now: geometry, a stack left, minerals of one kind, hammers.
    Memoised (one entry per player) on what it reads (:data:`LEGAL_DIGS_READS`), so trades that leave
    the largest mineral count and the hammers as they were reuse it."""
    cand = dig_geometry(st, p)
    if len(cand) == 0:
        return cand
    have = eco.owned(st, p) if have is None else have
    key = _digs_key(st, have)
    hit = st._cache.get(("digs", p))
    if hit is not None and hit[0] == key:
        return hit[1]
    minerals, hammers = max(have[:3].tolist()), (-1 if st.ignore_rubble else int(have[HAMMER]))
    table = st.game.geo.tunnel_placements
    ok = (table.size[cand] <= minerals) & (st.tunnel_supply[table.piece[cand]] > 0)
    if hammers >= 0:
        ok &= table.rubble[cand] <= hammers
    out = cand[ok]
    st._cache[("digs", p)] = (key, out)
    return out


def minerals_paying(st: GameState, p: int, placement: int) -> np.ndarray:
    """The minerals of which p owns enough to pay for tunnel ``placement`` (one: paid at once; more: asked)."""
    size = int(st.game.geo.tunnel_placements.size[placement])
    return (eco.owned(st, p)[:3] >= size).nonzero()[0]


def payable_minerals(st: GameState, p: int) -> np.ndarray:
    """The minerals that would pay for the tunnel being dug (``DIG_MINERAL``'s choices)."""
    return minerals_paying(st, p, st.pending.dig)


def legal_pedestal_clans(st: GameState, p: int) -> list[int]:
    """Clans of p's pedestals that may go on the new tunnel's anchor: one in storage, and that clan's
    point token on the anchor's tier still on the track."""
    anchor = int(st.game.geo.tunnel_placements.anchor[st.pending.dig])
    tier = int(st.game.geo.tier[anchor]) - 1
    s = st.game.storage_of[p]
    return [c for c in range(N_CLANS) if st.storage_pedestals[s, c] > 0 and st.track_taken[tier, c] < 0]


def workshops_to_establish(st: GameState, _p: int) -> np.ndarray:
    """The workshop kinds in the supply (``DIG_WORKSHOP``'s choices)."""
    return (st.workshop_supply > 0).nonzero()[0]


# -- application ---------------------------------------------------------------------------------------
def apply_dig(st: GameState, p: int, i: int) -> None:
    """Dig placement ``i`` (step 2, or a spell's dig): pay with the only mineral that pays, or ask which."""
    st.pending = st.pending._replace(dig=i, dig_for_spell=st.phase == SPELL_DIG)
    minerals = minerals_paying(st, p, i)
    if len(minerals) == 1:
        _dig(st, p, int(minerals[0]))
    else:
        st.phase = DIG_MINERAL


def apply_mineral(st: GameState, p: int, m: int) -> None:
    """Pay for the tunnel being dug with mineral ``m``."""
    _dig(st, p, m)


def _dig(st: GameState, p: int, mineral: int) -> None:
    """Pay, place the tunnel, score it, gain buried resources (statues are unearthed in place)."""
    game = st.game
    table = game.geo.tunnel_placements
    i = st.pending.dig
    size = int(table.size[i])
    cells = table.cells[i, :size]
    piece = int(table.piece[i])
    eco.pay(st, p, mineral, size)
    if not st.ignore_rubble:
        eco.pay(st, p, HAMMER, int(table.rubble[i]))
    st.tunnel_supply[piece] -= 1
    place_tile(st, cells, SquareKind.TUNNEL, piece)
    st.honour[p] += game.pack.tunnel_honour[size][MINERALS[mineral]]
    for sq in cells.tolist():
        if st.buried[sq] >= 0:
            eco.gain(st, p, int(st.buried[sq]), 1)
            st.buried[sq] = -1
    if table.anchor[i] >= 0 and legal_pedestal_clans(st, p):
        st.phase = DIG_PEDESTAL
        return
    dig_workshops(st, p)


def place_pedestal(st: GameState, p: int, clan: int) -> None:
    """``DIG_PEDESTAL``: place it on the new tunnel's anchor and take the track's point token."""
    geo = st.game.geo
    anchor = int(geo.tunnel_placements.anchor[st.pending.dig])
    tier = int(geo.tier[anchor]) - 1
    st.pedestal[anchor] = clan
    st.storage_pedestals[st.game.storage_of[p], clan] -= 1
    st.track_taken[tier, clan] = p
    st.pedestal_points[p] += st.track_value[tier, clan]
    st.pedestal_tokens[p] += 1
    dig_workshops(st, p)


def dig_workshops(st: GameState, p: int) -> None:
    """After the pedestal (or none): ask for a workshop on each empty site the tunnel touched."""
    table = st.game.geo.tunnel_placements
    sites = tuple(s for s in table.sites[st.pending.dig] if st.workshop[s] < 0)
    st.pending = st.pending._replace(sites_left=sites)
    if sites and st.workshop_supply.sum() > 0:
        st.phase = DIG_WORKSHOP
    else:
        _end_dig(st)


def apply_establish(st: GameState, p: int, w: int) -> None:
    """Establish workshop kind ``w`` on the next site the tunnel touched."""
    site = st.pending.sites_left[0]
    st.workshop[site] = w
    st.workshop_supply[w] -= 1
    next_site(st, p)


def next_site(st: GameState, p: int) -> None:
    """On to the next site (after establishing a workshop or declining one)."""
    rest = st.pending.sites_left[1:]
    st.pending = st.pending._replace(sites_left=rest)
    if rest and st.workshop_supply.sum() > 0:
        st.phase = DIG_WORKSHOP
    else:
        _end_dig(st)


def _end_dig(st: GameState) -> None:
    """Back to the spell that dug, or on to step 3."""
    if st.pending.dig_for_spell:
        finish_spell(st)
    else:
        st.pending = NO_PENDING
        st.phase = STEP3


# -- explanation ---------------------------------------------------------------------------------------
def why_not_dig(st: GameState, p: int, arg: int, have: np.ndarray) -> str:
    """Why digging placement ``arg`` is illegal now."""
    game = st.game
    table = game.geo.tunnel_placements
    piece, size = int(table.piece[arg]), int(table.size[arg])
    cells = table.cells[arg, :size]
    if st.tunnel_supply[piece] <= 0:
        return f"no {game.pack.tunnels[piece].name} tiles are left in the supply"
    if (st.kind[cells] != _EMPTY_SQUARE).any():
        return "it would overlap another tile"
    if not st.reach[p][table.nbrs[arg]].any():
        return "it is not adjacent to your network"
    if opponent_network(st, p)[table.nbrs[arg]].any():
        return "it would be adjacent to an opponent's network"
    if have[:3].max() < size:
        return f"it costs {size} minerals of one kind and you own {dict(zip(MINERALS, have[:3].tolist()))}"
    return f"it covers {int(table.rubble[arg])} rubble and you own {int(have[HAMMER])} hammers"
