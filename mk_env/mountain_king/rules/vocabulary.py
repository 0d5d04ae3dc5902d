"""The engine's vocabulary: the phases of a turn, the blocks of the action space, the kinds of board
squares and the sub-decision under way (:class:`Pending`).

Every name here is a small typed value that compares like the int or string the state and the action
layout hold, so the state stays plain data (JSON as before) while readers and the type checker follow
the words. The engine keeps phases in the state, and compares them, as plain ints (and blocks as plain
strings): an IntEnum or StrEnum member misses the interpreter's fast paths for int comparisons and
str-keyed dicts, and numpy compares an array with a member five times slower; hot paths bind
``int(Phase.X)`` / ``Block.X.value`` to module-level names once (a global lookup is also ten times
cheaper than ``Phase.STEP1``'s attribute lookup). :data:`TRADE_PHASES` and :data:`PASS_PHASES` hold
plain ints.
"""

from __future__ import annotations

from enum import IntEnum, StrEnum
from typing import Any, NamedTuple

import numpy as np

#: an empty array of action numbers (or placements, squares)
EMPTY = np.zeros(0, dtype=np.int64)


class Phase(IntEnum):
    """The kind of decision awaited (``state.phase``); the value is the phase's number in saves and
    observations, :data:`PHASE_NAMES` its name (``state.decision_kind()``)."""

    GATE = 0  # setup: place your gate on a start point
    DRAFT = 1  # setup: keep a starter troll in a starting slot
    STEP1 = 2  # step 1: cast a spell, activate a workshop (either order), trade, or pass to step 2
    WORKSHOP = 3  # step 1: use the activated workshop (once per open entrance), trade, or pass
    SPELL_OPTION = 4  # a spell's choice among its gain bundles
    SPELL_SMOOT = 5  # a spell's trollsmoot slot (Ascension's Level-2 troll, an activation)
    SPELL_HORDE = 6  # a spell's horde slot (Ascension's Level-3 troll, collecting bribes)
    SPELL_PEDESTAL = 7  # a spell's pedestal from the bag
    SPELL_DIG = 8  # a spell's tunnel (Excavation)
    SPELL_STATUE = 9  # a spell's free statue move: select a statue, or pass (the moves left: steps 2-4)
    STEP2 = 10  # step 2: recruit or dig, or trade, or a free statue move (pass only when neither is possible)
    BRIBE = 11  # recruiting with Golden Mask: the resource of the next bribe
    RECRUIT_PEDESTAL = 12  # recruiting a Level-3 troll: the pedestal taken from the bag, or pass to decline
    DIG_MINERAL = 13  # digging: the mineral paid, when more than one would pay
    DIG_PEDESTAL = 14  # digging: a pedestal on the new tunnel's anchor, or pass to decline
    DIG_WORKSHOP = 15  # digging: the workshop established on a newly touched site, or pass
    STEP3 = 16  # step 3: dedicate a great hall, trade, a free statue move, or pass
    STEP4 = 17  # step 4: select a statue to move, trade, or pass to end the turn
    STATUE_DEST = 18  # the selected statue's destination
    GAME_OVER = 19  # no decision: the game has ended
    PAY = 20  # payment="choose": the next token paying for the decision under way (one token at a time)


#: each phase's name (``state.decision_kind()``, the observation's ``phase_<name>`` features)
PHASE_NAMES = (
    "setup_gate", "setup_draft", "step1_spells_workshops", "workshop", "spell_option", "spell_trollsmoot",
    "spell_horde", "spell_pedestal", "spell_dig", "spell_statue", "step2_recruit_or_dig", "bribe",
    "recruit_pedestal", "dig_mineral", "dig_pedestal", "dig_workshop", "step3_great_hall",
    "step4_move_statues", "statue_destination", "game_over", "pay",
)


