""""You may" stays optional (issue 16, item 3).

* The Level-3 recruit's pedestal. English rulebook, *Recruit a troll*: "If it was a Level-3 troll you may
  look through the draw bag and take a remaining pedestal of your choice (if there are any) into your
  storage." French: "S'il s'agit d'un Troll de niveau 3, vous pouvez regarder dans le sac et choisir le
  Piédestal de votre choix (s'il en reste)". So the recruit asks which clan, or pass to take none, even
  when only one clan is left in the bag.
* Tremor's "this turn" (the pack's card: "Make 2 statue moves in your network this turn without spending
  carts"): the free moves may be made when it is cast or kept for steps 2, 3 and 4 of the turn (step 4
  spends them before any cart); unused ones end with the turn.
* A spell is cast for its effect: the rulebook's "Then carry out the spell's effects" gives no cast for
  the rune alone (docs/rules-decisions.md).
"""

from __future__ import annotations

import numpy as np
import pytest
import dataclasses

from rules_helpers import (BOARD_TEXT, act, clear_resources, draw_card, empty_handed, give, make_test_game,
                           place_tunnel, spell_in_book, sq, to_phase)

from mk_env.mountain_king.rules import Game, IllegalActionError, load_pack
from mk_env.mountain_king.rules import economy as eco
from mk_env.mountain_king.rules.content import CART, N_CLANS
from mk_env.mountain_king.rules.invariants import check_invariants
from mk_env.mountain_king.rules.pack import parse_board

TOP_LEFT = 9  # the Level-3 row's first horde slot: rests on horde slots 0, 1, 2, 5 and 6
SMOOT_SLOT = 7  # third row of the trollsmoot, resting on slots 4 and 5


@pytest.fixture
def at_level3_recruit():
    """Player 0 in step 2 with 5 coins and trolls in trollsmoot slots 4 and 5 (drawn from the Level-1
    deck), so recruiting the Level-3 troll of horde slot 9 into slot 7 is legal."""
    game = make_test_game()
    st = empty_handed(game)
    give(st, 0, coin=5)
    st.smoot[0, 4], st.smoot[0, 5] = draw_card(st, 1), draw_card(st, 1)
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


# -- Tremor: "Make 2 statue moves in your network this turn without spending carts." -----------------
def _game_with_a_statue_spot() -> Game:
    """The small test board with one statue spot, at (4, 5)."""
    features = "..W........"
    text = BOARD_TEXT.replace("\n" + features + "\n", "\n" + features[:5] + "S" + features[6:] + "\n", 1)
    pack = load_pack()
    pack = dataclasses.replace(pack, boards={"test": parse_board(text, "test")})
    return Game(2, board_side="test", pack=pack)


def _tremor_ready():
    """Player 0 at step 1 with a rune and no cart, Tremor in spellbook position 0, the statue (taken from
    its buried spot) on the gate (0, 5) and a tunnel (1, 5)-(2, 5) below it."""
    game = _game_with_a_statue_spot()
    st = empty_handed(game)
    position = spell_in_book(st, "free_statue_moves")
    place_tunnel(st, [(1, 5), (2, 5)], shape=0)  # a domino (tunnel shape 0) from the supply
    st.tunnel_supply[0] -= 1
    st.statue[sq(game, 0, 5)], st.statue[sq(game, 4, 5)] = st.statue[sq(game, 4, 5)], -1
    give(st, 0, rune=1)
    st.invalidate_caches()
    check_invariants(st)
    return game, st, position


def _kinds(st) -> set[str]:
    return {st.game.layout.decode(int(a))[0] for a in st.legal_actions()}


def _carts(st, p: int) -> int:
    return int(eco.owned(st, p)[CART])


