"""A refused decision of a kind awaited now says which rule it breaks, in the game's words, per mechanic;
the message keeps the action, the seat and the legal ones, and the state is unchanged. Positions come from
seeded games (a few then set up by hand)."""

from __future__ import annotations

import numpy as np
import pytest

from mk_env.core.errors import IllegalActionError
from mk_env.fall_of_the_mountain_king.rules import Block, Game, Phase
from mk_env.fall_of_the_mountain_king.rules.ancestry import ELDER_CODES
from mk_env.fall_of_the_mountain_king.rules.fields import DISPLAY, REMOVED
from mk_env.fall_of_the_mountain_king.rules.setup import free_pairs

from fall_helpers import at_phase, battle_position, cavern, decide, play, put_trolls


def refusal(st, block, arg=0) -> str:
    """The message refusing ``block``'s ``arg``, after checking it is refused and changes nothing."""
    before = st.to_dict()
    a = st.game.layout.index(block, arg)
    assert not st.is_legal(a)
    with pytest.raises(IllegalActionError) as e:
        st.apply(a)
    assert st.to_dict() == before
    msg = str(e.value)
    assert msg.startswith(f"action {a} ({st.describe_action(a)}) is not legal for seat {st.decider}: ")
    assert "; legal now: " in msg
    return msg


def refused_arg(st, block, words: str) -> int:
    """The first illegal argument of ``block`` whose refusal says ``words``."""
    layout = st.game.layout
    for arg in range(layout.sizes[block]):
        if not st.is_legal(layout.index(block, arg)) and words in refusal(st, block, arg):
            return arg
    raise AssertionError(f"no {block} refusal says {words!r}")


def test_a_draft_placement_must_cover_a_prior_card_and_stay_inside_the_6x6_grid():
    st = at_phase(2, Phase.PLACE_CARD)
    assert "the card must cover at least one cell of a prior card" in refusal(st, Block.PLACE, 0)
    assert "the card must stay inside a 6x6 grid with the rest of your ancestry" in refusal(st, Block.PLACE, 8)


def test_a_draft_placement_takes_a_card_of_the_hand():
    hand = Game(2).pack.rules.hand
    st = Game(2).new_initial_state(0)
    play(st, np.random.default_rng(0),
         until=lambda x: x.phase == Phase.PLACE_CARD and len(x.hands[x.decider]) < hand)
    slot = hand - 1
    msg = refusal(st, Block.PLACE, slot * st.game.cells)
    assert f"your hand has no card in slot {slot} (it holds {hand - 1})" in msg


def test_a_draft_placement_never_covers_an_elder_symbol():
    st = Game(2).new_initial_state(0)
    play(st, np.random.default_rng(0), until=lambda x: x.phase == Phase.PLACE_CARD
         and any(v in ELDER_CODES for v in x.grid[x.decider]))
    assert "the card may never cover an elder symbol (gold glyph)" in refusal(st, Block.PLACE, 31)


def test_a_wild_pair_covers_only_uncovered_wild_symbols():
    st = at_phase(2, Phase.WILD_PAIR)
    assert "that cell shows no wild symbol" in refusal(st, Block.WILD, 0)
    seat, layout = st.decider, st.game.layout
    cell = next(arg for b, arg in map(layout.decode, st.legal_actions().tolist()) if b == Block.WILD)
    st.apply(layout.index(Block.WILD, cell))
    assert st.phase == Phase.WILD_PAIR and st.decider == seat  # the second wild of the pair
    assert "wild symbols are covered in pairs" in refusal(st, Block.DONE)
    assert "that wild symbol is already chosen in this wild pair" in refusal(st, Block.WILD, cell)


def test_a_troll_advance_needs_a_reachable_cavern_never_another_players_lair():
    st = at_phase(2, Phase.ADVANCE_DEST)
    msg = refusal(st, Block.DEST, refused_arg(st, Block.DEST, "none of your trolls can reach"))
    assert "it is not adjacent to a cavern your trolls are in, through caverns established for you" in msg
    other = st.lairs[1 - st.decider][0]
    assert f"{st.game.side.names[other]} is a lair of another player" in refusal(st, Block.DEST, other)


