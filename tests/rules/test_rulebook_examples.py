"""Every worked example of the rulebook, with the book's numbers."""

from __future__ import annotations

import numpy as np
import pytest

from mk_env.mountain_king.rules import IllegalActionError, Phase
from mk_env.mountain_king.rules.board import recompute_networks
from mk_env.mountain_king.rules.great_halls import apply_hall
from mk_env.mountain_king.rules import economy as eco
from mk_env.mountain_king.rules.content import CART, COIN, HAMMER, HEARTSTONE, IRON, RUNE, STONE, TOKEN_KINDS
from rules_helpers import (act, blocks, empty_handed, give, hold, place_tunnel, placement,
                           sq, make_test_game, to_phase)

FIRE, ICE, MOON = 0, 1, 2


@pytest.fixture
def game():
    return make_test_game(2)


@pytest.fixture
def st(game):
    return position(game)


def position(game):
    """Player 0 (gate at (0, 5)) to act, with empty hands; player 1's gate at (10, 5)."""
    st = empty_handed(game)
    st.statue[:] = -1
    st.invalidate_caches()
    assert st.gate_sq[0] == sq(game, 0, 5) and st.gate_sq[1] == sq(game, 10, 5)
    return st


def test_spending_example(st):
    """Spend four stone with two in storage and three held by trolls: trolls pay first."""
    give(st, 0, stone=2)
    hold(st, 0, 0, stone=1)
    hold(st, 0, 1, stone=1)
    hold(st, 0, 2, stone=1)
    supply = int(st.supply[STONE])
    eco.pay(st, 0, STONE, 4)
    assert eco.owned(st, 0)[STONE] == 1
    assert st.tokens[0, :, STONE].sum() == 0  # the trolls are free to generate again
    assert st.storage[0, STONE] == 1
    assert st.supply[STONE] == supply + 4


def test_cascade_example():
    """The third recruit, placed top left, activates itself, the two beneath and three of the bottom
    row; each troll gains only the symbols it is not already covering. (On the Python engine: the example
    rewrites the game's card table after its state is made, which the compiled engine read at the first state.)"""
    game = make_test_game(2, backend="python")
    st = position(game)
    sym = game.card_symbols.copy()  # this example's own cards (the game's table is read-only)
    kinds = {k: i for i, k in enumerate(TOKEN_KINDS)}

    def card(idx: int, **symbols: int) -> int:
        sym[idx] = 0
        for name, n in symbols.items():
            sym[idx, kinds[name]] = n
        return idx

    # bottom row (starters), a Fire troll and a Mud troll above them, and the recruit in the horde
    for slot, symbols in enumerate(({"coin": 1}, {"heartstone": 1}, {"stone": 1}, {"rune": 1})):
        st.smoot[0, slot] = card(slot, **symbols)
    st.smoot[0, 4] = card(10, stone=2, cart_fire=1)
    st.smoot[0, 5] = card(11, iron=1, heartstone=1)
    new = card(12, iron=3, rune=1, cart=1)
    st.horde[0] = new
    hold(st, 0, 4, cart_fire=1)  # the Fire troll still holds a cart from earlier
    hold(st, 0, 5, heartstone=1)  # the Mud troll still holds a heartstone
    hold(st, 0, 2, stone=1)  # the third bottom troll still holds a stone
    game.card_symbols, game.card_symbol_rows = sym, sym.tolist()
    st.invalidate_caches()
    assert st.decision_kind() == "step1_spells_workshops"
    act(st, "pass")
    st.apply(game.layout.recruit_index(0, 7))  # top left of the third row: rests on slots 4 and 5
    t = st.tokens[0]
    assert t[7, IRON] == 3 and t[7, RUNE] == 1 and t[7, CART] == 1
    assert t[4, STONE] == 2 and t[4, kinds["cart_fire"]] == 1
    assert t[5, IRON] == 1 and t[5, HEARTSTONE] == 1
    assert t[0, COIN] == 1 and t[1, HEARTSTONE] == 1 and t[2, STONE] == 1
    assert t[3].sum() == 0  # the fourth bottom troll is not part of this cascade


