"""The engine protocol: illegal decisions, masks, words, clone, exact JSON saves, determinism,
determinize, and random games to the end with the invariants after every decision."""

import json
import subprocess
import sys

import numpy as np
import pytest
from cave_troll_helpers import position, put

from mk_env.cave_troll.rules import ActionTypeError, Game, IllegalActionError, Kind, StateError
from mk_env.cave_troll.rules.invariants import check
from mk_env.cave_troll.rules.vocabulary import STACK


def play(st, rng, decisions=None, each=None):
    """Random legal decisions until the end (or ``decisions`` of them); ``each(st)`` after every one."""
    k = 0
    while not st.is_terminal() and (decisions is None or k < decisions):
        st.apply(int(rng.choice(st.legal_actions())))
        k += 1
        if each:
            each(st)
    return k


@pytest.mark.parametrize("n", [2, 3, 4])
def test_random_games_to_the_end_keep_every_invariant(n):
    st = Game(n).new_initial_state(n)
    seen = set()

    def after(s):
        check(s)
        seen.add(s.decision_kind())
        assert s.legal_mask().sum() == len(s.legal_actions())

    play(st, np.random.default_rng(n), each=after)
    assert st.is_terminal() and st.ender >= 0 and not st.piles[st.ender]
    assert sum(st.score) == sum(sum(g) for g in st.gold)
    assert abs(sum(st.returns())) < 1e-12 and max(st.returns()) > 0
    assert {"action", "place", "game_over"} <= seen


def test_an_illegal_decision_says_what_why_and_what_is_allowed_and_changes_nothing():
    st = position(n=2)
    before = st.to_dict()
    move_knight = st.game.layout.move(2, 11)
    with pytest.raises(IllegalActionError) as e:
        st.apply(move_knight)
    text = str(e.value)
    assert f"action {move_knight} (move your Knight (#2) to R12)" in text
    assert "no move decision is possible now" in text and "legal now: end_turn: 1" in text and "draw: 1" in text
    assert st.to_dict() == before
    with pytest.raises(IllegalActionError, match="outside the action space"):
        st.apply(st.game.layout.size)
    with pytest.raises(ActionTypeError):
        st.apply(1.0)
    with pytest.raises(IllegalActionError, match="not awaited in the action phase"):
        st.apply(st.game.layout.index("teleport", 3))
    assert st.to_dict() == before


def test_legal_mask_is_legal_and_describe_agree():
    st = Game(3).new_initial_state(7)
    rng = np.random.default_rng(0)
    for _ in range(300):
        legal = st.legal_actions()
        mask = st.legal_mask()
        assert mask.dtype == np.int8 and np.array_equal(np.flatnonzero(mask), legal)
        last = st.game.layout.size - 1
        assert all(st.is_legal(np.int64(a)) for a in legal[:5]) and st.is_legal(last) == (last in legal)
        assert all(st.describe_action(int(a)) == st.game.layout.describe(int(a)) for a in legal)
        st.apply(int(rng.choice(legal)))


def test_clone_and_json_round_trips_mid_game_continue_identically():
    st = Game(4).new_initial_state(3)
    rng = np.random.default_rng(3)
    for _ in range(6):
        play(st, rng, decisions=150)
        if st.is_terminal():
            break
        copy, loaded = st.clone(), st.game.state_from_json(st.to_json())
        assert copy == st and loaded == st and loaded.to_json() == st.to_json()
        ends = []
        for s in (st.clone(), copy, loaded):
            play(s, np.random.default_rng(11), decisions=300)
            ends.append(s.to_json())
        assert ends[0] == ends[1] == ends[2]


def test_a_clone_is_independent():
    st = position(n=2)
    copy = st.clone()
    st.apply(st.game.layout.index("draw"))
    assert copy.piles != st.piles and len(copy.piles[0]) == 20


def _digest(n, seed):
    st = Game(n).new_initial_state(seed)
    play(st, np.random.default_rng(seed))
    return st.to_json()


