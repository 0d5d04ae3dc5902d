"""``mk-env train --algo ppo`` (training/fast_ppo_run.py): a tiny run writes what the docs list, resumes
with its own settings, stops on Ctrl-C with a checkpoint it resumes from, and its misuse is one line.

Tiny runs: 4 games, rollouts of about 64 decisions, evaluations of one game against random."""

from __future__ import annotations

import json
import os
import signal

import numpy as np
import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("safetensors")

from agents import make_agent  # noqa: E402
from agents.policy_file import read_config  # noqa: E402
from training import cli  # noqa: E402
from training.fast_ppo import FastPPO  # noqa: E402
from training.fast_ppo_run import train_fast_ppo  # noqa: E402
from training.play import run_game  # noqa: E402
from training.run_files import checkpoints, read_eval  # noqa: E402
from training.stopping import TrainingStopped  # noqa: E402

torch.set_num_threads(1)
TINY = dict(envs=4, n_steps=16, batch_size=32, n_epochs=1, snapshot_every=64, checkpoint_every=10_000,
            eval_every=128, eval_games=1, gauntlet=["random"], opponents="random:1,latest:1,snapshots:1")


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    out = tmp_path_factory.mktemp("fast_ppo")
    final = train_fast_ppo(out, timesteps=200, **TINY)
    return out, final


def test_a_tiny_run_writes_the_final_model_checkpoints_snapshots_and_evaluations(run):
    out, final = run
    config = read_config(final)
    assert config["policy"] == "FactorisedPolicy" and config["num_timesteps"] >= 200
    assert json.loads((out / "config.json").read_text())["algo"] == "ppo"
    assert checkpoints(out) and list((out / "snapshots").glob("snapshot_*.safetensors"))
    rows = read_eval(out)
    assert [int(r["timesteps"]) for r in rows][0] == 0 and rows[-1]["opponent"] == "random"
    assert (out / "learning_curve.png").is_file() and (out / "tb").is_dir()


def test_the_training_games_are_drawn_from_games_csv(run, tmp_path):
    from training.fast_ppo_run import plot_training_games
    out, _ = run
    assert plot_training_games(out, "random", bin_steps=50, png=tmp_path / "g.png").stat().st_size > 1000
    with pytest.raises(ValueError, match="no training game against mcts"):
        plot_training_games(out, "mcts")


def test_the_final_model_plays_a_full_game_as_a_ppo_agent_spec(run):
    _, final = run
    actions: list[int] = []
    state = run_game([f"ppo:{final}", "random"], seed=4, actions=actions)
    assert state.is_terminal() and len(actions) > 50