def test_dig_example(game, st):
    """Four stone for a size-4 tunnel: 4 honour, 2 iron and a hammer gained, the Fire statue
    unearthed in place; the same tunnel over 3 rubble needs 3 hammers."""
    give(st, 0, stone=4)
    cells = [(1, 5), (2, 5), (3, 5), (4, 5)]
    st.buried[:] = -1
    st.buried[sq(game, 2, 5)] = IRON
    st.buried[sq(game, 3, 5)] = IRON
    st.buried[sq(game, 1, 5)] = HAMMER
    st.statue[sq(game, 4, 5)] = FIRE
    rubble_spot = placement(game, "I-tetromino", [(1, 5), (1, 6), (1, 7), (1, 8)])
    to_phase(st, "step2_recruit_or_dig")
    assert not st.is_legal(game.layout.index("dig", rubble_spot))  # no hammers for 3 rubble
    clone = st.clone()
    give(clone, 0, hammer=3)
    clone.invalidate_caches()
    clone.apply(game.layout.index("dig", rubble_spot))
    assert clone.storage[0, HAMMER] == 1 and clone.honour[0] == 4  # 3 paid, 1 dug up at (1, 5)

    st.apply(game.layout.index("dig", placement(game, "I-tetromino", cells)))
    assert st.honour[0] == 4
    assert st.storage[0, STONE] == 0
    assert st.storage[0, IRON] == 2 and st.storage[0, HAMMER] == 1
    fire = sq(game, 4, 5)
    assert st.statue[fire] == FIRE and st.kind[fire] == 2 and st.reach[0, fire]


def test_tunnel_chart(game):
    chart = game.pack.tunnel_honour
    assert [chart[2][m] for m in ("stone", "iron", "heartstone")] == [0, 0, 0]
    assert [chart[3][m] for m in ("stone", "iron", "heartstone")] == [3, 4, 5]
    assert [chart[4][m] for m in ("stone", "iron", "heartstone")] == [4, 6, 8]
    assert [chart[5][m] for m in ("stone", "iron", "heartstone")] == [5, 8, 11]


def test_pedestal_example(game, st):
    """A size-4 tunnel with its anchor in the yellow tier; the yellow Moon token is gone, the Fire one
    (worth 3) remains: the Fire pedestal goes on the anchor and its token is claimed."""
    place_tunnel(st, [(1, 5), (2, 5), (3, 5)], shape=2)
    give(st, 0, heartstone=4)
    st.storage_pedestals[0, FIRE] = 1
    st.storage_pedestals[0, MOON] = 1
    st.track_taken[4, MOON] = 1  # someone already placed a Moon pedestal in the yellow tier
    st.track_value[4, FIRE] = 3
    table = game.geo.tunnel_placements
    to_phase(st, "step2_recruit_or_dig")
    legal = [int(a) - game.layout.offset["dig"] for a in st.legal_actions()
             if game.layout.decode(int(a))[0] == "dig"]
    yellow = [i for i in legal if table.size[i] == 4 and table.anchor[i] >= 0
              and game.geo.tier[table.anchor[i]] == 5]
    assert yellow, "a size-4 tunnel can reach the yellow tier"
    i = yellow[0]
    st.apply(game.layout.index("dig", i))
    assert st.decision_kind() == "dig_pedestal"
    assert blocks(st) == {"pass", "pedestal"}
    assert not st.is_legal(game.layout.index("pedestal", MOON))  # that clan/tier is taken
    act(st, "pedestal", FIRE)
    anchor = int(table.anchor[i])
    assert st.pedestal[anchor] == FIRE
    assert st.pedestal_points[0] == 3 and st.track_taken[4, FIRE] == 0
    assert st.storage_pedestals[0].tolist() == [0, 0, 1]


def test_pedestal_only_when_digging(game, st):
    """It's now or never: no decision places a pedestal on an existing anchor later."""
    st.storage_pedestals[0, FIRE] = 1
    st.invalidate_caches()
    assert "pedestal" not in blocks(st)


