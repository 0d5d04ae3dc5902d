"""Teach a policy-value network's value head what ``mcts`` scores its leaves with (issue 15: the network with
search against the search agent at equal time).

``az`` searches with the network's value at its leaves; ``mcts`` plays the heuristic's quick policy two
rounds on from each leaf and scores the position it reaches (:func:`agents.search_eval.play_to_horizon`,
:func:`agents.search_eval.state_values`). The stage-2 network's value head (``aznet:default`` before
28 Nov 2026) was trained on the mixed return of its own PPO games (squared error about 0.3-0.45), and at
0.1 s a decision ``az`` lost to ``mcts`` (docs/training.md). This fine-tuning distils the rollout's value
into the value head:

1. **Positions** (:func:`rollout_positions`): games of ``heuristic`` self-play and of the network, drawn from
   its priors, against the heuristic; at a share of the decisions with a choice, the deciding seat's
   observation, the network's own priors over the legal actions (the policy target: the head keeps what
   it plays) and, as value target, the rollout's values of a copy of the true state played ``turns``
   changes of player on (egocentric).
2. **Fine-tuning** (:func:`fine_tune`): the learner's loss (:func:`training.az.learner.train_steps`:
   cross-entropy to the policy target plus the value's squared error) from the network's weights, with a
   fresh Adam; the file written is a policy-value file like the input (``az:FILE``, ``aznet:FILE``).

    python -m training.az.rollout_values --init stage2.safetensors --games 400 --steps 2000 --seed 520000 \\
        --workers 2 --threads 2 --out runs/rv400

(the shipped network's stage 3; :mod:`training.az.recipe` runs it after the first two stages).
"""

from __future__ import annotations

import argparse
import functools
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
import torch

from agents.az import AZNetAgent, model_path
from agents.az_net import egocentric, load_net, save_net
from agents.evaluation import evaluation_of
from agents.search_eval import play_to_horizon, state_values
from mk_env.core.view import PlayerView
from training.play import make_game

from .buffer import Position, ReplayBuffer
from .learner import make_optimizer, over_processes, seated_agents, train_steps

#: changes of the player to move the rollout plays on: two rounds of a 2-player game, as ``mcts``'s leaves
TURNS = 4
#: share of the decisions with a choice that become positions (neighbouring decisions are much alike)
SHARE = 0.5


