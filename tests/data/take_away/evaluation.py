"""Take-away's evaluation for the ``heuristic`` and ``mcts`` agents (the interface of :mod:`agents.evaluation`):
the points margin over the best other seat, a one-ply look-ahead, the greedy choice as the quick policy."""

from __future__ import annotations

import numpy as np


def evaluate(st, p: int) -> float:
    """Seat ``p``'s points margin over the best other seat."""
    totals = [st.score_breakdown(q)["total"] for q in range(st.num_players)]
    return totals[p] - max(t for q, t in enumerate(totals) if q != p)


def candidates(st, p: int) -> list[int]:
    return [int(a) for a in st.legal_actions()]


def lookahead_values(st, p: int, actions) -> np.ndarray:
    """Each action's value for ``p``: applied to a copy, then evaluated."""
    out = np.empty(len(actions))
    for i, a in enumerate(actions):
        c = st.clone()
        c.apply(int(a))
        out[i] = evaluate(c, p)
    return out


def quick_action(st, p: int) -> int:
    acts = candidates(st, p)
    return acts[int(np.argmax(lookahead_values(st, p, acts)))]


def settle(st, p: int | None = None) -> None:
    """Nothing to settle: every decision is a main one."""


def best_action(st, p: int, rng: np.random.Generator | None = None) -> int:
    return quick_action(st, p)
