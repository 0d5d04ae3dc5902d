"""Cave Troll's end-of-game rewards under the schemes of :mod:`mk_env.mountain_king.env.rewards` ("win", "margin",
"dense"; gold in place of honour, the same scale: 100 gold per unit of reward)."""

from __future__ import annotations

from mk_env.mountain_king.env.rewards import SCALE


def final_rewards(state, reward: str, totals_now: list[int]) -> list[float]:
    """The end-of-game reward of each seat: ``win`` (and dense's win part): the engine's returns (+1 to the
    winner, -1/(n-1) to each other; tied winners share); ``margin``: (own gold - the best other's) / 100."""
    if reward == "margin":
        n = len(totals_now)
        return [(totals_now[p] - max(totals_now[q] for q in range(n) if q != p)) / SCALE for p in range(n)]
    return [float(x) for x in state.returns()]
