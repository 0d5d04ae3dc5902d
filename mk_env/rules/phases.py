"""The phases of a turn (the kind of decision awaited) and the error for an illegal decision."""

from __future__ import annotations

import numpy as np

PHASE_NAMES = (
    "setup_gate", "setup_draft", "step1_spells_workshops", "workshop", "spell_option", "spell_trollsmoot",
    "spell_horde", "spell_pedestal", "spell_dig", "spell_statue", "step2_recruit_or_dig", "bribe",
    "recruit_pedestal", "dig_mineral", "dig_pedestal", "dig_workshop", "step3_great_hall",
    "step4_move_statues", "statue_destination", "game_over",
)
(GATE, DRAFT, STEP1, WORKSHOP, SPELL_OPTION, SPELL_SMOOT, SPELL_HORDE, SPELL_PEDESTAL, SPELL_DIG,
 SPELL_STATUE, STEP2, BRIBE, RECRUIT_PEDESTAL, DIG_MINERAL, DIG_PEDESTAL, DIG_WORKSHOP, STEP3, STEP4,
 STATUE_DEST, GAME_OVER) = range(len(PHASE_NAMES))
#: phases where trading with the supply is allowed
TRADE_PHASES = frozenset((STEP1, WORKSHOP, STEP2, STEP3, STEP4))
#: phases where pass is allowed (STEP2 only when nothing else is possible)
PASS_PHASES = frozenset((STEP1, WORKSHOP, STEP3, STEP4, DIG_PEDESTAL, DIG_WORKSHOP, SPELL_STATUE))
EMPTY = np.zeros(0, dtype=np.int64)


class IllegalActionError(ValueError):
    """An illegal decision: says which, why, and what is allowed. The state is left unchanged."""
