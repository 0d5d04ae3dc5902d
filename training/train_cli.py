"""``mk-env train``: the command line of the training algorithms, chosen by ``--algo``.

:data:`ALGORITHMS` maps each ``--algo`` name to an :class:`Algorithm`: the ``"module:function"`` that
runs ``mk-env train`` with it (``run(args) -> exit code``, given the parsed arguments) and, optionally,
the ``"module:function"`` that adds its own options to the parser (``add_arguments(parser)``), both
imported on first use. ``maskable-ppo`` is :func:`training.train.train` (sb3-contrib MaskablePPO, and
the RLlib backend); ``ppo`` is the lean PPO of :mod:`training.fast_ppo` with the factorised policy of
:mod:`agents.factorised_policy`. The options shared by every algorithm (``--out``, ``--timesteps``,
``--resume``, the numbers of :data:`NUMBER_SETTINGS`) default to ``None`` here: each algorithm fills
in its own defaults. A new run without ``--algo`` is ``maskable-ppo``; ``--resume`` without it continues
the run's own algorithm (``algo`` in ``DIR/config.json``; absent: ``maskable-ppo``).
"""

from __future__ import annotations

import argparse
import importlib
import json
from pathlib import Path
from typing import Any, NamedTuple

from mk_env.games import DEFAULT_GAME

from . import cli
from .play import add_game_argument, game_options, option_of
from .run_files import record_threads
from .selfplay import DEFAULT_OPPONENTS
from .stopping import TrainingStopped
from .train import train
from .train_settings import DEFAULT_OUT, DEFAULT_VEC, DEFAULTS, REWARDS, VEC_KINDS, flag

#: the settings given as numbers: setting -> (argument type, help; the flag is ``flag(setting)`` and
#: the help ends with the default)
NUMBER_SETTINGS = {
    "players": (cli.player_count, "players per game, 2-5 (Cave Troll 2-4)"),
    "envs": (cli.positive_int, "parallel envs"),
    "seed": (cli.seed, "seed"),
    "n_steps": (cli.positive_int, "steps per env per update"),
    "batch_size": (cli.positive_int, "minibatch size"),
    "n_epochs": (cli.positive_int, "epochs per update"),
    "learning_rate": (cli.positive_float, "learning rate"),
    "ent_coef": (cli.non_negative_float, "entropy bonus"),
    "snapshot_every": (cli.non_negative_int, "steps between snapshots for the opponent pool"),
    "checkpoint_every": (cli.non_negative_int, "steps between checkpoints"),
    "eval_every": (cli.non_negative_int, "steps between gauntlet evaluations, 0 = never"),
    "eval_games": (cli.positive_int, "games per gauntlet opponent per evaluation"),
}


class Algorithm(NamedTuple):
    """One ``--algo`` choice: ``run`` and ``add_arguments`` as ``"module:function"`` strings; ``reads``: the
    options of ``mk-env train`` it reads besides :data:`EVERY_ALGORITHM` and its own (any other one given is
    refused, never recorded and ignored)."""

    run: str
    help: str
    add_arguments: str | None = None
    reads: frozenset[str] = frozenset()


#: the options every algorithm reads
EVERY_ALGORITHM = frozenset({"out", "resume", "timesteps", "threads", "algo"})
_GAME = frozenset({"game", "board_side"})


#: ``--algo`` name -> the algorithm (the first is the default of a new run)
ALGORITHMS: dict[str, Algorithm] = {
    "maskable-ppo": Algorithm("training.train_cli:run_maskable_ppo",
                              "sb3-contrib MaskablePPO over the flat action mask (--backend rllib: Ray)",
                              reads=frozenset(NUMBER_SETTINGS) | _GAME | {
                                  "opponents", "vec", "reward", "extractor", "imitate", "imitate_epochs",
                                  "backend", "iterations", "address", "verbose", "trust"}),
    "ppo": Algorithm("training.fast_ppo_cli:run",
                     "lean PPO in one process: factorised policy, batched opponents (docs/training.md)",
                     "training.fast_ppo_cli:add_arguments",
                     frozenset(NUMBER_SETTINGS) | _GAME | {"opponents", "reward", "imitate", "imitate_epochs"}),
    "az": Algorithm("training.az.cli:run", "AlphaZero-style self-play: network-guided ISMCTS, replay buffer, "
                    "gating (docs/training.md)", "training.az.cli:add_arguments",
                    _GAME | {"players", "seed", "learning_rate", "batch_size", "eval_every", "eval_games"}),
    "az-ppo": Algorithm("training.az.ppo_cli:run", "PPO fine-tuning of a policy-value network (--pg-init, e.g. "
                        "an az warm start; its game is the network's) against fixed opponents (docs/training.md)",
                        "training.az.ppo_cli:add_arguments",
                        frozenset({"seed", "learning_rate", "batch_size", "n_epochs", "ent_coef", "eval_every",
                                   "eval_games", "opponents", "players"})),
}
DEFAULT_ALGO = next(iter(ALGORITHMS))


