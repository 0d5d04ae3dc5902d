"""The end (rulebook, *End of the game*): a troll recruited as a player's tenth takes the next
coronation token; the last one completes the coronation, after which the round is finished and everyone
plays two more turns; then the game is over (final scoring: :mod:`mk_env.mountain_king.rules.scoring`). Also the end
of each turn: the next seat, a fresh turn."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .fields import reset_turn
from .vocabulary import NO_PENDING, Phase

if TYPE_CHECKING:
    from .state import GameState

STEP1, GAME_OVER = int(Phase.STEP1), int(Phase.GAME_OVER)


def crown(st: GameState, p: int) -> None:
    """After p's recruit: a full trollsmoot (``max_trolls``) takes the next coronation token; the last
    token starts the final turns (the rest of this round, then two more turns each)."""
    if int((st.smoot[p] >= 0).sum()) >= st.game.max_trolls and st.coronation_left:
        st.coronation[p] += st.coronation_left[0]
        st.coronation_left = st.coronation_left[1:]
        if not st.coronation_left:  # the coronation: finish the round, then 2 more turns each
            n = st.num_players
            st.final_turns_left = (n - 1 - p) + 2 * n


def end_turn(st: GameState, _p: int = -1) -> None:
    """Pass in step 4 (by the seat ``_p`` to move): the game ends after the last final turn; otherwise the
    next seat starts a turn."""
    if st.final_turns_left == 0:
        st.phase = GAME_OVER
        st.pending = NO_PENDING
        return
    if st.final_turns_left > 0:
        st.final_turns_left -= 1
    st.current = (st.current + 1) % st.num_players
    st.turn += 1
    reset_turn(st)
    st.phase = STEP1
