"""Reading a saved state (:meth:`GameState.to_json`) back, refusing anything a game could not reach.

A save is checked in three passes, and the first fault found is reported as a :class:`StateError` that
names the field (and the index or key) and what is allowed:

1. **Header**: format version, data pack, game options, every field present and no unknown one.
2. **Types, shapes and ranges**: array fields are nested lists of the game's shape holding integers
   (never floats or booleans; ``reach`` holds booleans) within the field's range (indices point at real
   squares, cards, spells, sites, players; counts fit the field's type); plain fields have their type
   (an ``int`` is not a ``bool``) and range; ``pending`` holds only the keys the phase uses.
3. **Facts of the game**: :func:`mk_env.mountain_king.rules.invariants.check_invariants` (every token and card in
   exactly one place, tiles where tiles may lie, networks as the tiles say, and so on).

Pure: numpy and the rules engine only.
"""

from __future__ import annotations

import itertools
from typing import TYPE_CHECKING, Any

import numpy as np

from mk_env.core.saves import read_rng_state

from mk_env.core.errors import StateError

from .actions import N_HORDE, N_SMOOT
from .content import N_RESOURCES
from .fields import ARRAY, ARRAY_FIELDS, FIELD_NAMES, FIELDS, INTS, LISTS
from .invariants import InvariantError, check_invariants
from .pack import short_repr
from .state import FORMAT_VERSION, GameState
from .vocabulary import PHASE_NAMES, Pending, Phase, pending_from_save

if TYPE_CHECKING:
    from .game import Game

#: every field of a save, in the order a missing one is reported
_FIELD_ORDER = ("format_version", "pack_id", "options", "rng", *FIELD_NAMES)
_FIELDS = frozenset(_FIELD_ORDER)
#: keys of ``pending`` each phase needs (the recruit, the dig, the spell or the statue move under way)
_PENDING_NEEDED: dict[int, tuple[str, ...]] = {
    Phase.SPELL_OPTION: ("spell",), Phase.SPELL_SMOOT: ("spell",), Phase.SPELL_HORDE: ("spell",),
    Phase.SPELL_PEDESTAL: ("spell",), Phase.SPELL_DIG: ("spell",), Phase.SPELL_STATUE: ("spell",),
    Phase.BRIBE: ("horde", "smoot", "bribes"), Phase.RECRUIT_PEDESTAL: ("horde", "smoot", "bribes", "card"),
    Phase.DIG_MINERAL: ("dig", "return"), Phase.DIG_PEDESTAL: ("dig", "return"),
    Phase.DIG_WORKSHOP: ("dig", "return", "sites"), Phase.STATUE_DEST: ("statue", "back"),
    Phase.PAY: ("pay_action", "pay_phase", "paid", "bill"),  # and what the held decision's phase needs
}
_PAY_KEYS = ("pay_action", "pay_phase", "paid", "bill")


def read_state(game: Game, data: Any) -> GameState:
    """The state saved as ``data`` (the parsed JSON of :meth:`GameState.to_json`), checked (see the
    module docstring); raises :class:`StateError` naming the first fault."""
    _check_header(game, data)
    state = GameState(game)
    shapes, ranges, specs = _tables(game)
    for name, (lo, hi) in ranges.items():
        setattr(state, name, _array(name, data[name], shapes[name], ARRAY_FIELDS[name], lo, hi))
    for name, spec in specs.items():
        setattr(state, name, _scalar(name, data[name], spec))
    _check_ids(state)
    state.pending = _pending(game, data["pending"], state.phase)
    state._rng_state = _rng_state(data["rng"])
    try:
        check_invariants(state)
    except InvariantError as e:
        raise StateError(f"saved state is impossible: {e}") from None
    except (IndexError, KeyError, ValueError, TypeError) as e:  # a fact the invariants do not name
        raise StateError(f"saved state is inconsistent: checking it failed with {type(e).__name__}: {e}") from None
    return state


def _tables(game: Game) -> tuple[dict, dict, dict]:
    """The game's array shapes, array ranges and plain-field specs (built once per game), from the
    fields' declaration (:mod:`mk_env.mountain_king.rules.fields`): array values ``(lowest, highest)`` (counts: 0 to the
    dtype's largest); plain fields ("int", lo, hi), ("bool",), ("ints", lo, hi, length or None),
    ("lists", count, lo, hi) or ("pending",), read on its own once the phase is known."""
    hit = game.__dict__.get("_save_tables")
    if hit is None:
        ranges, specs = {}, {}
        for f in FIELDS:
            values = f.values(game) if f.values is not None else None
            if f.kind == ARRAY:
                ranges[f.name] = values if values is not None else (0, int(np.iinfo(f.dtype).max))
            elif f.kind == INTS:
                specs[f.name] = (INTS, *values)
            elif f.kind == LISTS:
                specs[f.name] = (LISTS, f.shape(game)[0], *values)
            else:
                specs[f.name] = (f.kind, *(values or ()))
        hit = game._save_tables = (game.array_shapes(), ranges, specs)
    return hit