def game_agents(network: AZNetAgent, index: int, n: int, seed: int
                ) -> tuple[list[Any], list[np.random.Generator]]:
    """Game ``index``'s agents: heuristic self-play for even games; for odd games ``network`` (drawing from
    its priors) in one seat, rotating, and the heuristic elsewhere."""
    agents, rngs = seated_agents("heuristic", n, seed)
    if index % 2:
        seat = (index // 2) % n
        agents[seat] = network
        network.reset(seat, n)
    return agents, rngs


def rollout_positions(net_file: Path, games: range, seed: int, turns: int = TURNS,
                      share: float = SHARE) -> list[Position]:
    """The positions of games ``games`` (game ``g`` dealt with ``seed + g``, the network file's game: its
    players and options): observation, the network's priors over the legal actions, the rollout's values
    of the true state (deciding seat first)."""
    torch.set_num_threads(1)
    network = AZNetAgent(net_file, temperature=1.0)
    players = network.config["players"]
    game = make_game(players, network.config["game_options"])
    H = evaluation_of(game)
    observer = network.evaluator(game).observer
    out: list[Position] = []
    for g in games:
        agents, rngs = game_agents(network, g, players, seed + g)
        pick = np.random.default_rng([seed, g, 0x5A])
        state = game.new_initial_state(seed + g)
        rows: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []
        while not state.is_terminal():
            p = state.current_player()
            legal = state.legal_actions()
            if len(legal) > 1 and pick.random() < share:
                copy = state.clone()
                play_to_horizon(H, copy, turns)
                values = egocentric(np.asarray(state_values(H, copy), np.float32), p)
                rows.append((observer.encode_flat(state, p).copy(), legal, values))
            state.apply(int(agents[p].act(PlayerView(state, p), rngs[p])))
        if rows:
            priors, _ = network.net.evaluate(np.stack([r[0] for r in rows]), [r[1] for r in rows])
            out += [Position.make(obs, legal, np.asarray(pi, np.float32), values)
                    for (obs, legal, values), pi in zip(rows, priors)]
    return out


def collect(net_file: Path, games: int, seed: int, workers: int = 1) -> list[Position]:
    """:func:`rollout_positions` of ``games`` games, split over ``workers`` processes (same positions)."""
    return over_processes(functools.partial(rollout_positions, Path(net_file), seed=seed), games, workers)


def fine_tune(net: Any, positions: list[Position], steps: int, lr: float, batch: int, seed: int,
              log: Any = print) -> Any:
    """``net`` (changed in place) after ``steps`` learner steps on ``positions`` (a fresh Adam)."""
    buffer = ReplayBuffer(max(1, len(positions)), net.shape.observation_size)
    buffer.extend(positions)
    optimizer = make_optimizer(net, lr)
    rng = np.random.default_rng([seed, 0xF7])
    torch.manual_seed(seed)
    done, chunk = 0, 500
    while done < steps:
        n = min(chunk, steps - done)
        losses = train_steps(net, optimizer, buffer, n, batch, rng)
        done += n
        log(f"[fine-tune] step {done}/{steps}: policy loss {losses['policy_loss']:.3f}, "
            f"value loss {losses['value_loss']:.3f}")
    return net


def value_error(net: Any, positions: list[Position]) -> float:
    """Mean squared error of ``net``'s values against the positions' targets (every seat)."""
    buffer = ReplayBuffer(max(1, len(positions)), net.shape.observation_size)
    buffer.extend(positions)
    errors = []
    for start in range(0, len(positions), 256):
        part = positions[start:start + 256]
        _, values = net.evaluate(buffer.dense([(p.index, p.value) for p in part]), [p.legal for p in part])
        errors += [float(np.mean((np.asarray(v) - p.outcome) ** 2)) for v, p in zip(values, part)]
    return float(np.mean(errors)) if errors else float("nan")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--init", default="default", help="the policy-value file to start from ('default': shipped)")
    ap.add_argument("--games", type=int, default=600, help="games played for positions")
    ap.add_argument("--steps", type=int, default=6000, help="learner steps")
    ap.add_argument("--lr", type=float, default=3e-4)
    ap.add_argument("--batch", type=int, default=256)
    ap.add_argument("--seed", type=int, default=500_000, help="game g is dealt with seed + g")
    ap.add_argument("--workers", type=int, default=1, help="processes playing the games")
    ap.add_argument("--threads", type=int, default=1, help="torch threads of the fine-tuning")
    ap.add_argument("--held-out", type=float, default=0.05,
                    help="share of the positions (the last games') kept out to measure the error")
    ap.add_argument("--out", type=Path, required=True, help="folder: positions.npz, net.safetensors")
    args = ap.parse_args(argv)
    net_file = model_path("az", args.init)
    args.out.mkdir(parents=True, exist_ok=True)
    torch.set_num_threads(args.threads)
    t0 = time.perf_counter()
    saved = args.out / "positions.npz"
    net, config, _ = load_net(net_file)
    if saved.is_file():
        positions = list(ReplayBuffer.load(saved).positions)
        print(f"[positions] {len(positions)} read from {saved}")
    else:
        positions = collect(net_file, args.games, args.seed, args.workers)
        buffer = ReplayBuffer(max(1, len(positions)), net.shape.observation_size)
        buffer.extend(positions)
        buffer.save(saved)
        print(f"[positions] {len(positions)} of {args.games} games in {time.perf_counter() - t0:.0f} s")
    cut = len(positions) - int(len(positions) * args.held_out)
    train, held = positions[:cut], positions[cut:]
    print(f"[held out] {len(held)} positions: value error {value_error(net, held):.3f} before")
    t1 = time.perf_counter()
    tuned = fine_tune(net, train, args.steps, args.lr, args.batch, args.seed)
    print(f"[held out] value error {value_error(tuned, held):.3f} after "
          f"({time.perf_counter() - t1:.0f} s of fine-tuning)")
    game = make_game(config["players"], config["game_options"])
    path = save_net(tuned, args.out / "net.safetensors", game, config["game_options"],
                    training={"rollout_values": vars(args) | {"out": str(args.out), "init": str(net_file)}})
    print(f"[done] {path} ({time.perf_counter() - t0:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
