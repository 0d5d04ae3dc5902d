"""Setup: the chance part by player count, then the players' decisions (champion kept, lairs, first
trolls, the champion pawn)."""

import numpy as np
import pytest
from fall_helpers import act, only, play

from mk_env.fall_of_the_mountain_king.rules import Block, Game, Phase
from mk_env.fall_of_the_mountain_king.rules.fields import DEALT, DISPLAY, HELD, REMOVED


@pytest.mark.parametrize("n, gnomes, gates, display", [(2, 3, 3, 3), (3, 4, 3, 4), (4, 5, 4, 5), (5, 6, 5, 6)])
def test_setup_gnomes_at_gates_facedown_gate_cards_and_the_champion_display_by_player_count(n, gnomes, gates, display):
    """"For 2/3/4/5 players, reveal 3/4/5/6 cards. Put a random gnome in a random gate cavern of each card's
    domain"; "deal 3/3/4/5 cards facedown"; "deal 3/4/5/6 face-up by the board" from the I/II deck."""
    st = Game(n).new_initial_state(11)
    side = st.game.side
    on_map = [x for x in st.gnome_at if x >= 0]
    assert len(on_map) == gnomes and len(set(side.clan_of[x] for x in on_map)) == gnomes
    assert st.swarm not in {side.clan_of[x] for x in on_map}  # "Reveal another gate card" for the swarm
    assert all(x in side.gates[side.clan_of[x]] for x in on_map)
    assert len(st.invasion) == gates and sorted(st.invasion + st.gates_aside) == list(range(7))
    assert st.known_gates == [[] for _ in range(n)] and st.revealed == 0
    assert len(st.display) == display and all(st.game.pack.champions[c].deck == 1 for c in st.display)
    assert all(st.champ_state[c] == DISPLAY for c in st.display)
    assert all(len(d) == 2 and all(st.game.pack.champions[c].deck == 0 and st.champ_state[c] == DEALT for c in d)
               for d in st.dealt)


def test_setup_great_hall_tokens_vote_tiles_wheel_boost_and_starting_cards():
    st = Game(4).new_initial_state(3)
    pack = st.game.pack
    assert len(st.hall_value) == len(st.game.side.halls) and all(v in pack.hall_tokens for v in st.hall_value)
    assert sorted(st.vote_tiles) == list(range(7))
    assert st.wheel == 0 and st.boost == [0] * 4 and st.honor == [0] * 4
    starts = [tuple(g[st.game.start_anchor:st.game.start_anchor + 3]) for g in st.grid]
    assert len(set(starts)) == 4  # each player a different starting card


def test_keeping_a_champion_removes_the_other_and_puts_its_votes_on_the_clan_board():
    """"Each player chooses 1 to keep face-up. Remove rest from game": asked clockwise from the start player,
    the kept champions are turned face up together once both have chosen."""
    st = Game(2).new_initial_state(5)
    first = st.start_player
    assert st.decider == first  # clockwise from the start player, so vote stacks favour no fixed seat
    keep, other = st.dealt[first]
    act(st, Block.KEEP, 0)
    assert st.decider == 1 - first and st.phase == Phase.KEEP_CHAMPION
    assert st.champ_state[keep] == DEALT and st.dealt[first] == [keep, other]  # hidden until both have chosen
    act(st, Block.KEEP, 1)
    ch = st.game.pack.champions[keep]
    assert st.champ_state[keep] == HELD and st.champ_owner[keep] == first
    assert st.champ_state[other] == REMOVED and st.champ_owner[other] == -1
    assert st.votes[ch.clan][first] == ch.votes
    assert st.phase == Phase.LAIR_PAIR


def test_lairs_three_trolls_each_and_a_troll_in_a_gnome_free_cavern_by_each_and_the_pawn_with_one():
    """"Puts 3 trolls on each of their lairs and 1 troll in a gnome-free cavern adjacent to each lair (8
    total)"; "If the player has a champion pawn, they add it to one of the latter two"."""
    st = Game(3).new_initial_state(8)
    for _ in range(3):
        act(st, Block.KEEP, 1)
    first = st.start_player
    assert st.phase == Phase.LAIR_PAIR and st.decider == first
    pair = only(st, Block.LAIR_PAIR)[0]
    act(st, Block.LAIR_PAIR, pair)
    a, b = st.game.side.lair_pairs[pair]
    assert st.lairs[first] == [a, b] and st.trolls[a][first] == 3 and st.trolls[b][first] == 3
    spots = only(st, Block.LAIR_TROLL)
    assert spots and all(x in st.game.side.adjacent[a] and x not in st.gnome_at for x in spots)
    act(st, Block.LAIR_TROLL, spots[0])
    act(st, Block.LAIR_TROLL, only(st, Block.LAIR_TROLL)[-1])
    assert st.phase == Phase.PAWN_SETUP
    card = st.pending["card"]
    act(st, Block.PAWN_SETUP, 0)
    assert st.champ_loc[card] == spots[0]
    assert sum(st.trolls[x][first] for x in range(st.game.side.size)) == 8 and st.troll_supply[first] == 17
    nxt = (first + 1) % 3
    assert st.decider == nxt and pair not in only(st, Block.LAIR_PAIR)


def test_the_game_starts_wave_one_with_the_draft_after_setup():
    st = Game(2).new_initial_state(1)
    play(st, np.random.default_rng(1), until=lambda s: s.phase == Phase.PLACE_CARD)
    assert st.wave == 1 and all(len(h) == 4 for h in st.hands) and st.decider == st.start_player


def test_a_gnomes_id_tells_nothing_of_its_strength():
    """The strengths are dealt to the gnome ids at random at setup, so the ids on the map (the arguments of
    scouting, the transcripts) reveal nothing."""
    a, b = Game(2).new_initial_state(1), Game(2).new_initial_state(2)
    assert sorted(a.strength) == [1] * 10 + [2] * 10 + [3] * 10 and a.strength != b.strength