class Block(StrEnum):
    """The blocks of the flat action space (:class:`mk_env.mountain_king.rules.actions.ActionLayout`), in layout order;
    each member equals its name string (the layout's keys). The comment says what the block's argument
    (the action number minus the block's offset) means."""

    PASS = "pass"  # always 0: end this step, or decline the optional choice
    GATE = "gate"  # start point index (``geo.start_points``)
    DRAFT = "draft"  # starter troll type * 4 + starting slot (``layout.draft_args``)
    CAST = "cast"  # spellbook position
    SPELL_OPTION = "spell_option"  # index of the spell's gain bundle (``params["options"]``)
    ACTIVATE_WORKSHOP = "activate_workshop"  # workshop site index (``geo.site_squares``)
    WORKSHOP_USE = "workshop_use"  # conversion index (``layout.conversions``)
    TRADE = "trade"  # give multiset index * 7 + resource gained (``layout.trade_args``)
    RECRUIT = "recruit"  # horde slot * 6 + column of the trollsmoot slot (``layout.recruit_args``)
    BRIBE = "bribe"  # resource paying the next bribe
    PEDESTAL = "pedestal"  # clan of the pedestal
    DIG = "dig"  # tunnel placement index (``geo.tunnel_placements``)
    MINERAL = "mineral"  # mineral paying for the tunnel (0 stone, 1 iron, 2 heartstone)
    ESTABLISH = "establish"  # workshop kind established on the site (``pack.workshops``)
    HALL = "hall"  # great hall placement index (``geo.hall_placements``)
    SELECT_STATUE = "select_statue"  # board square of the statue
    MOVE_STATUE = "move_statue"  # board square the selected statue moves to
    SMOOT_SLOT = "smoot_slot"  # trollsmoot slot (0-9, bottom row first)
    HORDE_SLOT = "horde_slot"  # horde slot (0-11, Level-1 row first)
    #: source * 10 + token kind: source 0-9 a trollsmoot slot, 10 the storage (its kinds are the resources);
    #: only in layouts of games with ``payment="choose"`` (:mod:`mk_env.mountain_king.rules.payment`)
    PAY_TOKEN = "pay_token"


#: the blocks whose actions may be legal in each phase (pass included where it is; in step 2 pass is
#: legal only when nothing else is, see :data:`PASS_PHASES`)
PHASE_BLOCKS: dict[Phase, frozenset[Block]] = {
    Phase.GATE: frozenset((Block.GATE,)),
    Phase.DRAFT: frozenset((Block.DRAFT,)),
    Phase.STEP1: frozenset((Block.PASS, Block.CAST, Block.ACTIVATE_WORKSHOP, Block.TRADE)),
    Phase.WORKSHOP: frozenset((Block.PASS, Block.WORKSHOP_USE, Block.TRADE)),
    Phase.SPELL_OPTION: frozenset((Block.SPELL_OPTION,)),
    Phase.SPELL_SMOOT: frozenset((Block.SMOOT_SLOT,)),
    Phase.SPELL_HORDE: frozenset((Block.HORDE_SLOT,)),
    Phase.SPELL_PEDESTAL: frozenset((Block.PEDESTAL,)),
    Phase.SPELL_DIG: frozenset((Block.DIG,)),
    Phase.SPELL_STATUE: frozenset((Block.PASS, Block.SELECT_STATUE)),
    Phase.STEP2: frozenset((Block.PASS, Block.TRADE, Block.RECRUIT, Block.DIG, Block.SELECT_STATUE)),
    Phase.BRIBE: frozenset((Block.BRIBE,)),
    Phase.RECRUIT_PEDESTAL: frozenset((Block.PASS, Block.PEDESTAL)),
    Phase.DIG_MINERAL: frozenset((Block.MINERAL,)),
    Phase.DIG_PEDESTAL: frozenset((Block.PASS, Block.PEDESTAL)),
    Phase.DIG_WORKSHOP: frozenset((Block.PASS, Block.ESTABLISH)),
    Phase.STEP3: frozenset((Block.PASS, Block.TRADE, Block.HALL, Block.SELECT_STATUE)),
    Phase.STEP4: frozenset((Block.PASS, Block.TRADE, Block.SELECT_STATUE)),
    Phase.STATUE_DEST: frozenset((Block.MOVE_STATUE,)),
    Phase.GAME_OVER: frozenset(),
    Phase.PAY: frozenset((Block.PAY_TOKEN,)),
}
#: phases where trading with the supply is allowed (the rulebook: "at any point on your turn", but not
#: in the middle of a recruit, a dig or a spell's choices)
TRADE_PHASES = frozenset(int(ph) for ph, blocks in PHASE_BLOCKS.items() if Block.TRADE in blocks)
#: phases where pass is always allowed (step 2 allows it only when nothing else is possible)
PASS_PHASES = frozenset(int(ph) for ph, blocks in PHASE_BLOCKS.items() if Block.PASS in blocks) - {int(Phase.STEP2)}


