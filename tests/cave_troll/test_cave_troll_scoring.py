"""SCORING and GAME END."""

import pytest
from cave_troll_helpers import act, last_counter, lay, position, put

from mk_env.cave_troll.rules import Block, Kind, Phase
from mk_env.cave_troll.rules.scoring import count_the_loot
from mk_env.cave_troll.rules.vocabulary import PLAYED


def test_scoring_with_a_barbarian_tie_two_dwarves_and_a_treasure():
    """R12 (4 gold): seat 0's Barbarian counts two, tying seat 1's two Explorers: nobody scores.
    R07 (3 gold): seat 0's Dwarf and Explorer beat seat 1's Dwarf; two Dwarves double it twice
    (3 x 2 x 2 = 12, whoever controls) and the Treasure adds 4, not doubled: 16 to seat 0.
    R11 (5 gold): seat 1's Barbarian beats one Explorer: 5 to seat 1."""
    st = position(n=2)
    lay(st, (0, Kind.BARBARIAN, "R12"), (1, Kind.EXPLORER, "R12"), (1, Kind.EXPLORER, "R12"),
        (0, Kind.DWARF, "R07"), (0, Kind.EXPLORER, "R07"), (1, Kind.DWARF, "R07"), (1, Kind.TREASURE, "R07"),
        (1, Kind.BARBARIAN, "R11"), (0, Kind.EXPLORER, "R11"))
    count_the_loot(st)
    assert st.score == [16, 5]
    assert st.score_breakdown(0) == {"rooms": 12, "treasure": 4, "idol": 0, "last_counter": 0, "artifacts": 0,
                                     "total": 16}


def test_monsters_do_not_count_for_control_and_a_tie_scores_nobody():
    st = position(n=3)
    lay(st, (0, Kind.EXPLORER, "R13"), (1, Kind.EXPLORER, "R13"), (2, Kind.ORC, "R13"), (2, Kind.WRAITH, "R13"),
        (2, Kind.EXPLORER, "R24"), (1, Kind.ORC, "R24"), (1, Kind.WRAITH, "R24"))
    count_the_loot(st)
    assert st.score == [0, 0, 5]


def test_scoring_twice_adds_up_on_the_score_track():
    st = position(n=2)
    put(st, 0, Kind.EXPLORER, "R01")
    count_the_loot(st)
    count_the_loot(st)
    assert st.score == [2, 0] and st.gold[0][0] == 2


def test_the_game_ends_on_the_last_counter_with_the_bonus_and_unplayed_artifacts():
    """Seat 0 draws its last counter: the board is scored one last time, seat 0 gets +3, and every holder
    of an unplayed artifact gets its gold (seat 0: Helm 3; seat 1: Idol 4 + Cloak 2)."""
    st = position(n=2, actions=3)
    put(st, 0, Kind.EXPLORER, "R11")  # 5
    put(st, 1, Kind.EXPLORER, "R13")  # 5
    put(st, 1, Kind.DWARF, "R01")  # 1 x 2
    arts = {a.kind.name: i for i, a in enumerate(st.game.pack.artifacts)}
    st.art_at[arts["HELM_OF_MIND_CONTROL"]] = 0
    st.art_at[arts["IDOL_OF_ELDARR"]] = 1
    st.art_at[arts["CLOAK_OF_INVISIBILITY"]] = 1
    st.art_at[arts["WAND_OF_SPEED"]] = PLAYED
    st.stack = [i for i, a in enumerate(st.art_at) if a == -1]
    last_counter(st, 0, Kind.ORC)
    act(st, Block.DRAW)
    assert st.is_terminal() and st.current_player() == -1 and st.ender == 0
    assert st.score_breakdown(0) == {"rooms": 5, "treasure": 0, "idol": 0, "last_counter": 3, "artifacts": 3,
                                     "total": 11}
    assert st.score_breakdown(1)["total"] == 5 + 2 + 6
    assert st.ranks() == [1, 0] and st.returns() == [-1.0, 1.0]
    assert list(st.legal_actions()) == []


def test_the_last_counter_is_played_before_the_game_ends():
    """The last counter drawn is an adventurer: its player puts it in an entrance, then the game ends."""
    st = position(n=2)
    last_counter(st, 0, Kind.EXPLORER)
    act(st, Block.DRAW)
    assert st.phase == Phase.PLACE and not st.is_terminal()
    act(st, Block.PLACE, "north-west entrance")
    assert st.is_terminal() and st.score[0] == 3


@pytest.mark.parametrize("n", [2, 3, 4])
def test_tied_winners_share_the_win(n):
    st = position(n=n)
    last_counter(st, 0, Kind.ORC)
    put(st, 1, Kind.EXPLORER, "R07")  # 3 gold to seat 1, the +3 bonus to seat 0
    act(st, Block.DRAW)
    assert st.ranks()[:2] == [0, 0]
    returns = st.returns()
    assert returns[0] == returns[1] == (n - 2) / (2 * (n - 1)) and abs(sum(returns)) < 1e-12
