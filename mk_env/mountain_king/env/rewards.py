"""Reward schemes of the environment: "win" (default), "margin" and "dense".

* ``win``: nothing during the game; at the end the engine's ``state.returns()``: +1 to the winner
  (after the tie-break; exact ties share the win) and -1/(n-1) to each other player.
* ``margin``: nothing during the game; at the end ``(own total - best total of a player outside
  my team) / 100``.
* ``dense``: after every step, each player gets the change of their ``score_breakdown(p)["total"]``
  since the previous step, / 100 (honour-gain shaping; a player sees the sum since their last
  step), plus the ``win`` reward at the end.
"""

from __future__ import annotations

from mk_env.mountain_king.rules import GameState, scoring

REWARD_SCHEMES = ("win", "margin", "dense")
SCALE = 100.0  # honour points per unit of reward in "margin" and "dense"


def check_scheme(reward: str) -> str:
    if reward not in REWARD_SCHEMES:
        raise ValueError(f"reward={reward!r} is not allowed; use one of {', '.join(REWARD_SCHEMES)}")
    return reward


def totals(state: GameState) -> list[int]:
    """Each seat's honour as if the game ended now (the engine's score breakdown)."""
    return [state.score_breakdown(p)["total"] for p in range(state.num_players)]


def final_rewards(state: GameState, reward: str, totals_now: list[int] | None = None,
                  ranks: list[int] | None = None) -> list[float]:
    """The end-of-game reward of each seat under ``reward`` (dense: its win part). ``totals_now``
    and ``ranks``: :func:`totals` and ``state.ranks()``, when the caller already has them."""
    if reward == "margin":
        t = totals(state) if totals_now is None else totals_now
        mates = state.game.teammates
        out = []
        for p in range(state.num_players):
            others = [t[q] for q in range(state.num_players) if q not in mates[p]]
            out.append((t[p] - max(others)) / SCALE if others else 0.0)
        return out
    return [float(x) for x in scoring.returns(state, ranks)]
