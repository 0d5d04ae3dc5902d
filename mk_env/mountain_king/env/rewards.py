"""Reward schemes of the environment: the suite's (:mod:`mk_env.core.env.rewards`, "win", "margin" with the
team rule, "dense"), named here as before; the points are honour."""

from mk_env.core.env.rewards import REWARD_SCHEMES, SCALE, check_scheme, final_rewards, totals

__all__ = ["REWARD_SCHEMES", "SCALE", "check_scheme", "final_rewards", "totals"]
