"""``mk-env balance``: is the table fair? Self-play of one agent spec (or a list, seats rotated) and, for
each seat and each start point, its win rate with a 95% Wilson interval and its mean honour, against
the fair share ``1/n``; any whose win rate differs from ``1/n`` by more than ``--threshold`` (default 5
points) is flagged, and one verdict line sums it up.

A win shared by ``k`` tied winners counts ``1/k`` for each, so the win rates of one game's seats add up
to 1. Two facts of the book that the content should reproduce are reported beside: how often the first
player to fill a trollsmoot (to ``max_trolls``, the first coronation token) wins (the rulebook presents
capping first as valuable if well timed), and what players hold at the end (resources, and the honour
of their leftover sets: 1 in the rulebook's scoring example).

Beside the verdict, three views explain it: each seat's win rate on each start point (a seat low on every
point loses to its place in the turn order, not to its points), each seat's mean honour by scoring
category with how often it filled its trollsmoot first, and each seat's win rate by which seat
triggered the end (took the last coronation token).

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
from .play import make_game, parse_agents, run_game
from .ratings import wilson_interval, win_shares
from .tournament import _check_config, play_into, start_points
from .tournament_schedule import schedule

DEFAULT_AGENTS = "heuristic"
DEFAULT_GAMES = 200
DEFAULT_THRESHOLD = 0.05
DEFAULT_OUT = "runs/balance"
#: how gates are placed: drawn at random among the legal start points, or chosen by the agents
GATES = ("drawn", "chosen")
#: the decision kind of placing a gate
GATE_DECISION = "setup_gate"
#: the extras each games.jsonl line of a balance run holds beside the tournament's fields
EXTRA_FIELDS = ("first_capped", "resources_end")
#: what the book says for each fact reported beside the seats
BOOK = {
    "first_capped": "the rulebook presents filling the trollsmoot first as valuable if well timed",
    "leftover_sets": "1 honour each in the rulebook's scoring example",
}


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
        "start_points": start_points(game, state),
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


def first_to_cap(game: Any, seed: int, actions: list[int]) -> int | None:
    """The seat that took the first coronation token (the first to recruit a full trollsmoot) in the
    game replayed from ``seed`` and ``actions``; None if no token was taken."""
    takers = coronation_order(game, seed, actions)
    return takers[0] if takers else None


def ender(game: Any, takers: list[int]) -> int | None:
    """The seat that took the last coronation token, which triggers the end of the game (rulebook, *Game
    end trigger*), given the takers in order (:func:`coronation_order`); None if a token was left."""
    return takers[-1] if len(takers) == len(game.pack.coronation_tokens[game.num_players]) else None


# ================================================================================================
# the report
# ================================================================================================
def _rate(wins: float, n: int, fair: float, threshold: float) -> dict[str, Any]:
    """A win rate with its interval, its distance from ``fair`` and whether that is too far."""
    rate = wins / n if n else 0.0
    lo, hi = wilson_interval(wins, n)
    return {"games": n, "wins": round(wins, 3), "win_rate": rate, "win_rate_ci95": [lo, hi],
            "off_fair": rate - fair, "flagged": bool(n) and abs(rate - fair) > threshold + 1e-12}


def _rates(results: Any, fair: float, threshold: float) -> dict[str, Any]:
    """:func:`_rate` per key of ``results``, an iterable of ``((a, b), win share)``: rows keyed ``"a-b"``."""
    tallies: dict[tuple[int, int], list[float]] = {}
    for key, share in results:
        tally = tallies.setdefault(key, [0, 0.0])
        tally[0] += 1
        tally[1] += share
    return {f"{a}-{b}": _rate(w, n, fair, threshold) for (a, b), (n, w) in sorted(tallies.items())}


def report(games: list[dict[str, Any]], players: int, threshold: float = DEFAULT_THRESHOLD) -> dict[str, Any]:
    """The balance of ``games`` (records of :func:`balance_game`): per seat and per start point, win rate
    (ties split) with a 95% Wilson interval, its distance from ``1/players`` and a flag beyond
    ``threshold``, mean honour; the book's facts; the verdict."""
    fair = 1.0 / players
    groups: dict[str, dict[int, list[float]]] = {"per_seat": {}, "per_start_point": {}}
    for g in games:
        for p, share in enumerate(win_shares(g)):
            for kind, key in (("per_seat", p), ("per_start_point", g["start_points"][p])):
                tally = groups[kind].setdefault(int(key), [0, 0.0, 0.0])
                tally[0] += 1
                tally[1] += share
                tally[2] += g["scores"][p]["total"]
    out: dict[str, Any] = {"games": len(games), "players": players, "fair_win_rate": fair, "threshold": threshold}
    for kind, tallies in groups.items():
        out[kind] = {str(k): {**_rate(w, n, fair, threshold), "mean_honour": h / n}
                     for k, (n, w, h) in sorted(tallies.items())}
    if players == 2:
        out["per_start_pair"] = start_pairs(games, threshold)
    out["per_seat_and_start_point"] = seat_on_start_point(games, fair, threshold)
    out["seat_honour"] = seat_honour(games, players)
    out["per_trigger_and_seat"] = seat_given_trigger(games, fair, threshold)
    out["book"] = book_facts(games, fair, threshold)
    flagged = [(kind, k, row) for kind in groups for k, row in out[kind].items() if row["flagged"]]
    out["fair"] = bool(games) and not flagged
    out["verdict"] = verdict(out, flagged)
    return out


