"""benchmarks/seat_bonus_whatif.py: the counterfactual bonus reaches only the third seat of 3 and only in its
setup, and the printed rule is restored."""

from __future__ import annotations

import numpy as np
import pytest
from script_loader import load_script

from agents import make_agent
from mk_env.mountain_king.rules import setup
from mk_env.mountain_king.rules.economy import owned
from mk_env.core.view import PlayerView
from training.play import make_game


@pytest.fixture(scope="module")
def whatif():
    return load_script("benchmarks/seat_bonus_whatif.py")


def _after_setup(players: int, seed: int) -> tuple[list[int], list[int]]:
    """Each seat's resources once the draft is over, and the starting resources of its unseen troll."""
    game = make_game(players, {})
    state, agent, rng = game.new_initial_state(seed), make_agent("heuristic"), np.random.default_rng(0)
    unseen: list[int] = []
    while state.decision_kind() in ("setup_gate", "setup_draft"):
        if state.decision_kind() == "setup_draft" and not unseen and all(len(d) == 1 for d in state.draft_deck):
            unseen = [sum(len(game.cards[c].starting) for c in d) for d in state.draft_deck]
        state.apply(agent.act(PlayerView(state, state.current_player()), rng))
    return [int(owned(state, p).sum()) for p in range(players)], unseen


@pytest.mark.parametrize("players", [3, 4])
def test_only_the_third_seat_of_three_gains_its_unseen_troll(whatif, players) -> None:
    printed, unseen = _after_setup(players, 7)
    try:
        whatif._use_rule(printed=False)
        patched, _ = _after_setup(players, 7)
    finally:
        whatif._use_rule(printed=True)
    assert setup._grant_starting_resources is whatif._printed
    expected = list(printed)
    if players == 3:
        assert unseen[whatif.THIRD] > 0
        expected[whatif.THIRD] += unseen[whatif.THIRD]
    assert patched == expected
    assert _after_setup(players, 7)[0] == printed  # the printed rule is back