def _check_header(game: Game, data: Any) -> None:
    if not isinstance(data, dict):
        raise StateError("saved state must be a JSON object")
    version = data.get("format_version")
    if type(version) is not int or version != FORMAT_VERSION:
        raise StateError(f"saved state has format_version {version!r}; this engine reads version {FORMAT_VERSION}")
    if data.get("pack_id") != game.pack.pack_id:
        raise StateError(f"saved state is from data pack {data.get('pack_id')!r}, but this game uses "
                         f"{game.pack.pack_id!r}")
    if data.get("options") != game.options_dict():
        raise StateError(f"saved state has options {data.get('options')!r}, but this game has "
                         f"{game.options_dict()!r}")
    missing = [k for k in _FIELD_ORDER if k not in data]
    if missing:
        raise StateError(f"saved state is missing fields: {', '.join(missing)}")
    unknown = sorted(str(k) for k in data if k not in _FIELDS)
    if unknown:
        raise StateError(f"saved state has unknown fields: {', '.join(unknown)}")


# ---------------------------------------------------------------------------------------------------------
# arrays


def _array(name: str, value: Any, shape: tuple[int, ...], dtype: Any, lo: int, hi: int) -> np.ndarray:
    """One array field: nested lists of ``shape`` holding integers in lo..hi (booleans for ``reach``)."""
    want = bool if dtype is np.bool_ else int
    what = "an array of true/false" if want is bool else "a numeric array of integers"
    try:
        leaves = (value if len(shape) == 1 else list(_leaves(value, len(shape)))) if type(value) is list else None
    except TypeError:
        leaves = None
    if leaves is None:
        raise StateError(f"saved state field {name!r} is not {what} of shape {shape}")
    types = set(map(type, leaves))
    if types - {want}:
        wrong = next(x for x in leaves if type(x) is not want)
        raise StateError(f"saved state field {name!r} is not {what}: it holds {short_repr(wrong)} "
                         f"({type(wrong).__name__})")
    if want is int and leaves and (min(leaves) < lo or max(leaves) > hi):
        flat = [i for i, x in enumerate(leaves) if not lo <= x <= hi][0]
        where = [int(i) for i in np.unravel_index(flat, shape)] if len(leaves) == int(np.prod(shape)) else flat
        raise StateError(f"saved state field {name!r} holds {short_repr(leaves[flat])} at {where}; allowed: {lo}..{hi}")
    try:
        arr = np.array(value, dtype=dtype)
    except ValueError:  # ragged lists
        arr = None
    if arr is None or arr.shape != shape:
        got = "ragged lists" if arr is None else arr.shape
        raise StateError(f"saved state field {name!r} has shape {got}, expected {shape}")
    return arr


def _leaves(value: Any, depth: int):
    """The innermost items of nested lists ``depth`` deep, in order."""
    for _ in range(depth - 1):
        value = itertools.chain.from_iterable(value)
    return value


# ---------------------------------------------------------------------------------------------------------
# plain fields


def _scalar(name: str, value: Any, spec: tuple) -> Any:
    kind = spec[0]
    if kind == "pending":
        return value  # read by _pending once the phase is known
    if kind == "bool":
        if type(value) is not bool:
            raise StateError(f"saved state field {name!r} should be bool, got {type(value).__name__}")
        return value
    if kind == "int":
        return _int(value, name, spec[1], spec[2])
    if type(value) is not list:
        raise StateError(f"saved state field {name!r} should be list, got {type(value).__name__}")
    if kind == "ints":
        _, lo, hi, length = spec
        if length is not None and len(value) != length:
            raise StateError(f"saved state field {name!r} has {len(value)} items, expected {length}")
        if value and (set(map(type, value)) != {int} or min(value) < lo or max(value) > hi):
            for i, x in enumerate(value):  # name the first bad item
                _int(x, f"{name}[{i}]", lo, hi)
        return list(value)
    _, count, lo, hi = spec  # "lists"
    if len(value) != count:
        raise StateError(f"saved state field {name!r} has {len(value)} lists, expected {count}")
    return [_scalar(f"{name}[{i}]", v, ("ints", lo, hi, None)) for i, v in enumerate(value)]


