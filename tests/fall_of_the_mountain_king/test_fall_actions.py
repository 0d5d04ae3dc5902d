"""The Advance (with its battle: victory, repulse), Bolster and Influence actions, and the two known
champions."""

from fall_helpers import act, cavern, decide, give_champion, only, put_gnome, put_trolls, two_player_map

from mk_env.fall_of_the_mountain_king.rules import Block, Phase
from mk_env.fall_of_the_mountain_king.rules.fields import BY_WHEEL


def _advance(st, seat=0, power=3, strong=0):
    decide(st, Phase.ADVANCE_DEST, seat, tasks=[["seize_check", seat, []]], power=power, strong=strong)


def test_advance_moves_trolls_from_caverns_joined_to_the_destination_by_established_caverns():
    """"Move up to p trolls from any caverns to a single destination cavern, provided intermediate caverns
    are established" (distance and other players' trolls are irrelevant)."""
    st = two_player_map()
    moss_gate, moss_deep, hammer_deep, mud_deep = (cavern(st, n) for n in ("Moss Gate", "Moss Deep",
                                                                           "Hammer Deep", "Mud Deep"))
    put_trolls(st, 0, moss_deep, 2)
    put_trolls(st, 0, hammer_deep, 1)
    put_trolls(st, 0, moss_gate, 1)  # joined to Mud Deep only through the empty Moss Hollow
    put_trolls(st, 1, hammer_deep, 3)
    _advance(st)
    assert mud_deep in only(st, Block.DEST)
    act(st, Block.DEST, mud_deep)
    assert only(st, Block.TROLL) == [moss_deep, hammer_deep] and only(st, Block.DONE) == []
    act(st, Block.TROLL, moss_deep)
    act(st, Block.TROLL, moss_deep)
    assert only(st, Block.DONE) == [0] and only(st, Block.TROLL) == [hammer_deep]
    act(st, Block.DONE)
    assert st.trolls[mud_deep] == [2, 0] and st.trolls[moss_deep] == [0, 0]


def test_advance_victory_scores_the_gnomes_strength_a_vote_and_the_seize_vote_and_moves_the_wheel_pawn():
    st = two_player_map()
    deep, target = cavern(st, "Moss Deep"), cavern(st, "Hammer Deep")
    put_trolls(st, 0, deep, 3)
    g1, g2 = put_gnome(st, target, 1), put_gnome(st, target, 2)
    decide(st, Phase.ADVANCE_DEST, 0, tasks=[["seize_check", 0, [target]]], power=3, strong=0)
    act(st, Block.DEST, target)
    for _ in range(3):
        if st.phase == Phase.ADVANCE_TROLL:
            act(st, Block.TROLL, deep)
    hammer = st.game.side.clan_of[target]
    assert st.honor[0] == 3 and st.honor_by[0][0] == 3
    assert st.votes[hammer][0] == 2  # victorious: 1; seized control: 1 more
    assert st.gnome_at[g1] == st.gnome_at[g2] == BY_WHEEL and st.gnome_public[g1] == 1
    assert st.wheel == 2 and st.trolls[target][0] == 3  # one space per gnome, not per strength


def test_a_repulse_with_a_single_gnome_adds_another_and_the_trolls_go_to_one_lair():
    st = two_player_map()
    deep, target = cavern(st, "Moss Deep"), cavern(st, "Hammer Deep")
    put_trolls(st, 0, deep, 2)
    g = put_gnome(st, target, 3)
    _advance(st, power=2)
    act(st, Block.DEST, target)
    act(st, Block.TROLL, deep)
    act(st, Block.TROLL, deep)
    assert st.phase == Phase.LAIR_CHOICE and st.gnome_public[g] == 1
    assert sum(1 for x in st.gnome_at if x == target) == 2  # "If there is only one gnome, add another"
    act(st, Block.LAIR, 1)
    assert st.trolls[target] == [0, 0] and st.trolls[st.lairs[0][1]][0] == 2 and st.honor == [0, 0]


