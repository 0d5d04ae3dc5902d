"""The Take-away environment's version (the suite's version rule, :mod:`mk_env.core.env.version`)."""

from __future__ import annotations

from typing import Any

from mk_env.core.env.version import fingerprint
from mk_env.core.env.version import layout_description as shared_description

ENV_VERSION = 0
ENV_NAME = f"take_away_v{ENV_VERSION}"

VERSION_HISTORY: dict[int, tuple[str, str]] = {0: ("tests", "the suite's minimal game.")}

PINNED_LAYOUTS: dict[int, dict[int, str]] = {
    0: {2: "4ad2b2584f69031c", 3: "da1f36757a3390e1", 4: "6ed614d7513c372d"},
}


def layout_description(game: Any) -> dict[str, Any]:
    """What the fingerprint hashes: the environment name, the observation arrays and the action blocks."""
    from .observation import TakeAwayObserver

    return shared_description(ENV_NAME, TakeAwayObserver(game).fields,
                              [(str(b), size) for b, size in game.layout.sizes.items()])


def layout_fingerprint(game: Any) -> str:
    """16 hex digits of what a trained policy depends on (:func:`mk_env.core.env.version.fingerprint`)."""
    return fingerprint(layout_description(game))
