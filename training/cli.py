"""The ``mk-env`` command line: one sub-command per job, each registered by its own module.

A module listed in ``COMMANDS`` provides ``register(subparsers)``, which adds its sub-command and sets
``func`` (called with the parsed arguments, returning an exit code).
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys

COMMANDS = (
    "training.play",        # mk-env play
    "training.tournament",  # mk-env tournament (the main job)
    "training.train",       # mk-env train
    "training.replay",      # mk-env replay
    "training.bench",       # mk-env bench
    "training.soak",        # mk-env soak
    "training.convert_model",  # mk-env convert-model
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="mk-env",
        description="In the Hall of the Mountain King: play, tournaments, training, replays, benchmarks.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMANDS:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as e:
            if e.name != name:
                raise
            continue
        module.register(sub)
    return parser


def one_torch_thread_per_process() -> None:
    """Torch's thread count is the process's to decide, not an agent's: one per process (fastest on
    few cores, fair to neighbours) unless ``OMP_NUM_THREADS`` says otherwise. Set before torch is
    imported, it also reaches every worker process (docs/training.md, "Threads")."""
    os.environ.setdefault("OMP_NUM_THREADS", "1")


def main(argv: list[str] | None = None) -> int:
    one_torch_thread_per_process()
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    return int(args.func(args) or 0)


if __name__ == "__main__":
    sys.exit(main())
