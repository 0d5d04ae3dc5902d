"""Self-play training: a tiny MaskablePPO run saves, resumes, reloads and plays; the opponent pool.

Interrupted runs, dead workers and resumed evaluation curves: tests/training/test_train_resume.py; hostile
model files: tests/agents/test_hostile_models.py."""

from __future__ import annotations

import json
import pickle
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("sb3_contrib", reason="training needs the [train] extra (sb3-contrib)")

from agents.policy_file import load_policy, read_config  # noqa: E402
from training.cli import main  # noqa: E402
from training.evaluate import evaluate_against  # noqa: E402
from training.selfplay import (OpponentPool, PolicyOpponent, SelfPlayWrapper,  # noqa: E402
                               parse_opponents)
from training.train import checkpoints, read_eval, train  # noqa: E402

TINY = dict(players=2, envs=2, vec="dummy", n_steps=128, batch_size=64, n_epochs=1,
            snapshot_every=512, checkpoint_every=1024, eval_every=1024, eval_games=2,
            opponents="random:1,latest:1,snapshots:1")


@pytest.fixture(scope="module")
def run(tmp_path_factory) -> Path:
    """A 1,536-step run (about 15 s on two cores)."""
    out = tmp_path_factory.mktemp("train")
    train(out, timesteps=1536, **TINY)
    return out


def steps(path: Path) -> int:
    return read_config(path)["num_timesteps"]


def test_training_writes_the_final_model_checkpoints_snapshots_and_evaluations(run):
    assert steps(run / "final_model.safetensors") >= 1536
    assert checkpoints(run) and all(p.suffix == ".safetensors" for p in checkpoints(run))
    assert len(list((run / "snapshots").glob("snapshot_*.safetensors"))) >= 3  # steps 0, 512, 1024, ...
    assert not list(run.rglob("*.zip"))
    rows = read_eval(run)
    assert {r["opponent"] for r in rows} == {"random", "heuristic"}
    assert {int(r["timesteps"]) for r in rows} >= {0, 1024}
    assert (run / "learning_curve.png").exists()
    assert any((run / "tb").rglob("events.out.tfevents.*"))


def test_resume_continues_the_step_count_and_applies_and_records_changed_settings(run):
    before = steps(checkpoints(run)[-1])
    code = main(["train", "--out", str(run), "--resume", "--timesteps", str(before + 256),
                 "--envs", "2", "--n-steps", "128", "--lr", "1e-4", "--eval-every", "0",
                 "--opponents", "random:1,latest:1"])
    assert code == 0
    after = steps(run / "final_model.safetensors")
    assert before < after and after >= before + 256
    resumed = json.loads((run / "config_resume.json").read_text())
    assert resumed["changed"] == {"learning_rate": {"was": 3e-4, "now": 1e-4},
                                  "eval_every": {"was": 1024, "now": 0},
                                  "opponents": {"was": TINY["opponents"], "now": "random:1,latest:1"}}
    assert resumed["batch_size"] == 64 and resumed["resumed_at"] == before  # kept, not the defaults
    last = read_config(checkpoints(run)[-1])
    assert last["hyperparameters"]["learning_rate"] == 1e-4
    assert last["training"]["settings"]["learning_rate"] == 1e-4


def test_a_reloaded_model_plays_full_games_in_both_seats(run):
    policy = load_policy(run / "final_model.safetensors")
    result = evaluate_against(policy, "random", games=2, seed=5)
    assert result["games"] == 2 and 0 <= result["wins"] <= 2
    assert result["mean_honour"] >= 0


def test_the_ppo_agent_spec_plays_a_game_with_the_trained_model(run):
    from agents import make_agent
    from training.play import run_game
    agent = make_agent(f"ppo:{run / 'final_model.safetensors'}")
    state = run_game([agent, "random"], seed=3)
    assert state.is_terminal()


def test_models_for_play_are_slim_and_checkpoints_keep_what_ppo_needs_to_continue(run, tmp_path):
    """Snapshots and the final model hold the weights only; checkpoints add Adam's moments, the
    update count and the run's settings, and load back into a MaskablePPO that continues."""
    from training.train import make_vec_env
    from agents.policy_file import load_model
    checkpoint, final = checkpoints(run)[-1], run / "final_model.safetensors"
    assert final.stat().st_size < 0.6 * checkpoint.stat().st_size
    assert read_config(final)["optimizer"] is None
    config = read_config(checkpoint)
    assert config["optimizer"]["class"] == "Adam" and config["n_updates"] > 0
    assert config["training"]["settings"]["n_steps"] == TINY["n_steps"]
    venv = make_vec_env(2, "dummy", 0, players=2, reward="dense", opponents="random:1",
                        snapshot_dir=tmp_path)
    model = load_model(checkpoint, venv)
    venv.close()
    assert model.num_timesteps == config["num_timesteps"] and model.n_steps == TINY["n_steps"]
    moments = model.policy.optimizer.state_dict()["state"]
    assert moments and all(float(m["exp_avg_sq"].abs().sum()) > 0 for m in moments.values())
    played = load_policy(checkpoint).state_dict()
    assert all(torch_equal(played[k], v) for k, v in model.policy.state_dict().items())