def start_pairs(games: list[dict[str, Any]], threshold: float) -> dict[str, Any]:
    """At 2 players, each pair of start points met ("a-b", a < b): how often the gate at ``a`` won (ties
    split) against an even 50%, with its interval. Shown to explain a start point's rate (which opponent
    it won against); the verdict reads seats and start points only."""
    def pair(g: dict[str, Any]) -> tuple[tuple[int, int], float]:
        a, b = (int(x) for x in g["start_points"])
        share = win_shares(g)
        return ((a, b), share[0]) if a < b else ((b, a), share[1])
    return _rates((pair(g) for g in games), 0.5, threshold)


def seat_on_start_point(games: list[dict[str, Any]], fair: float, threshold: float) -> dict[str, Any]:
    """Each seat's win rate on each start point (``"seat-point"``), against ``1/n``: whether a seat's
    rate is its place in the turn order (low on every point) or the points it sat on. Shown to explain;
    the verdict reads seats and start points only."""
    return _rates((((p, int(g["start_points"][p])), share) for g in games for p, share in enumerate(win_shares(g))),
                  fair, threshold)


def seat_given_trigger(games: list[dict[str, Any]], fair: float, threshold: float) -> dict[str, Any]:
    """Each seat's win rate in the games whose end a given seat triggered (``"trigger-seat"``: the seat that
    took the last coronation token, then each seat): whether a seat's deficit comes with the race to fill
    the trollsmoots (low when others end the game, fair when it does). Games without the record (runs
    older than the field) or without a trigger are left out; shown to explain, not read by the verdict."""
    return _rates((((int(g["triggered_end"]), p), share) for g in games if g.get("triggered_end") is not None
                   for p, share in enumerate(win_shares(g))), fair, threshold)


def seat_honour(games: list[dict[str, Any]], players: int) -> dict[str, dict[str, float]]:
    """Each seat's mean honour by scoring category (the parts of the score breakdown: tunnels, statues,
    coronation, ...) and how often it filled its trollsmoot first (``first_to_fill``, the first
    coronation token): where a seat's honour is won or lost."""
    sums: list[dict[str, float]] = [{} for _ in range(players)]
    for g in games:
        for p in range(players):
            for category, value in g["scores"][p].items():
                sums[p][category] = sums[p].get(category, 0.0) + value
            sums[p]["first_to_fill"] = sums[p].get("first_to_fill", 0.0) + (g.get("first_capped") == p)
    n = max(len(games), 1)
    return {str(p): {category: total / n for category, total in s.items()} for p, s in enumerate(sums)}


def book_facts(games: list[dict[str, Any]], fair: float, threshold: float) -> dict[str, Any]:
    """The first capper's win rate (ties split; games where nobody capped are left out), and the mean
    resources held and leftover-set honour at the end, per seat and game."""
    capped = [g for g in games if g.get("first_capped") is not None]
    wins = sum(win_shares(g)[g["first_capped"]] for g in capped)
    seats = [(g, p) for g in games for p in range(len(g["ranks"]))]
    n = max(len(seats), 1)
    return {
        "first_capped": {**_rate(wins, len(capped), fair, threshold), "games_without": len(games) - len(capped),
                         "book": BOOK["first_capped"]},
        "mean_resources_end": sum(g["resources_end"][p] for g, p in seats) / n,
        "mean_leftover_sets": sum(g["scores"][p]["leftover_sets"] for g, p in seats) / n,
        "leftover_sets_book": BOOK["leftover_sets"],
    }


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def verdict(out: dict[str, Any], flagged: list[tuple[str, str, dict]]) -> str:
    """One line: fair, or which seats and start points are not (win rate and interval)."""
    fair, points = out["fair_win_rate"], round(100 * out["threshold"], 1)
    if not out["games"]:
        return "no games played"
    if not flagged:
        return (f"FAIR: every seat and start point within {points:g} points of {_pct(fair)} "
                f"({out['games']} games, {out['players']} players)")
    names = {"per_seat": "seat", "per_start_point": "start point"}
    parts = [f"{names[kind]} {k} {_pct(r['win_rate'])} (CI {_pct(r['win_rate_ci95'][0])}-"
             f"{_pct(r['win_rate_ci95'][1])})" for kind, k, r in flagged]
    return (f"UNFAIR: {', '.join(parts)}: more than {points:g} points from {_pct(fair)} "
            f"({out['games']} games, {out['players']} players)")


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


