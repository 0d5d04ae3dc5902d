"""``mk-env train --algo az-ppo``: the command line of :mod:`training.az.ppo`.

Shared options it reads: ``--out``, ``--resume``, ``--timesteps`` (learner decisions to reach), ``--seed``,
``--lr``, ``--batch-size``, ``--n-epochs``, ``--ent-coef``, ``--eval-every`` / ``--eval-games`` (in
iterations / games), ``--opponents`` (agent specs, comma-separated), ``--players`` (the clone's, without
``--pg-init``), ``--threads``. Its own options start with ``--pg-``; the game, its players and options are
the starting network's.
"""

from __future__ import annotations

import argparse
import functools
from pathlib import Path
from typing import Any

from training import cli
from training.run_files import record_threads
from training.stopping import TrainingStopped

from .cli import TIMESTEPS_DEFAULT, add_options, given_options
from .ppo import PGRun, PGSettings

#: --pg-NAME -> (setting, argument type, help)
PG_OPTIONS = {
    "init": (str, "the policy-value file to start from (e.g. DIR/best.safetensors of --algo az); without "
                  "it the run first clones --pg-clone-agent into DIR/clone.safetensors"),
    "clone-agent": (str, "without --pg-init: the teacher whose games are cloned"),
    "clone-games": (cli.positive_int, "without --pg-init: the teacher's games"),
    "clone-steps": (cli.positive_int, "without --pg-init: gradient steps of the clone"),
    "clone-hidden": (cli.positive_int, "without --pg-init: width of the cloned network's layers"),
    "games": (cli.positive_int, "games per iteration"),
    "clip": (cli.positive_float, "PPO's clipping of the probability ratio"),
    "margin-weight": (cli.non_negative_float, "weight of tanh(honour margin / scale) in a game's return"),
    "margin-scale": (cli.positive_float, "honour margin that counts as tanh(1)"),
    "workers": (cli.positive_int, "processes playing the games (the games played do not depend on it; "
                "it may change on --resume)"),
    "minutes": (cli.positive_float, "stop this invocation after this many minutes (--resume continues)"),
}
#: shared options -> settings
SHARED = {"seed": "seed", "learning_rate": "learning_rate", "batch_size": "batch_size", "n_epochs": "epochs",
          "ent_coef": "ent_coef", "eval_every": "eval_every", "eval_games": "eval_games",
          "opponents": "opponents", "players": "players"}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The ``--pg-*`` options (all default to None: the run's settings or :class:`PGSettings`)."""
    add_options(parser, "pg", PG_OPTIONS, PGSettings(), "az-ppo")


def changes_from(args: argparse.Namespace, resume: bool) -> dict[str, Any]:
    """The settings the command line gives (None: not given)."""
    given = given_options(args, "pg", PG_OPTIONS)
    given.update({setting: getattr(args, option, None) for option, setting in SHARED.items()})
    if not (resume and args.timesteps == TIMESTEPS_DEFAULT):
        given["decisions"] = args.timesteps
    return given


def run(args: argparse.Namespace) -> int:
    """Run ``mk-env train --algo az-ppo``; the exit code."""
    import torch
    torch.set_num_threads(args.threads)
    out = Path(args.out)
    log = functools.partial(print, flush=True)
    try:
        if args.resume:
            pg = PGRun.resume(out, changes_from(args, True), log)
        else:
            given = {k: v for k, v in changes_from(args, False).items() if v is not None}
            pg = PGRun.start(out, PGSettings(**given).check(), log)
    except ValueError as e:
        raise cli.UsageError(str(e)) from None
    record_threads(out, args.threads)  # now, so that a run killed before its end still resumes with it
    try:
        latest = pg.train()
    except TrainingStopped as e:
        print(f"stopped: {e}")
        return e.exit_code
    print(f"latest network: {latest} (agent specs aznet:{latest} alone, az:{latest} with search)")
    return 0
