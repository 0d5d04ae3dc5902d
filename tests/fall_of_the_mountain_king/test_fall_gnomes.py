"""The Gnome action and the wheel (scouting, tripwires, spaces), breaches and invasions (routing, ties,
falls and their honor)."""

import numpy as np
from fall_helpers import act, cavern, give_champion, only, put_gnome, put_trolls, run_tasks, two_player_map

from mk_env.fall_of_the_mountain_king.rules import Block, Phase
from mk_env.fall_of_the_mountain_king.rules.fields import BY_WHEEL
from mk_env.fall_of_the_mountain_king.rules.flow import gain_votes
from mk_env.fall_of_the_mountain_king.rules.swarm import goals, vote_leader


def _gnome_action(st, seat=0, power=3, wheel=0):
    st.wheel = wheel
    run_tasks(st, ["gnome_action", seat, power, 0], ["seize_check", seat, []])


def _skip_scouting(st):
    while st.phase in (Phase.SCOUT_GATE, Phase.SCOUT_GNOME):
        act(st, Block.DONE)


def test_the_wheel_pawn_moves_up_to_p_spaces_never_more_than_a_circuit():
    st = two_player_map()
    _gnome_action(st, power=3)
    assert only(st, Block.WHEEL) == [0, 1, 2]
    _gnome_action(st, power=30)
    assert len(only(st, Block.WHEEL)) == len(st.game.pack.wheel.spaces)


def test_scouting_peeks_at_a_gate_card_and_a_gnome_privately():
    st = two_player_map()
    g = put_gnome(st, cavern(st, "Moon Gate"), 2)
    _gnome_action(st, wheel=3, power=1)
    act(st, Block.WHEEL, 0)
    assert st.phase == Phase.SCOUT_GATE and only(st, Block.GATE) == list(range(len(st.invasion)))
    act(st, Block.GATE, 1)
    assert st.phase == Phase.SCOUT_GNOME and only(st, Block.GNOME) == [g]
    act(st, Block.GNOME, g)
    assert st.known_gates == [[1], []] and st.known_gnomes == [[g], []]
    _gnome_action(st, wheel=3, power=1)
    act(st, Block.WHEEL, 0)
    assert 1 not in only(st, Block.GATE)  # peeking again is free: not a decision
    act(st, Block.DONE)
    assert st.phase != Phase.SCOUT_GNOME  # the only facedown gnome is known
    d = st.determinize(1, np.random.default_rng(0))  # the other player's view resamples what it cannot see
    assert d.known_gnomes[1] == [] and d.invasion[1] in range(7)
    mine = st.determinize(0, np.random.default_rng(0))
    assert mine.invasion[1] == st.invasion[1] and mine.gnome_at[g] == st.gnome_at[g]


def test_the_honor_tripwire_advances_the_boost_and_the_honor_space_pays_m_plus_the_boost():
    """Spaces 5, 6: entering space 6 crosses the honor tripwire; space 6 is an honor space."""
    st = two_player_map()
    _gnome_action(st, wheel=4, power=2)
    act(st, Block.WHEEL, 1)
    _skip_scouting(st)
    assert st.boost[0] == 1 and st.honor[0] == 2 + 1 and st.honor_by[0][2] == 3


def test_the_bolster_and_influence_spaces_act_at_m():
    st = two_player_map()
    _gnome_action(st, wheel=11, power=2)
    act(st, Block.WHEEL, 1)  # 11 -> 0 -> 1: scouting, the breach tripwire, then the bolster space
    _skip_scouting(st)
    assert st.phase == Phase.SWARM
    act(st, Block.SWARM, 2)
    while st.phase == Phase.ROUTE:
        act(st, Block.ROUTE, only(st, Block.ROUTE)[0])
    assert st.phase == Phase.BOLSTER_DEST and st.pending["power"] == 2
    _gnome_action(st, wheel=2, power=1)
    act(st, Block.WHEEL, 0)
    _skip_scouting(st)
    assert st.phase == Phase.INFLUENCE and st.pending["power"] == 1


