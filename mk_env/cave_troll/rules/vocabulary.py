"""Cave Troll's vocabulary: the kinds of counters and artifacts, the decisions awaited (:class:`Phase`),
the blocks of the flat action space (:class:`Block`) and the sub-decision under way (:class:`Pending`).

Each name is a small typed value that compares like the int or string the state and the layout hold, so
the state stays plain data (lists of ints, JSON as is). Hot paths bind members to module names.
"""

from __future__ import annotations

from enum import IntEnum, StrEnum
from typing import Any, NamedTuple

#: where a counter is when it is not on the board (``state.loc``): in its owner's face-down pile, out of the
#: game, or in hand (just drawn, awaiting its place); on the board: a location number
PILE, DISCARDED, HAND = -1, -2, -3
#: where an artifact is (``state.art_at``): in the face-down stack, played (discarded or the placed Idol);
#: 0..n-1: in that player's hand
STACK, PLAYED = -1, -2


class Kind(IntEnum):
    """A counter's kind (the pack's ``counters.json`` names them in snake case)."""

    BARBARIAN = 0
    THIEF = 1
    KNIGHT = 2
    DWARF = 3
    EXPLORER = 4
    WRAITH = 5
    CAVE_TROLL = 6
    ORC = 7
    TREASURE = 8
    COUNT_THE_LOOT = 9
    FIND_AN_ARTIFACT = 10


ADVENTURERS = frozenset((Kind.BARBARIAN, Kind.THIEF, Kind.KNIGHT, Kind.DWARF, Kind.EXPLORER))
MONSTERS = frozenset((Kind.WRAITH, Kind.CAVE_TROLL, Kind.ORC))
EVENTS = frozenset((Kind.TREASURE, Kind.COUNT_THE_LOOT, Kind.FIND_AN_ARTIFACT))
#: counters that may move (every adventurer and monster but the Cave Troll: "once played, a Cave Troll
#: cannot be moved")
MOVERS = (ADVENTURERS | MONSTERS) - {Kind.CAVE_TROLL}


class Artifact(IntEnum):
    """An artifact's kind (its power is code: :mod:`mk_env.cave_troll.rules.artifacts`)."""

    HELM_OF_MIND_CONTROL = 0
    CHALICE_OF_TELEPORTATION = 1
    IDOL_OF_ELDARR = 2
    WAND_OF_SPEED = 3
    CLOAK_OF_INVISIBILITY = 4
    SWORD_OF_SLAYING = 5


class Phase(IntEnum):
    """The decision awaited (``state.phase``)."""

    ACTION = 0  # the player whose turn it is: draw, move, a monster's or the Thief's action, an artifact, end
    PLACE = 1  # the drawn counter's place (adventurer: entrance; Cave Troll: room), or a Treasure's room or decline
    ENTRY_PUSH = 2  # a Wraith entered a room: the adventurer it pushes, or decline (not when over five)
    PUSH_TO = 3  # where the pushed adventurer goes
    ESCAPE = 4  # a player with counters in the Cave Troll's room: one counter out, or decline
    STEP = 5  # the Helm's next step (up to three) or the Cloak's second room, or decline
    TELEPORT = 6  # the Chalice: the next adventurer's destination
    GAME_OVER = 7


PHASE_NAMES = ("action", "place", "entry_push", "push_to", "escape", "step", "teleport", "game_over")


class Block(StrEnum):
    """The blocks of the flat action space in layout order; the comment says what the argument means."""

    END_TURN = "end_turn"  # always 0: give up the actions left this turn
    DRAW = "draw"  # always 0: draw a counter from your pile
    DECLINE = "decline"  # always 0: no Treasure / no push / no escape / no more steps
    PLACE = "place"  # location of the drawn counter
    MOVE = "move"  # counter slot * locations + destination (moves, the Thief's jump, escapes)
    PUSH = "push"  # counter id (seat * slots + slot) of the adventurer a Wraith pushes
    PUSH_TO = "push_to"  # location the pushed adventurer goes to
    ORC = "orc"  # counter id of the adventurer an Orc discards
    HELM = "helm"  # counter id of the opponent's counter the Helm of Mind Control moves
    STEP = "step"  # location of the Helm's or the Cloak's next step
    CHALICE = "chalice"  # location whose adventurers the Chalice of Teleportation moves
    TELEPORT = "teleport"  # location the next of those adventurers goes to
    IDOL = "idol"  # room where the Idol of El'darr is placed
    WAND = "wand"  # room the Wand of Speed scores
    CLOAK = "cloak"  # slot of your adventurer wearing the Cloak of Invisibility
    SWORD = "sword"  # room where the Sword of Slaying discards every Orc


#: the blocks whose actions may be legal in each phase
PHASE_BLOCKS: dict[Phase, frozenset[Block]] = {
    Phase.ACTION: frozenset((Block.END_TURN, Block.DRAW, Block.MOVE, Block.PUSH, Block.ORC, Block.HELM,
                             Block.CHALICE, Block.IDOL, Block.WAND, Block.CLOAK, Block.SWORD)),
    Phase.PLACE: frozenset((Block.PLACE, Block.DECLINE)),
    Phase.ENTRY_PUSH: frozenset((Block.PUSH, Block.DECLINE)),
    Phase.PUSH_TO: frozenset((Block.PUSH_TO,)),
    Phase.ESCAPE: frozenset((Block.MOVE, Block.DECLINE)),
    Phase.STEP: frozenset((Block.STEP, Block.DECLINE)),
    Phase.TELEPORT: frozenset((Block.TELEPORT,)),
    Phase.GAME_OVER: frozenset(),
}


class Pending(NamedTuple):
    """The sub-decision under way (``state.pending``); ``None``: not part of it. Immutable."""

    #: the counter being placed, pushed, or moved by the Helm or the Cloak
    counter: int | None = None
    #: the room of the Cave Troll (escapes), of the entering Wraith (entry push), or the Chalice's origin
    room: int | None = None
    #: seats still to be asked to escape the Cave Troll, the one deciding first
    seats: tuple[int, ...] | None = None
    #: steps left to the Helm or the Cloak
    steps_left: int | None = None
    #: the Helm's first step is taken (only then may its player decline the rest)
    stepped: bool | None = None
    #: the adventurers the Chalice still moves, the next first
    travellers: tuple[int, ...] | None = None

    def __bool__(self) -> bool:
        return self != NO_PENDING


NO_PENDING = Pending()


def pending_to_save(pending: Pending) -> dict[str, Any]:
    """The save's dict form: the fields that are set (tuples as lists)."""
    return {k: (list(v) if type(v) is tuple else v) for k, v in pending._asdict().items() if v is not None}


def pending_from_save(data: dict[str, Any]) -> Pending:
    """The record of a save's dict form (keys and values already checked by the save reader)."""
    return Pending(**{k: (tuple(v) if type(v) is list else v) for k, v in data.items()})
