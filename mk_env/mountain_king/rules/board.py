"""The board as the rules see it: each player's network, placing a tile, and the memo of board queries
(where tunnels and great halls may go, statue moves, workshop entrances: in their mechanics' modules),
kept on the state until the board changes."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, TypeVar

import numpy as np

from .vocabulary import SquareKind

if TYPE_CHECKING:
    from .state import GameState

T = TypeVar("T")
#: the state fields a board change touches: a memo of :func:`board_memo` reads only these (and the
#: game's fixed tables), so ``board_version`` (bumped by every tile placed) is its whole key
BOARD_FIELDS = ("kind", "tile", "region", "hall_at", "reach", "gate_sq", "hall_altar", "board_version")
_EMPTY_SQUARE = int(SquareKind.EMPTY)  # numpy compares an array with an IntEnum member five times slower


def recompute_networks(st: GameState) -> None:
    """Each player's network: every tile square connected to their gate (isolated tiles belong to
    nobody until reconnected)."""
    nb = st.game.geo.neighbour_lists
    st.reach[:] = False
    occupied = (st.kind > _EMPTY_SQUARE).tolist()
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


def board_memo(st: GameState, name: str, p: int, compute: Callable[[], T]) -> T:
    """``compute()`` memoised on the state until the board changes (tiles, halls, gates); ``compute``
    reads only :data:`BOARD_FIELDS`."""
    key = (name, p)
    hit = st._cache.get(key)
    if hit is not None and hit[0] == st.board_version:
        return hit[1]
    value = compute()
    st._cache[key] = (st.board_version, value)
    return value


def memo_key(reads: tuple[str, ...], parts: dict[str, str | None], args: str, namespace: dict) -> Callable:
    """A memo's key function ``key(<args>)``, written out from the state fields the memoised computation
    reads (``reads``) and how each enters the key (``parts``: a Python expression of ``args``; None:
    covered by another part). Board fields enter through ``board_version``. A read field without a
    part raises ``KeyError`` here, at import: a memo cannot forget a field it declares. One part: the
    key is its value; several: their tuple. Written out once (as :mod:`dataclasses` writes
    ``__init__``) so that a key costs no call per part."""
    exprs = [parts[f] for f in reads if f not in BOARD_FIELDS or f == "board_version"]
    exprs = [e for e in exprs if e is not None]
    value = exprs[0] if len(exprs) == 1 else "(" + ", ".join(exprs) + ",)"
    scope = dict(namespace)
    exec(f"def key({args}):\n    return {value}\n", scope)  # noqa: S102 - expressions declared in the rules modules
    return scope["key"]


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
