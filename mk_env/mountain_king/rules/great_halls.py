"""Great halls (rulebook, *Step 3: Dedicate a great hall*): where a hall may be laid (over tunnels of
your own network only, gap-free, the hall still in the supply) and laying it (covered pedestals leave the
game, statues stay, protruding parts of covered tunnels become tunnels of their own). Legal moves,
application and explanation side by side."""

from __future__ import annotations

from collections import deque
from typing import TYPE_CHECKING

import numpy as np

from .board import board_memo, place_tile
from .vocabulary import EMPTY, Phase, SquareKind

if TYPE_CHECKING:
    from .state import GameState

STEP4 = int(Phase.STEP4)
_TUNNEL = int(SquareKind.TUNNEL)  # numpy compares a plain int faster than an IntEnum member


# -- legal moves -------------------------------------------------------------------------------------
def legal_halls(st: GameState, p: int) -> np.ndarray:
    """Great hall placements over tunnels of p's own network only, gap-free, hall still in supply."""
    def compute() -> np.ndarray:
        geo = st.game.geo
        tunnels = (st.kind == _TUNNEL) & st.reach[p]
        sqs = tunnels.nonzero()[0]
        if len(sqs) == 0:
            return EMPTY
        cand = geo.halls_over.lookup(sqs)
        table = geo.hall_placements
        cand = cand[st.hall_altar[table.piece[cand]] < 0]
        tunnels[-1] = True  # the padding of smaller halls
        return cand[tunnels[table.cells[cand]].all(axis=1)]
    return board_memo(st, "halls", p, compute)


# -- application ---------------------------------------------------------------------------------------
def apply_hall(st: GameState, p: int, i: int) -> None:
    """Lay the hall over the tunnels: covered pedestals leave the game (their tokens and the track
    stay), statues stay in place, protruding parts of covered tunnels become tunnels of their own."""
    table = st.game.geo.hall_placements
    size = int(table.size[i])
    cells = table.cells[i, :size]
    hall = int(table.piece[i])
    covered_tiles = {int(t) for t in st.tile[cells]}
    st.pedestal[cells] = -1
    st.hall_at[cells] = hall
    st.hall_altar[hall] = table.anchor[i]
    place_tile(st, cells, SquareKind.GREAT_HALL, -1)
    for t in sorted(covered_tiles):  # ascending: region ids by tile id (the native engine's order too)
        split_protrusions(st, t)
    st.phase = STEP4


def split_protrusions(st: GameState, tile_id: int) -> None:
    """Each connected part of a tunnel left uncovered by a hall becomes a tunnel of its own."""
    nb = st.game.geo.neighbour_lists
    rest = set(((st.tile == tile_id) & (st.kind == _TUNNEL)).nonzero()[0].tolist())
    while rest:
        start = min(rest)  # the lowest square first: region ids in square order (the native engine's too)
        rest.discard(start)
        part, todo = [start], deque([start])
        while todo:
            s = todo.popleft()
            for t in nb[s]:
                if t in rest:
                    rest.discard(t)
                    part.append(t)
                    todo.append(t)
        st.region[part] = st.next_region
        st.next_region += 1


# -- explanation ---------------------------------------------------------------------------------------
def why_not_hall(st: GameState, p: int, arg: int, have: np.ndarray) -> str:
    """Why dedicating placement ``arg`` is illegal now."""
    game = st.game
    hall = int(game.geo.hall_placements.piece[arg])
    if st.hall_altar[hall] >= 0:
        return f"{game.pack.great_halls[hall].name} is already dedicated"
    return "a great hall must cover only tunnels of your own network, exactly and without gaps"
