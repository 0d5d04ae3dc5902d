"""Invariants of the trolls: each trollsmoot's pyramid and tokens, the draft of the starters, the horde and
its decks and bribes."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ..actions import SMOOT_SUPPORT, TROLLSMOOT_ROWS
from ..vocabulary import Phase
from .totals import fail, horde_cards

if TYPE_CHECKING:
    from ..state import GameState

#: phases in the middle of a recruit: bribes are on the horde but trolls have not retired yet
_MID_RECRUIT = ("bribe", "recruit_pedestal")
#: trollsmoot slots that rest on two others, and those two
_RESTING = [s for s, support in enumerate(SMOOT_SUPPORT) if support]
_BENEATH_A = [SMOOT_SUPPORT[s][0] for s in _RESTING]
_BENEATH_B = [SMOOT_SUPPORT[s][1] for s in _RESTING]


def check_trollsmoot(state: GameState) -> None:
    """Trollsmoot: a slot is filled only if the two beneath are; tokens on a troll never exceed its
    card's symbols; an empty slot holds nothing; no card twice."""
    game = state.game
    filled = state.smoot >= 0
    symbols = game.card_symbols[np.maximum(state.smoot, 0)] * filled[:, :, None]
    over = state.tokens > symbols
    unsupported = filled[:, _RESTING] & ~(filled[:, _BENEATH_A] & filled[:, _BENEATH_B])
    for p in range(state.num_players):
        smoot = state.smoot[p]
        if unsupported[p].any():
            s = _RESTING[int(np.argmax(unsupported[p]))]
            support = SMOOT_SUPPORT[s]
            fail("trollsmoot shape", f"player {p}'s slot {s} is filled but slots {support} beneath hold "
                                      f"{[int(smoot[b]) for b in support]}")
        if over[p].any():
            s = int(np.flatnonzero(over[p].any(axis=1))[0])
            what = f"troll {game.cards[smoot[s]].name}" if smoot[s] >= 0 else "empty slot"
            fail("troll tokens", f"player {p}'s {what} in slot {s} holds {state.tokens[p, s].tolist()}, "
                                  f"more than its symbols {symbols[p, s].tolist()}")
        cards = smoot[filled[p]].tolist()
        if len(cards) != len(set(cards)):
            fail("trollsmoot", f"player {p} holds a card twice: {cards}")


def check_draft(state: GameState) -> None:
    """Starter trolls: each player's six are in the starting row, the draft hand or the draft deck, each
    once; the starting row holds only starters and the rows above only horde trolls; once the draft is
    over the hands and decks are empty and every starting row is full."""
    game = state.game
    n0, row0 = game.n_starters, TROLLSMOOT_ROWS[0]
    drafting = state.phase in (Phase.GATE, Phase.DRAFT)
    for p in range(state.num_players):
        smoot = state.smoot[p].tolist()
        placed = [c for c in smoot[:row0] if c >= 0]
        if any(c >= n0 for c in placed) or any(0 <= c < n0 for c in smoot[row0:]):
            fail("trollsmoot", f"player {p}'s trollsmoot {smoot}: starters (cards 0..{n0 - 1}) belong in the "
                                f"starting row (slots 0..{row0 - 1}) and only there")
        if len(placed) != state.draft_placed[p]:
            fail("draft", f"player {p} placed {len(placed)} starters but draft_placed is {state.draft_placed[p]}")
        held = placed + list(state.draft_hand[p]) + list(state.draft_deck[p])
        if drafting and sorted(held) != list(range(n0)):
            fail("draft", f"player {p}'s starters placed {placed} + hand {state.draft_hand[p]} + deck "
                           f"{state.draft_deck[p]} are not each of the {n0} starters once")
        if not drafting and (len(placed) != row0 or state.draft_hand[p] or state.draft_deck[p]):
            fail("draft", f"after the draft player {p} has starters {placed}, hand {state.draft_hand[p]}, deck "
                           f"{state.draft_deck[p]} (expected {row0} placed, an empty hand and deck)")


def check_horde(state: GameState) -> None:
    """Horde: each horde troll is in exactly one place (decks, horde, a trollsmoot, or in the hand of
    the recruiting player while they choose a pedestal); bribes lie only on
    trolls, and below the retire threshold except in the middle of a recruit."""
    game = state.game
    cards = horde_cards(state)
    want = len(game.pack.horde_trolls)
    if len(cards) != want or len(set(cards)) != want:
        dup = sorted({c for c in cards if cards.count(c) > 1})
        fail("horde trolls", f"{len(cards)} horde cards in decks + horde + trollsmoots (duplicates {dup}), "
                              f"the pack has {want}")
    bribes = state.horde_bribes.sum(axis=1)
    stray = (bribes > 0) & (state.horde < 0)
    if stray.any():
        fail("horde bribes", f"bribes on empty horde slots {np.flatnonzero(stray).tolist()}")
    if state.decision_kind() not in _MID_RECRUIT and (bribes >= game.retire_bribes).any():
        h = int(np.flatnonzero(bribes >= game.retire_bribes)[0])
        fail("horde bribes", f"horde slot {h} holds {int(bribes[h])} bribes, the retire threshold is "
                              f"{game.retire_bribes} (phase {state.decision_kind()})")
    for lvl in range(3):
        wrong = [c for c in state.decks[lvl] if game.card_level[c] != lvl + 1]
        if wrong:
            fail("horde decks", f"deck {lvl + 1} holds cards {wrong[:3]} of another level")
        if not 0 <= state.deck_unseen[lvl] <= len(state.decks[lvl]):
            fail("horde decks", f"deck {lvl + 1}: {state.deck_unseen[lvl]} unseen of {len(state.decks[lvl])}")
