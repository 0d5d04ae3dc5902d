"""The PettingZoo environment of *In the Hall of the Mountain King* (documentation: :mod:`mk_env.env.aec`).

>>> import mk_env
>>> e = mk_env.env(num_players=3)           # this package is itself callable: mk_env.env(...)
>>> e = mk_env.env.raw_env(num_players=3)   # strict: an illegal action raises IllegalActionError
>>> g = mk_env.single_seat_env(num_players=2)  # a Gymnasium env for one learner seat
"""

from __future__ import annotations

import sys
import types
from typing import Any

from .aec import ENV_NAME, env, raw_env
from .masks import legal_action_numbers, random_legal_action
from .observation import Observer
from .single_seat import SingleSeatEnv, random_opponent, single_seat_env

__all__ = ["ENV_NAME", "Observer", "SingleSeatEnv", "env", "legal_action_numbers", "random_legal_action",
           "random_opponent", "raw_env", "single_seat_env"]


class _CallableModule(types.ModuleType):
    """Lets ``mk_env.env`` be both this package and the ``env(...)`` factory."""

    def __call__(self, *args: Any, **kwargs: Any):
        return env(*args, **kwargs)


sys.modules[__name__].__class__ = _CallableModule


def _register() -> None:
    """Register ``mountain_king_v0`` with PettingZoo's registry where the installed version has one."""
    try:
        from pettingzoo import register
    except ImportError:  # older PettingZoo: no registry, nothing to do
        return
    try:
        from pettingzoo import env_registry
        if f"{ENV_NAME}" in getattr(env_registry, "registry", {}):
            return
    except ImportError:
        pass
    register("aec", ENV_NAME, entry_point="mk_env.env.aec:env")


_register()
