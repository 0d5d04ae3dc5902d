"""Workshops (rulebook, *Step 1: Activate a workshop*): which established workshops your network
touches, activating one (one use per open entrance, its sides touching any network) and its
conversions. Legal moves, application and explanation side by side. Establishing a workshop is part of
digging (:mod:`mk_env.mountain_king.rules.digging`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from . import economy as eco
from .board import board_memo
from .content import CART, N_RESOURCES, TOKEN_RESOURCE
from .vocabulary import Phase

if TYPE_CHECKING:
    from .state import GameState

STEP1, WORKSHOP = int(Phase.STEP1), int(Phase.WORKSHOP)


# -- legal moves -------------------------------------------------------------------------------------
def workshop_touch(st: GameState, p: int) -> tuple[np.ndarray, np.ndarray]:
    """Per workshop site: does p's network touch an entrance; how many entrances are open (sides
    touching any network)."""
    def compute() -> tuple[np.ndarray, np.ndarray]:
        geo = st.game.geo
        nbrs = geo.neighbours[geo.site_squares]
        any_net = st.reach.any(axis=0)
        return st.reach[p][nbrs].any(axis=1), any_net[nbrs].sum(axis=1)
    return board_memo(st, "workshops", p, compute)


def activatable_sites(st: GameState, p: int) -> list[int]:
    """Sites whose workshop p may activate now: an activation left this turn, a workshop established,
    p's network touching an entrance, not activated already this turn."""
    if st.workshops_left <= 0:
        return []
    touch = workshop_touch(st, p)[0] & (st.workshop >= 0)
    touch[st.used_sites] = False
    return touch.nonzero()[0].tolist()


def legal_conversions(st: GameState, p: int, have: np.ndarray | None = None) -> list[int]:
    """The active workshop's conversions p can afford, with the supply holding what they gain."""
    layout = st.game.layout
    w = int(st.workshop[st.active_site])
    if st.uses_left <= 0:
        return []
    shop = st.game.pack.workshops[w]
    have = eco.owned(st, p) if have is None else have
    if shop.wild_carts_only:
        have = have.copy()
        have[CART] = eco.wild_carts(st, p)
    ok = (layout.conv_workshop == w) & (layout.conv_give <= have).all(axis=1)
    out = []
    for j in ok.nonzero()[0].tolist():
        conv = layout.conversions[j]
        if conv.move is not None:
            if st.tokens[p, conv.move[0], conv.move[1]] > 0:
                out.append(int(j))
        elif all(st.supply[r] >= conv.gain[r] for r in range(N_RESOURCES)):
            out.append(int(j))
    return out


# -- application ---------------------------------------------------------------------------------------
def apply_activate_workshop(st: GameState, p: int, site: int) -> None:
    """Activate the workshop on ``site``: one use per open entrance."""
    st.workshops_left -= 1
    st.used_sites = st.used_sites + [site]
    st.active_site = site
    st.uses_left = int(workshop_touch(st, p)[1][site])
    st.phase = WORKSHOP


def apply_workshop_use(st: GameState, p: int, j: int) -> None:
    """Use conversion ``j`` of the active workshop (the Quartermaster moves a token to storage)."""
    conv = st.game.layout.conversions[j]
    if conv.move is not None:
        slot, kind = conv.move
        st.tokens[p, slot, kind] -= 1
        st.storage[st.game.storage_of[p], TOKEN_RESOURCE[kind]] += 1
    else:
        shop = st.game.pack.workshops[conv.workshop]
        eco.pay_vector(st, p, conv.give, wild_carts_only=shop.wild_carts_only)
        eco.gain_vector(st, p, conv.gain)
    st.uses_left -= 1
    if st.uses_left <= 0:
        st.phase, st.active_site = STEP1, -1


def stop_workshop(st: GameState, p: int) -> None:
    """Pass in the workshop: back to step 1."""
    st.phase, st.active_site, st.uses_left = STEP1, -1, 0


# -- explanation ---------------------------------------------------------------------------------------
def why_not_activate_workshop(st: GameState, p: int, arg: int, have: np.ndarray) -> str:
    """Why activating the workshop on site ``arg`` is illegal now."""
    if st.workshop[arg] < 0:
        return "no workshop is established on that site"
    if arg in st.used_sites or st.workshops_left <= 0:
        return "you already activated a workshop this turn"
    return "your network does not touch any entrance of that workshop"