def test_determinism_same_seed_same_game_across_processes():
    here = _digest(2, 5)
    assert _digest(2, 5) == here
    code = ("import numpy as np, sys; sys.path.insert(0, 'tests/cave_troll');"
            "from test_cave_troll_engine_protocol import _digest; print(_digest(2, 5))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()
    assert out == here


def test_determinize_resamples_only_what_the_player_cannot_see():
    st = position(n=3)
    put(st, 1, Kind.EXPLORER, "R12")
    st.art_at[0], st.art_at[1], st.art_at[2] = 0, 1, 2
    st.stack = [i for i, a in enumerate(st.art_at) if a == STACK]
    st.invalidate_caches()
    seen_piles, seen_hands = set(), set()
    for k in range(20):
        d = st.determinize(0, np.random.default_rng(k))
        check(d)
        assert d.loc == st.loc and d.score == st.score and d.art_at[0] == 0  # the board, scores, own artifact
        assert [sorted(p) for p in d.piles] == [sorted(p) for p in st.piles]
        assert [d.art_at.count(s) for s in (1, 2, STACK)] == [1, 1, 3]
        assert np.array_equal(d.legal_actions(), st.legal_actions())
        seen_piles.add(tuple(d.piles[0]))
        seen_hands.add(tuple(d.art_at))
    assert len(seen_piles) > 1 and len(seen_hands) > 1


def _save(st):
    return json.loads(st.to_json())


@pytest.mark.parametrize("edit, message", [
    (lambda d: d.pop("loc"), "loc: missing"),
    (lambda d: d.update(extra=1), "extra: unknown field"),
    (lambda d: d.update(pack_id="other"), "pack_id"),
    (lambda d: d.update(num_players=3), "num_players"),
    (lambda d: d.update(phase=99), "phase: 99 is outside the allowed range 0..7"),
    (lambda d: d.update(current=True), "current: expected an integer, got bool"),
    (lambda d: d["loc"].__setitem__(0, 37), "impossible state"),
    (lambda d: d["piles"][0].append(d["piles"][0][0]), "impossible state"),
    (lambda d: d["score"].__setitem__(0, 7), "score 7 is not the sum"),
    (lambda d: d.update(pending={"counter": 1}), "impossible state"),
    (lambda d: d.update(pending={"bogus": 1}), "pending: unknown key"),
    (lambda d: d.update(rng={"state": 1}), "field .rng. is not a PCG64 state"),
    (lambda d: d["loc"].pop(), "loc: expected 40 entries"),
])
def test_saves_refuse_impossible_or_corrupt_states(edit, message):
    st = Game(2).new_initial_state(1)
    data = _save(st)
    edit(data)
    with pytest.raises(StateError, match=message.replace("(", r"\(")):
        st.game.state_from_json(data)
    with pytest.raises(StateError, match="not valid JSON"):
        st.game.state_from_json(st.to_json()[:-5])


def test_mutated_saves_are_refused_or_play_on_with_every_invariant():
    """One field of a mid-game save (every phase) changed to a value in its range: the reader refuses it,
    or the state it accepts plays on legally with the invariants after every decision."""
    from mk_env.cave_troll.rules.fields import FIELDS, INT, INTS, PENDING
    g, rng = Game(3), np.random.default_rng(1)
    st, saves = g.new_initial_state(2), []
    while not st.is_terminal():
        st.apply(int(rng.choice(st.legal_actions())))
        if st.phase or rng.random() < 0.05:
            saves.append(st.to_dict())
    accepted = 0
    for _ in range(600):
        data = json.loads(json.dumps(saves[rng.integers(len(saves))]))
        f = FIELDS[rng.integers(len(FIELDS))]
        lo, hi = f.values(g)
        value = int(rng.integers(lo, min(hi, 500) + 1))
        if f.kind == INT:
            data[f.name] = value
        elif f.kind == PENDING:
            data["pending"][("counter", "room", "steps_left")[rng.integers(3)]] = value
        else:
            entries = data[f.name] if f.kind == INTS else data[f.name][rng.integers(g.num_players)]
            if not entries:
                continue
            entries[rng.integers(len(entries))] = value
        try:
            loaded = g.state_from_json(data)
        except StateError:
            continue
        accepted += 1
        play(loaded, rng, decisions=20, each=check)
    assert accepted > 100
