"""The points the rule text leaves open, as decided in docs/cave-troll/rules-decisions.md (one test each
where the rule tests elsewhere do not already show it; the document names every test)."""

import pytest
from cave_troll_helpers import (act, can_move, cloaked_in_troll_room, give, lay, last_counter, legal_args, move, names,
                                on_top, position, put, where)

from mk_env.cave_troll.rules import Artifact, Block, Kind, Phase
from mk_env.cave_troll.rules.vocabulary import DISCARDED


@pytest.mark.parametrize("monster, block", [(Kind.WRAITH, Block.PUSH), (Kind.ORC, Block.ORC)])
def test_a_wraith_or_an_orc_may_act_on_its_owners_own_adventurer(monster, block):
    st = position(n=2)
    mine, _ = lay(st, (0, Kind.EXPLORER, "R07"), (0, monster, "R07"))
    assert legal_args(st, block) == [mine]


def test_a_pushed_knight_discards_the_orcs_where_it_lands():
    st = position(n=2)
    knight, _, orc = lay(st, (1, Kind.KNIGHT, "R07"), (0, Kind.WRAITH, "R07"), (0, Kind.ORC, "R06"))
    act(st, Block.PUSH, knight)
    act(st, Block.PUSH_TO, "R06")
    assert st.loc[orc] == DISCARDED


def test_a_knight_coming_into_play_at_an_entrance_discards_the_orcs_there():
    st = position(n=2)
    orc = put(st, 1, Kind.ORC, "north-west entrance")
    on_top(st, 0, Kind.KNIGHT)
    act(st, Block.DRAW)
    act(st, Block.PLACE, "north-west entrance")
    assert st.loc[orc] == DISCARDED


def test_no_cave_troll_in_the_idols_room():
    st = position(n=2)
    st.idol_room, st.idol_owner = where(st, "R11"), 1
    st.art_at[give(st, 1, Artifact.IDOL_OF_ELDARR)] = -2  # played
    on_top(st, 0, Kind.CAVE_TROLL)
    act(st, Block.DRAW)
    assert "R11" not in names(st, legal_args(st, Block.PLACE))


def test_escapes_allow_no_push_and_no_thief_jump():
    st = position(n=2)
    lay(st, *[(0, k, "R12") for k in (Kind.EXPLORER, Kind.EXPLORER, Kind.EXPLORER, Kind.DWARF, Kind.KNIGHT)])
    wraith, thief = lay(st, (1, Kind.WRAITH, "R07"), (1, Kind.THIEF, "R07"))
    on_top(st, 0, Kind.CAVE_TROLL)
    act(st, Block.DRAW)
    act(st, Block.PLACE, "R07")  # doorways: R06, R08, R12 (full)
    size = st.game.pack.lair.size
    options = {(st.game.layout.counter_name(st.game.counters_of[1][a // size]), names(st, [a % size])[0])
               for a in legal_args(st, Block.MOVE)}
    assert {d for _, d in options} == {"R06", "R08"}
    assert any("Thief" in c for c, _ in options) and any("Wraith" in c for c, _ in options)
    move(st, wraith, "R06")
    assert st.loc[thief] == DISCARDED and st.current_player() == 0


def test_count_the_loot_as_the_last_counter_scores_twice():
    st = position(n=2)
    put(st, 1, Kind.EXPLORER, "R01")
    last_counter(st, 0, Kind.COUNT_THE_LOOT)
    act(st, Block.DRAW)
    assert st.is_terminal() and st.score == [3, 2]  # R01 scored by the counter, then by the end


def test_the_cloak_keeps_the_five_counter_limit_and_gives_no_second_room_after_a_thief_jump():
    st = position(n=2)
    give(st, 0, Artifact.CLOAK_OF_INVISIBILITY)
    thief = put(st, 0, Kind.THIEF, "R01")
    lay(st, *[(1, Kind.EXPLORER, "R12")] * 5)
    act(st, Block.CLOAK, st.game.slot_of[thief])
    assert not can_move(st, thief, "R12")
    move(st, thief, "R24")  # a jump: the action is over
    assert st.phase == Phase.ACTION and st.actions_left == 2


def test_a_second_cloak_room_may_be_declined():
    st = position(n=2)
    give(st, 0, Artifact.CLOAK_OF_INVISIBILITY)
    e = put(st, 0, Kind.EXPLORER, "R07")
    act(st, Block.CLOAK, st.game.slot_of[e])
    move(st, e, "R06")
    act(st, Block.DECLINE)
    assert st.loc[e] == where(st, "R06") and st.actions_left == 2


def test_a_cloaked_adventurer_in_a_troll_room_at_the_end_is_discarded_before_scoring():
    st = position(n=2)
    e = cloaked_in_troll_room(st)
    act(st, Block.DECLINE)
    last_counter(st, 0, Kind.ORC)
    act(st, Block.DRAW)
    assert st.is_terminal() and st.loc[e] == DISCARDED and st.score_breakdown(0)["rooms"] == 0


def test_the_breakdown_before_the_end_is_the_gold_scored_so_far():
    st = position(n=2)
    give(st, 0, Artifact.WAND_OF_SPEED)
    give(st, 0, Artifact.SWORD_OF_SLAYING)
    put(st, 0, Kind.EXPLORER, "R13")
    act(st, Block.WAND, "R13")
    assert st.score_breakdown(0) == {"rooms": 5, "treasure": 0, "idol": 0, "last_counter": 0, "artifacts": 0,
                                     "total": 5}


def test_every_test_the_decisions_document_names_exists():
    import re
    from pathlib import Path
    root = Path(__file__).resolve().parents[2]
    doc = (root / "docs" / "cave-troll" / "rules-decisions.md").read_text()
    named = set(re.findall(r"(test_[a-z0-9_]+)(?![a-z0-9_]|\.py)", doc))  # test names, not file names
    defined = set(re.findall(r"def (test_[a-z0-9_]+)", "".join(
        p.read_text() for p in (root / "tests" / "cave_troll").glob("test_*.py"))))
    assert named and named <= defined, sorted(named - defined)
