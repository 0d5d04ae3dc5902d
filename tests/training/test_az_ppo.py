"""``mk-env train --algo az-ppo``: PPO fine-tuning of a policy-value network against fixed opponents."""

from __future__ import annotations

import csv
import json

import numpy as np
import pytest
import torch

from agents.az_net import load_net, new_net, save_net
from agents.registry import make_agent
from mk_env.games import make_game
from training.az.ppo import PGSettings, ppo_update
from training.az.ppo_games import Decision, final_scores, mixed_returns, play
from training.cli import main

torch.set_num_threads(1)

TINY = ["--pg-games", "2", "--eval-every", "1", "--eval-games", "2", "--opponents", "random",
        "--batch-size", "64"]


@pytest.fixture(scope="module")
def start_net(tmp_path_factory):
    game = make_game("mountain_king", 2)
    torch.manual_seed(0)
    return save_net(new_net(game, hidden=16, action_dim=8), tmp_path_factory.mktemp("pg") / "start.safetensors",
                    game)


def iteration_lines(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.startswith("[iteration")]


def test_a_run_writes_its_files_and_a_resumed_run_continues_exactly(start_net, tmp_path, capsys):
    whole, split = tmp_path / "whole", tmp_path / "split"
    assert main(["train", "--algo", "az-ppo", "--pg-init", str(start_net), "--out", str(whole),
                 "--timesteps", "1", *TINY, "--seed", "4"]) == 0
    capsys.readouterr()
    assert main(["train", "--resume", "--out", str(whole), "--timesteps", "10000000", "--pg-minutes", "0.0001"
                 ]) == 0  # one more iteration (the minutes are checked before each)
    assert main(["train", "--resume", "--out", str(whole), "--timesteps", "10000000", "--pg-minutes", "0.0001"
                 ]) == 0
    resumed = iteration_lines(capsys.readouterr().out)
    assert main(["train", "--algo", "az-ppo", "--pg-init", str(start_net), "--out", str(split),
                 "--timesteps", "1", *TINY, "--seed", "4"]) == 0
    capsys.readouterr()
    assert main(["train", "--resume", "--out", str(split), "--timesteps", "10000000", "--pg-minutes", "0.0001"
                 ]) == 0
    assert main(["train", "--resume", "--out", str(split), "--timesteps", "10000000", "--pg-minutes", "0.0001"
                 ]) == 0
    assert iteration_lines(capsys.readouterr().out) == resumed and len(resumed) == 2
    for name in ("config.json", "eval.csv", "learning_curve.png", "latest.safetensors", "net_0.safetensors",
                 "net_3.safetensors", "checkpoints/pg_3.safetensors"):
        assert (whole / name).is_file(), name
    assert not (whole / "checkpoints" / "pg_1.safetensors").exists()  # the last two kept
    rows = list(csv.DictReader(open(whole / "eval.csv")))
    assert [r["opponent"] for r in rows] == ["random"] * 4 and int(rows[0]["timesteps"]) == 0
    assert int(rows[-1]["timesteps"]) > int(rows[1]["timesteps"]) > 0
    config = json.loads((whole / "config.json").read_text())
    assert config["algo"] == "az-ppo" and len(config["resumes"]) == 2
    net, _, _ = load_net(whole / "latest.safetensors")
    assert net.shape.action_references > 0


def test_eval_every_zero_plays_no_evaluation(start_net, tmp_path, capsys):
    """``--eval-every 0`` means never, not even before the first iteration; the run still ends with its network."""
    out = tmp_path / "quiet"
    quiet = list(TINY)
    quiet[quiet.index("--eval-every") + 1] = "0"
    assert main(["train", "--algo", "az-ppo", "--pg-init", str(start_net), "--out", str(out),
                 "--timesteps", "1", *quiet]) == 0
    assert "[eval]" not in capsys.readouterr().out
    assert not (out / "eval.csv").exists() and not (out / "net_0.safetensors").exists()
    assert (out / "latest.safetensors").is_file() and (out / "checkpoints" / "pg_1.safetensors").is_file()


