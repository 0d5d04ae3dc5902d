"""AlphaZero-style training (``mk-env train --algo az``) and its agents ``az:PATH`` / ``aznet:PATH``."""

from __future__ import annotations

import csv
import json
from collections import Counter

import numpy as np
import pytest
import torch

from agents.az import AZNetAgent
from agents.az_net import (ModelFileError, PolicyValueNet, SparseBatch, load_net, read_net_config, save_net,
                           shape_for)
from agents.registry import make_agent
from mk_env.games import make_game
from mk_env.core.view import PlayerView
from training.az.agreement import Agreement, measure
from training.az.agreement import main as agreement_main
from training.az.buffer import Position, ReplayBuffer
from training.az.learner import seated_agents
from training.az.selfplay import visit_policy
from training.cli import main
from training.play import run_game

torch.set_num_threads(1)

TINY = ["--az-games", "2", "--az-simulations", "4", "--az-train-steps", "2", "--az-warm-games", "1",
        "--az-warm-steps", "2", "--az-gate-every", "1", "--az-gate-games", "2", "--eval-every", "1",
        "--eval-games", "2", "--az-eval-simulations", "2", "--az-hidden", "16", "--batch-size", "8",
        "--az-temperature-moves", "4"]


def test_a_tiny_run_completes_writes_its_files_and_resumes(tmp_path, capsys):
    out = tmp_path / "run"
    assert main(["train", "--algo", "az", "--out", str(out), "--timesteps", "1", "--seed", "3", *TINY]) == 0
    for name in ("best.safetensors", "buffer.npz", "eval.csv", "gating.csv", "learning_curve.png",
                 "checkpoints/az_1.safetensors"):
        assert (out / name).is_file(), name
    assert list((out / "tb").glob("events.out.tfevents.*"))
    config = json.loads((out / "config.json").read_text())
    assert config["algo"] == "az" and config["settings"]["simulations"] == 4
    rows = list(csv.DictReader(open(out / "eval.csv")))
    assert {r["opponent"] for r in rows} == {"random", "heuristic", "random (az search 2)",
                                             "heuristic (az search 2)"}
    first = ReplayBuffer.load(out / "buffer.npz")
    assert len(first) > 0 and first.added == len(first)
    capsys.readouterr()
    # resume without --algo: the run's own; a changed option is applied and recorded
    positions = int(rows[0]["timesteps"])  # self-play positions of iteration 1 (the warm start's not counted)
    assert 0 < positions < first.added
    assert main(["train", "--resume", "--out", str(out), "--timesteps", str(positions + 1),
                 "--az-train-steps", "3"]) == 0
    text = capsys.readouterr().out
    assert "[resume] az_1.safetensors: iteration 1" in text and "train_steps = 3 (was 2)" in text
    assert (out / "checkpoints" / "az_2.safetensors").is_file()
    config = json.loads((out / "config.json").read_text())
    assert config["resumes"][0]["changed"]["train_steps"] == {"was": 2, "now": 3}
    assert ReplayBuffer.load(out / "buffer.npz").added > first.added
    assert len(list(csv.DictReader(open(out / "gating.csv")))) == 2


def test_resume_refuses_a_change_of_the_network_or_the_game(tmp_path, capsys):
    out = tmp_path / "run"
    assert main(["train", "--algo", "az", "--out", str(out), "--timesteps", "1", *TINY]) == 0
    capsys.readouterr()
    assert main(["train", "--resume", "--out", str(out), "--players", "3"]) == 2
    assert "players is 2 in this run" in capsys.readouterr().err
    assert main(["train", "--algo", "az", "--out", str(out), "--timesteps", "1", *TINY]) == 2
    assert "already holds an az run" in capsys.readouterr().err


