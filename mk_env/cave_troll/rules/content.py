"""Cave Troll's content as immutable values: the lair graph, each colour's counters, the artifacts and the
numbers of the rules. Loaded and checked once by :mod:`mk_env.cave_troll.rules.pack`.

Locations are numbered rooms first (``0 .. n_rooms-1``), then the entrances, then the pit (last).
"""

from __future__ import annotations

from dataclasses import dataclass

from .vocabulary import Artifact, Kind


@dataclass(frozen=True)
class Lair:
    """The board: rooms with their gold, the entrances, the pit, the doorways between them."""

    #: the name of each location (rooms, entrances, pit)
    names: tuple[str, ...]
    #: each location's drawing position (x, y) in board units
    pos: tuple[tuple[float, float], ...]
    #: each room's printed gold value (entrances and the pit: 0)
    gold: tuple[int, ...]
    #: number of rooms (locations ``0 .. n_rooms-1``)
    n_rooms: int
    #: the entrances' location numbers
    entrances: tuple[int, ...]
    #: the pit's location number (the last)
    pit: int
    #: each location's neighbours through a doorway, sorted
    doors: tuple[tuple[int, ...], ...]
    #: each location's one-action destinations: its doorways, and from an entrance every other entrance
    reach: tuple[tuple[int, ...], ...]

    @property
    def size(self) -> int:
        """The number of locations."""
        return len(self.names)

    def is_room(self, loc: int) -> bool:
        return 0 <= loc < self.n_rooms


@dataclass(frozen=True)
class ArtifactSpec:
    """One artifact counter: its power (``kind``), printed name and gold when unplayed at the end."""

    kind: Artifact
    name: str
    gold: int


@dataclass(frozen=True)
class Rules:
    """The numbers of the rule text, kept as data so variants can change them."""

    actions_per_turn: int = 4  # "On your turn, you have four actions"
    room_limit: int = 5  # "a room that already contains any combination of five adventurers and monsters"
    treasure_bonus: int = 4  # "A Treasure counter adds a 4-gold bonus to the room"
    last_counter_bonus: int = 3  # "receives a 3-gold bonus"
    helm_steps: int = 3  # "up to three legal rooms or entrances"
    cloak_steps: int = 2  # "may move two rooms for one action"


@dataclass(frozen=True)
class CaveTrollPack:
    """A whole content pack."""

    pack_id: str
    lair: Lair
    #: colour names, one per seat (at least as many as players)
    colours: tuple[str, ...]
    #: the kind of each of a colour's counters by slot (every colour has the same counters)
    slot_kinds: tuple[Kind, ...]
    #: the printed name of each slot's counter
    slot_names: tuple[str, ...]
    artifacts: tuple[ArtifactSpec, ...]
    rules: Rules

    @property
    def slots(self) -> int:
        """Counters per colour."""
        return len(self.slot_kinds)
