"""The compatibility layer: the first game's old import paths name the modules of its new home.

*In the Hall of the Mountain King* lived at ``mk_env.rules`` and ``mk_env.env`` before the suite gave
every game its own subpackage; it now lives at ``mk_env.mountain_king.rules`` and
``mk_env.mountain_king.env``. Users' code, pickles and records name the old paths, so ``import mk_env``
puts a finder on ``sys.meta_path`` that answers every ``mk_env.rules[.X]`` and ``mk_env.env[.X]`` with the
module of the new path itself (not a copy): ``mk_env.rules.state.GameState is
mk_env.mountain_king.rules.state.GameState``, so ``isinstance`` and old pickles keep working.
"""

from __future__ import annotations

import importlib
import sys
from importlib.abc import Loader, MetaPathFinder
from importlib.machinery import ModuleSpec
from types import ModuleType
from typing import Any

#: old package -> the package it is now
ALIASES = {"mk_env.rules": "mk_env.mountain_king.rules", "mk_env.env": "mk_env.mountain_king.env"}


def new_name(name: str) -> str | None:
    """The module an old name now stands for, or None when ``name`` is not under an old package."""
    for old, new in ALIASES.items():
        if name == old or name.startswith(old + "."):
            return new + name[len(old):]
    return None


class AliasFinder(MetaPathFinder, Loader):
    """Finds ``mk_env.rules.X`` as ``mk_env.mountain_king.rules.X`` (the same module object)."""

    def find_spec(self, name: str, path: Any, target: Any = None) -> ModuleSpec | None:
        real = new_name(name)
        if real is None:
            return None
        return ModuleSpec(name, self, loader_state=real)

    def create_module(self, spec: ModuleSpec) -> ModuleType:
        """The module of the new path (imported now if it was not); the import system files it under the
        old name too."""
        module = importlib.import_module(spec.loader_state)
        spec.loader_state = module.__spec__  # the module's own spec, put back by exec_module
        return module

    def exec_module(self, module: ModuleType) -> None:
        """Nothing to run; only the module's own spec is put back (the import system set the alias's)."""
        module.__spec__ = module.__spec__.loader_state


def install() -> None:
    """Put the finder first on ``sys.meta_path`` (idempotent)."""
    if not any(isinstance(finder, AliasFinder) for finder in sys.meta_path):
        sys.meta_path.insert(0, AliasFinder())
