"""The game's content, as loaded from a data pack (``mk_env/mountain_king/data/<pack>/``).

Everything the rule texts leave to the printed components (the board picture, the troll cards, the spell
texts, the tunnel shapes, the great halls, the charts) lives in JSON/text files that a user can replace.
This module defines the immutable values the rules engine reads; :mod:`mk_env.mountain_king.rules.pack` builds
them from files and validates them, naming the file and field of any error.

Index conventions used everywhere in the engine:

* ``RESOURCES``: the seven resource kinds, minerals first.
* ``TOKEN_KINDS``: what a troll symbol can be: the seven resources (``cart`` = wild cart) plus the
  three clan carts.
* ``CLANS``: the statue / pedestal clans (Fire, Ice, Moon). ``TROLL_CLANS`` adds Mud.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

RESOURCES: tuple[str, ...] = ("stone", "iron", "heartstone", "coin", "cart", "hammer", "rune")
MINERALS: tuple[str, ...] = RESOURCES[:3]
STONE, IRON, HEARTSTONE, COIN, CART, HAMMER, RUNE = range(7)
CLANS: tuple[str, ...] = ("fire", "ice", "moon")
TROLL_CLANS: tuple[str, ...] = ("mud",) + CLANS
TOKEN_KINDS: tuple[str, ...] = RESOURCES + ("cart_fire", "cart_ice", "cart_moon")
#: token kind index of the clan cart of statue clan ``c`` is ``CLAN_CART0 + c``
CLAN_CART0 = 7
N_RESOURCES = len(RESOURCES)
N_TOKEN_KINDS = len(TOKEN_KINDS)
#: the resource each token kind counts as (clan carts are carts): the one place this mapping is written
TOKEN_RESOURCE: tuple[int, ...] = tuple(CART if k >= CLAN_CART0 else k for k in range(N_TOKEN_KINDS))
N_CLANS = len(CLANS)
N_TIERS = 5
TIER_NAMES: tuple[str, ...] = ("dark gray", "gray", "brown", "orange", "yellow")
#: the player counts the game is for
PLAYER_COUNTS: tuple[int, ...] = (2, 3, 4, 5)


@dataclass(frozen=True)
class BoardSide:
    """One side of the double-sided board, on a square grid of ``height`` x ``width``.

    ``tier`` is 1..5 (dark gray .. yellow) on ordinary squares and 0 off the board and on the heart.
    ``buried`` holds a resource index or -1. ``statue_spots`` are in clockwise order round the heart.
    ``start_points`` maps a player-count mark (3, 4, 5) to the squares so marked.
    """

    name: str
    height: int
    width: int
    on_board: np.ndarray  # bool [H, W]
    heart: np.ndarray  # bool [H, W]
    tier: np.ndarray  # int8 [H, W]
    rubble: np.ndarray  # bool [H, W]
    buried: np.ndarray  # int8 [H, W]
    statue_spots: tuple[tuple[int, int], ...]
    workshop_sites: tuple[tuple[int, int], ...]
    start_points: dict[int, tuple[tuple[int, int], ...]]
    player_counts: tuple[int, ...]  # player counts this side is played with


@dataclass(frozen=True)
class TunnelShape:
    """A stack of identical tunnel tiles. ``cells`` are (row, col) offsets; ``anchor`` indexes ``cells``."""

    name: str
    count: int
    cells: tuple[tuple[int, int], ...]
    anchor: int | None

    @property
    def size(self) -> int:
        return len(self.cells)


@dataclass(frozen=True)
class TrollCard:
    """A troll card. ``level`` is 0 for starter trolls. ``symbols`` are token kinds (names from
    ``TOKEN_KINDS``) it generates; ``starting`` are the one-time starting resources (starters only)."""

    id: str
    name: str
    clan: str  # one of TROLL_CLANS, or "starter"
    level: int
    symbols: tuple[str, ...]
    starting: tuple[str, ...] = ()


@dataclass(frozen=True)
class Spell:
    """A spell card: ``effect`` names a mechanic the engine implements, ``params`` configure it."""

    id: str
    name: str
    effect: str
    params: dict = field(default_factory=dict)
    text: str = ""


@dataclass(frozen=True)
class WorkshopTrade:
    """One conversion a workshop offers. Either ``give`` (resource name -> count) or ``give_any`` (that
    many resources of any kinds) is spent, then ``gain`` is taken from the supply into storage.
    ``move_from_troll`` is the Quartermaster's move of one token from a troll into storage."""

    give: tuple[tuple[str, int], ...] = ()
    give_any: int = 0
    gain: tuple[tuple[str, int], ...] = ()
    move_from_troll: bool = False


@dataclass(frozen=True)
class Workshop:
    name: str
    count: int
    trades: tuple[WorkshopTrade, ...]
    wild_carts_only: bool = False  # the Cartwright: clan carts may not be spent here
    text: str = ""


@dataclass(frozen=True)
class GreatHall:
    name: str
    cells: tuple[tuple[int, int], ...]
    altar: int  # index into cells
    low: int  # honour with an empty altar
    high: int  # honour with a statue on the altar


@dataclass(frozen=True)
class ContentPack:
    """Everything the engine needs to know about the components, loaded once from a data pack."""

    pack_id: str  # name@version+hash of the files: game records name it
    boards: dict[str, BoardSide]
    tunnels: tuple[TunnelShape, ...]
    tunnel_honour: dict[int, dict[str, int]]  # size -> mineral name -> honour
    starter_trolls: tuple[TrollCard, ...]  # one colour's six starters (every colour has the same)
    horde_trolls: tuple[TrollCard, ...]  # the 55 horde trolls
    spells: tuple[Spell, ...]
    workshops: tuple[Workshop, ...]
    great_halls: tuple[GreatHall, ...]
    statue_values: tuple[int, ...]  # honour by tier 1..5
    pedestal_multiplier: int
    pedestal_tokens: tuple[int, ...]  # one value per token (15)
    coronation_tokens: dict[int, tuple[int, ...]]  # player count -> token values, first taken first
    supply: dict[str, int]  # resource name -> component count
    statues_per_clan: int
    pedestals_per_clan: int
    rules: dict  # small rule numbers: every key of pack.json ``rules`` (editable within bounds or fixed by the
    # engine: pack.FIXED_RULES, docs/rules-decisions.md "Pack numbers"), fixed ones filled in if left out