def test_a_repulse_with_two_gnomes_adds_none():
    st = two_player_map()
    deep, target = cavern(st, "Moss Deep"), cavern(st, "Hammer Deep")
    put_trolls(st, 0, deep, 1)
    put_gnome(st, target, 1)
    put_gnome(st, target, 1)
    _advance(st, power=1)
    act(st, Block.DEST, target)
    act(st, Block.TROLL, deep)
    assert sum(1 for x in st.gnome_at if x == target) == 2


def test_firragh_the_avalanche_counts_as_two_trolls_when_attacking_gnomes():
    st = two_player_map()
    deep, target = cavern(st, "Moss Deep"), cavern(st, "Hammer Deep")
    card = give_champion(st, 0, "Firragh The Avalanche", at=deep)
    put_trolls(st, 0, deep, 1)
    put_gnome(st, target, 3)
    _advance(st, power=2)
    act(st, Block.DEST, target)
    act(st, Block.CHAMPION, card)
    act(st, Block.TROLL, deep)
    assert st.honor[0] == 3 and st.champ_loc[card] == target  # 1 troll + Firragh as 2 = 3


def test_argren_hammerhelm_gives_a_weak_action_after_a_strong_advance_she_took_part_in():
    st = two_player_map()
    deep, hollow = cavern(st, "Moss Deep"), cavern(st, "Moss Hollow")
    card = give_champion(st, 0, "Argren Hammerhelm", at=deep)
    st.grid[0][0] = 1 + 2 * 3  # a weak influence symbol at r0c0 to use
    _advance(st, power=2, strong=1)
    act(st, Block.DEST, hollow)
    act(st, Block.CHAMPION, card)
    assert st.phase == Phase.TURN and st.pending == {"weak": 1, "bonus": 1}
    assert only(st, Block.STRONG) == [] and only(st, Block.END_TURN) == [0] and only(st, Block.WEAK)
    _advance(st, power=2, strong=0)  # a weak Advance with her: no bonus
    act(st, Block.DEST, deep)
    act(st, Block.CHAMPION, card)
    assert st.phase == Phase.KEEP_CHAMPION


def test_bolster_adds_trolls_from_the_supply_to_a_single_dominated_cavern():
    st = two_player_map()
    mine, shared = cavern(st, "Moss Deep"), cavern(st, "Moss Hollow")
    put_trolls(st, 0, mine, 1)
    put_trolls(st, 0, shared, 1)
    put_trolls(st, 1, shared, 1)
    decide(st, Phase.BOLSTER_DEST, 0, power=3)
    legal = only(st, Block.DEST)
    assert mine in legal and shared not in legal and set(st.lairs[0]) <= set(legal)
    supply = st.troll_supply[0]
    act(st, Block.DEST, mine)
    assert st.phase == Phase.BOLSTER_COUNT and only(st, Block.COUNT) == [0, 1, 2]  # "up to p": 1 to 3
    act(st, Block.COUNT, 2)
    assert st.trolls[mine][0] == 4 and st.troll_supply[0] == supply - 3


def test_bolster_with_an_empty_supply_moves_trolls_from_anywhere_on_the_map():
    """"When there are no trolls in your supply, you may move trolls from anywhere on the map to the
    destination cavern, ignoring intermediate caverns.\""""
    st = two_player_map()
    mine, far = cavern(st, "Moss Deep"), cavern(st, "Ice Gate")
    put_trolls(st, 0, mine, 1)
    put_trolls(st, 0, far, st.troll_supply[0] - 1)
    decide(st, Phase.BOLSTER_DEST, 0, power=3)
    act(st, Block.DEST, mine)  # one troll left in the supply: no choice of how many
    assert st.trolls[mine][0] == 2 and st.phase == Phase.BOLSTER_FROM and st.pending["left"] == 2
    assert only(st, Block.TROLL) == [far]
    act(st, Block.TROLL, far)
    act(st, Block.DONE)
    assert st.trolls[mine][0] == 3 and st.troll_supply[0] == 0