@pytest.mark.parametrize("spec", ["az:{}?3", "az:{}?0.05s", "aznet:{}", "aznet:{}?t=1", "aznet:{}?t=0.5"])
def test_az_and_the_network_alone_play_legal_games(tiny_net, spec):
    actions: list[int] = []
    state = run_game([spec.format(tiny_net), "random"], seed=5, actions=actions)
    assert state.is_terminal() and len(actions) > 10  # every action went through the engine's legality check


def test_az_agent_refuses_bad_specs_and_files(tiny_net, tmp_path):
    with pytest.raises(ValueError, match="budget after '\\?'"):
        make_agent(f"az:{tiny_net}?0")
    with pytest.raises(ValueError, match="no model file"):
        make_agent("aznet:nowhere.safetensors")
    with pytest.raises(ValueError, match="needs a policy-value model file"):
        make_agent("az")
    other = tmp_path / "x.safetensors"
    other.write_bytes(b"\x10\x00\x00\x00\x00\x00\x00\x00{\"a\": 1}       ")
    with pytest.raises(ModelFileError, match="not an mk_env model file"):
        load_net(other)
    agent = make_agent(f"aznet:{tiny_net}")
    three = make_game("mountain_king", 3).new_initial_state(seed=1)
    with pytest.raises(ValueError, match="trained for 2 players"):
        agent.act(PlayerView(three, three.current_player()), np.random.default_rng(0))


def test_the_network_alone_draws_at_its_temperature_and_refuses_bad_ones(tiny_net):
    """t=0 is the argmax; t=1 draws with the priors' own weights; a lower t sharpens them; the draw is the
    game's generator's, so the same seed plays the same game."""
    from agents.az import sample_index
    priors = np.array([0.1, 0.6, 0.3])
    assert sample_index(priors, 0.0, np.random.default_rng(0)) == 1
    rng = np.random.default_rng(0)
    counts = np.bincount([sample_index(priors, 1.0, rng) for _ in range(6000)], minlength=3) / 6000
    assert np.allclose(counts, priors, atol=0.03)
    sharp = np.bincount([sample_index(priors, 0.5, rng) for _ in range(6000)], minlength=3) / 6000
    assert np.allclose(sharp, priors ** 2 / (priors ** 2).sum(), atol=0.03)
    assert make_agent(f"aznet:{tiny_net}?t=0").temperature == 0
    first, again = [], []
    run_game([f"aznet:{tiny_net}?t=1", "random"], seed=4, actions=first)
    run_game([f"aznet:{tiny_net}?t=1", "random"], seed=4, actions=again)
    assert first == again
    for bad in ("t=-1", "t=inf", "t=x", "temp=1", "1"):
        with pytest.raises(ValueError, match="must be t=T, a temperature >= 0"):
            make_agent(f"aznet:{tiny_net}?{bad}")


def test_a_model_file_of_another_layout_is_refused(tiny_net, tmp_path):
    from safetensors.torch import load_file, save_file
    config = read_net_config(tiny_net)
    config["layout_fingerprint"] = "0" * len(config["layout_fingerprint"])
    bad = tmp_path / "bad.safetensors"
    save_file(load_file(str(tiny_net)), str(bad), metadata={"mk_env": json.dumps(config)})
    with pytest.raises(ModelFileError, match="retrain the network"):
        load_net(bad)
    config["network"]["hidden"] = 10 ** 9
    config["layout_fingerprint"] = read_net_config(tiny_net)["layout_fingerprint"]
    save_file(load_file(str(tiny_net)), str(bad), metadata={"mk_env": json.dumps(config)})
    with pytest.raises(ModelFileError, match="hidden must be a whole number from 1 to"):
        load_net(bad)


