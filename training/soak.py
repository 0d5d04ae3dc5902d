"""``mk-env soak``: thousands of random games of any game of the suite, every invariant checked after every
decision.

Each game draws its player count (cycled over the game's, or the one given), the options its game declares
(:mod:`training.soak_rules`: the first game draws its board side, workshops, team mode and payment rule) and
one of the game's random policies. After each decision the game's checks run; a failure (a broken invariant,
or an exception from the engine) stops that game and saves a game record (:mod:`mk_env.records`: game,
options, seed, actions, with the soak's notes) that reproduces it: ``mk-env soak --replay FILE``.

Workers. Games run in chunks of :data:`CHUNK` over ``workers`` processes. A worker that dies (killed
for memory, SIGKILL) is reported with its chunk; each game of that chunk is then played alone in a
new worker, and a game whose worker dies again is a failure of its own (``worker process ... died``,
no record: :func:`game_plan` and the run's seed reproduce it). Every game is counted exactly once.

>>> report = soak(games=8, players="all", seed=0, workers=1)
>>> report.failures
[]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import traceback
import warnings
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from mk_env.core.text import printable
from mk_env.games import DEFAULT_GAME, game_entry, make_game
from mk_env.records import game_of, load_record, record_of_game

from . import cli
from .play import add_game_argument
from .soak_rules import soak_rules
from .workers import WorkerDeath, WorkerPool

#: games per job handed to a worker process
CHUNK = 25
#: how worker processes start (fork is faster; spawn shares nothing with the parent)
START_METHOD = "spawn"


# ================================================================================================
# results
# ================================================================================================
@dataclass
class SoakFailure:
    """One game that broke an invariant or crashed the engine, with the saved record's path."""

    game_index: int
    options: dict
    seed: int
    policy: str
    decision: int  # number of decisions applied when it failed
    error: str
    record_path: str | None = None


@dataclass
class SoakReport:
    """What a soak run did: games, decisions checked, action blocks used, failures."""

    games: int = 0
    decisions: int = 0
    seconds: float = 0.0
    games_by_players: Counter = field(default_factory=Counter)
    games_by_policy: Counter = field(default_factory=Counter)
    turns_by_players: Counter = field(default_factory=Counter)
    blocks: Counter = field(default_factory=Counter)
    failures: list[SoakFailure] = field(default_factory=list)
    game: str = DEFAULT_GAME

    def merge(self, other: SoakReport) -> None:
        self.games += other.games
        self.decisions += other.decisions
        self.games_by_players.update(other.games_by_players)
        self.games_by_policy.update(other.games_by_policy)
        self.turns_by_players.update(other.turns_by_players)
        self.blocks.update(other.blocks)
        self.failures.extend(other.failures)

    def summary(self) -> str:
        """A plain-text summary table."""
        rate = self.games / self.seconds if self.seconds else 0.0
        lines = [f"soak of {self.game}: {self.games} games, "
                 f"{self.decisions} decisions checked, "
                 f"{len(self.failures)} failures, {self.seconds:.1f} s ({rate:.1f} games/s)", "",
                 f"{'players':>8} {'games':>8} {'mean turns':>11}"]
        for n in sorted(self.games_by_players):
            g = self.games_by_players[n]
            lines.append(f"{n:>8} {g:>8} {self.turns_by_players[n] / max(g, 1):>11.1f}")
        lines += ["", f"{'policy':>8} {'games':>8}"]
        lines += [f"{pol:>8} {self.games_by_policy[pol]:>8}" for pol in soak_rules(self.game).policies]
        total = sum(self.blocks.values()) or 1
        lines += ["", f"{'action block':<18} {'uses':>10} {'share':>7}"]
        listed = list(map(str, make_game(self.game, game_entry(self.game).player_counts[0]).layout.offset))
        for block in listed + sorted(set(self.blocks) - set(listed)):  # pay_token: payment="choose" games
            n = self.blocks.get(block, 0)
            lines.append(f"{block:<18} {n:>10} {100 * n / total:>6.2f}%")
        for f in self.failures:
            lines += ["", f"FAILURE game {f.game_index} ({f.policy}, seed {f.seed}, options {f.options}) "
                          f"at decision {f.decision}: {f.error}"]
            lines += [f"  record: {f.record_path}"] if f.record_path else []
        return "\n".join(lines)


