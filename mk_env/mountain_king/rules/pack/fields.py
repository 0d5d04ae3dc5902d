"""Reading a pack's files and JSON values with limits: :data:`LIMITS`, the file readers and the readers this
game's pack needs (resource amounts, cell shapes); the typed JSON readers every loader module uses
(``read_object``, ``read_int``, ...) and :class:`PackError` are the suite's (:mod:`mk_env.core.pack_json`),
named here for this package's modules. Each reader takes the value, the file name and the field path used
in error messages (``spells.json: spells[3].params.moves: 0 is below the minimum 1 (allowed: 1..10)``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from mk_env.core.pack_files import read_json, read_text
from mk_env.core.pack_json import (PackError, check_unique, join_field, read_bool, read_int, read_list,  # noqa: F401
                                   read_name, read_object, read_str, short_repr)
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


def _amounts(v: Any, file: str, field: str) -> tuple[tuple[str, int], ...]:
    """A JSON object resource name -> positive count, as (name, count) pairs in RESOURCES order."""
    read_object(v, file, field, optional=RESOURCES)
    if not v:
        raise PackError(file, field, "must name at least one resource")
    for k, n in v.items():
        read_int(n, file, join_field(field, k), 1, LIMITS["amount"])
    return tuple((r, v[r]) for r in RESOURCES if r in v)


def _cells(v: Any, file: str, field: str, lo: int, hi: int) -> tuple[tuple[int, int], ...]:
    """A connected set of ``lo``..``hi`` distinct (row, col) cells."""
    read_list(v, file, field)
    if not lo <= len(v) <= hi:
        raise PackError(file, field, f"size {len(v)} is outside {lo}..{hi}")
    cells = []
    for i, c in enumerate(v):
        read_list(c, file, join_field(field, i), length=2)
        top = LIMITS["cell_offset"]
        cells.append((read_int(c[0], file, f"{field}[{i}][0]", 0, top),
                      read_int(c[1], file, f"{field}[{i}][1]", 0, top)))
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


def _read_text(root: Path, rel: str) -> str:
    """The text of a pack file, refused when missing, unreadable, not UTF-8 or over ``LIMITS["file_bytes"]``."""
    return read_text(root, rel, LIMITS["file_bytes"])


def _read_json(root: Path, rel: str) -> Any:
    """A pack file as JSON of bounded size and nesting (the suite's reader, :mod:`mk_env.core.pack_files`)."""
    return read_json(root, rel, LIMITS["file_bytes"])

