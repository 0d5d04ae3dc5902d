"""The engine's fast "only pass" test equals the full legal set's answer, and each applied decision
builds the legal set of the state the agent then faces at most once: where pass is allowed, only when it
is asked for (a lookahead's leaves are evaluated, never asked)."""


from __future__ import annotations

import collections

import numpy as np
import pytest

from mk_env.mountain_king.rules import Game, PHASE_NAMES
from mk_env.mountain_king.rules import legal, turn
from mk_env.mountain_king.rules.content import RESOURCES
from mk_env.mountain_king.rules.vocabulary import PASS_PHASES, Phase

#: the Python engine's own memos and representation (the compiled engine's parity: tests/native/)
pytestmark = pytest.mark.usefixtures("python_engine")

STEP1, STEP2, STEP3, STEP4 = Phase.STEP1, Phase.STEP2, Phase.STEP3, Phase.STEP4


def _pick(st, legal_now: np.ndarray, rng: np.random.Generator) -> int:
    """A random legal action, trades only now and then (random play is otherwise mostly trades)."""
    trade = st.game.layout.offset["trade"], st.game.layout.offset["trade"] + st.game.layout.sizes["trade"]
    other = legal_now[(legal_now < trade[0]) | (legal_now >= trade[1])]
    if len(other) and rng.random() < 0.8:
        return int(other[rng.integers(len(other))])
    return int(legal_now[rng.integers(len(legal_now))])


def _check_states(game: Game, seed: int, decisions: int, seen: collections.Counter) -> None:
    """Walk a random game one raw decision at a time (forced passes included, never auto-applied)
    and compare, on a cache-free copy of each state, the fast test with the full legal set."""
    rng = np.random.default_rng(seed)
    st = game.new_initial_state(seed)
    for _ in range(decisions):
        if st.is_terminal():
            break
        if st.phase in (STEP1, STEP3, STEP4) and rng.random() < 0.05:  # a direct edit, as tests do
            s = game.storage_of[st.current]
            st.storage[s] = rng.integers(0, 3, len(RESOURCES)) if rng.random() < 0.5 else 0
            st.tokens[st.current] = 0
            st.invalidate_caches()
        fresh = st.clone()
        fresh.invalidate_caches()
        full = legal._legal(fresh)
        expected = bool(len(full) == 1 and full[0] == 0)
        fast = st.clone()
        fast.invalidate_caches()
        assert legal.only_pass(fast) == expected, (seed, PHASE_NAMES[st.phase], list(full[:5]))
        assert legal.only_pass(st) == expected  # with whatever the state has memoised
        forced = st.clone()
        forced.invalidate_caches()
        assert legal.pass_is_forced(forced) == expected
        if "legal" in forced._cache:  # a set built on the way (where pass is not allowed) is the full one
            assert np.array_equal(forced._cache["legal"], full)
        assert np.array_equal(forced.legal_actions(), full)
        seen[(PHASE_NAMES[st.phase], expected)] += 1
        turn._dispatch(st, _pick(st, full, rng))


@pytest.mark.parametrize("players,team", [(2, False), (3, False), (4, False), (5, False), (4, True)])
def test_only_pass_equals_full_legal_set(players, team):
    game = Game(players, team_mode=team)
    seen: collections.Counter = collections.Counter()
    for seed in range(6):
        _check_states(game, 100 * players + seed, 700, seen)
    for ph in (STEP1, STEP3, STEP4):  # the common forced passes were met, both ways
        assert seen[(PHASE_NAMES[ph], True)] > 0
        assert seen[(PHASE_NAMES[ph], False)] > 0
    assert seen[(PHASE_NAMES[STEP2], False)] > 0


def test_only_pass_is_false_where_pass_is_never_alone():
    game = Game(3)
    st = game.new_initial_state(5)
    assert st.phase not in PASS_PHASES
    assert not legal.only_pass(st)  # setup: a gate must be chosen


def test_only_pass_trusts_the_cached_legal_set():
    game = Game(4)
    st = game.new_initial_state(0)
    st._cache["legal"] = np.array([0], np.int64)
    assert legal.only_pass(st) == (st.phase in PASS_PHASES or st.phase == STEP2)


def test_each_decision_builds_the_next_legal_set_once_and_only_when_asked(monkeypatch):
    calls = []
    real = legal._legal

    def counting(st):
        calls.append(st.phase)
        return real(st)

    monkeypatch.setattr(legal, "_legal", counting)
    game = Game(4)
    rng = np.random.default_rng(7)
    st = game.new_initial_state(7)
    asked_later = 0
    for _ in range(2000):
        if st.is_terminal():
            break
        legal_now = st.legal_actions()
        calls.clear()
        st.apply(_pick(st, legal_now, rng))
        if st.is_terminal():
            assert calls == []
            break
        # while applying, only step 2 (to learn whether its pass is forced) and the phases without pass
        # build sets; where pass is allowed the forced-pass test builds nothing
        assert all(ph not in PASS_PHASES for ph in calls), calls
        faced = calls[-1:] == [st.phase] and "legal" in st._cache  # the decision faced: built already
        asked_later += not faced
        before = len(calls)
        st.legal_actions()
        st.legal_mask()
        assert len(calls) == before + (not faced) and calls[-1] == st.phase  # built once, then reused
    assert asked_later > 100  # most decisions' sets were built only when asked
