"""Wave End (entrenchment, awarding champions, end-of-wave abilities, domain scoring), Refresh, and the
End (Great Halls, elder symbols, clan votes, the winner and its tie-break)."""

from fall_helpers import (act, cavern, champion, give_champion, only, put_gnome, put_trolls, run_tasks, set_grid,
                          two_player_map)

from mk_env.fall_of_the_mountain_king.rules import Block, Phase
from mk_env.fall_of_the_mountain_king.rules.actions import add_influence
from mk_env.fall_of_the_mountain_king.rules.fields import DISPLAY, HELD, REMOVED
from mk_env.fall_of_the_mountain_king.rules.flow import gain_votes
from mk_env.fall_of_the_mountain_king.rules.scoring import clan_honor, elder_honor, hall_shares
from mk_env.fall_of_the_mountain_king.rules.waveend import domain_score, wave_end


def test_entrenchment_adds_a_gnome_to_each_cavern_with_exactly_one():
    st = two_player_map()
    a, b = cavern(st, "Moss Gate"), cavern(st, "Fire Gate")
    put_gnome(st, a, 1)
    put_gnome(st, b, 1)
    put_gnome(st, b, 2)
    run_tasks(st, ["entrench"])
    assert st.gnome_at.count(a) == 2 and st.gnome_at.count(b) == 2


def _display(st, *names):
    st.display = []
    for name in names:
        c = champion(st, name)
        for d in st.champ_decks:
            if c in d:
                d.remove(c)
        st.display.append(c)
        st.champ_state[c], st.champ_owner[c] = DISPLAY, -1
    return [champion(st, n) for n in names]


def test_the_victor_gains_the_champions_votes_and_the_others_choose_a_vote_or_honor_by_yellow_lines():
    st = two_player_map()
    (card,) = _display(st, "Cinder Queen")  # Fire, 2 votes, a letter: a pawn in wave I
    add_influence(st, 0, card, 4)  # 5 with the first-influence bonus
    add_influence(st, 1, card, 3)  # 3: passed the yellow line at 2 only
    put_trolls(st, 0, cavern(st, "Fire Deep"), 1)
    run_tasks(st, ["award", 0])
    fire = st.game.pack.clans.index("Fire")
    assert st.votes[fire] == [2, 0] and st.phase == Phase.VOTE_OR_HONOR and st.decider == 1
    act(st, Block.VOTE_OR_HONOR, 1)
    assert st.honor[1] == 1 and st.honor_by[1][3] == 1
    assert st.phase == Phase.PAWN_PLACE and st.decider == 0
    assert cavern(st, "Fire Deep") in only(st, Block.DEST) and cavern(st, "Moss Deep") not in only(st, Block.DEST)
    act(st, Block.DEST, cavern(st, "Fire Deep"))
    assert st.champ_state[card] == HELD and st.champ_owner[card] == 0 and st.champ_loc[card] == cavern(st, "Fire Deep")


def test_a_vote_instead_of_honor():
    st = two_player_map()
    (card,) = _display(st, "Old Mother Mudd")  # Mud, 3 votes, instant 3 honor, no letter
    add_influence(st, 1, card, 1)
    add_influence(st, 0, card, 1)
    run_tasks(st, ["award", 0])
    act(st, Block.VOTE_OR_HONOR, 0)
    mud = st.game.pack.clans.index("Mud")
    assert st.votes[mud] == [1, 3] and st.honor == [0, 3]  # seat 1 leads: 2 with the first-influence bonus


def test_a_champion_nobody_influenced_leaves_the_game():
    st = two_player_map()
    (card,) = _display(st, "Moonhowl")
    run_tasks(st, ["award", 0])
    assert st.champ_state[card] == REMOVED and st.champ_owner[card] == -1


def test_an_outsiders_wild_votes_go_to_any_single_clan():
    st = two_player_map()
    (card,) = _display(st, "Stranger from the Peaks")
    add_influence(st, 1, card, 1)
    put_trolls(st, 1, cavern(st, "Ice Deep"), 1)
    run_tasks(st, ["award", 0])
    assert st.phase == Phase.OUTSIDER and st.decider == 1 and only(st, Block.CLAN) == list(range(7))
    act(st, Block.CLAN, 3)
    assert st.votes[3] == [0, 2]


def test_in_wave_three_a_lettered_champion_puts_its_starburst_in_an_empty_great_hall_and_acts_at_once():
    st = two_player_map()
    st.wave = 3
    (card,) = _display(st, "King under the Fire")  # instant: 5 honor
    add_influence(st, 0, card, 1)
    st.starburst[0] = champion(st, "Granite Lord")
    run_tasks(st, ["award", 0])
    assert st.phase == Phase.STARBURST and 0 not in only(st, Block.HALL)
    act(st, Block.HALL, 1)
    assert st.starburst[1] == card and st.honor[0] == 5


def test_end_of_wave_abilities_apply_after_the_awards():
    st = two_player_map()
    give_champion(st, 0, "Moonhowl")  # end of wave: 1 honor per cavern controlled in the Moon domain
    put_trolls(st, 0, cavern(st, "Moon Deep"), 1)
    put_trolls(st, 0, cavern(st, "Moon Hollow"), 1)
    run_tasks(st, ["end_of_wave_abilities"])
    assert st.honor[0] == 2