def test_a_breach_with_its_invader_count_two_plus_half_those_by_the_wheel_rounded_up():
    st = two_player_map()
    for s in (1, 2, 3):
        st.gnome_at[[g for g, x in enumerate(st.gnome_at) if x == -1 and st.strength[g] == s][0]] = BY_WHEEL
    before = sum(1 for x in st.gnome_at if x >= 0)
    swarm = st.swarm
    _gnome_action(st, wheel=10, power=2)
    act(st, Block.WHEEL, 1)  # 10 -> 11 -> 0: the breach tripwire
    _skip_scouting(st)
    assert st.phase == Phase.SWARM and st.decider == 0 and only(st, Block.SWARM) == [0, 1, 2, 3, 4]
    act(st, Block.SWARM, 4)  # two swarm points clockwise
    cycle = st.game.pack.swarm_cycle
    assert st.swarm == cycle[(cycle.index(swarm) + 2) % 7]
    while st.phase == Phase.ROUTE:
        assert st.decider == 0  # "In a breach, further ties are resolved by the active player"
        act(st, Block.ROUTE, only(st, Block.ROUTE)[0])
    assert BY_WHEEL not in st.gnome_at
    assert sum(1 for x in st.gnome_at if x >= 0) == before + 2 + 2  # 3 by the wheel: 2 + ceil(3/2)


def test_the_grey_troll_space_moves_trolls_of_any_player_into_adjacent_gnome_free_caverns():
    st = two_player_map()
    hollow, deep, gate = cavern(st, "Moss Hollow"), cavern(st, "Moss Deep"), cavern(st, "Moss Gate")
    put_trolls(st, 1, hollow, 2)
    put_trolls(st, 0, hollow, 1)
    put_gnome(st, gate, 1)
    _gnome_action(st, wheel=3, power=2)
    act(st, Block.WHEEL, 0)  # space 4: grey troll, m = 1
    _skip_scouting(st)
    assert st.phase == Phase.SHOVE_FROM and hollow in only(st, Block.SHOVE_FROM)
    act(st, Block.SHOVE_FROM, hollow)
    size = st.game.side.size
    moves = only(st, Block.SHOVE)
    assert 1 * size + gate not in moves and 1 * size + deep in moves  # never into an overrun cavern
    act(st, Block.SHOVE, 1 * size + deep)
    assert st.trolls[hollow] == [1, 1] and st.trolls[deep] == [0, 1]


def test_grey_troll_seizing_control_gains_a_vote():
    st = two_player_map()
    hollow, deep = cavern(st, "Moss Hollow"), cavern(st, "Moss Deep")
    put_trolls(st, 1, hollow, 2)
    put_trolls(st, 0, hollow, 1)
    st.wheel = 2
    run_tasks(st, ["gnome_action", 0, 2, 0], ["seize_check", 0, [hollow]])
    act(st, Block.WHEEL, 1)  # 2 -> 4: grey troll, m = 2
    _skip_scouting(st)
    act(st, Block.SHOVE_FROM, hollow)
    size = st.game.side.size
    act(st, Block.SHOVE, 1 * size + deep)
    act(st, Block.SHOVE, 1 * size + deep)
    assert st.votes[st.game.side.clan_of[hollow]][0] == 1


def _invade(st, clan, wave=1):
    st.wave = wave
    st.invasion = [st.game.pack.clans.index(clan)]
    run_tasks(st, ["invasion", 0])


def test_an_invasion_routed_by_the_easiest_then_closest_rule_with_a_vote_holders_tie_break():
    """Moss Gate and Moss Hollow overrun: the gnome runs through them. Moss Deep has a troll; Hammer Hollow and
    Granite Hollow are empty and as close: the player with the most votes in Moss (the invasion domain)
    breaks the tie."""
    st = two_player_map()
    gate, hollow = cavern(st, "Moss Gate"), cavern(st, "Moss Hollow")
    put_gnome(st, gate, 3)
    put_gnome(st, hollow, 3)
    put_trolls(st, 0, cavern(st, "Moss Deep"), 1)
    st.swarm = st.game.pack.clans.index("Moss")
    assert goals(st) == sorted([cavern(st, "Hammer Hollow"), cavern(st, "Granite Hollow")])
    gain_votes(st, 0, st.game.pack.clans.index("Moss"), 1)
    gain_votes(st, 1, st.game.pack.clans.index("Moss"), 2)
    _invade(st, "Moss")
    assert st.phase == Phase.ROUTE and st.decider == 1
    act(st, Block.ROUTE, cavern(st, "Granite Hollow"))
    assert cavern(st, "Granite Hollow") in st.gnome_at


def test_an_invasion_tie_with_no_votes_in_the_clan_looks_to_the_next_lower_clan():
    st = two_player_map()
    clans = st.game.pack.clans
    gain_votes(st, 0, clans.index("Hammer"), 1)  # Moss is plank 5 of 7, Hammer the next lower
    gain_votes(st, 1, clans.index("Fire"), 5)
    assert vote_leader(st, clans.index("Moss")) == 0
    gain_votes(st, 1, clans.index("Hammer"), 1)  # a tie: the bottom marker (seat 0's, placed first) leads
    assert vote_leader(st, clans.index("Moss")) == 0
    assert vote_leader(st, clans.index("Mud")) == 1  # wraps to the top: Fire