# ================================================================================================
# one game
# ================================================================================================
def game_plan(index: int, players: str | int, seed: int, game: str = DEFAULT_GAME) -> tuple[dict, int, str]:
    """(options, game seed, policy) of game ``index`` of a soak run of ``game``: a pure function of its
    arguments, so any game can be rerun alone."""
    rules, counts = soak_rules(game), game_entry(game).player_counts
    rng = np.random.default_rng([seed, index])
    n = counts[index % len(counts)] if players == "all" else int(players)
    options = {"num_players": n, **rules.options(n, rng, seed, index)}
    policy = rules.policies[(index // len(counts)) % len(rules.policies)]
    return options, int(rng.integers(2**31)), policy


def play_checked(options: dict, seed: int, policy: str, *, game: str = DEFAULT_GAME,
                 blocks: Counter | None = None, actions: list[int] | None = None) -> Any:
    """Play one random game of ``game`` with ``options``, its checks after every decision. Raises the first
    broken invariant or engine exception; ``actions`` (if given) receives every decision."""
    rules = soak_rules(game)
    options = dict(options)
    state = make_game(game, options.pop("num_players"), **options).new_initial_state(seed)
    rng = np.random.default_rng(seed + 1)
    actions = [] if actions is None else actions
    checks = rules.checks(state)
    while not state.is_terminal():
        a = rules.choose(state, policy, rng)
        before = state.clone() if checks.needs_before else None
        actions.append(a)
        state.apply(a)
        if blocks is not None:
            blocks[str(state.game.layout.decode(a)[0])] += 1
        checks.step(before, state)
    checks.end(state)
    return state


def _run_game(index: int, players: str | int, seed: int, out: str | None, game: str = DEFAULT_GAME) -> SoakReport:
    options, game_seed, policy = game_plan(index, players, seed, game)
    report = SoakReport(game=game)
    blocks: Counter = Counter()
    actions: list[int] = []
    try:
        state = play_checked(options, game_seed, policy, game=game, blocks=blocks, actions=actions)
        report.turns_by_players[options["num_players"]] += state.turn
    except Exception as e:  # noqa: BLE001 - every failure is reported with its record
        error = f"{type(e).__name__}: {e}"
        failure = SoakFailure(index, options, game_seed, policy, len(actions), error)
        if out is not None:
            failure.record_path = save_failure_record(Path(out), failure, actions, traceback.format_exc(), game)
        report.failures.append(failure)
    report.games = 1
    report.decisions = len(actions)
    report.games_by_players[options["num_players"]] += 1
    report.games_by_policy[policy] += 1
    report.blocks = blocks
    return report


def _run_chunk(args: tuple[list[int], str | int, int, str | None, str]) -> SoakReport:
    indices, players, seed, out, game = args
    report = SoakReport(game=game)
    for i in indices:
        report.merge(_run_game(i, players, seed, out, game))
    return report


# ================================================================================================
# records
# ================================================================================================
def save_failure_record(out: Path, failure: SoakFailure, actions: list[int], trace: str = "",
                        game: str = DEFAULT_GAME) -> str:
    """Save a game record (:mod:`mk_env.records`: game, pack id, options, seed, actions) that reproduces a
    failed game, with the soak's notes (policy, error, traceback) under ``"soak"``. Returns its path."""
    options = dict(failure.options)
    played = make_game(game, options.pop("num_players"), **options)
    record = record_of_game(played, failure.seed, actions)
    data = {**record.to_dict(), "soak": {"policy": failure.policy, "game_index": failure.game_index,
                                         "decision": failure.decision, "error": failure.error,
                                         "traceback": trace}}
    path = Path(out) / f"soak-failure-{failure.game_index}-seed{failure.seed}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    return str(path)


def replay_record(path: str | Path, game: str | None = None) -> Any:
    """Replay a saved record (:func:`mk_env.records.load_record`; ``game``: the record's own unless given)
    with its game's checks after every action; raises what the game raised (a record that cannot be read,
    of another game than ``game``, or whose options are not a game: :class:`~mk_env.records.RecordError`)."""
    record = load_record(path, game=game or record_game(path))
    name = record.game or DEFAULT_GAME
    state = game_of(record).new_initial_state(record.seed)
    return replay_actions(state, record.actions, name)


def replay_actions(state: Any, actions: list[int], game: str = DEFAULT_GAME) -> Any:
    """Apply ``actions`` to ``state`` with ``game``'s checks after each."""
    checks = soak_rules(game).checks(state)
    for a in actions:
        before = state.clone() if checks.needs_before else None
        state.apply(int(a))
        checks.step(before, state)
    if state.is_terminal():
        checks.end(state)
    return state


def record_game(path: str | Path) -> str:
    """The game a game record names (the first game's when it names none or cannot be read here: then
    :func:`mk_env.records.load_record` says what is wrong)."""
    try:
        game = json.loads(Path(path).read_text(encoding="utf-8")).get("game")
    except (OSError, ValueError, AttributeError, RecursionError):
        return DEFAULT_GAME
    return game if isinstance(game, str) else DEFAULT_GAME


# ================================================================================================
# the soak
# ================================================================================================
def soak(games: int, players: str | int = "all", seed: int = 0, *, workers: int = 1,
         out: str | Path | None = None, progress: bool = False, game: str = DEFAULT_GAME) -> SoakReport:
    """Play ``games`` random games of ``game`` (``players``: "all" cycles the game's player counts, or
    a player count) with every invariant checked after every decision; failures are saved under ``out``
    (if given)."""
    players = _check_players(players, game)
    if games < 0:
        raise ValueError(f"games={games} must be >= 0")
    if seed < 0:
        raise ValueError(f"seed={seed} is not allowed; a seed is a whole number >= 0")
    out_s = None if out is None else str(out)
    start = time.perf_counter()
    report = SoakReport(game=game)
    tasks = [(list(range(i, min(i + CHUNK, games))), players, seed, out_s, game) for i in range(0, games, CHUNK)]
    if workers <= 1 or len(tasks) <= 1:
        results = map(_run_chunk, tasks)
        _collect(report, results, games, start, progress)
    else:
        _collect(report, _pool_chunks(tasks, workers), games, start, progress)
    report.seconds = time.perf_counter() - start
    return report


def _pool_chunks(tasks: list[tuple], workers: int):
    """Chunk reports from a :class:`WorkerPool`, as they finish. A chunk whose worker died is reported
    and its games played one by one in new workers; a game whose worker dies is a failure."""
    with WorkerPool(_run_chunk, min(workers, len(tasks)), START_METHOD) as pool:
        for task in tasks:
            pool.submit(tuple(task[0]), task)
        for indices, part in pool.results():
            if not isinstance(part, WorkerDeath):
                yield part
            elif len(indices) > 1:
                warnings.warn(part.describe(f"playing games {indices[0]}-{indices[-1]}") + "; playing "
                              "them again one by one in new workers", RuntimeWarning, stacklevel=2)
                _, players, seed, out, game = tasks[indices[0] // CHUNK]
                for i in indices:
                    pool.submit((i,), ([i], players, seed, out, game))
            else:
                _, players, seed, _, game = tasks[indices[0] // CHUNK]
                yield _death_report(indices[0], part, players, seed, game)


def _death_report(index: int, death: WorkerDeath, players: str | int, seed: int,
                  game: str = DEFAULT_GAME) -> SoakReport:
    """The report of game ``index`` whose worker died: one game, one failure (no actions known)."""
    options, game_seed, policy = game_plan(index, players, seed, game)
    error = death.describe(f"playing game {index} of the run with seed {seed}")
    report = SoakReport(games=1, game=game)
    report.games_by_players[options["num_players"]] += 1
    report.games_by_policy[policy] += 1
    report.failures.append(SoakFailure(index, options, game_seed, policy, 0, error))
    return report


def _collect(report: SoakReport, results, games: int, start: float, progress: bool) -> None:
    last = start
    for part in results:
        report.merge(part)
        now = time.perf_counter()
        if progress and (now - last > 10 or report.games == games):
            last = now
            print(f"  {report.games}/{games} games, {report.decisions} decisions, "
                  f"{len(report.failures)} failures, {now - start:.0f} s", file=sys.stderr, flush=True)


def _check_players(players: str | int, game: str = DEFAULT_GAME) -> str | int:
    if players == "all":
        return players
    counts = game_entry(game).player_counts
    try:
        n = int(players)
    except (TypeError, ValueError):
        n = None
    if n not in counts:
        raise ValueError(f"players={players!r} is not allowed; use 'all' or one of {', '.join(map(str, counts))} "
                         f"(the player counts of {game_entry(game).title})")
    return n


# ================================================================================================
# command line
# ================================================================================================
def register(subparsers: argparse._SubParsersAction) -> None:
    """Add ``mk-env soak``."""
    p = subparsers.add_parser("soak", help="random games with every invariant checked after every decision",
                              description=__doc__.split("\n\n")[0])
    add_game_argument(p, default=None)  # with --replay, the record's game unless given
    p.add_argument("--games", type=cli.game_count, default=1000, help="games to play (default 1000)")
    p.add_argument("--players", type=_players_arg, default="all",
                   help="'all' (cycle the game's player counts) or a player count (default all)")
    p.add_argument("--seed", type=cli.seed, default=0, help="seed of the run, >= 0 (default 0)")
    p.add_argument("--workers", type=cli.workers, default=2, help="worker processes (default 2)")
    p.add_argument("--out", type=cli.out_dir, default="soak-failures",
                   help="folder for failure records (default soak-failures)")
    p.add_argument("--replay", metavar="FILE", help="replay one saved failure record with all checks, then stop")
    p.set_defaults(func=main)


def _players_arg(text: str) -> str | int:
    try:
        return _check_players(text)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def main(args: argparse.Namespace) -> int:
    if args.replay:  # a missing, unreadable or other game's record is a usage error, not a finding
        return replay_main(args.replay, args.game)
    report = soak(args.games, args.players, args.seed, workers=args.workers, out=args.out, progress=True,
                  game=args.game or DEFAULT_GAME)
    print(report.summary())
    return 1 if report.failures else 0


def replay_main(path: str, game: str | None) -> int:
    """``mk-env soak --replay FILE [--game G]``: 1 and the failure if it reproduces, 0 if the game plays
    through clean; a record that cannot be read, or of another game than an explicit ``--game``, is a usage
    error naming what is wrong."""
    record = load_record(path, game=game or record_game(path))  # a RecordError: a usage error (training.cli)
    try:
        state = replay_actions(game_of(record).new_initial_state(record.seed), record.actions,
                               record.game or DEFAULT_GAME)
    except Exception as e:  # noqa: BLE001 - the point is to show it
        print(f"reproduced: {type(e).__name__}: {printable(str(e))}")
        return 1
    print(f"replayed {len(record.actions)} decisions: no failure ({printable(repr(state))})")
    return 0