def _int(value: Any, name: str, lo: int, hi: int) -> int:
    """An integer (not a bool, not a float) in lo..hi."""
    if type(value) is not int:
        raise StateError(f"saved state field {name!r} should be int, got {type(value).__name__} {short_repr(value)}")
    if not lo <= value <= hi:
        raise StateError(f"saved state field {name!r} is {short_repr(value)}; allowed: {lo}..{hi}")
    return value


def _pending(game: Game, value: Any, phase: int) -> Pending:
    """``pending``: the decision under way, in the save's dict form
    (:func:`mk_env.mountain_king.rules.vocabulary.pending_to_save`);
    only known keys, each of its type and range, those the phase needs present."""
    if type(value) is not dict:
        raise StateError(f"saved state field 'pending' should be dict, got {type(value).__name__}")
    geo = game.geo
    specs = {
        "spell": ("int", 0, int(game.pack.rules["spellbook_size"]) - 1), "smoot": ("int", 0, N_SMOOT - 1),
        "horde": ("int", 0, N_HORDE - 1), "bribes": ("ints", 0, N_HORDE - 1, None),
        "card": ("int", 0, len(game.cards) - 1), "dig": ("int", 0, len(geo.tunnel_placements.size) - 1),
        "sites": ("ints", 0, len(geo.site_squares) - 1, None), "statue": ("int", 0, geo.n_squares - 1),
        "back": ("int", 0, len(PHASE_NAMES) - 1), "return": None,
        "pay_action": ("int", 0, game.layout.size - 1), "pay_phase": ("int", 0, len(PHASE_NAMES) - 1),
        "paid": ("ints", 0, game.layout.sizes.get("pay_token", 1) - 1, None),
        "bill": ("ints", 0, 2 ** 15, N_RESOURCES),
    }
    out: dict[str, Any] = {}
    for key, v in value.items():
        if key not in specs:
            raise StateError(f"saved state field 'pending' has unknown key {key!r}; allowed: {', '.join(specs)}")
        if key == "return":
            if v not in ("spell", "step3"):
                raise StateError(f"saved state field 'pending.return' is {short_repr(v)}; allowed: 'spell', 'step3'")
            out[key] = v
            continue
        x = _scalar(f"pending.{key}", v, specs[key])
        out[key] = tuple(x) if isinstance(x, list) else x
    needed = list(_PENDING_NEEDED.get(phase, ()))
    if (phase == Phase.PAY) != any(k in out for k in _PAY_KEYS) or (phase == Phase.PAY and not game.choose_payment):
        raise StateError(f"saved state field 'pending': the keys {', '.join(_PAY_KEYS)} belong to phase pay, only in "
                         f"games with payment=\"choose\" (phase {PHASE_NAMES[phase]}, payment={game.payment!r})")
    if phase == Phase.PAY:
        if out.get("pay_phase") in (Phase.PAY, Phase.GAME_OVER):
            raise StateError(f"saved state field 'pending.pay_phase' is {out['pay_phase']}; the decision held for "
                             "its payment was taken in a phase of play")
        needed += _PENDING_NEEDED.get(out.get("pay_phase", -1), ())
    if out.get("return") == "spell" or out.get("back") == Phase.SPELL_STATUE:  # a dig or statue move of a spell
        needed.append("spell")
    missing = [k for k in needed if k not in out]
    if missing:
        raise StateError(f"saved state field 'pending' lacks {', '.join(missing)}, which phase "
                         f"{PHASE_NAMES[phase]} needs")
    return pending_from_save(out)


def _rng_state(value: Any) -> dict:
    """The saved generator state, checked (:func:`mk_env.core.saves.read_rng_state`); the value as saved."""
    read_rng_state(value)
    return value


def _check_ids(state: GameState) -> None:
    """Ranges that depend on other fields: the seat to move, and tile and region ids below the next ones."""
    if state.phase >= len(PHASE_NAMES) or state.current >= state.num_players:
        raise StateError(f"saved state has phase {state.phase} / current {state.current} out of range "
                         f"(phase: 0..{len(PHASE_NAMES) - 1}, current: 0..{state.num_players - 1})")
    for name, following in (("tile", "next_tile"), ("region", "next_region")):
        ids = getattr(state, name)
        limit = getattr(state, following)
        if ids.max() >= limit:
            sq = int(np.argmax(ids >= limit))
            raise StateError(f"saved state field {name!r} holds {int(ids[sq])} at [{sq}]; allowed: -1..{limit - 1} "
                             f"({following} is {limit})")
