"""The turn: applying a decision (checked, then handed to its mechanic), the passes that move from step
to step, and the forced passes taken automatically.

A turn (rulebook, *On your turn*) is a sequence of small decisions, each one phase below:

* ``step1_spells_workshops``: cast one spell, activate one workshop (either order), trade, or pass to
  step 2. Casting may open a spell's own choices (``spell_*`` phases); a workshop opens ``workshop``
  (one use per open entrance; pass to stop).
* ``step2_recruit_or_dig``: recruit (horde troll x trollsmoot slot) or dig (tunnel placement), or trade;
  pass only when neither recruiting nor digging is possible. A recruit may ask for bribes paid in any
  resources (Golden Mask) and the Level-3 pedestal choice (may decline); a dig asks for the mineral
  (when more than one would pay), a pedestal (may decline) and a workshop for each newly touched empty site.
* ``step3_great_hall``: dedicate one great hall, trade, or pass.
* ``step4_move_statues``: select a statue, then its destination (one cart each), trade, or pass to end.
  A spell's free statue moves (Tremor) last the turn: made when it is cast, or kept for steps 2 to 4
  (select a statue there too; step 4 spends them before any cart).
* ``pay`` (only with the game option ``payment="choose"``): a decision that more than one set of tokens
  could pay is held while the payer picks the tokens one at a time, then applied with them
  (:mod:`mk_env.mountain_king.rules.payment`).

Trades with the supply are offered in every step and in the workshop phase (the rulebook: "at any
point on your turn"), not in the middle of a recruit, a dig or a spell's choices. A decision whose only
legal action is *pass* is taken automatically, so agents are only asked real questions.

Each action kind is applied by one function of its mechanic's module (:data:`HANDLERS`): setup,
spells, workshops, trades, recruiting, digging, great halls, statues, the end.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from .digging import apply_dig, apply_establish, apply_mineral, dig_workshops, next_site, place_pedestal
from .errors import IllegalActionError, StalledGameError, action_number
from .explain import explain_illegal
from .great_halls import apply_hall
from .legal import pass_is_forced
from .payment import PAY, choose_token, hold_for_payment, settle
from .recruiting import apply_bribe, apply_recruit, choose_pedestal, decline_pedestal
from .setup import apply_draft, apply_gate
from .spells import apply_cast, apply_horde_slot, apply_smoot_slot, apply_spell_option, stop_free_moves, take_pedestal
from .statues import apply_move_statue, apply_select_statue
from .the_end import end_turn
from .trades import apply_trade
from .vocabulary import PHASE_NAMES, Block, Phase
from .workshops import apply_activate_workshop, apply_workshop_use, stop_workshop

if TYPE_CHECKING:
    from .state import GameState

GAME_OVER = int(Phase.GAME_OVER)  # the engine keeps and compares phases as plain ints (see vocabulary)
Handler = Callable[["GameState", int, int], None]


def apply_action(st: GameState, action) -> None:
    """Check and apply one decision, then take every forced pass that follows."""
    a = _as_action(st, action)
    if not st.is_legal(a):
        raise IllegalActionError(explain_illegal(st, a))
    st.history.append(a)
    if st.game.choose_payment and st.phase != PAY and hold_for_payment(st, a):
        st._cache.pop("legal", None)  # held: its tokens are asked first (phase pay)
    else:
        _dispatch(st, a)
    _auto_advance(st)


def _as_action(st: GameState, action) -> int:
    a = action_number(action, st.game.layout.size)
    if st.phase == GAME_OVER:
        raise IllegalActionError(f"action {a}: the game is over; no decision is allowed")
    if not 0 <= a < st.game.layout.size:
        raise IllegalActionError(f"action {a} is outside the action space 0..{st.game.layout.size - 1}")
    return a


def _auto_advance(st: GameState) -> None:
    """Take every decision whose only legal action is pass (tested without building the legal set where
    pass is allowed; the legal set of the decision faced is built when first asked for, then cached).

    Guard: passes change nothing but the seat and the turn counter, so once every seat in a row has had
    a turn of forced passes before the end is triggered, the game would cycle forever; that raises
    :class:`StalledGameError` instead of looping."""
    first_turn = st.turn
    while st.phase != GAME_OVER:
        if pass_is_forced(st):
            before = (st.phase, st.current, st.turn, st.pending)
            _dispatch(st, 0)
            if (st.phase, st.current, st.turn, st.pending) == before:
                raise StalledGameError(f"a forced pass in phase {PHASE_NAMES[before[0]]} changed nothing "
                                       "(engine bug); the same pass would repeat forever")
            if st.turn - first_turn > st.num_players and st.final_turns_left < 0:
                raise StalledGameError(
                    f"the game cannot go on: from turn {first_turn} to {st.turn} every seat's turn was only "
                    f"forced passes and the end (the last coronation token) is not triggered, so no turn "
                    f"would ever change anything; data pack {st.game.pack.pack_id}")
            continue
        legal = st._cache.get("legal")  # built by the test in step 2 and without pass; elsewhere pass is legal
        if legal is not None and len(legal) == 0:
            raise RuntimeError(f"no legal decision in phase {PHASE_NAMES[st.phase]} (engine bug)")
        return


def _dispatch(st: GameState, a: int) -> None:
    """Apply action ``a`` (legal) with its block's handler; the legal set cached for the state before is
    dropped."""
    st._cache.pop("legal", None)
    if a == 0:  # pass (the forced ones too): straight to what pass does in this phase
        PASSES[st.phase](st, st.current)
        return
    block, arg = st.game.layout.decode(a)
    HANDLERS[block](st, st.current, arg)


def _to_step(phase: Phase) -> Callable[[GameState, int], None]:
    """Pass: on to the next step of the turn."""
    number = int(phase)

    def go(st: GameState, p: int) -> None:
        st.phase = number
    return go


#: what pass does in each phase where it is legal (keyed by phase number)
PASSES: dict[int, Callable[[GameState, int], None]] = {
    Phase.STEP1: _to_step(Phase.STEP2),
    Phase.WORKSHOP: stop_workshop,
    Phase.STEP2: _to_step(Phase.STEP3),  # only when neither recruiting nor digging is possible
    Phase.STEP3: _to_step(Phase.STEP4),
    Phase.STEP4: end_turn,
    Phase.RECRUIT_PEDESTAL: decline_pedestal,  # take no pedestal from the bag
    Phase.DIG_PEDESTAL: dig_workshops,  # decline the pedestal
    Phase.DIG_WORKSHOP: next_site,  # decline a workshop on this site
    Phase.SPELL_STATUE: stop_free_moves,
}
PASSES = {int(ph): go for ph, go in PASSES.items()}
#: who takes a pedestal, by phase: a spell's from the bag, a Level-3 recruit's from the bag, a dig's onto
#: the new tunnel's anchor (keyed by phase number)
PEDESTALS: dict[int, Handler] = {
    int(Phase.SPELL_PEDESTAL): take_pedestal, int(Phase.RECRUIT_PEDESTAL): choose_pedestal,
    int(Phase.DIG_PEDESTAL): place_pedestal,
}


def _on_pass(st: GameState, p: int, _arg: int) -> None:
    """Pass: what it does in this phase (:func:`_dispatch` takes this path directly for action 0)."""
    PASSES[st.phase](st, p)


def _on_pay_token(st: GameState, p: int, arg: int) -> None:
    """``PAY``: one token chosen; the last choice applies the decision held for its payment."""
    held = choose_token(st, p, arg)
    if held is not None:
        _dispatch(st, held)
        settle(st)


def _on_pedestal(st: GameState, p: int, clan: int) -> None:
    """A pedestal of ``clan``: taken by the spell, the recruit or the dig under way."""
    PEDESTALS[st.phase](st, p, clan)


#: the one function that applies each action kind (its mechanic's), keyed by the block's name (a plain
#: string: what ``layout.decode`` gives)
HANDLERS: dict[str, Handler] = {
    Block.PASS: _on_pass, Block.GATE: apply_gate, Block.DRAFT: apply_draft, Block.CAST: apply_cast,
    Block.SPELL_OPTION: apply_spell_option, Block.ACTIVATE_WORKSHOP: apply_activate_workshop,
    Block.WORKSHOP_USE: apply_workshop_use, Block.TRADE: apply_trade, Block.RECRUIT: apply_recruit,
    Block.BRIBE: apply_bribe, Block.PEDESTAL: _on_pedestal, Block.DIG: apply_dig, Block.MINERAL: apply_mineral,
    Block.ESTABLISH: apply_establish, Block.HALL: apply_hall, Block.SELECT_STATUE: apply_select_statue,
    Block.MOVE_STATUE: apply_move_statue, Block.SMOOT_SLOT: apply_smoot_slot, Block.HORDE_SLOT: apply_horde_slot,
    Block.PAY_TOKEN: _on_pay_token,
}
HANDLERS = {block.value: apply for block, apply in HANDLERS.items()}
