"""The component totals of a state (where every token, pedestal, tile and card is) and the error the
invariant checks raise."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from ..content import CLANS, N_RESOURCES, RUNE
from ..economy import as_resources
from ..vocabulary import SquareKind

if TYPE_CHECKING:
    from ..state import GameState

#: kinds of board squares (``state.kind``), as plain ints for numpy
EMPTY, GATE, TUNNEL, GREAT_HALL = (int(k) for k in SquareKind)


class InvariantError(AssertionError):
    """A state breaks an invariant of the game; the message names it and the numbers involved."""


def fail(what: str, detail: str) -> None:
    """Raise :class:`InvariantError` naming the invariant and the facts."""
    raise InvariantError(f"{what}: {detail}")


@dataclass(frozen=True)
class ComponentTotals:
    """How many of each component a state holds, by kind (the places are summed)."""

    tokens: tuple[int, ...]  # per resource: supply + storages + trolls + horde bribes + runes on spells
    statues: tuple[int, ...]  # per clan: statues on the board
    pedestals: tuple[int, ...]  # per clan: bag + storages + horde + taken on the track
    tunnel_tiles: tuple[int, ...]  # per tunnel shape: supply + dug
    workshops: int  # revealed: in the supply + established
    horde_trolls: int  # horde cards in decks, the horde and every trollsmoot
    spells: int  # spellbook + spell deck


# ================================================================================================
# totals
# ================================================================================================


def token_places(state: GameState) -> dict[str, np.ndarray]:
    """Resource tokens by place (each a length-7 vector; clan carts count as carts)."""
    trolls = as_resources(state.tokens.sum(axis=(0, 1)))
    runes = np.zeros(N_RESOURCES, np.int64)
    runes[RUNE] = int(state.spell_runes.sum())
    return {"supply": state.supply.astype(np.int64), "storages": state.storage.sum(axis=0).astype(np.int64),
            "trolls": trolls, "horde bribes": state.horde_bribes.sum(axis=0).astype(np.int64),
            "runes on spells": runes}


def pedestal_places(state: GameState) -> dict[str, np.ndarray]:
    """Pedestals by place, per clan. "taken" counts pedestals placed on the board (each took a point
    token off the track); those later covered by a great hall have left the game but stay counted."""
    horde = np.bincount(state.horde_pedestal[state.horde_pedestal >= 0], minlength=len(CLANS))
    return {"bag": state.bag.astype(np.int64),
            "storages": state.storage_pedestals.sum(axis=0).astype(np.int64),
            "horde": horde.astype(np.int64),
            "taken": (state.track_taken >= 0).sum(axis=0).astype(np.int64)}


def tunnels_dug(state: GameState) -> np.ndarray:
    """Tunnel tiles on the board (dug), per tunnel shape."""
    shapes = np.array([s for s in state.tile_shape if s >= 0], dtype=np.int64)
    return np.bincount(shapes, minlength=len(state.game.pack.tunnels))


def horde_cards(state: GameState) -> list[int]:
    """Every horde card in the game: decks, the horde, trollsmoots, the one being recruited."""
    n0 = state.game.n_starters
    cards = [c for deck in state.decks for c in deck]
    cards += [int(c) for c in state.horde if c >= 0]
    cards += [int(c) for c in state.smoot.reshape(-1) if c >= n0]
    if state.pending.recruit_card is not None:  # taken from the horde, not yet in the trollsmoot
        cards.append(int(state.pending.recruit_card))
    return cards


def component_totals(state: GameState) -> ComponentTotals:
    """Totals of every component kind in ``state`` (compare two states' totals to find a leak)."""
    tokens = sum(token_places(state).values())
    peds = sum(pedestal_places(state).values())
    statues = np.bincount(state.statue[state.statue >= 0], minlength=len(CLANS))
    tiles = state.tunnel_supply.astype(np.int64) + tunnels_dug(state)
    return ComponentTotals(
        tokens=tuple(int(x) for x in tokens), statues=tuple(int(x) for x in statues),
        pedestals=tuple(int(x) for x in peds), tunnel_tiles=tuple(int(x) for x in tiles),
        workshops=int(state.workshop_supply.sum() + (state.workshop >= 0).sum()),
        horde_trolls=len(horde_cards(state)),
        spells=int((state.spellbook >= 0).sum()) + len(state.spell_deck))


# ================================================================================================
# one state
# ================================================================================================
