"""The batch API (issue 51, "N games stepped in one call"): the compiled batch and its Python twin write the same
arrays step for step under every reward scheme, in self-play and against random opponents; each game it plays
is the game ``Game.new_initial_state(seed + k)`` makes; illegal actions and bad options are refused with
nothing changed."""

from __future__ import annotations

import numpy as np
import pytest

from mk_env.core.errors import ConfigError, IllegalActionError
from mk_env.mountain_king.env.batch import GameBatch
from mk_env.mountain_king.env.observation import Observer
from mk_env.mountain_king.rules import Game

pytest.importorskip("mk_env.mountain_king.rules._native", reason="the compiled engine is not built")


@pytest.mark.parametrize("opponents", [None, "random"])
@pytest.mark.parametrize("reward", ["win", "margin", "dense"])
def test_the_compiled_batch_and_its_python_twin_write_the_same_arrays(opponents, reward):
    options = dict(seed=11, reward=reward, opponents=opponents)
    compiled, python = GameBatch(3, 3, **options), GameBatch(3, 3, **options, backend="python")
    assert compiled.compiled and not python.compiled
    compiled.reset(), python.reset()
    ended = 0
    for step in range(400):
        for name, a, b in zip(("observations", "masks", "rewards", "terminated", "seats", "final_points"),
                              compiled._arrays(), python._arrays()):
            assert np.array_equal(a, b), (step, name)
        actions = compiled.random_actions()
        assert np.array_equal(actions, python.random_actions())
        compiled.step(actions), python.step(actions)
        ended += int(compiled.terminated.sum())
    assert ended >= 3 and compiled.games_started == python.games_started == 3 + ended
    if opponents == "random":
        assert all(compiled.seats[i] == compiled.learner_seat(i) == python.learner_seat(i) for i in range(3))


def test_each_game_is_the_one_its_seed_makes():
    batch = GameBatch(2, 2, seed=40)
    batch.reset()
    reference = Game(2, backend="python")
    observer = Observer(reference)
    seeds = [40, 41]  # the seed of the game in each row
    moves: list[list[int]] = [[], []]
    started = 2
    checked = 0
    while checked < 4:
        actions = batch.random_actions()
        batch.step(actions)
        for i in range(2):
            moves[i].append(int(actions[i]))
            if batch.terminated[i]:
                st = reference.new_initial_state(seeds[i])
                for a in moves[i]:
                    st.apply(a)
                assert st.is_terminal()
                assert batch.final_points[i].tolist() == [st.score_breakdown(p)["total"] for p in range(2)]
                assert batch.rewards[i].tolist() == pytest.approx(st.returns())
                seeds[i], moves[i] = 40 + started, []
                started += 1
                checked += 1
                fresh = reference.new_initial_state(seeds[i])
                assert np.array_equal(batch.observations[i], observer.encode_flat(fresh, fresh.current_player()))
            else:
                assert not batch.rewards[i].any() and not batch.final_points[i].any()


def test_an_illegal_action_is_refused_and_no_game_moves():
    batch = GameBatch(3, 2, seed=3)
    batch.reset()
    for _ in range(30):
        batch.step(batch.random_actions())
    before = [batch.state(i).to_dict() for i in range(3)]
    arrays = [a.copy() for a in batch._arrays()]
    actions = batch.random_actions()
    illegal = int(np.flatnonzero(~batch.action_masks[1])[0])
    for bad, words in ((illegal, "game 1"), (batch.num_actions, "outside the action space"), (-1, "outside")):
        wrong = actions.copy()
        wrong[1] = bad
        with pytest.raises(IllegalActionError, match=words):
            batch.step(wrong)
        assert [batch.state(i).to_dict() for i in range(3)] == before
        assert all(np.array_equal(a, b) for a, b in zip(arrays, batch._arrays()))
    for bad in (actions[:2], actions.astype(float), [[0, 0, 0]]):
        with pytest.raises(IllegalActionError, match="3 integers"):
            batch.step(bad)
    batch.step(actions)  # the right ones still go through


