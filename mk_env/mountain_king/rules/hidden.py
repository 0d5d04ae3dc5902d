"""Hidden information: a copy of the state with what one player cannot see resampled."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from .state import GameState


def determinize(st: GameState, player: int, rng: np.random.Generator) -> GameState:
    """A copy of ``st`` with what ``player`` cannot see resampled from ``rng`` (:meth:`GameState.determinize`)."""
    out = st.clone()
    for lvl in range(3):
        k = out.deck_unseen[lvl]
        if k > 1:
            top = out.decks[lvl][:k]
            out.decks[lvl] = [top[i] for i in rng.permutation(k)] + out.decks[lvl][k:]
    k = out.spell_unseen
    if k > 1:
        top = out.spell_deck[:k]
        out.spell_deck = [top[i] for i in rng.permutation(k)] + out.spell_deck[k:]
    for q in range(st.num_players):
        hand, deck = out.draft_hand[q], out.draft_deck[q]
        if q == player:
            out.draft_deck[q] = [deck[i] for i in rng.permutation(len(deck))]
        elif hand or deck:
            pool = hand + deck
            pool = [pool[i] for i in rng.permutation(len(pool))]
            out.draft_hand[q], out.draft_deck[q] = pool[: len(hand)], pool[len(hand):]
    out._rng = np.random.Generator(np.random.PCG64(int(rng.integers(2**63))))
    out._rng_state = None
    out._cache = {}
    return out
