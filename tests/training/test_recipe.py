"""The shipped network's recipe as one command (``python -m training.az.recipe``), on tiny stages."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import torch

from agents.az_net import load_net
from training.az.recipe import RECIPE, Stage, StageFailed, main, run_recipe, stage_command
from training.play import run_game

torch.set_num_threads(1)

PPO = ("--eval-every", "1", "--eval-games", "2", "--opponents", "random", "--batch-size", "64", "--pg-games", "2")
TINY = (
    Stage("stage1", "az-ppo", ("--seed", "3", "--timesteps", "1", "--pg-clone-games", "1", "--pg-clone-steps", "2",
                               "--pg-clone-hidden", "16", *PPO)),
    Stage("stage2", "az-ppo", ("--seed", "12", "--timesteps", "1", "--lr", "2e-5", *PPO)),
    Stage("stage3", "rollout-values", ("--games", "2", "--steps", "2", "--seed", "5")),
)


def test_the_stages_run_in_turn_and_the_same_command_continues(tmp_path):
    lines: list[str] = []
    made = run_recipe(tmp_path, TINY, log=lines.append)
    assert made == tmp_path / "stage3.safetensors"
    for stage in TINY:
        assert (tmp_path / f"{stage.name}.safetensors").is_file()
    assert json.loads((tmp_path / "stage2" / "config.json").read_text())["settings"]["init"] == \
        str(tmp_path / "stage1.safetensors")
    _, config, _ = load_net(made)
    assert config["players"] == 2
    assert run_game([f"aznet:{made}", "random"], seed=1).is_terminal()
    record = json.loads((tmp_path / "recipe.json").read_text())
    assert [record[s.name]["finished"] for s in TINY] == [True, True, True]
    # again: every stage's file is there, nothing runs
    lines.clear()
    assert run_recipe(tmp_path, TINY, log=lines.append) == made
    assert sum("is there" in line for line in lines) == 3
    # stage 2's file gone: its run is resumed (already at its decisions), stage 3 is done again
    (tmp_path / "stage2.safetensors").unlink()
    (tmp_path / "stage3.safetensors").unlink()
    assert stage_command(TINY[1], tmp_path / "stage2", tmp_path / "stage1.safetensors", 1, 1)[:2] == \
        ["train", "--resume"]
    run_recipe(tmp_path, TINY, log=lines.append)
    assert (tmp_path / "stage3.safetensors").is_file()


def test_a_failing_stage_stops_the_recipe_with_its_exit_code(tmp_path):
    bad = (Stage("stage1", "az-ppo", ("--timesteps", "1", "--pg-clone-agent", "nosuch")),)
    with pytest.raises(StageFailed, match="stage1 ended with exit code 2"):
        run_recipe(tmp_path, bad, log=lambda line: None)
    assert not (tmp_path / "stage1.safetensors").exists()
    assert json.loads((tmp_path / "recipe.json").read_text())["stage1"]["finished"] is False


def test_bad_stages_and_options_are_refused(tmp_path, capsys):
    with pytest.raises(ValueError, match="unknown kind 'sft'; allowed: az-ppo, rollout-values"):
        stage_command(Stage("x", "sft", ()), tmp_path, None, 1, 1)
    with pytest.raises(ValueError, match="needs an earlier stage's network"):
        stage_command(Stage("x", "rollout-values", ()), tmp_path, None, 1, 1)
    with pytest.raises(SystemExit):
        main(["--out", str(tmp_path), "--workers", "0"])
    assert "--workers and --threads must be >= 1" in capsys.readouterr().err


def test_a_corrupt_record_is_refused_with_what_to_do(tmp_path, capsys):
    (tmp_path / "recipe.json").write_text("[1, 2")
    assert main(["--out", str(tmp_path)]) == 2
    assert "is not a recipe record" in capsys.readouterr().err
    (tmp_path / "recipe.json").write_text('{"stage1": 3}')
    with pytest.raises(ValueError, match="remove it to start the count again"):
        run_recipe(tmp_path, TINY, log=lambda line: None)


def test_the_recipe_is_the_shipped_networks():
    assert [s.name for s in RECIPE] == ["stage1", "stage2", "stage3"]
    assert stage_command(RECIPE[0], Path("x"), None, 2, 2) == [
        "train", "--algo", "az-ppo", "--out", "x", "--pg-workers", "2", "--threads", "2", "--seed", "3",
        "--timesteps", "900000", "--eval-every", "25"]
