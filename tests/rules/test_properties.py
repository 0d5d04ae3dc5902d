"""Property-based tests (hypothesis): over seeds, player counts 2-5 and game options, random legal play
interleaved with illegal attempts. Every illegal attempt gets a clear error and leaves the state
byte-identical (``to_json()`` before == after); every invariant holds after every legal decision.

Engine level first (mk_env.rules), then the PettingZoo env (mk_env.env), skipped if it is absent.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mk_env.invariants import check_invariants, check_step, component_totals
from mk_env.mountain_king.rules import Game, GameState, IllegalActionError

PROPERTY_SETTINGS = settings(max_examples=25, deadline=None, derandomize=True,
                             suppress_health_check=[HealthCheck.too_slow])


@st.composite
def game_options(draw) -> dict:
    """Valid options for Game(**options): every player count, side, workshop selection, team mode."""
    n = draw(st.integers(2, 5))
    options: dict = {"num_players": n}
    if n == 2:
        options["board_side"] = draw(st.sampled_from(["winter", "autumn"]))
    options["workshops"] = draw(st.sampled_from(["random", "no_duplicates"]))
    if n == 4:
        options["team_mode"] = draw(st.booleans())
    return options


#: kinds of illegal attempts and a strategy for each
WRONG_TYPES = ["3", 3.0, None, [0], (0,), True, np.float64(1.0), b"0", {"action": 0}]


def _illegal_attempts(state: GameState, rng: np.random.Generator) -> list[object]:
    """A few illegal actions of every kind for this state: masked-out indices (one in each of six random
    blocks where possible), out-of-range numbers, a wrong type."""
    layout = state.game.layout
    mask = state.legal_mask()
    out: list[object] = []
    for block in rng.choice(layout.BLOCKS, size=6, replace=False):
        lo, size = layout.offset[block], layout.sizes[block]
        illegal = np.flatnonzero(mask[lo:lo + size] == 0)
        if len(illegal):
            out.append(np.int64(lo + illegal[rng.integers(len(illegal))]))
    out += [-1, layout.size, layout.size + 17, 2**40, -(2**63)]
    out.append(WRONG_TYPES[rng.integers(len(WRONG_TYPES))])
    return out


def _assert_refused(state: GameState, action: object) -> None:
    before = state.to_json()
    legal_before = state.legal_actions().copy()
    with pytest.raises(IllegalActionError) as err:
        state.apply(action)  # type: ignore[arg-type]
    message = str(err.value)
    assert message and ("allowed" in message.lower() or "must be an int" in message
                        or "outside the action space" in message or "game is over" in message), message
    assert state.to_json() == before, f"state changed by the illegal action {action!r}"
    assert np.array_equal(state.legal_actions(), legal_before)


@settings(max_examples=12, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(options=game_options(), seed=st.integers(0, 2**31 - 1), illegal_rate=st.floats(0.02, 0.3),
       no_trade=st.booleans())
def test_random_play_with_illegal_attempts_never_corrupts_the_state(options: dict, seed: int,
                                                                     illegal_rate: float, no_trade: bool) -> None:
    game = Game(**options)
    state = game.new_initial_state(seed)
    rng = np.random.default_rng(seed)
    baseline = component_totals(state)
    lo, hi = game.layout.offset["trade"], game.layout.offset["trade"] + game.layout.sizes["trade"]
    while not state.is_terminal():
        if rng.random() < illegal_rate:
            for action in _illegal_attempts(state, rng):
                _assert_refused(state, action)
        legal = state.legal_actions()
        if no_trade:
            keep = legal[((legal < lo) | (legal >= hi)) & (legal != 0)]
            legal = keep if len(keep) else legal
        before = state.clone()
        state.apply(legal[rng.integers(len(legal))])  # a numpy int is a fine action
        check_invariants(state, baseline)
        check_step(before, state)
    # stepping a finished game
    assert state.current_player() == -1 and len(state.legal_actions()) == 0
    for action in (0, 1, game.layout.size - 1):
        _assert_refused(state, action)


@PROPERTY_SETTINGS
@given(options=game_options(), seed=st.integers(0, 2**31 - 1), steps=st.integers(0, 120))
def test_legal_actions_mask_and_json_agree_at_any_point(options: dict, seed: int, steps: int) -> None:
    game = Game(**options)
    state = game.new_initial_state(seed)
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        if state.is_terminal():
            break
        legal = state.legal_actions()
        state.apply(int(legal[rng.integers(len(legal))]))
    legal = state.legal_actions()
    assert np.array_equal(np.flatnonzero(state.legal_mask()), legal)
    assert all(state.is_legal(int(a)) for a in legal[:20])
    assert game.state_from_json(state.to_json()).to_json() == state.to_json()
    assert state.clone().to_json() == state.to_json()
    for a in legal[:5]:
        assert isinstance(game.layout.describe(int(a)), str)


@PROPERTY_SETTINGS
@given(seed=st.integers(0, 2**31 - 1), players=st.integers(2, 5))
def test_an_illegal_message_names_the_action_the_reason_and_what_is_allowed(seed: int, players: int) -> None:
    game = Game(num_players=players)
    state = game.new_initial_state(seed)
    rng = np.random.default_rng(seed)
    for _ in range(int(rng.integers(0, 60))):
        if state.is_terminal():
            break
        legal = state.legal_actions()
        state.apply(int(legal[rng.integers(len(legal))]))
    if state.is_terminal():
        return
    illegal = np.flatnonzero(state.legal_mask() == 0)
    a = int(illegal[rng.integers(len(illegal))])
    with pytest.raises(IllegalActionError, match=rf"illegal action {a} .* for player {state.current} in phase "
                                                 rf"{state.decision_kind()}: .*Allowed now: \d+ actions"):
        state.apply(a)


# ================================================================================================
# the PettingZoo environment
# ================================================================================================
@pytest.fixture(scope="module")
def env_module():
    return pytest.importorskip("mk_env.mountain_king.env", reason="the PettingZoo env (mk_env/mountain_king/env) is not there yet")


@settings(max_examples=10, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(options=game_options(), seed=st.integers(0, 2**31 - 1))
def test_strict_raw_env_refuses_illegal_actions_without_change(env_module, options: dict, seed: int) -> None:
    e = env_module.raw_env(strict=True, **options)
    e.reset(seed=seed)
    rng = np.random.default_rng(seed)
    while e.agents and not all(e.terminations.values()):
        agent = e.agent_selection
        mask = e.observe(agent)["action_mask"]
        for other in e.agents:  # acting out of turn: nobody else has a legal action
            if other != agent:
                assert not e.observe(other)["action_mask"].any()
        if rng.random() < 0.2:
            before = e.game_state.to_json()
            for action in _illegal_attempts(e.game_state, rng)[:4]:
                with pytest.raises(IllegalActionError):
                    e.step(action)
                assert e.game_state.to_json() == before and e.agent_selection == agent
        legal = np.flatnonzero(mask)
        e.step(int(legal[rng.integers(len(legal))]))
    assert all(e.terminations.values())


@settings(max_examples=10, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(options=game_options(), seed=st.integers(0, 2**31 - 1), when=st.integers(0, 80))
def test_env_illegal_action_ends_the_game_for_the_offender(env_module, options: dict, seed: int, when: int) -> None:
    """env(): an out-of-range action trips PettingZoo's bounds assertion (state unchanged); a masked-out
    action ends the game: the offender gets -1, the others 0, infos say what happened."""
    e = env_module.env(**options)
    e.reset(seed=seed)
    rng = np.random.default_rng(seed)
    for _ in range(when):
        mask = e.observe(e.agent_selection)["action_mask"]
        legal = np.flatnonzero(mask)
        e.step(int(legal[rng.integers(len(legal))]))
        if all(e.terminations.values()):
            return
    agent = e.agent_selection
    raw = e.unwrapped
    before = raw.game_state.to_json()
    with pytest.raises(AssertionError):
        e.step(raw.game.layout.size + 3)
    assert raw.game_state.to_json() == before
    mask = e.observe(agent)["action_mask"]
    bad = int(np.flatnonzero(mask == 0)[0])
    e.step(bad)
    assert raw.game_state.to_json() == before  # the engine state is untouched: the game ends by forfeit
    assert all(e.terminations.values())
    assert e.rewards[agent] == -1.0 and all(e.rewards[a] == 0.0 for a in e.agents if a != agent)
    report = e.infos[agent]["illegal_action"]
    assert report["agent"] == agent and report["action"] == bad and "illegal action" in report["message"]
    # stepping the finished game: only None is accepted (PettingZoo's dead-step rule)
    with pytest.raises(ValueError):
        e.step(0)
    while e.agents:
        e.step(None)
