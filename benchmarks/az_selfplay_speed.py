"""The AlphaZero-style self-play (``mk-env train --algo az``'s games: :func:`training.az.selfplay.play_lockstep`)
on both backends, side by side in one run: the same network in every seat, the same seeds, K games in lockstep
with one batched network call per step, first on the Python engine and tree, then on the compiled ones.

    OPENBLAS_NUM_THREADS=1 python benchmarks/az_selfplay_speed.py [--net agents/checkpoints/aznet_default.safetensors]
        [--games 8] [--simulations 32] [--players 2] [--seed 0]

Prints each backend's searched decisions and leaves per second of wall time (one torch thread) and their ratio,
and whether the two played the same games (the same records).
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import torch

from agents.az import NetEvaluator
from agents.az_net import load_net
from mk_env.mountain_king.rules import Game
from training.az.selfplay import SearchSettings, play_lockstep


def run(backend: str, net, players: int, games: int, simulations: int, seed: int) -> tuple[float, int, int, list]:
    """Seconds, searched decisions, leaves and the games' records of one lockstep batch on ``backend``."""
    game = Game(players, backend=backend)
    evaluator = NetEvaluator(net, game)
    seeds = [seed + g for g in range(games)]
    start = time.perf_counter()
    out = play_lockstep(game, [evaluator], [[0] * players for _ in seeds], seeds,
                        SearchSettings(simulations=simulations, temperature_moves=20, noise=(0.3, 0.25)),
                        np.random.default_rng(seed), record=False)
    return time.perf_counter() - start, out.decisions, out.leaves, [list(s.history) for s in out.states]


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--net", default="agents/checkpoints/aznet_default.safetensors")
    p.add_argument("--games", type=int, default=8)
    p.add_argument("--simulations", type=int, default=32)
    p.add_argument("--players", type=int, default=2)
    p.add_argument("--seed", type=int, default=0)
    a = p.parse_args()
    torch.set_num_threads(1)
    net, _, _ = load_net(a.net)
    runs = {b: run(b, net, a.players, a.games, a.simulations, a.seed) for b in ("python", "native")}
    for b, (seconds, decisions, leaves, _) in runs.items():
        print(f"{b:7s} {decisions} searched decisions, {leaves} leaves in {seconds:.1f} s: "
              f"{decisions / seconds:8.1f} decisions/s, {leaves / seconds:9.1f} leaves/s")
    (ps, pd, _, pr), (ns, nd, _, nr) = runs["python"], runs["native"]
    print(f"ratio {(nd / ns) / (pd / ps):.2f}x; the same games: {pr == nr}")


if __name__ == "__main__":
    main()
