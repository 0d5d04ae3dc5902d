"""Invariants of the board: statues, tiles, great halls, pedestals, networks and buried resources."""

from __future__ import annotations

from collections import deque
from typing import TYPE_CHECKING

import numpy as np

from ..actions import HORDE_ROW, N_HORDE
from ..content import CLANS, RESOURCES
from .totals import EMPTY, GATE, GREAT_HALL, TUNNEL, fail, pedestal_places, tunnels_dug

if TYPE_CHECKING:
    from ..state import GameState


def check_statues(state: GameState) -> None:
    """Statues: valid clans, at most ``statues_per_clan`` each, only on a tile or on a statue spot
    (still buried there), none on the sentinel; as many as setup dealt (one per spot, clans in turn)."""
    game = state.game
    geo, pack = game.geo, game.pack
    statue = state.statue
    if statue[-1] != -1:
        fail("statues", "a statue is on the sentinel square")
    bad = (statue < -1) | (statue >= len(CLANS))
    if bad.any():
        fail("statues", f"invalid statue clan {int(statue[bad][0])} at square {int(np.flatnonzero(bad)[0])}")
    counts = np.bincount(statue[statue >= 0], minlength=len(CLANS))
    if (counts > pack.statues_per_clan).any():
        fail("statues", f"counts by clan {counts.tolist()} exceed statues_per_clan={pack.statues_per_clan}")
    spots = np.zeros(geo.n_squares + 1, bool)
    spots[[geo.sq(r, c) for r, c in geo.side.statue_spots]] = True
    stray = (statue >= 0) & (state.kind == EMPTY) & ~spots
    if stray.any():
        fail("statues", f"statue on empty square {geo.rc(int(np.flatnonzero(stray)[0]))} that is no statue spot")
    # setup puts one statue on each spot, the clans in turn (the loader keeps spots below the statues), and
    # statues never leave the board: the clans' counts differ by at most one and add up to the spots
    n_spots = len(geo.side.statue_spots)
    dealt = sorted(n_spots // len(CLANS) + (c < n_spots % len(CLANS)) for c in range(len(CLANS)))
    if sorted(counts.tolist()) != dealt:
        fail("statues", f"statues by clan {counts.tolist()} on the board; setup deals {n_spots} spots as {dealt} "
                         f"(in some clan order) and statues never leave the board")


def check_tiles(state: GameState) -> None:
    """Tiles: only on placeable squares (on the board, not the heart, not a workshop site); gates one
    square each; each tunnel tile covers its shape's size unless a hall covers part of it; great
    halls cover their size, only over former tunnel squares; tile ids and the tile supply agree."""
    game = state.game
    geo, pack = game.geo, game.pack
    kind, tile = state.kind, state.tile
    if kind[-1] != EMPTY or tile[-1] != -1 or state.region[-1] != -1 or state.hall_at[-1] != -1:
        fail("tiles", "the sentinel square holds a tile")
    if ((kind < EMPTY) | (kind > GREAT_HALL)).any():
        fail("tiles", f"unknown square kinds {sorted(set(kind.tolist()) - {0, 1, 2, 3})}")
    occupied = kind > EMPTY
    if (occupied != (tile >= 0)).any():
        sq = int(np.flatnonzero(occupied != (tile >= 0))[0])
        fail("tiles", f"square {geo.rc(sq)} has kind {int(kind[sq])} but tile id {int(tile[sq])}")
    if (occupied != (state.region >= 0)).any():
        sq = int(np.flatnonzero(occupied != (state.region >= 0))[0])
        fail("tiles", f"square {geo.rc(sq)} has kind {int(kind[sq])} but region {int(state.region[sq])}")
    off = occupied & ~geo.placeable
    if off.any():
        sq = int(np.flatnonzero(off)[0])
        fail("tiles", f"a tile lies on unplaceable square {geo.rc(sq)} (off the board, the heart or a "
                       f"workshop site)")
    if len(state.tile_shape) != state.next_tile or (tile >= state.next_tile).any():
        fail("tiles", f"{len(state.tile_shape)} tile shapes recorded, next_tile={state.next_tile}, "
                       f"largest tile id on the board {int(tile.max())}")
    # gates: one square each, exactly the players' gate squares
    gates = sorted(int(s) for s in state.gate_sq if s >= 0)
    if sorted(np.flatnonzero(kind == GATE).tolist()) != gates:
        fail("tiles", f"gate squares on the board {np.flatnonzero(kind == GATE).tolist()} differ from "
                       f"the players' gates {gates}")
    # tunnels: size of the shape, less what halls cover; halls are laid over tunnels only
    sizes = [t.size for t in pack.tunnels]
    per_tile = np.bincount(tile[(kind == TUNNEL)], minlength=state.next_tile)
    for t, shape in enumerate(state.tile_shape):
        if shape >= 0 and per_tile[t] > sizes[shape]:
            fail("tiles", f"tunnel tile {t} ({pack.tunnels[shape].name}) covers {int(per_tile[t])} "
                           f"squares, more than its size {sizes[shape]}")
        if shape < 0 and per_tile[t] > 0:
            fail("tiles", f"tile {t} is no tunnel but {int(per_tile[t])} squares call it a tunnel")
    halls_sq = int((kind == GREAT_HALL).sum())
    dug = sum(sizes[s] for s in state.tile_shape if s >= 0)
    if dug != int((kind == TUNNEL).sum()) + halls_sq:
        fail("tiles", f"tunnels dug cover {dug} squares but the board has {int((kind == TUNNEL).sum())} "
                       f"tunnel squares + {halls_sq} great-hall squares (overlap or lost squares)")
    if halls_sq == 0:
        for t, shape in enumerate(state.tile_shape):
            if shape >= 0 and per_tile[t] != sizes[shape]:
                fail("tiles", f"tunnel tile {t} covers {int(per_tile[t])} squares, its shape has {sizes[shape]}")
    check_halls(state)
    dug_by_shape = tunnels_dug(state)
    for s, shape in enumerate(pack.tunnels):
        if int(state.tunnel_supply[s]) + int(dug_by_shape[s]) != shape.count:
            fail("tiles", f"{shape.name}: {int(state.tunnel_supply[s])} in the supply + "
                           f"{int(dug_by_shape[s])} dug != {shape.count} tiles")


def check_halls(state: GameState) -> None:
    """Great halls: squares and hall ids agree; a dedicated hall covers its size, its altar, one tile."""
    geo, pack = state.game.geo, state.game.pack
    kind, hall_at = state.kind, state.hall_at
    if ((kind == GREAT_HALL) != (hall_at >= 0)).any():
        sq = int(np.flatnonzero((kind == GREAT_HALL) != (hall_at >= 0))[0])
        fail("great halls", f"square {geo.rc(sq)} has kind {int(kind[sq])} but hall_at {int(hall_at[sq])}")
    for h, hall in enumerate(pack.great_halls):
        squares = np.flatnonzero(hall_at == h)
        altar = int(state.hall_altar[h])
        if altar < 0:
            if len(squares):
                fail("great halls", f"{hall.name} is in the supply but covers {len(squares)} squares")
            continue
        if len(squares) != len(hall.cells):
            fail("great halls", f"{hall.name} covers {len(squares)} squares, its size is {len(hall.cells)}")
        if hall_at[altar] != h:
            fail("great halls", f"{hall.name}'s altar {geo.rc(altar)} is not under the hall")
        if len(set(state.tile[squares].tolist())) != 1:
            fail("great halls", f"{hall.name} is made of several tiles {sorted(set(state.tile[squares].tolist()))}")


def check_pedestals(state: GameState) -> None:
    """Pedestals: bag + storages + horde + taken (on the board or removed by halls) = pedestals_per_clan;
    each pedestal on the board lies on a tunnel and took its tier's point token; the track's tokens
    taken add up to each player's pedestal points."""
    game = state.game
    geo, pack = game.geo, game.pack
    places = pedestal_places(state)
    total = sum(places.values())
    for c, clan in enumerate(CLANS):
        if total[c] != pack.pedestals_per_clan:
            parts = " + ".join(f"{place} {int(v[c])}" for place, v in places.items())
            fail("pedestals", f"{clan}: {parts} = {int(total[c])}, but the pack has {pack.pedestals_per_clan}")
    board = np.flatnonzero(state.pedestal[:-1] >= 0)
    on_board = np.zeros((len(game.pack.statue_values), len(CLANS)), np.int64)
    for sq in board:
        clan, tier = int(state.pedestal[sq]), int(geo.tier[sq]) - 1
        if state.kind[sq] != TUNNEL:
            fail("pedestals", f"{CLANS[clan]} pedestal on {geo.rc(int(sq))}, a square of kind {int(state.kind[sq])}")
        if state.track_taken[tier, clan] < 0:
            fail("pedestals", f"{CLANS[clan]} pedestal on {geo.rc(int(sq))} (tier {tier + 1}) but its track "
                               f"token was not taken")
        on_board[tier, clan] += 1
    if (on_board > 1).any():
        fail("pedestals", f"two pedestals of one clan on one tier: {np.argwhere(on_board > 1).tolist()}")
    if state.pedestal[-1] != -1:
        fail("pedestals", "a pedestal is on the sentinel square")
    outside_row2 = [h for h in range(N_HORDE) if HORDE_ROW[h] != 1 and state.horde_pedestal[h] >= 0]
    if outside_row2:
        fail("pedestals", f"horde slots {outside_row2} hold pedestals but are not in the Level-2 row")
    for p in range(state.num_players):
        mine = state.track_taken == p
        points = int(state.track_value[mine].sum())
        if points != state.pedestal_points[p] or int(mine.sum()) != state.pedestal_tokens[p]:
            fail("pedestal track", f"player {p} took {int(mine.sum())} track tokens worth {points}, but has "
                                    f"pedestal_tokens={int(state.pedestal_tokens[p])}, "
                                    f"pedestal_points={int(state.pedestal_points[p])}")
    if (state.track_taken >= state.num_players).any():
        fail("pedestal track", f"track taken by unknown players {state.track_taken.tolist()}")
    if sorted(state.track_value.reshape(-1).tolist()) != sorted(pack.pedestal_tokens):
        fail("pedestal track", f"point tokens {sorted(state.track_value.reshape(-1).tolist())} are not the "
                                f"pack's {sorted(pack.pedestal_tokens)}")


def _bfs_reach(state: GameState) -> np.ndarray:
    """Each player's network recomputed: tile squares connected to the gate by shared sides."""
    nb = state.game.geo.neighbours
    occupied = state.kind > EMPTY
    occupied[-1] = False
    reach = np.zeros_like(state.reach)
    for p, gate in enumerate(state.gate_sq):
        if gate < 0:
            continue
        seen = reach[p]
        seen[gate] = True
        todo = deque([int(gate)])
        while todo:
            s = todo.popleft()
            for t in nb[s]:
                if occupied[t] and not seen[t]:
                    seen[t] = True
                    todo.append(int(t))
    return reach


def check_networks(state: GameState) -> None:
    """Networks: the engine's reach equals a fresh BFS from each gate over tile squares; no square is
    in two players' networks unless they are teammates."""
    geo, game = state.game.geo, state.game
    reach = _bfs_reach(state)
    for p in range(state.num_players):
        diff = np.flatnonzero(reach[p] != state.reach[p])
        if len(diff):
            sq = int(diff[0])
            fail("networks", f"player {p}'s reach at {geo.rc(sq)} is {bool(state.reach[p, sq])}, a BFS from "
                              f"the gate says {bool(reach[p, sq])} ({len(diff)} squares differ)")
    for p in range(state.num_players):
        for q in range(p + 1, state.num_players):
            if q in game.teammates[p]:
                continue
            both = np.flatnonzero(state.reach[p] & state.reach[q])
            if len(both):
                fail("networks", f"square {geo.rc(int(both[0]))} is in the networks of players {p} and {q}")


def check_buried(state: GameState) -> None:
    """Buried resources: printed on the board; gone once a tunnel or hall covers the square."""
    geo = state.game.geo
    printed = np.full(geo.n_squares + 1, -1, np.int8)
    printed[:-1] = geo.side.buried.reshape(-1)
    buried = state.buried
    if ((buried >= 0) & (buried != printed)).any():
        sq = int(np.flatnonzero((buried >= 0) & (buried != printed))[0])
        fail("buried resources", f"{geo.rc(sq)} holds buried {int(buried[sq])}, the board prints {int(printed[sq])}")
    dug = (buried >= 0) & (state.kind >= TUNNEL)
    if dug.any():
        sq = int(np.flatnonzero(dug)[0])
        fail("buried resources", f"{geo.rc(sq)} is dug but still holds buried {RESOURCES[int(buried[sq])]}")
