"""``mk-env tournament``: self-play tournaments between agents, with ratings and charts.

Schedule. With ``A`` agents for ``N`` seats: if ``A <= N`` every game seats the agents cyclically
(``random,heuristic`` at 4 players: R H R H); if ``A > N`` the matches are every combination of N
agents (round robin). Each match is played in all N seat rotations with one shared seed (duplicate
seeds), so each agent plays each seat equally and luck of the deal cancels out; a rotation that
repeats an earlier seating (R H R H, or one agent in every seat) gets a seed of its own. Game ``i`` belongs to
block ``i // N`` (match ``block % matches``, seed derived from ``(seed, block)``) and rotation
``i % N``: the schedule depends only on the arguments.

Running. Games run in parallel over ``--workers`` processes; each finished game is appended as one
JSON line to ``OUT/games.jsonl``, so an interrupted tournament restarted with the same ``--out``
skips the games already done. A line that is not a whole game of this schedule (a torn last line
from an interrupted write) is dropped with a warning and its game played again. A worker process
that dies (killed for memory, SIGKILL) is reported with its game; the game is played once more by a
new worker, and if that one dies too the run stops cleanly (:class:`~training.workers.WorkerDied`,
the games in progress saved first): the same command then resumes it. Ratings and statistics are
computed from the games in index order: the same seed gives the same results whatever the number
of workers (for agents whose budget is counted in simulations, not seconds).

Team play (``--teams``): 4 players in two teams (seats 0 and 3 against seats 1 and 2, the rulebook's
turn order Team 1, Team 2, Team 2, Team 1). ``--agents`` then lists team *pairings* such as
``heuristic+heuristic,random+random`` (a single spec plays both seats of its team); each match of two
pairings is played twice, each pairing once as Team 1, with one shared seed. Ratings, win rates and
honour are per pairing (a team's two seats share its rank and score).

Outputs in ``OUT``: ``games.jsonl``, ``config.json``, ``results.json`` (``{"agents": {SPEC: {...}},
"balance": {...}, "games": [...]}``), ``ratings.png`` and ``scores.png``.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
import warnings
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from mk_env.core.text import printable
from mk_env.games import DEFAULT_GAME, game_entry

from . import cli
from .play import add_game_argument, game_options, make_game, option_of, parse_agents, run_game
from .ratings import balance, summarize
from .tournament_results import leaderboard, write_charts
from .tournament_schedule import parse_team, schedule, team_schedule
from .workers import WorkerDeath, WorkerDied, WorkerPool

DEFAULT_PLAYERS = 2
DEFAULT_GAMES = 96
#: games of the full ladder's run that the quick table's end suggests
LADDER_GAMES = 96
DEFAULT_OUT = "runs/tournament"
BACKENDS = ("local", "ray")


# ================================================================================================
# one game (a pure top-level function: can be shipped to any executor)
# ================================================================================================
def play_game(specs: list[str], seed: int, options: dict[str, Any] | None = None,
              game: str = DEFAULT_GAME) -> dict[str, Any]:
    """Play one game of ``game`` (:mod:`mk_env.games`); a JSON-able record of its outcome (no
    index: the caller adds it; a game other than the first is named under ``"game"``)."""
    t0 = time.perf_counter()
    played = make_game(len(specs), options, game)
    actions: list[int] = []
    state = run_game(list(specs), seed, game=played, actions=actions)
    record = {
        "agents": list(specs),
        "seed": int(seed),
        "options": played.options_dict() if hasattr(played, "options_dict") else {"num_players": len(specs)},
        "ranks": [int(r) for r in state.ranks()],
        "scores": [state.score_breakdown(p) for p in range(len(specs))],
        "start_points": start_points(state),
        "turns": int(state.turn) + 1,
        "decisions": len(actions),
        "seconds": round(time.perf_counter() - t0, 3),
    }
    return record if game == DEFAULT_GAME else {"game": game, **record}


def start_points(state: Any) -> list[int]:
    """Each seat's start (the engine's ``seat_starts()``: in the first game the start point its gate took, in
    the others its place in the turn order)."""
    return [int(s) for s in state.seat_starts()]


def _run_one(job: dict[str, Any], options: dict[str, Any]) -> dict[str, Any]:
    """Play scheduled game ``job``; its result with its index (and, in a team game, the pairings)."""
    other_game = {"game": job["game"]} if "game" in job else {}  # the first game's jobs name none
    result = play_game(job["agents"], job["seed"], options, **other_game)
    if "teams" in job:  # rate the pairings: each seat counts for its team
        result = {**result, "seat_agents": result["agents"], "agents": job["teams"]}
    return {"index": job["index"], **result}


def _run_star(args: tuple) -> dict[str, Any]:
    return _run_one(*args)


# ================================================================================================
# the tournament
# ================================================================================================
#: the fields every line of games.jsonl holds (:func:`play_game` and the index)
GAME_FIELDS = ("index", "agents", "seed", "ranks", "scores", "start_points")


def read_games(path: Path, jobs: list[dict[str, Any]] | None = None) -> list[dict[str, Any]]:
    """Finished games in ``games.jsonl``, each index once. A line that is not a whole game (a torn
    last line from an interrupted write, a corrupt line), a repeated index, or (given the schedule
    ``jobs``) a game whose seats or seed are not its scheduled ones is dropped with a warning, and the
    file is rewritten without it, so that game is played again and appended on a line of its own."""
    if not path.exists():
        return []
    text = path.read_text(encoding="utf-8", errors="replace")
    lines = text.splitlines()
    scheduled = {j["index"]: j for j in jobs or ()}
    games: dict[int, dict[str, Any]] = {}
    kept: list[str] = []
    for n, line in enumerate(lines, 1):
        problem = _game_line_problem(line, games, scheduled)
        if problem:
            torn = n == len(lines) and not text.endswith("\n")
            warnings.warn(f"{path} line {n}: dropped {'a torn last line (an interrupted write)' if torn else problem}"
                          f"; its game will be played again", RuntimeWarning, stacklevel=2)
            continue
        g = json.loads(line)
        games[g["index"]] = g
        kept.append(line)
    if len(kept) != len(lines) or (lines and not text.endswith("\n")):
        tmp = path.with_name(path.name + ".tmp")
        tmp.write_text("".join(x + "\n" for x in kept), encoding="utf-8")
        os.replace(tmp, path)
    return list(games.values())


def _game_line_problem(line: str, games: dict[int, dict], scheduled: dict[int, dict]) -> str | None:
    """Why one line of games.jsonl cannot be counted (None if it can)."""
    try:
        g = json.loads(line)
    except json.JSONDecodeError:
        return "a line that is not JSON"
    if not isinstance(g, dict) or any(k not in g for k in GAME_FIELDS):
        return f"a line that is not a game record (needs {', '.join(GAME_FIELDS)})"
    index = g["index"]
    if not isinstance(index, int) or isinstance(index, bool) or index < 0:
        return f"a game with index {index!r} (a game index is a whole number >= 0)"
    if index in games:
        return f"a second record of game {index}"
    job = scheduled.get(index)
    if job and (g.get("seat_agents", g["agents"]) != job["agents"] or g["seed"] != job["seed"]):
        return f"game {index} with other seats or seed than this tournament's schedule"
    return None


def _check_config(out: Path, config: dict[str, Any]) -> None:
    if out.exists() and not out.is_dir():
        raise ValueError(f"--out {out} is a file; give a folder (new, or a tournament to resume)")
    path = out / "config.json"
    if path.exists():
        old = json.loads(path.read_text())
        keys = ("game", "agents", "players", "seed", "options")
        old.setdefault("game", DEFAULT_GAME)  # a tournament from before the suite had one game
        if any(old.get(k) != config.get(k, DEFAULT_GAME) for k in keys):
            raise ValueError(f"--out {out} holds a tournament with other settings "
                             f"({ {k: old.get(k) for k in keys} }); use another --out or delete it")
    out.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(config, indent=2))


def run_tournament(agents: list[str], players: int, games: int, seed: int = 0, workers: int = 1,
                   out: str | os.PathLike = DEFAULT_OUT, options: dict[str, Any] | None = None,
                   progress: bool = True, charts: bool = True, teams: bool = False,
                   backend: str = "local", address: str | None = None,
                   game: str = DEFAULT_GAME) -> dict[str, Any]:
    """Play (or finish) a tournament of ``game`` (:mod:`mk_env.games`) in ``out`` and return the
    results written to results.json.
    With ``teams``, ``agents`` are team pairings and the games are 4-player team games. ``backend``
    "ray" spreads the games over Ray (local Ray, or the cluster at ``address``); the results are the
    same as a local run's for the same seed."""
    if backend not in BACKENDS:
        raise ValueError(f"--backend {backend!r}: allowed: {', '.join(BACKENDS)}")
    if teams:
        if players != 4:
            raise ValueError(f"--teams: team play is for exactly 4 players, got --players {players}")
        for entry in agents:
            parse_team(entry)
        options = {**(options or {}), "team_mode": True}
    entry = game_entry(game)
    if players not in entry.player_counts:
        raise ValueError(f"--players {players}: the game is for {entry.player_counts[0]} to "
                         f"{entry.player_counts[-1]} players")
    if games < 1:
        raise ValueError(f"--games {games}: need at least 1 game")
    if workers < 1:
        raise ValueError(f"--workers {workers}: need at least 1 worker")
    if seed < 0:
        raise ValueError(f"--seed {seed}: a tournament seed is a whole number >= 0")
    options = dict(options or {})
    make_game(players, options, game)  # validates the options early
    out = Path(out)
    config = {"agents": agents, "players": players, "games": games, "seed": seed, "options": options}
    if game != DEFAULT_GAME:
        config = {"game": game, **config}
    _check_config(out, config)
    jobs = team_schedule(agents, games, seed) if teams else schedule(agents, players, games, seed)
    if game != DEFAULT_GAME:
        jobs = [{**j, "game": game} for j in jobs]
    finished = play_into(out / "games.jsonl", jobs, options, workers, progress, backend=backend, address=address)
    results = {"config": config, "agents": summarize(finished, list(dict.fromkeys(agents))),
               "balance": balance(finished), "games": finished}
    (out / "results.json").write_text(json.dumps(results, indent=1))
    if charts:
        write_charts(results, out)
    return results


