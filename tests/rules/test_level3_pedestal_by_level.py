"""The recruit's pedestal follows the troll card's printed level, not the horde row it sits in (issue 52).

English rulebook, *Recruit a troll*, step two: "Take your chosen troll card from the horde, and replenish
the empty space in the horde with a fresh troll drawn from the same level deck (add a pedestal from the
draw bag if it is a fresh Level-2 troll). ... If it was a Level-2 troll it will have a pedestal on it
(unless they have run out in this game). Collect it into your storage. If it was a Level-3 troll you may
look through the draw bag and take a remaining pedestal of your choice (if there are any) into your
storage." *Running out of trolls*: "If you ever run out of trolls for a particular level, draw a troll
from the next-higher level deck (or next-lower if that's impossible) instead."

So once a deck runs out a Level-3 troll may sit in the Level-2 row, whose slots the refill deals a
pedestal whatever troll it draws, and a Level-2 troll in the top row, whose slots hold none. The costs
still follow the row ("To recruit a Level-2 troll from the middle row, you must bribe the two Level-1
trolls beneath it"). docs/rules-decisions.md, "Level-3 pedestal".
"""

from __future__ import annotations

import numpy as np
import pytest
from rules_helpers import act, draw_card, empty_handed, give, make_test_game, swap_into_horde, to_phase

from agents.registry import make_agent
from mk_env.invariants import check_invariants
from mk_env.mountain_king.rules import Game, IllegalActionError
from mk_env.mountain_king.rules.actions import HORDE_ROW
from mk_env.mountain_king.rules.content import CLANS
from mk_env.core.view import PlayerView

LEVEL1_ROW, LEVEL2_ROW, TOP_ROW = ([h for h, row in enumerate(HORDE_ROW) if row == r] for r in range(3))
SMOOT_SLOT = 7  # third row of the trollsmoot, resting on slots 4 and 5
RECRUIT_PEDESTAL = "recruit_pedestal"


def _at_recruit(coins: int = 5):
    """Player 0 in step 2 with ``coins`` coins and trolls in trollsmoot slots 4 and 5 (drawn from the
    Level-1 deck), so trollsmoot slot 7 is open: any horde troll is affordable with 5 coins."""
    game = make_test_game()
    st = empty_handed(game)
    give(st, 0, coin=coins)
    st.smoot[0, 4], st.smoot[0, 5] = draw_card(st, 1), draw_card(st, 1)
    st.invalidate_caches()
    to_phase(st, "step2_recruit_or_dig")
    return game, st


def _recruit(st, h: int) -> int:
    """Recruit the horde troll of slot ``h`` into trollsmoot slot 7 (checked legal in the mask first);
    returns the card."""
    card = int(st.horde[h])
    action = st.game.layout.recruit_index(h, SMOOT_SLOT)
    assert st.legal_mask()[action] and action in st.legal_actions().tolist()
    assert st.describe_action(action) == (f"recruit the horde troll in slot {h} (row {HORDE_ROW[h] + 1}) "
                                          f"into trollsmoot slot {SMOOT_SLOT}")
    st.apply(action)
    check_invariants(st)
    return card


def _bag_choice(st) -> list[tuple[str, int]]:
    """The decisions of ``recruit_pedestal``: pass, then the clans in the bag."""
    assert st.decision_kind() == RECRUIT_PEDESTAL
    legal = st.legal_actions()
    assert np.flatnonzero(st.legal_mask()).tolist() == legal.tolist()
    return [st.game.layout.decode(int(a)) for a in legal]


def _offered(st) -> list[tuple[str, int]]:
    return [("pass", 0)] + [("pedestal", c) for c in np.flatnonzero(st.bag).tolist()]


def _storage_pedestals(st, p: int = 0) -> list[int]:
    return st.storage_pedestals[st.game.storage_of[p]].tolist()


def _one(clan: int) -> list[int]:
    return [int(c == clan) for c in range(len(CLANS))]


def test_a_level3_troll_in_the_level2_row_chooses_from_the_bag():
    """"If it was a Level-3 troll you may look through the draw bag and take a remaining pedestal of your
    choice": a Level-3 card recruited from the Level-2 row (there since a deck ran out) is asked for a
    clan, and the pedestal its slot held goes back into the bag first (the book deals one only to "a fresh
    Level-2 troll"), so the troll gets one pedestal, of the recruiter's choice."""
    game, st = _at_recruit()
    h = LEVEL2_ROW[0]
    card = swap_into_horde(st, h, level=3)
    on_slot = int(st.horde_pedestal[h])
    bag = st.bag.copy()
    assert on_slot >= 0
    check_invariants(st)
    _recruit(st, h)
    assert st.bag.tolist() == (bag + _one(on_slot)).tolist(), "the slot's pedestal is back in the bag"
    assert int(st.horde_pedestal[h]) == -1 and not any(_storage_pedestals(st))
    assert _bag_choice(st) == _offered(st)
    clan = next(c for c in range(len(CLANS)) if st.bag[c] and c != on_slot)
    assert st.describe_action(game.layout.index("pedestal", clan)) == f"choose a {CLANS[clan].capitalize()} pedestal"
    act(st, "pedestal", clan)
    assert _storage_pedestals(st) == _one(clan)
    assert int(st.smoot[0, SMOOT_SLOT]) == card
    assert game.card_level[st.horde[h]] == 2 and st.horde_pedestal[h] >= 0, "the refill deals the new troll one"
    check_invariants(st)