def table(result: dict[str, Any]):
    """A rich table: one row per seat and per start point, flagged rows marked."""
    from rich.table import Table
    cfg = result["config"]
    t = Table(title=f"Balance: {cfg['players']} players, {cfg['board_side']} side, "
                    f"{result['games']} games ({', '.join(cfg['agents'])}; gates {cfg['gates']})")
    for col in ("", "games", "win rate", "95% CI", "vs fair", "mean honour", "flag"):
        t.add_column(col, justify="left" if col in ("", "flag") else "right")
    for kind, name in (("per_seat", "seat"), ("per_start_point", "start point")):
        for k, r in result[kind].items():
            lo, hi = r["win_rate_ci95"]
            t.add_row(f"{name} {k}", str(r["games"]), _pct(r["win_rate"]), f"{_pct(lo)}-{_pct(hi)}",
                      f"{100 * r['off_fair']:+.1f}", f"{r['mean_honour']:.1f}", "UNFAIR" if r["flagged"] else "")
    for k, r in result.get("per_start_pair", {}).items():  # 2 players: the first point's rate in each pair
        lo, hi = r["win_rate_ci95"]
        t.add_row(f"pair {k}", str(r["games"]), _pct(r["win_rate"]), f"{_pct(lo)}-{_pct(hi)}",
                  f"{100 * r['off_fair']:+.1f}", "", "(uneven)" if r["flagged"] else "")
    return t


def seat_lines(result: dict[str, Any]) -> list[str]:
    """Per seat, in words: its win rate on each start point, and where its honour comes from."""
    by_point: dict[str, list[str]] = {}
    for key, r in result.get("per_seat_and_start_point", {}).items():
        seat, point = key.split("-")
        by_point.setdefault(seat, []).append(f"{point}: {_pct(r['win_rate'])} of {r['games']}")
    lines = []
    for seat, honour in result.get("seat_honour", {}).items():
        parts = [f"{k.replace('_', ' ')} {v:.1f}" for k, v in honour.items() if k not in ("total", "first_to_fill")]
        lines.append(f"seat {seat}: on start point {', '.join(by_point.get(seat, []))}; honour "
                     f"{honour.get('total', 0.0):.1f} ({', '.join(parts)}); filled its trollsmoot first in "
                     f"{_pct(honour.get('first_to_fill', 0.0))} of games")
    return lines


def trigger_lines(result: dict[str, Any]) -> list[str]:
    """Per seat that triggered the end: how many games, and each seat's win rate in them."""
    rows: dict[str, list[str]] = {}
    counts: dict[str, int] = {}
    for key, r in result.get("per_trigger_and_seat", {}).items():
        trigger, seat = key.split("-")
        rows.setdefault(trigger, []).append(f"seat {seat} {_pct(r['win_rate'])}")
        counts[trigger] = r["games"]
    return [f"end triggered by seat {t} in {counts[t]} game{'' if counts[t] == 1 else 's'}: {', '.join(parts)}"
            for t, parts in rows.items()]


def book_lines(result: dict[str, Any]) -> list[str]:
    """The book's facts in words."""
    b = result["book"]
    c = b["first_capped"]
    lo, hi = c["win_rate_ci95"]
    return [f"first to fill a trollsmoot wins {_pct(c['win_rate'])} (CI {_pct(lo)}-{_pct(hi)}) of "
            f"{c['games']} games ({c['games_without']} without; {b['first_capped']['book']})",
            f"at the end a player holds {b['mean_resources_end']:.1f} resources on average; leftover sets "
            f"{b['mean_leftover_sets']:.1f} honour ({b['leftover_sets_book']})"]


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
    for line in seat_lines(result) + trigger_lines(result) + book_lines(result):
        console.print(Text(line))
    console.print(Text(result["verdict"]))
    console.print(Text(f"report: {Path(args.out) / 'balance.json'}"))
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
