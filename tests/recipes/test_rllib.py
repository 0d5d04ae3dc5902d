"""Ray: RLlib self-play smoke test and the Ray job backend of tournaments (needs the [rllib] extra).

Ray pins its own gymnasium, so these run in a virtual environment of their own, beside the RLlib
recipe of docs/ecosystem.md: ``bash tests/recipes/run_in_venv.sh rllib`` (CI runs it).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

ray = pytest.importorskip("ray", reason="Ray is not installed: pip install 'mk-env[rllib]' "
                                        "(in its own virtual environment, see docs/training.md)")


def _square(x: int) -> int:
    return x * x


def _game_summary(job: dict) -> dict:
    from training.tournament import play_game
    return play_game(job["agents"], job["seed"])


@pytest.fixture(scope="module")
def local_ray():
    # workers import this test module's functions: put the tests folder on their path
    here = str(Path(__file__).resolve().parent)
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False,
             runtime_env={"env_vars": {"PYTHONPATH": here}})
    yield ray
    ray.shutdown()


def test_run_jobs_ray_matches_a_local_map_in_job_order(local_ray):
    from training.ray_backend import iter_jobs_ray, run_jobs_ray
    jobs = list(range(20))[::-1]
    assert run_jobs_ray(_square, jobs) == [_square(j) for j in jobs]
    assert sorted(iter_jobs_ray(_square, jobs)) == list(enumerate(map(_square, jobs)))
    assert run_jobs_ray(_square, []) == []


def test_tournament_games_on_ray_equal_the_local_games(local_ray):
    from training.ray_backend import run_jobs_ray
    from training.tournament import schedule
    jobs = schedule(["random", "heuristic"], 2, 4, seed=3)
    remote = run_jobs_ray(_game_summary, jobs)
    local = [_game_summary(j) for j in jobs]
    drop = lambda g: {k: v for k, v in g.items() if k != "seconds"}  # noqa: E731
    assert [drop(g) for g in remote] == [drop(g) for g in local]


def test_tournament_backend_ray_gives_the_local_results(local_ray, tmp_path):
    from training.tournament import run_tournament
    args = dict(agents=["random", "heuristic"], players=2, games=4, seed=5, progress=False, charts=False)
    ray_run = run_tournament(out=tmp_path / "ray", backend="ray", **args)
    local = run_tournament(out=tmp_path / "local", workers=1, **args)
    drop = lambda gs: [{k: v for k, v in g.items() if k != "seconds"} for g in gs]  # noqa: E731
    assert drop(ray_run["games"]) == drop(local["games"])
    assert ray_run["agents"] == local["agents"]


def test_flat_masked_env_serves_rllib_observations():
    from training.rllib_train import make_rllib_env
    env = make_rllib_env({"num_players": 2})
    obs, _ = env.reset(seed=1)
    (agent, o), = obs.items()
    assert set(o) == {"observations", "action_mask"}
    assert o["observations"].dtype == np.float32 and o["action_mask"].dtype == np.float32
    assert env.observation_space[agent]["observations"].contains(o["observations"])
    assert o["action_mask"].sum() >= 1


def test_rllib_self_play_runs_two_iterations_on_local_ray(tmp_path):
    from training.rllib_train import train_rllib
    result = train_rllib(players=2, iterations=2, out=tmp_path, train_batch=256, minibatch=64,
                         epochs=1, sync_every=1, hidden=(32,))
    assert result["iterations"] == 2
    assert result["history"][-1]["env_steps"] >= 2 * 256
    assert (tmp_path / "checkpoint").is_dir()
