"""mk_env: *In the Hall of the Mountain King* as a reinforcement-learning environment.

``mk_env.rules`` is the pure rules engine; the PettingZoo environment is ``mk_env.env(...)``
(``mk_env.raw_env(...)`` without the safety wrappers) and ``mk_env.single_seat_env(...)`` is a
single-seat Gymnasium view. They are imported lazily, so ``import mk_env.rules`` stays light;
``import mk_env`` registers them with PettingZoo (``mountain_king_v0``) and Gymnasium
(``mk_env/MountainKing-v0``) without importing either (see :mod:`mk_env.registration`).
"""

from typing import Any

from . import env
from .registration import register_on_import

__version__ = "0.1.0"

_ENV_EXPORTS = ("raw_env", "single_seat_env")

register_on_import()


def __getattr__(name: str) -> Any:
    if name in _ENV_EXPORTS:
        return getattr(env, name)
    raise AttributeError(f"module 'mk_env' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(list(globals()) + list(_ENV_EXPORTS))
