"""``mk-env balance``: is the table fair? Self-play of one agent spec (or a list, seats rotated) and, for
each seat and each start point, its win rate with a 95% Wilson interval and its mean honour, against
the fair share ``1/n``; any whose win rate differs from ``1/n`` by more than ``--threshold`` (default 5
points) is flagged, and one verdict line sums it up.

A win shared by ``k`` tied winners counts ``1/k`` for each, so the win rates of one game's seats add up
to 1. Two facts of the book that the content should reproduce are reported beside: how often the first
player to fill a trollsmoot (to ``max_trolls``, the first coronation token) wins (the rulebook presents
capping first as valuable if well timed), and what players hold at the end (resources, and the honour
of their leftover sets: 1 in the rulebook's scoring example).

Beside the verdict, four views explain it: each seat's win rate on each start point (a seat low on every
point loses to its place in the turn order, not to its points), each seat against each other seat (how
often it finished ahead), each seat's mean honour by scoring category with how often it filled its
trollsmoot first, and each seat's win rate by which seat triggered the end (took the last coronation token).

``mk-env balance-summary REPORT...`` sets reports side by side: one markdown row per ``balance.json``.

Schedule, workers and resuming are the tournament's (:mod:`training.tournament`): game ``i`` seats the
agents and draws its seed as tournament game ``i`` does, each finished game is one line of
``OUT/games.jsonl``, and the same command with a larger ``--games`` plays only the games not yet played.
``OUT/balance.json`` holds the report (no games: small enough to commit).

Gates. By default (``--gates drawn``) each seat's start point is drawn at random (from the game's seed)
among those the rules allow it, and every other decision is the agent's: a deterministic agent would
otherwise put seat ``k`` on the same start point in every game, and a seat's and a start point's
advantage could not be told apart. ``--gates chosen`` lets the agents choose.

Load your own transcription of the printed content with ``--pack DIR`` to check it the same way.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

from agents import make_agent
from mk_env.mountain_king.rules.economy import owned

from . import cli
from .balance_report import (DEFAULT_THRESHOLD, book_lines, pair_lines, report, seat_lines, summary_row, summary_table,
                             table, trigger_lines)
from .play import make_game, parse_agents, run_game
from .tournament import _check_config, play_into, start_points
from .tournament_schedule import schedule

DEFAULT_AGENTS = "heuristic"
DEFAULT_GAMES = 200
DEFAULT_OUT = "runs/balance"
#: how gates are placed: drawn at random among the legal start points, or chosen by the agents
GATES = ("drawn", "chosen")
#: the decision kind of placing a gate
GATE_DECISION = "setup_gate"
#: the extras each games.jsonl line of a balance run holds beside the tournament's fields
EXTRA_FIELDS = ("first_capped", "resources_end")


# ================================================================================================
# one game (top level: shipped to worker processes)
# ================================================================================================
class DrawnGate:
    """An agent whose gate goes on a start point drawn at random (a generator of the game's seed and the
    seat, apart from the agent's own); every other decision is the agent's."""

    def __init__(self, agent: Any, seed: int) -> None:
        self.agent, self.seed = agent, int(seed)
        self.name = getattr(agent, "name", "agent")
        self.draw = np.random.default_rng([self.seed, 0, 0x6A7E])

    def reset(self, seat: int, num_players: int) -> None:
        self.draw = np.random.default_rng([self.seed, int(seat), 0x6A7E])
        reset = getattr(self.agent, "reset", None)
        if reset:
            reset(seat, num_players)

    def act(self, view: Any, rng: np.random.Generator) -> int:
        if view.decision_kind() == GATE_DECISION:
            return int(self.draw.choice(view.legal_actions()))
        return self.agent.act(view, rng)


def balance_game(job: dict[str, Any], options: dict[str, Any], gates: str = "drawn") -> dict[str, Any]:
    """Play scheduled game ``job`` (``index``, ``agents`` by seat, ``seed``), gates ``drawn`` or
    ``chosen`` (:data:`GATES`); its record: the tournament's fields plus the seat that first filled its
    trollsmoot (None if nobody did), the seat that took the last coronation token and so triggered the
    end (None if a token was left) and each seat's resources held at the end."""
    t0 = time.perf_counter()
    specs, seed = list(job["agents"]), int(job["seed"])
    game = make_game(len(specs), options)
    actions: list[int] = []
    players = [DrawnGate(make_agent(s), seed) for s in specs] if gates == "drawn" else specs
    state = run_game(players, seed, game=game, actions=actions)
    takers = coronation_order(game, seed, actions)
    return {
        "index": job["index"], "agents": specs, "seed": seed,
        "ranks": [int(r) for r in state.ranks()],
        "scores": [state.score_breakdown(p) for p in range(len(specs))],
        "start_points": start_points(state),
        "first_capped": takers[0] if takers else None,
        "triggered_end": ender(game, takers),
        "resources_end": [int(owned(state, p).sum()) for p in range(len(specs))],
        "turns": int(state.turn) + 1,
        "seconds": round(time.perf_counter() - t0, 3),
    }


def _balance_star(args: tuple) -> dict[str, Any]:
    job, options = args
    options = dict(options)
    gates = options.pop("gates", "drawn")  # the run's setting rides with the options; not a game option
    return balance_game(job, options, gates)


def coronation_order(game: Any, seed: int, actions: list[int]) -> list[int]:
    """The seats in the order they took the coronation tokens (each recruited its full trollsmoot) in
    the game replayed from ``seed`` and ``actions``."""
    state = game.new_initial_state(int(seed))
    takers: list[int] = []
    for action in actions:
        seat, tokens = state.current_player(), len(state.coronation_left)
        state.apply(action)
        if len(state.coronation_left) < tokens:
            takers.append(int(seat))
    return takers


def ender(game: Any, takers: list[int]) -> int | None:
    """The seat that took the last coronation token, which triggers the end of the game (rulebook, *Game
    end trigger*), given the takers in order (:func:`coronation_order`); None if a token was left."""
    return takers[-1] if len(takers) == len(game.pack.coronation_tokens[game.num_players]) else None


# ================================================================================================
# the run
# ================================================================================================
def run_balance(agents: list[str], players: int, games: int, seed: int = 0, workers: int = 1,
                out: str | os.PathLike = DEFAULT_OUT, options: dict[str, Any] | None = None,
                threshold: float = DEFAULT_THRESHOLD, progress: bool = True, gates: str = "drawn") -> dict[str, Any]:
    """Play (or finish) ``games`` balance games in ``out`` and return the report written to
    ``out/balance.json`` (with the run's ``config``)."""
    if not 2 <= players <= 5:
        raise ValueError(f"--players {players}: the game is for 2 to 5 players")
    if games < 1:
        raise ValueError(f"--games {games}: need at least 1 game")
    if workers < 1:
        raise ValueError(f"--workers {workers}: need at least 1 worker")
    if seed < 0:
        raise ValueError(f"--seed {seed}: a seed is a whole number >= 0")
    if gates not in GATES:
        raise ValueError(f"--gates {gates!r}: allowed: {', '.join(GATES)}")
    if not 0 < threshold < 1:
        raise ValueError(f"--threshold {threshold}: use a win-rate difference between 0 and 1 (0.05: 5 points)")
    options = dict(options or {})
    if options.get("team_mode"):
        raise ValueError("team_mode: mk-env balance measures seats of free-for-all games, not teams")
    game = make_game(players, options)  # validates the options (board side, pack) early
    out = Path(out)
    config = {"command": "balance", "agents": agents, "players": players, "games": games, "seed": seed,
              "options": options, "gates": gates, "board_side": game.board_side, "pack_id": game.pack.pack_id}
    old = json.loads((out / "config.json").read_text()) if (out / "config.json").is_file() else None
    if old is not None and old.get("command") != "balance":
        raise ValueError(f"--out {out} holds a tournament, not a balance run; use another --out")
    if old is not None and old.get("pack_id") != config["pack_id"]:
        raise ValueError(f"--out {out} holds games of other content (pack {old.get('pack_id')}, now "
                         f"{config['pack_id']}); use another --out or delete it")
    if old is not None and old.get("gates") != gates:
        raise ValueError(f"--out {out} holds games with --gates {old.get('gates')}; use another --out")
    _check_config(out, config)
    jobs = schedule(agents, players, games, seed)
    log = out / "games.jsonl"
    finished = play_into(log, jobs, {**options, "gates": gates}, workers, progress, run=_balance_star)
    missing = [g["index"] for g in finished if any(k not in g for k in EXTRA_FIELDS)]
    if missing:
        raise ValueError(f"{log}: games {missing[:5]} lack {', '.join(EXTRA_FIELDS)} (not a balance run's "
                         f"games); use another --out")
    result = {"config": config, **report(finished, players, threshold)}
    (out / "balance.json").write_text(json.dumps(result, indent=1))
    return result


def _cmd(args: argparse.Namespace) -> int:
    from rich.console import Console
    from rich.text import Text
    agents = parse_agents(args.agents)
    options = {k: v for k, v in (("board_side", args.board_side), ("pack", args.pack), ("payment", args.payment))
               if v is not None}
    result = run_balance(agents, args.players, args.games, args.seed, args.workers, args.out, options,
                         args.threshold, progress=not args.json, gates=args.gates)
    if args.json:
        print(json.dumps(result, indent=1))
        return 0
    console = Console(width=None if sys.stdout.isatty() else 120)
    console.print(table(result))
    for line in seat_lines(result) + pair_lines(result) + trigger_lines(result) + book_lines(result):
        console.print(Text(line))
    console.print(Text(result["verdict"]))
    console.print(Text(f"report: {Path(args.out) / 'balance.json'}"))
    return 0


#: what a balance report must hold to be summarised
REPORT_KEYS = ("config", "games", "fair_win_rate", "per_seat", "per_start_point", "verdict")


def read_report(path: str | os.PathLike) -> dict[str, Any]:
    """A ``balance.json`` written by ``mk-env balance``; a clear ValueError for a file that is not JSON
    or not such a report (a missing file is an OSError)."""
    text = Path(path).read_text()
    try:
        result = json.loads(text)
    except json.JSONDecodeError as e:
        raise ValueError(f"{path}: not JSON ({e}); give the balance.json that mk-env balance writes") from None
    missing = [k for k in REPORT_KEYS if not isinstance(result, dict) or k not in result]
    if missing or result["config"].get("command") != "balance":
        what = f"lacks {', '.join(missing)}" if missing else "its config is not a balance run's"
        raise ValueError(f"{path}: not a balance report ({what}); give the balance.json that mk-env balance writes")
    return result


def summarise(path: str | os.PathLike) -> dict[str, str]:
    """The summary row of the report at ``path``; a clear ValueError if a field it needs is missing or
    malformed (a file edited or cut short)."""
    result = read_report(path)
    try:
        return summary_row(result)
    except (KeyError, TypeError, ValueError, IndexError) as e:
        raise ValueError(f"{path}: not a balance report (a field is missing or malformed: {e!r}); give the "
                         f"balance.json that mk-env balance writes") from None


def _summary_cmd(args: argparse.Namespace) -> int:
    rows = [summarise(path) for path in args.reports]
    print(json.dumps(rows, indent=1) if args.json else summary_table(rows))
    return 0


def threshold(text: str) -> float:
    """A win-rate difference flagged as unfair: a number between 0 and 1 (0.05: 5 points)."""
    x = cli.positive_float(text)
    return cli.allowed(x, x < 1, "use a win-rate difference between 0 and 1 (0.05: 5 points)")


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "balance", help="seat and start-point win rates of self-play, unfair ones flagged",
        description="Play self-play games (seats rotated, resumable) and report each seat's and each start "
                    "point's win rate (95%% Wilson interval) against 1/n, flagging any more than "
                    "--threshold away, with the book's facts (first to fill a trollsmoot, leftovers).")
    p.add_argument("--agents", default=DEFAULT_AGENTS,
                   help=f"agent spec, or comma-separated specs rotated over the seats (default {DEFAULT_AGENTS})")
    p.add_argument("--players", type=cli.player_count, default=4, help="players per game, 2-5 (default 4)")
    p.add_argument("--games", type=cli.game_count, default=DEFAULT_GAMES, help=f"games (default {DEFAULT_GAMES})")
    p.add_argument("--board-side", default=None, help="board side (default: by player count)")
    p.add_argument("--pack", default=None, help="content pack folder (default: the built-in stand-in pack)")
    p.add_argument("--payment", choices=("auto", "choose"), default=None,
                   help="who picks the tokens that pay: auto (the default order) or choose (the payer)")
    p.add_argument("--gates", default="drawn", choices=GATES,
                   help="drawn: each gate on a start point drawn at random, so seats and start points are "
                        "measured apart (default); chosen: the agents choose")
    p.add_argument("--seed", type=cli.seed, default=0, help="seed of the schedule, >= 0 (default 0)")
    p.add_argument("--workers", type=cli.workers, default=min(2, os.cpu_count() or 1),
                   help="parallel worker processes (default 2)")
    p.add_argument("--threshold", type=threshold, default=DEFAULT_THRESHOLD,
                   help="flag a win rate this far from 1/n (default 0.05: 5 points)")
    p.add_argument("--out", type=cli.out_dir, default=DEFAULT_OUT,
                   help=f"output folder, resumable (default {DEFAULT_OUT})")
    p.add_argument("--json", action="store_true", help="print the report as JSON (for scripts)")
    p.set_defaults(func=_cmd)
    s = subparsers.add_parser(
        "balance-summary", help="balance reports side by side, one markdown row each",
        description="Read balance reports (the balance.json of mk-env balance runs) and print one markdown "
                    "table row per report: each seat's win rate (a flagged one with its interval), the start "
                    "points' range, the honour margin and head-to-head rates of the seat furthest from fair, "
                    "the verdict.")
    s.add_argument("reports", nargs="+", help="balance.json files")
    s.add_argument("--json", action="store_true", help="print the rows as JSON (for scripts)")
    s.set_defaults(func=_summary_cmd)
