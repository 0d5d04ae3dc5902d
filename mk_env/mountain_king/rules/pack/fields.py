"""Reading a pack's files and JSON values with limits: :class:`PackError`, :data:`LIMITS` and the small typed
readers every other loader module uses. Each reader takes the value, the file name and the field path used
in error messages (``spells.json: spells[3].params.moves: 0 is below the minimum 1 (allowed: 1..10)``)."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

from mk_env.mountain_king.rules.content import RESOURCES

DEFAULT_PACK_DIR = Path(__file__).resolve().parent.parent.parent / "data" / "default"
MANIFEST = "pack.json"
NEIGHBOURS = ((-1, 0), (1, 0), (0, -1), (0, 1))

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


class PackError(ValueError):
    """A content pack is missing, unreadable or inconsistent; the message names the file and the field."""

    def __init__(self, file: str, field: str, message: str) -> None:
        self.file = file
        self.field = field
        super().__init__(f"{file}: {field}: {message}" if field else f"{file}: {message}")



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
        for dr, dc in NEIGHBOURS:
            q = (r + dr, c + dc)
            if q in cellset and q not in seen:
                seen.add(q)
                stack.append(q)
    return len(seen) == len(cellset)


def _unique(values: list[str], file: str, field: str, what: str) -> None:
    dup = [k for k, n in Counter(values).items() if n > 1]
    if dup:
        raise PackError(file, field, f"duplicate {what} {dup[0]!r}")



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

