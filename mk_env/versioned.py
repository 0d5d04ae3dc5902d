"""The versioned modules of the suite's environments, PettingZoo's ``classic/<game>_vN`` convention, made from
the game card (:mod:`mk_env.games`) rather than written per version.

For every game of the table, ``import mk_env.<name>_v<N>``:

* with ``N`` its current ``ENV_VERSION``: a module naming the game's factories ``env``, ``raw_env``,
  ``single_seat_env``, and ``ENV_NAME``, ``layout_fingerprint`` (the very objects of its env package);
* with an older ``N``: a *retired* module. It imports, as PettingZoo's replaced ``<game>_vN`` modules do, and
  asking it for any of those names raises :class:`~mk_env.core.errors.RetiredVersionError` (an
  ``ImportError``) naming the version to use, never other rules under the old name;
* with a newer ``N``: no such module (``ModuleNotFoundError``).

So a version bump is one line, the game's ``ENV_VERSION``: the new module, the retired one, the PettingZoo
and Gymnasium ids (:mod:`mk_env.registration`) all follow from it. ``import mk_env`` installs the finder.

>>> import importlib
>>> from mk_env.games import game_entry
>>> name = game_entry("cave_troll").env_name()  # "cave_troll_v<ENV_VERSION>"
>>> importlib.import_module(f"mk_env.{name}").ENV_NAME == name
True
"""

from __future__ import annotations

import importlib
import re
import sys
from importlib.abc import Loader, MetaPathFinder
from importlib.machinery import ModuleSpec
from types import ModuleType
from typing import Any, NoReturn

from mk_env.core.env.lazy import VERSIONED_EXPORTS
from mk_env.core.errors import RetiredVersionError
from mk_env.games import GAMES, GameEntry

_VERSIONED = re.compile(r"mk_env\.(?P<game>[a-z][a-z0-9_]*?)_v(?P<version>0|[1-9][0-9]{0,5})")


def versioned_spec(name: str) -> tuple[GameEntry, int, int] | None:
    """(game, version asked, current version) for a module name ``mk_env.<game>_v<N>`` that exists."""
    match = _VERSIONED.fullmatch(name)
    entry = GAMES.get(match["game"]) if match else None
    if entry is None:
        return None
    asked, current = int(match["version"]), entry.env_version()
    return (entry, asked, current) if asked <= current else None


class VersionedModuleFinder(MetaPathFinder, Loader):
    """Finds ``mk_env.<game>_v<N>`` for the games of the card (see the module's docstring)."""

    def find_spec(self, name: str, path: Any, target: Any = None) -> ModuleSpec | None:
        found = versioned_spec(name)
        return None if found is None else ModuleSpec(name, self, loader_state=found)

    def create_module(self, spec: ModuleSpec) -> None:
        """The default module object."""
        return None

    def exec_module(self, module: ModuleType) -> None:
        """Fill the current version's module with the env package's names, or make a retired one refuse."""
        entry, asked, current = module.__spec__.loader_state
        if asked == current:
            fill_current(module, entry)
        else:
            fill_retired(module, entry, asked, current)


def fill_current(module: ModuleType, entry: GameEntry) -> None:
    """``module`` names the env package's factories (the same objects; imported now)."""
    package = importlib.import_module(entry.env)
    module.__doc__ = (f"*{entry.title}*, version {entry.env_version()} of its environment: "
                      f"``{module.__name__}.env(num_players=...)`` (safety wrappers), ``raw_env(...)`` and "
                      f"``single_seat_env(...)``, the factories of :mod:`{entry.env}` (made by "
                      f":mod:`mk_env.versioned` from the game card).")
    for name in VERSIONED_EXPORTS:
        setattr(module, name, getattr(package, name))
    module.__all__ = list(VERSIONED_EXPORTS)


def fill_retired(module: ModuleType, entry: GameEntry, asked: int, current: int) -> None:
    """``module`` imports but refuses every environment name in one line, naming the current version."""
    retired, now = entry.env_name(asked), entry.env_name(current)
    module.__doc__ = (f"*{entry.title}*, version {asked} of its environment: retired ({now} changed the "
                      f"observations, actions, rules or rewards; see its Version history).")
    module.RetiredVersionError = RetiredVersionError

    def refuse(name: str) -> NoReturn:
        if name in VERSIONED_EXPORTS:
            raise RetiredVersionError(
                f"{retired} is retired: its rules or layouts changed in {now} (see the Version history of "
                f"{entry.title}'s environment docs); use mk_env.{now}.{name}, or the mk_env release that "
                f"shipped {retired}")
        raise AttributeError(f"module {module.__name__!r} has no attribute {name!r}")

    module.__getattr__ = refuse


def install() -> None:
    """Put the finder on ``sys.meta_path`` (idempotent)."""
    if not any(isinstance(finder, VersionedModuleFinder) for finder in sys.meta_path):
        sys.meta_path.append(VersionedModuleFinder())
