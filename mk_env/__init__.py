"""mk_env: a suite of board games as reinforcement-learning environments, each game its own subpackage.

:mod:`mk_env.games` lists them: *In the Hall of the Mountain King* is ``mk_env.mountain_king``, *Cave Troll*
``mk_env.cave_troll``, *Fall of the Mountain King* ``mk_env.fall_of_the_mountain_king``; each one's versioned
module ``mk_env.<game>_v<N>`` names its factories (``env``, ``raw_env``, ``single_seat_env``;
:mod:`mk_env.versioned`). The first game's old paths ``mk_env.rules`` and ``mk_env.env`` name the same
modules (:mod:`mk_env.compat`): ``mk_env.env(...)`` is its PettingZoo environment (``mk_env.raw_env(...)``
without the safety wrappers) and ``mk_env.single_seat_env(...)`` a single-seat Gymnasium view. They are
imported lazily, so ``import mk_env.rules`` stays light; ``import mk_env`` registers every game with
PettingZoo (``<game>_v<N>``) and Gymnasium (``mk_env/<Name>-v<N>``) without importing either (see
:mod:`mk_env.registration`).
"""

import importlib
from typing import Any

from . import compat, versioned

compat.install()
versioned.install()

from . import env  # noqa: E402 - the first game's environment package, through the compatibility layer
from .registration import register_on_import

__version__ = "0.1.0"

_ENV_EXPORTS = ("raw_env", "single_seat_env")

register_on_import()


def __getattr__(name: str) -> Any:
    if name in _ENV_EXPORTS:
        return getattr(env, name)
    if versioned.versioned_spec(f"{__name__}.{name}"):  # ``mk_env.<game>_v<N>`` without importing it first
        return importlib.import_module(f"{__name__}.{name}")
    raise AttributeError(f"module 'mk_env' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(list(globals()) + list(_ENV_EXPORTS))
