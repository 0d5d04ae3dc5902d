"""Registration with PettingZoo's and Gymnasium's registries on ``import mk_env``, importing neither, for every
game of the card (:mod:`mk_env.games`), its ids read from its current version:

* PettingZoo: ``pettingzoo.make("aec", "<game>_v<N>", num_players=2)`` (the card's ``GameEntry.env_name()``; the game's
  ``env(...)``, with the safety wrappers);
* Gymnasium: ``gymnasium.make("mk_env/<Name>-v<N>", num_players=2)`` (``GameEntry.gymnasium_id()``; the game's
  single-seat view) and ``gymnasium.make_vec(..., num_envs=8)`` (the game's batched vector env where it has
  one, ``GameEntry.vector``, else copies of the single-seat view; ``vectorization_mode="sync"`` asks for the
  copies). An older version's id is refused by Gymnasium itself, naming the current one.

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

from mk_env.games import GAMES, GameEntry


def pettingzoo_entry_point(entry: GameEntry) -> str:
    """The factory PettingZoo's registry names: the env package's ``aec.env``."""
    return f"{entry.env}.aec:env"


def register_pettingzoo() -> None:
    """Register every game's ``<game>_v<N>`` (AEC) where the installed PettingZoo has a registry
    (idempotent: the registry keeps its own spelling of the id, ``<game>-v<N>``)."""
    import pettingzoo

    if not hasattr(pettingzoo, "register"):
        return
    known = {getattr(spec, "entry_point", None) for spec in getattr(pettingzoo, "aec_registry", {}).values()}
    for entry in GAMES.values():
        if pettingzoo_entry_point(entry) not in known:
            pettingzoo.register("aec", entry.env_name(), entry_point=pettingzoo_entry_point(entry))


def register_gymnasium() -> None:
    """Register every game's single-seat view as ``mk_env/<Name>-v<N>``."""
    import gymnasium

    for entry in GAMES.values():
        if entry.gymnasium_id() not in gymnasium.registry:
            gymnasium.register(entry.gymnasium_id(), entry_point=entry.single_seat,
                               vector_entry_point=entry.vector or None)


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