def test_a_gnome_that_reaches_trolls_is_defeated_and_the_first_fall_of_each_invasion_scores_3_4_5_later_2():
    for wave, first in ((1, 3), (2, 4), (3, 5)):
        st = two_player_map()
        gate = cavern(st, "Moss Gate")
        put_trolls(st, 0, gate, 4)
        _invade(st, "Moss", wave)
        invaders = st.game.pack.rules.invaders_by_wave[wave - 1]
        assert st.honor[0] == first + 2 * (invaders - 1) and st.honor_by[0][1] == st.honor[0]
        assert st.trolls[gate][0] == 4 - invaders and gate not in st.gnome_at


def test_each_invasion_has_its_own_first_fall():
    st = two_player_map()
    put_trolls(st, 0, cavern(st, "Moss Gate"), 2)
    put_trolls(st, 1, cavern(st, "Fire Gate"), 2)
    st.invasion = [st.game.pack.clans.index("Moss"), st.game.pack.clans.index("Fire")]
    run_tasks(st, ["invasion", 0], ["invasion", 1])
    assert st.honor == [3 + 2, 3 + 2]


def test_trolls_that_fall_in_a_breach_do_not_score():
    st = two_player_map()
    gate = cavern(st, "Moss Gate")
    put_trolls(st, 0, gate, 5)
    st.swarm = st.game.pack.clans.index("Moss")
    run_tasks(st, ["breach", 0])
    act(st, Block.SWARM, 2)
    assert st.trolls[gate][0] == 3 and st.honor == [0, 0]


def test_the_troll_to_fall_is_drawn_in_proportion_and_its_owner_chooses_a_champion_jumps_to_a_lair():
    st = two_player_map()
    gate = cavern(st, "Moss Gate")
    card = give_champion(st, 0, "Brunna Stonefist", at=gate)
    put_trolls(st, 0, gate, 1)
    run_tasks(st, ["fall", 1, 0, gate])
    assert st.phase == Phase.FALL and st.decider == 0 and only(st, Block.FALL) == [0, 1 + card]
    act(st, Block.FALL, 1 + card)
    assert st.phase == Phase.LAIR_CHOICE
    act(st, Block.LAIR, 0)
    assert st.champ_loc[card] == st.lairs[0][0] and st.trolls[gate][0] == 1
    counts = [0, 0]
    for seed in range(200):  # 3 trolls of seat 0, 1 of seat 1: seat 0 falls about 3/4 of the time
        s = two_player_map()
        put_trolls(s, 0, gate, 3)
        put_trolls(s, 1, gate, 1)
        s.rng.bit_generator.state = np.random.default_rng(seed).bit_generator.state
        s.swarm = s.game.pack.clans.index("Moss")
        g = next(i for i, x in enumerate(s.gnome_at) if x == -1)
        run_tasks(s, ["gnome_in", 1, -1, g])
        counts[0 if s.trolls[gate][0] == 2 else 1] += 1
    assert 120 <= counts[0] <= 180


def test_a_victory_moving_the_wheel_pawn_across_the_breach_tripwire_starts_a_breach():
    st = two_player_map()
    deep, target = cavern(st, "Moss Deep"), cavern(st, "Hammer Deep")
    put_trolls(st, 0, deep, 1)
    put_gnome(st, target, 1)
    st.wheel = len(st.game.pack.wheel.spaces) - 1
    run_tasks(st, ["advance", 0, 1, 0], ["seize_check", 0, []])
    act(st, Block.DEST, target)
    act(st, Block.TROLL, deep)
    assert st.wheel == 0 and st.phase == Phase.SWARM and st.decider == 0


def test_an_invasion_moves_the_swarm_to_the_gate_cards_domain():
    st = two_player_map()
    st.swarm = st.game.pack.clans.index("Fire")
    _invade(st, "Moon")
    assert st.swarm == st.game.pack.clans.index("Moon") and st.revealed == 1


def test_with_no_overrun_gate_cavern_the_gnome_enters_the_easier_gate_cavern_and_stops():
    """The large side has two gate caverns per domain: the one with fewer trolls is easier."""
    from fall_helpers import battle_position
    st = battle_position(4)
    west, east = cavern(st, "Ice Gate West"), cavern(st, "Ice Gate East")
    put_trolls(st, 0, west, 1)
    st.swarm = st.game.pack.clans.index("Ice")
    assert goals(st) == [east]
    put_trolls(st, 1, east, 1)
    assert goals(st) == [west, east]  # a tie: a decision