def test_workshop_example(game, st):
    """The tunnel placed next to a workshop site establishes the Charmcrafter from the supply."""
    names = [w.name for w in game.pack.workshops]
    st.workshop_supply[:] = 0
    st.workshop_supply[names.index("Charmcrafter")] = 1
    st.workshop_supply[names.index("Toolforge")] = 1
    place_tunnel(st, [(0, 4), (0, 3)], shape=0)
    give(st, 0, stone=2)
    to_phase(st, "step2_recruit_or_dig")
    st.apply(game.layout.index("dig", placement(game, "domino", [(1, 3), (2, 3)])))
    assert st.decision_kind() == "dig_workshop"
    act(st, "establish", names.index("Charmcrafter"))
    site = list(game.geo.site_squares).index(sq(game, 2, 2))
    assert st.workshop[site] == names.index("Charmcrafter")
    assert st.workshop_supply[names.index("Charmcrafter")] == 0


def test_toolforge_with_three_open_entrances(game, st):
    """Magenta's network touches one entrance, another network two more: 3 uses, each a heartstone
    for a hammer."""
    names = [w.name for w in game.pack.workshops]
    site_sq = sq(game, 4, 2)
    site = list(game.geo.site_squares).index(site_sq)
    st.workshop[site] = names.index("Toolforge")
    # player 0 touches the site's top side (3, 2)
    place_tunnel(st, [(0, 4), (0, 3), (0, 2)], shape=2)
    place_tunnel(st, [(1, 3), (2, 3), (3, 3), (3, 2)], shape=4)
    # player 1 (gate moved to (5, 0)) touches the left (4, 1) and bottom (5, 2) sides
    st.kind[sq(game, 10, 5)] = 0
    st.gate_sq[1] = sq(game, 5, 0)
    place_tunnel(st, [(5, 0)], shape=-1)
    st.kind[sq(game, 5, 0)] = 1
    place_tunnel(st, [(5, 1), (4, 1), (5, 2)], shape=1)
    recompute_networks(st)
    give(st, 0, heartstone=4)
    st.invalidate_caches()
    assert st.reach[0, sq(game, 3, 2)] and st.reach[1, sq(game, 4, 1)] and st.reach[1, sq(game, 5, 2)]
    act(st, "activate_workshop", site)
    assert st.uses_left == 3
    hs_to_hammer = next(j for j, c in enumerate(game.layout.conversions)
                        if c.workshop == names.index("Toolforge") and c.give and c.give[HEARTSTONE] == 1)
    for _ in range(3):
        act(st, "workshop_use", hs_to_hammer)
    assert st.storage[0, HAMMER] == 3 and st.storage[0, HEARTSTONE] == 1
    assert st.decision_kind() != "workshop"  # no use left


def test_spell_example_earth_ritual(game, st):
    """The caster's rune is only the second on Earth Ritual, so the spell stays in the spellbook."""
    ritual = [s.name for s in game.pack.spells].index("Earth Ritual")
    st.spellbook[0] = ritual
    st.spell_runes[0] = 1
    give(st, 0, rune=1)
    st.invalidate_caches()
    act(st, "cast", 0)
    assert st.decision_kind() == "spell_option"
    act(st, "spell_option", 1)  # 2 iron
    assert st.storage[0, IRON] == 2 and st.storage[0, RUNE] == 0
    assert st.spellbook[0] == ritual and st.spell_runes[0] == 2
    # a third rune disintegrates it after the effect: runes back, card to the bottom, a new one drawn
    other = st.clone()
    other.spell_cast = False
    other.phase = Phase.STEP1
    give(other, 0, rune=1)
    other.invalidate_caches()
    deck_top = other.spell_deck[0]
    supply_runes = int(other.supply[RUNE])
    act(other, "cast", 0)
    act(other, "spell_option", 0)
    assert other.spellbook[0] == deck_top and other.spell_deck[-1] == ritual
    assert other.spell_runes[0] == 0 and other.supply[RUNE] == supply_runes + 3


def _to_step3(st) -> None:
    """Skip to step 3 of player 0's turn (as if step 2 were done)."""
    st.phase = Phase.STEP3
    st.invalidate_caches()


def _trove_position(game, st):
    """Player 0 owns tunnels covering rows 1-2, columns 3-5 (a 2 x 3 region) and more."""
    place_tunnel(st, [(1, 5), (2, 5)], shape=0)
    place_tunnel(st, [(1, 4), (2, 4)], shape=0)
    place_tunnel(st, [(1, 3), (2, 3), (3, 3)], shape=2)  # protrudes below the hall at (3, 3)
    return placement(game, "The Trove", [(1, 3), (1, 4), (1, 5), (2, 3), (2, 4), (2, 5)], halls=True)