def test_domain_scoring_four_plus_two_per_controlled_cavern_minus_one_per_overrun_cavern():
    st = two_player_map()
    moss = st.game.pack.clans.index("Moss")
    put_trolls(st, 0, cavern(st, "Moss Deep"), 2)
    put_trolls(st, 0, cavern(st, "Moss Hollow"), 1)
    put_trolls(st, 1, cavern(st, "Moss Hollow"), 1)  # a tie: nobody controls it
    put_gnome(st, cavern(st, "Moss Gate"), 1)
    assert domain_score(st, moss) == [4 + 2 * 1 - 1, 0]
    run_tasks(st, ["score_domains"])
    assert st.honor == [5, 0] and st.honor_by[0][4] == 5


def test_refresh_deals_new_gate_cards_and_champions_returns_markers_and_passes_the_hammer():
    st = two_player_map()
    st.covered[0][0] = 1
    st.desperation = [2, 1]
    first = st.start_player
    run_tasks(st, ["refresh"])
    assert st.wave == 2 and st.start_player == (first + 1) % 2 and st.desperation == [0, 0]
    assert sum(st.covered[0]) == 0 and len(st.invasion) == 3 and st.revealed == 0
    assert len(st.display) == 3 and all(st.game.pack.champions[c].deck == 1 for c in st.display)
    run_tasks(st, ["refresh"])
    assert all(st.game.pack.champions[c].deck == 2 for c in st.display)


def test_a_great_hall_goes_to_the_most_caverns_controlled_gnomes_take_part_and_ties_split():
    st = two_player_map()
    hall = 0
    touching = st.game.side.halls[hall]  # Moss Deep, Hammer Deep, Moss Hollow
    st.hall_value[hall] = 7
    put_trolls(st, 0, touching[0], 1)
    assert hall_shares(st, hall) == [7, 0]
    put_trolls(st, 1, touching[1], 1)
    assert hall_shares(st, hall) == [3, 3]  # split evenly, fractions discarded
    put_gnome(st, touching[2], 1)
    assert hall_shares(st, hall) == [2, 2]  # the gnomes' share is nobody's
    st.trolls[touching[0]][0] = 0
    st.troll_supply[0] += 1
    st.trolls[touching[1]][1] = 0
    st.troll_supply[1] += 1
    assert hall_shares(st, hall) == [0, 0]  # gnomes control the most: no player scores


def test_the_elder_table():
    st = two_player_map()
    table = {0: 0, 1: 0, 2: 1, 3: 3, 4: 5, 5: 8, 6: 12, 7: 17, 8: 23, 9: 30}
    for k, honor in table.items():
        row = " ".join(["E"] * k + ["_"] * (9 - k))
        set_grid(st, 0, [row])
        assert elder_honor(st, 0) == honor
    st.elder_bonus[0] = 1  # the Moon Oracle's elder symbols count too
    assert elder_honor(st, 0) == 30


def test_clan_votes_score_first_second_and_third_by_the_tile_and_the_bottom_marker_leads():
    st = two_player_map()
    st.vote_tiles = [0] * 7
    tile = st.game.pack.vote_tiles[0]
    gain_votes(st, 1, 0, 2)
    gain_votes(st, 0, 0, 2)
    assert clan_honor(st, 0) == [tile[1], tile[0]]
    assert clan_honor(st, 1) == [0, 0]  # no votes, no score


def test_the_end_of_game_tie_break_by_total_votes_then_shared():
    st = two_player_map()
    run_tasks(st, ["end_game"])
    assert st.is_terminal()
    st.honor = [20, 20]
    st.votes = [[0, 0] for _ in range(7)]
    st.votes[2] = [1, 3]
    assert st.ranks() == [1, 0] and st.returns() == [-1.0, 1.0]
    st.votes[2] = [3, 3]
    assert st.ranks() == [0, 0] and st.returns() == [0.0, 0.0]
    st.honor = [21, 20]
    assert st.ranks() == [0, 1]


def test_waves_one_and_two_score_the_domains_and_refresh_wave_three_goes_to_the_end():
    st = two_player_map()
    st.wave = 2
    st.tasks = []
    wave_end(st)
    names = [t[0] for t in reversed(st.tasks)]
    assert names[0] == "entrench" and names[-3:] == ["score_domains", "refresh", "wave_start"]
    assert names.count("invasion") == len(st.invasion) and names.count("award") == len(st.display)
    st.wave, st.tasks = 3, []
    wave_end(st)
    names = [t[0] for t in reversed(st.tasks)]
    assert names[-2:] == ["end_of_wave_abilities", "end_game"] and "score_domains" not in names


def test_refresh_uncovers_the_claws_of_champion_cards():
    st = two_player_map()
    card = give_champion(st, 0, "Brunna Stonefist")
    st.claws_used[card] = 1
    run_tasks(st, ["refresh"])
    assert st.claws_used[card] == 0
