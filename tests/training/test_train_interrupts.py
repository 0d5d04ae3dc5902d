"""Ctrl-C where the trainers' own stop handling does not reach (a warm start, a setup) ends ``mk-env train`` in
one line saying what stands: the run's last checkpoint and how to continue from it, or that nothing of the run
was saved, exit code 130; for every algorithm with a warm start."""

from __future__ import annotations

from pathlib import Path

import pytest

import training.az.run as az_run
import training.fast_ppo_run as fast_ppo_run
import training.train as sb3_train
from training import train_cli
from training.cli import main


def interrupt(*args, **kwargs):
    raise KeyboardInterrupt


@pytest.mark.parametrize("module, name, argv", [
    (sb3_train, "imitate", ["--imitate", "heuristic:50", "--n-steps", "32", "--envs", "1", "--vec", "dummy"]),
    (fast_ppo_run, "imitate", ["--algo", "ppo", "--imitate", "heuristic:50", "--envs", "2"]),
    (az_run, "warm_positions", ["--algo", "az", "--az-warm-agent", "heuristic", "--az-warm-games", "1"]),
], ids=["maskable-ppo", "ppo", "az"])
def test_ctrl_c_in_the_warm_start_says_nothing_was_saved(module, name, argv, tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(module, name, interrupt)
    out = tmp_path / "run"
    assert main(["train", *argv, "--timesteps", "64", "--out", str(out)]) == 130
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    assert err.startswith("mk-env train: interrupted: stopped before the run's first checkpoint: nothing of it "
                          "was saved"), err


def test_ctrl_c_of_a_run_with_checkpoints_names_the_last_and_how_to_resume(tmp_path, monkeypatch, capsys):
    out = tmp_path / "run"
    (out / "checkpoints").mkdir(parents=True)
    (out / "checkpoints" / "model_64.safetensors").write_bytes(b"")
    algorithm = train_cli.ALGORITHMS["maskable-ppo"]._replace(run=f"{__name__}:interrupt")
    monkeypatch.setitem(train_cli.ALGORITHMS, "maskable-ppo", algorithm)
    assert main(["train", "--timesteps", "64", "--out", str(out)]) == 130
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"the last checkpoint, {out / 'checkpoints' / 'model_64.safetensors'}, stands: " \
        f"mk-env train --resume --out {out} continues from it" in err, err
