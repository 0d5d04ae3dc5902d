"""Load and validate a content pack (``mk_env/data/<pack>/``) into a :class:`ContentPack`.

A pack is a folder with a manifest ``pack.json`` that names the other files (board maps in a text format,
tunnels, trolls, spells, workshops and great halls in JSON) and holds the charts and component counts.
Everything is checked once, here; every error is a :class:`PackError` whose message names the file and
the field, e.g. ``spells.json: spells[3].effect: unknown effect 'foo'; allowed: ...``.

Public API:

* :func:`load_pack` -- the whole pack (``None`` = the default pack), cached by content: a pack edited on
  disk is loaded again (each call compares the files' sizes and modification times, and a changed file
  is read and hashed; identical content gives the very same :class:`ContentPack` object).
* :data:`LIMITS` and :data:`FIXED_RULES` -- the bounds on every number of a pack, and the rule numbers the
  engine's geometry fixes (a pack may restate them, not change them).
* :func:`parse_board` -- one board side from its text map (tests build small ASCII boards with it).
* :class:`PackError` -- a ``ValueError`` raised for any problem in a pack.

Only the standard library, numpy and :mod:`mk_env.rules.content` are imported, so the rules layer stays
free of anything heavier.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import re
import time
from collections import Counter, OrderedDict
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from mk_env.rules.actions import HORDE_BENEATH, HORDE_ROW, HORDE_ROWS, TROLLSMOOT_ROWS
from mk_env.rules.content import (
    MINERALS,
    N_CLANS,
    N_TIERS,
    PLAYER_COUNTS,
    RESOURCES,
    TOKEN_KINDS,
    TROLL_CLANS,
    BoardSide,
    ContentPack,
    GreatHall,
    Spell,
    TrollCard,
    TunnelShape,
    Workshop,
    WorkshopTrade,
)

__all__ = ["PackError", "load_pack", "parse_board", "DEFAULT_PACK_DIR", "SPELL_EFFECTS", "LIMITS", "FIXED_RULES"]

DEFAULT_PACK_DIR = Path(__file__).resolve().parent.parent / "data" / "default"
MANIFEST = "pack.json"

#: Spell effects the engine implements, and the params each one takes (name -> kind of value).
SPELL_EFFECTS: dict[str, dict[str, str]] = {
    "gain_choice": {"options": "resource_options"},
    "bribe_any": {},
    "dig_now": {},
    "ascension": {},
    "activate_troll": {"cascade": "bool"},
    "collect_bribes": {},
    "take_pedestal": {},
    "free_statue_moves": {"moves": "positive_int"},
    "extra_workshop": {},
    "ignore_rubble": {},
}

#: Characters of the three board grids.
_TIER_CHARS = {".": 0, "1": 1, "2": 2, "3": 3, "4": 4, "5": 5, "H": -1}
_BURIED_CHARS = {"s": "stone", "i": "iron", "h": "heartstone", "c": "coin", "a": "cart", "m": "hammer", "r": "rune"}
_FEATURE_CHARS = set(".SW345") | set(_BURIED_CHARS)
_GRIDS = ("tiers", "features", "rubble")
_NEIGHBOURS = ((-1, 0), (1, 0), (0, -1), (0, 1))
_SNAKE = re.compile(r"^[a-z][a-z0-9_]*$")

#: Upper (and a few lower) bounds on the numbers of a pack: what the game can use, with room for variants,
#: and small enough for the state's array types (int8 counts, int16 piles) and a bounded action space.
#: Each error names the file, the field and the allowed range. docs/rules-decisions.md lists them.
LIMITS: dict[str, int] = {
    "file_bytes": 1 << 20,  # any file of the pack (the default's largest is under 10 kB)
    "board_rows": 40,  # rows and columns of a board side (the default's are 13-17)
    "cell_offset": 7,  # a tunnel or hall cell's row/column offset: shapes fit an 8 x 8 box
    "tile_count": 50,  # tiles in one tunnel stack, workshop tiles of one kind (int8 supplies)
    "kinds": 20,  # tunnel stacks, great halls
    "workshop_kinds": 50,
    "spells": 100,
    "starters_min": 5,  # the draft deals 2 and draws 3 more to fill the 4-slot starting row
    "starters": 20,
    "horde_per_level": 200,
    "symbols": 6,  # symbols on one troll card
    "amount": 20,  # resources in one gain, give or spell option
    "give_any": 6,  # "any N resources" (one action per multiset: 924 for N = 6)
    "spell_options": 10,
    "statue_moves": 10,
    "honour": 50,  # one honour value: tunnel chart, statue value, hall, pedestal token, coronation token
    "pedestal_multiplier": 5,
    "supply": 200,  # tokens of one resource (int16 piles)
    "statues_per_clan": 30,
    "pedestals_per_clan": 30,
    "actions": 100_000,  # the flat action space of a board side (the default: 9,790 and 6,572)
}

#: Rule keys and the range each may take; the engine reads every one of them (``Game`` and ``ActionLayout``).
#: ``set_size`` must also stay below ``trade_rate`` (final scoring's exact best-sets count relies on it).
_RULE_RANGES: dict[str, tuple[int, int]] = {
    "trade_rate": (2, 8),  # 8: 21,021 trade actions; 1 would offer a 1:1 trade of a token for itself
    "set_size": (1, 7),
    "retire_bribes": (1, 20),
    "spellbook_size": (1, 10),
    "runes_to_disintegrate": (1, 10),
}


def _row_bribes(row: int) -> int:
    """Bribes owed to recruit from a full horde row: one per troll beneath (rulebook, *Recruit*)."""
    return len(HORDE_BENEATH[HORDE_ROW.index(row)])


#: Rule keys the engine's geometry fixes, with the only value allowed and why. The trollsmoot and horde
#: pyramids are built into the flat action layout (draft, recruit, slot choices), the observation and the
#: saved states' array shapes (``mk_env/rules/actions.py``); the bribes follow from the horde pyramid.
FIXED_RULES: dict[str, tuple[object, str]] = {
    "trollsmoot_rows": (list(TROLLSMOOT_ROWS), "the trollsmoot pyramid's rows: the action layout, the "
                        "observation and saved states are built on its 10 slots"),
    "horde_rows": (list(HORDE_ROWS), "the horde pyramid's rows: the action layout, the observation and "
                   "saved states are built on its 12 slots"),
    "max_trolls": (sum(TROLLSMOOT_ROWS), "a full trollsmoot: recruiting stops and a coronation token is "
                   "taken when every slot of the pyramid is filled"),
    "bribe_level2": (_row_bribes(1), "one bribe per troll beneath: a Level-2 horde slot rests on 2 "
                     "Level-1 slots"),
    "bribe_level3": (_row_bribes(2), "one bribe per troll beneath: a Level-3 horde slot rests on 2 "
                     "Level-2 and 3 Level-1 slots"),
}
_RULE_KEYS = (*_RULE_RANGES, *FIXED_RULES)
#: the JSON files a manifest names (besides the boards), in the order they are loaded
_DATA_FILES = ("tunnels", "trolls", "spells", "workshops", "great_halls")
_COMPONENT_KEYS = (
    "tunnel_tiles", "great_halls", "spells", "workshop_kinds", "workshop_tiles", "starter_trolls",
    "horde_trolls", "pedestal_tokens",
)


class PackError(ValueError):
    """A content pack is missing, unreadable or inconsistent; the message names the file and the field."""

    def __init__(self, file: str, field: str, message: str) -> None:
        self.file = file
        self.field = field
        super().__init__(f"{file}: {field}: {message}" if field else f"{file}: {message}")


# ---------------------------------------------------------------------------------------------------------
# small typed readers: each takes the value, the file name and the field path used in error messages


def _dict(v: Any, file: str, field: str, required: tuple[str, ...] | set[str] = (),
          optional: tuple[str, ...] | set[str] = ()) -> dict:
    if not isinstance(v, dict):
        raise PackError(file, field or "<top>", f"expected an object, got {type(v).__name__}")
    allowed = set(required) | set(optional)
    for k in v:
        if k not in allowed:
            raise PackError(file, _join(field, k), f"unknown key {k!r}; allowed: {', '.join(sorted(allowed))}")
    for k in required:
        if k not in v:
            raise PackError(file, _join(field, k), "missing")
    return v


def _join(field: str, key: str | int) -> str:
    if isinstance(key, int):
        return f"{field}[{key}]"
    return f"{field}.{key}" if field else key


def _list(v: Any, file: str, field: str, length: int | None = None, most: int | None = None) -> list:
    if not isinstance(v, list):
        raise PackError(file, field, f"expected a list, got {type(v).__name__}")
    if length is not None and len(v) != length:
        raise PackError(file, field, f"expected {length} items, got {len(v)}")
    if most is not None and len(v) > most:
        raise PackError(file, field, f"{len(v)} items; at most {most} are allowed")
    return v


def _int(v: Any, file: str, field: str, lo: int | None = None, hi: int | None = None) -> int:
    if isinstance(v, bool) or not isinstance(v, int):
        raise PackError(file, field, f"expected an integer, got {short_repr(v)}")
    allowed = f"allowed: {lo if lo is not None else '...'}..{hi if hi is not None else '...'}"
    if lo is not None and v < lo:
        raise PackError(file, field, f"{short_repr(v)} is below the minimum {lo} ({allowed})")
    if hi is not None and v > hi:
        raise PackError(file, field, f"{short_repr(v)} is above the maximum {hi} ({allowed})")
    return v


def short_repr(v: Any, width: int = 40) -> str:
    """``repr(v)`` cut to ``width`` characters, for error messages about values a hostile file may make
    huge (an integer of thousands of digits is not even printable)."""
    if isinstance(v, int) and v.bit_length() > 100:
        return f"an integer of {v.bit_length()} bits"
    text = repr(v)
    return text if len(text) <= width else text[:width - 3] + "..."


def _bool(v: Any, file: str, field: str) -> bool:
    if not isinstance(v, bool):
        raise PackError(file, field, f"expected true or false, got {v!r}")
    return v


def _str(v: Any, file: str, field: str, nonempty: bool = True) -> str:
    if not isinstance(v, str) or (nonempty and not v.strip()):
        raise PackError(file, field, f"expected a non-empty string, got {v!r}")
    return v


def _name(v: Any, file: str, field: str, allowed: tuple[str, ...], what: str) -> str:
    if not isinstance(v, str) or v not in allowed:
        raise PackError(file, field, f"unknown {what} {v!r}; allowed: {', '.join(allowed)}")
    return v


def _amounts(v: Any, file: str, field: str) -> tuple[tuple[str, int], ...]:
    """A JSON object resource name -> positive count, as (name, count) pairs in RESOURCES order."""
    _dict(v, file, field, optional=RESOURCES)
    if not v:
        raise PackError(file, field, "must name at least one resource")
    for k, n in v.items():
        _int(n, file, _join(field, k), 1, LIMITS["amount"])
    return tuple((r, v[r]) for r in RESOURCES if r in v)


def _cells(v: Any, file: str, field: str, lo: int, hi: int) -> tuple[tuple[int, int], ...]:
    """A connected set of ``lo``..``hi`` distinct (row, col) cells."""
    _list(v, file, field)
    if not lo <= len(v) <= hi:
        raise PackError(file, field, f"size {len(v)} is outside {lo}..{hi}")
    cells = []
    for i, c in enumerate(v):
        _list(c, file, _join(field, i), length=2)
        top = LIMITS["cell_offset"]
        cells.append((_int(c[0], file, f"{field}[{i}][0]", 0, top), _int(c[1], file, f"{field}[{i}][1]", 0, top)))
    if len(set(cells)) != len(cells):
        raise PackError(file, field, "repeats a cell")
    if not _connected(cells):
        raise PackError(file, field, "cells are not connected edge to edge")
    return tuple(cells)


def _connected(cells: list[tuple[int, int]] | tuple[tuple[int, int], ...]) -> bool:
    cellset = set(cells)
    seen = {cells[0]}
    stack = [cells[0]]
    while stack:
        r, c = stack.pop()
        for dr, dc in _NEIGHBOURS:
            q = (r + dr, c + dc)
            if q in cellset and q not in seen:
                seen.add(q)
                stack.append(q)
    return len(seen) == len(cellset)


def _unique(values: list[str], file: str, field: str, what: str) -> None:
    dup = [k for k, n in Counter(values).items() if n > 1]
    if dup:
        raise PackError(file, field, f"duplicate {what} {dup[0]!r}")


# ---------------------------------------------------------------------------------------------------------
# boards


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
        for dr, dc in _NEIGHBOURS:
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
            for dr, dc in _NEIGHBOURS:
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
        for dr, dc in _NEIGHBOURS:
            q = (r + dr, c + dc)
            if 0 <= q[0] < height and 0 <= q[1] < width and q not in seen and tier[q] >= 1 and q not in blocked:
                seen.add(q)
                stack.append(q)
    return False


# ---------------------------------------------------------------------------------------------------------
# the JSON files


def _read_text(root: Path, rel: str) -> str:
    """The text of a pack file, refused when missing, unreadable, not UTF-8 or over ``LIMITS["file_bytes"]``."""
    path = root / rel
    try:
        size = path.stat().st_size
        if size > LIMITS["file_bytes"]:
            raise PackError(rel, "", f"{size} bytes; a pack file may hold at most {LIMITS['file_bytes']} bytes")
        if not path.is_file():
            raise PackError(rel, "", f"not a regular file ({path})")
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise PackError(rel, "", f"file not found ({path})") from None
    except (OSError, UnicodeDecodeError) as e:
        raise PackError(rel, "", f"cannot read: {e}") from None


def _read_json(root: Path, rel: str) -> Any:
    text = _read_text(root, rel)
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise PackError(rel, f"line {e.lineno} col {e.colno}", f"bad JSON: {e.msg}") from None
    except (ValueError, RecursionError) as e:  # an integer of thousands of digits, nesting too deep
        raise PackError(rel, "", f"bad JSON: {str(e) or type(e).__name__}") from None


def _load_tunnels(data: Any, file: str) -> tuple[TunnelShape, ...]:
    _dict(data, file, "", required=("tunnels",))
    items = _list(data["tunnels"], file, "tunnels", most=LIMITS["kinds"])
    out = []
    for i, t in enumerate(items):
        f = f"tunnels[{i}]"
        _dict(t, file, f, required=("name", "count", "cells", "anchor"))
        cells = _cells(t["cells"], file, f + ".cells", 2, 5)
        if len(cells) == 5:
            if t["anchor"] is not None:
                raise PackError(file, f + ".anchor", "size-5 tunnels have no anchor; use null")
            anchor = None
        else:
            if t["anchor"] is None:
                raise PackError(file, f + ".anchor", f"a size-{len(cells)} tunnel needs an anchor")
            anchor = _int(t["anchor"], file, f + ".anchor", 0, len(cells) - 1)
        out.append(TunnelShape(name=_str(t["name"], file, f + ".name"),
                               count=_int(t["count"], file, f + ".count", 1, LIMITS["tile_count"]),
                               cells=cells, anchor=anchor))
    _unique([t.name for t in out], file, "tunnels", "tunnel name")
    return tuple(out)


def _load_trolls(data: Any, file: str) -> tuple[tuple[TrollCard, ...], tuple[TrollCard, ...]]:
    _dict(data, file, "", required=("starters", "horde"))
    starters = []
    for i, t in enumerate(_list(data["starters"], file, "starters", most=LIMITS["starters"])):
        f = f"starters[{i}]"
        _dict(t, file, f, required=("id", "name", "clan", "level", "symbols", "starting"))
        if t["clan"] != "starter":
            raise PackError(file, f + ".clan", f"starter trolls have clan 'starter', got {t['clan']!r}")
        _int(t["level"], file, f + ".level", 0, 0)
        symbols = _troll_symbols(t["symbols"], file, f + ".symbols", 1, 2, "starter")
        starting = _list(t["starting"], file, f + ".starting")
        if not 1 <= len(starting) <= 3:
            raise PackError(file, f + ".starting", f"expected 1 to 3 starting resources, got {len(starting)}")
        for j, s in enumerate(starting):
            _name(s, file, f"{f}.starting[{j}]", RESOURCES, "resource")
        starters.append(TrollCard(id=_str(t["id"], file, f + ".id"), name=_str(t["name"], file, f + ".name"),
                                  clan="starter", level=0, symbols=symbols, starting=tuple(starting)))
    horde = []
    for i, t in enumerate(_list(data["horde"], file, "horde", most=3 * LIMITS["horde_per_level"])):
        f = f"horde[{i}]"
        _dict(t, file, f, required=("id", "name", "clan", "level", "symbols"))
        clan = _name(t["clan"], file, f + ".clan", TROLL_CLANS, "clan")
        level = _int(t["level"], file, f + ".level", 1, 3)
        symbols = _troll_symbols(t["symbols"], file, f + ".symbols", 1, LIMITS["symbols"], clan)
        horde.append(TrollCard(id=_str(t["id"], file, f + ".id"), name=_str(t["name"], file, f + ".name"),
                               clan=clan, level=level, symbols=symbols))
    _unique([t.id for t in starters + horde], file, "starters/horde", "troll id")
    return tuple(starters), tuple(horde)


def _troll_symbols(v: Any, file: str, field: str, lo: int, hi: int, clan: str) -> tuple[str, ...]:
    _list(v, file, field)
    if not lo <= len(v) <= hi:
        raise PackError(file, field, f"expected {lo} to {hi} symbols, got {len(v)}")
    for j, s in enumerate(v):
        _name(s, file, f"{field}[{j}]", TOKEN_KINDS, "token kind")
        # a clan cart symbol only appears on a troll of that clan (rulebook, "Carts")
        if s.startswith("cart_") and s != f"cart_{clan}":
            raise PackError(file, f"{field}[{j}]", f"a {clan} troll cannot carry {s!r}")
    return tuple(v)


def _load_spells(data: Any, file: str) -> tuple[Spell, ...]:
    _dict(data, file, "", required=("spells",))
    out = []
    for i, s in enumerate(_list(data["spells"], file, "spells", most=LIMITS["spells"])):
        f = f"spells[{i}]"
        _dict(s, file, f, required=("id", "name", "effect", "params"), optional=("text",))
        sid = _str(s["id"], file, f + ".id")
        if not _SNAKE.match(sid):
            raise PackError(file, f + ".id", f"{sid!r} is not snake_case")
        effect = _name(s["effect"], file, f + ".effect", tuple(SPELL_EFFECTS), "effect")
        schema = SPELL_EFFECTS[effect]
        params = _dict(s["params"], file, f + ".params", required=tuple(schema))
        for key, kind in schema.items():
            pf = f"{f}.params.{key}"
            if kind == "bool":
                _bool(params[key], file, pf)
            elif kind == "positive_int":
                _int(params[key], file, pf, 1, LIMITS["statue_moves"])
            elif kind == "resource_options":
                opts = _list(params[key], file, pf, most=LIMITS["spell_options"])
                if not opts:
                    raise PackError(file, pf, "needs at least one option")
                for j, o in enumerate(opts):
                    _amounts(o, file, f"{pf}[{j}]")
        text = _str(s.get("text", ""), file, f + ".text", nonempty=False)
        out.append(Spell(id=sid, name=_str(s["name"], file, f + ".name"), effect=effect,
                         params=json.loads(json.dumps(params)), text=text))
    _unique([s.id for s in out], file, "spells", "spell id")
    return tuple(out)


def _load_workshops(data: Any, file: str) -> tuple[Workshop, ...]:
    _dict(data, file, "", required=("workshops",))
    out = []
    for i, w in enumerate(_list(data["workshops"], file, "workshops", most=LIMITS["workshop_kinds"])):
        f = f"workshops[{i}]"
        _dict(w, file, f, required=("name", "count", "trades"), optional=("wild_carts_only", "text"))
        trades = []
        for j, t in enumerate(_list(w["trades"], file, f + ".trades", most=LIMITS["spell_options"])):
            tf = f"{f}.trades[{j}]"
            if not isinstance(t, dict):
                raise PackError(file, tf, f"expected an object, got {type(t).__name__}")
            if "move_from_troll" in t:
                _dict(t, file, tf, required=("move_from_troll",))
                if t["move_from_troll"] is not True:
                    raise PackError(file, tf + ".move_from_troll", "must be true (or leave the key out)")
                trades.append(WorkshopTrade(move_from_troll=True))
            elif "give_any" in t:
                _dict(t, file, tf, required=("give_any", "gain"))
                trades.append(WorkshopTrade(give_any=_int(t["give_any"], file, tf + ".give_any", 1,
                                                          LIMITS["give_any"]),
                                            gain=_amounts(t["gain"], file, tf + ".gain")))
            else:
                _dict(t, file, tf, required=("give", "gain"), optional=("give_any", "move_from_troll"))
                trades.append(WorkshopTrade(give=_amounts(t["give"], file, tf + ".give"),
                                            gain=_amounts(t["gain"], file, tf + ".gain")))
        if not trades:
            raise PackError(file, f + ".trades", "a workshop needs at least one trade")
        out.append(Workshop(name=_str(w["name"], file, f + ".name"),
                            count=_int(w["count"], file, f + ".count", 1, LIMITS["tile_count"]),
                            trades=tuple(trades),
                            wild_carts_only=_bool(w.get("wild_carts_only", False), file, f + ".wild_carts_only"),
                            text=_str(w.get("text", ""), file, f + ".text", nonempty=False)))
    _unique([w.name for w in out], file, "workshops", "workshop name")
    return tuple(out)


def _load_halls(data: Any, file: str, tunnels: tuple[TunnelShape, ...]) -> tuple[GreatHall, ...]:
    _dict(data, file, "", required=("great_halls",))
    out = []
    for i, h in enumerate(_list(data["great_halls"], file, "great_halls", most=LIMITS["kinds"])):
        f = f"great_halls[{i}]"
        _dict(h, file, f, required=("name", "cells", "altar", "low", "high"))
        cells = _cells(h["cells"], file, f + ".cells", 4, 8)
        altar = _int(h["altar"], file, f + ".altar", 0, len(cells) - 1)
        low = _int(h["low"], file, f + ".low", 0, LIMITS["honour"])
        high = _int(h["high"], file, f + ".high", low, LIMITS["honour"])
        # a hall is laid over tunnels that exactly fill its shape, so some set of tunnel tiles must tile it
        if not _tileable(cells, tunnels):
            raise PackError(file, f + ".cells", "no set of two or more tunnel tiles covers this shape exactly")
        out.append(GreatHall(name=_str(h["name"], file, f + ".name"), cells=cells, altar=altar, low=low, high=high))
    _unique([h.name for h in out], file, "great_halls", "hall name")
    return tuple(out)


def _orientations(cells: tuple[tuple[int, int], ...]) -> set[tuple[tuple[int, int], ...]]:
    """All rotations and reflections of a shape, each normalised to start at (0, 0) in sorted order."""
    out = set()
    pts = list(cells)
    for _ in range(2):
        for _ in range(4):
            pts = [(c, -r) for r, c in pts]
            r0 = min(r for r, _ in pts)
            c0 = min(c for _, c in pts)
            out.add(tuple(sorted((r - r0, c - c0) for r, c in pts)))
        pts = [(r, -c) for r, c in pts]
    return out


def _tileable(cells: tuple[tuple[int, int], ...], tunnels: tuple[TunnelShape, ...]) -> bool:
    """Whether tiles of at least two tunnel tiles (any orientation, within stack counts) cover ``cells``."""
    pieces = [(t.count, sorted(_orientations(t.cells))) for t in tunnels if t.size < len(cells)]

    def solve(left: frozenset, used: tuple[int, ...]) -> bool:
        if not left:
            return True
        first = min(left)  # the top-left uncovered cell must be covered by some tile's first cell
        for k, (count, orients) in enumerate(pieces):
            if used[k] >= count:
                continue
            for o in orients:
                dr, dc = first[0] - o[0][0], first[1] - o[0][1]
                placed = frozenset((r + dr, c + dc) for r, c in o)
                if placed <= left:
                    nxt = used[:k] + (used[k] + 1,) + used[k + 1:]
                    if solve(left - placed, nxt):
                        return True
        return False

    return solve(frozenset(cells), (0,) * len(pieces))


# ---------------------------------------------------------------------------------------------------------
# the manifest and the whole pack


@dataclass(frozen=True)
class _Loaded:
    """A pack loaded from a folder: its files' (name, size, mtime) stamp and content hash when read, and
    whether the files were already older than the read by a safe margin (``settled``)."""

    pack: ContentPack
    files: tuple[str, ...]
    stamp: tuple[tuple[str, int, int], ...]
    digest: str
    settled: bool


_BY_PATH: dict[str, _Loaded] = {}
#: packs by content (``pack_id`` ends with the hash of every file); the most recently loaded last
_BY_CONTENT: OrderedDict[str, ContentPack] = OrderedDict()
_CONTENT_CACHE_SIZE = 32
#: a file modified less than this before it was read may change again within the same mtime tick
_SETTLE_NS = 2_000_000_000


def load_pack(path: str | os.PathLike | None = None) -> ContentPack:
    """Load and validate the pack in folder ``path`` (``None``: the default pack).

    Cached by content: when a file of the pack changed on disk (size or modification time) since it was
    last read here, the pack is read and validated again; while its files are younger than two seconds
    their bytes are hashed on every call as well (an edit within one clock tick keeps the mtime). Packs
    with identical files (the same ``pack_id``) are one and the same object, wherever they lie.
    """
    root = DEFAULT_PACK_DIR if path is None else Path(path).resolve()  # the default's path is resolved
    key = str(root)
    hit = _BY_PATH.get(key)
    if hit is not None and _stamp(root, hit.files) == hit.stamp:
        if hit.settled:
            return hit.pack
        if _digest(root, hit.files) == hit.digest:
            _BY_PATH[key] = _Loaded(hit.pack, hit.files, hit.stamp, hit.digest, _settled(hit.stamp))
            return hit.pack
    listed = _listed_files(root)
    stamp_before = _stamp(root, listed)
    pack, files = _load(root)
    pack = _BY_CONTENT.setdefault(pack.pack_id, pack)
    _BY_CONTENT.move_to_end(pack.pack_id)
    while len(_BY_CONTENT) > _CONTENT_CACHE_SIZE:
        _BY_CONTENT.popitem(last=False)
    stamp = _stamp(root, files)
    if files == listed and stamp == stamp_before:  # else changed while being read: the next call reads again
        _BY_PATH[key] = _Loaded(pack, files, stamp, _digest(root, files), _settled(stamp))
    return pack


def _listed_files(root: Path) -> tuple[str, ...]:
    """The files the manifest names, in the order :func:`_load` returns them (empty if it cannot tell)."""
    try:
        listed = json.loads(_read_text(root, MANIFEST))["files"]
        return (MANIFEST, *listed["boards"], *(listed[k] for k in _DATA_FILES))
    except (PackError, ValueError, RecursionError, KeyError, TypeError):
        return ()


def _settled(stamp: tuple[tuple[str, int, int], ...]) -> bool:
    """Whether every file was last modified well before now (so a later edit changes its stamp)."""
    return all(mtime < time.time_ns() - _SETTLE_NS for _, _, mtime in stamp)


def _stamp(root: Path, files: tuple[str, ...]) -> tuple[tuple[str, int, int], ...]:
    """(name, size, modification time in ns) of each file; (name, -1, -1) for one that is missing."""
    out = []
    folder = str(root)
    for rel in files:
        try:
            st = os.stat(os.path.join(folder, rel))
            out.append((rel, st.st_size, st.st_mtime_ns))
        except OSError:
            out.append((rel, -1, -1))
    return tuple(out)


def _digest(root: Path, files: tuple[str, ...] | list[str]) -> str:
    """sha256 of the pack's files (the manifest is always included), in name order, as hex."""
    digest = hashlib.sha256()
    for rel in sorted({MANIFEST, *files}):
        digest.update(rel.encode("utf-8") + b"\0")
        digest.update((root / rel).read_bytes())
        digest.update(b"\0")
    return digest.hexdigest()