class SquareKind(IntEnum):
    """What lies on a board square (``state.kind``)."""

    EMPTY = 0  # nothing yet: rock (may hold a buried resource or a statue spot)
    GATE = 1  # a player's gate
    TUNNEL = 2  # a tunnel tile (or a part of one left uncovered by a great hall)
    GREAT_HALL = 3  # a great hall laid over tunnels


class Pending(NamedTuple):
    """The sub-decision under way (``state.pending``): what a recruit, a dig, a spell or a statue move
    has chosen so far. Immutable; change it with ``pending._replace(field=value)``. ``None``: not part of
    the decision under way. Saves keep the older dict form (see :func:`pending_to_save`)."""

    #: spellbook position of the spell being cast (save key "spell")
    spell: int | None = None
    #: horde slot of the troll being recruited ("horde")
    horde_slot: int | None = None
    #: trollsmoot slot: where the recruited troll goes, or the Level-2 troll Ascension replaces ("smoot")
    smoot_slot: int | None = None
    #: horde slots still owed a bribe, the next first (Golden Mask pays them one by one) ("bribes")
    bribes_owed: tuple[int, ...] | None = None
    #: card of the troll taken from the horde, not yet in the trollsmoot ("card")
    recruit_card: int | None = None
    #: tunnel placement being dug ("dig")
    dig: int | None = None
    #: True: the dig is a spell's (back to the spell when done); False: step 2's (on to step 3)
    #: (save key "return": "spell" / "step3")
    dig_for_spell: bool | None = None
    #: workshop sites the dig touched that still await a workshop, the next first ("sites")
    sites_left: tuple[int, ...] | None = None
    #: square of the statue selected to move ("statue")
    statue_square: int | None = None
    #: the phase the statue was selected in, where the move returns: step 4 (paid with a cart) or the
    #: spell's free moves ("back")
    statue_from_phase: int | None = None
    #: payment="choose": the decision whose payment is being chosen (its action number), applied once the
    #: last token is chosen ("pay_action")
    pay_action: int | None = None
    #: the phase that decision was taken in, restored to apply it ("pay_phase")
    pay_phase: int | None = None
    #: the tokens chosen so far, as ``pay_token`` arguments in the order chosen ("paid")
    paid: tuple[int, ...] | None = None
    #: the count of each resource the held decision pays, its bill (what the observation shows) ("bill")
    pay_bill: tuple[int, ...] | None = None

    def __bool__(self) -> bool:
        return self != NO_PENDING


#: nothing under way
NO_PENDING = Pending()
#: the save's key of each field, in the order saves write them
PENDING_SAVE_KEYS = ("spell", "horde", "smoot", "bribes", "card", "dig", "return", "sites", "statue", "back",
                     "pay_action", "pay_phase", "paid", "bill")
_RETURN_WORDS = {True: "spell", False: "step3"}
_RETURN_FLAGS = {"spell": True, "step3": False}


def pending_to_save(pending: Pending) -> dict[str, Any]:
    """The save's dict form: the fields that are set, under their save keys (tuples as lists)."""
    out: dict[str, Any] = {}
    for key, value in zip(PENDING_SAVE_KEYS, pending):
        if value is not None:
            if key == "return":
                value = _RETURN_WORDS[value]
            elif type(value) is tuple:
                value = list(value)
            out[key] = value
    return out


def pending_from_save(data: dict[str, Any]) -> Pending:
    """The record of a save's dict form (keys already checked: :mod:`mk_env.mountain_king.rules.saved_state`)."""
    values = dict.fromkeys(PENDING_SAVE_KEYS)
    for key, value in data.items():
        values[key] = _RETURN_FLAGS[value] if key == "return" else tuple(value) if type(value) is list else value
    return Pending(*(values[k] for k in PENDING_SAVE_KEYS))