def test_buffer_round_trip_keeps_every_position_and_the_newest_ones(tmp_path):
    rng = np.random.default_rng(0)
    buffer = ReplayBuffer(capacity=5, observation_size=50)
    for k in range(7):
        obs = np.where(rng.random(50) < 0.2, rng.random(50), 0).astype(np.float32)
        obs[k] = 1.0
        legal = np.arange(3 + k)
        buffer.extend([Position.make(obs, legal, np.full(len(legal), 1 / len(legal)), np.array([1, -1.0]))])
    assert len(buffer) == 5 and buffer.added == 7
    back = ReplayBuffer.load(buffer.save(tmp_path / "b.npz"))
    assert (back.capacity, back.observation_size, back.added) == (5, 50, 7)
    for a, b in zip(buffer.positions, back.positions):
        for name in ("index", "value", "legal", "policy", "outcome"):
            assert np.array_equal(getattr(a, name), getattr(b, name)), name
    assert [len(p.legal) for p in back.positions] == [5, 6, 7, 8, 9]  # the two oldest were pushed out
    rows, legal, policy, outcome = back.sample(4, rng)
    dense = back.dense(rows)
    assert dense.shape == (4, 50) and outcome.shape == (4, 2) and all(len(p) == len(a) for p, a in zip(policy, legal))
    with pytest.raises(ValueError, match="not a replay buffer"):
        ReplayBuffer.load(tmp_path / "missing.npz")


def test_sparse_first_layer_equals_the_dense_product():
    net = PolicyValueNet(shape_for(make_game("mountain_king", 2), hidden=8, action_dim=4))
    obs = np.zeros((2, net.shape.observation_size), np.float32)
    obs[0, [3, 40, 900]] = [0.5, 1.0, 0.25]
    obs[1, [7]] = 2.0
    batch = SparseBatch.from_dense(obs)
    got = net.embed(batch.index, batch.offsets, per_sample_weights=batch.weights)
    assert torch.allclose(got, torch.from_numpy(obs) @ net.embed.weight, atol=1e-6)


def test_visit_policy_follows_the_counts_and_the_temperature():
    assert np.allclose(visit_policy(np.array([1, 3, 0]), 1.0), [0.25, 0.75, 0])
    assert visit_policy(np.array([1, 3, 3]), 0).tolist() == [0, 0.5, 0.5]
    assert np.allclose(visit_policy(np.array([1, 2]), 0.5), [0.2, 0.8])
    assert visit_policy(np.zeros(4), 1.0).tolist() == [0.25] * 4


def test_a_stop_request_drops_the_iteration_in_progress_and_names_the_checkpoint(tmp_path):
    import signal

    from training.az.run import AZRun
    from training.az.settings import AZSettings
    from training.stopping import TrainingStopped
    settings = AZSettings(positions=1, games=2, simulations=4, train_steps=1, warm_games=0, gate_every=0,
                          eval_every=0, hidden=16, batch_size=8, temperature_moves=2)
    run = AZRun.start(tmp_path / "run", settings, log=lambda message: None)
    run.train()  # one iteration: checkpoint az_1
    run.settings.positions = 10 ** 9
    played = run.iteration

    def iteration_then_signal() -> None:
        played()
        run.stop.signum = signal.SIGTERM  # what the handler of StopRequest does

    run.iteration = iteration_then_signal
    with pytest.raises(TrainingStopped, match="SIGTERM in iteration 2: az_2.safetensors stands") as stopped:
        run.train()
    assert stopped.value.exit_code == 143
    # a stop seen inside self-play: the games are left unfinished, nothing is recorded, nothing saved
    run.stop.signum = signal.SIGINT
    run.iteration()
    assert [p.name for p in sorted((tmp_path / "run" / "checkpoints").iterdir())] == \
        ["az_1.safetensors", "az_2.safetensors"]


def test_the_warm_start_distils_the_search_agents_visits():
    from training.az.learner import warm_positions
    game = make_game("mountain_king", 2)
    positions = warm_positions(game, "mcts:6", 1, seed=4)
    assert positions and all(np.isclose(p.policy.sum(), 1.0) for p in positions)
    assert any((p.policy > 0).sum() > 1 for p in positions)  # visit distributions, not one-hot choices
    one_hot = warm_positions(game, "heuristic", 1, seed=4)
    assert all(sorted(p.policy.tolist())[-1] == 1.0 for p in one_hot)
    assert {tuple(p.outcome) for p in one_hot} <= {(1.0, -1.0), (-1.0, 1.0)}