def test_bolster_with_an_empty_supply_moves_champion_pawns_too():
    """"A champion pawn is a troll (... for other rules)": a Bolster from the map may take a pawn."""
    st = two_player_map()
    mine, far = cavern(st, "Moss Deep"), cavern(st, "Ice Gate")
    put_trolls(st, 0, mine, 1)
    put_trolls(st, 0, far, st.troll_supply[0])
    card = give_champion(st, 0, "Brunna Stonefist", at=far)
    other = give_champion(st, 1, "Olm the Patient", at=far)
    decide(st, Phase.BOLSTER_DEST, 0, power=2)
    act(st, Block.DEST, mine)  # the supply is empty: both from the map
    assert st.phase == Phase.BOLSTER_FROM and only(st, Block.CHAMPION) == [card]  # not another player's pawn
    act(st, Block.CHAMPION, card)
    assert st.champ_loc[card] == mine and st.champ_loc[other] == far and st.pending["left"] == 1
    act(st, Block.TROLL, far)
    assert st.trolls[mine][0] == 2 and st.phase == Phase.KEEP_CHAMPION  # p spent: the action is over (STOP)


def test_influence_the_first_influence_on_a_champion_gains_one_extra():
    st = two_player_map()
    card = st.display[1]
    decide(st, Phase.INFLUENCE, 0, power=2)
    act(st, Block.INFLUENCE, 1)
    assert st.influence[card] == [3, 0]
    decide(st, Phase.INFLUENCE, 1, power=1)
    act(st, Block.INFLUENCE, 1)
    assert st.influence[card] == [3, 1]


def test_influence_ties_put_the_later_marker_on_top_and_the_bottom_one_leads():
    from mk_env.fall_of_the_mountain_king.rules.flow import leader
    st = two_player_map()
    card = st.display[0]
    decide(st, Phase.INFLUENCE, 1, power=1)
    act(st, Block.INFLUENCE, 0)  # seat 1: 2 (first bonus)
    decide(st, Phase.INFLUENCE, 0, power=2)
    act(st, Block.INFLUENCE, 0)  # seat 0: 2, on top
    assert st.influence[card] == [2, 2] and leader(st.influence[card], st.influence_stamp[card]) == 1


def test_a_champion_pawn_is_a_troll_for_cavern_status():
    from mk_env.fall_of_the_mountain_king.rules.board import controller, dominates
    st = two_player_map()
    deep = cavern(st, "Moss Deep")
    put_trolls(st, 1, deep, 1)
    give_champion(st, 0, "Brunna Stonefist", at=deep)
    assert controller(st, deep) == -1  # one troll each
    give_champion(st, 0, "Olm the Patient", at=deep)
    assert controller(st, deep) == 0 and not dominates(st, 0, deep)


def test_only_your_trolls_may_enter_your_lair():
    st = two_player_map()
    lair = st.lairs[1][0]  # seat 1's lair by Hammer Hollow and Hammer Deep
    put_trolls(st, 0, cavern(st, "Hammer Hollow"), 2)
    _advance(st)
    assert lair not in only(st, Block.DEST)
    put_trolls(st, 1, cavern(st, "Hammer Deep"), 1)
    decide(st, Phase.ADVANCE_DEST, 1, power=1, strong=0)
    assert lair in only(st, Block.DEST)


def test_gaining_control_on_another_players_turn_is_not_seizing_control():
    st = two_player_map()
    hollow, deep = cavern(st, "Moss Hollow"), cavern(st, "Moss Deep")
    put_trolls(st, 0, hollow, 2)
    put_trolls(st, 1, hollow, 1)
    put_trolls(st, 0, deep, 1)
    decide(st, Phase.ADVANCE_DEST, 0, tasks=[["seize_check", 0, [hollow]]], power=2, strong=0)
    act(st, Block.DEST, deep)
    act(st, Block.TROLL, hollow)
    act(st, Block.TROLL, hollow)  # seat 1 now controls Moss Hollow, on seat 0's turn
    assert st.votes[st.game.side.clan_of[hollow]] == [0, 0]
