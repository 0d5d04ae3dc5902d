"""Which mechanics the agents use: action blocks chosen and score by category, over seeded games.

A mechanic no agent ever uses is either a weakness of the agents or a content question (issue 52, item 5).
This script plays ``--games`` games of any game of the suite with the same agent spec in every seat (or
``--agents A,B,...`` rotated over the seats), and prints, for each action block of the game's layout, how
many decisions chose it, in how many games at least one seat did, and the decisions per game; then each
scoring category's share of all points scored, and its mean per player.

    python benchmarks/mechanic_use.py --game cave_troll --players 3 --agents heuristic --games 100
    python benchmarks/mechanic_use.py --game fall_of_the_mountain_king --players 3 --agents mcts:16 \
        --games 100 --workers 2 --json runs/fall-mcts16-mechanics.json

Game ``g`` is dealt from seed ``--seed + g`` (its agents' generators as ``mk-env play`` draws them), so a
run reproduces exactly and another ``--seed`` gives other deals.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from mk_env.games import DEFAULT_GAME, game_entry, game_names, make_game  # noqa: E402
from training.play import run_game  # noqa: E402


def seat_specs(agents: list[str], players: int, g: int) -> list[str]:
    """The agents of game ``g``: ``agents`` repeated to fill the seats, rotated by one seat a game."""
    filled = [agents[i % len(agents)] for i in range(players)]
    shift = g % players
    return filled[shift:] + filled[:shift]


def play_one(job: tuple[str, int, list[str], int]) -> dict[str, Any]:
    """One game: the decisions per action block and each seat's score by category."""
    game_name, players, specs, seed = job
    game = make_game(game_name, players)
    actions: list[int] = []
    state = run_game(specs, seed, game=game, actions=actions)
    blocks = Counter(str(getattr(b, "name", b)).lower() for b, _ in map(game.layout.decode, actions))
    scores = [{k: int(v) for k, v in state.score_breakdown(p).items()} for p in range(players)]
    return {"seed": seed, "decisions": len(actions), "blocks": dict(blocks), "scores": scores}


def summarise(games: list[dict[str, Any]], players: int) -> dict[str, Any]:
    """Totals over ``games``: per block (decisions, games used in), per scoring category (points, share)."""
    decisions, used_in = Counter(), Counter()
    points: Counter = Counter()
    for g in games:
        decisions.update(g["blocks"])
        used_in.update(b for b, n in g["blocks"].items() if n)
        for seat in g["scores"]:
            points.update({k: v for k, v in seat.items() if k != "total"})
    scored = sum(v for v in points.values() if v > 0) or 1
    seats = len(games) * players or 1
    return {"games": len(games),
            "blocks": {b: {"decisions": decisions[b], "games_used": used_in[b]} for b in sorted(decisions)},
            "categories": {k: {"points": v, "share": v / scored, "per_player": v / seats}
                           for k, v in sorted(points.items(), key=lambda kv: -kv[1])}}


def all_blocks(game_name: str, players: int) -> list[str]:
    """Every action block of the game's layout, so a block never chosen is printed with 0."""
    layout = make_game(game_name, players).layout
    blocks = getattr(layout, "BLOCKS", None) or list(layout.block_type)
    return [str(getattr(b, "name", b)).lower() for b in blocks]


def print_summary(summary: dict[str, Any], blocks: list[str], title: str) -> None:
    """The two tables, plain text."""
    n = summary["games"]
    print(title)
    print(f"{'action block':<28}{'decisions':>10}{'per game':>10}{'games used':>12}")
    for b in blocks:
        row = summary["blocks"].get(b, {"decisions": 0, "games_used": 0})
        print(f"{b:<28}{row['decisions']:>10}{row['decisions'] / max(n, 1):>10.2f}"
              f"{row['games_used']:>7}/{n:<4}")
    print(f"\n{'scoring category':<28}{'points':>10}{'share':>9}{'per player':>12}")
    for k, row in summary["categories"].items():
        print(f"{k:<28}{row['points']:>10}{row['share']:>8.1%}{row['per_player']:>12.2f}")


def main(argv: list[str] | None = None) -> int:
    """Parse the arguments, play the games (``--workers`` processes), print the tables."""
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--game", default=DEFAULT_GAME, choices=game_names())
    p.add_argument("--players", type=int, default=2)
    p.add_argument("--agents", default="heuristic", help="comma-separated agent specs, rotated over the seats")
    p.add_argument("--games", type=int, default=100)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--workers", type=int, default=1)
    p.add_argument("--json", type=Path, default=None, help="also write the games and the summary here")
    args = p.parse_args(argv)
    entry = game_entry(args.game)
    if args.players not in entry.player_counts:
        p.error(f"{entry.title} is for {entry.player_counts} players, got {args.players}")
    if args.games < 1 or args.workers < 1:
        p.error("--games and --workers must be at least 1")
    agents = [a.strip() for a in args.agents.split(",") if a.strip()]
    jobs = [(args.game, args.players, seat_specs(agents, args.players, g), args.seed + g) for g in range(args.games)]
    start = time.perf_counter()
    if args.workers == 1:
        games = [play_one(j) for j in jobs]
    else:
        with ProcessPoolExecutor(args.workers) as pool:
            games = list(pool.map(play_one, jobs))
    summary = summarise(games, args.players)
    title = (f"{entry.title}, {args.players} players, agents {','.join(agents)}, {args.games} games "
             f"(seeds {args.seed}-{args.seed + args.games - 1}), {time.perf_counter() - start:.0f} s\n")
    print_summary(summary, all_blocks(args.game, args.players), title)
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps({"args": {k: str(v) for k, v in vars(args).items()},
                                         "summary": summary, "games": games}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