def _load_rules(raw: Any, file: str) -> dict:
    """``pack.json`` ``rules``: each editable number in its range, each fixed one (may be left out) at the
    engine's value; returns every rule key with its value."""
    rules = _dict(raw, file, "rules", required=tuple(_RULE_RANGES), optional=tuple(FIXED_RULES))
    for k, (lo, hi) in _RULE_RANGES.items():
        _int(rules[k], file, f"rules.{k}", lo, hi)
    rate, size = rules["trade_rate"], rules["set_size"]
    if size >= rate:
        raise PackError(file, "rules.set_size", f"{size} is not below trade_rate {rate}: final scoring counts the "
                        f"best sets exactly only when a set is smaller than a trade (allowed: 1..{rate - 1})")
    for k, (value, why) in FIXED_RULES.items():
        if k in rules and json.dumps(rules[k]) != json.dumps(value):
            raise PackError(file, f"rules.{k}", f"{short_repr(rules[k])} is not allowed: the engine fixes this number "
                            f"at {json.dumps(value)} ({why}); keep {json.dumps(value)} or leave the key out")
    out = dict(rules)
    for k, (value, _) in FIXED_RULES.items():
        out.setdefault(k, value)
    return out


def _load_coronation(raw: Any, file: str) -> dict[int, tuple[int, ...]]:
    """``pack.json`` ``coronation_tokens``: player count -> token values. Each player takes at most one
    token (the first time the trollsmoot is full) and the last one triggers the end, so a count has 1 to
    that many tokens: more could never all be taken and the game would never end."""
    _dict(raw, file, "coronation_tokens", optional=tuple(str(n) for n in PLAYER_COUNTS))
    out: dict[int, tuple[int, ...]] = {}
    for k, v in raw.items():
        field = f"coronation_tokens.{k}"
        vals = _list(v, file, field)
        if not 1 <= len(vals) <= int(k):
            raise PackError(file, field, f"{len(vals)} tokens; {k} players can take 1..{k} (one each, and the "
                            "last one ends the game)")
        out[int(k)] = tuple(_int(x, file, f"{field}[{j}]", 0, LIMITS["honour"]) for j, x in enumerate(vals))
    return dict(sorted(out.items()))