def test_warm_start_games_split_over_processes_give_the_same_positions():
    """Two worker processes play shares of the teacher's games: the same positions, in the same order."""
    from training.az.learner import warm_positions
    game = make_game("mountain_king", 2)
    one, two = (warm_positions(game, "random", 3, seed=9, workers=w) for w in (1, 2))
    assert len(one) == len(two) > 0
    for a, b in zip(one, two):
        assert np.array_equal(a.index, b.index) and np.array_equal(a.value, b.value)
        assert np.array_equal(a.legal, b.legal)
        assert np.array_equal(a.policy, b.policy) and np.array_equal(a.outcome, b.outcome)


def test_the_clone_plays_the_teachers_games_in_the_az_ppo_runs_workers():
    from training.az.clone import clone_settings
    from training.az.ppo import PGSettings
    s = PGSettings(workers=2)
    assert clone_settings(s.clone_agent, 1, 1, 16, 2, 0, s.workers).warm_workers == 2
    with pytest.raises(ValueError, match="warm_workers must be a whole number >= 1"):
        clone_settings("heuristic", 1, 1, 16, 2, 0, 0)


def test_cave_troll_trains_one_iteration_and_its_network_plays_only_cave_troll(tmp_path, capsys):
    out = tmp_path / "ct"
    assert main(["train", "--algo", "az", "--game", "cave_troll", "--out", str(out), "--timesteps", "1",
                 "--az-games", "1", "--az-simulations", "2", "--az-train-steps", "1", "--az-warm-games", "1",
                 "--az-warm-steps", "1", "--az-gate-every", "0", "--eval-every", "0", "--az-hidden", "16",
                 "--batch-size", "8"]) == 0
    best = out / "best.safetensors"
    assert read_net_config(best)["game"] == "cave_troll"
    state = run_game([f"aznet:{best}", "random"], seed=1, game=make_game("cave_troll", 2))
    assert state.is_terminal()
    with pytest.raises(ValueError, match="trained for cave_troll; this game is mountain_king"):
        run_game([f"aznet:{best}", "random"], seed=1)


def test_agreement_counts_every_teacher_decision_with_a_choice(tiny_net, capsys):
    game = make_game("mountain_king", 2)
    found = measure(AZNetAgent(tiny_net), game, "heuristic", games=1, seed=5)
    state, (agents, rngs), choices = game.new_initial_state(5), seated_agents("heuristic", 2, 5), Counter()
    while not state.is_terminal():
        p = state.current_player()
        action = int(agents[p].act(PlayerView(state, p), rngs[p]))
        if len(state.legal_actions()) > 1:
            choices[state.describe_action(action).split()[0]] += 1
        state.apply(action)
    assert found.seen == choices and sum(choices.values()) > 50
    assert all(0 <= found.agreed[k] <= n for k, n in found.seen.items())
    assert found.rate == sum(found.agreed.values()) / sum(choices.values())
    assert Agreement().rate == 0.0
    agreement_main([str(tiny_net), "--games", "1", "--seed", "5"])
    out = capsys.readouterr().out
    assert out.startswith(f"agreement {found.rate:.3f} over {sum(choices.values())} decisions")
    with pytest.raises(SystemExit, match="--games must be >= 1"):
        agreement_main([str(tiny_net), "--games", "0"])
    with pytest.raises(SystemExit, match="agreement: no model file at"):
        agreement_main([str(tiny_net) + ".missing"])
    with pytest.raises(SystemExit, match="agreement: unknown agent spec 'bogus'"):
        agreement_main([str(tiny_net), "--teacher", "bogus"])