def test_great_hall_example_the_trove(game, st):
    """Dedicating The Trove removes the Ice pedestal (its token is kept), keeps the Moon statue in
    place; it is worth 6, or 15 once a statue stands on its altar."""
    i = _trove_position(game, st)
    ice_sq, moon_sq = sq(game, 1, 4), sq(game, 2, 3)
    st.pedestal[ice_sq] = ICE
    st.track_taken[1, ICE] = 0
    st.pedestal_points[0] = 4
    st.statue[moon_sq] = MOON
    st.invalidate_caches()
    _to_step3(st)
    assert st.decision_kind() == "step3_great_hall"
    act(st, "hall", i)
    assert st.pedestal[ice_sq] == -1 and st.pedestal_points[0] == 4 and st.track_taken[1, ICE] == 0
    assert st.statue[moon_sq] == MOON
    assert st.score_breakdown(0)["great_halls"] == 6
    # the part of the I-tromino sticking out at (3, 3) is now a tunnel of its own
    assert st.region[sq(game, 3, 3)] != st.region[moon_sq]
    altar = int(st.hall_altar[[h.name for h in game.pack.great_halls].index("The Trove")])
    st.statue[moon_sq] = -1
    st.statue[altar] = MOON
    assert st.score_breakdown(0)["great_halls"] == 15
    assert st.score_breakdown(0)["statues"] == 0  # a statue in a hall scores only through the altar


def test_great_hall_must_cover_only_own_tunnels(game, st):
    i = _trove_position(game, st)
    st.kind[sq(game, 2, 5)] = 0  # a gap
    st.invalidate_caches()
    _to_step3(st)
    assert not st.is_legal(game.layout.index("hall", i))


def test_statue_movement_example(game, st):
    """A Moon cart takes the Moon statue onto the altar; the Fire cart and two wild carts move the Fire
    statue three times; trading 4 other resources for a (wild) cart allows one last move."""
    i = _trove_position(game, st)
    place_tunnel(st, [(3, 4), (3, 5), (4, 5), (4, 4)], shape=6)  # S-ish chain below the hall
    place_tunnel(st, [(4, 3), (5, 3)], shape=0)
    place_tunnel(st, [(5, 2), (6, 2)], shape=0)
    place_tunnel(st, [(6, 3), (6, 4)], shape=0)
    moon_sq = sq(game, 1, 3)
    fire_start = sq(game, 0, 5)  # on the gate
    st.statue[moon_sq] = MOON
    st.statue[fire_start] = FIRE
    st.statue[sq(game, 3, 3)] = ICE  # buried? no: covered by a tunnel, but it is Ice: cannot use Fire carts
    hold(st, 0, 0, cart_fire=1)
    hold(st, 0, 1, cart=1)
    hold(st, 0, 2, cart_moon=1)
    give(st, 0, cart=1, rune=1, hammer=1, iron=2)
    st.invalidate_caches()
    _to_step3(st)
    act(st, "hall", i)
    assert st.decision_kind() == "step4_move_statues"
    altar = int(st.hall_altar[[h.name for h in game.pack.great_halls].index("The Trove")])
    act(st, "select_statue", moon_sq)
    act(st, "move_statue", altar)
    assert st.tokens[0, 2, 9] == 0  # the Moon cart paid
    # the Fire statue: gate -> (1, 5) in the hall -> (3, 5) -> (5, 3)? one tunnel per cart
    path = [sq(game, 2, 5), sq(game, 4, 4), sq(game, 5, 3)]
    for step, dest in enumerate(path):
        src = fire_start if step == 0 else path[step - 1]
        act(st, "select_statue", src)
        act(st, "move_statue", dest)
    assert st.statue[sq(game, 5, 3)] == FIRE
    assert eco.owned(st, 0)[CART] == 0
    assert not st.is_legal(game.layout.index("select_statue", sq(game, 5, 3)))
    # trade 1 rune, 1 hammer and 2 iron for a cart (wild by default), then the last move
    give_vec = np.array([0, 2, 0, 0, 0, 1, 1])
    trade = next(j for j in range(len(game.layout.trade_gives))
                 if (game.layout.trade_gives[j] == give_vec).all())
    act(st, "trade", trade * 7 + CART)
    act(st, "select_statue", sq(game, 5, 3))
    act(st, "move_statue", sq(game, 6, 2))
    assert st.statue[sq(game, 6, 2)] == FIRE


