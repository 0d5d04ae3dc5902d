"""Reward schemes of every game's environment: "win" (default), "margin" and "dense".

* ``win``: nothing during the game; at the end the engine's ``state.returns()``: +1 to the winner
  (after the game's tie-break; exact ties share the win) and -1/(n-1) to each other player.
* ``margin``: nothing during the game; at the end ``(own total - best total of a player outside
  my team) / 100`` (a game without teams: every other player).
* ``dense``: after every step, each player gets the change of their ``score_breakdown(p)["total"]``
  since the previous step, / 100 (point-gain shaping; a player sees the sum since their last step),
  plus the ``win`` reward at the end.

The points are the game's own (honour, gold, honor); the scale is the same for every game.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

REWARD_SCHEMES = ("win", "margin", "dense")
SCALE = 100.0  # points per unit of reward in "margin" and "dense"


def check_scheme(reward: str) -> str:
    """``reward`` if it is a scheme, else a ``ValueError`` naming the schemes."""
    if reward not in REWARD_SCHEMES:
        raise ValueError(f"reward={reward!r} is not allowed; use one of {', '.join(REWARD_SCHEMES)}")
    return reward


def totals(state: Any) -> list[int]:
    """Each seat's points as if the game ended now (the engine's score breakdown)."""
    return [state.score_breakdown(p)["total"] for p in range(state.num_players)]


def final_rewards(state: Any, reward: str, totals_now: Sequence[int] | None = None,
                  returns: Sequence[float] | None = None) -> list[float]:
    """The end-of-game reward of each seat under ``reward`` (dense: its win part). ``totals_now`` and
    ``returns``: :func:`totals` and ``state.returns()``, when the caller already has them. A game with
    teams names each seat's team in ``game.teammates`` (seats; a seat is in its own team)."""
    if reward == "margin":
        t = totals(state) if totals_now is None else totals_now
        n = state.num_players
        mates = getattr(state.game, "teammates", None) or [(p,) for p in range(n)]
        out = []
        for p in range(n):
            others = [t[q] for q in range(n) if q not in mates[p]]
            out.append((t[p] - max(others)) / SCALE if others else 0.0)
        return out
    return [float(x) for x in (state.returns() if returns is None else returns)]
