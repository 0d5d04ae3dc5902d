"""Simultaneous decisions (the champion kept, the draft's placements, the wild pairs): asked one seat at a time
clockwise from the start player, each choice hidden from the others until every seat has chosen, then carried
out together. A later seat's observation, determinized copies and the rendered table are the same whichever
choice an earlier seat made; saves and clones keep the hidden choices."""

from __future__ import annotations

import json

import numpy as np
import pytest
from fall_helpers import act, at_phase, only, play

from mk_env.core.errors import StateError
from mk_env.fall_of_the_mountain_king.env.observation import FallObserver
from mk_env.fall_of_the_mountain_king.env.render import render_ansi
from mk_env.fall_of_the_mountain_king.rules import Block, Game, Phase
from mk_env.fall_of_the_mountain_king.rules.ancestry import can_cover_wild, desperation
from mk_env.fall_of_the_mountain_king.rules.fields import DEALT, HELD, REMOVED
from mk_env.fall_of_the_mountain_king.rules.invariants import check
from mk_env.fall_of_the_mountain_king.rules.knowledge import markers
from mk_env.fall_of_the_mountain_king.rules.simultaneous import SIMULTANEOUS, chosen, revealed


def later(st, seat):
    """The seat after ``seat`` clockwise."""
    return (seat + 1) % st.num_players


def wild_pick(n, seed=0, tries=60):
    """A random game stopped at the start player's wild pairs (three wilds or more to choose from), with a later
    seat to choose after it."""
    def ready(x):
        return (x.phase == Phase.WILD_PAIR and x.decider == x.start_player and x.pending["covered"] == 0
                and len(only(x, Block.WILD)) > 2 and can_cover_wild(x, later(x, x.decider), 0))

    for s in range(seed, seed + tries):
        st = Game(n).new_initial_state(s)
        play(st, np.random.default_rng(s), until=ready)
        if ready(st):
            return st
    raise AssertionError("no game's wild pairs had two seats to ask")


def cover_a_pair(st):
    """The seat deciding covers its first two wilds, then stops (if it may go on)."""
    seat = st.decider
    for _ in range(2):
        act(st, Block.WILD, only(st, Block.WILD)[0])
    if st.decider == seat and st.phase == Phase.WILD_PAIR:
        act(st, Block.DONE)


def assert_blind(a, b, earlier):
    """Every seat but ``earlier`` sees the same in ``a`` and ``b``: every array of its observation, the mask,
    its determinized copies; and the table renders the same."""
    ob = FallObserver(a.game)
    assert a.current_player() == b.current_player() != earlier
    for p in range(a.num_players):
        if p == earlier:
            continue
        x, y = ob.encode(a, p), ob.encode(b, p)
        assert [k for k in x if not np.array_equal(x[k], y[k])] == [], p
        for seed in range(3):
            da, db = a.determinize(p, np.random.default_rng(seed)), b.determinize(p, np.random.default_rng(seed))
            assert da.to_dict() == db.to_dict(), p
    assert np.array_equal(a.legal_mask(), b.legal_mask())
    assert render_ansi(a) == render_ansi(b)


@pytest.mark.parametrize("n", [2, 3, 5])
def test_the_champion_kept_is_hidden_from_the_later_players_until_all_have_chosen(n):
    """"From the 0 deck, deal each player 2 facedown. Each player chooses 1 to keep face-up": a later player
    sees nothing of an earlier player's choice."""
    st = Game(n).new_initial_state(30 + n)
    first = st.decider
    assert first == st.start_player and st.phase == Phase.KEEP_CHAMPION
    a, b = st.clone(), st.clone()
    act(a, Block.KEEP, 0)
    act(b, Block.KEEP, 1)
    assert a.committed[first] == [0] and b.committed[first] == [1]
    assert all(a.champ_state[c] == DEALT for c in a.dealt[first]) and a.votes == st.votes
    assert_blind(a, b, first)


