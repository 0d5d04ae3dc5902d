"""The PettingZoo environment of *In the Hall of the Mountain King* (documentation:
:mod:`mk_env.mountain_king.env.aec`).

>>> import mk_env
>>> e = mk_env.env(num_players=3)           # this package is itself callable: mk_env.env(...)
>>> e = mk_env.env.raw_env(num_players=3)   # strict: an illegal action raises IllegalActionError
>>> g = mk_env.single_seat_env(num_players=2)  # a Gymnasium env for one learner seat

The names below are imported on first use, so ``import mk_env`` (which registers the environments,
see :mod:`mk_env.registration`) and ``import mk_env.mountain_king.env.version`` import neither Gymnasium nor
PettingZoo. The package pickles by reference (``pickle.dumps(mk_env.env)``, ``functools.partial(
mk_env.env, num_players=2)``), so worker processes can be handed the factory itself.
"""

from __future__ import annotations

import importlib
import sys
import types
from typing import Any

from mk_env.core.env.lazy import lazy_exports

#: public name -> the module of this package that defines it
_EXPORTS = {
    "ENV_NAME": "version", "ENV_VERSION": "version", "layout_fingerprint": "version",
    "action_references": "references",
    "env": "aec", "raw_env": "aec",
    "Observer": "observation",
    "legal_action_numbers": "masks", "random_legal_action": "masks",
    "SingleSeatEnv": "single_seat", "random_opponent": "single_seat", "single_seat_env": "single_seat",
    "FlattenObservation": "wrappers", "OBSERVATION_STYLES": "wrappers", "observation_slices": "wrappers",
}
_SUBMODULES = ("aec", "docs", "masks", "observation", "references", "render", "render_image", "replay_html",
               "rewards", "single_seat", "version", "wrappers")
__all__ = sorted(_EXPORTS)


__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS, _SUBMODULES)


class _CallableModule(types.ModuleType):
    """Lets ``mk_env.mountain_king.env`` be both this package and the ``env(...)`` factory; it pickles by name."""

    def __call__(self, *args: Any, **kwargs: Any):
        return getattr(self, "env")(*args, **kwargs)

    def __reduce__(self) -> tuple:
        return importlib.import_module, (self.__name__,)


sys.modules[__name__].__class__ = _CallableModule
