"""Statues (rulebook, *Step 4: Move statues*): which unearthed statues of your network may move, where
one cart takes them, and the move itself (paid with a cart of the statue's clan or a wild one, or free
while a spell's free moves are left this turn). Legal moves, application and explanation side by side.

A spell's free moves (Tremor: "Make 2 statue moves in your network this turn without spending carts")
last the whole turn: made at once when it is cast (``SPELL_STATUE``), or kept and made in step 2, step 3
or step 4 (first, before any cart is spent). See docs/rules-decisions.md."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from . import economy as eco
from .board import board_memo
from .content import CART, CLAN_CART0, N_CLANS
from .spellbook import finish_spell
from .vocabulary import EMPTY, Phase

if TYPE_CHECKING:
    from .state import GameState

SPELL_STATUE, STATUE_DEST, STEP4 = int(Phase.SPELL_STATUE), int(Phase.STATUE_DEST), int(Phase.STEP4)


# -- legal moves -------------------------------------------------------------------------------------
def statue_reach(st: GameState, p: int) -> dict[int, np.ndarray]:
    """For each tunnel (region) of p's network, the squares one cart can reach from it: its own
    squares and those of the tunnels adjacent to it, within p's network."""
    def compute() -> dict[int, np.ndarray]:
        nb = st.game.geo.neighbour_lists
        own = st.reach[p].tolist()
        region = st.region.tolist()
        squares: dict[int, list[int]] = {}
        for sq in st.reach[p, :-1].nonzero()[0].tolist():
            squares.setdefault(region[sq], []).append(sq)
        out: dict[int, np.ndarray] = {}
        for r, mine in squares.items():
            near = {r}
            for sq in mine:
                for t in nb[sq]:
                    if own[t]:
                        near.add(region[t])
            out[r] = np.array(sorted(x for n in near for x in squares[n]), dtype=np.int64)
        return out
    return board_memo(st, "statue_reach", p, compute)


def statue_destinations(st: GameState, p: int, sq: int) -> np.ndarray:
    """Where one cart moves the statue on ``sq``: any free square of its own tunnel or of a tunnel
    adjacent to it, within p's network (halls, protruding parts and the gate are tunnels too)."""
    cand = statue_reach(st, p).get(int(st.region[sq]))
    if cand is None:
        return EMPTY
    return cand[st.statue[cand] < 0]


def movable_statues(st: GameState, p: int, free: bool) -> list[int]:
    """Squares of unearthed statues in p's network that can move now (a cart of their clan or a wild
    one, unless the move is free)."""
    squares = ((st.statue[:-1] >= 0) & st.reach[p, :-1]).nonzero()[0]
    if len(squares) == 0:
        return []
    carts = None if free else [eco.carts_for_clan(st, p, c) for c in range(N_CLANS)]
    out = []
    for sq in squares.tolist():
        if carts is not None and carts[int(st.statue[sq])] < 1:
            continue
        if len(statue_destinations(st, p, sq)):
            out.append(sq)
    return out


def free_statues(st: GameState, p: int) -> list[int]:
    """A spell's free move: every statue that has somewhere to go."""
    return movable_statues(st, p, free=True)


def move_is_free(st: GameState) -> bool:
    """Whether the next statue move costs no cart: a spell's free moves are left this turn."""
    return st.free_moves > 0


def statues_to_select(st: GameState, p: int) -> list[int]:
    """The statues p may select now, in steps 2 to 4: with free moves left, every statue that has
    somewhere to go (steps 2-4); without, in step 4 only, those a cart of their clan or a wild one can
    move."""
    if st.free_moves > 0:
        return movable_statues(st, p, free=True)
    return movable_statues(st, p, free=False) if st.phase == STEP4 else []


def selected_statue_destinations(st: GameState, p: int) -> np.ndarray:
    """``STATUE_DEST``'s choices: the destinations of the statue selected."""
    return statue_destinations(st, p, st.pending.statue_square)


# -- application ---------------------------------------------------------------------------------------
def apply_select_statue(st: GameState, p: int, sq: int) -> None:
    """Select the statue on ``sq``; its destination is the next decision."""
    st.pending = st.pending._replace(statue_square=sq, statue_from_phase=st.phase)
    st.phase = STATUE_DEST


def apply_move_statue(st: GameState, p: int, dest: int) -> None:
    """Move the selected statue to ``dest``, free while a spell's free moves are left (in the spell's
    own decision, the spell ends with its last move), else paid with a cart of its clan (else a wild
    one); back to the phase the statue was selected in."""
    src = st.pending.statue_square
    clan = int(st.statue[src])
    st.statue[dest] = clan
    st.statue[src] = -1
    back = st.pending.statue_from_phase
    st.pending = st.pending._replace(statue_square=None, statue_from_phase=None)
    if back == SPELL_STATUE:
        st.free_moves -= 1
        if st.free_moves <= 0:
            finish_spell(st)
        else:
            st.phase = SPELL_STATUE
        return
    if st.free_moves > 0:  # a free move kept for later in the turn
        st.free_moves -= 1
    else:
        eco.pay(st, p, CART, 1, kinds=[CLAN_CART0 + clan, CART])
    st.phase = back


# -- explanation ---------------------------------------------------------------------------------------
def why_not_select_statue(st: GameState, p: int, arg: int, have: np.ndarray) -> str:
    """Why selecting the statue on square ``arg`` is illegal now."""
    return "there is no statue of your network there that can move now"


def why_not_move_statue(st: GameState, p: int, arg: int, have: np.ndarray) -> str:
    """Why moving the selected statue to square ``arg`` is illegal now."""
    return "that square is not a free square of the statue's tunnel or of an adjacent tunnel of your network"