def test_tremor_moves_may_be_kept_for_later_in_the_turn():
    game, st, position = _tremor_ready()
    act(st, "cast", position)
    assert st.decision_kind() == "spell_statue" and st.free_moves == 2
    act(st, "pass")  # none now: keep both for later this turn
    assert st.free_moves == 2 and not st.pending
    assert st.decision_kind() == "step2_recruit_or_dig"  # step 1 had nothing left: it passed by itself
    check_invariants(st)
    assert "select_statue" in _kinds(st), "a kept free move may be made in step 2"
    act(st, "select_statue", sq(game, 0, 5))
    assert game.state_from_json(st.to_json()).to_json() == st.to_json(), "a save mid-move loads"
    act(st, "move_statue", sq(game, 1, 5))
    assert st.decision_kind() == "step2_recruit_or_dig" and st.free_moves == 1 and _carts(st, 0) == 0
    check_invariants(st)
    recruit = next(int(a) for a in st.legal_actions() if game.layout.decode(int(a))[0] == "recruit")
    st.apply(recruit)
    clear_resources(st, 0)  # whatever the recruit's cascade brought (carts among it) back to the supply
    st.invalidate_caches()
    to_phase(st, "step3_great_hall")
    assert "select_statue" in _kinds(st), "and in step 3"
    act(st, "pass")
    assert st.decision_kind() == "step4_move_statues"
    act(st, "select_statue", sq(game, 1, 5))  # no cart owned: the free move pays
    act(st, "move_statue", sq(game, 2, 5))
    assert st.free_moves == 0 and _carts(st, 0) == 0 and st.statue[sq(game, 2, 5)] >= 0
    assert "select_statue" not in _kinds(st), "no free move left and no cart"
    check_invariants(st)


def test_step4_spends_the_free_moves_before_any_cart():
    game, st, position = _tremor_ready()
    act(st, "cast", position)
    act(st, "select_statue", sq(game, 0, 5))
    act(st, "move_statue", sq(game, 1, 5))
    assert st.free_moves == 1
    act(st, "pass")  # the second move kept
    recruit = next(int(a) for a in st.legal_actions() if game.layout.decode(int(a))[0] == "recruit")
    st.apply(recruit)
    clear_resources(st, 0)
    give(st, 0, cart=1)  # one wild cart
    st.invalidate_caches()
    to_phase(st, "step4_move_statues")
    act(st, "select_statue", sq(game, 1, 5))
    act(st, "move_statue", sq(game, 2, 5))
    assert st.free_moves == 0 and _carts(st, 0) == 1, "the free move, not the cart"
    act(st, "select_statue", sq(game, 2, 5))
    act(st, "move_statue", sq(game, 1, 5))
    assert _carts(st, 0) == 0
    check_invariants(st)


def test_tremor_is_cast_before_any_statue_can_move_and_its_moves_end_with_the_turn():
    game, st, position = _tremor_ready()
    st.statue[sq(game, 0, 5)], st.statue[sq(game, 4, 5)] = -1, st.statue[sq(game, 0, 5)]  # buried again: off
    st.invalidate_caches()                                                                 # the network
    assert game.layout.index("cast", position) in st.legal_actions().tolist()
    act(st, "cast", position)  # no statue can move now: the spell's own decision passes by itself
    assert st.decision_kind() == "step2_recruit_or_dig" and st.free_moves == 2
    while st.current == 0:
        legal = st.legal_actions().tolist()
        st.apply(0 if 0 in legal else next(a for a in legal if game.layout.decode(a)[0] == "recruit"))
    assert st.free_moves == 0, "unused free moves end with the turn"
    check_invariants(st)


# -- a spell is cast for its effect, never for its rune alone ------------------------------------------
def test_a_spell_whose_effect_cannot_be_carried_out_is_not_cast_for_its_rune_alone():
    """"To cast a spell you must spend 1 rune onto the spell ... Then carry out the spell's effects as
    instructed on the spell card." Casting is optional ("You may Cast 1 spell"), its effect is not: a
    Ceremony of Ascension without a Level-2 troll in the trollsmoot cannot be cast (e.g. to hasten its
    disintegration with a third rune)."""
    game = make_test_game()
    st = empty_handed(game)
    position = spell_in_book(st, "ascension")
    give(st, 0, rune=1)
    st.invalidate_caches()
    assert not (game.card_level[st.smoot[0][st.smoot[0] >= 0]] == 2).any()
    cast = game.layout.index("cast", position)
    assert cast not in st.legal_actions().tolist()
    with pytest.raises(IllegalActionError, match="the spell's effect cannot be carried out now"):
        st.apply(cast)
