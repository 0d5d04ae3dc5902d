"""Training speed in learner decisions per second: ``--algo ppo`` against the MaskablePPO route.

``python benchmarks/train_speed.py [--players 2] [--updates 4] [--envs 64] [--opponents SPEC]
[--maskable-steps 2048] [--skip-maskable] [--json FILE]``

Each path trains from a fresh network against the same kind of opponent pool, with one snapshot of the
learner on disk (so ``latest`` and ``snapshots`` are live), torch on one thread, after one warm-up
rollout and update that is not counted:

* ``ppo``: :class:`training.fast_ppo.FastPPO` on :class:`training.fast_ppo_env.VecGames` (``--envs``
  games, rollouts of 64 decisions per game, 2 epochs of minibatches of 512: the run's defaults),
  ``--updates`` rollouts and updates;
* ``maskable-ppo``: sb3-contrib ``MaskablePPO`` as ``mk-env train`` runs it (2 envs in a DummyVecEnv,
  ``n_steps`` 512, minibatches of 256, 4 epochs: its defaults), ``--maskable-steps`` decisions.

Both figures count every second of the loop (games, opponents, the learner's forward, the updates) and
none of the evaluations. ``--workers 1,2`` times ``--algo ppo`` with one process and with two collector
processes (:mod:`training.fast_ppo_workers`). It prints a line per path with decisions per second of
wall time and per second of the main process's CPU time (``main_process_steps_per_cpu_second``: what a
busy machine disturbs less; for one process on a quiet machine the two agree; with workers it leaves
their CPU out, so only the wall figure compares), and the figures as JSON.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

DEFAULT_OPPONENTS = "heuristic:0.2,latest:0.4,snapshots:0.4"


def fast_ppo_speed(players: int, envs: int, updates: int, opponents: str, workers: int,
                   folder: Path) -> dict[str, Any]:
    """Decisions per second of ``--algo ppo`` with ``workers`` collector processes."""
    import torch

    from agents.factorised_file import build_policy, save_factorised
    from training.fast_ppo import PPO_DEFAULTS, FastPPO
    from training.fast_ppo_env import VecGames
    from training.fast_ppo_run import FAST_DEFAULTS
    from training.fast_ppo_workers import Collectors, collect_all, shares
    from training.selfplay import OpponentPool
    folder.mkdir(parents=True, exist_ok=True)
    policy = build_policy("mountain_king", players)
    save_factorised(policy, folder / "snapshot_0.safetensors", players, {})
    settings = {**FAST_DEFAULTS, "players": players, "envs": envs, "opponents": opponents, "workers": workers}
    games = VecGames(shares(envs, workers)[0], players, OpponentPool(opponents, folder), seed=0,
                     generator=torch.Generator().manual_seed(1))
    collectors = Collectors(settings, str(folder), seed=0) if workers > 1 else None
    learner = FastPPO(policy, dict(PPO_DEFAULTS))
    try:
        learner.update(collect_all(learner, games, collectors))  # warm-up (and the workers' start)
        first, wall, cpu, collect = learner.num_timesteps, time.perf_counter(), time.process_time(), 0.0
        for _ in range(updates):
            t0 = time.perf_counter()
            rollout = collect_all(learner, games, collectors)
            collect += time.perf_counter() - t0
            learner.update(rollout)
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    finally:
        if collectors is not None:
            collectors.close()
    steps = learner.num_timesteps - first
    return {"path": f"ppo --workers {workers}", "envs": envs, "steps": steps, "seconds": wall,
            "steps_per_second": steps / wall, "main_process_steps_per_cpu_second": steps / cpu,
            "collect_share": collect / wall}


def maskable_ppo_speed(players: int, steps: int, opponents: str, folder: Path) -> dict[str, Any]:
    """Decisions per second of sb3-contrib MaskablePPO with ``mk-env train``'s defaults."""
    from sb3_contrib import MaskablePPO

    from agents.networks import EXTRACTORS
    from agents.policy_file import save_model
    from training.train import make_vec_env
    from training.train_settings import DEFAULTS, PPO_SETTINGS
    venv = make_vec_env(DEFAULTS["envs"], "dummy", 0, players=players, reward="dense", opponents=opponents,
                        snapshot_dir=folder)
    model = MaskablePPO("MultiInputPolicy", venv, **{k: DEFAULTS[k] for k in PPO_SETTINGS}, seed=0, device="cpu",
                        policy_kwargs=dict(features_extractor_class=EXTRACTORS["cnn"],
                                           net_arch=dict(pi=[64], vf=[64])))
    save_model(model, folder / "snapshot_0.safetensors", players)
    rollout = DEFAULTS["envs"] * DEFAULTS["n_steps"]
    model.learn(rollout)  # warm-up
    wall, cpu, first = time.perf_counter(), time.process_time(), model.num_timesteps
    model.learn(max(rollout, steps), reset_num_timesteps=False)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    done = model.num_timesteps - first
    venv.close()
    return {"path": "maskable-ppo", "envs": DEFAULTS["envs"], "steps": done, "seconds": wall,
            "steps_per_second": done / wall, "main_process_steps_per_cpu_second": done / cpu}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python benchmarks/train_speed.py", description=__doc__.split("\n")[0])
    parser.add_argument("--players", type=int, default=2, help="players per game (default 2)")
    parser.add_argument("--updates", type=int, default=4, help="ppo: rollouts and updates timed (default 4)")
    parser.add_argument("--envs", type=int, default=64, help="ppo: games in all (default 64)")
    parser.add_argument("--workers", default="1,2",
                        help="ppo: collector processes to time, comma-separated (default 1,2)")
    parser.add_argument("--opponents", default=DEFAULT_OPPONENTS,
                        help=f"the opponent pool of both paths (default {DEFAULT_OPPONENTS})")
    parser.add_argument("--maskable-steps", type=int, default=2048,
                        help="maskable-ppo: decisions timed (default 2048)")
    parser.add_argument("--skip-maskable", action="store_true", help="time the ppo path only")
    parser.add_argument("--json", default=None, help="also write the figures to this file")
    args = parser.parse_args(argv)
    if args.updates < 1 or args.envs < 1 or args.maskable_steps < 1:
        parser.error("--updates, --envs and --maskable-steps need at least 1")
    import torch
    torch.set_num_threads(1)
    results = []
    with tempfile.TemporaryDirectory() as tmp:
        for workers in (int(w) for w in args.workers.split(",")):
            results.append(fast_ppo_speed(args.players, args.envs, args.updates, args.opponents, workers,
                                          Path(tmp) / f"ppo{workers}"))
        if not args.skip_maskable:
            results.append(maskable_ppo_speed(args.players, args.maskable_steps, args.opponents,
                                              Path(tmp) / "maskable"))
    for r in results:
        print(f"{r['path']:17s} {r['steps']:6d} decisions in {r['seconds']:6.1f} s: {r['steps_per_second']:6.0f} "
              f"decisions/s wall, {r['main_process_steps_per_cpu_second']:6.0f} per CPU second of the main "
              f"process ({r['envs']} games)")
    print(json.dumps(results))
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