@pytest.mark.parametrize("n", [2, 3, 4])
def test_a_card_added_in_the_draft_is_hidden_from_the_later_players_until_all_have_added(n):
    """"Three times, each player: Adds one card to their ancestry ... Passes the remaining cards": the cards
    chosen in a pick are added together, so a later player sees nothing of an earlier player's card."""
    st = at_phase(n, Phase.PLACE_CARD, seed=n)
    first = st.decider
    options = only(st, Block.PLACE)
    cells = st.game.cells
    other = next(x for x in options if x // cells != options[0] // cells)  # another card of the hand
    a, b = st.clone(), st.clone()
    act(a, Block.PLACE, options[0])
    act(b, Block.PLACE, other)
    assert a.grid == st.grid and a.hands == st.hands and a.placed == st.placed
    assert_blind(a, b, first)


@pytest.mark.parametrize("n", [2, 3, 5])
def test_the_wild_pairs_covered_are_hidden_from_the_later_players_until_all_have_chosen(n):
    """"For each 2 wild symbols the player covers with ancestry markers, they increase their supply by 1 (up
    to 8)": a later player sees neither which wilds an earlier player covered nor how many."""
    st = wild_pick(n)
    first = st.decider
    a, b = st.clone(), st.clone()
    cover_a_pair(a)
    act(b, Block.DONE)
    assert len(a.committed[first]) >= 2 and a.covered == st.covered and a.supply == st.supply
    assert_blind(a, b, first)
    c = st.clone()  # the same number of wilds, other ones
    act(c, Block.WILD, only(c, Block.WILD)[-1])
    act(c, Block.WILD, only(c, Block.WILD)[0])
    if c.decider == first:
        act(c, Block.DONE)
    assert sorted(c.committed[first]) != sorted(a.committed[first])
    assert_blind(a, c, first)


def test_a_player_sees_the_wilds_it_has_chosen_on_its_own_grid_only():
    """The wilds a player has chosen to cover show as markers in its own observation (it may go on covering)."""
    st = wild_pick(3)
    me, cell = st.decider, only(st, Block.WILD)[0]
    act(st, Block.WILD, cell)
    assert st.decider == me and st.covered[me][cell] == 0
    assert markers(st, me, me)[cell] == 1 and markers(st, later(st, me), me)[cell] == 0
    ob = FallObserver(st.game)
    assert ob.encode(st, me)["ancestry"][0, cell, -1] == 1.0
    assert cell not in only(st, Block.WILD)


def test_every_choice_is_carried_out_when_the_last_player_has_chosen():
    """"Each player chooses 1 to keep face-up. Remove rest from game"; each player "Adds one card to their
    ancestry"; "For each 2 wild symbols the player covers ..., they increase their supply by 1" and "Give each
    player 1 desperation token for each desperation symbol to the right of their supply counter": once the last
    player has chosen, every choice is carried out as it was made."""
    st = Game(3).new_initial_state(8)
    dealt = [d[:] for d in st.dealt]
    for _ in range(3):
        act(st, Block.KEEP, 1)
    assert st.phase == Phase.LAIR_PAIR and st.committed == [[], [], []]
    for p in range(3):
        kept, gone = dealt[p][1], dealt[p][0]
        ch = st.game.pack.champions[kept]
        assert st.champ_state[kept] == HELD and st.champ_owner[kept] == p and st.champ_state[gone] == REMOVED
        assert st.votes[ch.clan][p] >= ch.votes

    st = at_phase(3, Phase.PLACE_CARD, seed=2)
    grids, choice = [g[:] for g in st.grid], {}
    while len(choice) < 3:
        choice[st.decider] = (only(st, Block.PLACE)[-1], st.hands[st.decider][:])
        act(st, Block.PLACE, choice[st.decider][0])
    for p, (arg, hand) in choice.items():
        slot, anchor = divmod(arg, st.game.cells)
        assert st.placed[p][-2:] == [hand[slot], anchor] and st.grid[p] != grids[p]
        assert all(hand[slot] not in h for h in st.hands)

    st = wild_pick(3)
    supply, markers_before, pairs = st.supply[:], [m[:] for m in st.covered], {}
    while st.phase == Phase.WILD_PAIR:
        pairs[st.decider] = only(st, Block.WILD)[:2]
        cover_a_pair(st)
    assert st.phase == Phase.TURN and st.committed == [[], [], []]
    for p in range(3):
        cells = pairs.get(p, [])
        assert [i for i, m in enumerate(st.covered[p]) if m != markers_before[p][i]] == sorted(cells)
        spent = int(p == st.turn_player)  # the battle's first turn has spent its supply
        assert st.supply[p] + spent == supply[p] + len(cells) // 2
        tokens = st.clone()
        tokens.supply[p] += spent
        desperation(tokens, p)
        assert st.desperation[p] == tokens.desperation[p]  # counted from the supply after the pairs


def test_a_save_and_a_clone_in_the_middle_of_a_decision_keep_the_hidden_choices():
    """"Each player chooses 1 to keep face-up", "each player: Adds one card", the wild pairs: a save (and a
    clone) between two players' choices keeps what the first chose, and the game goes on alike."""
    for st in (Game(3).new_initial_state(4), at_phase(3, Phase.PLACE_CARD, seed=5), wild_pick(3)):
        first = st.decider
        if st.phase == Phase.WILD_PAIR:
            cover_a_pair(st)
        else:
            st.apply(int(st.legal_actions()[-1]))
        assert st.committed[first] and st.phase in SIMULTANEOUS and chosen(st) == [first]
        back = st.game.state_from_json(st.to_json())
        copy = st.clone()
        assert back == st == copy and back.committed == st.committed == copy.committed
        for x in (back, copy, st):
            play(x, np.random.default_rng(7))
        assert back == st == copy and st.is_terminal()


def test_determinize_draws_the_other_players_choices_and_keeps_ones_own():
    """"For each 2 wild symbols the player covers with ancestry markers, they increase their supply by 1": a
    search sees the others' hidden wilds (which and how many) drawn among those they could cover, never the true
    ones; its own kept."""
    st = wild_pick(3)
    first = st.decider
    cover_a_pair(st)
    me = st.decider
    act(st, Block.WILD, only(st, Block.WILD)[0])  # my first wild: I know it, the first player does not
    mine = st.committed[me][:]
    drawn = set()
    for seed in range(12):
        d = st.determinize(me, np.random.default_rng(seed))
        check(d)
        assert d.committed[me] == mine
        drawn.add(tuple(d.committed[first]))
        theirs = st.determinize(first, np.random.default_rng(seed))
        check(theirs)
        assert theirs.committed[first] == st.committed[first] and len(theirs.committed[me]) == len(mine)
    assert len(drawn) > 1 and any(len(x) != len(st.committed[first]) for x in drawn)


def test_a_valuation_sees_the_choices_made_so_far_carried_out():
    """"Each player chooses 1 to keep face-up": :func:`revealed` is a copy with the choices made so far carried
    out now (the heuristic values a choice so); the state itself is untouched."""
    st = Game(2).new_initial_state(5)
    first = st.decider
    card = st.dealt[first][1]
    act(st, Block.KEEP, 1)
    seen = revealed(st)
    assert seen is not st and seen.champ_state[card] == HELD and st.champ_state[card] == DEALT
    clan = st.game.pack.champions[card].clan
    assert seen.votes[clan][first] > st.votes[clan][first]
    battle = at_phase(2, Phase.TURN)
    assert revealed(battle) is battle  # nothing committed: the state itself


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_random_games_keep_the_invariants_and_determinize_hides_the_choices_to_the_end(n):
    """The champion kept ("Each player chooses 1 to keep face-up"), the cards added ("Three times, each player:
    Adds one card") and the wild pairs in random games to the end: the invariants after every decision
    (committed choices only inside such a decision, each one its seat could make), and every determinization
    inside one consistent."""
    rng = np.random.default_rng(n)
    inside = 0

    def after(s):
        nonlocal inside
        check(s)
        if s.phase not in SIMULTANEOUS:
            assert s.committed == [[] for _ in range(n)]
        elif chosen(s):
            inside += 1
            for p in range(n):
                check(s.determinize(p, rng))

    st = Game(n).new_initial_state(40 + n)
    play(st, np.random.default_rng(40 + n), each=after)
    assert st.is_terminal() and inside > 0


@pytest.mark.parametrize("seat, value, message", [
    ("later", [0], "has not chosen yet"), ("first", [2], "0 or 1"), ("first", [], "0 or 1"),
])
def test_a_save_with_an_impossible_committed_choice_is_refused(seat, value, message):
    """"Each player chooses 1 to keep face-up": a save whose first player kept a third card, kept none, or whose
    player still to choose has already chosen, is refused naming the fault."""
    st = Game(3).new_initial_state(1)
    first = st.decider
    act(st, Block.KEEP, 0)
    data = json.loads(st.to_json())
    data["committed"][first if seat == "first" else later(st, st.decider)] = value
    with pytest.raises(StateError, match=message):
        st.game.state_from_json(data)


def test_a_save_with_a_choice_committed_in_the_battle_is_refused():
    """"The Battle" is no simultaneous decision: a save holding a committed choice there is refused."""
    battle = at_phase(3, Phase.TURN)
    data = json.loads(battle.to_json())
    data["committed"][0] = [3]
    with pytest.raises(StateError, match="outside a simultaneous decision"):
        battle.game.state_from_json(data)
