"""The spellbook (rulebook, *Casting spells*): the rune paid on a spell, and its disintegration once it
holds enough runes. A spell's effects are in :mod:`mk_env.mountain_king.rules.spells`; this module is what every
effect's last decision (a dig, a statue move, a choice) calls to end the spell."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .chance import draw_spell
from .content import RUNE
from .vocabulary import NO_PENDING, Phase

if TYPE_CHECKING:
    from .state import GameState

_STEP1 = int(Phase.STEP1)


def finish_spell(st: GameState) -> None:
    """After the effect: a third rune disintegrates the spell (runes to the supply, card to the
    bottom of the deck, a new one drawn into its place); back to step 1. What the spell grants for the
    rest of the turn stays (free statue moves, Golden Mask, ...) until the turn ends."""
    i = st.pending.spell
    if st.spell_runes[i] >= st.game.runes_to_disintegrate:
        st.supply[RUNE] += st.spell_runes[i]
        st.spell_runes[i] = 0
        st.spell_deck = st.spell_deck + [int(st.spellbook[i])]
        st.spellbook[i] = draw_spell(st)
    st.pending = NO_PENDING
    st.phase = _STEP1
