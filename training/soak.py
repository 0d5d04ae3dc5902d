"""``mk-env soak``: thousands of random games with every invariant checked after every decision.

Each game draws its options (player count, board side, workshop selection, team mode, and in
:data:`CHOOSE_PAYMENT_SHARE` of the games ``payment="choose"``) and a policy:

* ``uniform``: uniform random over the legal actions;
* ``no_trade``: uniform over the legal actions that are not trades, preferring anything but pass, so
  that digs, great halls, statues, spells and workshops are exercised (random trading otherwise
  dominates the action counts).

After each decision :func:`mk_env.invariants.check_invariants` and :func:`~mk_env.invariants.check_step`
run; a failure (an invariant, or an exception from the engine) stops that game and saves a record
(a :mod:`mk_env.records` game record: options, seed, actions) that reproduces it:
``mk-env soak --replay FILE``.

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

from mk_env.games import DEFAULT_GAME, game_entry
from mk_env.games import make_game as make_suite_game
from mk_env.invariants import check_end, check_invariants, check_step, component_totals
from mk_env.records import GameRecord, game_of, load_record
from mk_env.mountain_king.rules import Game, GameState
from mk_env.mountain_king.rules.game import PLAYER_COUNTS, WORKSHOP_SELECTIONS

from . import cli, soak_suite
from .play import add_game_argument
from .workers import WorkerDeath, WorkerPool

POLICIES = ("uniform", "no_trade")
#: the share of games played with ``payment="choose"`` (drawn from a stream of its own: the rest of each
#: game's plan is what it was before the option)
CHOOSE_PAYMENT_SHARE = 0.3
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
        lines = [f"soak{'' if self.game == DEFAULT_GAME else ' of ' + self.game}: {self.games} games, "
                 f"{self.decisions} decisions checked, "
                 f"{len(self.failures)} failures, {self.seconds:.1f} s ({rate:.1f} games/s)", "",
                 f"{'players':>8} {'games':>8} {'mean turns':>11}"]
        for n in sorted(self.games_by_players):
            g = self.games_by_players[n]
            lines.append(f"{n:>8} {g:>8} {self.turns_by_players[n] / max(g, 1):>11.1f}")
        lines += ["", f"{'policy':>8} {'games':>8}"]
        policies = POLICIES if self.game == DEFAULT_GAME else soak_suite.POLICIES
        lines += [f"{pol:>8} {self.games_by_policy[pol]:>8}" for pol in policies]
        total = sum(self.blocks.values()) or 1
        lines += ["", f"{'action block':<18} {'uses':>10} {'share':>7}"]
        listed = list(map(str, make_suite_game(self.game, 2).layout.offset))
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
    """(options, game seed, policy) of game ``index`` of a soak run: a pure function of its arguments,
    so any game can be rerun alone (another game of the suite: :func:`training.soak_suite.plan`)."""
    if game != DEFAULT_GAME:
        return soak_suite.plan(index, players, seed, game)
    rng = np.random.default_rng([seed, index])
    n = PLAYER_COUNTS[index % len(PLAYER_COUNTS)] if players == "all" else int(players)
    sides = [name for name, b in Game(n).pack.boards.items() if n in b.player_counts]
    pack = Game(n).pack
    selection = rng.integers(len(WORKSHOP_SELECTIONS) + 1)
    if selection < len(WORKSHOP_SELECTIONS):
        workshops: str | list[str] = WORKSHOP_SELECTIONS[selection]
    else:  # a chosen set: 2 per player + 1 of the pack's tiles
        tiles = [w.name for w in pack.workshops for _ in range(w.count)]
        workshops = [tiles[i] for i in rng.permutation(len(tiles))[:2 * n + 1]]
    options: dict[str, Any] = {"num_players": n, "board_side": str(rng.choice(sorted(sides))),
                               "workshops": workshops, "team_mode": bool(n == 4 and rng.random() < 0.3)}
    if np.random.default_rng([seed, index, 1]).random() < CHOOSE_PAYMENT_SHARE:
        options["payment"] = "choose"
    policy = POLICIES[(index // len(PLAYER_COUNTS)) % len(POLICIES)]
    return options, int(rng.integers(2**31)), policy


def choose(state: GameState, policy: str, rng: np.random.Generator) -> int:
    """One decision of a random ``policy`` (see the module docstring)."""
    legal = state.legal_actions()
    if policy == "no_trade":
        layout = state.game.layout
        lo, hi = layout.offset["trade"], layout.offset["trade"] + layout.sizes["trade"]
        keep = legal[((legal < lo) | (legal >= hi)) & (legal != 0)]
        if len(keep):
            legal = keep
        elif len(legal) > 1 and legal[0] == 0 and rng.random() < 0.9:
            legal = legal[:1]  # only trades or pass: mostly pass, so trades do not take over
    return int(legal[rng.integers(len(legal))])


def play_checked(options: dict, seed: int, policy: str, *, check: bool = True,
                 blocks: Counter | None = None, actions: list[int] | None = None) -> GameState:
    """Play one random game, checking every invariant after every decision. Raises the first
    :class:`InvariantError` or engine exception; ``actions`` (if given) receives every decision."""
    game = Game(**options)
    state = game.new_initial_state(seed)
    rng = np.random.default_rng(seed + 1)
    actions = [] if actions is None else actions
    baseline = component_totals(state)
    if check:
        check_invariants(state, baseline)
    while not state.is_terminal():
        a = choose(state, policy, rng)
        before = state.clone() if check else None
        actions.append(a)
        state.apply(a)
        if blocks is not None:
            blocks[game.layout.decode(a)[0]] += 1
        if check:
            check_invariants(state, baseline)
            check_step(before, state)
    if check:
        check_end(state)
    return state


def _run_game(index: int, players: str | int, seed: int, out: str | None, game: str = DEFAULT_GAME) -> SoakReport:
    options, game_seed, policy = game_plan(index, players, seed, game)
    report = SoakReport(game=game)
    blocks: Counter = Counter()
    actions: list[int] = []
    play = play_checked if game == DEFAULT_GAME else soak_suite.play_checked
    try:
        state = play(options, game_seed, policy, blocks=blocks, actions=actions)
        report.turns_by_players[options["num_players"]] += state.turn
    except Exception as e:  # noqa: BLE001 - every failure is reported with its record
        error = f"{type(e).__name__}: {e}"
        failure = SoakFailure(index, options, game_seed, policy, len(actions), error)
        if out is not None:
            failure.record_path = save_failure_record(Path(out), failure, actions, traceback.format_exc())
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
def save_failure_record(out: Path, failure: SoakFailure, actions: list[int], trace: str = "") -> str:
    """Save a game record (:mod:`mk_env.records`: pack id, options, seed, actions) that reproduces a
    failed game, with the soak's notes (policy, error, traceback) under ``"soak"``. Returns its path
    (another game of the suite: :func:`training.soak_suite.save_failure`)."""
    if "game" in failure.options:
        return soak_suite.save_failure(Path(out) / f"soak-failure-{failure.game_index}-seed{failure.seed}.json",
                                       failure.options, failure.seed, actions,
                                       {"policy": failure.policy, "game_index": failure.game_index,
                                        "decision": failure.decision, "error": failure.error, "traceback": trace})
    game = Game(**failure.options)
    record = GameRecord(pack_id=game.pack.pack_id, options=game.options_dict(), seed=failure.seed,
                        actions=[int(a) for a in actions])
    data = {**record.to_dict(), "soak": {"policy": failure.policy, "game_index": failure.game_index,
                                         "decision": failure.decision, "error": failure.error,
                                         "traceback": trace}}
    path = Path(out) / f"soak-failure-{failure.game_index}-seed{failure.seed}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    return str(path)


def replay_record(path: str | Path) -> GameState:
    """Replay a saved record (:func:`mk_env.records.load_record`) with every invariant checked after
    every action; raises what the game raised (a record that cannot be read or whose options are not
    a game: :class:`~mk_env.records.RecordError`)."""
    record = load_record(path)
    return _replay_actions(game_of(record).new_initial_state(record.seed), record.actions)


def _replay_actions(state: GameState, actions: list[int]) -> GameState:
    """Apply ``actions`` to ``state`` with every invariant checked after each."""
    baseline = component_totals(state)
    check_invariants(state, baseline)
    for a in actions:
        before = state.clone()
        state.apply(int(a))
        check_invariants(state, baseline)
        check_step(before, state)
    if state.is_terminal():
        check_end(state)
    return state


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
    counts = PLAYER_COUNTS if game == DEFAULT_GAME else game_entry(game).player_counts
    try:
        n = int(players)
    except (TypeError, ValueError):
        n = None
    if n not in counts:
        raise ValueError(f"players={players!r} is not allowed{'' if game == DEFAULT_GAME else ' in ' + game}; "
                         f"use 'all' or one of {', '.join(map(str, counts))}")
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
                   help="'all' (cycle 2..5) or a player count (default all)")
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
        return soak_suite.replay_file(args.replay, args.game, _replay_actions)
    report = soak(args.games, args.players, args.seed, workers=args.workers, out=args.out, progress=True,
                  game=args.game or DEFAULT_GAME)
    print(report.summary())
    return 1 if report.failures else 0