def _function(target: str) -> Any:
    """The function named by ``"module:function"``."""
    module, _, name = target.partition(":")
    return getattr(importlib.import_module(module), name)


def resumed_config(args: argparse.Namespace) -> dict[str, Any]:
    """With ``--resume``, the run's ``DIR/config.json`` (empty when it has none); else empty."""
    config = Path(args.out) / "config.json"
    return json.loads(config.read_text()) if args.resume and config.is_file() else {}


def run_algorithm(args: argparse.Namespace, resumed: dict[str, Any]) -> str:
    """The ``--algo`` of this command: as given, else the resumed run's own (``resumed``: its config),
    else the default."""
    return args.algo or resumed.get("algo", DEFAULT_ALGO)


def run_threads(args: argparse.Namespace, resumed: dict[str, Any]) -> int:
    """The ``--threads`` of this command: as given, else the resumed run's own (``resumed``: its config,
    ``threads``), else 1."""
    if args.threads is not None:
        return args.threads
    recorded = resumed.get("threads")
    return recorded if isinstance(recorded, int) and recorded >= 1 else 1


def _cmd(args: argparse.Namespace) -> int:
    """Run ``mk-env train`` with its algorithm; the exit code."""
    resumed = resumed_config(args)  # read once: the run's algorithm and threads
    algo = run_algorithm(args, resumed)
    if algo not in ALGORITHMS:
        raise cli.UsageError(f"--algo {algo!r} (from {args.out}/config.json): allowed: "
                             f"{', '.join(ALGORITHMS)}")
    refuse_options_not_read(args, algo)
    args.threads = run_threads(args, resumed)
    try:
        return _function(ALGORITHMS[algo].run)(args)
    except KeyboardInterrupt:  # a stop outside the trainers' own handling (a warm start, a setup): say what stands
        raise KeyboardInterrupt(what_stands(Path(args.out))) from None
    finally:
        record_threads(args.out, args.threads)


def what_stands(out: Path) -> str:
    """After an interruption: the run's last checkpoint and how to continue from it, or that nothing of the
    run was saved."""
    folder = out / "checkpoints"
    found = sorted((p for p in folder.iterdir() if p.is_file()), key=lambda p: p.stat().st_mtime) \
        if folder.is_dir() else []
    if not found:
        return f"stopped before the run's first checkpoint: nothing of it was saved in {out} (a warm start under " \
               "way is lost; run the command again)"
    return f"the last checkpoint, {found[-1]}, stands: mk-env train --resume --out {out} continues from it"


def refuse_options_not_read(args: argparse.Namespace, algo: str) -> None:
    """A ``UsageError`` naming an option given (not at its default) that ``--algo algo`` does not read, and
    the algorithms that do: a setting is applied or refused, never recorded and ignored."""
    table: dict[str, tuple[str, Any, str | None]] = args.train_options
    reads = EVERY_ALGORITHM | ALGORITHMS[algo].reads
    for dest, (option, default, owner) in table.items():
        value = getattr(args, dest, default)
        if value == default or dest in reads or owner == algo:
            continue
        owners = [owner] if owner else [name for name, a in ALGORITHMS.items() if dest in a.reads]
        shown = "" if value is True else f" {value}"
        raise cli.UsageError(f"{option}{shown}: not an option of --algo {algo}"
                             + (f"; it is an option of --algo {', '.join(owners)}" if owners else ""))


def run_maskable_ppo(args: argparse.Namespace) -> int:
    """``mk-env train --algo maskable-ppo``: :func:`training.train.train` (or the RLlib backend)."""
    if args.backend == "rllib" and args.game not in (None, DEFAULT_GAME):
        raise cli.UsageError(f"--game {args.game}: --backend rllib trains {DEFAULT_GAME} only so far; "
                             f"use --backend sb3")
    options = game_options(args.game or DEFAULT_GAME, board_side=args.board_side)
    if args.backend == "rllib":
        from .rllib_train import train_rllib
        result = train_rllib(players=args.players or DEFAULTS["players"], iterations=args.iterations,
                             out=args.out, address=args.address, seed=args.seed or 0,
                             reward=args.reward or DEFAULTS["reward"],
                             num_env_runners=args.envs or DEFAULTS["envs"])
        print(json.dumps(result, indent=1))
        return 0
    try:
        final = train(out=args.out, timesteps=args.timesteps, resume=args.resume, trust=args.trust,
                      game=args.game, **{name: getattr(args, name) for name in NUMBER_SETTINGS},
                      opponents=args.opponents, vec=args.vec, reward=args.reward, extractor=args.extractor,
                      threads=args.threads,
                      game_options=options or None,
                      verbose=args.verbose, **_imitation(args.imitate, args.imitate_epochs))
    except TrainingStopped as e:
        print(f"stopped: {e}")
        return e.exit_code
    print(f"final model: {final} (use it as the agent spec ppo:{final})")
    return 0


