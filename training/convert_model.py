"""``mk-env convert-model IN.zip OUT.safetensors --trust``: an SB3 zip to the safe model format.

Loading the zip unpickles code from it (that is why ``--trust`` is required: convert only files you
trust); the result holds weights and JSON only (:mod:`agents.policy_file`) and loads anywhere without
trust, e.g. as the agent spec ``ppo:OUT.safetensors``. ``--half`` writes a file for playing only: float16
weights, no optimizer (``mk-env convert-model IN.safetensors OUT.safetensors --half`` does that to a safe
model file of either kind, ``ppo:`` or ``az:``; it is how ``aznet:default`` was made). ``--describe-for-current
NOTE`` carries a safe model file over a version bump that kept its game's layouts (:mod:`agents.model_versions`;
how the shipped files were carried to ``mountain_king_v2``).
"""

from __future__ import annotations

import argparse
from pathlib import Path


def _cmd(args: argparse.Namespace) -> int:
    from agents.policy_file import SUFFIX, convert_zip, halve_model_file, is_sb3_zip
    out = Path(args.output)
    if out.suffix != SUFFIX:
        print(f"error: OUT {args.output!r}: give a file name ending in {SUFFIX}")
        return 2
    if args.half and args.keep_optimizer:
        print("error: --half writes a file for playing only; it cannot --keep-optimizer")
        return 2
    options = {"board_side": args.board_side} if args.board_side else None
    if args.describe_for_current is not None:
        return _describe_for_current(args.input, out, args.describe_for_current)
    try:
        if Path(args.input).is_file() and not is_sb3_zip(args.input) and args.half:
            halve_model_file(args.input, out)
            return _report(out)
        full = out.with_name(f".{out.name}.full{SUFFIX}") if args.half else out
        try:
            convert_zip(args.input, full, trust=args.trust, players=args.players, game_options=options,
                        optimizer=args.keep_optimizer)
            if args.half:
                halve_model_file(full, out)  # OUT is written once, already halved
        finally:
            if full != out:
                full.unlink(missing_ok=True)
    except (ValueError, OSError) as e:
        print(f"error: {e}")
        return 2
    return _report(out)


def _describe_for_current(src: str, out: Path, note: str) -> int:
    """``--describe-for-current``: the same weights described for this mk_env's environment version."""
    from agents.model_versions import describe_for_current
    from agents.policy_file import ModelFileError
    try:
        describe_for_current(src, out, note)
    except (ModelFileError, OSError) as e:
        print(f"error: {e}")
        return 2
    return _report(out)


def _report(out: Path) -> int:
    """Load ``out`` as the agent it is (checking it) and say what it holds; the exit code."""
    from agents import az_net
    from agents.policy_file import ModelFileError, load_policy, read_config, read_metadata
    size = f"{out.stat().st_size / 1e6:.1f} MB"
    try:
        meta = read_metadata(out)
        if isinstance(meta, dict) and meta.get("format") == az_net.FORMAT:
            _, config, _ = az_net.load_net(out)
            kind, steps = "az", "a policy-value network"
        else:
            config, kind = read_config(out), "ppo"
            load_policy(out)
            steps = f"{config['num_timesteps']} steps"
    except ModelFileError as e:
        print(f"error: {out} was written but does not load: {e}")
        return 2
    print(f"wrote {out} ({size}): {config['env']}, layout {config['layout_fingerprint']}, "
          f"{config['players']} players, {steps}; use it as {kind}:{out}")
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
    p.add_argument("--half", action="store_true",
                   help="for playing only: float16 weights, no optimizer (about half the size); IN may then "
                        "also be a .safetensors model file (ppo: or az:)")
    p.add_argument("--keep-optimizer", action="store_true",
                   help="also keep Adam's moments (for training on; about three times the size)")
    p.add_argument("--describe-for-current", metavar="NOTE", default=None,
                   help="IN is a .safetensors model file of an earlier environment version with the same "
                        "layouts: write it described for this version, NOTE saying what changed")
    p.set_defaults(func=_cmd)
