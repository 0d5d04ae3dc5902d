"""The board as the rules see it: networks, where tunnels and great halls may go, statue moves and
workshop entrances. Queries are memoised on the state until the board changes."""

from __future__ import annotations

from collections import deque

import numpy as np

from . import economy as eco
from .content import HAMMER, N_CLANS
from .state import GameState
from .vocabulary import EMPTY, SquareKind

# square kinds as plain ints: numpy compares an array with an IntEnum member five times slower
EMPTY_SQUARE, TUNNEL = int(SquareKind.EMPTY), int(SquareKind.TUNNEL)


def recompute_networks(st: GameState) -> None:
    """Each player's network: every tile square connected to their gate (isolated tiles belong to
    nobody until reconnected)."""
    nb = st.game.geo.neighbour_lists
    st.reach[:] = False
    occupied = (st.kind > EMPTY_SQUARE).tolist()
    for p, gate in enumerate(st.gate_sq.tolist()):
        if gate < 0:
            continue
        seen = {gate}
        todo = [gate]
        while todo:
            s = todo.pop()
            for t in nb[s]:
                if occupied[t] and t not in seen:
                    seen.add(t)
                    todo.append(t)
        st.reach[p, list(seen)] = True
    st.reach[:, -1] = False


def opponent_network(st: GameState, p: int) -> np.ndarray:
    """Squares of every network not on p's team."""
    mates = st.game.teammates[p]
    others = [q for q in range(st.num_players) if q not in mates]
    if not others:
        return np.zeros(st.reach.shape[1], bool)
    return st.reach[others].any(axis=0)


def board_memo(st: GameState, name: str, p: int, compute):
    """``compute()`` memoised on the state until the board changes (tiles, halls, gates)."""
    key = (name, p)
    hit = st._cache.get(key)
    if hit is not None and hit[0] == st.board_version:
        return hit[1]
    value = compute()
    st._cache[key] = (st.board_version, value)
    return value


def dig_geometry(st: GameState, p: int) -> np.ndarray:
    """Tunnel placements that are free, beside p's network and not beside an opponent's."""
    def compute() -> np.ndarray:
        geo = st.game.geo
        table = geo.tunnel_placements
        cand = geo.tunnels_beside.lookup(st.reach[p].nonzero()[0])
        if len(cand):
            free = st.kind == EMPTY_SQUARE
            cand = cand[free[table.cells[cand]].all(axis=1)]
            opp = opponent_network(st, p)
            cand = cand[~opp[table.nbrs[cand]].any(axis=1)]
        return cand
    return board_memo(st, "dig", p, compute)


def legal_digs(st: GameState, p: int, have: np.ndarray | None = None) -> np.ndarray:
    """Tunnel placements p may dig now: geometry, a stack left, minerals of one kind, hammers.
    Memoised (one entry per player) on what it reads, so trades that leave the largest mineral
    count and the hammers as they were reuse it."""
    cand = dig_geometry(st, p)
    if len(cand) == 0:
        return cand
    have = eco.owned(st, p) if have is None else have
    minerals, hammers = max(have[:3].tolist()), (-1 if st.ignore_rubble else int(have[HAMMER]))
    key = (st.board_version, minerals, hammers, st.tunnel_supply.tobytes())
    hit = st._cache.get(("digs", p))
    if hit is not None and hit[0] == key:
        return hit[1]
    table = st.game.geo.tunnel_placements
    ok = (table.size[cand] <= minerals) & (st.tunnel_supply[table.piece[cand]] > 0)
    if hammers >= 0:
        ok &= table.rubble[cand] <= hammers
    out = cand[ok]
    st._cache[("digs", p)] = (key, out)
    return out


def legal_halls(st: GameState, p: int) -> np.ndarray:
    """Great hall placements over tunnels of p's own network only, gap-free, hall still in supply."""
    def compute() -> np.ndarray:
        geo = st.game.geo
        tunnels = (st.kind == TUNNEL) & st.reach[p]
        sqs = tunnels.nonzero()[0]
        if len(sqs) == 0:
            return EMPTY
        cand = geo.halls_over.lookup(sqs)
        table = geo.hall_placements
        cand = cand[st.hall_altar[table.piece[cand]] < 0]
        tunnels[-1] = True  # the padding of smaller halls
        return cand[tunnels[table.cells[cand]].all(axis=1)]
    return board_memo(st, "halls", p, compute)


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


def workshop_touch(st: GameState, p: int) -> tuple[np.ndarray, np.ndarray]:
    """Per workshop site: does p's network touch an entrance; how many entrances are open (sides
    touching any network)."""
    def compute() -> tuple[np.ndarray, np.ndarray]:
        geo = st.game.geo
        nbrs = geo.neighbours[geo.site_squares]
        any_net = st.reach.any(axis=0)
        return st.reach[p][nbrs].any(axis=1), any_net[nbrs].sum(axis=1)
    return board_memo(st, "workshops", p, compute)


def place_tile(st: GameState, cells, kind: SquareKind, shape: int) -> None:
    """Lay a new tile of ``kind`` (tunnel ``shape``, -1 for gates and halls) on ``cells``."""
    st.kind[cells] = int(kind)
    st.tile[cells] = st.next_tile
    st.region[cells] = st.next_region
    st.tile_shape = st.tile_shape + [shape]
    st.next_tile += 1
    st.next_region += 1
    st.board_version += 1
    recompute_networks(st)


def split_protrusions(st: GameState, tile_id: int) -> None:
    """Each connected part of a tunnel left uncovered by a hall becomes a tunnel of its own."""
    nb = st.game.geo.neighbour_lists
    rest = set(((st.tile == tile_id) & (st.kind == TUNNEL)).nonzero()[0].tolist())
    while rest:
        start = rest.pop()
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


# -- step 4: statues --------------------------------------------------------------------------------