def _imitation(text: str | None, epochs: int) -> dict[str, Any]:
    """``--imitate SPEC:DECISIONS`` -> train() keywords."""
    if not text:
        return {}
    spec, _, count = text.rpartition(":")
    if not spec or not count.isdigit() or int(count) < 1:
        raise ValueError(f"--imitate {text!r}: give AGENT:DECISIONS, e.g. heuristic:8000")
    return {"imitate_spec": spec, "imitate_decisions": int(count), "imitate_epochs": epochs}


def register(subparsers) -> None:
    """Add ``mk-env train`` to the command line."""
    d = DEFAULTS
    p = subparsers.add_parser(
        "train", help="self-play training (--algo: MaskablePPO by default; Ray RLlib with --backend)",
        description="Train a learner (--algo; by default sb3-contrib MaskablePPO) on the single-seat "
                    "view against an opponent pool "
                    "(snapshots of itself, its latest policy, fixed baselines), evaluate it against "
                    "random and heuristic, write checkpoints and DIR/final_model.safetensors. "
                    "Ctrl-C saves a checkpoint; --resume continues the run with its own settings "
                    "(an option given again is applied and recorded).")
    for name, (kind, text) in NUMBER_SETTINGS.items():
        option = flag(name)
        p.add_argument(option, dest=name, metavar=option[2:].replace("-", "_").upper(), type=kind,
                       default=None, help=f"{text} (default {d[name]})")
    add_game_argument(p)
    p.set_defaults(game=None)  # a new run: the first game; --resume: the run's own game
    p.add_argument("--timesteps", type=cli.positive_int, default=200_000,
                   help="total learner steps (with --resume: the total to reach; default 200000)")
    p.add_argument("--opponents", default=None,
                   help=f"opponent pool, SOURCE:WEIGHT entries; sources: latest, snapshots or an agent "
                        f"spec (default {DEFAULT_OPPONENTS})")
    p.add_argument("--vec", choices=VEC_KINDS, default=None,
                   help=f"vectorised env kind (default {DEFAULT_VEC}, measured faster on 2 cores)")
    p.add_argument("--out", type=cli.out_dir, default=DEFAULT_OUT,
                   help=f"output folder (default {DEFAULT_OUT})")
    p.add_argument("--resume", action="store_true", help="continue from the last checkpoint in --out")
    p.add_argument("--trust", action="store_true",
                   help="with --resume: allow a .zip checkpoint of an older version (unpickles code; "
                        "only for files you trust)")
    p.add_argument("--reward", choices=REWARDS + ("lead",), default=None,
                   help="reward: win, margin or dense (honour changes + win; the default of maskable-ppo); "
                        "lead (--algo ppo only, its default: changes of the honour lead + win)")
    p.add_argument("--extractor", default=None,
                   help="feature extractor: cnn (default) or flat (Cave Troll: flat only, its default)")
    p.add_argument("--imitate", default=None, metavar="AGENT:DECISIONS",
                   help="warm start of a new run: clone this many decisions of an agent "
                        "(e.g. heuristic:8000) before self-play")
    p.add_argument("--imitate-epochs", type=cli.positive_int, default=4,
                   help="epochs of the warm start (default 4)")
    p.add_argument("--threads", type=cli.positive_int, default=None,
                   help="torch threads of the main process (default 1; with --resume: the run's own)")
    p.add_argument("--board-side", default=None,
                   help=f"board side (default: by player count; {option_of('board_side')})")
    p.add_argument("--algo", choices=tuple(ALGORITHMS), default=None,
                   help="training algorithm: " + "; ".join(f"{k}: {a.help}" for k, a in ALGORITHMS.items())
                        + f" (default {DEFAULT_ALGO}; with --resume: the run's own)")
    owner_of: dict[str, str] = {}
    for name, algorithm in ALGORITHMS.items():
        if algorithm.add_arguments:
            before = {a.dest for a in p._actions}
            _function(algorithm.add_arguments)(p)
            owner_of.update({a.dest: name for a in p._actions if a.dest not in before})
    p.add_argument("--backend", choices=("sb3", "rllib"), default="sb3",
                   help="sb3 (default) or rllib (Ray RLlib, see training/rllib_train.py)")
    p.add_argument("--iterations", type=cli.positive_int, default=10, help="rllib: training iterations")
    p.add_argument("--address", default=None, help="rllib: Ray cluster address (default: local Ray)")
    p.add_argument("--verbose", type=cli.non_negative_int, default=0, help="SB3 verbosity (default 0)")
    #: dest -> (its flag, its default, the algorithm that added it): what refuse_options_not_read reads
    table = {a.dest: (a.option_strings[-1], a.default, owner_of.get(a.dest)) for a in p._actions
             if a.option_strings and a.dest != "help"}
    p.set_defaults(func=_cmd, train_options=table)