def test_resume_continues_the_step_count_and_records_a_changed_setting(run):
    out, _ = run
    before = read_config(checkpoints(out)[-1])["num_timesteps"]
    final = train_fast_ppo(out, timesteps=before + 60, resume=True, learning_rate=1e-4)
    assert read_config(final)["num_timesteps"] >= before + 60
    resumed = json.loads((out / "config_resume.json").read_text())
    assert resumed["resumed_at"] == before
    assert resumed["changed"] == {"learning_rate": {"was": 3e-4, "now": 1e-4}}
    assert resumed["envs"] == TINY["envs"]  # the run's own settings, not the defaults
    steps = [int(r["timesteps"]) for r in read_eval(out)]
    assert steps == sorted(set(steps))
    import csv
    with open(out / "games.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    assert rows and [int(r["timesteps"]) for r in rows] == sorted(int(r["timesteps"]) for r in rows)


def test_resume_refuses_to_change_the_network_or_the_game(run):
    out, _ = run
    with pytest.raises(ValueError, match="--players"):
        train_fast_ppo(out, timesteps=10_000, resume=True, players=3)
    with pytest.raises(ValueError, match="already holds a training run"):
        train_fast_ppo(out, timesteps=10_000, **TINY)


def test_ctrl_c_saves_the_last_completed_update_and_the_run_resumes_from_it(tmp_path, monkeypatch):
    update, calls = FastPPO.update, []

    def update_then_signal(self, rollout):
        stats = update(self, rollout)
        calls.append(self.num_timesteps)
        if len(calls) == 2:
            os.kill(os.getpid(), signal.SIGINT)
        return stats

    monkeypatch.setattr(FastPPO, "update", update_then_signal)
    with pytest.raises(TrainingStopped) as stopped:
        train_fast_ppo(tmp_path, timesteps=100_000, **{**TINY, "eval_every": 0})
    assert stopped.value.exit_code == 130
    assert read_config(stopped.value.checkpoint)["num_timesteps"] == calls[1]
    monkeypatch.setattr(FastPPO, "update", update)
    final = train_fast_ppo(tmp_path, timesteps=calls[1] + 60, resume=True)
    assert read_config(final)["num_timesteps"] >= calls[1] + 60


def test_the_heuristic_in_the_pool_and_the_dense_reward_train_too(tmp_path):
    final = train_fast_ppo(tmp_path, timesteps=64, **{**TINY, "opponents": "heuristic:1", "reward": "dense",
                                                      "eval_every": 0})
    assert make_agent(f"ppo:{final}").config["training"]["settings"]["reward"] == "dense"


@pytest.mark.parametrize("argv, words", [
    (["train", "--algo", "ppo", "--vec", "subproc"], "--vec subproc: not an option of --algo ppo; it is an option of --algo maskable-ppo"),
    (["train", "--algo", "ppo", "--reward", "margin", "--gamma", "2"], "--gamma 2.0"),
    (["train", "--algo", "maskable-ppo", "--reward", "lead"], "--reward 'lead'"),
])
def test_misuse_of_algo_ppo_is_one_line_and_exit_code_2(argv, words, tmp_path, capsys):
    assert cli.main(argv + ["--out", str(tmp_path / "x"), "--timesteps", "10"]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and words in err


def test_resume_without_algo_continues_the_runs_own_algorithm(run, capsys):
    out, _ = run
    before = read_config(checkpoints(out)[-1])["num_timesteps"]
    assert cli.main(["train", "--resume", "--out", str(out), "--timesteps", str(before + 30)]) == 0
    assert "final model" in capsys.readouterr().out
    assert read_config(checkpoints(out)[-1])["policy"] == "FactorisedPolicy"


def test_collector_shares_are_even_and_merged_rollouts_keep_games_apart():
    from training.fast_ppo import Rollout
    from training.fast_ppo_workers import merge, shares
    assert shares(9, 2) == [5, 4] and shares(4, 4) == [1, 1, 1, 1]
    with pytest.raises(ValueError, match="--workers 5"):
        shares(4, 5)
    parts = []
    for games in ([0, 1, 0], [1, 0]):
        pending = Rollout(2, 1, 8, 1)
        part = Rollout(4, 1, 8, 1)
        for g in games:
            part.add(pending, np.array([g]), np.array([1.0]), np.array([False]), np.array([0.0]))
        part.finish(0.9, 0.9)
        parts.append(part)
    merged = merge(parts)
    assert merged.count == 5 and list(merged.games) == [0, 1, 0, 3, 2]
    np.testing.assert_allclose(merged.advantages, np.concatenate([p.advantages for p in parts]))


def test_two_collector_processes_train_and_a_dead_one_stops_the_run_with_a_checkpoint(tmp_path, monkeypatch):
    from training.fast_ppo_workers import Collectors
    final = train_fast_ppo(tmp_path / "ok", timesteps=100, **{**TINY, "workers": 2, "eval_every": 0})
    assert read_config(final)["num_timesteps"] >= 100
    send, update, seen = Collectors.send, FastPPO.update, []
    monkeypatch.setattr(Collectors, "send", lambda self, policy: (seen.append(self), send(self, policy))[1])

    def update_then_kill(self, rollout):
        stats = update(self, rollout)
        if self.n_updates == 1:
            os.kill(seen[-1].processes[0].pid, signal.SIGKILL)
        return stats

    monkeypatch.setattr(FastPPO, "update", update_then_kill)
    with pytest.raises(TrainingStopped, match="collector worker 1 .* killed by SIGKILL") as stopped:
        train_fast_ppo(tmp_path / "dead", timesteps=100_000, **{**TINY, "workers": 2, "eval_every": 0})
    assert stopped.value.exit_code == 1 and read_config(stopped.value.checkpoint)["num_timesteps"] > 0


def test_cave_troll_trains_with_algo_ppo_and_its_model_refuses_the_first_game(tmp_path):
    final = train_fast_ppo(tmp_path, timesteps=64, **{**TINY, "game": "cave_troll", "opponents": "random:1",
                                                      "eval_every": 0})
    assert read_config(final)["game"] == "cave_troll"
    from mk_env.games import make_game
    actions: list[int] = []
    assert run_game([f"ppo:{final}", "random"], seed=1, game=make_game("cave_troll", 2), actions=actions).is_terminal()
    with pytest.raises(ValueError, match="cave_troll"):
        run_game([f"ppo:{final}", "random"], seed=1)
