"""Two points where v0 strayed from the rule text (issue 52): the Chalice of Teleportation's destinations
(entrances included) and the drawn Treasure that "may" be put into play (declining it)."""

import dataclasses

import numpy as np
import pytest
from cave_troll_helpers import act, action, give, last_counter, lay, legal_args, names, on_top, position, put, where

from mk_env.cave_troll.env.observation import CaveTrollObserver
from mk_env.cave_troll.env.render import render_ansi, render_rgb
from mk_env.cave_troll.env.replay import CAVE_TROLL_VIEW
from mk_env.cave_troll.rules import Artifact, Block, Game, IllegalActionError, Kind, Phase
from mk_env.cave_troll.rules.invariants import check
from mk_env.cave_troll.rules.vocabulary import DISCARDED, HAND, PILE
from mk_env.core.env.replay_page import build_html
from mk_env.records import final_state, record_from_state

ROOMS_AND_ENTRANCES = 37  # 33 rooms and 4 entrances: every location but the pit


# -- Chalice of Teleportation ---------------------------------------------------------------------------
def chalice_from(st, origin: str) -> None:
    """Seat 0 plays the Chalice on its Explorer in ``origin`` (the one traveller)."""
    give(st, 0, Artifact.CHALICE_OF_TELEPORTATION)
    put(st, 0, Kind.EXPLORER, origin)
    act(st, Block.CHALICE, origin)
    assert st.phase == Phase.TELEPORT


def test_the_chalice_refuses_a_room_or_entrance_with_a_cave_troll_or_an_opponents_knight():
    """"Move each of your adventurers in this room or entrance to any other room or entrance not occupied
    by a Cave Troll or an opponent's Knight": an opponent's Knight in an entrance forbids it too."""
    st = position(n=3)
    lay(st, (1, Kind.CAVE_TROLL, "R22"), (1, Kind.KNIGHT, "R24"), (2, Kind.KNIGHT, "north-east entrance"))
    chalice_from(st, "R11")
    dests = names(st, legal_args(st, Block.TELEPORT))
    assert {"R22", "R24", "north-east entrance", "R11", "the pit"}.isdisjoint(dests)
    assert len(dests) == ROOMS_AND_ENTRANCES - 4 and "north-west entrance" in dests
    with pytest.raises(IllegalActionError, match="breaks a rule of the teleport phase"):
        st.apply(action(st, Block.TELEPORT, "north-east entrance"))
    assert st.phase == Phase.TELEPORT


@pytest.mark.parametrize("place", ["R07", "south-west entrance"])
def test_the_chalice_accepts_a_room_or_entrance_with_your_own_knight(place):
    """"Not occupied by a Cave Troll or an *opponent's* Knight": your own Knight blocks nothing."""
    st = position(n=2)
    knight = put(st, 0, Kind.KNIGHT, place)
    explorer = put(st, 0, Kind.EXPLORER, "R11")
    give(st, 0, Artifact.CHALICE_OF_TELEPORTATION)
    act(st, Block.CHALICE, "R11")
    assert place in names(st, legal_args(st, Block.TELEPORT))
    act(st, Block.TELEPORT, place)
    assert st.phase == Phase.ACTION and st.loc[explorer] == st.loc[knight] == where(st, place)


# -- Treasure -------------------------------------------------------------------------------------------
def drawn_treasure(st, seat: int = 0) -> int:
    """``seat`` draws its Treasure: the PLACE decision awaits; the Treasure's id."""
    treasure = on_top(st, seat, Kind.TREASURE)
    act(st, Block.DRAW)
    assert st.phase == Phase.PLACE and st.loc[treasure] == HAND
    return treasure


def test_a_drawn_treasure_may_be_put_into_play_in_any_room_but_not_an_entrance_nor_the_pit():
    """"If you draw a "Treasure" counter, you may put it into play in any room (but not an entrance or the
    pit)": every room is offered (none holds a Cave Troll or the Idol here), and declining too."""
    st = position(n=2)
    treasure = drawn_treasure(st)
    rooms = names(st, legal_args(st, Block.PLACE))
    assert rooms == list(st.game.pack.lair.names[:st.game.pack.lair.n_rooms])
    assert legal_args(st, Block.DECLINE) == [0]
    act(st, Block.PLACE, "R07")
    assert st.loc[treasure] == where(st, "R07") and st.phase == Phase.ACTION and st.actions_left == 3


def test_a_declined_treasure_is_out_of_the_game_and_the_draw_spent_the_action():
    """"You *may* put it into play": declining discards it from the game (as the other event counters);
    the draw was the action, and the turn goes on with the next one."""
    st = position(n=2)
    pile = len(st.piles[0])
    treasure = drawn_treasure(st)
    assert st.describe_action(action(st, Block.DECLINE)).startswith("decline (no Treasure")
    act(st, Block.DECLINE)
    assert st.loc[treasure] == DISCARDED and treasure not in st.piles[0] and len(st.piles[0]) == pile - 1
    assert (st.phase, st.turn_player, st.current, st.actions_left) == (Phase.ACTION, 0, 0, 3)
    explorer = on_top(st, 0, Kind.EXPLORER)
    act(st, Block.DRAW)
    act(st, Block.PLACE, "north-west entrance")
    assert st.loc[explorer] == where(st, "north-west entrance") and st.actions_left == 2
    assert st.score_breakdown(0)["treasure"] == 0


