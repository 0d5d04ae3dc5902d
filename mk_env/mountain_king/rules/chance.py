"""Chance: the horde decks, the pedestal bag and the spell deck. Every draw takes from the state's own
generator (``state.rng``) or the top of a deck, so a game is replayed exactly from its seed."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .actions import HORDE_ROW
from .content import N_CLANS

if TYPE_CHECKING:
    from .state import GameState


def draw_troll(st: GameState, row: int) -> int:
    """Draw for a horde row: its level's deck, else the next-higher, else the next-lower; -1 if all
    are empty."""
    order = list(range(row, 3)) + list(range(row - 1, -1, -1))
    for lvl in order:
        if st.decks[lvl]:
            if st.deck_unseen[lvl] > 0:
                st.deck_unseen[lvl] -= 1
            return st.decks[lvl].pop(0)
    return -1


def draw_pedestal(st: GameState) -> int:
    """A pedestal drawn at random from the bag (its clan), -1 if the bag is empty."""
    total = int(st.bag.sum())
    if total == 0:
        return -1
    x = int(st.rng.integers(total))
    for clan in range(N_CLANS):
        x -= int(st.bag[clan])
        if x < 0:
            st.bag[clan] -= 1
            return clan
    raise AssertionError("unreachable")


def refill(st: GameState, h: int) -> None:
    """Fill an empty horde slot; a fresh troll in the Level-2 row gets a pedestal from the bag."""
    st.horde[h] = draw_troll(st, HORDE_ROW[h])
    if HORDE_ROW[h] == 1 and st.horde[h] >= 0 and st.horde_pedestal[h] < 0:
        st.horde_pedestal[h] = draw_pedestal(st)


def draw_spell(st: GameState) -> int:
    """The top spell of the spell deck, -1 if it is empty."""
    if not st.spell_deck:
        return -1
    if st.spell_unseen > 0:
        st.spell_unseen -= 1
    return st.spell_deck.pop(0)