def test_the_state_of_a_game_is_a_copy():
    batch = GameBatch(1, 2, seed=0)
    batch.reset()
    st = batch.state(0)
    st.apply(int(st.legal_actions()[0]))
    assert batch.state(0).to_dict() != st.to_dict()


@pytest.mark.parametrize("kwargs,words", [
    ({"num_games": 0}, "at least 1"), ({"num_games": 2.0}, "whole number"),
    ({"opponents": "heuristic"}, "opponents="), ({"seat": 0}, "give opponents='random'"),
    ({"seat": 2, "opponents": "random"}, "seat=2"), ({"seed": -1}, "non-negative"),
    ({"reward": "score"}, "reward="), ({"num_players": 7}, "num_players")])
def test_bad_options_are_refused(kwargs, words):
    options = {"num_games": 2, "num_players": 2, **kwargs}
    with pytest.raises((ConfigError, ValueError), match=words):
        GameBatch(options.pop("num_games"), options.pop("num_players"), **options)


def test_steps_before_reset_are_refused():
    batch = GameBatch(2, 2)
    with pytest.raises(RuntimeError, match="reset"):
        batch.step([0, 0])
    with pytest.raises(RuntimeError, match="reset"):
        batch.random_actions()


def test_reset_with_a_new_seed_starts_those_games():
    a, b = GameBatch(2, 2, seed=0), GameBatch(2, 2, seed=9)
    a.reset(seed=9), b.reset()
    assert np.array_equal(a.observations, b.observations) and a.seed == 9
    a.step(a.random_actions()), b.step(b.random_actions())
    assert np.array_equal(a.observations, b.observations)


def test_threads_stepping_one_batch_never_corrupt_it():
    import threading
    batch = GameBatch(4, 2, seed=1)
    batch.reset()
    errors: list[BaseException] = []

    def play() -> None:
        for _ in range(60):
            try:
                batch.step(batch.random_actions())
            except IllegalActionError:
                pass  # the other thread moved first: the actions went stale, and nothing changed
            except BaseException as e:  # noqa: BLE001 - anything else fails the test
                errors.append(e)

    threads = [threading.Thread(target=play) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    observer = Observer(batch.game)
    for i in range(4):
        st = batch.state(i)
        assert np.array_equal(batch.observations[i], observer.encode_flat(st, st.current_player()))
        assert np.flatnonzero(batch.action_masks[i]).tolist() == st.legal_actions().tolist()
    with pytest.raises(IndexError, match="0..3"):
        batch.state(4)


@pytest.mark.parametrize("options", [{"num_players": 4, "team_mode": True}, {"num_players": 5},
                                     {"num_players": 3, "board_side": "autumn"},
                                     {"num_players": 2, "workshops": "no_duplicates"}],
                         ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()))
@pytest.mark.parametrize("reward", ["win", "margin"])
def test_every_table_steps_alike_on_both(options, reward):
    options = dict(options)
    n = options.pop("num_players")
    compiled = GameBatch(2, n, seed=21, reward=reward, **options)
    python = GameBatch(2, n, seed=21, reward=reward, backend="python", **options)
    compiled.reset(), python.reset()
    ended = 0
    for step in range(300):
        assert all(np.array_equal(a, b) for a, b in zip(compiled._arrays(), python._arrays())), step
        actions = compiled.random_actions()
        compiled.step(actions), python.step(actions)
        ended += int(compiled.terminated.sum())
        if ended and options.get("team_mode") and reward == "win":
            done = compiled.terminated
            assert set(np.unique(compiled.rewards[done])) <= {-1.0, 0.0, 1.0}  # teams: +1 / -1, a draw 0
    assert ended >= 1


def test_a_game_the_compiled_engine_does_not_serve_batches_in_python():
    batch = GameBatch(2, 2, seed=0, payment="choose")
    assert not batch.compiled
    batch.reset()
    for _ in range(20):
        batch.step(batch.random_actions())
    st = batch.state(0)
    assert np.array_equal(batch.observations[0], batch.observer.encode_flat(st, st.current_player()))