def test_declining_a_treasure_with_the_last_action_passes_the_turn():
    """"You have four actions": the draw was the last one, so declining ends the turn."""
    st = position(n=2, actions=1)
    drawn_treasure(st)
    act(st, Block.DECLINE)
    assert (st.phase, st.turn_player, st.actions_left) == (Phase.ACTION, 1, 4)


def test_declining_the_last_counter_ends_the_game_with_the_bonus():
    """"When one player draws and plays his *last* counter, the game ends immediately ... the player who
    ended the game ... receives a 3-gold bonus": declining the last counter is its play."""
    st = position(n=2)
    put(st, 1, Kind.EXPLORER, "R07")  # 3 gold to seat 1
    last_counter(st, 0, Kind.TREASURE)
    act(st, Block.DRAW)
    assert st.phase == Phase.PLACE and not st.is_terminal()
    act(st, Block.DECLINE)
    assert st.is_terminal() and st.ender == 0 and st.score == [3, 3]


def test_only_a_treasure_may_be_declined():
    """"When you draw an adventurer counter, you *must* put it into play in one of the four entrances": no
    decline, and the refusal says why and what is allowed."""
    st = position(n=2)
    on_top(st, 0, Kind.KNIGHT)
    act(st, Block.DRAW)
    assert Block.DECLINE not in {st.game.layout.decode(int(a))[0] for a in st.legal_actions()}
    with pytest.raises(IllegalActionError, match="no decline decision is possible now.*legal now: place: 4"):
        st.apply(action(st, Block.DECLINE))


def test_declining_is_never_offered_in_the_action_phase():
    """Declining answers a drawn Treasure only: in the action phase it is "not awaited"."""
    st = position(n=2)
    with pytest.raises(IllegalActionError, match="a decline decision is not awaited in the action phase"):
        st.apply(action(st, Block.DECLINE))


def test_the_treasure_decision_survives_clone_save_and_determinize():
    """The awaited Treasure (in hand, face up) is kept by a clone, a save and a determinized copy; each
    declines it to the same state."""
    st = position(n=2)
    treasure = drawn_treasure(st)
    copies = [st.clone(), st.game.state_from_json(st.to_json()), st.determinize(1, np.random.default_rng(3))]
    for c in copies:
        assert c.phase == Phase.PLACE and c.loc[treasure] == HAND and c.is_legal(action(c, Block.DECLINE))
    for s in [st, *copies]:
        s.apply(action(s, Block.DECLINE))
        check(s)
    assert copies[0].to_json() == st.to_json() == copies[1].to_json()
    assert copies[2].loc == st.loc  # determinize reorders piles, never moves a counter
    again = st.game.state_from_json(st.to_json())
    assert again.loc[treasure] == DISCARDED and again == st


def test_the_observation_shows_the_treasure_awaiting_its_place_and_the_mask_allows_declining():
    """The awaited decision is the place phase with a Treasure (face up): the mask has the decline."""
    st = position(n=2)
    drawn_treasure(st)
    ob = CaveTrollObserver(st.game)
    pending, col = ob.encode(st, 0)["pending"], ob.col["pending"]
    assert pending[col["phase_place"]] == 1 and pending[col["counter_treasure"]] == 1
    assert pending[col["counter_of_me"]] == 1 and st.legal_mask()[action(st, Block.DECLINE)] == 1
    assert ob.encode(st, 1)["pending"][col["counter_of_+1"]] == 1


def test_the_renderers_and_the_replay_show_a_declined_treasure():
    """A game whose players decline every Treasure renders, records and replays to the same end."""
    st = Game(2).new_initial_state(5)
    rng, decline, actions = np.random.default_rng(5), action(st, Block.DECLINE), []
    declined = 0
    while not st.is_terminal():
        legal = st.legal_actions()
        a = decline if st.phase == Phase.PLACE and decline in legal else int(rng.choice(legal))
        if a == decline and st.phase == Phase.PLACE:
            declined += 1
            assert "place decision of seat" in render_ansi(st)
        st.apply(a)
        actions.append(a)
    assert declined >= 1 and all(st.loc[c] in (DISCARDED, PILE) for c, k in enumerate(st.game.kind_of)
                                 if k == Kind.TREASURE)
    assert render_rgb(st).ndim == 3 and "game over" in render_ansi(st)
    record = record_from_state(st, 5, actions=actions)
    assert final_state(record).to_json() == st.to_json()
    assert "Cave Troll" in build_html(dataclasses.replace(record, actions=actions[:40], final_scores=None),
                                      view=CAVE_TROLL_VIEW)
