"""Spells (rulebook, *Step 1: Cast a spell*): pay one rune onto a spell of the spellbook and carry out
its effect; a spell disintegrates with its third rune (:mod:`mk_env.mountain_king.rules.spellbook`).

Each effect is declared once in :data:`SPELL_EFFECTS`: the parameters the pack loader checks, when it can
be cast, what casting does and the sub-decisions it opens (with their legal choices and application), in
the manner of one function per action kind. Adding an effect is its entry here, the card in the pack's
``spells.json`` and a test."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from . import economy as eco
from .actions import N_HORDE, N_SMOOT
from .chance import refill
from .content import RESOURCES, RUNE, Spell
from .digging import legal_digs
from .spellbook import finish_spell
from .vocabulary import Pending, Phase

if TYPE_CHECKING:
    from .state import GameState

SPELL_OPTION, SPELL_SMOOT, SPELL_HORDE, SPELL_PEDESTAL, SPELL_DIG, SPELL_STATUE = (
    int(Phase.SPELL_OPTION), int(Phase.SPELL_SMOOT), int(Phase.SPELL_HORDE), int(Phase.SPELL_PEDESTAL),
    int(Phase.SPELL_DIG), int(Phase.SPELL_STATUE))


@dataclass(frozen=True)
class SpellEffect:
    """One spell effect. ``cast(st, p, spell)`` runs after the rune is paid: the whole effect (then
    :func:`finish_spell`), or the phase of its first choice. The choice functions serve the phases it
    opens: ``smoot_slots``/``on_smoot_slot`` for ``SPELL_SMOOT``, ``horde_slots``/``on_horde_slot`` for
    ``SPELL_HORDE`` (``SPELL_OPTION``, ``SPELL_PEDESTAL``, ``SPELL_DIG`` and ``SPELL_STATUE`` are shared
    by every effect that opens them)."""

    params: dict[str, str]  # the pack loader's schema: parameter -> "bool", "positive_int", "resource_options"
    cast: Callable[[GameState, int, Spell], None]
    castable: Callable[[GameState, int], bool] | None = None  # can its effect be carried out now (None: always)
    opens: tuple[int, ...] = ()  # the sub-decisions it opens (phase numbers)
    smoot_slots: Callable[[GameState, int], list[int]] | None = None
    on_smoot_slot: Callable[[GameState, int, int, Spell], None] | None = None
    horde_slots: Callable[[GameState], list[int]] | None = None
    on_horde_slot: Callable[[GameState, int, int, Spell], None] | None = None


# -- the effects -----------------------------------------------------------------------------------------
def _gain_bundle(st: GameState, p: int, bundle: dict) -> None:
    for name, n in bundle.items():
        eco.gain(st, p, RESOURCES.index(name), int(n))


def _cast_gain_choice(st: GameState, p: int, spell: Spell) -> None:
    options = spell.params["options"]
    if len(options) == 1:
        _gain_bundle(st, p, options[0])
        finish_spell(st)
    else:
        st.phase = SPELL_OPTION


def _then_finish(change: Callable[[GameState, Spell], None]) -> Callable[[GameState, int, Spell], None]:
    """A cast that changes this turn's rules and ends the spell at once."""
    def cast(st: GameState, p: int, spell: Spell) -> None:
        change(st, spell)
        finish_spell(st)
    return cast


def _opening(phase: int) -> Callable[[GameState, int, Spell], None]:
    """A cast whose effect is a choice made in ``phase``."""
    def cast(st: GameState, p: int, spell: Spell) -> None:
        st.phase = phase
    return cast


def _set(st: GameState, name: str, value: object) -> None:
    setattr(st, name, value)


def _level2_trolls(st: GameState, p: int) -> list[int]:
    cards = st.smoot[p]
    return [s for s in range(N_SMOOT) if cards[s] >= 0 and st.game.card_level[cards[s]] == 2]


def _level3_trolls(st: GameState) -> list[int]:
    """Horde slots holding a troll of printed Level 3, in any row: once a deck runs out the horde fills
    from the next deck up or down (rulebook, *Running out of trolls*), so a Level-3 troll may sit in
    the Level-2 row (where it can hold bribes) and a Level-2 troll in the top row."""
    level = st.game.card_level
    return [h for h, card in enumerate(st.horde.tolist()) if card >= 0 and level[card] == 3]