def _check_action_space(boards: dict[str, tuple[str, BoardSide]], tunnels: tuple[TunnelShape, ...],
                        halls: tuple[GreatHall, ...], spells: tuple[Spell, ...], workshops: tuple[Workshop, ...],
                        n_starters: int, rules: dict, files: dict) -> None:
    """Refuse a pack whose flat action space (``ActionLayout``) could exceed ``LIMITS["actions"]`` on some
    board side. The bound adds up each block's size (digs and halls: every square times every
    orientation); the error names the file and field of the largest block."""
    n_res = len(RESOURCES)
    conversions = sum(len(TOKEN_KINDS) * sum(TROLLSMOOT_ROWS) if t.move_from_troll
                      else math.comb(t.give_any + n_res - 1, n_res - 1) if t.give_any else 1
                      for w in workshops for t in w.trades)
    options = max([len(s.params.get("options", ())) for s in spells] + [1])
    fixed = (1 + n_starters * TROLLSMOOT_ROWS[0] + rules["spellbook_size"] + options + len(workshops)
             + n_res + 3 * len(MINERALS) + sum(TROLLSMOOT_ROWS) + sum(HORDE_ROWS) * (1 + sum(TROLLSMOOT_ROWS[1:])))
    tunnel_orients = sum(len(_orientations(t.cells)) for t in tunnels)
    hall_orients = sum(len(_orientations(h.cells)) for h in halls)
    for name, (rel, board) in boards.items():
        squares = board.height * board.width
        parts = {  # block: (most actions, file, field that sets it)
            "trade": (math.comb(rules["trade_rate"] + n_res - 1, n_res - 1) * n_res, MANIFEST, "rules.trade_rate"),
            "workshop_use": (conversions, files["workshops"], "workshops"),
            "dig": (squares * tunnel_orients, files["tunnels"], "tunnels"),
            "hall": (squares * hall_orients, files["great_halls"], "great_halls"),
            "board squares": (4 * squares, rel, "[tiers]"),  # gates, workshop sites, statue choices
            "the rest": (fixed, MANIFEST, "rules"),
        }
        total = sum(n for n, _, _ in parts.values())
        if total > LIMITS["actions"]:
            block, (n, file, field) = max(parts.items(), key=lambda kv: kv[1][0])
            raise PackError(file, field, f"board side {name!r} could have up to {total:,} actions (the {block} "
                            f"block up to {n:,}); the action space is limited to {LIMITS['actions']:,}")


