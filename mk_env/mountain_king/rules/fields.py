"""Every field of a :class:`~mk_env.mountain_king.rules.state.GameState`, declared once: its type, shape, meaning, the
values a save may hold, its value before setup and, through its kind, how ``clone`` copies it and how a
save writes it.

Setup (:func:`blank_fields`), ``clone``, ``to_dict``, the save reader (:mod:`mk_env.mountain_king.rules.saved_state`)
and
:meth:`Game.array_shapes` all derive from :data:`FIELDS`; a new field is one line here (and the rule that
sets it). Board arrays are indexed by square (``r * width + c``) with one sentinel entry at the end.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from .actions import N_HORDE, N_SMOOT, TROLLSMOOT_ROWS
from .content import N_CLANS, N_RESOURCES, N_TIERS, N_TOKEN_KINDS
from .vocabulary import NO_PENDING, SquareKind

if TYPE_CHECKING:
    from .game import Game

#: field kinds, with how ``clone`` copies each: an array (``.copy()``), an int or a bool (shared: immutable),
#: a list of ints (``list(...)``), a list of lists of ints (each list copied), the :class:`Pending` record
#: (shared: immutable; saved in its dict form)
ARRAY, INT, BOOL, INTS, LISTS, PENDING = "array", "int", "bool", "ints", "lists", "pending"
#: the largest plain counter (turns, tile ids, ...) a save may hold
BIG = 2**31 - 1


@dataclass(frozen=True)
class Field:
    """One state field. ``shape`` (arrays: the shape; ``LISTS``: the number of lists, as a 1-tuple) and
    ``values`` (the lowest and highest value a save may hold; ``INTS`` may add a required length) are
    functions of the game; ``values`` None: an array's counts, 0 to the dtype's largest."""

    name: str
    kind: str
    meaning: str
    dtype: Any = None  # arrays: numpy dtype
    shape: Callable[[Game], tuple[int, ...]] | None = None
    fill: Any = 0  # arrays: the value before setup; other kinds: the default
    values: Callable[[Game], tuple] | None = None
    per_turn: bool = False  # back to ``fill`` at the start of every turn (:func:`reset_turn`)


def _squares(g: Game) -> tuple[int, ...]:
    return (g.geo.n_squares + 1,)


def _players(g: Game) -> tuple[int, ...]:
    return (g.num_players,)


def _spellbook(g: Game) -> tuple[int, ...]:
    return (int(g.pack.rules.get("spellbook_size", 3)),)


def _array(name: str, dtype: Any, shape: Callable, fill: int, meaning: str, values: Callable | None = None) -> Field:
    return Field(name, ARRAY, meaning, dtype, shape, fill, values)


_CLAN = (lambda g: (-1, N_CLANS - 1))
_CARD = (lambda g: (-1, len(g.cards) - 1))
_ID16 = (lambda g: (-1, int(np.iinfo(np.int16).max)))

FIELDS: tuple[Field, ...] = (
    # -- the board (per square, sentinel last) ----------------------------------------------------------
    _array("kind", np.int8, _squares, SquareKind.EMPTY, "what lies there (SquareKind)", lambda g: (0, 3)),
    _array("tile", np.int16, _squares, -1, "placed tile id (gates, tunnels, halls), -1 none", _ID16),
    _array("region", np.int16, _squares, -1, "the tunnel it belongs to for statue moves and scoring, -1 none",
           _ID16),
    _array("hall_at", np.int8, _squares, -1, "great hall covering it, -1 none",
           lambda g: (-1, len(g.pack.great_halls) - 1)),
    _array("statue", np.int8, _squares, -1, "statue clan, -1 none", _CLAN),
    _array("pedestal", np.int8, _squares, -1, "pedestal clan, -1 none", _CLAN),
    _array("buried", np.int8, _squares, -1, "buried resource still there, -1 none",
           lambda g: (-1, N_RESOURCES - 1)),
    _array("reach", np.bool_, lambda g: (g.num_players, g.geo.n_squares + 1), False,
           "[player, square]: in that player's network", lambda g: (0, 1)),
    _array("gate_sq", np.int32, _players, -1, "per player: gate square, -1 before placement",
           lambda g: (-1, g.geo.n_squares - 1)),
    _array("hall_altar", np.int32, lambda g: (len(g.pack.great_halls),), -1,
           "per great hall: altar square once dedicated, -1 in the supply", lambda g: (-1, g.geo.n_squares - 1)),
    _array("workshop", np.int8, lambda g: (len(g.geo.site_squares),), -1,
           "per workshop site: workshop kind established there, -1 empty", lambda g: (-1, len(g.pack.workshops) - 1)),
    # -- supplies and the horde ---------------------------------------------------------------------------
    _array("workshop_supply", np.int8, lambda g: (len(g.pack.workshops),), 0,
           "per workshop kind: tiles revealed and not yet established"),
    _array("tunnel_supply", np.int8, lambda g: (len(g.pack.tunnels),), 0, "per tunnel shape: tiles left"),
    _array("supply", np.int16, lambda g: (N_RESOURCES,), 0, "per resource: tokens in the supply"),
    _array("horde", np.int16, lambda g: (N_HORDE,), -1, "per horde slot: card, -1 empty", _CARD),
    _array("horde_bribes", np.int8, lambda g: (N_HORDE, N_RESOURCES), 0, "[horde slot, resource]: bribes on it"),
    _array("horde_pedestal", np.int8, lambda g: (N_HORDE,), -1, "per horde slot: pedestal clan on it, -1 none",
           _CLAN),
    _array("bag", np.int8, lambda g: (N_CLANS,), 0, "per clan: pedestals in the draw bag"),
    _array("spellbook", np.int16, _spellbook, -1, "per spellbook position: spell, -1 empty",
           lambda g: (-1, len(g.pack.spells) - 1)),
    _array("spell_runes", np.int8, _spellbook, 0, "per spellbook position: runes on the spell"),
    _array("track_value", np.int8, lambda g: (N_TIERS, N_CLANS), 0, "[tier, clan]: pedestal point token value"),
    _array("track_taken", np.int8, lambda g: (N_TIERS, N_CLANS), -1,
           "[tier, clan]: player who placed that pedestal, -1 free", lambda g: (-1, g.num_players - 1)),
    # -- the players ------------------------------------------------------------------------------------
    _array("coronation", np.int16, _players, 0, "per player: coronation honour earned"),
    _array("storage", np.int16, lambda g: (g.n_storages, N_RESOURCES), 0, "[storage, resource]"),
    _array("storage_pedestals", np.int8, lambda g: (g.n_storages, N_CLANS), 0, "[storage, clan]"),
    _array("smoot", np.int16, lambda g: (g.num_players, N_SMOOT), -1, "[player, trollsmoot slot]: card, -1 empty",
           _CARD),
    _array("tokens", np.int8, lambda g: (g.num_players, N_SMOOT, N_TOKEN_KINDS), 0,
           "[player, slot, token kind]: tokens the troll holds"),
    _array("honour", np.int16, _players, 0, "per player: honour scored during the game (tunnels)"),
    _array("pedestal_points", np.int16, _players, 0, "per player: value of pedestal point tokens taken"),
    _array("pedestal_tokens", np.int8, _players, 0, "per player: number of pedestal point tokens taken"),
    # -- the turn -----------------------------------------------------------------------------------------
    Field("phase", INT, "the decision awaited (Phase)", fill=0, values=lambda g: (0, BIG)),
    Field("current", INT, "the seat to decide", fill=0, values=lambda g: (0, BIG)),
    Field("turn", INT, "turns begun since the draft (0 = the start player's first)", fill=0,
          values=lambda g: (0, BIG)),
    Field("board_version", INT, "changes whenever a tile is placed (the board memos' key)", fill=0,
          values=lambda g: (0, BIG)),
    Field("next_tile", INT, "the id of the next tile placed", fill=0, values=lambda g: (0, BIG)),
    Field("next_region", INT, "the id of the next tunnel region", fill=0, values=lambda g: (0, BIG)),
    Field("spell_cast", BOOL, "a spell was cast this turn", fill=False, per_turn=True),
    Field("workshops_left", INT, "workshop activations left this turn (1, +1 by a spell)", fill=1,
          values=lambda g: (0, 2), per_turn=True),
    Field("used_sites", INTS, "workshop sites activated this turn", fill=(),
          values=lambda g: (0, len(g.geo.site_squares) - 1, None), per_turn=True),
    Field("active_site", INT, "the workshop site being used, -1 none", fill=-1,
          values=lambda g: (-1, len(g.geo.site_squares) - 1), per_turn=True),
    Field("uses_left", INT, "uses left of the active workshop (its open entrances)", fill=0,
          values=lambda g: (0, 4), per_turn=True),
    Field("bribe_any", BOOL, "Golden Mask: bribes may be paid in any resources this turn", fill=False, per_turn=True),
    Field("ignore_rubble", BOOL, "Clear Passage: digging ignores rubble this turn", fill=False, per_turn=True),
    Field("free_moves", INT, "a spell's free statue moves left", fill=0,
          values=lambda g: (0, max([int(s.params.get("moves", 0)) for s in g.pack.spells] + [0])), per_turn=True),
    Field("pending", PENDING, "the sub-decision under way (Pending)", fill=NO_PENDING, per_turn=True),
    # -- the end, hidden information and the record ------------------------------------------------------
    Field("final_turns_left", INT, "turns left once the coronation is complete, -1 before", fill=-1,
          values=lambda g: (-1, 3 * g.num_players - 1)),
    Field("coronation_left", INTS, "coronation tokens not yet taken, the next first", fill=(),
          values=lambda g: (0, BIG, None)),
    Field("decks", LISTS, "per level: the horde deck, top first", shape=lambda g: (3,), fill=(),
          values=lambda g: (g.n_starters, len(g.cards) - 1)),
    Field("deck_unseen", INTS, "per level: cards on top of the deck nobody has seen", fill=(0, 0, 0),
          values=lambda g: (0, BIG, 3)),
    Field("spell_deck", INTS, "the spell deck, top first", fill=(), values=lambda g: (0, len(g.pack.spells) - 1, None)),
    Field("spell_unseen", INT, "spells on top of the spell deck nobody has seen", fill=0, values=lambda g: (0, BIG)),
    Field("draft_deck", LISTS, "per player: starters not yet drawn", shape=_players, fill=(),
          values=lambda g: (0, g.n_starters - 1)),
    Field("draft_hand", LISTS, "per player: starters in hand", shape=_players, fill=(),
          values=lambda g: (0, g.n_starters - 1)),
    Field("draft_placed", INTS, "per player: starters placed", fill=(),
          values=lambda g: (0, TROLLSMOOT_ROWS[0], g.num_players)),
    Field("tile_shape", INTS, "per tile id: its tunnel shape, -1 gates and halls", fill=(),
          values=lambda g: (-1, len(g.pack.tunnels) - 1, None)),
    Field("history", INTS, "every decision applied, in order", fill=(), values=lambda g: (0, g.layout.size - 1, None)),
)
FIELD_NAMES = tuple(f.name for f in FIELDS)
ARRAY_FIELDS: dict[str, Any] = {f.name: f.dtype for f in FIELDS if f.kind == ARRAY}
#: the fields a new turn starts afresh: (name, value or list to copy)
_PER_TURN = tuple((f.name, f.fill, f.kind == INTS) for f in FIELDS if f.per_turn)


def blank_fields(state: Any, game: Game) -> None:
    """Give ``state`` every field at its value before setup (arrays of the game's shapes)."""
    for f in FIELDS:
        if f.kind == ARRAY:
            value = np.full(f.shape(game), f.fill, f.dtype)
        elif f.kind == INTS:
            value = list(f.fill)
        elif f.kind == LISTS:
            value = [[] for _ in range(f.shape(game)[0])]
        else:
            value = f.fill
        setattr(state, f.name, value)


def array_shapes(game: Game) -> dict[str, tuple[int, ...]]:
    """The shape of each array field in ``game``'s states."""
    return {f.name: tuple(f.shape(game)) for f in FIELDS if f.kind == ARRAY}


#: how ``clone`` copies a field of each kind (a Python expression of the original's value ``v``)
_COPIES = {ARRAY: "{v}.copy()", INT: "{v}", BOOL: "{v}", PENDING: "{v}", INTS: "list({v})",
           LISTS: "[list(x) for x in {v}]"}


def _copy_fields_function() -> Callable[[Any, Any], None]:
    """:func:`copy_fields`, written out from the declaration (one assignment per field, each copied as its
    kind says: see :data:`_COPIES`), the way :mod:`dataclasses` writes ``__init__``."""
    body = [f"    other.{f.name} = " + _COPIES[f.kind].format(v=f"state.{f.name}") for f in FIELDS]
    namespace: dict[str, Any] = {}
    exec("def copy_fields(state, other):\n" + "\n".join(body) + "\n", namespace)  # noqa: S102 - declared names
    return namespace["copy_fields"]


#: give ``other`` an independent copy of every field of ``state`` (``GameState.clone``): arrays copied,
#: lists copied (lists of lists each), ints, bools and the Pending record shared (immutable)
copy_fields: Callable[[Any, Any], None] = _copy_fields_function()


def _reset_turn_function() -> Callable[[Any], None]:
    """:func:`reset_turn`, written out from the declaration (one assignment per per-turn field: cheaper than
    a loop of ``setattr`` once every turn), the way :mod:`dataclasses` writes ``__init__``."""
    body = [f"    state.{name} = {'list' if is_list else ''}(_PER_TURN[{i}][1])" for i, (name, _, is_list)
            in enumerate(_PER_TURN)]
    source = "def reset_turn(state):\n" + "\n".join(body) + "\n"
    namespace: dict[str, Any] = {"_PER_TURN": _PER_TURN}
    exec(source, namespace)  # noqa: S102 - source built above from the field names declared in this module
    return namespace["reset_turn"]


#: start a turn afresh: every per-turn field (no spell cast, one workshop activation, ...) back to its
#: declared value
reset_turn: Callable[[Any], None] = _reset_turn_function()
