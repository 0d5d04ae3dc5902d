"""Instructions per env step, counted by Valgrind's callgrind: a figure that does not move with the
machine's load, for comparing two versions of the code.

    python benchmarks/instructions.py [--steps 3000] [--players 4] [--source DIR]

Runs the same random masked play through ``mk_env.env(...)`` (fixed seeds, so the same games) twice
under ``valgrind --tool=callgrind``: once with no step (imports, tables, the first game set up) and
once with ``--steps``; prints the difference per step and per observation of distinct states. ``--source``
points at another checkout to measure it the same way (an A/B of two commits). OpenBLAS runs with one
thread (its idle threads would add instructions that vary run to run). Instructions are not time:
``memcpy`` and ``memset`` count one per byte under Valgrind, and cache misses count nothing; the
wall-clock figures are ``mk-env bench``'s.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

PLAY = """
import sys
import numpy as np
sys.path.insert(0, sys.argv[1])
import mk_env
try:
    from mk_env.mountain_king.env.masks import random_legal_action
except ImportError:  # an older checkout: the same draw, the plain way
    def random_legal_action(mask, rng):
        return int(rng.choice(np.flatnonzero(mask)))
steps, players = int(sys.argv[2]), int(sys.argv[3])
env = mk_env.env(num_players=players)
rng = np.random.default_rng(0)
done, seed = 0, 0
while done < steps:
    env.reset(seed=seed)
    seed += 1
    for agent in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        env.step(None if term or trunc else random_legal_action(obs["action_mask"], rng))
        done += 1
        if done >= steps:
            break
"""


def count(source: Path, steps: int, players: int) -> int:
    """Instructions of one run of the play script under callgrind."""
    with tempfile.TemporaryDirectory() as tmp:
        script = Path(tmp) / "play.py"
        script.write_text(PLAY)
        out = Path(tmp) / "callgrind.out"
        env = {**os.environ, "OPENBLAS_NUM_THREADS": "1", "PYTHONHASHSEED": "0"}
        run = subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", sys.executable,
                              str(script), str(source), str(steps), str(players)],
                             capture_output=True, text=True, env=env, cwd=tmp)
        found = re.search(r"Collected : (\d+)", run.stderr)
        if run.returncode != 0 or not found:
            raise SystemExit(f"callgrind run failed (exit {run.returncode}):\n{run.stderr[-2000:]}")
        return int(found.group(1))


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--steps", type=int, default=3000, help="env steps counted (default 3000)")
    p.add_argument("--players", type=int, default=4, choices=(2, 3, 4, 5), help="players (default 4)")
    p.add_argument("--source", type=Path, default=ROOT, help="checkout to measure (default: this one)")
    args = p.parse_args(argv)
    if shutil.which("valgrind") is None:
        print("valgrind is not installed (apt install valgrind); nothing measured", file=sys.stderr)
        return 2
    if args.steps < 1:
        p.error("--steps must be at least 1")
    base = count(args.source, 0, args.players)
    total = count(args.source, args.steps, args.players)
    per_step = (total - base) / args.steps
    print(f"{args.source}: {args.players} players, {args.steps} env steps: {per_step:,.0f} instructions per step "
          f"(setup and imports: {base:,})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
