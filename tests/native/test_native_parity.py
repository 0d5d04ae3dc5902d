"""The compiled engine plays the reference's games (issue 51, "the same game from the same seed"): random games
compared decision by decision (legal sets, the whole state, observations, returns and scores), games of the
heuristic (its look-ahead clones and applies), determinizations, saves read by the other backend, the same
refusal of an illegal action, clones, pickles and the backend option's errors."""

from __future__ import annotations

import pickle

import numpy as np
import pytest

from mk_env.core.errors import ConfigError
from mk_env.mountain_king.env.observation import Observer
from mk_env.mountain_king.rules import ActionTypeError, Game, IllegalActionError
from mk_env.mountain_king.rules.native import NativeGameState
from tests.rules_helpers import random_action

pytest.importorskip("mk_env.mountain_king.rules._native", reason="the compiled engine is not built")

#: (options, seeds): every player count, team play, the other board side, both workshop selections
TABLES = [({"num_players": 2}, range(0, 40)), ({"num_players": 3}, range(40, 70)),
          ({"num_players": 4}, range(70, 95)), ({"num_players": 5}, range(95, 115)),
          ({"num_players": 4, "team_mode": True}, range(115, 135)),
          ({"num_players": 3, "board_side": "autumn"}, range(135, 155)),
          ({"num_players": 2, "workshops": "no_duplicates"}, range(155, 170))]


def pair(options: dict, seed: int):
    """The same new game on both backends."""
    return (Game(**options, backend="python").new_initial_state(seed),
            Game(**options, backend="native").new_initial_state(seed))


@pytest.mark.parametrize("options,seeds", TABLES, ids=lambda x: str(x) if isinstance(x, dict) else "")
def test_random_games_match_decision_by_decision(options, seeds):
    phases = set()
    for seed in seeds:
        ref, nat = pair(options, seed)
        observer = Observer(ref.game)
        layout = ref.game.layout
        trade = layout.offset["trade"], layout.offset["trade"] + layout.sizes["trade"]
        rng = np.random.default_rng(seed)
        step = 0
        while True:
            assert np.array_equal(ref.legal_actions(), nat.legal_actions()), (seed, step, ref.decision_kind())
            assert ref.to_dict() == nat.to_dict(), (seed, step)
            phases.add(ref.decision_kind())
            if step % 25 == 0:
                p = max(ref.current_player(), 0)
                a, b = observer.encode(ref, p), observer.encode(nat, p)
                assert all(np.array_equal(a[k], b[k]) for k in a), (seed, step)
            if ref.is_terminal():
                break
            action = random_action(rng, ref.legal_actions(), trade)
            ref.apply(action)
            nat.apply(action)
            step += 1
        assert ref.returns() == nat.returns() and ref.ranks() == nat.ranks()
        for p in range(ref.num_players):
            assert ref.score_breakdown(p) == nat.score_breakdown(p)
    assert len(phases) >= 12, sorted(phases)


@pytest.mark.parametrize("players,seed", [(2, 3), (3, 4)])
def test_heuristic_games_match(players, seed):
    """The heuristic's look-ahead clones and applies; both backends give it the same positions."""
    from agents import make_agent
    from mk_env.core.view import PlayerView
    games = []
    for backend in ("python", "native"):
        st = Game(players, backend=backend).new_initial_state(seed)
        agents = [make_agent("heuristic") for _ in range(players)]
        for k, agent in enumerate(agents):
            agent.reset(k, players)
        rng = np.random.default_rng(seed)
        actions = []
        while not st.is_terminal() and len(actions) < 250:
            p = st.current_player()
            a = int(agents[p].act(PlayerView(st, p), rng))
            actions.append(a)
            st.apply(a)
        games.append((actions, st.to_dict()))
    assert games[0] == games[1]


def positions(options: dict, seed: int, every: int = 7):
    """Both backends along one random game, every ``every`` decisions."""
    ref, nat = pair(options, seed)
    rng = np.random.default_rng(seed)
    layout = ref.game.layout
    trade = layout.offset["trade"], layout.offset["trade"] + layout.sizes["trade"]
    step = 0
    while not ref.is_terminal():
        if step % every == 0:
            yield ref, nat
        action = random_action(rng, ref.legal_actions(), trade)
        ref.apply(action)
        nat.apply(action)
        step += 1
    yield ref, nat


