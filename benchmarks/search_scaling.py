"""How the search agent scales with its budget: seat-rotated 2-player games, for each budget B, of
``mcts:B`` against ``heuristic`` and of ``mcts:2B`` against ``mcts:B`` (issue 15: at 1 s per decision >= 75%
against the heuristic, and doubling the budget >= 55% against itself).

    python benchmarks/search_scaling.py --budgets 16,32,64 --games 20 --results runs/scaling.jsonl
    python benchmarks/search_scaling.py --budgets 0.5s,1s --games 200 --game cave_troll --jobs 2 \\
        --results runs/scaling_ct.jsonl --options workers=1

A budget is a number of simulations (``64``) or seconds (``1s``) per decision; ``--options`` are the
``mcts`` spec's options (``workers=2&horizon=3``). Games ``2k`` and ``2k + 1`` of a pairing are played with
the same seed ``--seed + k``, the first side in seat 0 then in seat 1, so the seats alternate and each
deal is played from both sides. Every finished game is a line
of the results file (JSON: pairing, game, seed, the agents by seat, ranks, scores and their breakdown by
the game's scoring categories, each side's decisions
and mean seconds per decision); a rerun with the same file plays only the games not in it yet, so a long
benchmark can be stopped and resumed. It prints, per pairing, the first side's win rate (a shared first
place counts half) with its 95% Wilson interval and each side's mean time per decision.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

from agents import make_agent
from agents.base import TimedAgent, search_budget
from mk_env.games import make_game
from training.play import run_game
from training.ratings import wilson_interval


def Timed(spec: str) -> TimedAgent:  # noqa: N802 - the benchmark's name for a timed agent of a spec
    """The agent of ``spec``, keeping its thinking time."""
    return TimedAgent(make_agent(spec), spec)


def parse_budget(text: str) -> tuple[str, str]:
    """A budget and its double, as spec arguments: ``"16"`` -> ("16", "32"), ``"0.5s"`` -> ("0.5s", "1s")."""
    try:
        simulations, seconds = search_budget(text)
    except ValueError:
        raise SystemExit(f"search_scaling: a budget is a positive number of simulations (64) or seconds "
                         f"(1s), got {text!r}") from None
    if seconds is not None:
        return f"{seconds:g}s", f"{2 * seconds:g}s"
    return str(simulations), str(2 * simulations)


def pairings(budgets: list[str], options: str, against: str) -> list[tuple[str, str]]:
    """(first side, second side) per budget: against the heuristic, then against itself at half budget."""
    tail = f"?{options}" if options else ""
    out = []
    for text in budgets:
        one, two = parse_budget(text)
        if against in ("heuristic", "both"):
            out.append((f"mcts:{one}{tail}", "heuristic"))
        if against in ("self", "both"):
            out.append((f"mcts:{two}{tail}", f"mcts:{one}{tail}"))
    return out


def play_one(job: tuple[str, str, int, int, str]) -> dict[str, Any]:
    """One game of a pairing; the first side sits in seat ``g % 2``."""
    first, second, g, seed, game_name = job
    sides = [Timed(first), Timed(second)]
    seats = sides if g % 2 == 0 else sides[::-1]
    t0 = time.perf_counter()
    state = run_game(seats, seed, game=make_game(game_name, 2))
    for side in sides:
        getattr(side.inner, "close", lambda: None)()
    ranks = state.ranks()
    return {"pairing": f"{first} vs {second}", "game": g, "seed": seed, "agents": [s.name for s in seats],
            "ranks": ranks, "scores": [state.score_breakdown(p)["total"] for p in range(2)],
            "breakdown": [state.score_breakdown(p) for p in range(2)],
            "first_seat": g % 2, "seconds": round(time.perf_counter() - t0, 3),
            "decisions": [s.decisions for s in sides],
            "per_decision": [round(s.seconds / max(1, s.decisions), 5) for s in sides]}


def first_side_score(record: dict[str, Any]) -> float:
    """1 when the first side won, 0.5 for a shared first place, else 0."""
    ranks, seat = record["ranks"], record["first_seat"]
    if ranks[seat] != 0:
        return 0.0
    return 0.5 if ranks[1 - seat] == 0 else 1.0


def read_results(path: Path) -> list[dict[str, Any]]:
    if not path.exists():
        return []
    out = []
    for n, line in enumerate(path.read_text().splitlines(), 1):
        if line.strip():
            try:
                out.append(json.loads(line))
            except json.JSONDecodeError:
                raise SystemExit(f"search_scaling: {path} line {n} is not JSON (a run cut while writing? "
                                 f"delete that line and rerun)") from None
    return out


def summary(records: list[dict[str, Any]], order: list[str]) -> list[str]:
    lines = [f"{'pairing':<46} {'games':>5} {'win rate':>8}  {'95% interval':>15}  s/decision (first, second)"]
    for name in order:
        mine = [r for r in records if r["pairing"] == name]
        if not mine:
            continue
        wins = sum(first_side_score(r) for r in mine)
        lo, hi = wilson_interval(wins, len(mine))
        t = np.mean([r["per_decision"] for r in mine], axis=0)
        lines.append(f"{name:<46} {len(mine):>5} {wins / len(mine):>8.1%}  [{lo:6.1%}, {hi:6.1%}]  "
                     f"{t[0]:.4f}, {t[1]:.4f}")
    return lines


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--budgets", default="16,32,64", help="comma-separated: simulations (64) or seconds (1s)")
    ap.add_argument("--games", type=int, default=20, help="games per pairing (even: seats alternate)")
    ap.add_argument("--game", default="mountain_king", help="mountain_king or cave_troll")
    ap.add_argument("--against", default="both", choices=("heuristic", "self", "both"))
    ap.add_argument("--options", default="", help="mcts spec options, e.g. 'workers=2&horizon=3'")
    ap.add_argument("--seed", type=int, default=0, help="games 2k and 2k+1 are played with seed SEED + k")
    ap.add_argument("--jobs", type=int, default=1, help="games played at once (processes)")
    ap.add_argument("--results", type=Path, required=True, help="JSON-lines file, appended and resumed")
    args = ap.parse_args(argv)
    if args.games < 1 or args.jobs < 1:
        raise SystemExit("search_scaling: --games and --jobs must be >= 1")
    make_game(args.game, 2)  # an unknown game fails here, in one line
    order = [f"{a} vs {b}" for a, b in pairings(args.budgets.split(","), args.options, args.against)]
    for a, _ in pairings(args.budgets.split(","), args.options, args.against):
        make_agent(a)  # a bad option fails before any game
    done = {(r["pairing"], r["game"]) for r in read_results(args.results)}
    jobs = [(a, b, g, args.seed + g // 2, args.game)
            for a, b in pairings(args.budgets.split(","), args.options, args.against)
            for g in range(args.games) if (f"{a} vs {b}", g) not in done]
    print(f"{len(done)} games already in {args.results}, {len(jobs)} to play", file=sys.stderr)
    args.results.parent.mkdir(parents=True, exist_ok=True)
    pool = multiprocessing.get_context("spawn").Pool(args.jobs) if args.jobs > 1 else None
    try:
        results = map(play_one, jobs) if pool is None else pool.imap_unordered(play_one, jobs)
        with open(args.results, "a") as out:
            for record in results:
                out.write(json.dumps(record) + "\n")
                out.flush()
                print(f"{record['pairing']} game {record['game']}: ranks {record['ranks']} "
                      f"({record['seconds']:.1f} s)", file=sys.stderr)
    finally:
        if pool is not None:
            pool.close()
    print("\n".join(summary(read_results(args.results), order)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