def _bag_holding_nothing(st) -> None:
    """Every pedestal of the bag into player 1's storage (taken earlier, as by Level-3 recruits)."""
    st.storage_pedestals[st.game.storage_of[1]] += st.bag
    st.bag[:] = 0
    st.invalidate_caches()


def test_the_pedestal_its_slot_held_is_a_choice_even_from_an_otherwise_empty_bag():
    """"take a remaining pedestal of your choice (if there are any)": the pedestal the refill dealt to the
    Level-3 troll's slot is one the book leaves in the bag, so with the bag otherwise empty it is still
    there to choose (none is lost on the slot)."""
    game, st = _at_recruit()
    h = LEVEL2_ROW[1]
    swap_into_horde(st, h, level=3)
    on_slot = int(st.horde_pedestal[h])
    _bag_holding_nothing(st)
    check_invariants(st)
    _recruit(st, h)
    assert _bag_choice(st) == [("pass", 0), ("pedestal", on_slot)]
    act(st, "pedestal", on_slot)
    assert _storage_pedestals(st) == _one(on_slot)
    assert int(st.horde_pedestal[h]) == -1, "the bag is empty: the new troll gets none"
    check_invariants(st)


def test_declined_the_pedestal_goes_to_the_next_troll_drawn_into_the_slot():
    """"you may ... take a remaining pedestal": declined, the slot's pedestal stays in the bag, and the
    refill ("add a pedestal from the draw bag") deals it to the troll drawn into the Level-2 row's slot."""
    game, st = _at_recruit()
    h = LEVEL2_ROW[1]
    swap_into_horde(st, h, level=3)
    on_slot = int(st.horde_pedestal[h])
    _bag_holding_nothing(st)
    _recruit(st, h)
    act(st, "pass")
    assert st.decision_kind() != RECRUIT_PEDESTAL and not any(_storage_pedestals(st))
    assert int(st.horde_pedestal[h]) == on_slot and not st.bag.any()
    check_invariants(st)


def test_a_level2_troll_in_the_top_row_gets_no_bag_choice():
    """"If it was a Level-2 troll it will have a pedestal on it (unless they have run out in this game).
    Collect it": a Level-2 card recruited from the top row (there since the Level-3 deck ran out) is not
    a Level-3 troll, so no look through the bag; it collects the pedestal on its slot, and the top row's
    slots hold none (the refill deals pedestals to the Level-2 row). It still costs the top row's 5 bribes."""
    game, st = _at_recruit()
    h = TOP_ROW[0]
    card = swap_into_horde(st, h, level=2)
    bag = st.bag.copy()
    assert int(st.horde_pedestal[h]) == -1
    check_invariants(st)
    _recruit(st, h)
    assert st.decision_kind() != RECRUIT_PEDESTAL
    assert int(st.smoot[0, SMOOT_SLOT]) == card
    assert not any(_storage_pedestals(st)) and (st.bag == bag).all()
    assert int(st.storage[game.storage_of[0]].sum()) == 0, "5 bribes paid, one to each troll beneath"
    with pytest.raises(IllegalActionError, match="'pedestal' decisions are not allowed in this phase"):
        act(st, "pedestal", int(np.flatnonzero(st.bag)[0]))
    check_invariants(st)


def test_a_level1_troll_in_the_level2_row_takes_no_pedestal():
    """The book gives a pedestal to a Level-2 troll ("it will have a pedestal on it") and a bag choice to
    a Level-3 troll, none to a Level-1 troll: one that moved into the Level-2 row (both decks above ran out)
    leaves the pedestal on its slot to the bag, and the refill deals the troll drawn there one from it."""
    game, st = _at_recruit()
    h = LEVEL2_ROW[2]
    swap_into_horde(st, h, level=1)
    total_in_bag = int(st.bag.sum())
    check_invariants(st)
    _recruit(st, h)
    assert st.decision_kind() != RECRUIT_PEDESTAL and not any(_storage_pedestals(st))
    assert int(st.bag.sum()) == total_in_bag and int(st.horde_pedestal[h]) >= 0
    check_invariants(st)


