"""``mk-env train --algo ppo``: the command line of :func:`training.fast_ppo_run.train_fast_ppo`.

It takes the options ``mk-env train`` shares (``--out``, ``--timesteps``, ``--resume``, ``--players``,
``--envs``, ``--seed``, ``--n-steps``, ``--batch-size``, ``--n-epochs``, ``--lr``, ``--ent-coef``,
``--snapshot-every``, ``--checkpoint-every``, ``--eval-every``, ``--eval-games``, ``--opponents``,
``--reward``, ``--imitate``, ``--threads``, ``--game``, ``--board-side``) with its own defaults
(:data:`training.fast_ppo_run.FAST_DEFAULTS`), and adds ``--gamma``, ``--workers`` (collector processes:
:mod:`training.fast_ppo_workers`) and ``--features-dim``.
``--n-steps`` counts learner decisions per game per rollout. Options of the MaskablePPO route
(``--vec``, ``--extractor``, ``--backend rllib``) are refused by ``mk-env train`` (``refuse_options_not_read``).
"""

from __future__ import annotations

import argparse

from mk_env.games import DEFAULT_GAME

from . import cli
from .play import game_options


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``--algo ppo`` that ``mk-env train`` does not have already."""
    parser.add_argument("--gamma", type=cli.positive_float, default=None,
                        help="ppo: discount per learner decision (default 0.995)")
    parser.add_argument("--workers", type=cli.positive_int, default=None,
                        help="ppo: collector processes, the main one included (default 1; 2 on two cores)")
    parser.add_argument("--features-dim", type=cli.positive_int, default=None,
                        help="ppo: width of the features the factorised head reads (default 128)")


def run(args: argparse.Namespace) -> int:
    """``mk-env train --algo ppo``; the exit code."""
    from .fast_ppo_run import train_fast_ppo
    from .stopping import TrainingStopped
    from .train_cli import NUMBER_SETTINGS, _imitation
    options = game_options(args.game or DEFAULT_GAME, board_side=args.board_side)
    given = {name: getattr(args, name) for name in NUMBER_SETTINGS}
    given.update(game=args.game, opponents=args.opponents, reward=args.reward, gamma=args.gamma,
                 workers=args.workers,
                 game_options=options or None,
                 features={"features_dim": args.features_dim} if args.features_dim else None)
    try:
        final = train_fast_ppo(out=args.out, timesteps=args.timesteps, resume=args.resume,
                               threads=args.threads, **_imitation(args.imitate, args.imitate_epochs), **given)
    except TrainingStopped as e:
        print(f"stopped: {e}")
        return e.exit_code
    print(f"final model: {final} (use it as the agent spec ppo:{final})")
    return 0
