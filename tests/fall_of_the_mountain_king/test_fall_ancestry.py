"""Build Your Ancestry: the draft of four cards, the placement rules on the 6x6 grid, supplies with
barrels and wild pairs, desperation tokens."""

import numpy as np
from fall_helpers import STOP, act, at_phase, cell, only, play, set_grid

from mk_env.fall_of_the_mountain_king.rules import Block, Phase
from mk_env.fall_of_the_mountain_king.rules.ancestry import anchors, desperation, supplies


def test_each_wave_each_player_adds_three_of_four_cards_and_discards_the_last():
    st = at_phase(3, Phase.PLACE_CARD, seed=1)
    deck = len(st.deck)
    play(st, np.random.default_rng(0), until=lambda s: s.phase != Phase.PLACE_CARD)
    assert all(len(p) == 2 * 3 for p in st.placed) and st.hands == [[], [], []]
    assert len(st.deck) == deck  # the fourth cards are discarded, not returned


def _pass_direction(wave):
    st = at_phase(3, Phase.PLACE_CARD, seed=2)
    rng = np.random.default_rng(4)
    while st.wave != wave:
        play(st, rng, until=lambda s: s.phase == Phase.PLACE_CARD and s.wave == wave)
    before = [h[:] for h in st.hands]
    for _ in range(3):
        act(st, Block.PLACE, only(st, Block.PLACE)[0])  # slot 0 of each hand
    return [h[1:] for h in before], st.hands


def test_the_remaining_cards_pass_left_in_waves_one_and_three_and_right_in_wave_two():
    """Left is the next seat clockwise."""
    kept, hands = _pass_direction(1)
    assert hands == [kept[2], kept[0], kept[1]]
    kept, hands = _pass_direction(2)
    assert hands == [kept[1], kept[2], kept[0]]
    kept, hands = _pass_direction(3)
    assert hands == [kept[2], kept[0], kept[1]]


def test_a_card_covers_a_prior_cell_never_an_elder_symbol_and_stays_inside_the_6x6_grid():
    st = at_phase(2, Phase.PLACE_CARD, seed=3)
    seat = st.decider
    set_grid(st, seat, [". . . . . . . . .",
                        ". . . . . . . . .",
                        ". . . . . . . . .",
                        ". . . . . . . . .",
                        ". . . A B E . . .",
                        ". . . I G W . . ."])
    spots = anchors(st, seat)
    assert cell(st, 3, 2) in spots and cell(st, 4, 3) in spots  # overlapping a corner / two cells
    assert cell(st, 2, 2) not in spots  # touches nothing: must cover a prior cell
    assert cell(st, 3, 4) not in spots and cell(st, 4, 4) not in spots  # would cover the elder symbol
    assert cell(st, 4, 6) not in spots and cell(st, 3, 5) not in spots  # the elder at r4c5 is under both
    # grown to 6 columns: nothing may go further right or left
    set_grid(st, seat, [". . . . . . . . .",
                        ". . . . . . . . .",
                        ". . . . . . . . .",
                        ". . . . . . . . .",
                        ". A B I G W A . .",
                        ". _ _ _ _ _ _ . ."])
    spots = anchors(st, seat)
    assert cell(st, 4, 0) not in spots and cell(st, 4, 6) not in spots and cell(st, 4, 5) in spots
    legal = only(st, Block.PLACE)
    assert {a % st.game.cells for a in legal} == set(spots) and len(legal) == len(spots) * len(st.hands[seat])


def test_supplies_are_6_5_4_plus_barrels_up_to_8():
    st = at_phase(2, Phase.PLACE_CARD, seed=5)
    set_grid(st, 0, ["S S A", "B I G"])
    st.start_player = 0
    for wave, want in ((1, 8), (2, 7), (3, 6)):
        st.wave = wave
        supplies(st, 0)
        assert st.supply[0] == want
    st.wave = 1
    set_grid(st, 0, ["S S S", "S B G"])
    supplies(st, 0)
    assert st.supply[0] == 8  # "to a maximum of 8"


def test_two_wild_symbols_covered_give_one_more_supply():
    st = at_phase(2, Phase.PLACE_CARD, seed=6)
    set_grid(st, 0, ["W W A", "W B G"])
    st.start_player, st.wave = 0, 1
    supplies(st, 0)
    st.tasks = [STOP, ["reveal_wild_pairs"]]  # only this player's wild pairs, then every player's revealed
    assert st.phase == Phase.WILD_PAIR and st.supply[0] == 6
    assert only(st, Block.DONE) == [0] and len(only(st, Block.WILD)) == 3
    act(st, Block.WILD, cell(st, 0, 0))
    assert only(st, Block.DONE) == []  # a pair is covered whole
    act(st, Block.WILD, cell(st, 1, 0))
    assert st.supply[0] == 7 and st.covered[0][cell(st, 0, 0)] == 1
    assert st.phase == Phase.KEEP_CHAMPION  # one wild left: no more pairs, the decision is over


def test_one_desperation_token_for_each_desperation_symbol_right_of_the_supply():
    """The designed mat has desperation symbols on supply spaces 6, 7 and 8."""
    st = at_phase(2, Phase.PLACE_CARD, seed=7)
    for supply, tokens in ((4, 3), (5, 3), (6, 2), (7, 1), (8, 0)):
        st.supply[1] = supply
        desperation(st, 1)
        assert st.desperation[1] == tokens


def test_adding_a_card_is_mandatory_and_keeps_its_rotation():
    st = at_phase(2, Phase.PLACE_CARD, seed=8)
    assert not only(st, Block.DONE)
    seat, card = st.decider, st.hands[st.decider][0]
    a = only(st, Block.PLACE)[0]
    act(st, Block.PLACE, a)
    play(st, np.random.default_rng(0), until=lambda s: len(s.placed[seat]) == 2)  # the others' cards too
    cells = st.game.pack.cards[card].cells
    anchor = a % st.game.cells
    cols = st.game.canvas_cols
    got = [st.grid[seat][anchor + r * cols + c] for r in (0, 1) for c in (0, 1)]
    assert [v > 0 for v in got] == [bool(x) for x in cells]
