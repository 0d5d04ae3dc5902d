"""``mk-env train --algo az``: the command line of :mod:`training.az.run`.

Shared options it reads: ``--out``, ``--resume``, ``--timesteps`` (self-play positions to reach),
``--players``, ``--seed``, ``--lr``, ``--batch-size``, ``--eval-every`` / ``--eval-games`` (in iterations /
games), ``--game``, ``--board-side``, ``--threads``. Its own options start with ``--az-``.
"""

from __future__ import annotations

import argparse
import functools
from pathlib import Path
from typing import Any

from training import cli
from training.play import game_options
from training.run_files import record_threads
from training.stopping import TrainingStopped

from .settings import AZSettings


def on_off(text: str) -> bool:
    """``on``/``off`` (also true/false, yes/no, 1/0) as a bool."""
    words = {"on": True, "true": True, "yes": True, "1": True, "off": False, "false": False, "no": False,
             "0": False}
    if text.lower() not in words:
        raise argparse.ArgumentTypeError(f"expected on or off, got {text!r}")
    return words[text.lower()]


#: --az-NAME -> (setting, argument type, help)
AZ_OPTIONS = {
    "simulations": (cli.positive_int, "search simulations per self-play decision"),
    "games": (cli.positive_int, "self-play games per iteration, played in lockstep"),
    "train-steps": (cli.positive_int, "gradient steps per iteration"),
    "buffer": (cli.positive_int, "replay buffer capacity (positions)"),
    "temperature-moves": (cli.non_negative_int, "decisions per game sampled from the visits"),
    "gate-every": (cli.non_negative_int, "iterations between gatings (0: no gating)"),
    "gate-games": (cli.positive_int, "games per gating"),
    "gate-threshold": (cli.positive_float, "win rate the latest needs against the best"),
    "eval-simulations": (cli.non_negative_int, "also evaluate az:BEST?N against the gauntlet (0: no)"),
    "eval-opponents": (str, "gauntlet agents, comma-separated specs"),
    "warm-agent": (str, "agent whose games warm-start a new run ('' = none)"),
    "warm-games": (cli.non_negative_int, "games of the warm-start agent"),
    "warm-steps": (cli.non_negative_int, "gradient steps of the warm start"),
    "warm-workers": (cli.positive_int, "processes playing the warm start's games (the same positions)"),
    "minutes": (cli.positive_float, "stop this invocation after this many minutes (--resume continues)"),
    "hidden": (cli.positive_int, "width of the network's layers"),
    "layers": (cli.positive_int, "layers of the network's trunk"),
    "action-features": (on_off, "score each legal action also from the observation "
                        "entries it refers to (on/off)"),
}
TIMESTEPS_DEFAULT = 200_000  # mk-env train's --timesteps default: on --resume, that value means "not given"


def add_options(parser: argparse.ArgumentParser, prefix: str, options: dict[str, tuple], defaults: Any,
                label: str) -> None:
    """Add ``--PREFIX-NAME`` for each of ``options`` (name -> (type, help)), all defaulting to None (the
    run's settings, or ``defaults``' on a new run)."""
    for name, (kind, text) in options.items():
        setting = name.replace("-", "_")
        parser.add_argument(f"--{prefix}-{name}", dest=f"{prefix}_{setting}", type=kind, default=None,
                            help=f"{label}: {text} (default {getattr(defaults, setting)!r})")


def given_options(args: argparse.Namespace, prefix: str, options: dict[str, tuple]) -> dict[str, Any]:
    """setting -> the value of its ``--PREFIX-NAME`` option (None: not given)."""
    return {name.replace("-", "_"): getattr(args, f"{prefix}_{name.replace('-', '_')}") for name in options}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The ``--az-*`` options (all default to None: the run's settings or :class:`AZSettings`)."""
    add_options(parser, "az", AZ_OPTIONS, AZSettings(), "az")


def changes_from(args: argparse.Namespace, resume: bool) -> dict[str, Any]:
    """The settings the command line gives (None: not given)."""
    given = given_options(args, "az", AZ_OPTIONS)
    given.update(players=args.players, seed=args.seed, learning_rate=args.learning_rate,
                 batch_size=args.batch_size, eval_every=args.eval_every, eval_games=args.eval_games)
    if not (resume and args.timesteps == TIMESTEPS_DEFAULT):
        given["positions"] = args.timesteps
    if args.game is not None:
        given["game"] = args.game
    if args.board_side is not None:
        given["game_options"] = game_options(args.game or "mountain_king", board_side=args.board_side) or None
    return given


def run(args: argparse.Namespace) -> int:
    """Run ``mk-env train --algo az``; the exit code."""
    import torch

    from .run import AZRun
    torch.set_num_threads(args.threads)
    out = Path(args.out)
    log = functools.partial(print, flush=True)
    if args.resume:
        az = AZRun.resume(out, changes_from(args, True), log)
    else:
        given = {k: v for k, v in changes_from(args, False).items() if v is not None}
        try:
            settings = AZSettings(**given).check()
        except ValueError as e:
            raise cli.UsageError(str(e)) from None
        az = AZRun.start(out, settings, log)
    record_threads(out, args.threads)  # now, so that a run killed before its end still resumes with it
    try:
        best = az.train()
    except TrainingStopped as e:  # SIGINT/SIGTERM: the iteration in progress is dropped
        print(f"stopped: {e}")
        return e.exit_code
    print(f"best network: {best} (agent specs az:{best} with search, aznet:{best} alone)")
    return 0