def test_a_troll_moved_in_an_advance_is_yours_and_comes_from_a_source():
    st = at_phase(2, Phase.ADVANCE_TROLL)
    assert "you have no trolls in Moss Gate" in refusal(st, Block.TROLL, cavern(st, "Moss Gate"))
    assert "an Advance moves at least 1 troll: choose one first" in refusal(st, Block.DONE)
    card = next(c for c, o in enumerate(st.champ_owner) if o != st.decider)
    assert "that champion is not yours" in refusal(st, Block.CHAMPION, card)


def test_a_bolster_or_a_champion_pawn_goes_to_a_dominated_cavern():
    st = at_phase(2, Phase.BOLSTER_DEST)
    assert "you have no trolls in Moss Gate: you dominate a cavern where you and only you have trolls" in \
        refusal(st, Block.DEST, cavern(st, "Moss Gate"))
    st = battle_position(2, seed=1)
    gate = cavern(st, "Moss Gate")
    put_trolls(st, 0, gate, 1)
    put_trolls(st, 1, gate, 1)
    decide(st, Phase.BOLSTER_DEST, 0, power=2)
    assert "other players have trolls in Moss Gate too" in refusal(st, Block.DEST, gate)


def test_a_boost_spends_what_you_have_up_to_the_track_limit():
    st = at_phase(2, Phase.BOOST)
    have = st.supply[st.decider] if st.pending["strong"] else st.desperation[st.decider]
    what = "supplies" if st.pending["strong"] else "desperation tokens"
    assert have < st.game.pack.rules.max_boost
    assert f"a boost of {have + 1} spends {have + 1} {what}, and you have {have}" in refusal(st, Block.BOOST, have + 1)


def test_influence_goes_to_a_champion_on_display():
    st = at_phase(2, Phase.INFLUENCE)
    n = len(st.display)
    assert n < st.game.layout.sizes[Block.INFLUENCE]
    assert f"the display has {n} positions" in refusal(st, Block.INFLUENCE, n)
    st.champ_state[st.display[0]] = REMOVED
    st._cache.clear()
    name = st.game.pack.champions[st.display[0]].name
    assert f"champion {name} is not on display any more" in refusal(st, Block.INFLUENCE, 0)
    st.champ_state[st.display[0]] = DISPLAY


def test_the_gnome_action_moves_the_wheel_pawn_up_to_its_power():
    st = at_phase(2, Phase.WHEEL)
    most = st.pending["most"]
    assert f"at most {most} spaces now" in refusal(st, Block.WHEEL, most)


def test_scouting_peeks_at_a_facedown_gate_card_and_a_facedown_gnome_on_the_map():
    st = at_phase(2, Phase.SCOUT_GATE)
    assert f"the invasion deck has {len(st.invasion)} gate cards" in refusal(st, Block.GATE, len(st.invasion))
    st = at_phase(2, Phase.SCOUT_GNOME)
    off = next(g for g, x in enumerate(st.gnome_at) if x < 0)
    assert f"gnome {off} is not on the map" in refusal(st, Block.GNOME, off)


def test_the_grey_troll_space_shoves_trolls_from_one_cavern_into_adjacent_gnome_free_caverns():
    st = at_phase(2, Phase.SHOVE_FROM)
    empty = next(x for x in range(st.game.side.n_caverns) if not st.is_legal(st.game.layout.index(Block.SHOVE_FROM, x))
                 and "there are no trolls" in refusal(st, Block.SHOVE_FROM, x))
    assert f"there are no trolls in {st.game.side.names[empty]}" in refusal(st, Block.SHOVE_FROM, empty)
    st = at_phase(2, Phase.SHOVE)
    src = st.pending["src"]
    far = next(x for x in range(st.game.side.size) if x not in st.game.side.adjacent[src])
    piece = next(q for q in range(st.num_players) if st.trolls[src][q])
    msg = refusal(st, Block.SHOVE, piece * st.game.side.size + far)
    assert f"{st.game.side.names[far]} is not a cavern adjacent to {st.game.side.names[src]}" in msg


