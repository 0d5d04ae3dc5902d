"""Fall of the Mountain King's content as immutable values: both map sides, the ancestry cards, the
champions, the gnome wheel, the clan board's vote tiles, the Great Hall tokens, the elder table and the
numbers of the rules. Loaded and checked once by :mod:`.pack`. Every component here is a designed
stand-in for the printed one (docs/fall-of-the-mountain-king/rules-decisions.md).

Locations of a map side are numbered caverns first (``0 .. n_caverns-1``), then the lair spaces.
Clans are numbered by their plank on the clan board, top to bottom.
"""

from __future__ import annotations

from dataclasses import dataclass

from .vocabulary import Ability, Space, Symbol, Timing


@dataclass(frozen=True)
class MapSide:
    """One side of the map board (``small``: 2-3 players, ``large``: 4-5 players)."""

    players: tuple[int, ...]  # the player counts this side is for
    names: tuple[str, ...]  # each location's name (caverns, then lair spaces)
    n_caverns: int
    clan_of: tuple[int, ...]  # each cavern's clan (its domain)
    gates: tuple[tuple[int, ...], ...]  # per clan: its gate caverns
    domain: tuple[tuple[int, ...], ...]  # per clan: the caverns of its domain
    adjacent: tuple[tuple[int, ...], ...]  # each location's neighbours (lair spaces touch their caverns)
    lair_pairs: tuple[tuple[int, int], ...]  # the pairs of lair spaces with matching symbols
    lair_symbols: tuple[str, ...]  # each pair's symbol
    halls: tuple[tuple[int, ...], ...]  # each Great Hall space: the caverns touching it
    hall_names: tuple[str, ...]

    @property
    def size(self) -> int:
        """The number of locations."""
        return len(self.names)


@dataclass(frozen=True)
class Card:
    """An ancestry card: its cells row by row, each ``(symbol, strength)`` or None (blank). Strength 1 is
    an unnumbered (weak) symbol, 2 or more a numbered (strong) one."""

    rows: int
    cols: int
    cells: tuple[tuple[Symbol, int] | None, ...]


@dataclass(frozen=True)
class Champion:
    """A champion card."""

    name: str
    deck: int  # 0: the 0 deck, 1: the I/II deck, 2: the III deck
    clan: int  # the clan of its flag; -1: an outsider (its votes are wild)
    votes: int  # the votes shown at its top left
    ability: Ability
    timing: Timing
    amount: int  # the ability's number (honor, votes, supply, tokens, elder symbols)
    symbol: Symbol | None  # a SYMBOL ability's symbol
    strength: int  # a SYMBOL ability's strength
    claws: int  # uses per wave of a SYMBOL ability
    letter: str  # its letter code ("" if none): a champion pawn (decks 0, I/II) or a starburst (III)


@dataclass(frozen=True)
class Wheel:
    """The gnome wheel: its spaces clockwise from the star, where the tripwires lie and the boost track."""

    spaces: tuple[Space, ...]
    honor_tripwire: int  # the pawn crosses it when it enters this space
    breach_tripwire: int  # the pawn crosses it when it enters this space
    boost_track: int  # the highest honor boost


@dataclass(frozen=True)
class Rules:
    """The numbers of the rule text, kept as data so variants can change them."""

    gnomes: tuple[int, ...] = (10, 10, 10)  # gnomes of strength 1, 2, 3
    trolls: int = 25
    champion_bases: int = 5
    supply_by_wave: tuple[int, ...] = (6, 5, 4)
    supply_max: int = 8
    desperation_spaces: tuple[int, ...] = (6, 7, 8)  # supply spaces with a desperation symbol
    invaders_by_wave: tuple[int, ...] = (2, 3, 4)
    first_fall_honor: tuple[int, ...] = (3, 4, 5)
    later_fall_honor: int = 2
    starting_gnome_cards: tuple[int, ...] = (3, 4, 5, 6)  # by player count 2..5
    invasion_cards: tuple[int, ...] = (3, 3, 4, 5)
    display: tuple[int, ...] = (3, 4, 5, 6)
    hand: int = 4
    picks: int = 3
    max_boost: int = 8


@dataclass(frozen=True)
class FallPack:
    """A whole content pack."""

    pack_id: str
    sides: dict[str, MapSide]
    clans: tuple[str, ...]  # clan board, top to bottom
    swarm_cycle: tuple[int, ...]  # the clans' swarm points clockwise, from Moss
    cards: tuple[Card, ...]  # the regular ancestry cards
    starting_cards: tuple[Card, ...]
    grid: int  # the ancestry grid's side (6)
    champions: tuple[Champion, ...]
    yellow_lines: tuple[int, ...]  # influence levels of the yellow lines on every champion card
    wheel: Wheel
    vote_tiles: tuple[tuple[int, int, int], ...]
    hall_tokens: tuple[int, ...]
    elder_table: tuple[int, ...]
    rules: Rules

    def side_for(self, num_players: int) -> MapSide:
        """The map side for ``num_players``."""
        for side in self.sides.values():
            if num_players in side.players:
                return side
        raise ValueError(f"no map side of pack {self.pack_id!r} is for {num_players} players")
