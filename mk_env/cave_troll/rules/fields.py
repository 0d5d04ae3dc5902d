"""Every field of a Cave Troll state, declared once: kind, meaning, length and the values a save may hold.
Setup (:func:`blank`), ``clone``, ``to_dict`` and the save reader (:mod:`.saves`) derive from
:data:`FIELDS`. The state is a handful of ints and flat lists of ints, so a clone is a few list copies.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .vocabulary import HAND, NO_PENDING, PILE, PLAYED, STACK, Phase

if TYPE_CHECKING:
    from .game import Game

#: field kinds: an int (shared by clones), a list of ints (copied), a list of lists of ints (each copied),
#: the Pending record (shared: immutable)
INT, INTS, LISTS, PENDING = "int", "ints", "lists", "pending"
#: the scoring categories of each player's gold (``state.gold[p]``), in order
CATEGORIES = ("rooms", "treasure", "idol", "last_counter", "artifacts")
#: the largest turn number a save may hold
BIG = 2**31 - 1


@dataclass(frozen=True)
class Field:
    """One state field. ``length``: a list's length (``LISTS``: the number of lists); ``values``: the
    lowest and highest value a save may hold in it (for ``LISTS``: in each inner list)."""

    name: str
    kind: str
    meaning: str
    values: Callable[[Game], tuple[int, int]]
    length: Callable[[Game], int] | None = None
    fill: Any = 0


def _seats(g: Game) -> tuple[int, int]:
    return 0, g.num_players - 1


def _ids(g: Game) -> int:
    return g.num_players * g.pack.slots


FIELDS: tuple[Field, ...] = (
    Field("phase", INT, "the decision awaited (Phase)", lambda g: (0, len(Phase) - 1)),
    Field("current", INT, "the seat deciding now (the escaping player during escapes)", _seats),
    Field("turn_player", INT, "the seat whose turn it is", _seats),
    Field("first_player", INT, "the seat that took the first turn (chosen at random)", _seats),
    Field("turn", INT, "turns begun so far, minus one (0: the first turn; the First Round Rule reads it)",
          lambda g: (0, BIG)),
    Field("actions_left", INT, "actions left this turn after the one under way",
          lambda g: (0, g.pack.rules.actions_per_turn)),
    Field("loc", INTS,
          "each counter's place by id (seat * slots + slot): a location, -1 pile, -2 discarded, -3 in hand",
          lambda g: (HAND, g.pack.lair.size - 1), _ids, PILE),
    Field("piles", LISTS, "each seat's face-down pile of counter ids, the next drawn last",
          lambda g: (0, _ids(g) - 1), lambda g: g.num_players),
    Field("stack", INTS, "the face-down artifact stack (artifact indices), the next drawn last",
          lambda g: (0, len(g.pack.artifacts) - 1)),
    Field("art_at", INTS, "each artifact's place: -1 stack, -2 played, a seat: in that seat's hand",
          lambda g: (PLAYED, g.num_players - 1), lambda g: len(g.pack.artifacts), STACK),
    Field("idol_room", INT, "the room holding the Idol of El'darr, -1 none",
          lambda g: (-1, g.pack.lair.n_rooms - 1), fill=-1),
    Field("idol_owner", INT, "the seat that placed the Idol, -1 none", lambda g: (-1, g.num_players - 1), fill=-1),
    Field("score", INTS, "each seat's score track (gold so far)", lambda g: (0, BIG), lambda g: g.num_players),
    Field("gold", LISTS, "each seat's gold by scoring category (CATEGORIES)", lambda g: (0, BIG),
          lambda g: g.num_players),
    Field("cloaked", INT, "the counter id wearing the Cloak of Invisibility this turn, -1 none",
          lambda g: (-1, _ids(g) - 1), fill=-1),
    Field("ender", INT, "the seat that played its last counter and ended the game, -1 none",
          lambda g: (-1, g.num_players - 1), fill=-1),
    Field("pending", PENDING, "the sub-decision under way (Pending)", lambda g: (0, 0), fill=NO_PENDING),
)
FIELD_NAMES = tuple(f.name for f in FIELDS)
SHARED = tuple(f.name for f in FIELDS if f.kind in (INT, PENDING))
COPIED = tuple(f.name for f in FIELDS if f.kind == INTS)
NESTED = tuple(f.name for f in FIELDS if f.kind == LISTS)


def blank(st: Any, game: Game) -> None:
    """Every field at its value before setup."""
    for f in FIELDS:
        if f.kind == INTS:
            setattr(st, f.name, [f.fill] * f.length(game) if f.length else [])
        elif f.kind == LISTS:
            setattr(st, f.name, [[] for _ in range(f.length(game))])
        else:
            setattr(st, f.name, f.fill)
    st.gold = [[0] * len(CATEGORIES) for _ in range(game.num_players)]