def test_final_scoring_example(game, st):
    """43 (tunnels) + 3 (coronation) + 11 (pedestal tokens) + 1 (leftovers) + 15 (great halls:
    0 + 15) + 38 (statues: 20 + 10 + 8) = 111."""
    halls = [h.name for h in game.pack.great_halls]
    # hall A: Shaman's Chamber (0 with an empty altar) holding an Ice statue off its altar
    place_tunnel(st, [(1, 5), (2, 5)], shape=0)
    place_tunnel(st, [(1, 6), (2, 6)], shape=0)
    a = placement(game, "Shaman's Chamber", [(1, 5), (1, 6), (2, 5), (2, 6)], halls=True)
    st.current = 0
    apply_hall(st, 0, a)
    altar_a = int(st.hall_altar[halls.index("Shaman's Chamber")])
    off_altar = next(s for s in (sq(game, 1, 5), sq(game, 1, 6), sq(game, 2, 5), sq(game, 2, 6)) if s != altar_a)
    st.statue[off_altar] = ICE
    # hall B: The Trove with a statue on its altar
    place_tunnel(st, [(1, 4), (2, 4)], shape=0)
    place_tunnel(st, [(1, 3), (2, 3)], shape=0)
    b_cells = [(3, 4), (3, 5), (3, 6), (4, 4), (4, 5), (4, 6)]
    place_tunnel(st, [(3, 4), (3, 5), (3, 6)], shape=2)
    place_tunnel(st, [(4, 4), (4, 5), (4, 6)], shape=2)
    apply_hall(st, 0, placement(game, "The Trove", b_cells, halls=True))
    st.statue[int(st.hall_altar[halls.index("The Trove")])] = MOON
    # statues: Fire on a Fire pedestal in the yellow tier (20), Ice in the yellow tier (10), Fire on a
    # Fire pedestal in the gray tier (8), each in its own tunnel
    place_tunnel(st, [(5, 4), (6, 4)], shape=0)  # (5, 4) and (6, 4) are yellow
    place_tunnel(st, [(6, 5), (6, 6)], shape=0)
    st.statue[sq(game, 5, 4)] = FIRE
    st.pedestal[sq(game, 5, 4)] = FIRE
    st.statue[sq(game, 6, 6)] = ICE
    place_tunnel(st, [(1, 7), (1, 8)], shape=0)  # (1, 8) is gray
    st.statue[sq(game, 1, 8)] = FIRE
    st.pedestal[sq(game, 1, 8)] = FIRE
    assert [game.geo.tier[sq(game, *x)] for x in ((5, 4), (6, 6), (1, 8))] == [5, 5, 2]
    st.honour[0] = 43
    st.coronation[0] = 3
    st.pedestal_points[0] = 11
    give(st, 0, cart=3, stone=1)
    hold(st, 0, 0, stone=1)
    hold(st, 0, 1, iron=1)
    st.invalidate_caches()
    score = st.score_breakdown(0)
    assert score == {"tunnels": 43, "coronation": 3, "pedestal_tokens": 11, "leftover_sets": 1,
                     "great_halls": 15, "statues": 38, "total": 111}


def test_leftover_resources_example():
    """3 carts and 3 stone make 2 sets; trading 1 rune, 1 hammer and 2 iron for a coin makes a third
    set with the 2 coins."""
    counts = [3, 2, 0, 2, 3, 1, 1]  # stone, iron, heartstone, coin, cart, hammer, rune
    assert eco.best_leftover_sets([3, 0, 0, 0, 3, 0, 0]) == 2
    assert eco.best_leftover_sets(counts) == 3


def test_illegal_dig_explains_itself(game, st):
    give(st, 0, stone=4)
    to_phase(st, "step2_recruit_or_dig")
    far = placement(game, "I-tetromino", [(9, 1), (9, 2), (9, 3), (9, 4)])
    before = st.to_json()
    with pytest.raises(IllegalActionError, match="not adjacent to your network"):
        st.apply(game.layout.index("dig", far))
    assert st.to_json() == before
