"""mk_env: *In the Hall of the Mountain King* as a reinforcement-learning environment.

``mk_env.rules`` is the pure rules engine; the PettingZoo environment is ``mk_env.env(...)``
(``mk_env.raw_env(...)`` without the safety wrappers) and ``mk_env.single_seat_env(...)`` is a
single-seat Gymnasium view. They are imported lazily, so ``import mk_env.rules`` stays light.
"""

from typing import Any

__version__ = "0.1.0"

_ENV_EXPORTS = ("env", "raw_env", "single_seat_env")


def __getattr__(name: str) -> Any:
    if name in _ENV_EXPORTS:
        import importlib

        package = importlib.import_module("mk_env.env")  # also binds mk_env.env (callable package)
        return package if name == "env" else getattr(package, name)
    raise AttributeError(f"module 'mk_env' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(list(globals()) + list(_ENV_EXPORTS))
