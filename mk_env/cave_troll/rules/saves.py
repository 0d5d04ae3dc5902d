"""Reading a saved state (:meth:`CaveTrollState.to_json`) back, refusing what no game could reach: the
header (format, game, pack, players, generator), every field present with its type, length and range
(:data:`~.fields.FIELDS`), the pending record's keys and values, then the invariants
(:mod:`.invariants`). The first fault is a :class:`StateError` naming the field and what is allowed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any


from mk_env.core.errors import StateError
from mk_env.core.saves import read_rng_state

from .fields import FIELDS, INT, INTS, LISTS, Field
from .invariants import problems
from .state import FORMAT_VERSION, CaveTrollState
from .vocabulary import Pending, pending_from_save

if TYPE_CHECKING:
    from .game import Game

_HEADER = ("format_version", "game", "pack_id", "num_players", "rng")


def _int(v: Any, where: str, lo: int, hi: int) -> int:
    if type(v) is not int:
        raise StateError(f"{where}: expected an integer, got {type(v).__name__} {str(v)[:40]}")
    if not lo <= v <= hi:
        raise StateError(f"{where}: {v} is outside the allowed range {lo}..{hi}")
    return v


def _ints(v: Any, where: str, lo: int, hi: int, length: int | None) -> list[int]:
    if type(v) is not list:
        raise StateError(f"{where}: expected a list of integers, got {type(v).__name__}")
    if length is not None and len(v) != length:
        raise StateError(f"{where}: expected {length} entries, got {len(v)}")
    return [_int(x, f"{where}[{i}]", lo, hi) for i, x in enumerate(v)]


def _field(game: Game, f: Field, v: Any) -> Any:
    lo, hi = f.values(game)
    if f.kind == INT:
        return _int(v, f.name, lo, hi)
    if f.kind == INTS:
        return _ints(v, f.name, lo, hi, f.length(game) if f.length else None)
    if f.kind == LISTS:
        outer = _ints([0] * len(v) if type(v) is list else v, f.name, 0, 0, f.length(game))
        return [_ints(x, f"{f.name}[{i}]", lo, hi, None) for i, x in enumerate(v[:len(outer)])]
    return _pending(game, v)


def _pending(game: Game, v: Any) -> Pending:
    if type(v) is not dict:
        raise StateError(f"pending: expected an object, got {type(v).__name__}")
    ids, n_loc = game.num_players * game.pack.slots, game.pack.lair.size
    ranges = {"counter": (0, ids - 1), "room": (0, n_loc - 1), "steps_left": (1, 10)}
    for k, x in v.items():
        where = f"pending.{k}"
        if k in ranges:
            _int(x, where, *ranges[k])
        elif k == "stepped":
            if type(x) is not bool:
                raise StateError(f"{where}: expected true or false, got {x!r}")
        elif k == "seats":
            _ints(x, where, 0, game.num_players - 1, None)
        elif k == "travellers":
            _ints(x, where, 0, ids - 1, None)
        else:
            raise StateError(f"pending: unknown key {k!r}; allowed: {', '.join(Pending._fields)}")
    return pending_from_save(v)


def read_state(game: Game, data: Any) -> CaveTrollState:
    """The state saved as ``data`` (the parsed JSON), checked; :class:`StateError` names the first fault."""
    if type(data) is not dict:
        raise StateError(f"a saved state is a JSON object, got {type(data).__name__}")
    names = _HEADER + tuple(f.name for f in FIELDS)
    for k in names:
        if k not in data:
            raise StateError(f"{k}: missing from the saved state")
    for k in data:
        if k not in names:
            raise StateError(f"{k}: unknown field; a Cave Troll save has: {', '.join(names)}")
    expected = {"format_version": FORMAT_VERSION, "game": "cave_troll", "pack_id": game.pack.pack_id,
                "num_players": game.num_players}
    for k, want in expected.items():
        if data[k] != want or type(data[k]) is not type(want):
            raise StateError(f"{k}: the save has {str(data[k])[:60]!r}, this game needs {want!r}")
    st = CaveTrollState(game)
    st._rng_state = read_rng_state(data["rng"])
    for f in FIELDS:
        setattr(st, f.name, _field(game, f, data[f.name]))
    found = problems(st)
    if found:
        raise StateError(f"impossible state: {found[0]}" + (f" (and {len(found) - 1} more)" if len(found) > 1 else ""))
    return st


__all__ = ["StateError", "read_state"]