def _ascension_slot(st: GameState, p: int, slot: int, spell: Spell) -> None:
    st.pending = st.pending._replace(smoot_slot=slot)
    st.phase = SPELL_HORDE


def _ascend(st: GameState, p: int, h: int, spell: Spell) -> None:
    """Ceremony of Ascension: the Level-2 troll and what it holds are discarded (to the bottom of its
    deck and the supply); the Level-3 troll (chosen by its printed level, whatever row it sits in) takes
    its slot, without pedestal or activation, and its bribes are discarded; a pedestal on its horde
    slot stays there for the troll drawn into it."""
    slot = st.pending.smoot_slot
    old = int(st.smoot[p, slot])
    st.decks[st.game.card_level[old] - 1].append(old)
    eco.return_troll_tokens(st, p, slot)
    st.supply += st.horde_bribes[h]
    st.horde_bribes[h] = 0
    st.smoot[p, slot] = st.horde[h]
    st.horde[h] = -1
    refill(st, h)
    finish_spell(st)


def _trolls(st: GameState, p: int) -> list[int]:
    cards = st.smoot[p]
    return [s for s in range(N_SMOOT) if cards[s] >= 0]


def _activate(st: GameState, p: int, slot: int, spell: Spell) -> None:
    if spell.params.get("cascade"):
        eco.cascade(st, p, slot)
    else:
        eco.activate(st, p, slot)
    finish_spell(st)


def _bribed_trolls(st: GameState) -> list[int]:
    return [h for h in range(N_HORDE) if st.horde[h] >= 0 and st.horde_bribes[h].sum() > 0]


def _collect(st: GameState, p: int, h: int, spell: Spell) -> None:
    st.storage[st.game.storage_of[p]] += st.horde_bribes[h]
    st.horde_bribes[h] = 0
    finish_spell(st)


def _cast_free_moves(st: GameState, p: int, spell: Spell) -> None:
    """Free statue moves for this turn: made now (``SPELL_STATUE``), or kept for steps 2 to 4."""
    st.free_moves = int(spell.params.get("moves", 1))
    st.phase = SPELL_STATUE


#: every spell effect the engine implements, by the name a card's ``effect`` gives
SPELL_EFFECTS: dict[str, SpellEffect] = {
    "gain_choice": SpellEffect({"options": "resource_options"}, _cast_gain_choice, opens=(SPELL_OPTION,)),
    "bribe_any": SpellEffect({}, _then_finish(lambda st, spell: _set(st, "bribe_any", True))),
    "dig_now": SpellEffect({}, _opening(SPELL_DIG), castable=lambda st, p: len(legal_digs(st, p)) > 0,
                           opens=(SPELL_DIG,)),  # the rune paid is neither a mineral nor a hammer
    "ascension": SpellEffect({}, _opening(SPELL_SMOOT),
                             castable=lambda st, p: bool(_level2_trolls(st, p)) and bool(_level3_trolls(st)),
                             opens=(SPELL_SMOOT, SPELL_HORDE), smoot_slots=_level2_trolls,
                             on_smoot_slot=_ascension_slot, horde_slots=_level3_trolls, on_horde_slot=_ascend),
    "activate_troll": SpellEffect({"cascade": "bool"}, _opening(SPELL_SMOOT), opens=(SPELL_SMOOT,),
                                  smoot_slots=_trolls, on_smoot_slot=_activate),
    "collect_bribes": SpellEffect({}, _opening(SPELL_HORDE), castable=lambda st, p: bool(_bribed_trolls(st)),
                                  opens=(SPELL_HORDE,), horde_slots=_bribed_trolls, on_horde_slot=_collect),
    "take_pedestal": SpellEffect({}, _opening(SPELL_PEDESTAL), castable=lambda st, p: bool(st.bag.sum() > 0),
                                 opens=(SPELL_PEDESTAL,)),
    "free_statue_moves": SpellEffect({"moves": "positive_int"}, _cast_free_moves,
                                     opens=(SPELL_STATUE,)),  # castable before a statue can move: "this turn"
    "extra_workshop": SpellEffect({}, _then_finish(lambda st, spell: _set(st, "workshops_left",
                                                                          st.workshops_left + 1))),
    "ignore_rubble": SpellEffect({}, _then_finish(lambda st, spell: _set(st, "ignore_rubble", True))),
}


