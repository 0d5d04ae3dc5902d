"""mk_env: a suite of board games as reinforcement-learning environments, each game its own subpackage.

*In the Hall of the Mountain King* is ``mk_env.mountain_king`` (``mk_env.mountain_king_v1``) and *Cave
Troll* is ``mk_env.cave_troll`` (``mk_env.cave_troll_v0``); :mod:`mk_env.games` lists them. The first
game's old paths ``mk_env.rules`` and ``mk_env.env`` name the same modules (:mod:`mk_env.compat`).
``mk_env.rules`` is its pure rules engine; its PettingZoo environment is ``mk_env.env(...)``
(``mk_env.raw_env(...)`` without the safety wrappers) and ``mk_env.single_seat_env(...)`` is a
single-seat Gymnasium view. They are imported lazily, so ``import mk_env.rules`` stays light;
``import mk_env`` registers them with PettingZoo (``mountain_king_v1``) and Gymnasium
(``mk_env/MountainKing-v1``) without importing either (see :mod:`mk_env.registration`).
"""

from typing import Any

from . import compat

compat.install()

from . import env  # noqa: E402 - the first game's environment package, through the compatibility layer
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