def test_resume_carries_the_runs_threads_unless_given_again(start_net, tmp_path):
    """``--threads`` is kept in config.json: ``--resume`` without it runs on the run's own count."""
    out = tmp_path / "t"
    try:
        assert main(["train", "--algo", "az-ppo", "--pg-init", str(start_net), "--out", str(out),
                     "--timesteps", "1", *TINY, "--threads", "2"]) == 0
        assert json.loads((out / "config.json").read_text())["threads"] == 2
        torch.set_num_threads(1)
        more = ["--timesteps", "10000000", "--pg-minutes", "0.0001"]
        assert main(["train", "--resume", "--out", str(out), *more]) == 0
        assert torch.get_num_threads() == 2
        assert main(["train", "--resume", "--out", str(out), *more, "--threads", "1"]) == 0
        assert torch.get_num_threads() == 1
        assert json.loads((out / "config.json").read_text())["threads"] == 1
    finally:
        torch.set_num_threads(1)


def test_the_policy_moves_toward_actions_that_won(start_net):
    """One update on a batch where a decision's chosen action led to a win raises its probability."""
    net, config, _ = load_net(start_net)
    game = make_game("mountain_king", 2)
    rng = np.random.default_rng(0)
    decisions, st = play(net, game, make_agent("random"), 3, 0, rng)
    assert decisions and st.is_terminal()
    for k, d in enumerate(decisions):
        d.ret = 1.0 if k % 2 == 0 else -1.0
        d.seat_returns = np.array([d.ret, -d.ret], np.float32)
    before = [float(np.log(net.evaluate(_dense(d, net), [d.legal])[0][0][d.chosen])) for d in decisions[:6]]
    settings = PGSettings(init="x", epochs=3, batch_size=64, learning_rate=1e-3)
    optimizer = torch.optim.Adam(net.parameters(), lr=settings.learning_rate)
    net.train()
    ppo_update(net, optimizer, [d for d in decisions if isinstance(d, Decision)], settings, rng)
    net.eval()
    after = [float(np.log(net.evaluate(_dense(d, net), [d.legal])[0][0][d.chosen])) for d in decisions[:6]]
    won = [a - b for k, (a, b) in enumerate(zip(after, before)) if k % 2 == 0]
    lost = [a - b for k, (a, b) in enumerate(zip(after, before)) if k % 2 == 1]
    assert np.mean(won) > np.mean(lost)


def _dense(d, net) -> np.ndarray:
    obs = np.zeros((1, net.shape.observation_size), np.float32)
    obs[0, d.index] = d.values
    return obs


def test_a_games_return_mixes_the_result_and_the_margin():
    game = make_game("mountain_king", 2)
    from training.play import run_game
    st = run_game(["random", "random"], seed=2, game=game)
    scores = [st.score_breakdown(s)["total"] for s in range(2)]
    winner = int(np.argmax(st.returns()))
    returns, honour = np.asarray(st.returns()), final_scores(st, 2)
    only_result = mixed_returns(returns, honour, 0.0, 20.0)
    assert only_result[winner] == 1.0 and only_result[1 - winner] == -1.0
    mixed = mixed_returns(returns, honour, 0.5, 20.0)
    margin = scores[winner] - scores[1 - winner]
    assert mixed[winner] == pytest.approx(0.5 + 0.5 * np.tanh(margin / 20.0), abs=1e-6)


def test_bad_settings_and_folders_are_refused(start_net, tmp_path, capsys):
    assert main(["train", "--algo", "az-ppo", "--pg-clone-agent", "", "--out", str(tmp_path / "a")]) == 2
    assert "--pg-init PATH" in capsys.readouterr().err
    assert main(["train", "--algo", "az-ppo", "--pg-clone-agent", "nosuch", "--pg-clone-games", "1",
                 "--out", str(tmp_path / "a2")]) == 2
    assert "nosuch" in capsys.readouterr().err
    assert main(["train", "--algo", "az-ppo", "--pg-init", str(tmp_path / "none.safetensors"),
                 "--out", str(tmp_path / "b")]) == 2
    assert "no model file" in capsys.readouterr().err
    assert main(["train", "--algo", "az-ppo", "--pg-init", str(start_net), "--pg-clip", "3",
                 "--out", str(tmp_path / "c")]) == 2
    assert "clip is out of range" in capsys.readouterr().err
    assert main(["train", "--resume", "--algo", "az-ppo", "--out", str(tmp_path / "d")]) == 2
    assert "holds no run" in capsys.readouterr().err


