"""The ``mk-env`` command line: one sub-command per job, each registered by its own module.

A module listed in ``COMMANDS`` provides ``register(subparsers)``, which adds its sub-command and sets
``func`` (called with the parsed arguments, returning an exit code).

Misuse. Every misuse ends the same way: ONE line on stderr, ``mk-env CMD: error: WHAT (what is
allowed)``, and exit code 2, never a traceback. Arguments are checked when parsed, by the ``type=``
validators below (:func:`positive_int`, :func:`seed`, :func:`player_count`, :func:`out_dir`...);
a sub-command raises :class:`UsageError` for a clash between arguments; and errors that user input
causes later in library code (``ValueError`` and its kinds: ``ConfigError``, ``PackError``,
``RecordError``; ``OSError`` such as a missing file; a missing optional package) end the same way.
Anything else is a bug and shows its traceback. A run stopped by a dead worker
(:class:`~training.workers.WorkerDied`) prints one line and exits with code 1; Ctrl-C, 130.
Warnings (a torn line dropped, a worker that died) are printed as one line each:
``mk-env CMD: warning: ...``.
"""

from __future__ import annotations

import argparse
import importlib
import math
import os
import sys
import warnings
from contextlib import contextmanager
from pathlib import Path

from mk_env.core.text import printable

from .workers import WorkerDied

COMMANDS = (
    "training.play",        # mk-env play
    "training.tournament",  # mk-env tournament (the main job)
    "training.card_cli",    # mk-env evaluate (an agent's benchmark card)
    "training.serve",       # mk-env serve (a table in the browser)
    "training.balance",     # mk-env balance (seat and start-point fairness)
    "training.train_cli",   # mk-env train
    "training.replay",      # mk-env replay
    "training.bench",       # mk-env bench
    "training.soak",        # mk-env soak
    "training.convert_model",  # mk-env convert-model
)

#: errors that user input causes in library code: one line and exit code 2, not a traceback (an
#: ImportError only when it is a missing optional package: see :func:`is_user_error`)
USER_ERRORS = (ValueError, OSError, ImportError)
#: our own packages: failing to import one of them is a bug, not a missing extra
OWN_PACKAGES = ("mk_env", "agents", "training")
#: the most worker processes a command accepts
MAX_WORKERS = max(256, 4 * (os.cpu_count() or 1))
#: the most games one run accepts (its schedule is built up front; 10 million games at 1 s each are
#: about four months of one core)
MAX_GAMES = 10_000_000


class UsageError(ValueError):
    """A misuse of the command line (a bad value, two options that clash): :func:`main` prints it as
    one line, ``PROG: error: MESSAGE``, and exits with code 2. ``prog`` is set for parse errors."""

    def __init__(self, message: str, prog: str | None = None) -> None:
        super().__init__(message)
        self.prog = prog


class OneLineParser(argparse.ArgumentParser):
    """An argument parser whose errors are :class:`UsageError` (one line, no usage block)."""

    def error(self, message: str):  # type: ignore[override]
        raise UsageError(message, prog=self.prog)


# ================================================================================================
# argument types: each raises ArgumentTypeError saying what was given and what is allowed
# ================================================================================================
def _whole_number(text: str) -> int:
    try:
        return int(text)
    except (TypeError, ValueError):
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None


def _finite_number(text: str) -> float:
    try:
        x = float(text)
    except (TypeError, ValueError):
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not math.isfinite(x):
        raise argparse.ArgumentTypeError(f"{text!r} is not allowed; use a finite number")
    return x


def allowed(value: int | float, ok: bool, rule: str) -> int | float:
    """``value`` if ``ok``; otherwise the argument error ``VALUE is not allowed; RULE``."""
    if not ok:
        shown = f"{value:g}" if isinstance(value, float) else str(value)
        raise argparse.ArgumentTypeError(f"{shown} is not allowed; {rule}")
    return value


def positive_int(text: str) -> int:
    """A whole number >= 1 (games, timesteps, epochs)."""
    n = _whole_number(text)
    return allowed(n, n >= 1, "use a whole number >= 1")


def non_negative_int(text: str) -> int:
    """A whole number >= 0 (0 usually meaning "never")."""
    n = _whole_number(text)
    return allowed(n, n >= 0, "use a whole number >= 0")


def game_count(text: str) -> int:
    """Games in a run: 1 to :data:`MAX_GAMES`."""
    n = _whole_number(text)
    return allowed(n, 1 <= n <= MAX_GAMES, f"use 1 to {MAX_GAMES:,} games")


def seed(text: str) -> int:
    """A seed: a whole number from 0 to 2**63 - 1 (numpy's seeds are non-negative)."""
    n = _whole_number(text)
    return allowed(n, 0 <= n < 2**63, "a seed is a whole number from 0 to 2**63 - 1")


def player_count(text: str) -> int:
    """Players per game: 2 to 5."""
    n = _whole_number(text)
    return allowed(n, 2 <= n <= 5, "the game is for 2 to 5 players")


def port(text: str) -> int:
    """A TCP port: 0 (any free one) to 65535."""
    n = _whole_number(text)
    return allowed(n, 0 <= n <= 65535, "a port is a whole number from 0 (any free one) to 65535")