def _load(root: Path) -> tuple[ContentPack, tuple[str, ...]]:
    """Read and validate the pack in folder ``root``; also returns the names of its files."""
    if not root.is_dir():
        raise PackError(MANIFEST, "", f"pack folder not found ({root})")
    m = _read_json(root, MANIFEST)
    file = MANIFEST
    _dict(m, file, "", required=(
        "name", "version", "files", "components", "tunnel_honour", "statue_values", "pedestal_multiplier",
        "pedestal_tokens", "coronation_tokens", "supply", "statues_per_clan", "pedestals_per_clan", "rules"))
    name = _str(m["name"], file, "name")
    version = _str(m["version"], file, "version")

    files = _dict(m["files"], file, "files", required=("boards", *_DATA_FILES))
    board_files = _list(files["boards"], file, "files.boards")
    if not board_files:
        raise PackError(file, "files.boards", "needs at least one board side")
    rel_files = []
    for i, b in enumerate(board_files):
        _str(b, file, f"files.boards[{i}]")
        if not b.endswith(".txt"):
            raise PackError(file, f"files.boards[{i}]", f"board maps are .txt files, got {b!r}")
        rel_files.append(b)
    for k in _DATA_FILES:
        rel = _str(files[k], file, f"files.{k}")
        if not rel.endswith(".json"):
            raise PackError(file, f"files.{k}", f"expected a .json file, got {rel!r}")
        rel_files.append(rel)
    _unique(rel_files, file, "files", "file")
    for rel in rel_files:
        p = Path(rel)
        if p.is_absolute() or ".." in p.parts:
            raise PackError(file, "files", f"{rel!r} must be a path inside the pack folder")

    comp = _dict(m["components"], file, "components", required=_COMPONENT_KEYS)
    for k in _COMPONENT_KEYS:
        if k != "horde_trolls":
            _int(comp[k], file, f"components.{k}", lo=0)
    horde_counts = _dict(comp["horde_trolls"], file, "components.horde_trolls", required=("1", "2", "3"))
    for k, v in horde_counts.items():
        _int(v, file, f"components.horde_trolls.{k}", 0, LIMITS["horde_per_level"])

    rules = _load_rules(m["rules"], file)
    honour = LIMITS["honour"]
    honour_raw = _dict(m["tunnel_honour"], file, "tunnel_honour", optional=("2", "3", "4", "5"))
    tunnel_honour: dict[int, dict[str, int]] = {}
    for k, row in honour_raw.items():
        _dict(row, file, f"tunnel_honour.{k}", required=MINERALS)
        tunnel_honour[int(k)] = {mn: _int(row[mn], file, f"tunnel_honour.{k}.{mn}", 0, honour) for mn in MINERALS}
    tunnel_honour = dict(sorted(tunnel_honour.items()))

    statue_values = tuple(_int(x, file, f"statue_values[{i}]", 0, honour)
                          for i, x in enumerate(_list(m["statue_values"], file, "statue_values", N_TIERS)))
    pedestal_multiplier = _int(m["pedestal_multiplier"], file, "pedestal_multiplier", 1,
                               LIMITS["pedestal_multiplier"])
    tokens = _list(m["pedestal_tokens"], file, "pedestal_tokens")
    if len(tokens) != N_TIERS * N_CLANS:
        raise PackError(file, "pedestal_tokens", f"expected {N_TIERS * N_CLANS} tokens (one per tier and clan), "
                        f"got {len(tokens)}")
    if len(tokens) != comp["pedestal_tokens"]:
        raise PackError(file, "pedestal_tokens", f"{len(tokens)} tokens but components.pedestal_tokens is "
                        f"{comp['pedestal_tokens']}")
    pedestal_tokens = tuple(_int(x, file, f"pedestal_tokens[{i}]", 0, honour) for i, x in enumerate(tokens))
    if not any(pedestal_tokens):
        raise PackError(file, "pedestal_tokens", "every token is worth 0; at least one must be worth 1 or more (the "
                        "observation scales the pedestal track by the largest token)")
    coronation_tokens = _load_coronation(m["coronation_tokens"], file)

    sup = _dict(m["supply"], file, "supply", required=RESOURCES)
    supply = {r: _int(sup[r], file, f"supply.{r}", 1, LIMITS["supply"]) for r in RESOURCES}
    statues_per_clan = _int(m["statues_per_clan"], file, "statues_per_clan", 1, LIMITS["statues_per_clan"])
    pedestals_per_clan = _int(m["pedestals_per_clan"], file, "pedestals_per_clan", 1,
                              LIMITS["pedestals_per_clan"])

    # --- boards
    boards: dict[str, BoardSide] = {}
    board_file: dict[str, tuple[str, BoardSide]] = {}
    for i, rel in enumerate(board_files):
        board = parse_board(_read_text(root, rel), Path(rel).stem, source=rel)
        if board.name in boards:
            raise PackError(file, f"files.boards[{i}]", f"two boards named {board.name!r}")
        n_statues = N_CLANS * statues_per_clan
        if len(board.statue_spots) >= n_statues:
            raise PackError(rel, "[features]", f"{len(board.statue_spots)} statue spots; there must be fewer than "
                            f"the {n_statues} statues")
        most_revealed = 2 * max(board.player_counts) + 1
        if len(board.workshop_sites) <= most_revealed:
            raise PackError(rel, "[features]", f"{len(board.workshop_sites)} workshop sites; need more than the "
                            f"{most_revealed} workshops revealed for {max(board.player_counts)} players")
        boards[board.name] = board
        board_file[board.name] = (rel, board)
    all_counts = sorted({p for b in boards.values() for p in b.player_counts})
    for p in all_counts:
        if p not in coronation_tokens:
            raise PackError(file, "coronation_tokens", f"no tokens for {p} players, which a board side allows")

    # --- tunnels
    tunnels = _load_tunnels(_read_json(root, files["tunnels"]), files["tunnels"])
    n_tiles = sum(t.count for t in tunnels)
    if n_tiles != comp["tunnel_tiles"]:
        raise PackError(files["tunnels"], "tunnels", f"{n_tiles} tiles in all; components.tunnel_tiles in "
                        f"{MANIFEST} is {comp['tunnel_tiles']}")
    for t in tunnels:
        if t.size not in tunnel_honour:
            raise PackError(file, "tunnel_honour", f"no row for size {t.size} (tunnel {t.name!r})")

    # --- trolls
    starters, horde = _load_trolls(_read_json(root, files["trolls"]), files["trolls"])
    if len(starters) != comp["starter_trolls"]:
        raise PackError(files["trolls"], "starters", f"{len(starters)} starter trolls; components.starter_trolls "
                        f"in {MANIFEST} is {comp['starter_trolls']}")
    if len(starters) < LIMITS["starters_min"]:
        raise PackError(files["trolls"], "starters", f"{len(starters)} starter trolls; the draft needs at least "
                        f"{LIMITS['starters_min']} (2 dealt, 3 drawn to fill the {TROLLSMOOT_ROWS[0]} slots of the "
                        f"starting row; allowed: {LIMITS['starters_min']}..{LIMITS['starters']})")
    by_level = Counter(t.level for t in horde)
    for lvl in (1, 2, 3):
        want = horde_counts[str(lvl)]
        if by_level[lvl] != want:
            raise PackError(files["trolls"], "horde", f"{by_level[lvl]} Level-{lvl} trolls; "
                            f"components.horde_trolls.{lvl} in {MANIFEST} is {want}")
        if by_level[lvl] < HORDE_ROWS[lvl - 1]:
            raise PackError(files["trolls"], "horde", f"{by_level[lvl]} Level-{lvl} trolls cannot fill a horde "
                            f"row of {HORDE_ROWS[lvl - 1]}")
    # every seat must be able to fill its trollsmoot, or the coronation (the game's end) may never come
    recruits = (sum(TROLLSMOOT_ROWS) - TROLLSMOOT_ROWS[0]) * max(all_counts)
    if len(horde) < recruits:
        raise PackError(files["trolls"], "horde", f"{len(horde)} horde trolls; {max(all_counts)} players "
                        f"filling their trollsmoots recruit {recruits}, so the game could never end")

    # --- spells
    spells = _load_spells(_read_json(root, files["spells"]), files["spells"])
    if len(spells) != comp["spells"]:
        raise PackError(files["spells"], "spells", f"{len(spells)} spells; components.spells in {MANIFEST} is "
                        f"{comp['spells']}")
    if len(spells) < rules["spellbook_size"]:
        raise PackError(files["spells"], "spells", f"fewer spells than the spellbook's {rules['spellbook_size']}")

    # --- workshops
    workshops = _load_workshops(_read_json(root, files["workshops"]), files["workshops"])
    if len(workshops) != comp["workshop_kinds"]:
        raise PackError(files["workshops"], "workshops", f"{len(workshops)} kinds; components.workshop_kinds in "
                        f"{MANIFEST} is {comp['workshop_kinds']}")
    n_ws = sum(w.count for w in workshops)
    if n_ws != comp["workshop_tiles"]:
        raise PackError(files["workshops"], "workshops", f"{n_ws} tiles in all; components.workshop_tiles in "
                        f"{MANIFEST} is {comp['workshop_tiles']}")
    most = 2 * max(all_counts) + 1
    if n_ws < most:
        raise PackError(files["workshops"], "workshops", f"{n_ws} tiles cannot fill the {most} revealed for "
                        f"{max(all_counts)} players")

    # --- great halls
    halls = _load_halls(_read_json(root, files["great_halls"]), files["great_halls"], tunnels)
    if len(halls) != comp["great_halls"]:
        raise PackError(files["great_halls"], "great_halls", f"{len(halls)} halls; components.great_halls in "
                        f"{MANIFEST} is {comp['great_halls']}")

    _check_action_space(board_file, tunnels, halls, spells, workshops, len(starters), rules, files)

    # --- identity: hash of every file of the pack, in name order
    pack_id = f"{name}@{version}+{_digest(root, rel_files)[:12]}"

    return ContentPack(
        pack_id=pack_id,
        boards=boards,
        tunnels=tunnels,
        tunnel_honour=tunnel_honour,
        starter_trolls=starters,
        horde_trolls=horde,
        spells=spells,
        workshops=workshops,
        great_halls=halls,
        statue_values=statue_values,
        pedestal_multiplier=pedestal_multiplier,
        pedestal_tokens=pedestal_tokens,
        coronation_tokens=coronation_tokens,
        supply=supply,
        statues_per_clan=statues_per_clan,
        pedestals_per_clan=pedestals_per_clan,
        rules=rules,
    ), (MANIFEST, *rel_files)
