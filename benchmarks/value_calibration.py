"""How much the heuristic evaluation's margin says about the winner, by the turns left: a check of the
search's leaf value ``tanh(margin / scale)`` (``agents.search_eval``; the first game's scale is 10).

    python benchmarks/value_calibration.py --games 100 --seed 2000

Plays ``--games`` 2-player heuristic self-play games (seeds ``--seed`` on). At the start of every turn
(where the search values its leaves) it records the player to move's evaluation margin over the other
seat (pending sub-decisions settled, as the search does), that player's own turns left and, at the end,
the final honour margin and the result. Per band of turns left it prints: the records, the spread (sd)
of the final margin about the evaluation's, their correlation, the scale ``S`` and offset ``b`` of
``P(win) = (1 + tanh((margin + b) / S)) / 2`` that fit the results best (maximum likelihood on a grid),
and the mean log-likelihood of that fit, of the search's scale (``--scale``, default 10) and of a scale
that grows with the turns left, ``12 + 3`` per turn up to 45 (tried as the search's in session 10).
"""

from __future__ import annotations

import argparse
import sys

import numpy as np

from agents import heuristic as H
from agents.heuristic_eval import own_turns_left
from mk_env.games import make_game
from training.play import run_game

BANDS = [(0, 2), (2, 5), (5, 8), (8, 99)]


def turns_scale(turns_left: np.ndarray) -> np.ndarray:
    """The scale by turns left tried in session 10: 12 honour plus 3 per own turn left, at most 45."""
    return np.minimum(45.0, 12.0 + 3.0 * turns_left)


def turn_starts(seed: int) -> list[tuple[float, float, float, float]]:
    """One heuristic self-play game: (margin, turns left, final margin, result) per turn start."""
    game = make_game("mountain_king", 2)
    actions: list[int] = []
    run_game(["heuristic", "heuristic"], seed, game=game, actions=actions)
    st, seen, out = game.new_initial_state(seed), set(), []
    for a in actions:
        if st.turn not in seen and st.decision_kind().startswith("step1"):
            seen.add(st.turn)
            s = st.clone()
            p = s.current_player()
            H.settle(s, p)
            out.append((p, H.evaluate(s, p) - H.evaluate(s, 1 - p), own_turns_left(s, p)))
        st.apply(a)
    final, ranks = [st.score_breakdown(q)["total"] for q in range(2)], st.ranks()
    return [(m, t, final[p] - final[1 - p], 1.0 if ranks[p] < ranks[1 - p] else 0.5 if ranks[p] == ranks[1 - p]
             else 0.0) for p, m, t in out]


def log_likelihood(margin: np.ndarray, won: np.ndarray, scale: np.ndarray | float, offset: float = 0.0) -> float:
    """Mean log-likelihood of the results under ``P(win) = (1 + tanh((margin + offset) / scale)) / 2``."""
    p = np.clip((1 + np.tanh((margin + offset) / scale)) / 2, 1e-4, 1 - 1e-4)
    return float(np.mean(won * np.log(p) + (1 - won) * np.log(1 - p)))


def best_fit(margin: np.ndarray, won: np.ndarray) -> tuple[float, float, float]:
    """(scale, offset, mean log-likelihood) of the best grid point."""
    grid = [(s, b, log_likelihood(margin, won, s, b)) for s in np.arange(4.0, 80.0) for b in np.arange(-10.0, 20.0)]
    return max(grid, key=lambda x: x[2])


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--seed", type=int, default=2000)
    ap.add_argument("--scale", type=float, default=10.0, help="the search's scale to score (honour)")
    args = ap.parse_args(argv)
    if args.games < 1 or not args.scale > 0:
        raise SystemExit("value_calibration: --games must be >= 1 and --scale > 0")
    rows = np.array([r for g in range(args.games) for r in turn_starts(args.seed + g)])
    margin, left, final, won = rows.T
    print(f"{args.games} games, {len(rows)} turn starts (seeds {args.seed}-{args.seed + args.games - 1})")
    print(f"turns left | records | sd(final - eval) | corr | best S, b | loglik best / scale {args.scale:g} / "
          f"12 + 3 per turn")
    for lo, hi in BANDS:
        k = (left >= lo) & (left < hi)
        if k.sum() < 10:
            continue
        s, b, ll = best_fit(margin[k], won[k])
        print(f"[{lo}, {hi}) | {int(k.sum())} | {np.std(final[k] - margin[k]):.1f} | "
              f"{np.corrcoef(margin[k], final[k])[0, 1]:.2f} | {s:.0f}, {b:+.0f} | {ll:.3f} / "
              f"{log_likelihood(margin[k], won[k], args.scale):.3f} / "
              f"{log_likelihood(margin[k], won[k], turns_scale(left[k])):.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
