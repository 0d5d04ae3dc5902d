"""Training speed of ``mk-env train --algo az-ppo`` in learner decisions per second of wall time.

``python benchmarks/az_ppo_speed.py [--init FILE] [--opponents self] [--workers 2] [--threads 2]
[--epochs 2] [--batch-size 256] [--games 32] [--iterations 3] [--json FILE]``

It runs an az-ppo run in a temporary folder (:class:`training.az.ppo.PGRun`, the command's code) from
``--init`` (a policy-value file; default a freshly initialised network of the clone's shape: width 512,
action features) and times ``--iterations`` iterations after one warm-up iteration that is not counted
(it starts the worker processes). An iteration is the run's: ``--games`` games against ``--opponents``
(``self``: the network in every seat, every seat's decisions trained on), then the PPO update over the
iteration's learner decisions. Every second of the loop is counted (games, the learner's and the
opponents' decisions, the update); the evaluations are not (the run's own evaluation every
``--eval-every`` iterations is off here). It prints a line per iteration, then the total: learner
decisions per second of wall time, and the share of the update. The figure depends on the policy (its
games' lengths and legal actions): a trained network's runs are the ones to quote.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any


def az_ppo_speed(init: str | None, opponents: str, workers: int, threads: int, epochs: int, games: int,
                 iterations: int, folder: Path, batch_size: int = 256) -> dict[str, Any]:
    """Time ``iterations`` az-ppo iterations (after a warm-up one) in ``folder``; the figures."""
    import torch

    from agents.az_net import new_net, save_net
    from mk_env.games import make_game
    from training.az.ppo import PGRun, PGSettings
    from training.stopping import StopRequest
    torch.set_num_threads(threads)
    if init is None:
        game = make_game("mountain_king", 2)
        torch.manual_seed(0)
        init = str(save_net(new_net(game, hidden=512), folder / "fresh.safetensors", game))
    settings = PGSettings(init=init, opponents=opponents, workers=workers, epochs=epochs, games=games,
                          batch_size=batch_size, eval_every=0, eval_games=1).check()
    run = PGRun.start(folder / "run", settings, log=lambda *a, **k: None)
    rows = []
    with StopRequest() as stop:
        try:
            for k in range(iterations + 1):
                before, t0 = run.counters["decisions"], time.perf_counter()
                run.iteration(stop, time.time())
                seconds = time.perf_counter() - t0
                if k:  # the first starts the worker processes: not counted
                    rows.append({"decisions": run.counters["decisions"] - before, "seconds": seconds,
                                 "update_seconds": run.update_seconds})
                    print(f"iteration {k}: {rows[-1]['decisions']} learner decisions in {seconds:.1f} s "
                          f"({rows[-1]['decisions'] / seconds:.0f}/s; the update {run.update_seconds:.1f} s)",
                          flush=True)
        finally:
            run.player.close()
            run.evaluator.close()
    decisions, seconds = sum(r["decisions"] for r in rows), sum(r["seconds"] for r in rows)
    return {"opponents": opponents, "workers": workers, "threads": threads, "epochs": epochs,
            "batch_size": batch_size, "games": games,
            "iterations": iterations, "decisions": decisions, "seconds": round(seconds, 2),
            "decisions_per_second": round(decisions / seconds, 1),
            "update_share": round(sum(r["update_seconds"] for r in rows) / seconds, 3)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python benchmarks/az_ppo_speed.py", description=__doc__.split("\n")[0])
    parser.add_argument("--init", default=None, help="a policy-value file (default: a fresh width-512 network)")
    parser.add_argument("--opponents", default="self", help="the run's --opponents (default self)")
    parser.add_argument("--workers", type=int, default=2, help="processes playing the games (default 2)")
    parser.add_argument("--threads", type=int, default=2, help="torch threads of the update (default 2)")
    parser.add_argument("--epochs", type=int, default=2, help="PPO epochs per iteration (default 2)")
    parser.add_argument("--batch-size", type=int, default=256, help="PPO minibatch (default 256)")
    parser.add_argument("--games", type=int, default=32, help="games per iteration (default 32)")
    parser.add_argument("--iterations", type=int, default=3, help="iterations timed (default 3)")
    parser.add_argument("--json", default=None, help="also write the figures to this file")
    args = parser.parse_args(argv)
    for name in ("workers", "threads", "epochs", "batch_size", "games", "iterations"):
        if getattr(args, name) < 1:
            parser.error(f"--{name.replace('_', '-')} needs at least 1")
    with tempfile.TemporaryDirectory() as tmp:
        result = az_ppo_speed(args.init, args.opponents, args.workers, args.threads, args.epochs, args.games,
                              args.iterations, Path(tmp), args.batch_size)
    print(f"az-ppo, opponents {result['opponents']}, {result['workers']} workers, {result['threads']} threads, "
          f"{result['epochs']} epochs: {result['decisions']} learner decisions in {result['seconds']:.1f} s = "
          f"{result['decisions_per_second']:.0f} per second of wall time (the update {result['update_share']:.0%})")
    print(json.dumps(result))
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
