"""``mk-env convert-model IN.zip OUT.safetensors --trust``: an SB3 zip to the safe model format.

Loading the zip unpickles code from it (that is why ``--trust`` is required: convert only files you
trust); the result holds weights and JSON only (:mod:`agents.policy_file`) and loads anywhere without
trust, e.g. as the agent spec ``ppo:OUT.safetensors``.
"""

from __future__ import annotations

import argparse
from pathlib import Path


def _cmd(args: argparse.Namespace) -> int:
    from agents.policy_file import SUFFIX, convert_zip, read_config
    out = Path(args.output)
    if out.suffix != SUFFIX:
        print(f"error: OUT {args.output!r}: give a file name ending in {SUFFIX}")
        return 2
    options = {"board_side": args.board_side} if args.board_side else None
    try:
        convert_zip(args.input, out, trust=args.trust, players=args.players, game_options=options,
                    optimizer=args.keep_optimizer)
    except (ValueError, OSError) as e:
        print(f"error: {e}")
        return 2
    config = read_config(out)
    print(f"wrote {out} ({out.stat().st_size / 1e6:.1f} MB): {config['env']}, layout "
          f"{config['layout_fingerprint']}, {config['players']} players, "
          f"{config['num_timesteps']} steps; use it as ppo:{out}")
    return 0


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "convert-model", help="convert a Stable-Baselines3 .zip to the safe .safetensors model format",
        description="Load a MaskablePPO .zip (this unpickles code from the file: --trust says you "
                    "trust it) and write its policy as .safetensors weights with a JSON description, "
                    "which loads without running code (docs/security.md).")
    p.add_argument("input", metavar="IN.zip", help="the SB3 model zip")
    p.add_argument("output", metavar="OUT.safetensors", help="the safe model file to write")
    p.add_argument("--trust", action="store_true",
                   help="required: you trust IN.zip (loading it can run any code it carries)")
    p.add_argument("--players", type=int, default=None,
                   help="players of the game it was trained for (default: read from the model)")
    p.add_argument("--board-side", default=None,
                   help="board side it was trained on (default: by player count)")
    p.add_argument("--keep-optimizer", action="store_true",
                   help="also keep Adam's moments (for training on; about three times the size)")
    p.set_defaults(func=_cmd)
