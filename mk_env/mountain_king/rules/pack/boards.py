"""Board sides: :func:`parse_board` reads one side's text map (tiers, features, rubble) into a
:class:`BoardSide` and checks its geometry (concentric tiers, reachable tier 5, start points, sites)."""

from __future__ import annotations

import math
import re

import numpy as np

from mk_env.mountain_king.rules.content import N_TIERS, RESOURCES, BoardSide

from .fields import LIMITS, NEIGHBOURS, PackError, _connected

#: Characters of the three board grids.
_TIER_CHARS = {".": 0, "1": 1, "2": 2, "3": 3, "4": 4, "5": 5, "H": -1}
_BURIED_CHARS = {"s": "stone", "i": "iron", "h": "heartstone", "c": "coin", "a": "cart", "m": "hammer", "r": "rune"}
_FEATURE_CHARS = set(".SW345") | set(_BURIED_CHARS)
_GRIDS = ("tiers", "features", "rubble")


def parse_board(text: str, name: str, source: str = "<text>") -> BoardSide:
    """Parse one board side from its text map (see ``boards/*.txt`` in the default pack for the legend).

    Comment lines are ``#`` alone or ``#`` followed by a space (a rubble row may start with ``#``).
    Optional header lines ``name: ...`` (must equal ``name``) and ``players: 2,4,5`` (default: 2 and every
    start-point mark used). Then three equally sized grids ``[tiers]``, ``[features]``, ``[rubble]``.
    Raises :class:`PackError` naming ``source`` and the grid, row and column of any problem.
    """
    header: dict[str, str] = {}
    grids: dict[str, list[str]] = {}
    current: str | None = None
    for lineno, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        # a comment is '#' alone or '#' then a space; a rubble row may itself start with '#'
        if not line or line == "#" or line.startswith("# "):
            continue
        m = re.fullmatch(r"\[(\w+)\]", line.strip())
        if m:
            current = m.group(1)
            if current not in _GRIDS:
                raise PackError(source, f"line {lineno}", f"unknown section [{current}]; allowed: "
                                + ", ".join(f"[{g}]" for g in _GRIDS))
            if current in grids:
                raise PackError(source, f"[{current}]", "section given twice")
            grids[current] = []
            continue
        if current is None:
            m = re.fullmatch(r"(\w+)\s*:\s*(.*)", line.strip())
            if not m or m.group(1) not in ("name", "players"):
                raise PackError(source, f"line {lineno}", f"expected 'name: ...', 'players: ...' or a section, "
                                f"got {line!r}")
            header[m.group(1)] = m.group(2).strip()
            continue
        grids[current].append(line.strip())
    for g in _GRIDS:
        if g not in grids:
            raise PackError(source, f"[{g}]", "section missing")
        if not grids[g]:
            raise PackError(source, f"[{g}]", "section is empty")
    if "name" in header and header["name"] != name:
        raise PackError(source, "name", f"header says {header['name']!r} but the board is loaded as {name!r}")

    height = len(grids["tiers"])
    width = len(grids["tiers"][0])
    top = LIMITS["board_rows"]
    if height > top or width > top:
        raise PackError(source, "[tiers]", f"{height} rows x {width} columns; a board side has at most {top} "
                        f"of each (allowed: 1..{top})")
    for g in _GRIDS:
        if len(grids[g]) != height:
            raise PackError(source, f"[{g}]", f"has {len(grids[g])} rows; [tiers] has {height}")
        for r, row in enumerate(grids[g]):
            if len(row) != width:
                raise PackError(source, f"[{g}] row {r}", f"has {len(row)} columns; expected {width}")

    on_board = np.zeros((height, width), bool)
    heart = np.zeros((height, width), bool)
    tier = np.zeros((height, width), np.int8)
    rubble = np.zeros((height, width), bool)
    buried = np.full((height, width), -1, np.int8)
    statue_spots: list[tuple[int, int]] = []
    workshop_sites: list[tuple[int, int]] = []
    starts: dict[int, list[tuple[int, int]]] = {}

    for r in range(height):
        for c in range(width):
            where = f"row {r} col {c}"
            ch = grids["tiers"][r][c]
            if ch not in _TIER_CHARS:
                raise PackError(source, f"[tiers] {where}", f"unknown character {ch!r}; allowed: . 1 2 3 4 5 H")
            t = _TIER_CHARS[ch]
            on_board[r, c] = ch != "."
            heart[r, c] = t == -1
            tier[r, c] = max(t, 0)
            f = grids["features"][r][c]
            if f not in _FEATURE_CHARS:
                raise PackError(source, f"[features] {where}", f"unknown character {f!r}; allowed: "
                                + " ".join(sorted(_FEATURE_CHARS)))
            if f != "." and tier[r, c] == 0:
                raise PackError(source, f"[features] {where}", f"{f!r} lies off the board or on the heart")
            if f == "S":
                statue_spots.append((r, c))
            elif f == "W":
                if not 2 <= tier[r, c] <= 4:
                    raise PackError(source, f"[features] {where}", f"workshop site on tier {tier[r, c]}; "
                                    "sites lie in tiers 2-4")
                workshop_sites.append((r, c))
            elif f in "345":
                if tier[r, c] != 1:
                    raise PackError(source, f"[features] {where}", f"start point on tier {tier[r, c]}; "
                                    "start points lie on tier 1")
                starts.setdefault(int(f), []).append((r, c))
            elif f in _BURIED_CHARS:
                buried[r, c] = RESOURCES.index(_BURIED_CHARS[f])
            b = grids["rubble"][r][c]
            if b not in "#.":
                raise PackError(source, f"[rubble] {where}", f"unknown character {b!r}; allowed: # .")
            if b == "#":
                if tier[r, c] == 0:
                    raise PackError(source, f"[rubble] {where}", "rubble off the board or on the heart")
                if f in "W345":
                    raise PackError(source, f"[rubble] {where}", "rubble on a workshop site or start point")
                rubble[r, c] = True

    if not heart.any():
        raise PackError(source, "[tiers]", "no heart ('H') square")
    hr, hc = np.nonzero(heart)
    if not _connected(list(zip(hr.tolist(), hc.tolist()))):
        raise PackError(source, "[tiers]", "the heart is not one connected region")
    _check_tiers_concentric(tier, on_board, heart, source)
    if not starts:
        raise PackError(source, "[features]", "no start point ('3', '4' or '5')")

    def neighbours(r: int, c: int):
        for dr, dc in NEIGHBOURS:
            if 0 <= r + dr < height and 0 <= c + dc < width:
                yield r + dr, c + dc

    start_set = {p for ps in starts.values() for p in ps}
    site_set = set(workshop_sites)
    for (r, c) in workshop_sites:
        for q in neighbours(r, c):
            if q in start_set:
                raise PackError(source, f"[features] row {r} col {c}", f"workshop site next to the start point "
                                f"at row {q[0]} col {q[1]}")
    for (r, c) in sorted(start_set):
        open_in = [q for q in neighbours(r, c) if tier[q] >= 1 and not rubble[q] and q not in site_set
                   and q not in start_set]
        if not open_in:
            raise PackError(source, f"[features] row {r} col {c}", "start point has no open (on-board, "
                            "rubble-free) neighbour to dig into")
        if not _reaches_tier(tier, (r, c), N_TIERS, site_set):
            raise PackError(source, f"[features] row {r} col {c}", f"no path from this start point to tier "
                            f"{N_TIERS} that avoids workshop sites and the heart")

    if "players" in header:
        try:
            players = tuple(sorted({int(x) for x in header["players"].split(",")}))
        except ValueError:
            raise PackError(source, "players", f"expected a comma-separated list of integers, got "
                            f"{header['players']!r}") from None
    else:
        players = tuple(sorted({2, *starts}))
    for p in players:
        if p < 2:
            raise PackError(source, "players", f"player count {p} is below 2")
        if p == 2:
            if not any(len(v) >= 2 for v in starts.values()):
                raise PackError(source, "players", "2 players need two start points with the same mark")
        elif len(starts.get(p, ())) < p:
            raise PackError(source, "players", f"{p} players need {p} start points marked '{p}'; "
                            f"found {len(starts.get(p, ()))}")

    cy, cx = float(hr.mean()), float(hc.mean())

    def clockwise(p: tuple[int, int]) -> tuple[float, float, tuple[int, int]]:
        angle = math.atan2(p[1] - cx, -(p[0] - cy)) % (2 * math.pi)
        return (round(angle, 9), math.hypot(p[0] - cy, p[1] - cx), p)

    for a in (on_board, heart, tier, rubble, buried):
        a.setflags(write=False)
    return BoardSide(
        name=name,
        height=height,
        width=width,
        on_board=on_board,
        heart=heart,
        tier=tier,
        rubble=rubble,
        buried=buried,
        statue_spots=tuple(sorted(statue_spots, key=clockwise)),
        workshop_sites=tuple(workshop_sites),
        start_points={k: tuple(starts[k]) for k in sorted(starts)},
        player_counts=players,
    )


