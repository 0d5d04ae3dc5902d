"""What choosing the tokens that pay is worth (issue 16, item 2): in ``payment="choose"`` games, an agent
that picks its tokens against the same agent answering every payment with the engine's fixed order (the
set ``payment="auto"`` would spend: :func:`agents.payment_choice.fixed_order_token`), 2 players, seats
alternating on the same deals.

    python benchmarks/payment_worth.py --agent heuristic --games 200 --seed 0
    python benchmarks/payment_worth.py --agent mcts:16 --games 40 --seed 0 --results runs/payment_mcts16.jsonl

Games ``2k`` and ``2k + 1`` share the seed ``--seed + k``, the chooser in seat 0 then in seat 1. Prints the
chooser's win rate (a shared first place counts half) with its 95% Wilson interval and the mean honour
margin; every game is a line of ``--results`` (JSON), and a rerun with the same file plays only the games
not in it yet.
"""

from __future__ import annotations

import argparse
import json
import math
import time
from pathlib import Path

import numpy as np

from agents.base import BaseAgent
from agents.payment_choice import fixed_order_token
from agents.registry import make_agent
from mk_env.mountain_king.rules import Game
from mk_env.core.view import PlayerView


class FixedOrderPayment(BaseAgent):
    """``inner``'s decisions, except that every payment is the engine's fixed order (no choice)."""

    def __init__(self, inner: BaseAgent):
        self.inner = inner
        self.name = f"{inner.name}+fixed-payment"

    def reset(self, seat: int, num_players: int) -> None:
        self.inner.reset(seat, num_players)

    def act(self, view: PlayerView, rng: np.random.Generator) -> int:
        if view.decision_kind() == "pay":  # the tokens and the decision held are public
            st = view.public_state()
            return st.game.layout.index("pay_token", fixed_order_token(st, view.seat))
        return self.inner.act(view, rng)


def play(spec: str, game_index: int, seed: int) -> dict:
    """One 2-player choose game: the chooser (``spec``) in seat ``game_index % 2``."""
    chooser = game_index % 2
    agents = [make_agent(spec), FixedOrderPayment(make_agent(spec))]
    if chooser == 1:
        agents.reverse()
    for seat, agent in enumerate(agents):
        agent.reset(seat, 2)
    st = Game(2, payment="choose").new_initial_state(seed)
    rng = np.random.default_rng(seed + 1)
    start, asked = time.perf_counter(), [0, 0]
    while not st.is_terminal():
        p = st.current_player()
        asked[p] += st.decision_kind() == "pay"
        st.apply(agents[p].act(PlayerView(st, p), rng))
    ranks = st.ranks()
    scores = [st.score_breakdown(p)["total"] for p in range(2)]
    won = 1.0 if ranks[chooser] < ranks[1 - chooser] else 0.5 if ranks[0] == ranks[1] else 0.0
    return {"agent": spec, "game": game_index, "seed": seed, "chooser_seat": chooser, "chooser_won": won,
            "margin": scores[chooser] - scores[1 - chooser], "scores": scores, "pay_decisions": asked,
            "seconds": round(time.perf_counter() - start, 2)}


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson interval of a rate (``wins`` may hold halves)."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--agent", default="heuristic", help="agent spec of both sides (default heuristic)")
    ap.add_argument("--games", type=int, default=200, help="games, an even number (default 200)")
    ap.add_argument("--seed", type=int, default=0, help="first deal's seed (default 0)")
    ap.add_argument("--results", type=Path, default=None, help="JSON lines file, resumed when it exists")
    args = ap.parse_args(argv)
    if args.games < 2 or args.games % 2:
        ap.error(f"--games {args.games}: use an even number >= 2 (each deal is played from both seats)")
    done: dict[int, dict] = {}
    if args.results is not None and args.results.exists():
        for line in args.results.read_text().splitlines():
            row = json.loads(line)
            if row["agent"] == args.agent:
                done[row["game"]] = row
    for k in range(args.games):
        if k in done:
            continue
        row = play(args.agent, k, args.seed + k // 2)
        done[k] = row
        if args.results is not None:
            args.results.parent.mkdir(parents=True, exist_ok=True)
            with args.results.open("a") as f:
                f.write(json.dumps(row) + "\n")
    rows = [done[k] for k in range(args.games)]
    wins = sum(r["chooser_won"] for r in rows)
    lo, hi = wilson(wins, len(rows))
    margin = np.array([r["margin"] for r in rows], float)
    half = 1.96 * margin.std(ddof=1) / math.sqrt(len(rows)) if len(rows) > 1 else float("nan")
    pays = np.mean([sum(r["pay_decisions"]) for r in rows])
    print(f"{args.agent} choosing its tokens vs {args.agent} paying in the fixed order, 2 players, {len(rows)} games "
          f"(seeds {args.seed}..{args.seed + args.games // 2 - 1}, seats alternating):")
    print(f"  chooser win rate {wins / len(rows):.1%} (95% Wilson {lo:.1%}-{hi:.1%}); honour margin "
          f"{margin.mean():+.1f} +- {half:.1f}; {pays:.1f} payment decisions per game; "
          f"{np.mean([r['seconds'] for r in rows]):.1f} s per game")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
