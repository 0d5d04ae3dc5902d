"""Training that is interrupted: Ctrl-C/SIGTERM and dead env workers save a checkpoint at the end of
the last completed rollout and stop cleanly; ``--resume`` continues with nothing doubled.

Tiny runs: rollouts of 128 steps (2 envs x 64), evaluations of one game against random.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("sb3_contrib", reason="training needs the [train] extra (sb3-contrib)")

import torch  # noqa: E402
from stable_baselines3.common.callbacks import BaseCallback  # noqa: E402

from agents.policy_file import read_config  # noqa: E402
from training.run_files import append_eval, checkpoints, read_eval  # noqa: E402
from training.stopping import TrainingStopped, close_vec_env, dead_workers  # noqa: E402
from training.train import train  # noqa: E402

torch.set_num_threads(1)
ROLLOUT = 128
TINY = dict(players=2, envs=2, vec="dummy", n_steps=ROLLOUT // 2, batch_size=64, n_epochs=1,
            snapshot_every=ROLLOUT, checkpoint_every=10_000, eval_every=ROLLOUT, eval_games=1,
            gauntlet=("random",), opponents="random:1,latest:1", tensorboard=False)


class SignalAt(BaseCallback):
    """Sends ``signum`` to ``pid`` (this process by default) once training reaches ``step``."""

    def __init__(self, step: int, signum: int = signal.SIGINT, pid: int | None = None,
                 worker: int | None = None):
        super().__init__()
        self.step, self.signum, self.pid, self.worker, self.sent_at = step, signum, pid, worker, None

    def _on_step(self) -> bool:
        if self.sent_at is None and self.num_timesteps >= self.step:
            pid = self.training_env.processes[self.worker].pid if self.worker is not None else self.pid
            os.kill(pid or os.getpid(), self.signum)
            self.sent_at = self.num_timesteps
        return True


def steps(path: Path) -> int:
    return read_config(path)["num_timesteps"]


def assert_strictly_increasing(out: Path) -> list[int]:
    rows = read_eval(out)
    by_opponent: dict[str, list[int]] = {}
    for r in rows:
        by_opponent.setdefault(r["opponent"], []).append(int(r["timesteps"]))
    for seq in by_opponent.values():
        assert all(a < b for a, b in zip(seq, seq[1:])), seq
    return by_opponent["random"]


def test_ctrl_c_saves_the_last_completed_rollout_and_resume_continues_the_curve(tmp_path):
    out = tmp_path / "run"
    before = signal.getsignal(signal.SIGINT)  # Python's default, or SIG_IGN under a background job's shell
    sigint = SignalAt(ROLLOUT + 40)  # in the middle of the second rollout
    with pytest.raises(TrainingStopped, match=r"SIGINT at step \d+: saved .*model_128\.safetensors "
                                              r"\(step 128, the last completed rollout\)") as stopped:
        train(out, timesteps=4 * ROLLOUT, callbacks=[sigint], **TINY)
    assert stopped.value.exit_code == 130
    assert signal.getsignal(signal.SIGINT) == before  # handlers given back
    assert [steps(p) for p in checkpoints(out)] == [ROLLOUT]
    assert sigint.sent_at - ROLLOUT < ROLLOUT  # lost: only the steps of the rollout in progress
    assert assert_strictly_increasing(out) == [0, ROLLOUT]
    assert not (out / "final_model.safetensors").exists()
    # a harder stop (SIGKILL) would leave evaluations past the checkpoint: they are redone, not doubled
    append_eval(out, [{"timesteps": 2 * ROLLOUT, "seconds": 1.0, "opponent": "random", "games": 1,
                       "wins": 0, "win_rate": 0.0, "mean_honour": 0.0, "opponent_mean_honour": 0.0}])
    final = train(out, timesteps=4 * ROLLOUT, resume=True)
    assert steps(final) == 4 * ROLLOUT
    assert assert_strictly_increasing(out) == [0, ROLLOUT, 2 * ROLLOUT, 3 * ROLLOUT, 4 * ROLLOUT]
    assert read_config(final)["training"]["settings"]["eval_games"] == 1  # the run's own settings


def test_sigterm_from_outside_stops_the_command_with_a_checkpoint_and_one_line(tmp_path):
    out = tmp_path / "run"
    args = [sys.executable, "-m", "training.cli", "train", "--out", str(out), "--timesteps", "100000",
            "--envs", "2", "--n-steps", "64", "--batch-size", "64", "--n-epochs", "1",
            "--checkpoint-every", str(ROLLOUT), "--eval-every", "0", "--snapshot-every", "0",
            "--opponents", "random:1"]
    root = Path(__file__).resolve().parents[2]
    proc = subprocess.Popen(args, cwd=root, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "PYTHONPATH": str(root)})
    try:
        for line in proc.stdout:
            if line.startswith("[checkpoint]"):  # the first rollout is done
                proc.send_signal(signal.SIGTERM)
                break
        rest, err = proc.communicate(timeout=120)
    finally:
        proc.kill()
    assert proc.returncode == 143, err
    assert "Traceback" not in err
    stopped = [line for line in rest.splitlines() if line.startswith("stopped:")]
    assert len(stopped) == 1 and "SIGTERM at step" in stopped[0] and "--resume" in stopped[0]
    saved = steps(checkpoints(out)[-1])
    assert saved >= ROLLOUT and saved % ROLLOUT == 0


def test_a_dead_env_worker_stops_training_with_a_checkpoint_and_resume_finishes(tmp_path):
    out = tmp_path / "run"
    kill = SignalAt(ROLLOUT + 20, signal.SIGKILL, worker=1)
    settings = {**TINY, "vec": "subproc", "eval_every": 0, "snapshot_every": 0}
    with pytest.raises(TrainingStopped, match=r"env worker 1 \(pid \d+\) killed by SIGKILL at step "
                                              r"\d+: saved .*model_128\.safetensors") as stopped:
        train(out, timesteps=3 * ROLLOUT, callbacks=[kill], **settings)
    assert stopped.value.exit_code == 1
    assert [steps(p) for p in checkpoints(out)] == [ROLLOUT]
    final = train(out, timesteps=3 * ROLLOUT, resume=True, vec="dummy")  # the change is applied
    assert steps(final) == 3 * ROLLOUT


def test_dead_workers_names_the_worker_and_close_survives_it():
    import gymnasium
    from stable_baselines3.common.vec_env import SubprocVecEnv
    venv = SubprocVecEnv([lambda: gymnasium.make("CartPole-v1")] * 2)
    try:
        assert dead_workers(venv) == []
        os.kill(venv.processes[0].pid, signal.SIGKILL)
        dead = dead_workers(venv, wait=5.0)
        assert dead == [f"env worker 0 (pid {venv.processes[0].pid}) killed by SIGKILL"]
    finally:
        close_vec_env(venv)
    assert venv.closed and not any(p.is_alive() for p in venv.processes)


def test_a_zip_checkpoint_of_an_older_version_resumes_only_with_trust(tmp_path):
    """A run of an older mk_env (SB3 zip checkpoints, settings in config.json) continues with
    ``--trust`` and from then on writes safe files."""
    import json

    from sb3_contrib import MaskablePPO

    from agents.networks import FlatExtractor
    from training.train import make_vec_env
    out = tmp_path / "old"
    venv = make_vec_env(2, "dummy", 0, players=2, reward="dense", opponents="random:1",
                        snapshot_dir=out / "snapshots")
    model = MaskablePPO("MultiInputPolicy", venv, n_steps=64, batch_size=64, n_epochs=1, seed=0,
                        device="cpu", policy_kwargs=dict(features_extractor_class=FlatExtractor,
                                                         features_extractor_kwargs=dict(features_dim=16),
                                                         net_arch=dict(pi=[8], vf=[8])))
    model.learn(ROLLOUT)
    (out / "checkpoints").mkdir(parents=True)
    model.save(out / "checkpoints" / f"model_{ROLLOUT}.zip")
    venv.close()
    (out / "config.json").write_text(json.dumps(dict(
        players=2, timesteps=ROLLOUT, opponents="random:1", envs=2, vec="dummy", seed=0, reward="dense",
        extractor="flat", n_steps=64, batch_size=64, n_epochs=1, learning_rate=3e-4, ent_coef=0.01,
        gamma=0.99, game_options={}, imitate=None)))
    with pytest.raises(ValueError, match="unpickles Python objects.*pass --trust to mk-env train --resume"):
        train(out, timesteps=2 * ROLLOUT, resume=True, eval_every=0)
    final = train(out, timesteps=2 * ROLLOUT, resume=True, trust=True, eval_every=0)
    config = read_config(final)
    assert config["num_timesteps"] == 2 * ROLLOUT and config["training"]["settings"]["n_steps"] == 64
    assert config["policy_kwargs"]["extractor_kwargs"] == {"features_dim": 16}
    assert checkpoints(out)[-1].suffix == ".safetensors"
