"""Precomputed board geometry: orientations of tiles and every placement the board side allows.

Computed once per (content pack, board side) and shared by every state of a game, so that legal digs
and great halls are found with a few vectorised numpy gathers instead of Python loops.

Squares are numbered ``r * width + c``. Arrays indexed by square have one extra entry at index
``n_squares`` (the *sentinel*), always empty / False, which pads ragged neighbour lists.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .content import BoardSide, GreatHall, TunnelShape

Cells = tuple[tuple[int, int], ...]


def orientations(cells: Cells, anchor: int | None) -> list[tuple[Cells, int | None, str]]:
    """Every distinct orientation (rotations and flips) of a tile, with the anchor's new index.

    Two orientations are the same when they cover the same cells with the anchor on the same cell.
    Returns (cells normalised to a top-left origin, anchor index, a name such as "rot90 flipped").
    """
    seen: set[tuple[frozenset, tuple[int, int] | None]] = set()
    out: list[tuple[Cells, int | None, str]] = []
    for flip in (False, True):
        for rot in range(4):
            pts = []
            for r, c in cells:
                if flip:
                    c = -c
                for _ in range(rot):
                    r, c = c, -r
                pts.append((r, c))
            r0 = min(p[0] for p in pts)
            c0 = min(p[1] for p in pts)
            pts = [(r - r0, c - c0) for r, c in pts]
            anchor_cell = pts[anchor] if anchor is not None else None
            key = (frozenset(pts), anchor_cell)
            if key in seen:
                continue
            seen.add(key)
            order = sorted(range(len(pts)), key=lambda i: pts[i])
            norm = tuple(pts[i] for i in order)
            new_anchor = order.index(anchor) if anchor is not None else None
            name = f"rot{rot * 90}" + (" flipped" if flip else "")
            out.append((norm, new_anchor, name))
    return out


@dataclass(frozen=True)
class PlacementTable:
    """Every placement of a set of pieces (tunnel shapes or great halls) that stays on the board and
    avoids the heart and workshop sites. Row ``i`` describes placement ``i``.

    piece[i], orient[i], origin[i]: which piece, its orientation index and the top-left square;
    cells[i, :size]: squares covered (padded with the sentinel); size[i];
    anchor[i]: the anchor / altar square or -1; nbrs[i, :]: squares edge-adjacent to the placement
    (padded with the sentinel); rubble[i]: rubble squares covered; sites[i]: workshop-site indices
    adjacent to it (tuple); orient_names[piece][orient].
    """

    piece: np.ndarray
    orient: np.ndarray
    origin: np.ndarray
    cells: np.ndarray
    size: np.ndarray
    anchor: np.ndarray
    nbrs: np.ndarray
    rubble: np.ndarray
    sites: tuple[tuple[int, ...], ...]
    orient_names: tuple[tuple[str, ...], ...]

    def __len__(self) -> int:
        return len(self.piece)


class BoardGeometry:
    """Static facts about one board side: neighbours, tiers, sites, and the placement tables."""

    def __init__(self, side: BoardSide, tunnels: tuple[TunnelShape, ...], halls: tuple[GreatHall, ...]):
        self.side = side
        self.height, self.width = side.height, side.width
        self.n_squares = n = side.height * side.width
        self.sentinel = n
        self.on_board = np.zeros(n + 1, dtype=bool)
        self.on_board[:n] = side.on_board.reshape(-1) & ~side.heart.reshape(-1)
        self.heart = np.zeros(n + 1, dtype=bool)
        self.heart[:n] = side.heart.reshape(-1)
        self.tier = np.zeros(n + 1, dtype=np.int8)
        self.tier[:n] = side.tier.reshape(-1)
        self.rubble = np.zeros(n + 1, dtype=bool)
        self.rubble[:n] = side.rubble.reshape(-1)
        self.site_squares = np.array([self.sq(r, c) for r, c in side.workshop_sites], dtype=np.int32)
        self.site_of = np.full(n + 1, -1, dtype=np.int16)
        self.site_of[self.site_squares] = np.arange(len(self.site_squares))
        #: start points in a fixed order (by mark, then position) with their marks
        self.start_points: list[tuple[int, int]] = []  # (square, mark)
        for mark in sorted(side.start_points):
            for r, c in side.start_points[mark]:
                self.start_points.append((self.sq(r, c), mark))
        self.start_clockwise = self._clockwise([sq for sq, _ in self.start_points])
        self.neighbours = self._neighbours()
        self.neighbour_lists: list[list[int]] = self.neighbours.tolist()  # the same, for loops
        placeable = self.on_board.copy()
        placeable[self.site_squares] = False
        self.placeable = placeable
        self.tunnel_placements = self._placements([(t.cells, t.anchor) for t in tunnels])
        self.hall_placements = self._placements([(h.cells, h.altar) for h in halls])
        #: placements of tunnels next to each square, and of halls covering each square
        self.tunnels_beside = SquareIndex(self.tunnel_placements, n, "nbrs")
        self.halls_over = SquareIndex(self.hall_placements, n, "cells")

    def _clockwise(self, squares: list[int]) -> list[int]:
        """Indices of ``squares`` sorted clockwise round the heart, starting straight up."""
        hr, hc = np.argwhere(self.side.heart).mean(axis=0) if self.side.heart.any() else (
            self.height / 2, self.width / 2)
        angle = [np.arctan2(c - hc, -(r - hr)) % (2 * np.pi) for r, c in map(self.rc, squares)]
        return sorted(range(len(squares)), key=lambda i: angle[i])

    def sq(self, r: int, c: int) -> int:
        return r * self.width + c

    def rc(self, sq: int) -> tuple[int, int]:
        return divmod(int(sq), self.width)

    def _neighbours(self) -> np.ndarray:
        """[n+1, 4] edge neighbours of each square (sentinel where off the grid)."""
        n, h, w = self.n_squares, self.height, self.width
        out = np.full((n + 1, 4), n, dtype=np.int32)
        for s in range(n):
            r, c = divmod(s, w)
            for k, (dr, dc) in enumerate(((-1, 0), (0, 1), (1, 0), (0, -1))):
                rr, cc = r + dr, c + dc
                if 0 <= rr < h and 0 <= cc < w:
                    out[s, k] = rr * w + cc
        return out

    def _placements(self, pieces: list[tuple[Cells, int | None]]) -> PlacementTable:
        rows: list[tuple] = []
        names: list[tuple[str, ...]] = []
        h, w, n = self.height, self.width, self.n_squares
        placeable, neighbours, site_of = self.placeable.tolist(), self.neighbour_lists, self.site_of.tolist()
        for p, (cells, anchor) in enumerate(pieces):
            oris = orientations(cells, anchor)
            names.append(tuple(o[2] for o in oris))
            for o, (ocells, oanchor, _) in enumerate(oris):
                hh = max(r for r, _ in ocells) + 1
                ww = max(c for _, c in ocells) + 1
                for r0 in range(h - hh + 1):
                    for c0 in range(w - ww + 1):
                        sqs = [(r0 + r) * w + (c0 + c) for r, c in ocells]
                        if not all(placeable[s] for s in sqs):
                            continue
                        anchor_sq = sqs[oanchor] if oanchor is not None else -1
                        rows.append((p, o, r0 * w + c0, sqs, anchor_sq))
        max_size = max((len(r[3]) for r in rows), default=1)
        m = len(rows)
        nbr_lists: list[list[int]] = []
        sites: list[tuple[int, ...]] = []
        for _, _, _, sqs, _ in rows:
            inside = set(sqs)
            nb = sorted({x for s in sqs for x in neighbours[s] if x != n and x not in inside})
            nbr_lists.append(nb)
            sites.append(tuple(sorted({site_of[x] for x in nb if site_of[x] >= 0})))
        max_nb = max((len(x) for x in nbr_lists), default=1)
        # padded with the sentinel square n
        cells_arr = np.array([r[3] + [n] * (max_size - len(r[3])) for r in rows], dtype=np.int32).reshape(m, max_size)
        size = np.array([len(r[3]) for r in rows], dtype=np.int8)
        nbrs = np.array([nb + [n] * (max_nb - len(nb)) for nb in nbr_lists], dtype=np.int32).reshape(m, max_nb)
        rubble = self.rubble[cells_arr].sum(axis=1).astype(np.int8)
        return PlacementTable(
            piece=np.array([r[0] for r in rows], dtype=np.int16),
            orient=np.array([r[1] for r in rows], dtype=np.int8),
            origin=np.array([r[2] for r in rows], dtype=np.int32),
            cells=cells_arr,
            size=size,
            anchor=np.array([r[4] for r in rows], dtype=np.int32),
            nbrs=nbrs,
            rubble=rubble,
            sites=tuple(sites),
            orient_names=tuple(names),
        )


def _csr(pairs_sq: np.ndarray, pairs_pl: np.ndarray, n: int) -> tuple[np.ndarray, np.ndarray]:
    """Group placement ids by square: (pointers [n+2], placement ids sorted by square)."""
    order = np.argsort(pairs_sq, kind="stable")
    counts = np.bincount(pairs_sq, minlength=n + 1)
    ptr = np.zeros(n + 2, dtype=np.int64)
    np.cumsum(counts, out=ptr[1:])
    return ptr, pairs_pl[order].astype(np.int32)


class SquareIndex:
    """For each square, the placements that touch it (as a neighbour) or cover it."""

    def __init__(self, table: PlacementTable, n: int, field: str):
        arr = getattr(table, field)
        pl = np.repeat(np.arange(arr.shape[0]), arr.shape[1])
        sq = arr.reshape(-1)
        keep = sq != n
        self.ptr, self.idx = _csr(sq[keep], pl[keep], n)
        self.n_placements = arr.shape[0]

    def lookup(self, squares: np.ndarray) -> np.ndarray:
        """Placement ids (unique, sorted) listed under any of ``squares``: the squares' lists are
        gathered at once (their concatenated ranges of ``idx``) and marked on one boolean row."""
        starts = self.ptr[squares]
        lengths = self.ptr[squares + 1] - starts
        ends = np.cumsum(lengths)
        if len(ends) == 0 or ends[-1] == 0:
            return np.zeros(0, dtype=np.intp)
        offsets = np.arange(ends[-1]) + np.repeat(starts - (ends - lengths), lengths)
        mark = np.zeros(self.n_placements, dtype=bool)
        mark[self.idx[offsets]] = True
        return mark.nonzero()[0]
