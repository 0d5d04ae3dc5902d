"""The Cave Troll environment's version; its ids and versioned module follow from it
(:mod:`mk_env.registration`, :mod:`mk_env.versioned`).

The version rule is the suite's (:mod:`mk_env.core.env.version`): any change to the observations, the
actions, the rules or the rewards bumps ``ENV_VERSION`` (``cave_troll_v0`` -> ``cave_troll_v1`` ...) and adds
its line to :data:`VERSION_HISTORY`; a refactor or a speed-up does not. This module imports neither
PettingZoo nor Gymnasium.
"""

from __future__ import annotations

from typing import Any

from mk_env.core.env.version import fingerprint, layout_description
from mk_env.core.env.version import version_lines as shared_version_lines

ENV_VERSION = 0
ENV_NAME = f"cave_troll_v{ENV_VERSION}"

#: each version: (the release it came with, what changed), the Version history of the docs
VERSION_HISTORY: dict[int, tuple[str, str]] = {
    0: ("mk_env 0.1.0", "first release of Cave Troll in the suite."),
}


def version_lines() -> str:
    """The Version history's list (markdown), newest last."""
    return shared_version_lines(VERSION_HISTORY)


def layout_fingerprint(game: Any) -> str:
    """A short hex digest (16 hex digits of SHA-256) of what a trained policy depends on: the environment
    name, the observation arrays (key, shape, entry names) and the action blocks (name, size) of ``game``
    (a :class:`mk_env.cave_troll.rules.Game`), computed as for every game (:mod:`mk_env.core.env.version`).
    A model file records it; ``ppo:PATH`` refuses a game whose fingerprint differs."""
    from .observation import CaveTrollObserver

    sizes = [(str(block), size) for block, size in game.layout.sizes.items()]
    return fingerprint(layout_description(ENV_NAME, CaveTrollObserver(game).fields, sizes))

