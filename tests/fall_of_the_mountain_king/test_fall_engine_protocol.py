"""The engine protocol: random games to the end with the invariants after every decision, illegal
decisions, masks and words, clone, exact JSON saves, determinism, determinize."""

import json

import numpy as np
import pytest
from fall_helpers import act, at_phase, play

from mk_env.core.protocol import STATE_METHODS
from mk_env.fall_of_the_mountain_king.rules import (ActionTypeError, ConfigError, Game, IllegalActionError, Phase,
                                                    StateError)
from mk_env.fall_of_the_mountain_king.rules.fields import BY_SWARM, SUPPLY
from mk_env.fall_of_the_mountain_king.rules.invariants import check


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_random_games_to_the_end_keep_every_invariant(n):
    seen = set()
    for seed in range(3):
        st = Game(n).new_initial_state(seed)

        def after(s):
            check(s)
            seen.add(s.decision_kind())
            assert s.legal_mask().sum() == len(s.legal_actions()) > 0 or s.is_terminal()
            assert s.is_terminal() or s.current_player() == s.decider

        play(st, np.random.default_rng(seed), each=after)
        assert st.is_terminal() and st.wave == 3 and st.current_player() == -1
        assert abs(sum(st.returns())) < 1e-12 and max(st.returns()) > 0
        assert sorted(st.ranks())[0] == 0
        for p in range(n):
            b = st.score_breakdown(p)
            assert b["total"] == st.honor[p] == sum(v for k, v in b.items() if k != "total")
    assert {"keep_champion", "lair_pair", "place_card", "turn", "gather", "advance_dest", "bolster_dest",
            "influence", "wheel", "game_over"} <= seen


def test_the_state_has_the_engine_protocol_surface():
    st = Game(3).new_initial_state(1)
    for name in STATE_METHODS:
        assert callable(getattr(st, name))
    assert st.num_players == 3 and isinstance(st.rng, np.random.Generator)


def test_an_illegal_decision_says_what_why_and_what_is_allowed_and_changes_nothing():
    st = Game(2).new_initial_state(3)
    before = st.to_dict()
    layout = st.game.layout
    with pytest.raises(IllegalActionError) as e:
        act(st, "swarm", 1)
    assert "not awaited in the keep_champion phase" in str(e.value) and "legal now: keep: 2" in str(e.value)
    assert st.to_dict() == before
    with pytest.raises(IllegalActionError, match="outside the action space"):
        st.apply(layout.size)
    with pytest.raises(ActionTypeError):
        st.apply(1.5)
    assert st.is_legal(np.int64(layout.index("keep", 1))) and not st.is_legal(layout.index("swarm", 0))


@pytest.mark.parametrize("bad", [1, 6, "3", True, 3.0])
def test_a_bad_player_count_is_refused_naming_the_allowed_ones(bad):
    with pytest.raises(ConfigError, match="2, 3, 4 or 5"):
        Game(bad)


def test_every_action_number_has_words():
    g = Game(4)
    words = [g.layout.describe(a) for a in range(0, g.layout.size, 7)]
    assert all(isinstance(w, str) and w for w in words)
    assert g.layout.describe(g.layout.index("swarm", 0)) == "move the swarm -2 swarm points"


def test_a_seed_fixes_the_whole_game_and_a_clone_continues_alike():
    a, b = Game(3).new_initial_state(7), Game(3).new_initial_state(7)
    assert a == b
    play(a, np.random.default_rng(1), until=lambda s: s.phase == Phase.TURN and s.wave == 2)
    c = a.clone()
    play(a, np.random.default_rng(5))
    play(c, np.random.default_rng(5))
    assert a == c and a.is_terminal()


def test_a_save_reads_back_exactly_and_a_corrupt_one_is_refused():
    st = at_phase(4, Phase.GATHER, seed=2)
    back = st.game.state_from_json(st.to_json())
    assert back == st
    rng1, rng2 = np.random.default_rng(3), np.random.default_rng(3)
    play(back, rng1)
    play(st, rng2)
    assert back == st
    data = json.loads(Game(4).new_initial_state(1).to_json())
    with pytest.raises(StateError, match="not valid JSON"):
        Game(4).state_from_json("{")
    with pytest.raises(StateError, match="num_players"):
        Game(3).state_from_json(data)
    bad = dict(data, troll_supply=[30, 25, 25, 25])
    with pytest.raises(StateError, match="impossible state: seat 0"):
        Game(4).state_from_json(bad)
    with pytest.raises(StateError, match="unknown field"):
        Game(4).state_from_json(dict(data, extra=1))


