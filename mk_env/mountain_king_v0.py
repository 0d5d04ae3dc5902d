"""*In the Hall of the Mountain King*, version 0 of its environment: retired. Version 1 changed the rules
(issue 16; the Version history of docs/environment.md), so this mk_env has no v0 environment to give.
As PettingZoo does with a ``<game>_vN`` module it has replaced, the module still imports, and asking it
for an environment (``env``, ``raw_env``, ``single_seat_env``, ``ENV_NAME``, ``layout_fingerprint``)
raises :class:`RetiredVersionError` (an ``ImportError``), naming the version to use instead of quietly
giving other rules under the old name."""

from __future__ import annotations

from typing import NoReturn

from mk_env.mountain_king.env.version import ENV_NAME as CURRENT

RETIRED = "mountain_king_v0"
_ENV_NAMES = ("ENV_NAME", "env", "layout_fingerprint", "raw_env", "single_seat_env")


class RetiredVersionError(ImportError):
    """An environment version this mk_env no longer provides."""


def __getattr__(name: str) -> NoReturn:
    if name in _ENV_NAMES:
        raise RetiredVersionError(
            f"{RETIRED} is retired: its rules changed in {CURRENT} (see the Version history in "
            f"docs/environment.md); use mk_env.{CURRENT}.{name}, or mk_env 0.1.0 for {RETIRED}'s rules")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
