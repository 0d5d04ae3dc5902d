"""Registration with PettingZoo's and Gymnasium's registries on ``import mk_env``, importing neither.

* PettingZoo: ``pettingzoo.make("aec", "mountain_king_v1", num_players=2)`` (``mk_env.env(...)``);
* Gymnasium: ``gymnasium.make("mk_env/MountainKing-v1", num_players=2)`` and
  ``gymnasium.make_vec("mk_env/MountainKing-v1", num_envs=8, num_players=2)`` (the single-seat view,
  :class:`mk_env.mountain_king.env.SingleSeatEnv`).

``import mk_env`` runs :func:`register_on_import`: a library already imported is told now; one not yet
imported is told the moment it is (a finder on ``sys.meta_path`` wraps that library's loader and
runs the registration right after the library's own code), so ``import mk_env.mountain_king.rules`` stays light.
The entry points are strings, so a registry imports the environment only when it makes one.
"""

from __future__ import annotations

import sys
import warnings
from collections.abc import Callable
from importlib.abc import MetaPathFinder
from importlib.machinery import ModuleSpec
from typing import Any

from mk_env.mountain_king.env.version import ENV_NAME, ENV_VERSION

GYMNASIUM_ID = f"mk_env/MountainKing-v{ENV_VERSION}"
PETTINGZOO_ID = ENV_NAME


def register_pettingzoo() -> None:
    """Register ``mountain_king_v<N>`` (AEC) where the installed PettingZoo has a registry."""
    import pettingzoo

    if not hasattr(pettingzoo, "register") or PETTINGZOO_ID in getattr(pettingzoo, "aec_registry", {}):
        return
    pettingzoo.register("aec", PETTINGZOO_ID, entry_point="mk_env.mountain_king.env.aec:env")
    __import__("mk_env.cave_troll.env.version", fromlist=["_"]).register_pettingzoo()  # cave_troll_v0
    __import__("mk_env.fall_of_the_mountain_king.env.version", fromlist=["_"]).register_pettingzoo()


def register_gymnasium() -> None:
    """Register the single-seat view as ``mk_env/MountainKing-v<N>``."""
    import gymnasium

    if GYMNASIUM_ID not in gymnasium.registry:
        gymnasium.register(GYMNASIUM_ID, entry_point="mk_env.mountain_king.env.single_seat:SingleSeatEnv")


REGISTRATIONS: dict[str, Callable[[], None]] = {"pettingzoo": register_pettingzoo,
                                                "gymnasium": register_gymnasium}


def _run(name: str, register: Callable[[], None]) -> None:
    try:
        register()
    except Exception as err:  # noqa: BLE001 - a registry we cannot use must never break an import
        warnings.warn(f"mk_env could not register with {name}: {err!r}", RuntimeWarning, stacklevel=2)


class _RegisterOnImport(MetaPathFinder):
    """Runs a registration right after its library is imported (it wraps that library's loader)."""

    def __init__(self, pending: dict[str, Callable[[], None]]):
        self.pending = dict(pending)

    def find_spec(self, name: str, path: Any, target: Any = None) -> ModuleSpec | None:
        if name not in self.pending:
            return None
        spec = _find_elsewhere(self, name, path, target)
        if spec is None or spec.loader is None or not hasattr(spec.loader, "exec_module"):
            return spec
        register = self.pending.pop(name)
        if not self.pending and self in sys.meta_path:
            sys.meta_path.remove(self)
        exec_module = spec.loader.exec_module

        def exec_then_register(module: Any) -> None:
            exec_module(module)
            _run(name, register)

        spec.loader.exec_module = exec_then_register  # this spec's own loader object
        return spec


def _find_elsewhere(me: MetaPathFinder, name: str, path: Any, target: Any) -> ModuleSpec | None:
    """The spec the other finders on ``sys.meta_path`` give for ``name``."""
    for finder in sys.meta_path:
        find = getattr(finder, "find_spec", None)
        if finder is not me and find is not None:
            spec = find(name, path, target)
            if spec is not None:
                return spec
    return None


def register_on_import() -> None:
    """Register with each library now if it is imported, else when it is (idempotent)."""
    pending = {}
    for name, register in REGISTRATIONS.items():
        if name in sys.modules:
            _run(name, register)
        else:
            pending[name] = register
    if pending and not any(isinstance(f, _RegisterOnImport) for f in sys.meta_path):
        sys.meta_path.insert(0, _RegisterOnImport(pending))
