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
run reproduces exactly and another ``--seed`` gives other deals. Beside the points, each category's scoring
events are counted (the decisions after which some seat's points in it rose: in Fall of the Mountain King,
``battle`` events are battles won). With ``--json`` the run resumes: each game is written as it ends, and a
later run with the same game, players and agents plays only the seeds the file lacks (a long ``mcts`` run
goes in chunks).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor, as_completed
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


def replay_counts(game: Any, seed: int, actions: list[int]) -> tuple[dict[str, int], dict[str, int]]:
    """Replays the game: for each scoring category, the decisions after which some seat's points in it rose;
    and the decisions by ``block@decision kind`` (a block chosen in several kinds of decision, as Cave Troll's
    ``decline`` of a Treasure, of a push, of an escape or of more steps, is told apart)."""
    state = game.new_initial_state(seed)
    events: Counter = Counter()
    kinds: Counter = Counter()

    def points() -> list[dict[str, int]]:
        return [state.score_breakdown(p) for p in range(game.num_players)]

    before = points()
    for a in actions:
        kinds[f"{_block_name(game.layout.decode(a)[0])}@{state.decision_kind()}"] += 1
        state.apply(a)
        after = points()
        events.update({k for b, f in zip(before, after) for k in f if k != "total" and f[k] > b[k]})
        before = after
    return dict(events), dict(kinds)


def _block_name(block: Any) -> str:
    return str(getattr(block, "name", block)).lower()


def play_one(job: tuple[str, int, list[str], int]) -> dict[str, Any]:
    """One game: the decisions per action block, each seat's score by category, the scoring events."""
    game_name, players, specs, seed = job
    game = make_game(game_name, players)
    actions: list[int] = []
    state = run_game(specs, seed, game=game, actions=actions)
    blocks = Counter(_block_name(b) for b, _ in map(game.layout.decode, actions))
    scores = [{k: int(v) for k, v in state.score_breakdown(p).items()} for p in range(players)]
    events, kinds = replay_counts(game, seed, actions)
    return {"seed": seed, "specs": specs, "decisions": len(actions), "blocks": dict(blocks), "scores": scores,
            "events": events, "block_kinds": kinds}


def summarise(games: list[dict[str, Any]], players: int) -> dict[str, Any]:
    """Totals over ``games``: per block (decisions, games used in), per scoring category (points, share)."""
    decisions, used_in, events, events_in = Counter(), Counter(), Counter(), Counter()
    kinds, kinds_in = Counter(), Counter()
    points: Counter = Counter()
    for g in games:
        kinds.update(g.get("block_kinds", {}))
        kinds_in.update(k for k, n in g.get("block_kinds", {}).items() if n)
        decisions.update(g["blocks"])
        used_in.update(b for b, n in g["blocks"].items() if n)
        events.update(g["events"])
        events_in.update(k for k, n in g["events"].items() if n)
        for seat in g["scores"]:
            points.update({k: v for k, v in seat.items() if k != "total"})
    scored = sum(v for v in points.values() if v > 0) or 1
    seats = len(games) * players or 1
    return {"games": len(games),
            "blocks": {b: {"decisions": decisions[b], "games_used": used_in[b]} for b in sorted(decisions)},
            "split": {k: {"decisions": kinds[k], "games_used": kinds_in[k]} for k in sorted(kinds)
                      if sum(1 for j in kinds if j.partition("@")[0] == k.partition("@")[0]) > 1},
            "split_games": sum(1 for g in games if "block_kinds" in g),
            "categories": {k: {"points": v, "share": v / scored, "per_player": v / seats, "events": events[k],
                               "games_scored": events_in[k]}
                           for k, v in sorted(points.items(), key=lambda kv: -kv[1])}}


def all_blocks(game_name: str, players: int) -> list[str]:
    """Every action block of the game's layout, so a block never chosen is printed with 0."""
    layout = make_game(game_name, players).layout
    blocks = getattr(layout, "BLOCKS", None) or list(layout.block_type)
    return [str(getattr(b, "name", b)).lower() for b in blocks]