@pytest.mark.parametrize("options", [{"num_players": 2}, {"num_players": 5}, {"num_players": 4, "team_mode": True}])
def test_determinize_is_equal(options):
    for k, (ref, nat) in enumerate(positions(options, 7)):
        seat = k % ref.num_players
        g1, g2 = np.random.default_rng(k), np.random.default_rng(k)
        a, b = ref.determinize(seat, g1), nat.determinize(seat, g2)
        assert isinstance(b, NativeGameState)
        assert a.to_dict() == b.to_dict()
        assert g1.bit_generator.state == g2.bit_generator.state
        if not a.is_terminal():  # the resampled futures agree too
            action = int(a.legal_actions()[-1])
            a.apply(action)
            b.apply(action)
            assert a.to_dict() == b.to_dict()


def test_saves_load_in_the_other_backend():
    for ref, nat in positions({"num_players": 3}, 11, every=13):
        from_ref = nat.game.state_from_json(ref.to_json())
        from_nat = ref.game.state_from_json(nat.to_json())
        assert isinstance(from_ref, NativeGameState) and not isinstance(from_nat, NativeGameState)
        assert from_ref.to_dict() == ref.to_dict() == from_nat.to_dict()
        assert np.array_equal(from_ref.legal_actions(), ref.legal_actions())


def test_illegal_actions_are_refused_alike_and_change_nothing():
    rng = np.random.default_rng(0)
    checked = 0
    for ref, nat in positions({"num_players": 4}, 5, every=5):
        size = ref.game.layout.size
        legal = set(ref.legal_actions().tolist())
        tries = [int(x) for x in rng.integers(size, size=6) if int(x) not in legal] + [size, -1, size + 7]
        for a in tries:
            before = nat.to_json()
            with pytest.raises(IllegalActionError) as e_ref:
                ref.apply(a)
            with pytest.raises(IllegalActionError) as e_nat:
                nat.apply(a)
            assert str(e_ref.value) == str(e_nat.value)
            assert nat.to_json() == before
            checked += 1
        for bad in (1.5, "3", None, np.array([1, 2])):
            with pytest.raises(ActionTypeError):
                nat.apply(bad)
    assert checked > 50


def test_clones_are_independent_and_pickle():
    for ref, nat in positions({"num_players": 2}, 3, every=11):
        if nat.is_terminal():
            break
        copy = nat.clone()
        before = nat.to_json()
        copy.apply(int(copy.legal_actions()[0]))
        assert nat.to_json() == before
        copy.supply[0] += 1  # a field written through its view changes the copy only
        assert nat.to_json() == before
        back = pickle.loads(pickle.dumps(nat))
        assert isinstance(back, NativeGameState) and back.to_json() == before


def test_backend_option():
    assert Game(2, backend="python").backend == "python"
    assert Game(2).backend == "native"
    assert Game(2, payment="choose").backend == "python"  # not compiled yet: the reference plays
    with pytest.raises(ConfigError, match="payment option"):
        Game(2, payment="choose", backend="native")
    with pytest.raises(ConfigError, match="backend='gpu' is not allowed"):
        Game(2, backend="gpu")


def test_a_game_pickled_on_the_compiled_engine_loads_where_there_is_none(monkeypatch):
    from mk_env.mountain_king.rules import native
    blob = pickle.dumps(Game(2, backend="native"))
    monkeypatch.setattr(native, "MISSING", "the compiled engine is not built (test)")
    monkeypatch.setattr(native, "_noticed", False)
    with pytest.warns(UserWarning, match="not built"):
        game = pickle.loads(blob)
    assert game.backend == "python"
    assert type(game.new_initial_state(0)).__name__ == "GameState"


@pytest.mark.parametrize("factory", ["env", "raw_env", "single_seat_env"])
def test_env_factories_take_the_backend(factory):
    import mk_env
    from mk_env.mountain_king import env as env_package
    make = getattr(mk_env, factory, None) or getattr(env_package, factory)
    for backend, kind in (("python", "GameState"), ("native", "NativeGameState")):
        e = make(num_players=2, backend=backend)
        e.reset(seed=0)
        inner = getattr(e.unwrapped, "aec", e.unwrapped)  # the single-seat view holds its AEC env
        assert type(inner.game_state).__name__ == kind
    with pytest.raises(ConfigError, match="backend='gpu' is not allowed"):
        make(num_players=2, backend="gpu")
