"""Invariants of the counts and supplies: no negative count, every token somewhere, the spells, the
workshops and the coronation tokens."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ..content import RESOURCES
from .totals import fail, token_places

if TYPE_CHECKING:
    from ..state import GameState

#: count fields that are never negative
_COUNT_FIELDS = ("supply", "tunnel_supply", "workshop_supply", "horde_bribes", "bag", "spell_runes",
                 "coronation", "storage", "storage_pedestals", "tokens", "honour", "pedestal_points",
                 "pedestal_tokens")
_SCALAR_COUNTS = ("turn", "workshops_left", "uses_left", "free_moves", "next_tile", "next_region")


def check_counts(state: GameState) -> None:
    """No negative count anywhere."""
    for name in _COUNT_FIELDS:
        arr = getattr(state, name)
        if (arr < 0).any():
            where = [tuple(int(i) for i in ix) for ix in np.argwhere(arr < 0)[:3]]
            fail("negative count", f"state.{name} is negative at {where}: {arr[tuple(np.argwhere(arr < 0)[0])]}")
    for name in _SCALAR_COUNTS:
        if getattr(state, name) < 0:
            fail("negative count", f"state.{name} = {getattr(state, name)}")


def check_tokens(state: GameState) -> None:
    """Every token is somewhere: supply + storages + trolls + horde bribes + runes on spells = the
    component count of the pack (buried resources are printed on the board, not tokens)."""
    pack = state.game.pack
    places = token_places(state)
    total = sum(places.values())
    for r, name in enumerate(RESOURCES):
        want = pack.supply[name]
        if total[r] != want:
            parts = " + ".join(f"{place} {int(v[r])}" for place, v in places.items())
            fail("token conservation", f"{name}: {parts} = {int(total[r])}, but the pack has {want}")


def check_spells(state: GameState) -> None:
    """Spells: spellbook + spell deck hold each spell once; runes only on spells, never past the
    disintegration count (and below it once a spell has finished)."""
    game = state.game
    spells = [int(s) for s in state.spellbook if s >= 0] + list(state.spell_deck)
    if sorted(spells) != list(range(len(game.pack.spells))):
        fail("spells", f"spellbook {state.spellbook.tolist()} + deck {state.spell_deck} is not each of the "
                        f"{len(game.pack.spells)} spells once")
    if ((state.spellbook < 0) & (state.spell_runes > 0)).any():
        fail("spells", f"runes on an empty spellbook position: {state.spell_runes.tolist()}")
    limit = game.runes_to_disintegrate
    casting = -1 if state.pending.spell is None else state.pending.spell
    for i, runes in enumerate(state.spell_runes):
        if runes > limit or (runes == limit and i != casting):
            fail("spells", f"spellbook position {i} holds {int(runes)} runes (disintegrates at {limit})")
    if not 0 <= state.spell_unseen <= len(state.spell_deck):
        fail("spells", f"{state.spell_unseen} unseen spells of {len(state.spell_deck)}")


def check_workshops(state: GameState) -> None:
    """Workshops: established ones only on sites, no more of a kind than the pack has."""
    pack = state.game.pack
    established = np.bincount(state.workshop[state.workshop >= 0], minlength=len(pack.workshops))
    for w, shop in enumerate(pack.workshops):
        if established[w] + state.workshop_supply[w] > shop.count:
            fail("workshops", f"{shop.name}: {int(established[w])} established + {int(state.workshop_supply[w])} "
                               f"in the supply > {shop.count} tiles")
    if state.active_site >= 0 and state.workshop[state.active_site] < 0:
        fail("workshops", f"active site {state.active_site} has no workshop")


def check_coronation(state: GameState) -> None:
    """Coronation tokens: those taken plus those left are the pack's tokens for this player count."""
    tokens = state.game.pack.coronation_tokens[state.num_players]
    left = list(state.coronation_left)
    if left != list(tokens[len(tokens) - len(left):]):
        fail("coronation", f"tokens left {left} are not the last of {list(tokens)}")
    if int(state.coronation.sum()) + sum(left) != sum(tokens):
        fail("coronation", f"taken {state.coronation.tolist()} + left {left} != tokens {list(tokens)}")
    if (state.final_turns_left >= 0) != (not left):
        fail("coronation", f"final_turns_left={state.final_turns_left} with tokens left {left}")
