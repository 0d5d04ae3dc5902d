""""You may" stays optional (issue 16, item 3).

* The Level-3 recruit's pedestal. English rulebook, *Recruit a troll*: "If it was a Level-3 troll you may
  look through the draw bag and take a remaining pedestal of your choice (if there are any) into your
  storage." French: "S'il s'agit d'un Troll de niveau 3, vous pouvez regarder dans le sac et choisir le
  Piédestal de votre choix (s'il en reste)". So the recruit asks which clan, or pass to take none, even
  when only one clan is left in the bag.
"""

from __future__ import annotations

import numpy as np
import pytest
from rules_helpers import act, empty_handed, give, make_test_game, to_phase

from mk_env.mountain_king.rules.content import N_CLANS
from mk_env.mountain_king.rules.invariants import check_invariants

TOP_LEFT = 9  # the Level-3 row's first horde slot: rests on horde slots 0, 1, 2, 5 and 6
SMOOT_SLOT = 7  # third row of the trollsmoot, resting on slots 4 and 5


def _draw(st, level: int) -> int:
    """The top card of the Level-``level`` deck (an unseen card seen now)."""
    if st.deck_unseen[level - 1] > 0:
        st.deck_unseen[level - 1] -= 1
    return st.decks[level - 1].pop(0)


@pytest.fixture
def at_level3_recruit():
    """Player 0 in step 2 with 5 coins and trolls in trollsmoot slots 4 and 5 (drawn from the Level-1
    deck), so recruiting the Level-3 troll of horde slot 9 into slot 7 is legal."""
    game = make_test_game()
    st = empty_handed(game)
    give(st, 0, coin=5)
    st.smoot[0, 4], st.smoot[0, 5] = _draw(st, 1), _draw(st, 1)
    st.invalidate_caches()
    to_phase(st, "step2_recruit_or_dig")
    check_invariants(st)
    return game, st


def _recruit_level3(game, st) -> int:
    card = int(st.horde[TOP_LEFT])
    st.apply(game.layout.recruit_index(TOP_LEFT, SMOOT_SLOT))
    return card


def test_the_level3_recruit_may_decline_the_pedestal(at_level3_recruit):
    game, st = at_level3_recruit
    bag = st.bag.copy()
    card = _recruit_level3(game, st)
    assert st.decision_kind() == "recruit_pedestal"
    legal = st.legal_actions().tolist()
    assert 0 in legal, "pass (take no pedestal) is offered"
    assert [game.layout.decode(a) for a in legal[1:]] == [("pedestal", c) for c in range(N_CLANS) if bag[c]]
    check_invariants(st)
    act(st, "pass")
    assert int(st.smoot[0, SMOOT_SLOT]) == card
    assert (st.bag == bag).all(), "the bag keeps its pedestals"
    assert not st.storage_pedestals.any()
    assert st.decision_kind() != "recruit_pedestal"
    check_invariants(st)


def test_the_level3_recruit_may_still_take_a_pedestal(at_level3_recruit):
    game, st = at_level3_recruit
    clan = int(np.flatnonzero(st.bag)[0])
    _recruit_level3(game, st)
    act(st, "pedestal", clan)
    assert st.storage_pedestals[0, clan] == 1
    check_invariants(st)


def test_one_clan_left_in_the_bag_is_still_a_choice(at_level3_recruit):
    game, st = at_level3_recruit
    keep = int(np.flatnonzero(st.bag)[0])
    for clan in range(N_CLANS):  # every other clan's pedestals taken earlier by player 1
        if clan != keep:
            st.storage_pedestals[1, clan] += st.bag[clan]
            st.bag[clan] = 0
    st.invalidate_caches()
    check_invariants(st)
    _recruit_level3(game, st)
    assert st.decision_kind() == "recruit_pedestal"
    assert st.legal_actions().tolist() == [0, game.layout.index("pedestal", keep)]


def test_an_empty_bag_asks_nothing(at_level3_recruit):
    game, st = at_level3_recruit
    st.storage_pedestals[1] += st.bag  # all taken earlier by player 1
    st.bag[:] = 0
    st.invalidate_caches()
    check_invariants(st)
    card = _recruit_level3(game, st)
    assert st.decision_kind() != "recruit_pedestal"
    assert int(st.smoot[0, SMOOT_SLOT]) == card
    check_invariants(st)