def test_the_cost_still_follows_the_row():
    """"To recruit a Level-2 troll from the middle row, you must bribe the two Level-1 trolls beneath
    it": a Level-3 card in the middle row costs its row's 2 bribes (refused with 1 coin, legal with 2)."""
    game, st = _at_recruit(coins=1)
    h = LEVEL2_ROW[0]
    swap_into_horde(st, h, level=3)
    action = game.layout.recruit_index(h, SMOOT_SLOT)
    assert not st.legal_mask()[action]
    with pytest.raises(IllegalActionError, match="it needs 2 bribes and you own 1 coins"):
        st.apply(action)
    give(st, 0, coin=1)
    st.invalidate_caches()
    _recruit(st, h)
    assert st.decision_kind() == RECRUIT_PEDESTAL


# -- the ordinary cases, each level in its own row -------------------------------------------------------
def test_a_level3_troll_in_the_top_row_still_chooses_from_the_bag():
    """"If it was a Level-3 troll you may look through the draw bag and take a remaining pedestal of your
    choice": the top row's own troll, as before."""
    game, st = _at_recruit()
    h = TOP_ROW[1]
    assert game.card_level[st.horde[h]] == 3
    bag = st.bag.copy()
    _recruit(st, h)
    assert (st.bag == bag).all() and _bag_choice(st) == _offered(st)
    clan = int(np.flatnonzero(st.bag)[0])
    act(st, "pedestal", clan)
    assert _storage_pedestals(st) == _one(clan)
    check_invariants(st)


def test_a_level2_troll_in_the_level2_row_still_collects_its_pedestal():
    """"If it was a Level-2 troll it will have a pedestal on it ... Collect it into your storage": no
    choice, and the fresh Level-2 troll gets one "from the draw bag"."""
    game, st = _at_recruit()
    h = LEVEL2_ROW[3]
    assert game.card_level[st.horde[h]] == 2
    on_slot, total_in_bag = int(st.horde_pedestal[h]), int(st.bag.sum())
    _recruit(st, h)
    assert st.decision_kind() != RECRUIT_PEDESTAL
    assert _storage_pedestals(st) == _one(on_slot)
    assert int(st.bag.sum()) == total_in_bag - 1 and int(st.horde_pedestal[h]) >= 0
    check_invariants(st)


def test_a_level1_troll_in_the_bottom_row_still_takes_none():
    """"A Level-1 troll from the bottom row may be recruited for free", with no pedestal."""
    game, st = _at_recruit(coins=0)
    h = LEVEL1_ROW[0]
    bag = st.bag.copy()
    _recruit(st, h)
    assert st.decision_kind() != RECRUIT_PEDESTAL
    assert not any(_storage_pedestals(st)) and (st.bag == bag).all()
    check_invariants(st)


# -- a real game ----------------------------------------------------------------------------------------
#: a 5-player heuristic game in which the Level-2 deck runs out, the refill draws a Level-3 troll into the
#: Level-2 row's slot 5 and deals the slot a Moon pedestal while the bag is otherwise empty, and player 0
#: may recruit it (turn 40)
REAL_GAME_PLAYERS, REAL_GAME_SEED = 5, 13


def _level3_on_a_pedestal(st) -> int | None:
    """A recruit the player to move may choose of a Level-3 troll in the Level-2 row whose slot holds a
    pedestal, if any."""
    layout, level = st.game.layout, st.game.card_level
    for a in st.legal_actions().tolist():
        block, arg = layout.decode(a)
        h = layout.recruit_args(arg)[0] if block == "recruit" else -1
        if h >= 0 and HORDE_ROW[h] == 1 and level[st.horde[h]] == 3 and st.horde_pedestal[h] >= 0:
            return a
    return None


def test_in_a_real_game_the_level3_troll_of_the_level2_row_chooses_its_pedestal():
    """"If you ever run out of trolls for a particular level, draw a troll from the next-higher level
    deck": in a real game the Level-2 row fills with Level-3 trolls; recruiting one, "you may look through
    the draw bag and take a remaining pedestal of your choice" (v1 gave the pedestal on its slot, no choice)."""
    game = Game(REAL_GAME_PLAYERS)
    st = game.new_initial_state(REAL_GAME_SEED)
    heuristic, rng = make_agent("heuristic"), np.random.default_rng(REAL_GAME_SEED)
    while (action := _level3_on_a_pedestal(st)) is None:
        assert not st.is_terminal(), (f"seed {REAL_GAME_SEED} no longer reaches the position: choose another "
                                      "5-player seed whose game does")
        st.apply(int(heuristic.act(PlayerView(st, st.current_player()), rng)))
    h = game.layout.recruit_args(game.layout.decode(action)[1])[0]
    p, on_slot = st.current_player(), int(st.horde_pedestal[h])
    bag = st.bag.copy()
    st.apply(action)
    check_invariants(st)
    assert st.bag.tolist() == (bag + _one(on_slot)).tolist()
    assert _bag_choice(st) == _offered(st)
    chosen = heuristic.act(PlayerView(st, p), rng)
    assert game.layout.decode(int(chosen))[0] == "pedestal", "the heuristic takes a pedestal when it may"
    st.apply(int(chosen))
    assert _storage_pedestals(st, p)[game.layout.decode(int(chosen))[1]] >= 1
    check_invariants(st)
