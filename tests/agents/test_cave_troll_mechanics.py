"""The Cave Troll heuristic plays every artifact where it pays (issue 52, item 5): each valuation piece that
shows an artifact's worth (the Orcs' threats the Sword of Slaying removes, the cloaked adventurer's move, a
Cave Troll's room that a cloaked adventurer cannot keep), the look one action further only where the turn
has that action, a drawn Treasure placed rather than declined, and all six artifacts played in self-play."""

from __future__ import annotations

from collections import Counter

import pytest
from cave_troll.cave_troll_helpers import action, cloaked_in_troll_room, give, on_top, position, put

import agents.cave_troll_heuristic as CTH
from mk_env.cave_troll.rules import Artifact, Block, Game, Kind
from mk_env.cave_troll.rules.artifacts import POWERS
from mk_env.cave_troll.rules.board import occupancy
from mk_env.cave_troll.rules.vocabulary import DISCARDED
from training.play import run_game

#: 3-player self-play seeds that together play all six artifacts (the Sword first in seed 16)
SELF_PLAY_SEEDS = (7, 12, 16)
#: the weight of control in a fresh 2-player position: the final scoring and half of each of the two
#: "Count the Loot!" still in the piles
WEIGHT = 1 + CTH.LOOT_WEIGHT * 2


def test_every_artifact_is_played_in_self_play() -> None:
    """Three 3-player heuristic games play the Helm, the Chalice, the Idol, the Wand, the Cloak and the Sword
    (before issue 52 the Cloak was played in 1 and the Sword in none of 100 games)."""
    played: Counter = Counter()
    game = Game(3)
    for seed in SELF_PLAY_SEEDS:
        actions: list[int] = []
        run_game(["heuristic"] * 3, seed, game=game, actions=actions)
        played.update(game.layout.decode(a)[0] for a in actions)
    assert {power.block for power in POWERS.values()} - set(played) == set()


def test_an_orc_beside_a_lone_adventurer_threatens_half_of_its_kill() -> None:
    """The victim's owner stands to lose the adventurer in play and the control of its room (for each
    scoring to come); the Orc's owner gains nothing when the room then goes to nobody."""
    st = position(n=2)
    put(st, 0, Kind.EXPLORER, "R12")  # R12: 4 gold
    put(st, 1, Kind.ORC, "R12")
    threat = CTH.ORC_THREAT * (CTH.ADVENTURER_VALUE + WEIGHT * 4)
    assert CTH.orc_threats(st, occupancy(st), WEIGHT) == pytest.approx([-threat, 0.0])


def test_an_orc_kill_that_breaks_a_tie_gives_its_owner_the_room() -> None:
    st = position(n=2)
    put(st, 0, Kind.EXPLORER, "R12")
    put(st, 1, Kind.EXPLORER, "R12")
    put(st, 1, Kind.ORC, "R12")
    expected = [-CTH.ORC_THREAT * CTH.ADVENTURER_VALUE, CTH.ORC_THREAT * WEIGHT * 4]
    assert CTH.orc_threats(st, occupancy(st), WEIGHT) == pytest.approx(expected)


def test_the_sword_of_slaying_is_worth_the_threat_it_removes() -> None:
    """An opponent's Orc beside the seat's lone Explorer in R12 with a Treasure: the Sword gives up its 3
    gold, removes half of the kill (the Explorer and 8 gold a scoring) and the Orc itself; the heuristic
    plays it rather than walk away from the room."""
    st = position(n=2)
    put(st, 0, Kind.EXPLORER, "R12")
    put(st, 0, Kind.TREASURE, "R12")
    put(st, 1, Kind.ORC, "R12")
    give(st, 0, Artifact.SWORD_OF_SLAYING)
    sword = action(st, Block.SWORD, "R12")
    gain = -3 + CTH.ORC_THREAT * (CTH.ADVENTURER_VALUE + WEIGHT * (4 + 4)) + CTH.MONSTER_VALUE
    assert CTH._value_after(st, 0, sword, 0) - CTH.evaluate(st, 0) == pytest.approx(gain)
    assert CTH.best_action(st, 0) == sword


def test_a_cloaked_adventurer_in_a_cave_trolls_room_counts_for_nothing() -> None:
    """It is discarded at the end of the turn unless it leaves: no control, no counter in play."""
    st = position(n=2)
    explorer = cloaked_in_troll_room(st)
    before = CTH.projected(st)
    st.loc[explorer] = DISCARDED
    st.invalidate_caches()
    assert CTH.projected(st) == pytest.approx(before)


def _knight_holds_a_treasure() -> tuple[object, int]:
    """Seat 1's lone Knight holds R12 with a Treasure (8 gold a scoring); seat 0 has the Cloak and an
    Explorer two rooms away in R06. The Cloak's action."""
    st = position(n=2)
    give(st, 0, Artifact.CLOAK_OF_INVISIBILITY)
    explorer = put(st, 0, Kind.EXPLORER, "R06")  # R06: 2 gold
    put(st, 1, Kind.KNIGHT, "R12")
    put(st, 1, Kind.TREASURE, "R12")
    return st, action(st, Block.CLOAK, st.game.slot_of[explorer])


def test_the_cloak_is_valued_by_its_adventurers_move_into_a_knights_room() -> None:
    """Cloaked, the Explorer reaches R12 in one action and ties the Knight: seat 1 loses 8 gold a scoring,
    seat 0 leaves R06 (2) and gives up the Cloak's 2 gold; the heuristic plays the Cloak."""
    st, cloak = _knight_holds_a_treasure()
    cands = CTH.candidates(st, 0)
    value = CTH.lookahead_values(st, 0, cands)[cands.index(cloak)]
    assert value - CTH.evaluate(st, 0) == pytest.approx(-2 + WEIGHT * (4 + 4) - WEIGHT * 2)
    assert CTH.best_action(st, 0) == cloak


def test_the_cloak_is_worth_only_its_lost_gold_when_the_last_draw_is_next() -> None:
    """With two actions left, the Cloak would leave only the turn's last draw: no move to make with it."""
    st, cloak = _knight_holds_a_treasure()
    st.actions_left = 2
    cands = CTH.candidates(st, 0)
    value = CTH.lookahead_values(st, 0, cands)[cands.index(cloak)]
    assert value - CTH.evaluate(st, 0) == pytest.approx(-2)
    assert CTH.best_action(st, 0) != cloak


def test_no_look_further_at_an_action_the_turn_cannot_take() -> None:
    """One action left means the last draw: nothing follows in this turn; with two, every candidate but it."""
    st = position(n=2)
    put(st, 0, Kind.EXPLORER, "R06")
    draw = st.game.layout.offset[Block.DRAW]
    st.actions_left = 1
    assert CTH.follow_ups(st, 0) == []
    st.actions_left = 2
    assert CTH.follow_ups(st, 0) == [a for a in CTH.candidates(st, 0) if a != draw] != []


def test_a_drawn_treasure_goes_into_a_room_of_its_player_not_out_of_the_game() -> None:
    """Declining is a candidate (the rule allows it) but worth less than the seat's own room."""
    st = position(n=2)
    put(st, 0, Kind.EXPLORER, "R12")
    on_top(st, 0, Kind.TREASURE)
    st.apply(action(st, Block.DRAW))
    decline = action(st, Block.DECLINE)
    assert decline in CTH.candidates(st, 0)
    assert CTH.best_action(st, 0) == action(st, Block.PLACE, "R12")