def play_into(log: Path, jobs: list[dict[str, Any]], options: dict[str, Any], workers: int, progress: bool,
              backend: str = "local", address: str | None = None,
              run: Callable[[tuple], dict[str, Any]] | None = None) -> list[dict[str, Any]]:
    """Play the scheduled ``jobs`` not yet finished in ``log`` (games.jsonl), appending each game as it
    finishes; every finished game of ``jobs``, in index order. ``run``: see :func:`_execute`."""
    games = len(jobs)
    done = {g["index"]: g for g in read_games(log, jobs) if g["index"] < games}
    todo = [j for j in jobs if j["index"] not in done]
    if todo:
        with open(log, "a", encoding="utf-8") as f:
            try:
                for result in _execute(todo, options, workers, progress, total=games, already=len(done),
                                       backend=backend, address=address, run=run):
                    f.write(json.dumps(result, separators=(",", ":")) + "\n")
                    f.flush()
                    done[result["index"]] = result
            except WorkerDied as e:
                raise WorkerDied(f"{e}; {len(done)} of {games} games are saved in {log}: run the same "
                                 f"command (same --out) to resume") from None
    return [done[i] for i in sorted(done)]


def _execute(todo: list[dict], options: dict, workers: int, progress: bool, total: int, already: int,
             backend: str = "local", address: str | None = None,
             run: Callable[[tuple], dict[str, Any]] | None = None) -> Iterator[dict[str, Any]]:
    """Yield finished games as they come (any order), with a live progress bar. ``run``: the top-level
    function that plays one ``(job, options)`` (default: a tournament game; ``mk-env balance`` passes its
    own)."""
    run = run or _run_star
    from rich.progress import (BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn,
                               TimeRemainingColumn)
    bar = Progress(TextColumn("games"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                   TimeRemainingColumn(), disable=not progress, transient=False)
    if backend == "ray":
        from .ray_backend import iter_jobs_ray
        results = (r for _, r in iter_jobs_ray(run, [(j, options) for j in todo], address=address))
    elif workers == 1:
        results = (run((j, options)) for j in todo)
    else:
        results = _pool_games(todo, options, workers, run)
    with bar:
        task = bar.add_task("games", total=total, completed=already)
        for r in results:
            bar.advance(task)
            yield r


def _pool_games(todo: list[dict], options: dict, workers: int,
                run: Callable[[tuple], dict[str, Any]] = _run_star) -> Iterator[dict[str, Any]]:
    """Games played by a :class:`WorkerPool`, as they finish. A game whose worker dies is reported
    and played again by a new worker; a second death on the same game stops the run cleanly: the
    games in progress finish (and are yielded), the rest are not started, then :class:`WorkerDied`."""
    jobs = {j["index"]: j for j in todo}
    deaths: Counter = Counter()
    fatal = None
    start_method = "fork" if sys.platform.startswith("linux") else "spawn"
    with WorkerPool(run, min(workers, len(todo)), start_method) as pool:
        for j in todo:
            pool.submit(j["index"], (j, options))
        for index, result in pool.results():
            if not isinstance(result, WorkerDeath):
                yield result
                continue
            deaths[index] += 1
            job = jobs[index]
            what = result.describe(f"playing game {index} ({', '.join(job['agents'])}; seed {job['seed']})")
            if deaths[index] == 1:
                warnings.warn(f"{what}; playing it again in a new worker", RuntimeWarning, stacklevel=2)
                pool.submit(index, (job, options))
            elif fatal is None:
                fatal = f"{what}, twice; stopped ({len(pool.cancel_pending())} games not started)"
    if fatal:
        raise WorkerDied(fatal)


def _cmd(args: argparse.Namespace) -> int:
    from rich.console import Console
    from rich.text import Text
    console = Console(width=None if sys.stdout.isatty() else 120)
    players = args.players if args.players is not None else (4 if args.teams else DEFAULT_PLAYERS)
    quick = args.agents is None
    if quick:  # the game's quick table: random, heuristic and, at 2 players, the first game's shipped network
        args.agents = ",".join(game_entry(args.game).quick_table(players))
    if args.trust:  # ppo:PATH may name an SB3 zip (docs/security.md)
        from agents.ppo import trust_agents
        args.agents = trust_agents(args.agents)
    if args.teams:  # team pairings: validate the specs of both seats of each
        agents = [x.strip() for x in args.agents.split(",") if x.strip()]
        if not agents:
            raise cli.UsageError(f"--agents {args.agents!r}: give team pairings separated by commas, "
                                 f"e.g. heuristic+heuristic,random+random")
        for entry in agents:
            parse_agents(",".join(parse_team(entry)))
    else:
        agents = parse_agents(args.agents)
    if len(set(agents)) != len(agents):
        raise cli.UsageError(f"--agents {args.agents!r}: each agent may be listed once")
    if args.address and args.backend != "ray":
        raise cli.UsageError(f"--address {args.address!r} is for --backend ray (a Ray cluster); "
                             f"the local backend uses --workers")
    options = game_options(args.game, board_side=args.board_side, team_mode=args.teams or None,
                           payment=args.payment)
    options.pop("team_mode", None)  # --teams is run_tournament's own argument
    results = run_tournament(agents, players, args.games, args.seed, args.workers, args.out,
                             options, teams=args.teams, backend=args.backend, address=args.address,
                             game=args.game)
    console.print(leaderboard(results))
    console.print(Text(f"results: {printable(str(Path(args.out) / 'results.json'))}; "
                       f"charts: ratings.png, scores.png"))
    if quick:
        console.print(Text(f"that was the quick table; the whole ladder of {args.game} (its search rungs take "
                           f"seconds a game where the game's engine is compiled, tens of seconds to minutes on "
                           f"2 cores where it is not):"))
        console.print(Text(ladder_command(args.game, players)), soft_wrap=True)  # one line, to copy
    return 0


def ladder_command(game: str, players: int) -> str:
    """The command of a tournament over ``game``'s whole ladder at ``players`` players (its card's ``ladder``)."""
    rungs = game_entry(game).ladder_table(players)
    return (f"mk-env tournament --game {game} --players {players} --agents {','.join(rungs)} "
            f"--games {LADDER_GAMES} --out runs/ladder")


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "tournament", help="self-play tournament between agents, with ratings and charts",
        description="Play a tournament (seats rotated, duplicate seeds, parallel, resumable) and "
                    "write results.json, games.jsonl and charts to --out.")
    p.add_argument("--agents", default=None,
                   help="comma-separated agent specs (default: the game's quick table, random and heuristic, "
                        "at 2 players with the shipped network; it ends with the command of the full ladder)")
    add_game_argument(p)
    p.add_argument("--players", type=cli.player_count, default=None,
                   help=f"players per game, 2-5 (default {DEFAULT_PLAYERS}; 4 with --teams)")
    p.add_argument("--payment", choices=("auto", "choose"), default=None,
                   help="who picks the tokens that pay: auto (the engine's fixed order, default) or choose "
                        f"(the payer; {option_of('payment')})")
    p.add_argument("--teams", action="store_true",
                   help="team variant: 4 players, --agents are pairings like heuristic+heuristic,random "
                        f"({option_of('team_mode')})")
    p.add_argument("--games", type=cli.game_count, default=DEFAULT_GAMES,
                   help=f"games (default {DEFAULT_GAMES})")
    p.add_argument("--seed", type=cli.seed, default=0, help="tournament seed, >= 0 (default 0)")
    p.add_argument("--workers", type=cli.workers, default=min(2, os.cpu_count() or 1),
                   help="parallel worker processes (default 2)")
    p.add_argument("--out", type=cli.out_dir, default=DEFAULT_OUT,
                   help=f"output folder, resumable (default {DEFAULT_OUT})")
    p.add_argument("--board-side", default=None,
                   help=f"board side (default: by player count; {option_of('board_side')})")
    p.add_argument("--trust", action="store_true",
                   help="let ppo:PATH name a Stable-Baselines3 .zip (loading one unpickles code: only "
                        "files you trust; docs/security.md)")
    p.add_argument("--backend", default="local", choices=BACKENDS,
                   help="executor: local processes (--workers) or ray (pip install 'mk-env[rllib]')")
    p.add_argument("--address", default=None,
                   help="with --backend ray: a Ray cluster address (default: start Ray locally)")
    p.set_defaults(func=_cmd)
