"""Cave Troll training: a tiny ``mk-env train --game cave_troll`` run (safe model files that name the game
and Cave Troll's layout fingerprint, eval.csv, learning curve, resume), ``ppo:PATH`` playing Cave Troll
with its model, and each game's model refused by the other game."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("sb3_contrib", reason="training needs the [train] extra (sb3-contrib)")

from mk_env.cave_troll import env as cave_troll_env  # noqa: E402
from agents import make_agent  # noqa: E402
from agents.policy_file import load_policy, read_config  # noqa: E402
from agents.ppo import DEFAULT_CHECKPOINT  # noqa: E402
from mk_env.games import make_game  # noqa: E402
from training.cli import main  # noqa: E402
from training.play import run_game  # noqa: E402
from training.train import checkpoints, read_eval  # noqa: E402

TINY = ["--game", "cave_troll", "--envs", "2", "--n-steps", "64", "--batch-size", "64", "--n-epochs", "1",
        "--snapshot-every", "128", "--checkpoint-every", "128", "--eval-every", "128", "--eval-games", "2"]


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A 256-step Cave Troll run through the command line (a few seconds)."""
    out = tmp_path_factory.mktemp("cave_troll_train")
    assert main(["train", *TINY, "--timesteps", "256", "--out", str(out)]) == 0
    return out


def _one_line_error(capsys: pytest.CaptureFixture, command: str) -> str:
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err and err.startswith(f"mk-env {command}: error: "), err
    return err


def test_a_tiny_run_writes_safe_files_that_name_cave_troll_and_its_layout(run: Path) -> None:
    final = run / "final_model.safetensors"
    config = read_config(final)
    assert config["game"] == "cave_troll" and config["env"] == cave_troll_env.ENV_NAME
    assert config["layout_fingerprint"] == cave_troll_env.layout_fingerprint(make_game("cave_troll", 2))
    assert config["num_timesteps"] >= 256 and config["policy_kwargs"]["extractor"] == "flat"
    assert config["training"]["settings"]["game"] == "cave_troll"
    assert checkpoints(run) and all(p.suffix == ".safetensors" for p in checkpoints(run))
    assert list((run / "snapshots").glob("snapshot_*.safetensors"))
    rows = read_eval(run)
    assert {r["opponent"] for r in rows} == {"random", "heuristic"}
    assert {int(r["timesteps"]) for r in rows} >= {0, 128, 256}
    assert (run / "learning_curve.png").stat().st_size > 0


def test_resume_keeps_the_run_s_game_and_refuses_another(run: Path, capsys: pytest.CaptureFixture) -> None:
    before = read_config(checkpoints(run)[-1])["num_timesteps"]
    assert main(["train", "--resume", "--out", str(run), "--timesteps", str(before + 64),
                 "--eval-every", "0"]) == 0
    assert read_config(run / "final_model.safetensors")["num_timesteps"] >= before + 64
    capsys.readouterr()
    assert main(["train", "--resume", "--out", str(run), "--game", "mountain_king", "--timesteps",
                 str(before + 512)]) == 2
    assert "--resume cannot change --game 'cave_troll' -> 'mountain_king'" in _one_line_error(capsys, "train")


def test_ppo_path_plays_cave_troll_with_its_model_as_the_policy_would(run: Path) -> None:
    spec = f"ppo:{run / 'final_model.safetensors'}"
    game = make_game("cave_troll", 2)
    actions: list[int] = []
    state = run_game([spec, "random"], seed=5, game=game, actions=actions)
    assert state.is_terminal() and len(actions) > 20
    again: list[int] = []
    run_game([spec, "random"], seed=5, game=make_game("cave_troll", 2), actions=again)
    assert again == actions  # greedy policy, seeded opponent: the same game
    # the agent acts as the policy does on the single-seat env's own observation of that seat
    policy, agent = load_policy(run / "final_model.safetensors"), make_agent(spec)
    env = cave_troll_env.single_seat_env(2, seat=0, opponents=make_agent("random"))
    obs, _ = env.reset(seed=9)
    for _ in range(30):
        mask = env.action_masks()
        expected, _ = policy.predict(obs, action_masks=mask, deterministic=True)
        from mk_env.core.view import PlayerView
        chosen = agent.act(PlayerView(env.aec.game_state, 0), np.random.default_rng(0))
        assert mask.sum() == 1 or chosen == int(expected)
        obs, _, done, _, _ = env.step(chosen)
        if done:
            break


def test_each_game_refuses_the_other_game_s_model(run: Path, capsys: pytest.CaptureFixture) -> None:
    cave = make_agent(f"ppo:{run / 'final_model.safetensors'}")
    with pytest.raises(ValueError, match="trained for cave_troll; this game is mountain_king"):
        cave.check_game(make_game("mountain_king", 2))
    first = make_agent(f"ppo:{DEFAULT_CHECKPOINT}")
    with pytest.raises(ValueError, match="trained for mountain_king; this game is cave_troll"):
        first.check_game(make_game("cave_troll", 2))
    assert main(["play", "--game", "cave_troll", "--agents", "ppo:default,random"]) == 2
    assert "--game cave_troll" in _one_line_error(capsys, "play")


def test_a_cave_troll_model_for_another_player_count_is_refused(run: Path) -> None:
    cave = make_agent(f"ppo:{run / 'final_model.safetensors'}")
    with pytest.raises(ValueError, match="trained for 2 players .* this game has 3 players"):
        run_game([cave, "random", "random"], seed=1, game=make_game("cave_troll", 3))


@pytest.mark.parametrize(("argv", "says"), [
    (["--extractor", "cnn"], "--extractor 'cnn': allowed for cave_troll: flat"),
    (["--board-side", "winter"], "--board-side is not an option of cave_troll"),
    (["--players", "5"], "--players 5: Cave Troll is for 2 to 4 players"),
])
def test_cave_troll_training_misuse_is_one_line(argv: list[str], says: str, tmp_path: Path,
                                                capsys: pytest.CaptureFixture) -> None:
    assert main(["train", "--game", "cave_troll", "--timesteps", "64", "--out", str(tmp_path), *argv]) == 2
    assert says in _one_line_error(capsys, "train")


@pytest.mark.parametrize("algo", ["maskable-ppo", "ppo"])
def test_a_cave_troll_run_warms_up_by_imitation(algo: str, tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    """``--imitate AGENT:DECISIONS`` clones the heuristic's Cave Troll decisions before self-play, with either
    PPO (it was the first game's only)."""
    argv = ["train", "--algo", algo, "--game", "cave_troll", "--imitate", "heuristic:60", "--timesteps", "64",
            "--n-steps", "32", "--batch-size", "32", "--eval-every", "0", "--out", str(tmp_path / algo)]
    assert main(argv + (["--envs", "1"] if algo == "maskable-ppo" else ["--envs", "2"])) == 0
    out = capsys.readouterr().out
    assert "[imitate] 60 decisions of heuristic: loss" in out