def test_determinize_hides_what_the_player_cannot_see_and_keeps_what_it_can():
    st = at_phase(3, Phase.PLACE_CARD, seed=4)
    me = st.decider
    st.known_gates[me] = [0]
    d = st.determinize(me, np.random.default_rng(9))
    check(d)
    assert d.hands[me] == st.hands[me] and d.grid == st.grid and d.trolls == st.trolls
    assert [len(h) for h in d.hands] == [len(h) for h in st.hands]
    assert d.invasion[0] == st.invasion[0] and sorted(d.invasion + d.gates_aside) == list(range(7))
    assert sorted(d.deck + [c for p, h in enumerate(d.hands) if p != me for c in h]) == sorted(
        st.deck + [c for p, h in enumerate(st.hands) if p != me for c in h])
    assert d.gnome_at == st.gnome_at and sorted(d.strength) == sorted(st.strength)  # places kept
    changed = [g for g in range(len(st.gnome_at)) if d.strength[g] != st.strength[g]]
    assert all(st.gnome_at[g] in (SUPPLY, BY_SWARM) or not st.gnome_public[g] for g in changed)
    assert d.legal_actions().tolist() == st.legal_actions().tolist()
    play(d, np.random.default_rng(2))
    assert d.is_terminal()


def test_determinize_keeps_the_cards_a_player_passed_in_the_hands_they_went_to():
    st = at_phase(3, Phase.PLACE_CARD, seed=6)
    rng = np.random.default_rng(6)
    while not (st.phase == Phase.PLACE_CARD and len(st.hands[st.decider]) == 3):
        st.apply(int(rng.choice(st.legal_actions())))
    me = st.decider
    passed = [c for p, h in enumerate(st.hands) if p != me for c in h if c in st.seen[me]]
    assert passed  # the cards this player passed on after its first pick
    for seed in range(5):
        d = st.determinize(me, np.random.default_rng(seed))
        for p, h in enumerate(st.hands):
            assert sorted(c for c in d.hands[p] if c in st.seen[me]) == sorted(c for c in h if c in st.seen[me])


def test_what_a_player_knows_of_gnomes_gate_cards_hands_and_dealt_champions():
    from mk_env.fall_of_the_mountain_king.rules.knowledge import (UNKNOWN, dealt_champions, gate_card, gnome_strength,
                                                                  hand)
    st = Game(2).new_initial_state(4)
    assert dealt_champions(st, 0, 0) == st.dealt[0] and dealt_champions(st, 1, 0) == [UNKNOWN, UNKNOWN]
    g = next(i for i, x in enumerate(st.gnome_at) if x >= 0)
    assert gnome_strength(st, 0, g) == UNKNOWN
    st.known_gnomes[0].append(g)
    assert gnome_strength(st, 0, g) == st.strength[g] and gnome_strength(st, 1, g) == UNKNOWN
    st.known_gates[1].append(2)
    assert gate_card(st, 1, 2) == st.invasion[2] and gate_card(st, 0, 2) == UNKNOWN
    st.revealed = 1
    assert gate_card(st, 0, 0) == st.invasion[0]
    st = at_phase(2, Phase.PLACE_CARD, seed=1)
    me = st.decider
    assert hand(st, me, me) == st.hands[me] and set(hand(st, me, 1 - me)) == {UNKNOWN}


@pytest.mark.parametrize("field, value, message", [
    ("phase", 99, "phase is 99"), ("wave", 4, "wave is 4"), ("trolls", [[0, 0]], "trolls has 1 entries"),
    ("gnome_at", [500] * 30, "gnome_at holds a value outside"), ("votes", [[0]] * 7, "wrong length"),
    ("display", [-5], "display holds a value outside"), ("lairs", [[999, 1], [2, 3]], "lairs hold a location"),
    ("decider", 7, "decider is 7"), ("grid", [[0], [0]], "wrong length"),
])
def test_a_hostile_save_is_refused_naming_the_fault(field, value, message):
    data = json.loads(Game(2).new_initial_state(1).to_json())
    data[field] = value
    with pytest.raises(StateError, match=message):
        Game(2).state_from_json(data)