def test_without_init_the_run_clones_the_teacher_first_and_reuses_the_clone(tmp_path, capsys):
    """One command: the teacher's games cloned into DIR/clone.safetensors, then PPO from it; a new command on
    the same folder (the clone there, no checkpoint yet) starts from that file instead of cloning again."""
    out = tmp_path / "one"
    clone = ["--pg-clone-games", "1", "--pg-clone-steps", "2", "--pg-clone-hidden", "16"]
    assert main(["train", "--algo", "az-ppo", "--out", str(out), "--timesteps", "1", *TINY, *clone]) == 0
    text = capsys.readouterr().out
    assert "[clone] distilling 1 heuristic games in 2 steps" in text and "[warm start]" in text
    assert iteration_lines(text) and (out / "clone.safetensors").is_file()
    config = json.loads((out / "config.json").read_text())
    assert config["settings"]["init"] == str(out / "clone.safetensors")
    net, net_config, _ = load_net(out / "clone.safetensors")
    assert net_config["players"] == 2 and net.shape.action_references > 0
    for found in (out / "checkpoints").iterdir():
        found.unlink()
    assert main(["train", "--algo", "az-ppo", "--out", str(out), "--timesteps", "1", *TINY, *clone]) == 0
    text = capsys.readouterr().out
    assert "is there: the run starts from it" in text and "[warm start]" not in text


def test_no_network_and_no_teacher_is_refused():
    with pytest.raises(ValueError, match="--pg-init PATH .* or --pg-clone-agent"):
        PGSettings(init="", clone_agent="").check()


def test_worker_processes_play_the_same_games(start_net, tmp_path, capsys):
    """--pg-workers 2 logs the same iterations and evaluations as one process (each game samples from a
    generator of its own)."""
    lines = {}
    for workers in (1, 2):
        out = tmp_path / f"w{workers}"
        assert main(["train", "--algo", "az-ppo", "--pg-init", str(start_net), "--out", str(out), "--timesteps",
                     "300", *TINY, "--pg-games", "4", "--pg-workers", str(workers), "--seed", "5"]) == 0
        text = capsys.readouterr().out
        lines[workers] = [x for x in text.splitlines() if x.startswith(("[iteration", "[eval]"))]
        assert not (out / ".weights.safetensors").exists()
    assert lines[1] == lines[2] and len(lines[1]) >= 3


def test_lockstep_games_play_as_each_game_alone(start_net):
    """Games played together in one batch per step make the decisions each makes alone (each samples from a
    generator of its own); greedy games too."""
    from training.az.ppo_games import GameJob, play_jobs
    net, config, _ = load_net(start_net)
    game = make_game(config["game"], config["players"])
    opponents = [make_agent("random"), None]
    jobs = [GameJob(40 + g, g % 2, g % 2, (9, g)) for g in range(4)] + [GameJob(50, 1, 0, None)]
    together = play_jobs(net, game, opponents, jobs)
    for job, result in zip(jobs, together):
        alone = play_jobs(net, game, opponents, [job])[0]
        assert [d.chosen for d in alone.decisions] == [d.chosen for d in result.decisions]
        assert np.array_equal(alone.scores, result.scores) and np.array_equal(alone.returns, result.returns)
    assert together[4].decisions == []  # greedy: nothing recorded


def test_self_play_records_every_seat_and_is_evaluated_against_the_heuristic(start_net, tmp_path, capsys):
    """--opponents self: the network in every seat, each decision trained on with its own seat's return; the
    curve is measured against the heuristic."""
    from training.az.ppo_games import GameJob, play_jobs
    net, config, _ = load_net(start_net)
    game = make_game(config["game"], config["players"])
    result = play_jobs(net, game, [None], [GameJob(7, 0, 0, (3, 0))])[0]
    assert {d.seat for d in result.decisions} == {0, 1}
    out = tmp_path / "self"
    assert main(["train", "--algo", "az-ppo", "--pg-init", str(start_net), "--out", str(out), "--timesteps", "100",
                 *TINY, "--opponents", "self"]) == 0
    text = capsys.readouterr().out
    assert "[eval] aznet vs heuristic" in text and "0 won" in text  # self-play games are not counted as wins
    with open(out / "eval.csv", newline="") as f:
        assert {row["opponent"] for row in csv.DictReader(f)} == {"heuristic"}


def test_the_speed_benchmark_times_iterations(start_net, tmp_path, capsys):
    from tests.script_loader import load_script
    bench = load_script("benchmarks/az_ppo_speed.py")
    result = bench.az_ppo_speed(str(start_net), "self,random", 1, 1, 1, 2, 1, tmp_path)
    assert result["decisions"] > 0 and result["decisions_per_second"] > 0 and 0 < result["update_share"] < 1
    assert "iteration 1:" in capsys.readouterr().out