def workers(text: str) -> int:
    """Worker processes: 1 to :data:`MAX_WORKERS`."""
    n = _whole_number(text)
    return allowed(n, 1 <= n <= MAX_WORKERS, f"use 1 to {MAX_WORKERS} worker processes")


def positive_float(text: str) -> float:
    """A finite number > 0 (seconds, a learning rate)."""
    x = _finite_number(text)
    return allowed(x, x > 0, "use a number > 0")


def non_negative_float(text: str) -> float:
    """A finite number >= 0 (a coefficient that may be off)."""
    x = _finite_number(text)
    return allowed(x, x >= 0, "use a number >= 0")


def _output_path(text: str, folder: bool) -> str:
    """``text`` as an output path: it may exist only as the wanted kind (a folder, or a file to
    overwrite), and no part of the path above it may be a file."""
    want, other = ("folder", "file") if folder else ("file name", "folder")
    path = Path(text)
    if not text:
        raise argparse.ArgumentTypeError(f"an empty path is not allowed; give a {want}")
    if path.exists() and path.is_dir() != folder:
        raise argparse.ArgumentTypeError(f"{text!r} is a {other}; give a {want}")
    if any(p.exists() and not p.is_dir() for p in path.parents):
        raise argparse.ArgumentTypeError(f"{text!r}: a part of the path is a file, not a folder")
    return text


def out_dir(text: str) -> str:
    """An output folder: new, or an existing folder (never an existing file)."""
    return _output_path(text, folder=True)


def out_file(text: str) -> str:
    """An output file: new, or an existing file to overwrite (never a folder)."""
    return _output_path(text, folder=False)


# ================================================================================================
# the command
# ================================================================================================
def build_parser() -> argparse.ArgumentParser:
    from mk_env.games import GAMES

    titles = "; ".join(f"{e.title} (--game {e.name}, {e.player_counts[0]}-{e.player_counts[-1]} players)"
                       for e in GAMES.values())
    parser = OneLineParser(
        prog="mk-env",
        description=f"The troll games of the suite: play, tournaments, training, replays, benchmarks, for "
                    f"{titles}. play, tournament, train, replay, bench and soak take --game (default "
                    f"{next(iter(GAMES))}); balance reads the first game's seats.")
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


def one_line(error: BaseException | str) -> str:
    """An error's message on one line, control characters escaped (it may quote a file)."""
    if isinstance(error, OSError) and error.strerror and error.filename is not None:
        text = f"{error.strerror}: {error.filename}"
    else:
        text = str(error) or type(error).__name__
    return printable(" ".join(text.split()))


@contextmanager
def one_line_warnings(prog: str):
    """Show warnings as ``PROG: warning: MESSAGE``, one line each, on stderr."""
    def show(message, category, filename, lineno, file=None, line=None) -> None:
        print(f"{prog}: warning: {one_line(str(message))}", file=sys.stderr, flush=True)

    with warnings.catch_warnings():
        warnings.showwarning = show
        yield


def one_torch_thread_per_process() -> None:
    """Torch's thread count is the process's to decide, not an agent's: one per process (fastest on
    few cores, fair to neighbours) unless ``OMP_NUM_THREADS`` says otherwise. Set before torch is
    imported, it also reaches every worker process (docs/training.md, "Threads")."""
    os.environ.setdefault("OMP_NUM_THREADS", "1")


def is_user_error(error: BaseException) -> bool:
    """Whether ``error`` (one of :data:`USER_ERRORS`) comes from the user's input or installation
    rather than a bug: an ImportError counts only for a missing package that is not one of ours (an
    optional extra such as Ray) or one raised with a ``pip install`` hint."""
    if not isinstance(error, ImportError):
        return True
    missing = (error.name or "").split(".")[0]
    return "pip install" in str(error) or (isinstance(error, ModuleNotFoundError) and bool(missing)
                                           and missing not in OWN_PACKAGES)


def main(argv: list[str] | None = None) -> int:
    """Run ``mk-env`` with ``argv`` (default: the process's arguments); the exit code."""
    one_torch_thread_per_process()
    parser = build_parser()
    prog = parser.prog
    try:
        args, extra = parser.parse_known_args(argv)
        if not getattr(args, "func", None):
            parser.print_help()
            return 2
        prog = f"{parser.prog} {args.command}"
        if extra:
            raise UsageError(f"unrecognized arguments: {' '.join(extra)} (see {prog} --help)")
        with one_line_warnings(prog):
            return int(args.func(args) or 0)
    except UsageError as e:
        print(f"{e.prog or prog}: error: {one_line(e)}", file=sys.stderr)
        return 2
    except WorkerDied as e:
        print(f"{prog}: error: {one_line(e)}", file=sys.stderr)
        return 1
    except USER_ERRORS as e:
        if not is_user_error(e):
            raise
        print(f"{prog}: error: {one_line(e)}", file=sys.stderr)
        return 2
    except KeyboardInterrupt as e:
        said = one_line(e) if str(e) else ""
        print(f"{prog}: interrupted" + (f": {said}" if said else ""), file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