def test_a_half_copy_plays_from_float16_weights_and_drops_the_optimizer(tiny_net, tmp_path, capsys):
    """`mk-env convert-model IN OUT --half` on a policy-value file: half the weight bytes, no Adam, the
    same network to float16 precision, loaded back as float32 and playable as aznet:OUT."""
    from agents.policy_file import adam
    game = make_game("mountain_king", 2)
    net, _, _ = load_net(tiny_net)
    full = save_net(net, tmp_path / "full.safetensors", game, optimizer=adam(net.parameters()))
    half = tmp_path / "half.safetensors"
    assert main(["convert-model", str(full), str(half), "--half"]) == 0
    assert f"use it as az:{half}" in capsys.readouterr().out
    assert half.stat().st_size < 0.55 * full.stat().st_size
    small, config, optimizer = load_net(half, optimizer_for=True)
    assert config["optimizer"] is None and optimizer.state_dict()["state"] == {}
    for (name, a), b in zip(net.state_dict().items(), small.state_dict().values()):
        assert b.dtype == a.dtype, name
        assert torch.allclose(a.float(), b.float(), rtol=1e-3, atol=1e-4), name
    assert run_game([f"aznet:{half}", "random"], seed=2).is_terminal()
    assert main(["convert-model", str(full), str(tmp_path / "same.safetensors")]) == 2
    assert "--half" in capsys.readouterr().out
    bogus = tmp_path / "bogus.safetensors"
    bogus.write_bytes(b"\x10\x00\x00\x00\x00\x00\x00\x00{\"a\": 1}       ")
    assert main(["convert-model", str(bogus), str(tmp_path / "out.safetensors"), "--half"]) == 2
    assert "error:" in capsys.readouterr().out and not (tmp_path / "out.safetensors").exists()


def test_the_shipped_network_is_named_default_and_reads_two_player_games():
    from agents.az import DEFAULT_NET
    assert DEFAULT_NET.is_file(), "agents/checkpoints/aznet_default.safetensors is shipped"
    assert load_net(DEFAULT_NET)[1]["players"] == 2
    assert make_agent("aznet:default").name == "aznet:default"
    assert run_game(["az:default?2", "aznet:default"], seed=3).is_terminal()


def test_the_rollout_leaf_benchmark_plays_and_scores_leaves_like_mcts(capsys) -> None:
    """benchmarks/az_rollout_leaf.py: the network's priors, the heuristic rollout's values (weight 1), a mix
    below 1; it plays a game and prints its figure with the interval and seeds."""
    from tests.script_loader import load_script
    bench = load_script("benchmarks/az_rollout_leaf.py")
    from agents.az import DEFAULT_NET
    from agents.search_tree import Search, SearchConfig
    from mk_env.games import make_game
    from mk_env.core.view import PlayerView
    net = load_net(DEFAULT_NET)[0]
    game = make_game("mountain_king", 2)
    st = game.new_initial_state(4)
    view = PlayerView(st, st.current_player())
    for weight in (1.0, 0.5):
        tree = Search(view, view.seat, np.random.default_rng(1), SearchConfig())
        tree.run(bench.NetRolloutEvaluator(net, game, weight), simulations=6, batch=3)
        assert tree.simulations == 6 and st.is_legal(tree.best_action())
    from agents.az import NetEvaluator
    leaf = Search(view, view.seat, np.random.default_rng(2), SearchConfig()).select()
    before = NetEvaluator(net, game).observer.encode_flat(leaf.state, leaf.player).copy()
    _, alone = bench.NetRolloutEvaluator(net, game, 0.0)([leaf])  # weight 0: the network's value, no rollout
    assert np.allclose(alone[0], NetEvaluator(net, game)([leaf])[1][0])
    assert np.array_equal(NetEvaluator(net, game).observer.encode_flat(leaf.state, leaf.player), before)
    assert bench.main(["--budget", "3", "--games", "1", "--opponent", "heuristic", "--seed", "5"]) == 0
    out = capsys.readouterr().out
    assert "of 1 =" in out and "95% CI" in out and "seeds 5-5" in out
