"""The turn ("PLAYING THE GAME", "The First Round Rule", "GAME END"): four actions, fewer in the first
round; an action ends when its sub-decisions are done; the game ends the moment a player has drawn and
played the last counter of their pile.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .board import discard, occupancy
from .scoring import final_scoring
from .vocabulary import NO_PENDING, Phase

if TYPE_CHECKING:
    from .state import CaveTrollState

ACTION, GAME_OVER = Phase.ACTION, Phase.GAME_OVER


def actions_in_turn(st: CaveTrollState, turn: int) -> int:
    """The First Round Rule: "the first player only gets one action, the second player gets two actions,
    and the third player gets three actions. After this, each player gets four actions." (With two
    players the first player's second turn is a normal one.)"""
    full = st.game.pack.rules.actions_per_turn
    return min(turn + 1, full) if turn < min(st.num_players, 3) else full


def begin_turn(st: CaveTrollState, seat: int) -> None:
    """``seat`` starts a turn with its actions."""
    st.turn_player = st.current = seat
    st.actions_left = actions_in_turn(st, st.turn)
    st.phase, st.pending = ACTION, NO_PENDING


def start_action(st: CaveTrollState) -> None:
    """Spend one of the turn's actions."""
    st.actions_left -= 1


def complete_action(st: CaveTrollState) -> None:
    """The action and all its sub-decisions are done: the game ends if the player has played their last
    counter, the turn ends if no action is left, else the player takes the next action."""
    seat = st.turn_player
    st.phase, st.pending, st.current = ACTION, NO_PENDING, seat
    if not st.piles[seat]:
        end_game(st, seat)
    elif st.actions_left == 0:
        end_turn(st)


def _cloak_ends(st: CaveTrollState) -> None:
    """"If the adventurer is in a room occupied by a Cave Troll at the end of your turn, the adventurer is
    discarded." The Cloak's powers end with the turn."""
    c = st.cloaked
    if c >= 0:
        x = st.loc[c]
        if x >= 0 and occupancy(st).troll[x]:
            discard(st, c)
        st.cloaked = -1


def end_turn(st: CaveTrollState) -> None:
    """The turn is over (actions spent or given up): play passes to the left."""
    _cloak_ends(st)
    st.turn += 1
    begin_turn(st, (st.turn_player + 1) % st.num_players)


def end_game(st: CaveTrollState, ender: int) -> None:
    """"When one player draws and plays his last counter, the game ends immediately": the turn ends (the
    Cloak's check included), then the final scoring."""
    _cloak_ends(st)
    st.ender = ender
    final_scoring(st, ender)
    st.phase, st.pending, st.actions_left = GAME_OVER, NO_PENDING, 0