def test_a_battle_turn_weak_action_covers_an_unnumbered_symbol_of_its_action():
    st = at_phase(2, Phase.TURN)
    assert "cell r0c0 has no symbol you may use" in refusal(st, Block.WEAK, 0)
    assert "each turn takes 1 or 2 weak actions or 1 strong action" in refusal(st, Block.END_TURN)
    champion = st.game.cells + next(c for c, o in enumerate(st.champ_owner) if o != st.decider)
    name = st.game.pack.champions[champion - st.game.cells].name
    assert f"you do not hold champion {name} with a symbol and a claw left" in refusal(st, Block.WEAK, champion)
    numbered = refused_arg(st, Block.WEAK, "is numbered")
    assert "a weak action covers one unnumbered symbol, and that one is numbered (power " in \
        refusal(st, Block.WEAK, numbered)
    other = refused_arg(st, Block.WEAK, "only wild symbols serve as any action symbol")
    action = other // st.game.layout.symbol_cells
    assert f"not {('advance', 'bolster', 'influence', 'gnome')[action]} (only wild" in refusal(st, Block.WEAK, other)


def test_a_strong_action_does_not_follow_a_weak_one():
    st = at_phase(2, Phase.TURN)
    weak = next(int(a) for a in st.legal_actions() if st.game.layout.decode(int(a))[0] == Block.WEAK)
    st.apply(weak)
    play(st, np.random.default_rng(0), until=lambda x: x.phase == Phase.TURN)
    assert st.pending.get("weak")
    assert "a strong action cannot follow a weak action in the same turn" in refusal(st, Block.STRONG, 0)


def test_a_strong_action_gathers_connected_symbols_and_one_unnumbered_symbol_is_not_enough():
    st = at_phase(2, Phase.GATHER)
    assert "cell r0c0 has no symbol you may use" in refusal(st, Block.ADD, 0)
    seat, cell = st.decider, st.pending["cells"][0]
    decide(st, Phase.GATHER, seat, action=st.pending["action"], cells=[cell], power=1, numbered=0)
    assert "a strong action covers 1 strong (numbered) symbol or more than 1 connected symbols" in \
        refusal(st, Block.DONE)


def test_a_falling_troll_is_one_of_yours_in_the_cavern():
    st = at_phase(2, Phase.FALL)
    where = st.game.side.names[st.pending["loc"]]
    msg = refusal(st, Block.FALL, refused_arg(st, Block.FALL, "champion"))
    assert "that champion is not yours" in msg or f"that champion's pawn is not in {where}" in msg


def test_setup_lairs_go_on_a_free_pair_and_their_trolls_into_adjacent_gnome_free_caverns():
    st = Game(2).new_initial_state(0)
    pairs = len(st.game.side.lair_pairs)
    play(st, np.random.default_rng(0), until=lambda x: x.phase == Phase.LAIR_PAIR and len(free_pairs(x)) < pairs)
    taken = next(i for i in range(pairs) if i not in free_pairs(st))
    assert f"lair pair {taken} is taken" in refusal(st, Block.LAIR_PAIR, taken)
    st = at_phase(2, Phase.LAIR_TROLL)
    lair = st.lairs[st.decider][st.pending["lair"]]
    far = next(x for x in range(st.game.side.size) if x not in st.game.side.adjacent[lair])
    assert f"is not a cavern adjacent to your lair {st.game.side.names[lair]}" in refusal(st, Block.LAIR_TROLL, far)


def test_a_kind_not_awaited_keeps_the_generic_refusal():
    st = Game(2).new_initial_state(3)
    assert "a swarm decision is not awaited in the keep_champion phase" in refusal(st, Block.SWARM, 1)