def _check_tiers_concentric(tier: np.ndarray, on_board: np.ndarray, heart: np.ndarray, source: str) -> None:
    """Tiers step by at most one between neighbours: off-board touches only tier 1, the heart only tier 5."""
    height, width = tier.shape
    level = np.where(heart, N_TIERS + 1, tier)  # heart = tier 6, off-board = tier 0
    for r in range(height):
        for c in range(width):
            if not on_board[r, c]:
                continue
            for dr, dc in NEIGHBOURS:
                rr, cc = r + dr, c + dc
                other = level[rr, cc] if 0 <= rr < height and 0 <= cc < width else 0
                if abs(int(level[r, c]) - int(other)) > 1:
                    what = "the heart" if heart[r, c] else f"tier {tier[r, c]}"
                    near = ("off the board" if other == 0 else "the heart" if other == N_TIERS + 1
                            else f"tier {other}")
                    raise PackError(source, f"[tiers] row {r} col {c}", f"{what} touches {near}; tiers must "
                                    "step by one from the edge to the heart")


def _reaches_tier(tier: np.ndarray, start: tuple[int, int], target: int, blocked: set[tuple[int, int]]) -> bool:
    """Whether squares of ``target`` tier can be reached from ``start`` through board squares (rubble may be
    dug through with hammers; workshop sites and the heart may not)."""
    height, width = tier.shape
    seen = {start}
    stack = [start]
    while stack:
        r, c = stack.pop()
        if tier[r, c] == target:
            return True
        for dr, dc in NEIGHBOURS:
            q = (r + dr, c + dc)
            if 0 <= q[0] < height and 0 <= q[1] < width and q not in seen and tier[q] >= 1 and q not in blocked:
                seen.add(q)
                stack.append(q)
    return False

