"""A game's env package names its public pieces without importing them: each is imported on first use, so
``import mk_env`` (which reads the packages' ``version`` modules to register the environments) imports
neither Gymnasium nor PettingZoo. Every game's ``env/__init__.py`` declares its names once with
:func:`lazy_exports`."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable
from typing import Any

#: what every game's env package names (its versioned module ``mk_env.<game>_v<N>`` gives the same)
VERSIONED_EXPORTS = ("ENV_NAME", "env", "layout_fingerprint", "raw_env", "single_seat_env")


def lazy_exports(package: str, exports: dict[str, str], submodules: Iterable[str] = ()
                 ) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """The ``__getattr__`` and ``__dir__`` of ``package``: ``exports`` maps a public name to the submodule of
    ``package`` defining it (imported and cached in the package on first use); a name of ``submodules``
    gives that submodule itself."""
    subs = tuple(submodules)

    def getattr_(name: str) -> Any:
        module = importlib.import_module(package)
        if name in exports:
            value = getattr(importlib.import_module(f"{package}.{exports[name]}"), name)
            setattr(module, name, value)
            return value
        if name in subs:
            return importlib.import_module(f"{package}.{name}")
        raise AttributeError(f"module {package!r} has no attribute {name!r}")

    def dir_() -> list[str]:
        return sorted(set(vars(importlib.import_module(package))) | set(exports) | set(subs))

    return getattr_, dir_