def print_summary(summary: dict[str, Any], blocks: list[str], title: str, markdown: bool = False) -> None:
    """The tables, plain text or (``markdown``) markdown."""
    n = summary["games"]
    rows = [(b, summary["blocks"].get(b, {"decisions": 0, "games_used": 0})) for b in blocks]
    tables = [("action block", ("decisions", "per game", "games used"),
               [(b, (r["decisions"], f"{r['decisions'] / max(n, 1):.2f}", f"{r['games_used']}/{n}")) for b, r in rows])]
    if summary.get("split"):
        tables.append((f"block@decision kind ({summary['split_games']} games)", ("decisions", "per game", "games used"),
                       [(k, (r["decisions"], f"{r['decisions'] / max(n, 1):.2f}", f"{r['games_used']}/{n}"))
                        for k, r in summary["split"].items()]))
    tables.append(("scoring category", ("points", "share", "per player", "events", "per game", "games scored"),
                   [(k, (r["points"], f"{r['share']:.1%}", f"{r['per_player']:.2f}", r["events"],
                         f"{r['events'] / max(n, 1):.2f}", f"{r['games_scored']}/{n}"))
                    for k, r in summary["categories"].items()]))
    print(title)
    for head, columns, body in tables:
        if markdown:
            print(f"| {head} | " + " | ".join(columns) + " |")
            print("|---|" + "---:|" * len(columns))
            for name, values in body:
                print(f"| {name} | " + " | ".join(str(v) for v in values) + " |")
        else:
            print(f"{head:<28}" + "".join(f"{c:>14}" for c in columns))
            for name, values in body:
                print(f"{name:<28}" + "".join(f"{v!s:>14}" for v in values))
        print()


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
    p.add_argument("--markdown", action="store_true", help="print the tables as markdown")
    args = p.parse_args(argv)
    entry = game_entry(args.game)
    if args.players not in entry.player_counts:
        p.error(f"{entry.title} is for {entry.player_counts} players, got {args.players}")
    if args.games < 1 or args.workers < 1:
        p.error("--games and --workers must be at least 1")
    agents = [a.strip() for a in args.agents.split(",") if a.strip()]
    run = {"game": args.game, "players": args.players, "agents": agents}
    try:
        done = load_games(args.json, run) if args.json else {}
    except ValueError as e:
        p.error(str(e))
    jobs = [(args.game, args.players, seat_specs(agents, args.players, g), args.seed + g) for g in range(args.games)
            if args.seed + g not in done]
    start = time.perf_counter()
    if jobs:
        print(f"{len(jobs)} games to play ({len(done)} already in {args.json})" if done else
              f"{len(jobs)} games to play", file=sys.stderr)
    for game in played(jobs, args.workers):
        done[game["seed"]] = game
        if args.json:
            save_games(args.json, run, done)
    games = [done[s] for s in sorted(done) if args.seed <= s < args.seed + args.games]
    summary = summarise(games, args.players)
    title = (f"{entry.title}, {args.players} players, agents {','.join(agents)}, {len(games)} games "
             f"(seeds {args.seed}-{args.seed + args.games - 1}), {time.perf_counter() - start:.0f} s this run\n")
    print_summary(summary, all_blocks(args.game, args.players), title, args.markdown)
    if args.json:
        save_games(args.json, run, done, summary)
    return 0


def played(jobs: list[tuple[str, int, list[str], int]], workers: int) -> Iterator[dict[str, Any]]:
    """Each job's game as soon as it ends (``workers`` processes; one: in this process)."""
    if workers == 1:
        yield from map(play_one, jobs)
        return
    with ProcessPoolExecutor(workers) as pool:
        yield from (f.result() for f in as_completed([pool.submit(play_one, j) for j in jobs]))


def load_games(path: Path, run: dict[str, Any]) -> dict[int, dict[str, Any]]:
    """The games a previous run of the same game, players and agents wrote to ``path``, by seed."""
    if not path.exists():
        return {}
    data = json.loads(path.read_text())
    if data.get("run") != run:
        raise ValueError(f"{path} holds a run of {data.get('run')}, not {run}: give another --json to start a new one")
    return {int(g["seed"]): g for g in data["games"]}


def save_games(path: Path, run: dict[str, Any], done: dict[int, dict[str, Any]],
               summary: dict[str, Any] | None = None) -> None:
    """Writes the run's games (by seed) and, at the end, the summary of the seeds asked for; atomically."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_text(json.dumps({"run": run, "summary": summary, "games": [done[s] for s in sorted(done)]}, indent=1))
    tmp.replace(path)


if __name__ == "__main__":
    raise SystemExit(main())