# -- the spell being cast ----------------------------------------------------------------------------------
def spell_being_cast(st: GameState) -> Spell:
    """The spell whose effect is under way."""
    return st.game.pack.spells[st.spellbook[st.pending.spell]]


def castable_positions(st: GameState, p: int) -> list[int]:
    """Spellbook positions p may cast now: no spell cast yet this turn, a rune owned (the caller checks
    it), a spell there, and its effect possible now."""
    pack, book = st.game.pack, st.spellbook
    out = []
    for i, spell in enumerate(book.tolist()):
        if spell >= 0:
            castable = SPELL_EFFECTS[pack.spells[spell].effect].castable
            if castable is None or castable(st, p):
                out.append(i)
    return out


def spell_options(st: GameState, _p: int) -> range:
    """``SPELL_OPTION``'s choices: the spell's gain bundles."""
    return range(len(spell_being_cast(st).params["options"]))


def spell_smoot_slots(st: GameState, p: int) -> list[int]:
    """``SPELL_SMOOT``'s choices, by the effect under way."""
    return SPELL_EFFECTS[spell_being_cast(st).effect].smoot_slots(st, p)


def spell_horde_slots(st: GameState, _p: int) -> list[int]:
    """``SPELL_HORDE``'s choices, by the effect under way."""
    return SPELL_EFFECTS[spell_being_cast(st).effect].horde_slots(st)


# -- application ---------------------------------------------------------------------------------------
def apply_cast(st: GameState, p: int, i: int) -> None:
    """Cast the spell in position ``i``: its rune onto the card, then its effect."""
    eco.pay(st, p, RUNE, 1, to_supply=False)
    st.spell_runes[i] += 1
    st.spell_cast = True
    st.pending = Pending(spell=i)
    spell = spell_being_cast(st)
    SPELL_EFFECTS[spell.effect].cast(st, p, spell)


def apply_spell_option(st: GameState, p: int, k: int) -> None:
    """Gain the spell's bundle ``k``."""
    _gain_bundle(st, p, spell_being_cast(st).params["options"][k])
    finish_spell(st)


def apply_smoot_slot(st: GameState, p: int, slot: int) -> None:
    """``SPELL_SMOOT``: the trollsmoot slot chosen, applied by the effect under way."""
    spell = spell_being_cast(st)
    SPELL_EFFECTS[spell.effect].on_smoot_slot(st, p, slot, spell)


def apply_horde_slot(st: GameState, p: int, h: int) -> None:
    """``SPELL_HORDE``: the horde slot chosen, applied by the effect under way."""
    spell = spell_being_cast(st)
    SPELL_EFFECTS[spell.effect].on_horde_slot(st, p, h, spell)


def take_pedestal(st: GameState, p: int, clan: int) -> None:
    """``SPELL_PEDESTAL``: a pedestal of ``clan`` from the bag to storage."""
    st.bag[clan] -= 1
    st.storage_pedestals[st.game.storage_of[p], clan] += 1
    finish_spell(st)


def stop_free_moves(st: GameState, p: int) -> None:
    """Pass during a spell's free statue moves: the spell ends; the moves left may still be made in
    steps 2 to 4 of this turn."""
    finish_spell(st)


# -- explanation ---------------------------------------------------------------------------------------
def why_not_cast(st: GameState, p: int, arg: int, have: np.ndarray) -> str:
    """Why casting position ``arg`` is illegal now."""
    if st.spell_cast:
        return "you already cast a spell this turn"
    if have[RUNE] < 1:
        return "casting needs 1 rune and you own none"
    if st.spellbook[arg] < 0:
        return "that spellbook position is empty"
    return "the spell's effect cannot be carried out now"