def torch_equal(a, b) -> bool:
    import torch
    return bool(torch.equal(a, b))


def test_training_refuses_to_overwrite_a_run_or_resume_nothing(run, tmp_path):
    with pytest.raises(ValueError, match="--resume"):
        train(run, timesteps=10, **TINY)
    with pytest.raises(ValueError, match="no checkpoint"):
        train(tmp_path / "empty", timesteps=10, resume=True, **TINY)
    assert main(["train", "--out", str(tmp_path / "x"), "--players", "7"]) == 2
    with pytest.raises(ValueError, match="--reward"):
        train(tmp_path / "y", timesteps=10, reward="points")


def test_resume_refuses_settings_that_shape_the_network_or_the_game(run):
    with pytest.raises(ValueError, match="--extractor 'cnn' -> 'flat'"):
        train(run, timesteps=10_000, resume=True, extractor="flat")
    with pytest.raises(ValueError, match="--players 2 -> 3"):
        train(run, timesteps=10_000, resume=True, players=3)
    with pytest.raises(ValueError, match="--imitate"):
        train(run, timesteps=10_000, resume=True, imitate_spec="heuristic")
    assert main(["train", "--out", str(run), "--resume", "--extractor", "flat"]) == 2


# ---- the opponent pool ---------------------------------------------------------------------------
def test_parse_opponents_reads_weights_and_names_bad_entries():
    assert parse_opponents("random:0.3,latest:0.7") == {"random": 0.3, "latest": 0.7}
    assert parse_opponents("heuristic,snapshots:2") == {"heuristic": 1.0, "snapshots": 2.0}
    assert parse_opponents("mcts:8@0.5") == {"mcts:8": 0.5}
    with pytest.raises(ValueError, match="wizard"):
        parse_opponents("wizard:1")
    with pytest.raises(ValueError, match="sum to 0"):
        parse_opponents("random:0")
    with pytest.raises(ValueError, match=">= 0"):
        parse_opponents("random:-1")


def test_the_pool_falls_back_to_baselines_while_there_is_no_snapshot(tmp_path):
    pool = OpponentPool("random:1,latest:1,snapshots:2", tmp_path / "none")
    assert pool.probabilities() == {"random": 1.0}
    assert OpponentPool("latest:1", tmp_path).probabilities() == {"random": 1.0}


def test_the_pool_draws_snapshots_and_baselines_with_the_documented_probabilities(run):
    pool = OpponentPool("random:1,latest:1,snapshots:2", run / "snapshots")
    assert pool.probabilities() == {"random": 0.25, "latest": 0.25, "snapshots": 0.5}
    rng = np.random.default_rng(0)
    drawn = [pool.new_episode(rng, 1)[0] for _ in range(400)]
    latest = str(pool.snapshots()[-1])
    share_random = np.mean([not isinstance(o, PolicyOpponent) for o in drawn])
    share_latest = np.mean([isinstance(o, PolicyOpponent) and o.path == latest for o in drawn])
    assert abs(share_random - 0.25) < 0.07 and abs(share_latest - 0.25) < 0.07


def test_a_policy_opponent_pickles_as_its_path_and_plays_legal_actions(run):
    snap = OpponentPool("latest:1", run / "snapshots").snapshots()[-1]
    opponent = pickle.loads(pickle.dumps(PolicyOpponent(snap)))
    assert len(pickle.dumps(opponent)) < 500
    from mk_env.mountain_king.env import single_seat_env
    env = single_seat_env(2, seat=0, opponents=opponent)
    env.reset(seed=2)
    done = False
    while not done:
        mask = env.action_masks()
        _, _, done, _, info = env.step(int(np.flatnonzero(mask)[0]))
    assert "illegal_action" not in info
    assert opponent.load() is not None and len(pickle.dumps(opponent)) < 500  # loaded: still a path


def test_the_self_play_wrapper_redraws_opponents_at_each_reset(tmp_path):
    from mk_env.mountain_king.env import single_seat_env
    env = SelfPlayWrapper(single_seat_env(2), OpponentPool("random:1,heuristic:1", tmp_path))
    seen = set()
    for seed in range(12):
        _, info = env.reset(seed=seed)
        seen.add(tuple(info["opponents"]))
        assert env.action_masks().any()
    assert seen == {("random",), ("heuristic",)}


def test_shipped_default_checkpoint_plays_and_beats_random():
    """`ppo:default` loads from package data and wins a small sample against random."""
    from training.tournament import play_game
    wins = sum(play_game(specs, seed, {"num_players": 2})["ranks"][specs.index("ppo:default")] == 0
               for seed in range(3) for specs in (["ppo:default", "random"], ["random", "ppo:default"]))
    assert wins >= 5
